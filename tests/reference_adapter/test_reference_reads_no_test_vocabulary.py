"""The reference adapter is developed on the dev splits only (issue 13: "the test split uses
families and vocabulary that the dev split never shows"), so its test-split score is honest only
if its code knows no word that only test documents print. Checked mechanically: no string literal
of the adapter (docstrings, regular expressions and the parts of f-strings included) contains a
test-only term of the synonym catalogue (`envirobench_synth.vocabulary.test_only_terms()`) of
three characters or more as a whole word or phrase, case-insensitive. Patterns are read as the
words they match (`amount\\s+found` as "amount found"), as the generator-strings test reads them."""

from __future__ import annotations

import ast
import re

from test_reference_reads_no_generator_strings import ADAPTER, REPO, strings, words

from envirobench_synth import vocabulary

MIN_LENGTH = 3  # shorter terms ("Q", "DL") are letters any pattern holds
# Only the solvers of Extract types read lab reports; the solvers of other categories (Legal's
# deeds and contracts, Locate's site files) read no Extract document, so words they know ("N/A" in
# a form's blank) cannot lift an Extract score. The modules the solvers share (layout, ocr,
# pdftext, quantities, results_tables, headers, protocol ...) are all checked, except one that
# only solvers of other categories import (OTHER_CATEGORIES_ONLY).
EXTRACT_TYPES = frozenset(
    {
        "document-extraction",
        "table-records",
        "report-metadata",
        "table-separators",
        "table-structure",
        "table-cells",
        # Site's results and exceedances are read from the site records' laboratory reports, which
        # the Extract v2 families print (test families in the test split).
        "site-results",
        "exceedance-summary",
    }
)


def extract_solvers() -> list:
    """The solver modules of Extract types, by the benchmark type each declares it serves."""
    found = []
    for path in sorted((ADAPTER / "solvers").glob("*.py")):
        match = re.search(r'^SERVES = Serves\("([^"]+)"', path.read_text(encoding="utf-8"), re.M)
        if match and match.group(1) in EXTRACT_TYPES:
            found.append(path)
    return found


def imports_of(path) -> set[str]:
    """The adapter modules a module imports (`from .. import layout`, `from ..ocr import x`,
    `from . import pdftext`), by their file stem."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            if node.module:
                found.add(node.module.split(".")[-1])
            found.update(alias.name for alias in node.names)
    return found


# Shared modules (beside the solvers) that read no Extract document: Research's property-record
# reader, used by the missing-information and cited-answers solvers only (checked below).
OTHER_CATEGORIES_ONLY = frozenset({"property_records"})


def importers_of(name: str) -> set[str]:
    """The adapter modules (solvers and shared ones) that import module `name`."""
    paths = [*ADAPTER.glob("*.py"), *(ADAPTER / "solvers").glob("*.py")]
    return {path.stem for path in paths if name in imports_of(path)}


def unescaped(text: str) -> str:
    """A pattern read as the text it matches: whitespace classes as a space, escapes dropped."""
    text = re.sub(r"\\s[+*]?|\\b", " ", text)
    return re.sub(r"\\(\W)", r"\1", text)


def term_pattern(term: str) -> re.Pattern[str]:
    """The term as a whole word or phrase: not inside a longer word, any whitespace between words."""
    body = r"\s+".join(re.escape(part) for part in term.split())
    return re.compile(rf"(?<!\w){body}(?!\w)", re.IGNORECASE)


def found_terms(text: str, terms: list[str]) -> list[str]:
    """The terms that occur in `text` as written, or in it read as a pattern (`amount\\s+found`);
    a term of letters and spaces only is also found among the pattern's words ("(amount) found")."""
    # Identifiers (`run_id`) are names in the code, not words of a document.
    readings = (text, unescaped(text), " ".join(words(re.sub(r"\w+_\w+", " ", text))))
    found = []
    for term in terms:
        pattern = term_pattern(term)
        plain = re.fullmatch(r"[A-Za-z0-9 ]+", term) is not None
        if any(pattern.search(reading) for reading in (readings if plain else readings[:2])):
            found.append(term)
    return found


def test_only_terms_of_three_characters_or_more_exist():
    terms = [term for term in vocabulary.test_only_terms() if len(term) >= MIN_LENGTH]
    # The check is vacuous without them: the catalogue keeps a test-only share of every role.
    assert len(terms) >= 20


def test_no_test_only_term_is_in_the_reference_adapter():
    terms = sorted(term for term in vocabulary.test_only_terms() if len(term) >= MIN_LENGTH)
    checked = {path.stem for path in extract_solvers()}
    assert checked == {benchmark.replace("-", "_") for benchmark in EXTRACT_TYPES}
    for name in OTHER_CATEGORIES_ONLY:
        other_solvers = {path.stem for path in (ADAPTER / "solvers").glob("*.py")} - checked - {"__init__"}
        assert importers_of(name) and importers_of(name) <= other_solvers, name
    held = {}
    for path in sorted(ADAPTER.rglob("*.py")):
        if path.parent.name == "solvers" and path.stem != "__init__" and path.stem not in checked:
            continue
        if path.parent == ADAPTER and path.stem in OTHER_CATEGORIES_ONLY:
            continue
        for text in strings(path, docstrings=True):
            for term in found_terms(text, terms):
                held.setdefault(str(path.relative_to(REPO)), set()).add(term)
    assert held == {}, (
        "the reference adapter holds test-only vocabulary: develop on dev terms and general means only"
    )


def test_the_check_finds_a_term_in_a_pattern_and_only_as_a_whole_word():
    terms = ["Amount Found", "UOM", "CAS #"]
    assert found_terms(r"^(result|amount\s+found)\b", terms) == ["Amount Found"]
    assert found_terms(r"(?i)\b(amount) (found)", terms) == ["Amount Found"]
    assert found_terms("Units (UOM)", terms) == ["UOM"]
    assert found_terms("an amount found in", terms) == ["Amount Found"]
    assert found_terms(r"^cas\s*\#", terms) == ["CAS #"]
    assert found_terms("UOMS are not it", terms) == []
    assert found_terms("amounts found", terms) == []
    assert found_terms("CAS number", terms) == []
