"""The seeded generators of the `table-structure` datasets, and their fixtures.

`synthetic-v1` is described below. `synthetic-dev-v2` and `synthetic-test-v2` hold tables of
the report families of `grid_families` (dev families in dev, test families in test; the case
category is the family, `-scanned` added for a scanned table, just over a quarter of each
split), drawn from make_random(SEED_V2, "table", case_id); the answer is the grid as for v1.

The v1 dataset:

Each case is a tightly cropped grayscale laboratory results table drawn by `grid_tables` (see
its docstring for the layouts, which are the case categories); the answer is the grid it was
drawn from: rows, columns, header rows and every cell with its spans. Every case draws from its
own stream, make_random(SEED, "table", case_id), so cases are independent of each other.
Regenerating reproduces every file byte for byte (with the versions pinned by uv.lock); the
tests check that against the shipped manifest.
"""

from __future__ import annotations

from pathlib import Path

from envirobench import FixturePlan, Manifest, unstructure

from ..table_structure import DATASETS, Cell, Input, TableGrid, TableStructure
from . import layout_case_ids
from .grid_datasets import GridDatasets
from .grid_tables import LAYOUTS, DrawnTable
from .named_mistakes import planted_by_name
from .table_structure_fixtures import DELIBERATE_ERRORS, DELIBERATE_ERRORS_V2, wrong_prediction

SEED = 20240618
VERSION = 1
TABLES_PER_LAYOUT = 8
PREFIX = "tsr"
SEED_V2 = 20261201

TITLE = "Table structure, synthetic v1"
DESCRIPTION = (
    f"{TABLES_PER_LAYOUT * len(LAYOUTS)} grayscale crops of laboratory results tables "
    f"({TABLES_PER_LAYOUT} per layout: {', '.join(LAYOUTS)}), some with merged header cells "
    "over several samples and section rows across the table. The answer is the table's cell grid: "
    "rows, columns, header rows and every cell with its row and column span, as drawn."
)
TITLE_V2 = "Table structure, synthetic v2"
DESCRIPTION_V2 = (
    "{size} crops of laboratory results tables from the {split} split's report families "
    "({families}): analytes or samples as rows, merged sample and group headers over several "
    "header rows, method section rows, surrogate QC rows, screening-level rows and footnotes "
    "across the table, 2 to 40 rows and 2 to 20 columns. Just over a quarter are scans (skewed "
    "2-5 degrees, stamped and marked by hand; bitonal, grayscale, JPEG or fax). The answer is "
    "the table's cell grid: rows, columns, header rows and every cell with its spans."
)


def case_ids() -> list[tuple[str, str]]:
    """(case ID, layout) of every case, in file order."""
    return layout_case_ids(PREFIX, LAYOUTS, TABLES_PER_LAYOUT)


def answer_from(table: DrawnTable) -> TableGrid:
    """The type's answer for a drawn table (its constructor re-checks the grid)."""
    spec = table.spec
    cells = sorted(
        (Cell(c.row, c.column, c.row_span, c.column_span) for c in spec.cells),
        key=lambda c: (c.row, c.column),
    )
    return TableGrid(spec.rows, spec.columns, spec.header_rows, tuple(cells))


def case_of(table: DrawnTable, image_path: str) -> tuple[Input, TableGrid]:
    width, height = table.image.size
    return Input(image=image_path, width=width, height=height), answer_from(table)


GRID = GridDatasets(
    TableStructure, VERSION, case_of, lambda: (SEED, SEED_V2), (TITLE, TITLE_V2), (DESCRIPTION, DESCRIPTION_V2), PREFIX
)


def generate(output_dir: Path, dataset: str = "synthetic-v1") -> Manifest:
    """Write dataset `dataset` (its folder, a key of DATASETS) into `output_dir` (absent or
    empty) and return its manifest."""
    return GRID.generate(output_dir, dataset, case_ids())


# The dataset's correct.json and wrong.json (see table_structure_fixtures).
FIXTURES = FixturePlan(
    TableGrid,
    correct=unstructure,
    planted=planted_by_name(DATASETS, DELIBERATE_ERRORS_V2, DELIBERATE_ERRORS),
    wrong=wrong_prediction,
)
