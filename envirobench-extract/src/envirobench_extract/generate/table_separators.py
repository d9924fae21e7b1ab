"""The seeded generators of the `table-separators` datasets, and their fixtures.

`synthetic-v1` is described below. `synthetic-dev-v2` and `synthetic-test-v2` hold flat tables
(no merged cells: one band per row and per column) of the report families of `grid_families`,
dev families in dev and test families in test; section and screening labels sit in the first
column, and a second row of dates or units may follow the header. The case category is the
family, `-scanned` added for a scanned table (just over a quarter of each split: stamped,
initialled, a value struck through with its correction in the margin, skewed as far as the gaps
between rows allow, up to 5 degrees; bitonal, grayscale, JPEG or fax). Each table draws from
make_random(SEED_V2, "table", case_id); the answer is measured from the drawn pixels as for v1.

The v1 dataset:

Each case is a tightly cropped grayscale table of laboratory results (analyte, CAS number,
result, unit, qualifier, reporting limit, method: subsets and orders vary) drawn by
envirobench-synth, whose geometry becomes the answer. The case category is the layout, one of
`grid_tables`' layouts (described there) but spanning-headers: fully-ruled, horizontal-rules,
unruled, zebra, multi-line-cells, wrapped-headers, or scanned (any of the first four, skewed,
blurred, noisy and low in contrast).

Every case draws from its own stream, make_random(SEED, "table", case_id), so cases are
independent of each other. Regenerating reproduces every file byte for byte (with the versions
pinned by uv.lock); the tests check that against the shipped manifest.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

from envirobench import FixturePlan, Manifest, write_json
from envirobench_synth import catalogue, degrade, tables
from envirobench_synth.fonts import font
from envirobench_synth.rng import make_random

from ..table_separators import DATASETS, Answer, Band, Input, TableSeparators
from . import grid_families, layout_case_ids, v1_columns
from .grid_datasets import GridDatasets
from .named_mistakes import planted_by_name
from .table_separators_fixtures import (
    DELIBERATE_ERRORS,
    DELIBERATE_ERRORS_V2,
    correct_prediction,
    wrong_prediction,
)
from .v1_columns import ALIGN, CLEAN_LAYOUTS, LONG_TITLES, OPTIONAL, ORDERS, TITLES, table_style

SEED = 20240611
SEED_V2 = 20261203
PREFIX_V2 = "ts"
VERSION = 1
TABLES_PER_LAYOUT = 12
LAYOUTS = (*CLEAN_LAYOUTS, "multi-line-cells", "wrapped-headers", "scanned")

TITLE = "Table separators, synthetic v1"
DESCRIPTION = (
    f"{TABLES_PER_LAYOUT * len(LAYOUTS)} grayscale crops of laboratory results tables "
    f"({TABLES_PER_LAYOUT} per layout: {', '.join(LAYOUTS)}). The answer is the interior row and "
    "column separators with the content band of every row and column, measured from the drawn pixels."
)
TITLE_V2 = "Table separators, synthetic v2"
DESCRIPTION_V2 = (
    "{size} crops of laboratory results tables without merged cells from the {split} split's "
    "report families ({families}): section and screening-level labels in the first column, "
    "surrogate QC rows, a row of dates or units under the header, 2 to 40 rows and 2 to 20 "
    "columns, ruled, half-ruled, shaded or unruled. Just over a quarter are scans (stamped and "
    "marked by hand, skewed as far as the gaps between rows allow; bitonal, grayscale, JPEG or "
    "fax). The answer is the interior row and column separators with the content band of every "
    "row and column, measured from the drawn pixels."
)



def case_ids() -> list[tuple[str, str]]:
    """(case ID, layout) of every case, in file order."""
    return layout_case_ids("ts", LAYOUTS, TABLES_PER_LAYOUT)


def case_of(rendered: tables.RenderedTable, image_path: str) -> tuple[Input, Answer]:
    width, height = rendered.image.size
    return Input(image=image_path, width=width, height=height), answer_from(rendered.geometry)


GRID = GridDatasets(
    TableSeparators, VERSION, case_of, lambda: (SEED, SEED_V2), (TITLE, TITLE_V2), (DESCRIPTION, DESCRIPTION_V2), PREFIX_V2
)


def generate(output_dir: Path, dataset: str = "synthetic-v1") -> Manifest:
    """Write dataset `dataset` (its folder, a key of DATASETS) into `output_dir` (absent or
    empty) and return its manifest."""
    return GRID.generate(output_dir, dataset, case_ids(), render_case, grid_families.make_separator_table)


def answer_from(geometry: tables.TableGeometry) -> Answer:
    """The type's answer for a drawn table (its constructor re-checks every invariant)."""
    return Answer(
        rows=geometry.rows.separators,
        columns=geometry.columns.separators,
        row_bands=tuple(Band(b.start, b.end) for b in geometry.rows.bands),
        column_bands=tuple(Band(b.start, b.end) for b in geometry.columns.bands),
    )


