"""The prediction fixtures of `table-cells`, derived from the dataset's answer key
(generate/table_cells.py writes them).

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
from pathlib import Path
from typing import Any, Literal

from envirobench import EnviroBenchError
from envirobench import read_answers as read_answers_of

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


def read_answers(dataset_dir: Path) -> dict[str, Answer]:
    return read_answers_of(dataset_dir, Answer)


def correct_predictions(answers: dict[str, Answer]) -> dict[str, Any]:
    return {
        case: {
            "cells": [
                {"row": r, "column": c, "text": text} for (r, c), text in answer.cells().items()
            ]
        }
        for case, answer in answers.items()
    }


def wrong_predictions(answers: dict[str, Answer]) -> dict[str, Any]:
    predictions = correct_predictions(answers)
    edited: set[str] = set()
    for edit in DELIBERATE_EDITS:
        if edit.case not in answers:
            raise EnviroBenchError(f"fixture case {edit.case!r} is not in the dataset")
        _require(edit.case not in edited, edit, "the case already has a deliberate edit")
        edited.add(edit.case)
        gold = answers[edit.case].cells()
        _require(
            gold.get((edit.row, edit.column)) == edit.gold,
            edit,
            f"the gold text there is {gold.get((edit.row, edit.column))!r}",
        )
        cells = predictions[edit.case]["cells"]
        if edit.edit == "add":
            cells.append({"row": edit.row, "column": edit.column, "text": edit.text})
            continue
        index = next(
            i
            for i, cell in enumerate(cells)
            if (cell["row"], cell["column"]) == (edit.row, edit.column)
        )
        if edit.edit == "drop":
            del cells[index]
        else:
            cells[index] = {**cells[index], "text": edit.text}
    return predictions


def _require(condition: bool, edit: DeliberateEdit, problem: str) -> None:
    # The dataset changed under the fixture: choose another cell rather than ship a fixture
    # whose errors differ from the documented ones.
    if not condition:
        raise EnviroBenchError(
            f"cannot build the deliberate edit for {edit.case} ({edit.why}): {problem}"
        )
