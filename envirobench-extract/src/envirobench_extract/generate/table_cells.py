"""The seeded generators of the `table-cells` datasets, and their fixtures.

`synthetic-v1` is described below. `synthetic-dev-v2` and `synthetic-test-v2` hold tables of
the report families of `grid_families` (dev families in dev, test families in test; the case
category is the family, `-scanned` added for a scanned table, just over a quarter of each
split), drawn from make_random(SEED_V2, "table", case_id), with every cell's box carried into
the (possibly skewed) image. The answer is the text each cell was printed with: stamps,
handwriting, circles and a struck value's handwritten correction are not cell text, and a value
struck through by hand is still the text printed in its cell.

The v1 dataset:

Each case is a tightly cropped grayscale laboratory results table drawn by `grid_tables` (see
its docstring for the layouts, which are the case categories, and for the result notations the
cells hold), with the box of every cell; the answer is the text each cell was drawn with. Every
case draws from its own stream, make_random(SEED, "table", case_id). Regenerating reproduces
every file byte for byte (with the versions pinned by uv.lock); the tests check that against the
shipped manifest.
"""

from __future__ import annotations

from pathlib import Path

from envirobench import FixturePlan, Manifest

from ..table_cells import DATASETS, Answer, Input, InputCell, TableCells
from . import layout_case_ids
from .grid_datasets import GridDatasets
from .grid_tables import LAYOUTS, DrawnTable
from .named_mistakes import planted_by_name
from .table_cells_fixtures import (
    DELIBERATE_EDITS,
    DELIBERATE_EDITS_V2,
    correct_prediction,
    wrong_prediction,
)

SEED = 20240619
VERSION = 1
TABLES_PER_LAYOUT = 8
PREFIX = "tc"
SEED_V2 = 20261202

TITLE = "Table cells, synthetic v1"
DESCRIPTION = (
    f"{TABLES_PER_LAYOUT * len(LAYOUTS)} grayscale crops of laboratory results tables "
    f"({TABLES_PER_LAYOUT} per layout: {', '.join(LAYOUTS)}) with the box of every cell. The "
    "answer is the text of every cell as drawn: results in the notations laboratories print "
    "(<0.50, < 0.50, ND, ND (0.50), 0.50 U, 1.2 J, 1,250), units in µg and mg, names, CAS "
    "numbers, methods and headers."
)
TITLE_V2 = "Table cells, synthetic v2"
DESCRIPTION_V2 = (
    "{size} crops of laboratory results tables from the {split} split's report families "
    "({families}) with the box of every cell. The answer is the text every cell was printed "
    "with: results in the notations laboratories print, column titles from the split's "
    "vocabulary, analyte synonyms, surrogate recoveries and control limits, screening levels, "
    "dates, footnotes and cells that are not results (NA, --, ...). Just over a quarter are "
    "scans (skewed 2-5 degrees, stamped and marked by hand, values struck through with a "
    "correction in the margin; bitonal, grayscale, JPEG or fax); marks made by hand are not "
    "cell text."
)


def case_ids() -> list[tuple[str, str]]:
    """(case ID, layout) of every case, in file order."""
    return layout_case_ids(PREFIX, LAYOUTS, TABLES_PER_LAYOUT)


def input_from(table: DrawnTable, image_path: str) -> Input:
    width, height = table.image.size
    cells = sorted(
        (
            InputCell(cell.row, cell.column, box)
            for cell, box in zip(table.spec.cells, table.boxes, strict=True)
        ),
        key=lambda c: (c.row, c.column),
    )
    return Input(image=image_path, width=width, height=height, cells=tuple(cells))


def answer_from(table: DrawnTable) -> Answer:
    spec = table.spec
    grid: list[list[str | None]] = [[None] * spec.columns for _ in range(spec.rows)]
    for cell in spec.cells:
        grid[cell.row][cell.column] = cell.text
    return Answer(tuple(tuple(row) for row in grid))


def case_of(table: DrawnTable, image_path: str) -> tuple[Input, Answer]:
    return input_from(table, image_path), answer_from(table)


GRID = GridDatasets(
    TableCells, VERSION, case_of, lambda: (SEED, SEED_V2), (TITLE, TITLE_V2), (DESCRIPTION, DESCRIPTION_V2), PREFIX
)


def generate(output_dir: Path, dataset: str = "synthetic-v1") -> Manifest:
    """Write dataset `dataset` (its folder, a key of DATASETS) into `output_dir` (absent or
    empty) and return its manifest."""
    return GRID.generate(output_dir, dataset, case_ids())


# The dataset's correct.json and wrong.json (see table_cells_fixtures).
FIXTURES = FixturePlan(
    Answer,
    correct=correct_prediction,
    planted=planted_by_name(DATASETS, DELIBERATE_EDITS_V2, DELIBERATE_EDITS),
    wrong=wrong_prediction,
)
