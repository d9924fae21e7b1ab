"""Benchmark type `table-cells`: the text of every cell of a table, read from its image.

A case is a grayscale crop of a laboratory results table and the boxes of its cells:

    {"image": "assets/tc-0001.png", "width": 612, "height": 301,
     "cells": [{"row": 0, "column": 0, "box": [8, 8, 131, 33]}, ...]}

A cell is named by its top-left grid position (`row`, `column`, from 0); its `box` is the area
it occupies in the image, [x0, y0, x1, y1) in pixels (half-open; neighbouring boxes share an
edge). A merged cell has one box over everything it covers, named by its top-left position.
Every cell is given, empty ones too.

A prediction gives the text of each given cell, in any order:

    {"cells": [{"row": 0, "column": 0, "text": "Analyte"}, ...]}

Line breaks inside a cell may be written as a space or a newline. Naming one position twice is
refused (a technical failure of the run). A given cell the prediction leaves out is a scored
error, as is a predicted position that is not a cell of the table.

The answer is the table's text as a grid, row by row: `{"grid": [["Analyte", "CAS No.", ...],
...]}`, one string per cell at its top-left position, a line break as `\\n`, and null at every
position a merged cell covers beyond its first. (It is kept apart from the input's form so that
the answer never repeats a field of the input.)

Profiles compare a predicted text with the gold text of the same cell:

- `exact` (the default gate): equal after `fold_text` on both: Unicode NFKC (compatibility
  forms folded: the micro sign U+00B5 is the Greek mu U+03BC, `m³` is `m3`, a full-width `＜`
  is `<`), every run of whitespace one space, the ends stripped, and no space after a
  comparison sign (`<`, `>`, `≤`, `≥`): `< 0.005` equals `<0.005`, `µg/L` equals `μg/L`.
  Whitespace is otherwise collapsed, never removed, and nothing else is read: `1200` does not
  equal `1,250`, `ug/L` does not equal `µg/L`. (Scoring version v1 compared after NFC only,
  so those two pairs were wrong there: glyphs a reader cannot tell apart cost points.)
- `value`: where the gold text is a printed result (`values.parse_value`: `<0.50`, `0.50 U`,
  `ND (0.5)`, `1,250`, `1.2 J`, ...), the prediction must be a printed result with the same
  value, non-detect, qualifiers, unit and named limit: `< 0.005` equals `<0.005` and `1250`
  equals `1,250`, but `0.050` does not equal `0.50` and `0.50` does not equal `0.50 U`. Where
  the gold text is a unit alone (`values.parse_unit`), the prediction must be the same unit
  (`ug/L` equals `µg/L`, `mg/Kg` equals `mg/kg`). Any other cell (names, CAS numbers, methods,
  headers, qualifier letters, empty cells) is compared as in `exact`.

Every predicted text belongs to a given cell or is an extra position (a cell the table does not
have): an invented cell costs in the headline, as one more cell read wrong. `cells_right` is the
cells read right over the gold cells plus the invented ones, pooled over the run: right ÷ (gold
cells ∪ predicted positions). A prediction that names only given cells scores as before; one that
adds 200 invented cells to a right table of 50 scores 50/250 = 0.2. (Scoring version v2 divided by
the gold cells alone, so invented cells cost nothing there but `tables_exact`.) An empty
prediction has every cell missing.

Errors, listed by position (row, then column):

    ("wrong-cell", row, column)     the cell's text is not the gold text
    ("missing-cell", row, column)   the prediction gives no text for this cell
    ("extra-cell", row, column)     the prediction names a position that is not a cell

Metrics per case: `cells` (gold cells), `right`, `missing`, `extra` and `exact` (1 when the case
has no error). Headline: `cells_right`, right ÷ (gold cells + extra positions), pooled over the
run (the primary measure); `tables_exact`, the share of tables without an error; `cells_missing`,
the share of gold cells the predictions left out; `extra_cells`, extra positions per table.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any

import attrs

import envirobench
from envirobench import Case, CaseScore, ErrorKey, share

from .validators import ImageInput, not_negative
from .values import parse_unit, parse_value

# Each dataset folder under benchmarks/<type ID>/datasets/ -> its dataset ID.
DATASETS = {
    "synthetic-v1": "envirobench/table-cells-synthetic-v1",
    "synthetic-dev-v2": "envirobench/table-cells-synthetic-dev-v2",
    "synthetic-test-v2": "envirobench/table-cells-synthetic-test-v2",
}


def _box(instance: Any, attribute: attrs.Attribute, value: tuple[int, ...]) -> None:
    if len(value) != 4 or not (0 <= value[0] < value[2] and 0 <= value[1] < value[3]):
        raise ValueError(
            f"a box is [x0, y0, x1, y1] with 0 <= x0 < x1 and 0 <= y0 < y1, got {list(value)}"
        )


def _unique_positions(kind: str):
    def check(instance: Any, attribute: attrs.Attribute, cells: tuple[Any, ...]) -> None:
        seen: dict[tuple[int, int], int] = {}
        for index, cell in enumerate(cells):
            key = (cell.row, cell.column)
            if key in seen:
                raise ValueError(
                    f"{kind}[{seen[key]}] and {kind}[{index}] both name row {cell.row}, column {cell.column}"
                )
            seen[key] = index

    return check


@attrs.frozen
class InputCell:
    """A cell of the table: its top-left grid position and its area in the image,
    [x0, y0, x1, y1) in pixels."""

    row: int = attrs.field(validator=not_negative)
    column: int = attrs.field(validator=not_negative)
    box: tuple[int, ...] = attrs.field(validator=_box)


@attrs.frozen
class Input(ImageInput):
    """One case: the table image (a dataset-relative PNG path), its size in pixels, and every
    cell of the table."""

    cells: tuple[InputCell, ...] = attrs.field(validator=_unique_positions("cells"))

    def __attrs_post_init__(self) -> None:
        for index, cell in enumerate(self.cells):
            if cell.box[2] > self.width or cell.box[3] > self.height:
                raise ValueError(
                    f"cells[{index}].box {list(cell.box)} leaves the {self.width} x {self.height} image"
                )


@attrs.frozen
class PredictedCell:
    """The text read from one cell, named by its top-left grid position."""

    row: int = attrs.field(validator=not_negative)
    column: int = attrs.field(validator=not_negative)
    text: str


@attrs.frozen
class Prediction:
    """The text of each cell of the table, in any order; a position at most once."""

    cells: tuple[PredictedCell, ...] = attrs.field(validator=_unique_positions("cells"))


@attrs.frozen
class Answer:
    """The table's text row by row: a cell's text at its top-left position, null where a merged
    cell covers the position beyond its first; every row as long as the first."""

    grid: tuple[tuple[str | None, ...], ...]

    def __attrs_post_init__(self) -> None:
        if not self.grid or not self.grid[0]:
            raise ValueError("a table has at least one row and one column")
        for index, row in enumerate(self.grid):
            if len(row) != len(self.grid[0]):
                raise ValueError(
                    f"grid[{index}] has {len(row)} cells, grid[0] has {len(self.grid[0])}"
                )
        if self.grid[0][0] is None:
            raise ValueError("grid[0][0] is null: the top-left position always starts a cell")

    def cells(self) -> dict[tuple[int, int], str]:
        """(row, column) -> text of every cell."""
        return {
            (r, c): text
            for r, row in enumerate(self.grid)
            for c, text in enumerate(row)
            if text is not None
        }


_AFTER_SIGN = re.compile(r"([<>\u2264\u2265]) +")


def fold_text(text: str) -> str:
    """A cell's text as `exact` compares it: NFKC, whitespace runs as one space, the ends
    stripped, no space after a comparison sign."""
    return _AFTER_SIGN.sub(r"\1", " ".join(unicodedata.normalize("NFKC", text).split()))


def exact_match(gold: str, predicted: str) -> bool:
    return fold_text(gold) == fold_text(predicted)


def value_match(gold: str, predicted: str) -> bool:
    """The `value` profile's comparison of one cell (see the module docstring)."""
    reading = parse_value(gold)
    if reading is not None:
        return reading == parse_value(predicted)
    unit = parse_unit(gold)
    if unit is not None:
        return unit == parse_unit(predicted)
    return exact_match(gold, predicted)


