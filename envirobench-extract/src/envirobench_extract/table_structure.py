"""Benchmark type `table-structure`: the logical cell grid of a table.

A case is a grayscale crop of a laboratory results table (`Input.image`). A system predicts the
table's grid (`TableGrid`, the format of answers and predictions alike):

    {"rows": 9, "columns": 6, "header_rows": 2,
     "cells": [{"row": 0, "column": 0, "row_span": 2, "column_span": 1}, ...]}

- `rows` and `columns` count the grid's rows and columns: every row line and every column line
  of the table, as if no cell were merged. Rows are numbered from 0 at the top, columns from 0
  at the left.
- A cell is named by its top-left grid position (`row`, `column`) and covers `row_span` rows
  and `column_span` columns from there (both at least 1). A merged header cell over two columns
  has `column_span` 2; a section row across the table ("Volatile Organic Compounds") is one cell
  with `column_span` = `columns`; a header cell over two header rows has `row_span` 2.
- Every grid position is covered by exactly one cell: cells never overlap and leave no hole,
  and an empty cell is a cell like any other. The order of `cells` is free.
- `header_rows` counts the rows from the top that are column headers (0 to `rows`); section
  rows and body rows are not header rows.

A grid that breaks any of these rules is refused when it is read (a prediction: a technical
failure of the run, never a score).

What a reader must get right (the primary measure, `structure`, scoring version v3): the grid's
row count (every row is a record or a header line: a row missed or invented is a record lost or
made up), its column count (every column a field), the header rows, and the spanning cells (a
header over a group of columns, a section row across the table): per table the mean of
`rows_right`, `columns_right`, `header_rows_right` (each 1 or 0) and `spans_f1` (the F1 of the
cells with a row or column span above 1, matched by position and spans; 1.0 when neither grid has
one). GriTS-Top, the primary measure of v2, credits any plain grid of roughly the right size for
the 1 x 1 cells it lines up with: a grid sized from the image's width and height alone, reading no
pixel, scored 0.682 on the test split, above the reference adapter (issue 32). It stays in the
headline. The answers hold no cell text, so content (GriTS-Con) cannot be scored yet.

Scoring, in two profiles that differ only in how GriTS compares two spans:

- `topology` (the default gate): `grits_top` is GriTS_Top (Smock et al., the measure of
  PubTables-1M; see `grits.py`) exactly as table-transformer's `grits.py` computes it: each
  grid position carries the span of its cell relative to the position, two positions are
  compared by the area their spans share over the area of the smallest box enclosing both (the
  reference code's "iou"), and the score is 2·Σ similarity / (gold positions + predicted
  positions) over the factored most similar substructures. 1.0 for an identical grid,
  degrading gracefully with a missed row, a merged or split cell. Also `grits_top_precision`
  and `grits_top_recall`.
- `topology-paper`: the same with the paper's intersection over union. It differs from
  `topology` only where two spans cross (a cell spanning two columns against one spanning two
  rows), by a few thousandths at most, and gives the numbers of scoring version v1 (whose
  `topology` it was).

The errors and every other metric are the same in both profiles.
- Errors, each naming what is wrong in gold terms, so the same mistake is the same error in
  every run:

      ("wrong-header-rows",)        the predicted header_rows differs from the gold one
      ("wrong-cell", row, column)   the gold cell at (row, column) is not in the prediction with
                                    the same position and spans (a shifted, merged or split
                                    cell, or one in a row or column the prediction lacks)
      ("extra-rows",)               the prediction has more rows than the table
      ("extra-columns",)            the prediction has more columns than the table

  Positions are absolute: a prediction that misses a row gets a wrong-cell error for every
  cell from that row down (GriTS meanwhile still credits the rows it aligns). Errors are
  listed in that order, cells by row then column.
- Metrics per case: `structure`, `rows_right`, `columns_right`, `spans_f1`, `grits_top`,
  `grits_top_precision`, `grits_top_recall`, `cells` (gold cells), `cells_right` (gold cells
  reproduced), `header_rows_right` (1 or 0) and `exact` (1 when the case has no error).
  Headline: `structure` (mean over tables; the primary measure), `grits_top` (mean over tables),
  `tables_exact` (share of tables without an error), `cells_right` (share of gold cells
  reproduced, pooled over the run), `header_rows_right`, `rows_right`, `columns_right`,
  `spans_f1` (means over tables), and the means of GriTS precision and recall.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

import envirobench
from envirobench import Case, CaseScore, ErrorKey, share

from .grits import grits_top, iou, reference_iou
from .validators import ImageInput, not_negative, positive

# Each dataset folder under benchmarks/<type ID>/datasets/ -> its dataset ID.
DATASETS = {
    "synthetic-v1": "envirobench/table-structure-synthetic-v1",
    "synthetic-dev-v2": "envirobench/table-structure-synthetic-dev-v2",
    "synthetic-test-v2": "envirobench/table-structure-synthetic-test-v2",
}


@attrs.frozen
class Input(ImageInput):
    """One case: the table image (a dataset-relative PNG path) and its size in pixels."""


@attrs.frozen
class Cell:
    """A cell: its top-left grid position and how many rows and columns it covers from there."""

    row: int = attrs.field(validator=not_negative)
    column: int = attrs.field(validator=not_negative)
    row_span: int = attrs.field(validator=positive)
    column_span: int = attrs.field(validator=positive)


@attrs.frozen
class TableGrid:
    """A table's cell grid: rows x columns positions, each covered by exactly one cell, and the
    number of header rows at the top."""

    rows: int = attrs.field(validator=positive)
    columns: int = attrs.field(validator=positive)
    header_rows: int = attrs.field(validator=not_negative)
    cells: tuple[Cell, ...]

    def __attrs_post_init__(self) -> None:
        if self.header_rows > self.rows:
            raise ValueError(f"header_rows is {self.header_rows}, more than the {self.rows} rows")
        owner: dict[tuple[int, int], int] = {}
        for index, cell in enumerate(self.cells):
            if (
                cell.row + cell.row_span > self.rows
                or cell.column + cell.column_span > self.columns
            ):
                raise ValueError(
                    f"cells[{index}] at row {cell.row}, column {cell.column} with spans "
                    f"{cell.row_span} x {cell.column_span} reaches outside the "
                    f"{self.rows} x {self.columns} grid"
                )
            for r in range(cell.row, cell.row + cell.row_span):
                for c in range(cell.column, cell.column + cell.column_span):
                    if (r, c) in owner:
                        raise ValueError(
                            f"cells[{owner[r, c]}] and cells[{index}] overlap at row {r}, column {c}"
                        )
                    owner[r, c] = index
        if len(owner) < self.rows * self.columns:
            r, c = next(
                (r, c) for r in range(self.rows) for c in range(self.columns) if (r, c) not in owner
            )
            raise ValueError(f"no cell covers row {r}, column {c}: cells must cover the whole grid")

    def spans(self) -> tuple[int, int, list[tuple[int, int, int, int]]]:
        """(rows, columns, cells as (row, column, row_span, column_span)) for grits_top."""
        return (
            self.rows,
            self.columns,
            [(c.row, c.column, c.row_span, c.column_span) for c in self.cells],
        )


Answer = TableGrid
Prediction = TableGrid


def spans_f1(answer: TableGrid, prediction: TableGrid) -> float:
    """The F1 of the spanning cells (a row or column span above 1), matched by position and
    spans; 1.0 when neither grid has one."""
    gold = {(c.row, c.column, c.row_span, c.column_span) for c in answer.cells if c.row_span > 1 or c.column_span > 1}
    predicted = {(c.row, c.column, c.row_span, c.column_span) for c in prediction.cells if c.row_span > 1 or c.column_span > 1}
    if not gold and not predicted:
        return 1.0
    return 2 * len(gold & predicted) / (len(gold) + len(predicted))

# How each profile's GriTS compares two relative spans (see the module docstring).
PROFILE_OVERLAP = {"topology": reference_iou, "topology-paper": iou}


class TableStructure(envirobench.BenchmarkType):
    ID = "table-structure"
    FORMAT = "envirobench.table-structure.v1"
    LABEL = "Table structure"
    SCORING_VERSION = "envirobench.table-structure.scores.v3"
    TIER = "component"
    PROFILES = ("topology", "topology-paper")
    HEADLINE = (
        "structure",
        "grits_top",
        "tables_exact",
        "cells_right",
        "header_rows_right",
        "rows_right",
        "columns_right",
        "spans_f1",
        "grits_top_precision",
        "grits_top_recall",
    )
    VIEWER = "table-structure"
    SOURCE_FIELDS = ("image",)

    Answer = TableGrid
    Prediction = TableGrid

    def score_case(
        self, case: Case, answer: TableGrid, prediction: TableGrid
    ) -> dict[str, CaseScore]:
        errors: list[ErrorKey] = []
        if prediction.header_rows != answer.header_rows:
            errors.append(("wrong-header-rows",))
        predicted = {(c.row, c.column, c.row_span, c.column_span) for c in prediction.cells}
        wrong = sorted(
            (c.row, c.column)
            for c in answer.cells
            if (c.row, c.column, c.row_span, c.column_span) not in predicted
        )
        errors += [("wrong-cell", row, column) for row, column in wrong]
        if prediction.rows > answer.rows:
            errors.append(("extra-rows",))
        if prediction.columns > answer.columns:
            errors.append(("extra-columns",))
        header_rows_right = 0.0 if prediction.header_rows != answer.header_rows else 1.0
        rows_right = 1.0 if prediction.rows == answer.rows else 0.0
        columns_right = 1.0 if prediction.columns == answer.columns else 0.0
        spans = spans_f1(answer, prediction)
        shared = {
            "structure": (rows_right + columns_right + header_rows_right + spans) / 4,
            "rows_right": rows_right,
            "columns_right": columns_right,
            "spans_f1": spans,
            "cells": float(len(answer.cells)),
            "cells_right": float(len(answer.cells) - len(wrong)),
            "header_rows_right": header_rows_right,
            "exact": 0.0 if errors else 1.0,
        }
        out = {}
        for profile, overlap in PROFILE_OVERLAP.items():
            similarity = grits_top(answer.spans(), prediction.spans(), overlap)
            metrics = {
                "grits_top": similarity.score,
                "grits_top_precision": similarity.precision,
                "grits_top_recall": similarity.recall,
                **shared,
            }
            out[profile] = CaseScore(errors=tuple(errors), metrics=metrics)
        return out

    def summarize_totals(self, profile: str, totals: Mapping[str, float], cases: int) -> dict[str, float]:

        def mean(name: str) -> float:
            return totals[name] / cases

        return {
            "structure": mean("structure"),
            "grits_top": mean("grits_top"),
            "tables_exact": mean("exact"),
            "cells_right": share(totals["cells_right"], totals["cells"]),
            "header_rows_right": mean("header_rows_right"),
            "rows_right": mean("rows_right"),
            "columns_right": mean("columns_right"),
            "spans_f1": mean("spans_f1"),
            "grits_top_precision": mean("grits_top_precision"),
            "grits_top_recall": mean("grits_top_recall"),
        }
