"""docs/reference-scores.md's Research table for `missing-information`: blind and near-blind
baselines and columns (read by benchmarks/reference_scores.py --research).

The near-blind shortcut (`answerability_prior`) is fitted on the dev split and reads no PDF: only
the record's file names and the shape of each question (its declared type and unit, the document
kind its words name, whether it names one well, tank, invoice or permit, whether it names a day or
only a year). Data v1 named the files by kind (`-nfa-letter.pdf`, `-easement.pdf`, ...), and the
shortcut read from them whether the record holds the kind a question names; the files are now
named `record-010-doc-03.pdf` in a seeded order, so all the names still tell is how many files the
record has (which grows with the optional documents), and the shortcut keeps that. A file name
that names a kind (`holds`) is still read, should one come back. For each shape it learns from
dev how often the record answers the question and the commonest true value, and answers that
value only where the formula says it pays (a·q > 6(1 − a), a the answerable share, q the share of
answerable questions whose truth is that value); everywhere else it abstains.

A second near-blind shortcut adds the files' sizes: scanned documents are page images (7–21 KB),
text-layer ones 2–3 KB, so the number of large files says how many of the record's documents are
scans, and some kinds are scanned more often than others (an easement, a deed). The size that
parts the two (the largest ratio between neighbouring sizes of dev's files) is fitted on dev.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from functools import cache

from _blind import typed_guess
from _shortcuts import scored_file_size
from _spec_parts import by_category, count, formula_score, share

from envirobench_research.package import PACKAGE

NOT_IN_RECORD = "not in the record"
BENCHMARK = "missing-information"
UNIT = "records (the questions about one record resampled together)"
INTRO = (
    "The reference adapter (`solvers/missing_information.py` reading with `property_records.py`, developed on the dev split only: the text layer or "
    "OCR of scanned pages, wrapped lines joined into sentences, BM25 over lines and pages with dates and "
    "identifiers as anchors, typed extraction by the declared answer type, and 'not in the record' when an anchor "
    "is on no page, the document kind asked about heads no document, the question names no tank, well or invoice "
    "where there are several, a current value is said to have changed without a date, or no line yields a value) "
    "on both splits; the test split's office styles, titles and wordings never occur in dev. Primary: the category "
    "formula, 100 × max(0, (right − 5 × invented) ÷ questions), where *invented* is an answer to a question the "
    "record does not answer (scoring v2: a wrong value to an answerable question is wrong, not invented); unclipped "
    "beside it. Beside the reference, blind baselines: always 'not in the record' (scores the unanswerable share), "
    "always answer with a plausible value of the declared type (a fixed date, 30 ft, 4,000 gal, 10 ug/L, $5,000, "
    "'yes', ...); and a near-blind shortcut fitted on dev that reads no PDF: the record's file names (neutral, `record-010-doc-03.pdf` "
    "in a seeded order: they tell only how many files the record holds) and each question's shape (type, the "
    "document kind it names, whether it names one well, tank, invoice or permit, whether it names a day or a year) give, from dev, how often such a question is answerable and its "
    "commonest truth; it answers that value only where the formula says it pays and abstains elsewhere. A second one adds the files' sizes "
    "(how many of the record's files are large enough to be scanned pages, the size fitted on dev), which tell which documents are scans."
)

# The document kind a question's words name, and the file-name ending of a record's copy of it.
TOPICS = (
    ("nfa-letter", r"no[ -]further[ -]action|\bnfa\b"),
    ("easement", r"easement"),
    ("permit", r"permit"),
    ("covenant", r"covenant"),
    ("deed", r"\bdeed\b"),
    ("invoices", r"invoice|billed"),
    ("closure-report", r"removed|removal|taken out|pulled|contractor"),
    ("tank-registration", r"\btanks?\b|registration"),
    ("laboratory", r"concentration|result|detect"),
    ("boring-logs", r"\bdepth\b|\bdeep\b|boring"),
)
IDENTIFIER = re.compile(r"\bMW-?\d+|\bT-\d+|invoice (number )?\d+|\b[A-Z]{2}-\d{4}-\d{2}\b", re.I)
YEAR = re.compile(r"\b(19|20)\d{2}\b")
DAY = re.compile(r"\b[A-Z][a-z]+ \d{1,2}, (19|20)\d{2}\b")


def topic(text: str) -> str:
    return next((name for name, pattern in TOPICS if re.search(pattern, text, re.I)), "other")


def holds(documents, kind: str) -> bool:
    return any(path.endswith(f"-{kind}.pdf") for path in documents)


def shape(documents, text: str, answer_type: str, unit: str) -> tuple:
    """What a reader sees of a question without opening a PDF."""
    kind = topic(text)
    return (
        answer_type,
        unit,
        kind,
        holds(documents, kind),
        kind == "permit" and holds(documents, "permit-renewal"),
        bool(IDENTIFIER.search(text)),
        bool(DAY.search(text)),
        bool(YEAR.search(text)),
        len(documents),
    )


def _dev_dir():
    return PACKAGE.layout(BENCHMARK).dataset_dir("synthetic-dev-v1")


@cache
def _dev_cases() -> list[dict]:
    """The dev split's cases as cases.jsonl has them (read once for both fits below)."""
    text = (_dev_dir() / "cases.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line]


@cache
def scan_bytes() -> float:
    """Fitted on dev: the size parting small files from large ones (scanned pages), the geometric
    mean of the two neighbouring sizes of dev's files with the largest ratio between them."""
    dev = _dev_dir()
    sizes = sorted((dev / document).stat().st_size for case in _dev_cases() for document in case["input"]["documents"])
    _, cut = max((b / a, (a * b) ** 0.5) for a, b in zip(sizes[:-1], sizes[1:], strict=True))
    return cut


def scans(sizes) -> int:
    """How many of a record's files are large enough to be scanned pages."""
    return sum(size > scan_bytes() for size in sizes)


@cache
def dev_table(with_sizes: bool = False) -> dict[tuple, tuple[float, str, float]]:
    """Per question shape (and each shorter prefix of it, the back-off), fitted on the dev split:
    (answerable share a, the commonest truth, its share q of the answerable questions). With
    sizes, the shape ends with the number of scanned files."""
    dev = _dev_dir()
    answers = {
        a["id"]: a["answer"]
        for a in map(json.loads, (dev / "answers.jsonl").read_text(encoding="utf-8").splitlines())
    }
    seen: dict[tuple, list[str | None]] = defaultdict(list)
    for case in _dev_cases():
        documents = case["input"]["documents"]
        extra = (scans((dev / d).stat().st_size for d in documents),) if with_sizes else ()
        for question, gold in zip(case["input"]["questions"], answers[case["id"]]["questions"], strict=True):
            key = shape(documents, question["text"], question["answer_type"], question.get("unit", "")) + extra
            truth = None
            if gold["status"] in ("answerable", "superseded"):
                truth = "; ".join(gold["items"]) if gold["items"] else gold["value"]
            for length in range(2, len(key) + 1):
                seen[key[:length]].append(truth)
    table = {}
    for key, truths in seen.items():
        given = [t for t in truths if t is not None]
        value, times = Counter(given).most_common(1)[0] if given else ("", 0)
        table[key] = (len(given) / len(truths), value, times / len(given) if given else 0.0)
    return table


def _prior(case_input, with_sizes: bool):
    """Abstain unless dev says answering this shape of question pays: a·q > 6(1 − a)."""
    table = dev_table(with_sizes)
    extra = (scans(map(scored_file_size, case_input.documents)),) if with_sizes else ()
    given = {}
    for question in case_input.questions:
        key = shape(case_input.documents, question.text, question.answer_type, question.unit) + extra
        found = next((table[key[:n]] for n in range(len(key), 1, -1) if key[:n] in table), (0.0, "", 0.0))
        share_answerable, value, share_right = found
        pays = share_answerable * share_right > 6 * (1 - share_answerable)
        given[question.id] = value if pays else NOT_IN_RECORD
    return {"answers": given}


def answerability_prior(case_input, answer):
    return _prior(case_input, with_sizes=False)


def answerability_prior_with_sizes(case_input, answer):
    return _prior(case_input, with_sizes=True)


BASELINES = {
    "always 'not in the record'": lambda case_input, answer: {
        "answers": {q.id: NOT_IN_RECORD for q in case_input.questions}
    },
    "always answer (a plausible typed guess)": lambda case_input, answer: {
        "answers": {q.id: typed_guess(q) for q in case_input.questions}
    },
    "file names + question shape, fitted on dev (reads no PDF)": answerability_prior,
    "file names, file sizes + question shape, fitted on dev (reads no PDF)": answerability_prior_with_sizes,
}
COLUMNS = (
    *formula_score("missing_information"),
    count("questions_right", "right"),
    count("invented_answers", "invented"),
    count("wrong_answers", "wrong"),
    count("questions"),
    share("answerable_accuracy", "answerable right"),
    share("unanswerable_accuracy", "unanswerable right"),
)
GROUP_METRIC = ("questions_right", "questions")
GROUP_TITLE = "Questions the reference adapter answers right, by the record's office style (family)"
groups = by_category
