"""Benchmark type `table-separators`: where are the lines between a table's rows and columns?

A case is a grayscale crop of a laboratory results table (`Input.image`). A system predicts the
interior separators: `rows`, the y of each line between two neighbouring table rows (the header
is a row), and `columns`, the x of each line between two neighbouring columns, in image pixels.
Rows and columns are scored independently and alike; below, "band" is a row's (column's) content
band and "position" a y (x).

The answer holds the gold separators and the content bands. A band is half-open, [start, end):
`start` is the first pixel line holding ink of that row (column), `end` the first pixel line after
its last ink. Bands are ordered and never touch, so between bands i and i+1 lies gap i,
[end_i, start_i+1), which holds gold separator i (a ruling line, a shading edge, or the middle
of the whitespace).

Where a prediction falls (the boundaries, exactly):
- on content of band k when start_k <= p < end_k. The first and the last inked pixel line of a
  band are content: a line drawn there would cut through text. p == end_k is already in the gap;
- in gap i when end_i <= p < start_i+1;
- outside the table when p < start_0 ("before") or p >= end_last ("after"): margins, the outer
  frame, and positions beyond the image (negative or past its size) alike.

Matching (profile `logical`, the default gate): each gap's gold separator is matched with one
prediction in the same gap. When a gap holds several predictions, the one closest to the gold
position is the match (on a tie the smaller position) and the others are extra. Errors, each
reported once however many predictions cause it, with indices and never pixel values, so the
same mistake gives the same error in every run:

    ("missing-separator", axis, i)          gap i holds no prediction
    ("extra-separator", axis, i)            gap i holds more than one prediction
    ("separator-on-content", axis, k)       a prediction cuts through band k
    ("separator-outside-table", axis, side) a prediction before the first or after the last band

`axis` is "row" or "column", `side` "before" or "after". Errors are listed rows first, each axis
in position order. Profile `strict` has the same errors plus ("misplaced-separator", axis, i)
when the match in gap i is more than STRICT_TOLERANCE pixels from the gold position.

Metrics per case: `tp` (matched separators), `fp` (unmatched predictions), `fn` (gold separators
without a match) and `exact` (1.0 when the case has no error, else 0.0). In `strict` a misplaced
match counts as one fp and one fn instead of a tp. Headline: `separator_f1` is F1 over counts
pooled across the run (with `separator_precision` and `separator_recall`, each left out as
undefined when its denominator is 0: precision when nothing was predicted, recall when there was
nothing to find; scoring version v1 reported 1.0 there), `tables_exact` the share of tables
without any error.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence

import attrs

import envirobench
from envirobench import Case, CaseScore, ErrorKey

from .validators import ImageInput

STRICT_TOLERANCE = 3  # pixels; a match 3 px off is placed, 4 px off is misplaced

# Each dataset folder under benchmarks/<type ID>/datasets/ -> its dataset ID.
DATASETS = {
    "synthetic-v1": "envirobench/table-separators-synthetic-v1",
    "synthetic-dev-v2": "envirobench/table-separators-synthetic-dev-v2",
    "synthetic-test-v2": "envirobench/table-separators-synthetic-test-v2",
}

AXES = ("row", "column")


@attrs.frozen
class Input(ImageInput):
    """One case: the table image (a dataset-relative PNG path) and its size in pixels."""


@attrs.frozen
class Prediction:
    """Interior separator positions in pixels: y for `rows`, x for `columns`. Order is free."""

    rows: tuple[int, ...]
    columns: tuple[int, ...]


@attrs.frozen
class Band:
    """A row's (column's) content: pixel lines [start, end) along its axis."""

    start: int
    end: int

    def __attrs_post_init__(self) -> None:
        if not 0 <= self.start < self.end:
            raise ValueError(
                f"a band needs 0 <= start < end, got start {self.start} and end {self.end}"
            )


@attrs.frozen
class Answer:
    """Gold separators with the content bands they separate: n bands, n - 1 separators."""

    rows: tuple[int, ...]
    columns: tuple[int, ...]
    row_bands: tuple[Band, ...]
    column_bands: tuple[Band, ...]

    def __attrs_post_init__(self) -> None:
        # Refused when a dataset is validated: scoring relies on every one of these.
        _check_axis("rows", self.rows, "row_bands", self.row_bands)
        _check_axis("columns", self.columns, "column_bands", self.column_bands)


def _check_axis(
    name: str, separators: tuple[int, ...], bands_name: str, bands: tuple[Band, ...]
) -> None:
    if not bands:
        raise ValueError(f"{bands_name} is empty: a table has at least one row and one column")
    if len(separators) != len(bands) - 1:
        raise ValueError(
            f"{len(bands)} {bands_name} need {len(bands) - 1} {name}, got {len(separators)}"
        )
    for i, (before, after, separator) in enumerate(zip(bands, bands[1:], separators, strict=False)):
        if before.end >= after.start:
            raise ValueError(
                f"{bands_name}[{i}] and {bands_name}[{i + 1}] touch or overlap: no gap between them"
            )
        if not before.end <= separator < after.start:
            raise ValueError(
                f"{name}[{i}] = {separator} is not in the gap [{before.end}, {after.start}) "
                f"between {bands_name}[{i}] and {bands_name}[{i + 1}]"
            )


@attrs.frozen
class AxisMatch:
    """One axis of one case, matched. `offsets` are prediction - gold of each match, by gap."""

    errors: tuple[tuple[tuple[int, int], ErrorKey], ...]  # (position rank, error)
    offsets: Mapping[int, int]
    unmatched: int  # predictions that matched nothing (extra, on content or outside)
    missing: int


def match_axis(
    axis: str, gold: Sequence[int], bands: Sequence[Band], predicted: Sequence[int]
) -> AxisMatch:
    """Match one axis's predictions against its gold separators (see the module docstring)."""
    starts = [band.start for band in bands]
    last = len(bands) - 1
    by_gap: dict[int, list[int]] = {}
    errors: list[tuple[tuple[int, int], ErrorKey]] = []
    unmatched = 0
    for position in predicted:
        k = bisect_right(starts, position) - 1  # the last band starting at or before `position`
        if k < 0:
            errors.append(((-1, 0), ("separator-outside-table", axis, "before")))
        elif position < bands[k].end:
            errors.append(((2 * k, 0), ("separator-on-content", axis, k)))
        elif k == last:
            errors.append(((2 * len(bands), 0), ("separator-outside-table", axis, "after")))
        else:
            by_gap.setdefault(k, []).append(position)
            continue
        unmatched += 1

    offsets: dict[int, int] = {}
    missing = 0
    for gap, gold_position in enumerate(gold):
        candidates = by_gap.get(gap, [])
        if not candidates:
            errors.append(((2 * gap + 1, 0), ("missing-separator", axis, gap)))
            missing += 1
            continue
        match = min(candidates, key=lambda p: (abs(p - gold_position), p))
        offsets[gap] = match - gold_position
        if len(candidates) > 1:
            errors.append(((2 * gap + 1, 1), ("extra-separator", axis, gap)))
            unmatched += len(candidates) - 1
    return AxisMatch(tuple(_unique_in_order(errors)), offsets, unmatched, missing)


