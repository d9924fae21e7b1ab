"""Reference solver for `table-structure`: a table image's cell grid (rows, columns, spans, header).

Classical image analysis on the crop, with OCR only to tell the header from the body:

1. Clean-up as in `table_separators` v2: despeckle, this image's paper and ink levels, skew
   estimated and straightened, ruling lines found (long thin dark runs) and cleared from the
   text mask, and so are shorter rule segments (a rule that stops at a spanning cell): any
   horizontal line-like run longer than SEGMENT_PER_TEXT_HEIGHT text heights.
2. Text lines: the runs of the row profile of the text mask. Phrases: per line, runs of the
   column profile joined across gaps narrower than COLUMN_GAP_PER_TEXT_HEIGHT text heights.
   A line taller than TALL_LINE line heights is several lines that a title centred over two
   header rows joins; it is split where the columns with two or more runs of ink show the lines,
   and the straddling title goes to the line holding its middle (`split_tall_line`). A title
   that instead forms a line of its own between two header lines, in columns both leave empty,
   joins the line above (`absorb_straddling`).
3. Columns: from the lines with the most phrases (at least FULL_LINE_SHARE of the fullest
   line's count), so that a spanning header or a section title, whose text crosses the gutters,
   does not close them: the union of those phrases' extents, merged where they overlap; a
   separator sits on the vertical rule in a gutter when the table rules its columns, else in the
   gutter's middle.
4. Rows: `table_separators`' v2 row rule on those lines and columns (rules decide in a ruled
   table; otherwise a line filling few columns continues the row above, a multi-line cell),
   except that a line as far below the one above as rows are apart (ROW_GAP_SHARE of the typical
   gap between full rows) starts a row of its own: a section title, not a continuation.
5. Spans: in a row, two neighbouring positions are one cell when a phrase of that row crosses
   the separator between them; a body row whose only text is in the first column (or is one
   phrase running from it over the gutters) is a section title across the whole table; in the header, a column with text in only
   one header row (a title centred over the header rows) is one cell down the whole header.
6. Header rows: the table is read once by OCR; the header is the rows above the first row that
   holds a value (a number, `ND`, `<0.5`, a CAS number; a date does not count) or a section
   title.

Variants: `v1` (the default; `default` is its alias) as above. `baseline`: the plain grid of
`table_separators`' v2 separators, no spans, one header row: what a structure reader without
span logic would say.

`jitter=SEED` perturbs the image (brightness and noise) before analysis.

Weaknesses: a title centred over header rows whose other columns have a single line there
(nothing shows where the lines are) keeps them merged, and every cell below shifts; a header whose
every title wraps has a second line as full as a row, so it is split into two rows; a spanning
cell with text narrower than the gutter it should cross is not seen as spanning; row spans in
the body are never predicted; OCR that misreads the first body row's values moves the header
boundary.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from PIL import Image

from .. import ocr
from ..layout import group_lines
from ..quantities import find_cas, parse_result
from ..results_tables import DATE_LIKE
from ..serves import Jitter, Prediction, Serves, Sources
from . import table_separators as ts

SERVES = Serves("table-structure", variants=("baseline", "v1"))

FULL_LINE_SHARE = 0.6
SEGMENT_PER_TEXT_HEIGHT = 4.0  # a horizontal dark run this many text heights long is a rule
TALL_LINE = 1.6  # a text line taller than this many median line heights is several lines merged
ROW_GAP_SHARE = 0.75  # a gap at least this share of the typical gap between rows separates rows
COLUMN_GAP_PER_TEXT_HEIGHT = ts.COLUMN_GAP_PER_TEXT_HEIGHT


def solve(case_input: Any, sources: Sources, variant: str, jitter: Jitter = None) -> Prediction:
    gray = ts.load_grayscale(sources[case_input.image], case_input.width, case_input.height)
    if jitter is not None:
        gray = ocr.jitter_image(gray, jitter).astype(np.float32)
    if variant == "baseline":
        separators = ts.find_separators(gray, "v2")
        return grid(len(separators["rows"]) + 1, len(separators["columns"]) + 1, 1, [])
    return analyse(gray)


def grid(rows: int, columns: int, header_rows: int, cells: list[tuple[int, int, int, int]]) -> dict[str, Any]:
    """The prediction; positions no cell covers become 1 x 1 cells."""
    covered = {(r, c) for row, column, rs, cs in cells for r in range(row, row + rs) for c in range(column, column + cs)}
    cells = list(cells) + [(r, c, 1, 1) for r in range(rows) for c in range(columns) if (r, c) not in covered]
    cells.sort()
    return {
        "rows": rows,
        "columns": columns,
        "header_rows": min(header_rows, rows),
        "cells": [{"row": r, "column": c, "row_span": rs, "column_span": cs} for r, c, rs, cs in cells],
    }


@dataclass
class TextLine:
    top: int
    bottom: int
    phrases: list[tuple[int, int]]  # x-extents


def analyse(gray: np.ndarray) -> dict[str, Any]:
    smooth = ts.despeckle(gray)
    levels = ts.grey_levels(smooth)
    if levels is None:
        return grid(1, 1, 0, [])
    angle = ts.estimate_skew(smooth < levels.text_threshold)
    if abs(angle) >= ts.MIN_SKEW_TO_CORRECT:
        turned = Image.fromarray(np.clip(smooth, 0, 255).astype(np.uint8)).rotate(
            angle, resample=Image.Resampling.BILINEAR, fillcolor=int(levels.paper)
        )
        smooth = np.asarray(turned, dtype=np.float32)
    ink = smooth < levels.text_threshold
    background = ts.row_background(smooth, ink)
    horizontal = ts.rule_lines(ts.line_pixels(smooth, levels, axis=1), axis=1)
    vertical = ts.rule_lines(ts.line_pixels(smooth, levels, axis=0), axis=0)
    text = ink.copy()
    for start, end in horizontal:
        text[max(0, start - 1) : end + 1, :] = False
    for start, end in vertical:
        text[:, max(0, start - 1) : end + 1] = False
    spans = ts.content_spans(text.sum(axis=1), min_size=ts.MIN_TEXT_LINE_HEIGHT, min_ink=ts.MIN_LINE_INK)
    if not spans:
        return grid(1, 1, 0, [])
    text_height = float(np.median([b - t for t, b in spans]))
    # Rules that stop at a spanning cell are too short for `rule_lines`; clear them too, or
    # their pixels make a "line" of their own between two header lines.
    clear_rule_segments(text, ts.line_pixels(smooth, levels, axis=1), max(ts.MIN_RULE_LENGTH, SEGMENT_PER_TEXT_HEIGHT * text_height))
    spans = ts.content_spans(text.sum(axis=1), min_size=ts.MIN_TEXT_LINE_HEIGHT, min_ink=ts.MIN_LINE_INK)
    if not spans:
        return grid(1, 1, 0, [])
    min_gap = math.ceil(max(4.0, COLUMN_GAP_PER_TEXT_HEIGHT * text_height))
    def phrases_of(profile: np.ndarray) -> list[tuple[int, int]]:
        joined = ts.merge_narrow_gaps(ts.runs(profile > 0), min_gap)
        return [(s, e) for s, e in joined if profile[s:e].sum() >= ts.MIN_COLUMN_INK_PER_TEXT_HEIGHT * text_height]

    lines = []
    for top, bottom in spans:
        phrases = phrases_of(text[top:bottom].sum(axis=0))
        if phrases:
            lines.append(TextLine(top, bottom, phrases))
    if not lines:
        return grid(1, 1, 0, [])

    columns = column_separators(lines, [ts.middle(r) for r in vertical])
    refined: list[TextLine] = []
    for line in lines:
        if line.bottom - line.top > TALL_LINE * text_height:
            refined.extend(split_tall_line(text, line, columns, phrases_of))
        else:
            refined.append(line)
    lines = absorb_straddling(refined, columns, text_height)
    occupancy = spaced_rows_count_as_full(lines, ts.cells_per_line(text, [(ln.top, ln.bottom) for ln in lines], columns))
    rows = ts._v2_rows(
        [(ln.top, ln.bottom) for ln in lines], occupancy, [ts.middle(r) for r in horizontal], background, levels, text_height
    )
    rows = sorted(set(rows))
    row_of = [sum(1 for y in rows if y < (ln.top + ln.bottom) / 2) for ln in lines]
    n_rows, n_columns = len(rows) + 1, len(columns) + 1

    def column_of(x: float) -> int:
        return sum(1 for sep in columns if sep <= x)

    # Which columns hold text in each row, and which separators a phrase of the row crosses.
    inked: dict[int, set[int]] = {r: set() for r in range(n_rows)}
    crossing: dict[int, set[int]] = {r: set() for r in range(n_rows)}
    for line, r in zip(lines, row_of, strict=True):
        for start, end in line.phrases:
            first, last = column_of(start), column_of(end - 1)
            inked[r].update(range(first, last + 1))
            crossing[r].update(range(first, last))  # separator k lies between columns k and k+1
    header_rows = count_header_rows(smooth, rows, n_rows, inked, crossing, n_columns)

    cells: list[tuple[int, int, int, int]] = []
    for r in range(n_rows):
        if r >= header_rows and is_section(inked[r], crossing[r], n_columns):
            cells.append((r, 0, 1, n_columns))  # a section title across the table
            continue
        c = 0
        while c < n_columns:
            span = 1
            while c + span - 1 in crossing[r] and c + span < n_columns:
                span += 1
            if span > 1:
                cells.append((r, c, 1, span))
            c += span
    taken = {(r, c) for r, c0, _, cs in cells for c in range(c0, c0 + cs)}
    if header_rows > 1:
        for c in range(n_columns):
            holding = [r for r in range(header_rows) if c in inked[r]]
            if len(holding) == 1 and not any((r, c) in taken for r in range(header_rows)):
                cells.append((0, c, header_rows, 1))
    return grid(n_rows, n_columns, header_rows, cells)


def clear_rule_segments(text: np.ndarray, line_mask: np.ndarray, min_length: float) -> None:
    """Clear (in place) horizontal runs of line pixels at least `min_length` long, with a pixel
    of fringe above and below: rule segments, which no glyph stroke is as long as."""
    for y in range(line_mask.shape[0]):
        for start, end in ts.runs(line_mask[y]):
            if end - start >= min_length:
                text[max(0, y - 1) : y + 2, start:end] = False


def columns_of(line: TextLine, columns: list[int]) -> set[int]:
    inked: set[int] = set()
    for start, end in line.phrases:
        first = sum(1 for sep in columns if sep <= start)
        last = sum(1 for sep in columns if sep <= end - 1)
        inked.update(range(first, last + 1))
    return inked


def absorb_straddling(lines: list[TextLine], columns: list[int], text_height: float) -> list[TextLine]:
    """Titles centred over two header rows that form a line of their own between the two rows'
    lines: their columns are empty in both neighbours, and they sit closer to them than rows
    are apart. They join the line above, so each is one cell spanning the header rows."""
    kept: list[TextLine] = []
    for index, line in enumerate(lines):
        if 0 < index < len(lines) - 1 and kept:
            above, below = kept[-1], lines[index + 1]
            mine = columns_of(line, columns)
            if (
                not mine & columns_of(above, columns)
                and not mine & columns_of(below, columns)
                and line.top - above.bottom < text_height
                and below.top - line.bottom < text_height
            ):
                above.phrases = sorted(above.phrases + line.phrases)
                continue
        kept.append(line)
    return kept


def split_tall_line(text: np.ndarray, line: TextLine, columns: list[int], phrases_of) -> list[TextLine]:
    """A "line" taller than a line of text, split into the lines it is made of.

    A title centred over two header rows straddles the boundary between their lines, and the
    row profile then sees one tall line. Columns whose ink inside it has two or more runs show
    where the real lines are; a column with a single run (the straddling title) is given to the
    line holding its middle, so it is one cell spanning the header rows, not text in each.
    """
    edges = [0, *columns, text.shape[1]]
    patch = text[line.top : line.bottom]
    multi, single = [], []
    for left, right in zip(edges, edges[1:], strict=False):
        runs = [(s, e) for s, e in ts.runs(patch[:, left:right].sum(axis=1) > 0) if e - s >= ts.MIN_TEXT_LINE_HEIGHT]
        (multi if len(runs) >= 2 else single).append((left, right, runs))
    if not multi:
        return [line]
    union = np.zeros(patch.shape[0], dtype=bool)
    for left, right, _ in multi:
        union |= patch[:, left:right].any(axis=1)
    subs = [(s, e) for s, e in ts.runs(union) if e - s >= ts.MIN_TEXT_LINE_HEIGHT]
    if len(subs) < 2:
        return [line]
    split = []
    for index, (start, end) in enumerate(subs):
        profile = patch[start:end].sum(axis=0)
        for left, right, runs in single:
            profile[left:right] = 0
            if runs:
                centre = (runs[0][0] + runs[-1][1]) / 2
                mine = min(range(len(subs)), key=lambda k: 0 if subs[k][0] <= centre < subs[k][1] else abs((subs[k][0] + subs[k][1]) / 2 - centre))
                if mine == index:
                    profile[left:right] = patch[:, left:right].sum(axis=0)
        phrases = phrases_of(profile)
        if phrases:
            split.append(TextLine(line.top + start, line.top + end, phrases))
    return split or [line]


def spaced_rows_count_as_full(lines: list[TextLine], occupancy: list[int]) -> list[int]:
    """v2's row rule takes a line filling few columns for the continuation of the row above. A
    line set as far below the one above as rows are (not at a cell's line spacing) is a row of
    its own however few columns it fills (a section title): count it as full."""
    full = max(occupancy)
    gaps = [b.top - a.bottom for a, b in zip(lines, lines[1:], strict=False)]
    row_gaps = [g for g, below in zip(gaps, occupancy[1:], strict=False) if below > ts.CONTINUATION_SHARE * full]
    if not row_gaps:
        return occupancy
    typical = float(np.median(row_gaps))
    adjusted = list(occupancy)
    for index, gap in enumerate(gaps, start=1):
        if gap >= ROW_GAP_SHARE * typical:
            adjusted[index] = full
    return adjusted


def is_section(inked: set[int], crossing: set[int], n_columns: int) -> bool:
    """A section title: the row's only text starts in the first column, and it either stays
    there (a short title: every body row fills other columns too) or is one phrase running over
    the gutters from there."""
    if n_columns < 2 or not inked or min(inked) != 0:
        return False
    if inked == {0}:
        return True
    return inked == set(range(0, max(inked) + 1)) and crossing == set(range(0, max(inked)))


def column_separators(lines: list[TextLine], rules: list[int]) -> list[int]:
    fullest = max(len(line.phrases) for line in lines)
    chosen = [line for line in lines if len(line.phrases) >= max(1, FULL_LINE_SHARE * fullest)]
    extents = sorted(p for line in chosen for p in line.phrases)
    merged: list[tuple[int, int]] = []
    for start, end in extents:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    gaps = ts.gaps_between(merged)
    ruled = [ts._rule_in_gap(gap, rules) for gap in gaps]
    if ts.consistently_ruled(ruled):
        return [rule for rule in ruled if rule is not None]
    return [ts.middle(gap) if rule is None else rule for gap, rule in zip(gaps, ruled, strict=True)]


def count_header_rows(
    gray: np.ndarray, rows: list[int], n_rows: int, inked: dict[int, set[int]], crossing: dict[int, set[int]], n_columns: int
) -> int:
    """Rows above the first row holding a value (by OCR) or a section title; at least one."""
    words = ocr.recognize(gray.astype(np.uint8), upscale=1.5)
    values: set[int] = set()
    for line in group_lines(words):
        centre = (line.top + line.bottom) / 2
        r = sum(1 for y in rows if y < centre)
        if DATE_LIKE.search(line.text):
            continue
        for word in line.words:
            text = word.text.strip("()")
            if find_cas(text) or parse_result(text) is not None:
                values.add(r)
                break
    for r in range(n_rows):
        if r in values or (r > 0 and is_section(inked[r], crossing[r], n_columns)):
            return max(1, r)
    return 1
