"""The prediction fixtures of `table-cells`, derived from the dataset's answer key
(generate/table_cells.py's FIXTURES: `correct_prediction`, `wrong_prediction`, and the edits
of the dataset's folder by `named_mistakes.planted_by_name`).

`correct.json` gives every cell its gold text, so it has no error in any profile. `wrong.json`
is the same except for the edits below, at most one mistake per case; the tests assert the
errors each gives, case by case and profile by profile:

- EXACT_ONLY: the same result or unit written another way (no thousands separator, `ug` for
  `µg`): wrong in `exact`, right in `value`.
- BOTH: a different value or a lost qualifier (`0.0050 U` read as `0.0050`, `ND (2.5)` as `ND`,
  `0.0010` as `0.010`), a misspelt name, a cell left out and a position invented: wrong in both.
- HARMLESS: a line break inside a cell written as a space, a space after `<` and the Greek mu
  for the micro sign, which are no error in either profile (the last two were `exact` errors in
  scoring version v1, before `exact` folded compatibility forms and spaces after signs).

Both files are prediction maps over every case: {case_id: {"cells": [{"row", "column", "text"}]}}.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from envirobench import EnviroBenchError

from ..table_cells import Answer

Edit = Literal["replace", "drop", "add"]


@dataclass(frozen=True)
class DeliberateEdit:
    case: str
    edit: Edit
    row: int
    column: int
    gold: str | None  # the gold text the edit expects there (None for "add": no cell there)
    text: str | None = None  # the predicted text (replace, add)
    why: str = ""


EXACT_ONLY: tuple[DeliberateEdit, ...] = (
    DeliberateEdit("tc-0007", "replace", 6, 2, "1,200", "1200", "no thousands separator"),
    DeliberateEdit("tc-0015", "replace", 1, 4, "ug/L", "µg/L", "µg for the printed ug"),
)
BOTH: tuple[DeliberateEdit, ...] = (
    DeliberateEdit("tc-0025", "replace", 2, 2, "0.0050 U", "0.0050", "the U qualifier lost"),
    DeliberateEdit("tc-0005", "replace", 3, 3, "0.40 J", "0.40", "the J qualifier lost"),
    DeliberateEdit("tc-0019", "replace", 2, 1, "ND (2.5)", "ND", "the limit of a non-detect lost"),
    DeliberateEdit(
        "tc-0033", "replace", 1, 5, "0.0010", "0.010", "a zero lost: ten times the limit"
    ),
    DeliberateEdit("tc-0041", "replace", 2, 1, "o-Xylene", "o-Xylcne", "a misread letter"),
    DeliberateEdit("tc-0049", "drop", 0, 1, "SS-23", why="a merged sample header left out"),
    DeliberateEdit("tc-0057", "add", 0, 7, None, "Method", "a column invented beside the table"),
)
HARMLESS: tuple[DeliberateEdit, ...] = (
    DeliberateEdit("tc-0001", "replace", 5, 1, "<0.050", "< 0.050", "a space after <"),
    DeliberateEdit("tc-0009", "replace", 1, 3, "µg/L", "\u03bcg/L", "Greek mu for the micro sign"),
    DeliberateEdit(
        "tc-0034", "replace", 1, 4, "SW-846\n8015D", "SW-846 8015D", "a line break as a space"
    ),
)
DELIBERATE_EDITS = EXACT_ONLY + BOTH + HARMLESS

# The v2 datasets' edits, by dataset folder.
DELIBERATE_EDITS_V2: dict[str, tuple[DeliberateEdit, ...]] = {
    "synthetic-dev-v2": (
        # exact only
        DeliberateEdit("tc-dev-0005", "replace", 7, 4, "1,520", "1520", "no thousands separator"),
        DeliberateEdit("tc-dev-0003", "replace", 1, 2, "ug/m³", "µg/m³", "µg for the printed ug"),
        # both profiles
        DeliberateEdit("tc-dev-0014", "replace", 1, 2, "<0.025", "<0.25", "a zero lost"),
        DeliberateEdit("tc-dev-0002", "replace", 3, 3, "ND (0.050)", "ND", "the limit lost"),
        DeliberateEdit(
            "tc-dev-0001",
            "replace",
            4,
            0,
            "2-Fluorobiphenyl (Surr)",
            "2-Fluorobiphenyl",
            "a surrogate read as a target analyte",
        ),
        DeliberateEdit("tc-dev-0008", "drop", 0, 3, "MW-10", why="a merged sample header left out"),
        DeliberateEdit("tc-dev-0013", "add", 0, 7, None, "Method", "a column invented (scanned)"),
        # harmless
        DeliberateEdit(
            "tc-dev-0004",
            "replace",
            0,
            2,
            "Concentration\n(µg/m³)",
            "Concentration (µg/m³)",
            "a wrapped title's line break as a space",
        ),
        DeliberateEdit("tc-dev-0017", "replace", 3, 2, "<12", "< 12", "a space after <"),
        DeliberateEdit(
            "tc-dev-0007",
            "replace",
            0,
            2,
            "Result\n(µg/m³)",
            "Result\n(\u03bcg/m³)",
            "Greek mu for the micro sign",
        ),
    ),
    "synthetic-test-v2": (
        # exact only
        DeliberateEdit("tc-test-0011", "replace", 4, 2, "1,430", "1430", "no thousands separator"),
        DeliberateEdit("tc-test-0008", "replace", 2, 2, "ug/L", "µg/L", "µg for the printed ug"),
        # both profiles
        DeliberateEdit("tc-test-0006", "replace", 3, 5, "0.0050 U", "0.0050", "the U lost"),
        DeliberateEdit("tc-test-0004", "replace", 2, 3, "ND (0.10)", "ND", "the limit lost"),
        DeliberateEdit(
            "tc-test-0005",
            "replace",
            0,
            3,
            "Measured Value",
            "Measured Va1ue",
            "a test-split column title misread",
        ),
        DeliberateEdit(
            "tc-test-0003",
            "replace",
            5,
            0,
            "Decachlorobiphenyl (Surr)",
            "Decachlorobiphenyl",
            "a surrogate read as a target analyte (scanned)",
        ),
        DeliberateEdit(
            "tc-test-0002", "drop", 0, 4, "SB-20 (6-7')", why="a merged sample header left out"
        ),
        DeliberateEdit("tc-test-0001", "add", 0, 7, None, "Method", "a column invented (scanned)"),
        # harmless
        DeliberateEdit(
            "tc-test-0019",
            "replace",
            0,
            1,
            "SB-3\n(10-12')",
            "SB-3 (10-12')",
            "a wrapped sample header's line break as a space (scanned)",
        ),
        DeliberateEdit("tc-test-0018", "replace", 4, 2, "<0.0020", "< 0.0020", "a space after <"),
        DeliberateEdit(
            "tc-test-0015", "replace", 5, 3, "µg/L", "\u03bcg/L", "Greek mu for the micro sign"
        ),
    ),
}


def correct_prediction(answer: Answer) -> dict[str, Any]:
    return {
        "cells": [{"row": r, "column": c, "text": text} for (r, c), text in answer.cells().items()]
    }


def wrong_prediction(edit: DeliberateEdit, answer: Answer, prediction: dict[str, Any]) -> dict[str, Any]:
    """The correct prediction with `edit` made (a copy)."""
    gold = answer.cells()
    _require(
        gold.get((edit.row, edit.column)) == edit.gold,
        edit,
        f"the gold text there is {gold.get((edit.row, edit.column))!r}",
    )
    cells = list(prediction["cells"])
    if edit.edit == "add":
        cells.append({"row": edit.row, "column": edit.column, "text": edit.text})
    else:
        index = next(
            i
            for i, cell in enumerate(cells)
            if (cell["row"], cell["column"]) == (edit.row, edit.column)
        )
        if edit.edit == "drop":
            del cells[index]
        else:
            cells[index] = {**cells[index], "text": edit.text}
    return {**prediction, "cells": cells}


def _require(condition: bool, edit: DeliberateEdit, problem: str) -> None:
    # The dataset changed under the fixture: choose another cell rather than ship a fixture
    # whose errors differ from the documented ones.
    if not condition:
        raise EnviroBenchError(
            f"cannot build the deliberate edit for {edit.case} ({edit.why}): {problem}"
        )
