"""docs/reference-scores.md's Legal table for `instrument-execution`: blind and near-blind
baselines and columns (read by benchmarks/reference_scores.py --legal).

The near-blind shortcuts (`file_prior`) open no page: they read each PDF's size and page count
(and one of them its Title metadata), and from the dev split learn the statuses of each (scanned,
pages, size tercile[, title]) shape (backing off to shorter shapes where dev has none), then
answer the status with the highest expected formula value: P(status) for a status that is not
executed, P(status) − 5 × P(not executed or cannot tell) for an executed one. The Title names the
instrument kind and template, almost one per dev file: on dev it looks strong (in-sample), on
test, whose templates dev never shows, it falls back and invents executions.
"""

import bisect
import json
from collections import Counter, defaultdict
from functools import cache

import pypdfium2 as pdfium
from _spec_parts import always, by_category_and, count, formula_score, share

from envirobench import split_of
from envirobench_legal.package import PACKAGE

BENCHMARK = "instrument-execution"
UNIT = "instruments"
INTRO = (
    "The reference adapter (`solvers/instrument_execution.py`, developed on the dev split only) on both splits; "
    "the test split's law-firm templates and recorder stamps never occur in dev. Beside it, blind baselines "
    "that give every instrument one status (evidence page 1), and a near-blind shortcut fitted on dev that opens "
    "no page: each PDF's file size and page count (and, in the second, its Title metadata) give, from dev, the "
    "likeliest statuses of such a file, and it answers the status of the highest expected score (an executed status only where P(executed) "
    "outweighs 5 × P(not executed or cannot tell)). The score is the category's formula, "
    "100 × max(0, (correct − 5 × false executed) ÷ instruments); *unclipped* drops the max(0, ·)."
)
EXECUTED = ("executed-recorded", "executed-unrecorded")
SCANNED_BYTES_PER_PAGE = 12_000  # a page image: far above any born-digital page of these copies


def file_facts(folder: str, document: str) -> tuple[str, int, int]:
    """(Title metadata, pages, bytes) of a case's PDF in a shipped dataset folder."""
    path = PACKAGE.layout(BENCHMARK).dataset_dir(folder) / document
    pdf = pdfium.PdfDocument(str(path))
    try:
        title, pages = (pdf.get_metadata_dict().get("Title") or "").casefold(), len(pdf)
    finally:
        pdf.close()
    return title, pages, path.stat().st_size


def shape(facts: tuple[str, int, int], cuts: dict[bool, list[int]]) -> tuple:
    """(scanned, pages, size tercile, title): what a reader sees of a file without opening a page."""
    title, pages, size = facts
    scanned = size / pages > SCANNED_BYTES_PER_PAGE
    return (scanned, min(pages, 3), bisect.bisect(cuts[scanned], size), title)


@cache
def dev_model() -> tuple[dict[bool, list[int]], dict[tuple, Counter]]:
    """The dev split's size terciles (born digital, scanned) and the status counts of every shape
    and of its shorter prefixes (the back-off)."""
    folder = next(name for name in PACKAGE.layout(BENCHMARK).datasets if split_of(name) == "dev")
    dev = PACKAGE.layout(BENCHMARK).dataset_dir(folder)
    cases = [json.loads(line) for line in (dev / "cases.jsonl").read_text(encoding="utf-8").splitlines() if line]
    statuses = {a["id"]: a["answer"]["status"] for a in map(json.loads, (dev / "answers.jsonl").read_text(encoding="utf-8").splitlines())}
    facts = {c["id"]: file_facts(folder, c["input"]["document"]) for c in cases}
    sizes: dict[bool, list[int]] = defaultdict(list)
    for _title, pages, size in facts.values():
        sizes[size / pages > SCANNED_BYTES_PER_PAGE].append(size)
    cuts = {kind: [sorted(v)[len(v) // 3], sorted(v)[2 * len(v) // 3]] for kind, v in sizes.items()}
    counts: dict[tuple, Counter] = defaultdict(Counter)
    for case_id, fact in facts.items():
        key = shape(fact, cuts)
        for length in range(len(key) + 1):
            counts[key[:length]][statuses[case_id]] += 1
    return cuts, counts


def file_prior(length: int):
    """The baseline reading the first `length` facts of a file's shape (3: scanned, pages, size
    tercile; 4: and the Title metadata): the status of the highest expected formula value for a
    file of that shape on dev."""

    def baseline(case_input, answer):
        cuts, counts = dev_model()
        case_id = case_input.document.rsplit("/", 1)[-1].removesuffix(".pdf")
        folder = next(name for name in PACKAGE.layout(BENCHMARK).datasets if split_of(name) == case_id.split("-")[1])
        key = shape(file_facts(folder, case_input.document), cuts)[:length]
        seen = next(counts[key[:n]] for n in range(len(key), -1, -1) if key[:n] in counts)
        total = sum(seen.values())
        unexecuted = (seen["not-executed"] + seen["cannot-tell"]) / total

        def value(status: str) -> float:
            return seen[status] / total - (5 * unexecuted if status in EXECUTED else 0.0)

        return {"status": max(("not-executed", "cannot-tell", *EXECUTED), key=value), "evidence_page": 1}

    return baseline


BASELINES = {
    "every instrument executed and recorded": always({"status": "executed-recorded", "evidence_page": 1}),
    "nothing executed": always({"status": "not-executed", "evidence_page": 1}),
    "cannot tell, everywhere": always({"status": "cannot-tell", "evidence_page": 1}),
    "file size and page count, fitted on dev (opens no page)": file_prior(3),
    "file size, page count and Title metadata, fitted on dev (opens no page)": file_prior(4),
}
COLUMNS = (
    *formula_score("execution"),
    count("correct_statuses", "correct"),
    count("false_executed", "false executed"),
    count("instruments"),
    share("status_accuracy", "status accuracy"),
    share("evidence_pages_right", "evidence page right"),
)
GROUP_METRIC = ("correct_status", None)
GROUP_TITLE = "Status accuracy of the reference adapter by scenario (the case category) and copy"
groups = by_category_and("scanned", "scanned copies", "born-digital copies")
