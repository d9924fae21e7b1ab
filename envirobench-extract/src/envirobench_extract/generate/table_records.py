"""The seeded generator of `envirobench/table-records-synthetic-v1`, and its fixtures.

Sixty-four results tables, eight per layout (the case category), cut from synthetic lab reports
of that layout (`envirobench_synth.labreport`): seven as grayscale PNG crops of the page rendered
at CROP_DPI (the table with its sample block above and its footnotes below; sideways tables stay
sideways, scanned ones keep the scan), and one as a one-page PDF holding every results table of
its page. A part of a continued table is used only when it shows its header; the bare rows a
report continues without a header are left to document-extraction. The answer is the records of
the rows shown, in table order.

Source reports draw from their own streams, make_random(SEED, "table", "<layout>-<n>",
attempt); regenerating reproduces every file byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from envirobench import GeneratedCase, Manifest, dataset_writer, unstructure
from envirobench_synth.labreport import LAYOUTS, RenderedReport, TableRegion
from envirobench_synth.png import write_png

from ..table_records import Answer, Input, TableRecords
from . import labreport_families as families
from .labreports import RecordMistake, draw_report, record_fixtures, record_of

SEED = 20240808
VERSION = 1
STREAM = "table"
CROPS_PER_LAYOUT = 7
PAGES_PER_LAYOUT = 1
CROPS_PER_REPORT = 2  # spread each layout's crops over several reports
CROP_MARGIN = 10  # pixels of paper around a crop
PNG_LEVEL = 6  # zlib level of the crops: nearly as small as the slowest, many times faster

TITLE = "Table records, synthetic v1"
DESCRIPTION = (
    f"{(CROPS_PER_LAYOUT + PAGES_PER_LAYOUT) * len(LAYOUTS)} results tables from synthetic laboratory "
    f"reports, {CROPS_PER_LAYOUT + PAGES_PER_LAYOUT} per layout ({', '.join(LAYOUTS)}): "
    f"{CROPS_PER_LAYOUT} as page-image crops (PNG) and {PAGES_PER_LAYOUT} as a one-page PDF. The answer "
    "is the measurement records the table shows."
)

MISTAKES: tuple[RecordMistake, ...] = (
    RecordMistake("drop", "a row missed", layout="two-per-page"),
    RecordMistake("wrong-sample", "the sample ID misread", layout="samples-as-columns"),
    RecordMistake(
        "nondetect-as-detected",
        "a non-detect (<RL or ND) read as a detection at the limit",
        layout="scanned",
    ),
    RecordMistake(
        "convert-unit",
        "a µg/L result converted to mg/L: wrong in exact, right in value",
        layout="landscape",
    ),
    RecordMistake("swap-result-rl", "result and reporting limit swapped", layout="rotated"),
    RecordMistake("drop-qualifier", "a footnoted J flag lost", layout="qualifier-footnotes"),
    RecordMistake(
        "misread-thousands", "a thousands separator read as a decimal point", layout="continued"
    ),
)


def _usable(region: TableRegion) -> bool:
    return region.header and region.caption


@dataclass(frozen=True, eq=False)
class Cut:
    """One case: table parts of one report, as a crop (one part) or as their whole page."""

    rendered: RenderedReport
    regions: tuple[TableRegion, ...]
    as_page: bool


def cuts_for(layout: str) -> list[Cut]:
    """One layout's cases: the crops first, then the pages."""
    crops: list[Cut] = []
    pages: list[Cut] = []
    report_number = 0
    while len(crops) < CROPS_PER_LAYOUT or len(pages) < PAGES_PER_LAYOUT:
        report_number += 1
        rendered = draw_report(SEED, STREAM, f"{layout}-{report_number}", layout)
        if len(crops) < CROPS_PER_LAYOUT:
            usable = [r for r in rendered.tables if _usable(r)][:CROPS_PER_REPORT]
            crops += [Cut(rendered, (r,), False) for r in usable][: CROPS_PER_LAYOUT - len(crops)]
            continue
        for page in rendered.pages:
            regions = tuple(r for r in rendered.tables if r.page == page.number)
            if regions and all(_usable(r) for r in regions):
                pages.append(Cut(rendered, regions, True))
                break
    return crops + pages