PROFILE_MATCH = {"exact": exact_match, "value": value_match}


class TableCells(envirobench.BenchmarkType):
    ID = "table-cells"
    FORMAT = "envirobench.table-cells.v1"
    LABEL = "Table cells"
    SCORING_VERSION = "envirobench.table-cells.scores.v3"
    TIER = "component"
    PROFILES = ("exact", "value")
    HEADLINE = ("cells_right", "tables_exact", "cells_missing", "extra_cells")
    VIEWER = "table-grid"
    SOURCE_FIELDS = ("image",)

    def score_case(
        self, case: Case, answer: Answer, prediction: Prediction
    ) -> dict[str, CaseScore]:
        gold = answer.cells()
        predicted = {(c.row, c.column): c.text for c in prediction.cells}
        out = {}
        for profile, match in PROFILE_MATCH.items():
            ranked: list[tuple[tuple[int, int], ErrorKey]] = []
            right = 0
            for position, text in gold.items():
                if position not in predicted:
                    ranked.append((position, ("missing-cell", *position)))
                elif match(text, predicted[position]):
                    right += 1
                else:
                    ranked.append((position, ("wrong-cell", *position)))
            extra = sorted(p for p in predicted if p not in gold)
            ranked += [(p, ("extra-cell", *p)) for p in extra]
            errors = tuple(error for _, error in sorted(ranked))
            metrics = {
                "cells": float(len(gold)),
                "right": float(right),
                "missing": float(sum(1 for p in gold if p not in predicted)),
                "extra": float(len(extra)),
                "exact": 0.0 if errors else 1.0,
            }
            out[profile] = CaseScore(errors=errors, metrics=metrics)
        return out

    def summarize_totals(self, profile: str, totals: Mapping[str, float], cases: int) -> dict[str, float]:
        cells = totals["cells"]
        return {
            "cells_right": share(totals["right"], cells + totals["extra"]),
            "tables_exact": totals["exact"] / cases,
            "cells_missing": totals["missing"] / cells if cells else 0.0,
            "extra_cells": totals["extra"] / cases,
        }