def _unique_in_order(
    errors: list[tuple[tuple[int, int], ErrorKey]],
) -> list[tuple[tuple[int, int], ErrorKey]]:
    seen: set[ErrorKey] = set()
    out = []
    for rank, error in sorted(errors):
        if error not in seen:
            seen.add(error)
            out.append((rank, error))
    return out


class TableSeparators(envirobench.BenchmarkType):
    ID = "table-separators"
    FORMAT = "envirobench.table-separators.v1"
    LABEL = "Table separators"
    SCORING_VERSION = "envirobench.table-separators.scores.v2"
    TIER = "component"
    PROFILES = ("logical", "strict")
    HEADLINE = ("separator_f1", "tables_exact")
    VIEWER = "image-overlay"
    SOURCE_FIELDS = ("image",)

    def score_case(
        self, case: Case, answer: Answer, prediction: Prediction
    ) -> dict[str, CaseScore]:
        matches = [
            match_axis("row", answer.rows, answer.row_bands, prediction.rows),
            match_axis("column", answer.columns, answer.column_bands, prediction.columns),
        ]
        logical_errors = [error for m in matches for _, error in m.errors]
        tp = sum(len(m.offsets) for m in matches)
        fp = sum(m.unmatched for m in matches)
        fn = sum(m.missing for m in matches)

        strict_errors: list[ErrorKey] = []
        misplaced = 0
        for axis, m in zip(AXES, matches, strict=True):
            ranked = list(m.errors)
            for gap, offset in m.offsets.items():
                if abs(offset) > STRICT_TOLERANCE:
                    ranked.append(((2 * gap + 1, 2), ("misplaced-separator", axis, gap)))
                    misplaced += 1
            strict_errors += [error for _, error in sorted(ranked)]

        return {
            "logical": _case_score(logical_errors, tp, fp, fn),
            "strict": _case_score(strict_errors, tp - misplaced, fp + misplaced, fn + misplaced),
        }

    def summarize_totals(self, profile: str, totals: Mapping[str, float], cases: int) -> dict[str, float]:
        tp, fp, fn = totals["tp"], totals["fp"], totals["fn"]
        out = {"separator_f1": envirobench.f1(tp, fp, fn), "tables_exact": totals["exact"] / cases}
        if tp + fp:
            out["separator_precision"] = tp / (tp + fp)
        if tp + fn:
            out["separator_recall"] = tp / (tp + fn)
        return out


def _case_score(errors: list[ErrorKey], tp: int, fp: int, fn: int) -> CaseScore:
    metrics = {"tp": float(tp), "fp": float(fp), "fn": float(fn), "exact": 0.0 if errors else 1.0}
    return CaseScore(errors=tuple(errors), metrics=metrics)