def generate(output_dir: Path, dataset: str = "synthetic-v1") -> Manifest:
    """Write dataset `dataset` (its folder, a key of DATASETS) into `output_dir` (absent or
    empty) and return its manifest."""
    if dataset in families.V2_FOLDERS:
        return generate_v2(output_dir, dataset)
    write = dataset_writer(TableRecords, dataset, seed=SEED, version=VERSION)
    per_layout = CROPS_PER_LAYOUT + PAGES_PER_LAYOUT

    def _cases(output_dir: Path) -> Iterator[GeneratedCase]:
        for layout_index, layout in enumerate(LAYOUTS):
            for k, cut in enumerate(cuts_for(layout)):
                case_id = f"tr-{layout_index * per_layout + k + 1:04d}"
                rendered, regions = cut.rendered, cut.regions
                if cut.as_page:
                    path = f"assets/{case_id}.pdf"
                    (output_dir / path).write_bytes(rendered.page_pdf(regions[0].page))
                    case_input = Input(document=path, page=1)
                else:
                    path = f"assets/{case_id}.png"
                    image = rendered.crop(regions[0], margin=CROP_MARGIN)
                    write_png(output_dir / path, image, level=PNG_LEVEL)
                    case_input = Input(image=path, width=image.width, height=image.height)
                records = tuple(
                    record_of(rendered.records[i]) for region in regions for i in region.records
                )
                yield case_id, layout, case_input, Answer(records=records)

    return write(
        output_dir,
        _cases,
        title=TITLE,
        description=DESCRIPTION,
        input_json=_input_json,
    )


def _input_json(case_input: Input) -> dict:
    # Only the form's own fields: {"image", "width", "height"} or {"document", "page"}.
    return {k: v for k, v in unstructure(case_input).items() if v is not None}


# correct.json and wrong.json: the v1 or the v2 mistakes, by the dataset's manifest ID.
FIXTURES = record_fixtures(
    Answer, lambda dataset_dir: MISTAKES_V2 if families.is_v2(dataset_dir) else MISTAKES
)


# -- v2: the report families (generate/labreport_families.py) -----------------------------------

V2_VERSION = 1
V2_TITLES = {
    "synthetic-dev-v2": "Table records, synthetic v2 (dev split)",
    "synthetic-test-v2": "Table records, synthetic v2 (test split)",
}
V2_DESCRIPTION = (
    "{count} results pages of synthetic laboratory reports of the {split} report families "
    "({families}), each case a page of a PDF that holds the source report's results pages "
    "(document + page, so no binary is stored twice); scanned pages where the source report is "
    "scanned. The answer is the measurement records the page's results tables show, by the "
    "truth rules of envirobench_synth.labreport.families (QC rows, rejected, superseded and "
    "not-result cells are not records). The category is <family>:<main trap of the page> "
    "(scanned, lab-qc, reanalysis, not-result, field-qc, surrogates or plain)."
)

MISTAKES_V2: tuple[RecordMistake, ...] = (
    RecordMistake("drop", "a row missed"),
    RecordMistake("wrong-sample", "the sample ID misread"),
    RecordMistake("nondetect-as-detected", "a non-detect read as a detection at the limit"),
    RecordMistake(
        "convert-unit", "a µg/L result converted to mg/L: wrong in exact, right in value"
    ),
    RecordMistake("swap-result-rl", "result and reporting limit swapped"),
    RecordMistake("drop-qualifier", "a J flag lost"),
)


def generate_v2(output_dir: Path, dataset: str) -> Manifest:
    write = dataset_writer(TableRecords, dataset, seed=families.SEED, version=V2_VERSION)
    split = families.split_of(dataset)
    names = ", ".join(f.name for f in families.families_of(split))

    def _cases(output_dir: Path) -> Iterator[GeneratedCase]:
        for source, pdf, pages in families.table_sources(dataset):
            path = f"assets/{source}.pdf"
            (output_dir / path).write_bytes(pdf)
            for page in pages:
                case_input = Input(document=path, page=page.page)
                yield page.case_id, page.category, case_input, Answer(records=page.records)

    return write(
        output_dir,
        _cases,
        title=V2_TITLES[dataset],
        description=V2_DESCRIPTION.format(
            count=families.TABLES[split], split=split, families=names
        ),
        input_json=_input_json,
    )
