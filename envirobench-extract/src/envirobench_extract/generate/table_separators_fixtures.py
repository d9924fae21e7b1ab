"""The prediction fixtures of `table-separators`, derived from the dataset's answer key
(generate/table_separators.py's FIXTURES: `correct_prediction`, `wrong_prediction`, and the
errors of the dataset's folder by `named_mistakes.planted_by_name`).

`correct.json` predicts every gold separator, so it has no error in any profile. `wrong.json` is
the same except for the deliberate mistakes in DELIBERATE_ERRORS, one per case, each chosen to
give exactly one known error; the tests assert those errors case by case. Both are prediction
maps over every case: {case_id: {"rows": [...], "columns": [...]}}.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from envirobench import EnviroBenchError

from ..table_separators import Answer, Band

Mistake = Literal["drop", "extra-in-gap", "on-content", "before-table", "after-table", "shift-5px"]


@dataclass(frozen=True)
class DeliberateError:
    case: str
    axis: Literal["row", "column"]
    mistake: Mistake
    index: int  # the gap (drop, extra-in-gap, shift-5px) or band (on-content) it concerns
    why: str


DELIBERATE_ERRORS: tuple[DeliberateError, ...] = (
    DeliberateError("ts-0001", "row", "drop", 2, "a missed separator (fully ruled)"),
    DeliberateError(
        "ts-0025", "column", "extra-in-gap", 1, "a second separator at the start of a gap (unruled)"
    ),
    DeliberateError(
        "ts-0037", "row", "on-content", 3, "a separator through the middle of a row (zebra)"
    ),
    DeliberateError(
        "ts-0013",
        "column",
        "before-table",
        0,
        "a separator left of the first column (horizontal rules)",
    ),
    DeliberateError(
        "ts-0061", "row", "after-table", 0, "a separator below the last row (wrapped headers)"
    ),
    DeliberateError(
        "ts-0049",
        "row",
        "shift-5px",
        1,
        "a separator 5 px from gold inside its gap: strict only (multi-line cells)",
    ),
)

# The v2 datasets' mistakes, by dataset folder.
DELIBERATE_ERRORS_V2: dict[str, tuple[DeliberateError, ...]] = {
    "synthetic-dev-v2": (
        DeliberateError("ts-dev-0004", "row", "drop", 2, "a missed separator (sample page)"),
        DeliberateError(
            "ts-dev-0013", "column", "extra-in-gap", 1, "a second separator in a gap (scanned)"
        ),
        DeliberateError("ts-dev-0022", "row", "on-content", 3, "a separator through a row"),
        DeliberateError("ts-dev-0031", "column", "before-table", 0, "left of the first column"),
        DeliberateError("ts-dev-0042", "row", "after-table", 0, "below the last row"),
        DeliberateError("ts-dev-0052", "row", "shift-5px", 1, "5 px from gold: strict only"),
        DeliberateError("ts-dev-0061", "column", "drop", 1, "a missed column (scanned)"),
    ),
    "synthetic-test-v2": (
        DeliberateError("ts-test-0004", "row", "drop", 2, "a missed separator (scanned)"),
        DeliberateError("ts-test-0011", "column", "extra-in-gap", 1, "a second separator in a gap"),
        DeliberateError("ts-test-0021", "row", "on-content", 3, "a separator through a row"),
        DeliberateError("ts-test-0031", "column", "before-table", 0, "left of the first column"),
        DeliberateError("ts-test-0042", "row", "after-table", 0, "below the last row"),
        DeliberateError("ts-test-0053", "row", "shift-5px", 1, "5 px from gold: strict only"),
        DeliberateError("ts-test-0065", "column", "drop", 1, "a missed column (scanned)"),
    ),
}


def correct_prediction(answer: Answer) -> dict[str, list[int]]:
    return {"rows": list(answer.rows), "columns": list(answer.columns)}


def wrong_prediction(
    error: DeliberateError, answer: Answer, prediction: dict[str, list[int]]
) -> dict[str, list[int]]:
    """The correct prediction with `error` made on its axis (a copy)."""
    key = "rows" if error.axis == "row" else "columns"
    gold = list(getattr(answer, key))
    bands: tuple[Band, ...] = getattr(answer, "row_bands" if error.axis == "row" else "column_bands")
    return {**prediction, key: sorted(_apply(error, gold, bands))}


def _apply(error: DeliberateError, gold: list[int], bands: tuple[Band, ...]) -> list[int]:
    i = error.index
    if error.mistake == "drop":
        return gold[:i] + gold[i + 1 :]
    if error.mistake == "extra-in-gap":
        start = bands[i].end  # the gap's first pixel; gold is the gap's rule or middle, never here
        _require(start != gold[i], error, "the gap starts at the gold separator")
        return gold + [start]
    if error.mistake == "on-content":
        return gold + [(bands[i].start + bands[i].end) // 2]
    if error.mistake == "before-table":
        _require(bands[0].start >= 3, error, "no room before the table")
        return gold + [bands[0].start - 3]
    if error.mistake == "after-table":
        return gold + [bands[-1].end + 2]
    shifted = gold[i] + 5
    _require(bands[i].end <= shifted < bands[i + 1].start, error, "gold + 5 px leaves the gap")
    return gold[:i] + [shifted] + gold[i + 1 :]


def _require(condition: bool, error: DeliberateError, problem: str) -> None:
    # The dataset changed under the fixture: choose another case or index rather than ship a
    # fixture whose errors differ from the documented ones.
    if not condition:
        raise EnviroBenchError(
            f"cannot build the deliberate error for {error.case} ({error.why}): {problem}"
        )
