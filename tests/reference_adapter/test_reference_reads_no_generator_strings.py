"""The reference adapter reads documents by general means, never by strings copied from the
generators that wrote them (the Legal issue: "it must not key on strings copied from the
generator"; Extract v2, issue 13: "not strings copied from one generator"). Checked mechanically:
no run of five words from any string of the synthetic document generators, Legal and Extract,
occurs in a string of the adapter's code (its patterns read as the words they match), except
legal idioms any reader of such documents knows, listed here with their reason."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SYNTH = REPO / "envirobench-synth" / "src" / "envirobench_synth"
# The Legal generators.
GENERATORS = [SYNTH / "legal", REPO / "envirobench-legal" / "src" / "envirobench_legal" / "generate"]
# The Extract generators, v1 and v2: the lab-report and grid-table synthesis (every module of
# envirobench_synth outside `legal`, vocabulary and analyte catalogue included) and the dataset
# generators; any module added there later is checked too.
EXTRACT_GENERATORS = [SYNTH, REPO / "envirobench-extract" / "src" / "envirobench_extract" / "generate"]
ADAPTER = REPO / "envirobench-reference-adapter" / "src" / "envirobench_reference_adapter"
RUN = 5
# Boilerplate of real instruments and contracts, which a reader is expected to know.
IDIOMS = {
    "indemnify defend and hold harmless": "the standard indemnity covenant",
    "not in the aggregate exceed": "the standard way a cap is stated",
    "purchase price for the property": "how every purchase agreement names its price",
    "price for the property is": "the same sentence",
    "reserves and retains the fee": "how a lessor keeps its fee title (railroad leases)",
}


def strings(path: Path, *, docstrings: bool) -> Iterator[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = set()
    if not docstrings:
        for node in ast.walk(tree):
            body = getattr(node, "body", None)
            if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                skipped.add(id(body[0].value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped:
            yield node.value


def words(text: str) -> list[str]:
    text = re.sub(r"\\[A-Za-z]", " ", text)  # \s+, \b ... in a pattern separate words
    text = re.sub(r"\[[^\]]*\]|\(\?:|\(\?i\)", " ", text)
    return re.findall(r"[a-z0-9']+", text.lower())


def runs(text: str) -> Iterator[str]:
    for piece in re.split(r"\{[^}]*\}", text):  # format fields are not words of the document
        found = words(piece)
        for start in range(len(found) - RUN + 1):
            yield " ".join(found[start : start + RUN])


def generator_runs(paths) -> set[str]:
    """Every run of RUN words in the strings (docstrings too) of these generator modules."""
    return {run for path in paths for text in strings(path, docstrings=True) for run in runs(text)}


def copied_runs(generated: set[str]) -> dict[str, list[str]]:
    """Adapter module -> the generator runs found in its strings (docstrings aside), idioms aside."""
    copied: dict[str, list[str]] = {}
    for path in sorted(ADAPTER.rglob("*.py")):
        text = " | ".join(" ".join(words(s)) for s in strings(path, docstrings=False))
        for run in sorted(generated):
            if run in text and run not in IDIOMS:
                copied.setdefault(str(path.relative_to(REPO)), []).append(run)
    return copied


def test_no_five_words_of_a_legal_generator_are_in_the_reference_adapter():
    generated = generator_runs(path for folder in GENERATORS for path in folder.glob("*.py"))
    assert len(generated) > 1000
    assert copied_runs(generated) == {}, "the reference adapter holds strings of the generators: read by general means instead"


def test_no_five_words_of_an_extract_generator_are_in_the_reference_adapter():
    legal = SYNTH / "legal"
    paths = [path for folder in EXTRACT_GENERATORS for path in folder.rglob("*.py") if legal not in path.parents]
    assert any(path.parent.name == "labreport" for path in paths)
    assert any(path.parent.name == "site" for path in paths)  # the site records' documents
    generated = generator_runs(paths)
    assert len(generated) > 1000
    assert copied_runs(generated) == {}, "the reference adapter holds strings of the Extract generators: read by general means instead"


# The dataset generators of the other categories (their documents come from synth, checked above;
# these modules write the cases, questions and fixtures around them).
CATEGORY_GENERATORS = [REPO / name / "src" / name.replace("-", "_") / "generate" for name in ("envirobench-locate", "envirobench-verify", "envirobench-research", "envirobench-site")]


def test_no_five_words_of_the_other_categories_generators_are_in_the_reference_adapter():
    paths = [path for folder in CATEGORY_GENERATORS for path in folder.glob("*.py")]
    assert len(paths) >= 14
    generated = generator_runs(paths)
    assert len(generated) > 300
    assert copied_runs(generated) == {}, "the reference adapter holds strings of the generators: read by general means instead"


def test_the_check_finds_a_copied_string():
    generated = set(runs("{term} reserves and retains the fee title to the Premises."))
    assert "retains the fee title to" in generated
    pattern = r"\bretains\s+the\s+fee\s+title\s+to\b"
    assert "retains the fee title to" in " ".join(words(pattern))
