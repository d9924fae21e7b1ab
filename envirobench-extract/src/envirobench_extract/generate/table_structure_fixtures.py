"""The prediction fixtures of `table-structure`, derived from the dataset's answer key
(generate/table_structure.py's FIXTURES: the gold grid, `wrong_prediction`, and the errors of
the dataset's folder by `named_mistakes.planted_by_name`).

`correct.json` predicts every gold grid, so it has no error. `wrong.json` is the same except for
the deliberate mistakes in DELIBERATE_ERRORS, one per case, each a mistake a structure
recogniser makes; the tests assert the errors each one gives, case by case. Both are prediction
maps over every case: {case_id: {"rows", "columns", "header_rows", "cells"}}.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from envirobench import EnviroBenchError, unstructure

from ..table_structure import Cell, TableGrid

Mistake = Literal["drop-last-row", "split-cell", "header-rows", "extra-column", "merge-right"]


@dataclass(frozen=True)
class DeliberateError:
    case: str
    mistake: Mistake
    row: int = 0  # the cell it concerns (split-cell, merge-right)
    column: int = 0
    why: str = ""


DELIBERATE_ERRORS: tuple[DeliberateError, ...] = (
    DeliberateError("tsr-0002", "drop-last-row", why="the last row missed (fully ruled)"),
    DeliberateError(
        "tsr-0009",
        "split-cell",
        1,
        0,
        "a section row read as one cell per column (horizontal rules)",
    ),
    DeliberateError(
        "tsr-0019", "extra-column", why="an empty column invented on the right (unruled)"
    ),
    DeliberateError(
        "tsr-0036",
        "merge-right",
        3,
        0,
        "two neighbouring body cells read as one (multi-line cells)",
    ),
    DeliberateError(
        "tsr-0049", "split-cell", 0, 1, "a merged sample header split into its columns (spanning)"
    ),
    DeliberateError(
        "tsr-0052", "header-rows", why="the second header row counted as body (spanning)"
    ),
    DeliberateError(
        "tsr-0064", "split-cell", 0, 0, "a title merged down two header rows split in two (scanned)"
    ),
)

# The v2 datasets' mistakes, by dataset folder.
DELIBERATE_ERRORS_V2: dict[str, tuple[DeliberateError, ...]] = {
    "synthetic-dev-v2": (
        DeliberateError("tsr-dev-0004", "drop-last-row", why="the last row missed (sample page)"),
        DeliberateError(
            "tsr-dev-0029", "split-cell", 1, 0, "a method section row read as one cell per column"
        ),
        DeliberateError(
            "tsr-dev-0002", "split-cell", 0, 2, "a merged sample header split (scanned summary)"
        ),
        DeliberateError("tsr-dev-0101", "header-rows", why="the third header row read as body"),
        DeliberateError(
            "tsr-dev-0052", "extra-column", why="an empty column invented (sample page)"
        ),
        DeliberateError(
            "tsr-dev-0092", "merge-right", 3, 0, "two neighbouring body cells read as one (summary)"
        ),
        DeliberateError(
            "tsr-dev-0006", "split-cell", 0, 0, "a title merged down the header split (time series)"
        ),
        DeliberateError(
            "tsr-dev-0012", "split-cell", 2, 0, "a screening-level label over two columns split"
        ),
    ),
    "synthetic-test-v2": (
        DeliberateError("tsr-test-0013", "drop-last-row", why="the last row missed (EDD)"),
        DeliberateError(
            "tsr-test-0005", "split-cell", 1, 0, "a sample row across an EDD table split up"
        ),
        DeliberateError(
            "tsr-test-0010", "split-cell", 0, 3, "a merged sample header split (wide matrix)"
        ),
        DeliberateError("tsr-test-0008", "header-rows", why="the units row read as body"),
        DeliberateError(
            "tsr-test-0001", "extra-column", why="an empty column invented (scanned EDD)"
        ),
        DeliberateError(
            "tsr-test-0007", "merge-right", 3, 0, "two neighbouring body cells read as one"
        ),
        DeliberateError(
            "tsr-test-0002", "split-cell", 0, 0, "a title merged down three header rows split"
        ),
        DeliberateError(
            "tsr-test-0011", "split-cell", 13, 4, "QC control limits over MDL and RL split"
        ),
    ),
}


def wrong_prediction(error: DeliberateError, gold: TableGrid, prediction: Any) -> Any:
    """The gold grid with `error` made, as a prediction (the correct one is not needed)."""
    return unstructure(_apply(error, gold))


def _apply(error: DeliberateError, gold: TableGrid) -> TableGrid:
    cells = list(gold.cells)
    if error.mistake == "drop-last-row":
        last = gold.rows - 1
        _require(
            all(c.row + c.row_span <= last or c.row == last for c in cells),
            error,
            "a cell spans into the last row",
        )
        kept = tuple(c for c in cells if c.row != last)
        return TableGrid(gold.rows - 1, gold.columns, min(gold.header_rows, gold.rows - 1), kept)
    if error.mistake == "header-rows":
        _require(gold.header_rows > 1, error, "the table has one header row")
        return TableGrid(gold.rows, gold.columns, gold.header_rows - 1, gold.cells)
    if error.mistake == "extra-column":
        added = tuple(Cell(r, gold.columns, 1, 1) for r in range(gold.rows))
        return TableGrid(gold.rows, gold.columns + 1, gold.header_rows, gold.cells + added)
    target = next((c for c in cells if (c.row, c.column) == (error.row, error.column)), None)
    _require(target is not None, error, "no cell starts there")
    assert target is not None
    if error.mistake == "split-cell":
        _require(target.row_span * target.column_span > 1, error, "the cell spans nothing")
        pieces = [
            Cell(r, c, 1, 1)
            for r in range(target.row, target.row + target.row_span)
            for c in range(target.column, target.column + target.column_span)
        ]
        cells.remove(target)
        return TableGrid(
            gold.rows, gold.columns, gold.header_rows, tuple(sorted(cells + pieces, key=_position))
        )
    right = next(
        (c for c in cells if (c.row, c.column) == (target.row, target.column + target.column_span)),
        None,
    )
    _require(
        right is not None and right.row_span == target.row_span == 1,
        error,
        "no one-row cell to its right",
    )
    assert right is not None
    merged = Cell(target.row, target.column, 1, target.column_span + right.column_span)
    cells = [c for c in cells if c not in (target, right)] + [merged]
    return TableGrid(gold.rows, gold.columns, gold.header_rows, tuple(sorted(cells, key=_position)))


def _position(cell: Cell) -> tuple[int, int]:
    return (cell.row, cell.column)


def _require(condition: bool, error: DeliberateError, problem: str) -> None:
    # The dataset changed under the fixture: choose another case or cell rather than ship a
    # fixture whose errors differ from the documented ones.
    if not condition:
        raise EnviroBenchError(
            f"cannot build the deliberate error for {error.case} ({error.why}): {problem}"
        )
