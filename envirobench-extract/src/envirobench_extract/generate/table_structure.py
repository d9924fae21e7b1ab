"""The seeded generator of `envirobench/table-structure-synthetic-v1`, and its fixtures.

Each case is a tightly cropped grayscale laboratory results table drawn by `grid_tables` (see
its docstring for the layouts, which are the case categories); the answer is the grid it was
drawn from: rows, columns, header rows and every cell with its spans. Every case draws from its
own stream, make_random(SEED, "table", case_id), so cases are independent of each other.
Regenerating reproduces every file byte for byte (with the versions pinned by uv.lock); the
tests check that against the shipped manifest.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from envirobench import (
    GeneratedCase,
    Generator,
    Manifest,
    dataset_id_of,
    write_by_case,
    write_dataset,
)
from envirobench_synth.png import write_png

from ..table_structure import DATASETS, Cell, Input, TableGrid, TableStructure
from .grid_tables import LAYOUTS, DrawnTable, make_table
from .table_structure_fixtures import correct_predictions, read_answers, wrong_predictions

SEED = 20240618
VERSION = 1
TABLES_PER_LAYOUT = 8
PREFIX = "tsr"

TITLE = "Table structure, synthetic v1"
DESCRIPTION = (
    f"{TABLES_PER_LAYOUT * len(LAYOUTS)} grayscale crops of laboratory results tables "
    f"({TABLES_PER_LAYOUT} per layout: {', '.join(LAYOUTS)}), some with merged header cells "
    "over several samples and section rows across the table. The answer is the table's cell grid: "
    "rows, columns, header rows and every cell with its row and column span, as drawn."
)


def case_ids() -> list[tuple[str, str]]:
    """(case ID, layout) of every case, in file order."""
    return [
        (f"{PREFIX}-{k * TABLES_PER_LAYOUT + i + 1:04d}", layout)
        for k, layout in enumerate(LAYOUTS)
        for i in range(TABLES_PER_LAYOUT)
    ]


def answer_from(table: DrawnTable) -> TableGrid:
    """The type's answer for a drawn table (its constructor re-checks the grid)."""
    spec = table.spec
    cells = sorted(
        (Cell(c.row, c.column, c.row_span, c.column_span) for c in spec.cells),
        key=lambda c: (c.row, c.column),
    )
    return TableGrid(spec.rows, spec.columns, spec.header_rows, tuple(cells))


def generate(output_dir: Path, dataset: str = "synthetic-v1") -> Manifest:
    """Write dataset `dataset` (its folder, a key of DATASETS) into `output_dir` (absent or
    empty) and return its manifest."""

    def _cases(output_dir: Path) -> Iterator[GeneratedCase]:
        for case_id, layout in case_ids():
            table = make_table(SEED, case_id, layout)
            image_path = f"assets/{case_id}.png"
            write_png(output_dir / image_path, table.image)
            width, height = table.image.size
            case_input = Input(image=image_path, width=width, height=height)
            yield case_id, layout, case_input, answer_from(table)

    return write_dataset(
        output_dir,
        _cases,
        dataset_id=dataset_id_of(DATASETS, dataset),
        version=VERSION,
        benchmark=TableStructure.ID,
        title=TITLE,
        description=DESCRIPTION,
        generator=Generator(name=__name__, seed=SEED),
    )


def write_fixtures(dataset_dir: Path, fixtures_dir: Path) -> None:
    """The dataset's correct.json and wrong.json (see table_structure_fixtures)."""
    answers = read_answers(dataset_dir)
    write_by_case(Path(fixtures_dir) / "correct.json", correct_predictions(answers))
    write_by_case(Path(fixtures_dir) / "wrong.json", wrong_predictions(answers))