def render_case(seed: int, case_id: str, layout: str) -> tables.RenderedTable:
    rng = make_random(seed, "table", case_id)
    base = (
        rng.choice(CLEAN_LAYOUTS)
        if layout in ("multi-line-cells", "wrapped-headers", "scanned")
        else layout
    )
    style = table_style(rng, base, layout, scanned_pad_y=(7, 10))
    header, rows, align = _content(rng, layout, style)
    rendered = tables.render_table(header, rows, style, align)
    if layout != "scanned":
        return rendered
    params = degrade.sample_scan_params(rng)
    # Skew narrows the gaps between rows; cap it so every gap keeps a few clear pixels.
    safe = degrade.max_skew_degrees(rendered.geometry, blur_radius=params.blur_radius, min_gap=3)
    params = dataclasses.replace(params, angle=max(-safe, min(safe, params.angle)))
    return degrade.scan(rendered, params, seed, "scan", case_id)


def _content(
    rng: random.Random, layout: str, style: tables.TableStyle
) -> tuple[list[str], list[list[str]], list[tables.Alignment]]:
    matrix = rng.choice(("soil", "soil", "groundwater", "groundwater", "soil-gas"))
    report = catalogue.sample_report_style(rng)
    results = catalogue.sample_results(rng, matrix, rng.randint(6, 12), report)

    order = list(rng.choice(ORDERS))
    droppable = [c for c in OPTIONAL if c != "unit" or len({r.unit for r in results}) == 1]
    if layout == "multi-line-cells":
        droppable.remove("method")  # the wrapped method column guarantees multi-line cells
    for column in rng.sample(droppable, rng.randint(0, 2)):
        order.remove(column)

    titles = LONG_TITLES if layout == "wrapped-headers" else TITLES
    header = [rng.choice(titles[c]) for c in order]
    if "unit" not in order:  # one unit for the whole table: it moves into the result's title
        header[order.index("result")] += f" ({results[0].unit})"

    body_font = font(style.font_size)
    wrap_width = rng.randint(80, 120)
    rows = []
    for result in results:
        cells = {
            "analyte": result.analyte,
            "cas": result.cas or "NA",
            "result": result.result,
            "unit": result.unit,
            "qualifier": result.qualifier,
            "reporting_limit": result.reporting_limit,
            "method": result.method,
        }
        if "qualifier" not in order and result.qualifier:
            cells["result"] = (
                f"{result.result} {result.qualifier}"  # qualifiers then follow the value
            )
        if layout == "multi-line-cells":
            cells["analyte"] = tables.wrap_text(cells["analyte"], body_font, wrap_width)
            cells["method"] = v1_columns.method_on_two_lines(result.method)
        rows.append([cells[c] for c in order])
    return header, rows, [ALIGN[c] for c in order]


# The dataset's correct.json and wrong.json (see table_separators_fixtures), indented as shipped.
FIXTURES = FixturePlan(
    Answer,
    correct=correct_prediction,
    planted=planted_by_name(DATASETS, DELIBERATE_ERRORS_V2, DELIBERATE_ERRORS),
    wrong=wrong_prediction,
    file_writer=write_json,
)
