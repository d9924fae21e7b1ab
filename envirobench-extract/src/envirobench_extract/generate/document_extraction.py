"""The seeded generator of `envirobench/document-extraction-synthetic-v1`, and its fixtures.

Forty whole laboratory reports, five per layout (the case category): sample per table, samples
as columns, continued (a table running over a page break; the header repeated in some reports
and missing in the others), two per page, landscape, rotated (printed sideways), scanned
(image-only results pages) and qualifier footnotes. Every report has a cover, a case narrative
with the sample summary, its results pages and a quality-control page, and carries the value
traps of `envirobench_synth.labreport.sample`. The answer is every measurement record, in
report order (`envirobench_synth.labreport.model` states the truth rules).

Each report draws from its own stream, make_random(SEED, "document", case_id, attempt), so
cases are independent; regenerating reproduces every file byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from envirobench import GeneratedCase, Manifest, dataset_writer, document_cases
from envirobench_synth.labreport import LAYOUTS, RenderedReport

from ..document_extraction import Answer, DocumentExtraction, Input
from . import LayoutCase, layout_case_ids
from . import labreport_families as families
from .labreports import RecordMistake, draw_report, record_fixtures, record_of

SEED = 20240807
VERSION = 1
STREAM = "document"
DOCUMENTS_PER_LAYOUT = 5

TITLE = "Document extraction, synthetic v1"
DESCRIPTION = (
    f"{DOCUMENTS_PER_LAYOUT * len(LAYOUTS)} synthetic laboratory-report PDFs, {DOCUMENTS_PER_LAYOUT} per "
    f"results layout ({', '.join(LAYOUTS)}), each with a cover, case narrative, sample summary, results "
    "and quality-control pages. The answer is every measurement record of the report's samples."
)

# wrong.json: each mistake on the first case it fits (see generate/labreports.py).
MISTAKES: tuple[RecordMistake, ...] = (
    RecordMistake("drop", "a record missed on a scanned page", layout="scanned"),
    RecordMistake("invent", "a record for an analyte the report does not have", layout="landscape"),
    RecordMistake(
        "nondetect-as-detected",
        "a non-detect (<RL or ND) read as a detection at the limit",
        layout="samples-as-columns",
    ),
    RecordMistake(
        "convert-unit",
        "a µg/L result converted to mg/L: wrong in exact, right in value",
        layout="continued",
    ),
    RecordMistake("swap-result-rl", "result and reporting limit swapped", layout="rotated"),
    RecordMistake("drop-qualifier", "a footnoted J flag lost", layout="qualifier-footnotes"),
    RecordMistake("misread-thousands", "a thousands separator read as a decimal point"),
    RecordMistake(
        "reverse-duplicates", "a re-analysis pair listed in reverse, the flag of the second lost"
    ),
)


def case_ids() -> list[LayoutCase]:
    """(case ID, layout) of every case, in file order."""
    return layout_case_ids("de", LAYOUTS, DOCUMENTS_PER_LAYOUT)


def render_case(case_id: str, layout: str) -> RenderedReport:
    index = int(case_id.rsplit("-", 1)[1])

    def accept(rendered: RenderedReport) -> str | None:
        # Continued reports alternate: the header repeated on the next page, or missing there.
        if layout == "continued" and rendered.report.style.repeat_header != (index % 2 == 1):
            return "the other header style"
        return None

    return draw_report(SEED, STREAM, case_id, layout, accept=accept)


def generate(output_dir: Path, dataset: str = "synthetic-v1") -> Manifest:
    """Write dataset `dataset` (its folder, a key of DATASETS) into `output_dir` (absent or
    empty) and return its manifest."""
    if dataset in families.V2_FOLDERS:
        return generate_v2(output_dir, dataset)
    write = dataset_writer(DocumentExtraction, dataset, seed=SEED, version=VERSION)

    def render(planned: LayoutCase, path: str) -> tuple[bytes, str, Input, Answer]:
        rendered = render_case(*planned)
        answer = Answer(records=tuple(record_of(r) for r in rendered.records))
        return rendered.pdf, planned.layout, Input(document=path), answer

    return write(
        output_dir,
        document_cases(case_ids(), render),
        title=TITLE,
        description=DESCRIPTION,
    )


# correct.json and wrong.json: the v1 or the v2 mistakes, by the dataset's manifest ID.
FIXTURES = record_fixtures(
    Answer, lambda dataset_dir: MISTAKES_V2 if families.is_v2(dataset_dir) else MISTAKES
)


# -- v2: the report families (generate/labreport_families.py) -----------------------------------

V2_VERSION = 1
V2_TITLES = {
    "synthetic-dev-v2": "Document extraction, synthetic v2 (dev split)",
    "synthetic-test-v2": "Document extraction, synthetic v2 (test split)",
}
V2_DESCRIPTION = (
    "{count} synthetic laboratory-report PDFs of the {split} report families ({families}): "
    "each its own skeleton, vocabulary and conventions, with the traps of real reports (QC "
    "inside the results pages, field QC, re-analyses, non-detects at the MDL, dry weight and "
    "leachates, superseded data, cells that are not results, awkward IDs, decimal commas, "
    "validator flags, stapled reports) and scanned pages. The answer is every measurement record "
    "of the report's samples, by the truth rules of envirobench_synth.labreport.families. The "
    "category is <family>:<main trap>."
)

# wrong.json of the v2 splits: each mistake on the first case it fits.
MISTAKES_V2: tuple[RecordMistake, ...] = (
    RecordMistake("drop", "a record missed"),
    RecordMistake("invent", "a record for an analyte the report does not have"),
    RecordMistake("nondetect-as-detected", "a non-detect read as a detection at the limit"),
    RecordMistake(
        "convert-unit", "a µg/L result converted to mg/L: wrong in exact, right in value"
    ),
    RecordMistake("swap-result-rl", "result and reporting limit swapped"),
    RecordMistake("drop-qualifier", "a J flag lost"),
    RecordMistake("wrong-sample", "the sample ID misread"),
)


def generate_v2(output_dir: Path, dataset: str) -> Manifest:
    write = dataset_writer(DocumentExtraction, dataset, seed=families.SEED, version=V2_VERSION)
    split = families.split_of(dataset)
    names = ", ".join(f.name for f in families.families_of(split))

    def _cases(output_dir: Path) -> Iterator[GeneratedCase]:
        for case, rendered, category in families.document_cases(dataset):
            path = f"assets/{case.case_id}.pdf"
            (output_dir / path).write_bytes(rendered.pdf)
            answer = Answer(records=families.records_of(rendered))
            yield case.case_id, category, Input(document=path), answer

    return write(
        output_dir,
        _cases,
        title=V2_TITLES[dataset],
        description=V2_DESCRIPTION.format(
            count=families.DOCUMENTS[split], split=split, families=names
        ),
    )
