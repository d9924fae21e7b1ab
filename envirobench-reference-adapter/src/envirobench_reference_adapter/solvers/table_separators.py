"""Reference solver for `table-separators`: where are the lines between a table's rows and columns?

The input is a grayscale crop of a laboratory results table; the prediction is the interior
separator positions in pixels: `rows` (y of each line between two table rows) and `columns`
(x of each line between two columns). The solver calls no model and reads nothing but the image:
it is classical document-image analysis with numpy.

Two variants, both real methods, so a run can be paired against a baseline:

`baseline` - whitespace projection profiles with fixed constants.
    Binarise at a fixed grey level, blank out any pixel row or column that is more than half ink
    (a ruling line), then put a separator in the middle of every blank run between two runs of
    ink: rows need at least BASELINE_MIN_ROW_GAP blank pixels, columns BASELINE_MIN_COLUMN_GAP.
    Weaknesses: it splits multi-line cells and wrapped headers into rows (it cannot tell line
    spacing from a row boundary), and a skewed rule is no longer "half ink" in any one pixel row,
    so on scans rules split gaps or fill them.

`v2` (the default; `default` is accepted as its alias) - the same profiles made robust, plus
    structure. It removes speckle with 3-tap medians that spare thin lines, binarises between this
    image's paper and ink levels (zebra shading stays background, faint scans keep their ink),
    estimates the skew from the sharpness of the row profile and straightens the image, and
    finds ruling lines as long runs of pixels darker than the paper on both sides (so zebra
    shading on a noisy scan is not taken for rules). Then, per axis:
    - a gap holding a rule gets its separator on the rule; a table that rules two or more of
      its boundaries rules them all, so its unruled gaps are inside cells;
    - columns: a blank run counts when it is wider than COLUMN_GAP_PER_TEXT_HEIGHT times the
      median height of a line of text (word spaces are narrower);
    - rows: a text line continues the row above (multi-line cell, wrapped header) when it puts
      ink in at most half as many columns as the fullest line; otherwise the gap is a row
      boundary, placed on the shading edge when the paper grey steps inside the gap (zebra,
      shaded header), else in the middle.
    Weaknesses: a wide word space in a header ("Conc. (mg/kg)") can exceed the relative column
    threshold where the baseline's fixed 10 px does not, and it is worse when the median line is
    short (capitals and digits only); a header whose every cell wraps has a second line as full
    as a row, so it is split like one; a missed rule in a ruled table loses that separator; a
    body row with most cells empty is taken for a continuation line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from PIL import Image

from ..serves import Jitter, Serves, Sources

SERVES = Serves("table-separators", variants=("baseline", "v2"), default="v2")

# -- jitter: how far a `jitter=SEED` run perturbs each image (grey levels) --------------------------
JITTER_MAX_SHIFT = 60.0
JITTER_NOISE_SIGMA = 12.0

# -- baseline constants: chosen once for ~10-14 px text, never adapted to the image -------------
BASELINE_INK_LEVEL = 128  # darker than this is ink
BASELINE_RULE_FRACTION = 0.5  # a row/column more than half ink is a ruling line, not content
BASELINE_MIN_ROW_GAP = 2  # blank pixel rows needed between two table rows
BASELINE_MIN_COLUMN_GAP = 10  # blank pixel columns needed between two table columns

# -- v2 constants ---------------------------------------------------------------------------------
MAX_SKEW_DEGREES = 1.5  # scans are skewed by at most ~1 degree; search a little beyond
SKEW_STEP_DEGREES = 0.05
MIN_SKEW_TO_CORRECT = 0.1  # below this, resampling would blur more than the skew displaces
RULE_SPAN_FRACTION = 0.5  # a ruling line runs across at least half of the table's extent
MIN_RULE_LENGTH = 30  # px: longer than any glyph stroke of the 8-20 px text these crops hold
RULE_BRIDGE = 2  # breaks of up to this many pixels (noise, thin scans) do not cut a line
MAX_RULE_THICKNESS = 6  # thicker dark bands are solid fills, not lines
MIN_TEXT_LINE_HEIGHT = 3  # thinner ink runs are speckle or the fringe of a blurred rule
MIN_LINE_INK = 10  # ink pixels a run of rows needs to be a line of text rather than speckle
MIN_COLUMN_INK_PER_TEXT_HEIGHT = 0.5  # likewise for a run of columns, relative to text height
MIN_CONTRAST = 40  # grey levels between paper and ink below which the image holds no ink
RULE_CONTRAST = 0.15  # a line pixel is darker than the paper beside it by this share of the contrast
RULE_SMOOTH = 5  # pixels averaged along a line before judging it
RULE_OFFSET = 4  # pixels to each side of a line where the paper is measured (rules up to ~6 px)
# A word space is about a quarter em, some 0.3 of a line's ink height; two cell paddings are more
# than an em. 0.6 sits between, set from typography and drawn tables, not fitted to a dataset.
COLUMN_GAP_PER_TEXT_HEIGHT = 0.6
ROW_GAP_PER_TEXT_HEIGHT = 0.15  # below this an unruled gap is a sliver, not a row boundary
CONTINUATION_SHARE = 0.5  # a line inking at most this share of the fullest line's cells continues a row
SHADE_STEP = 0.04  # a shading edge changes the paper grey by this share of the paper-ink contrast


def solve(
    case_input: Any, sources: Sources, variant: str, jitter: Jitter = None
) -> dict[str, list[int]]:
    """Predict one case: `case_input` is the type's Input record (image, width, height), `sources`
    maps its image to the checked absolute path.

    `jitter` (the `jitter=SEED` option) perturbs the image before solving: a brightness shift
    and pixel noise, as a rescan or a sampling model's run-to-run variation would. Two runs of
    the same variant with different seeds then disagree on borderline cases, which is what
    control runs exist to detect.
    """
    gray = load_grayscale(sources[case_input.image], case_input.width, case_input.height)
    if jitter is not None:
        shift = jitter.uniform(-JITTER_MAX_SHIFT, JITTER_MAX_SHIFT)
        noise = jitter.normal(0.0, JITTER_NOISE_SIGMA, size=gray.shape)
        gray = np.clip(gray + shift + noise, 0, 255).astype(np.float32)
    return find_separators(gray, variant)


def load_grayscale(path: Path, width: int, height: int) -> np.ndarray:
    """The image as float32 grey levels (0 black .. 255 white), checked against its declared size."""
    with Image.open(path) as image:
        image.load()
        if image.size != (width, height):
            # Positions are predicted in image pixels; a size mismatch would put them elsewhere.
            raise ValueError(f"image is {image.size[0]}x{image.size[1]} but the request says {width}x{height}")
        if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
            # Transparent pixels are paper: composite on white before dropping the alpha channel.
            rgba = image.convert("RGBA")
            white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
            image = Image.alpha_composite(white, rgba)
        return np.asarray(image.convert("L"), dtype=np.float32)


def find_separators(gray: np.ndarray, variant: str) -> dict[str, list[int]]:
    """Interior row and column separators of the table in `gray`, by the named variant."""
    if variant == "baseline":
        rows, columns = _baseline(gray)
    elif variant == "v2":
        rows, columns = _v2(gray)
    else:
        raise ValueError(f"unknown variant {variant!r}")
    return {"rows": sorted({int(y) for y in rows}), "columns": sorted({int(x) for x in columns})}


# -- shared primitives ---------------------------------------------------------------------------


def runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """Half-open [start, end) spans where a 1-D boolean array is True."""
    padded = np.concatenate(([False], mask.astype(bool), [False]))
    edges = np.flatnonzero(padded[1:] != padded[:-1])
    return [(int(s), int(e)) for s, e in zip(edges[::2], edges[1::2], strict=True)]


def gaps_between(content: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The blank spans between consecutive content spans (interior only, never the margins)."""
    return [(a_end, b_start) for (_, a_end), (b_start, _) in zip(content, content[1:], strict=False)]


def middle(span: tuple[int, int]) -> int:
    """The middle pixel of a half-open span."""
    start, end = span
    return (start + end - 1) // 2


def merge_narrow_gaps(content: list[tuple[int, int]], min_gap: int) -> list[tuple[int, int]]:
    """Join content spans separated by fewer than `min_gap` blank pixels."""
    merged: list[tuple[int, int]] = []
    for start, end in content:
        if merged and start - merged[-1][1] < min_gap:
            merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


# -- baseline ------------------------------------------------------------------------------------


def _baseline(gray: np.ndarray) -> tuple[list[int], list[int]]:
    ink = gray < BASELINE_INK_LEVEL
    height, width = ink.shape
    # Ruling lines are ink but not content: without this every rule would split its gap in two.
    ink[ink.sum(axis=1) > BASELINE_RULE_FRACTION * width, :] = False
    ink[:, ink.sum(axis=0) > BASELINE_RULE_FRACTION * height] = False

    row_content = merge_narrow_gaps(runs(ink.sum(axis=1) > 0), BASELINE_MIN_ROW_GAP)
    column_content = merge_narrow_gaps(runs(ink.sum(axis=0) > 0), BASELINE_MIN_COLUMN_GAP)
    rows = [middle(gap) for gap in gaps_between(row_content)]
    columns = [middle(gap) for gap in gaps_between(column_content)]
    return rows, columns


# -- v2 ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GreyLevels:
    """This image's paper and ink grey levels (scans have grey paper and dark-grey ink)."""

    paper: float
    ink: float

    @property
    def text_threshold(self) -> float:
        # Halfway: zebra shading and the faint fringe of blurred strokes stay background.
        return (self.paper + self.ink) / 2

    @property
    def line_contrast(self) -> float:
        # Ruling lines are thin, often lighter than text, and blur fades them further: a line
        # pixel need only be this much darker than the paper on both sides of it.
        return RULE_CONTRAST * (self.paper - self.ink)


def grey_levels(gray: np.ndarray) -> GreyLevels | None:
    """The paper level is a high percentile so light zebra shading counts as background; the ink
    level a low percentile so a few noise pixels do not set it. None when there is no ink."""
    paper = float(np.percentile(gray, 90))
    ink = float(np.percentile(gray, 0.5))
    return GreyLevels(paper, ink) if paper - ink >= MIN_CONTRAST else None


def _v2(gray: np.ndarray) -> tuple[list[int], list[int]]:
    smooth = despeckle(gray)
    levels = grey_levels(smooth)
    if levels is None:  # a blank page: no content, so no separators between content
        return [], []
    angle = estimate_skew(smooth < levels.text_threshold)
    if abs(angle) >= MIN_SKEW_TO_CORRECT:
        # Rotating about the centre keeps the middle of the table in place, so positions measured
        # on the straightened image hold where the gold lines cross the table's centre.
        straightened = Image.fromarray(np.clip(smooth, 0, 255).astype(np.uint8)).rotate(
            angle, resample=Image.Resampling.BILINEAR, fillcolor=int(levels.paper)
        )
        smooth = np.asarray(straightened, dtype=np.float32)

    ink = smooth < levels.text_threshold
    background = row_background(smooth, ink)
    horizontal_rules = rule_lines(line_pixels(smooth, levels, axis=1), axis=1)
    vertical_rules = rule_lines(line_pixels(smooth, levels, axis=0), axis=0)
    text = ink.copy()
    # Clear the rules (and a pixel of blurred fringe each side) so only text makes the profiles.
    for start, end in horizontal_rules:
        text[max(0, start - 1) : end + 1, :] = False
    for start, end in vertical_rules:
        text[:, max(0, start - 1) : end + 1] = False

    line_spans = content_spans(text.sum(axis=1), min_size=MIN_TEXT_LINE_HEIGHT, min_ink=MIN_LINE_INK)
    if not line_spans:
        return [], []
    text_height = float(np.median([end - start for start, end in line_spans]))

    columns = _v2_columns(text.sum(axis=0), [middle(r) for r in vertical_rules], text_height)

    occupancy = cells_per_line(text, line_spans, columns)
    rows = _v2_rows(line_spans, occupancy, [middle(r) for r in horizontal_rules], background, levels, text_height)
    return rows, columns


def _v2_columns(profile: np.ndarray, rules: list[int], text_height: float) -> list[int]:
    # Word spaces inside a cell are about a third of the text height; column gaps are wider.
    min_gap = max(4.0, COLUMN_GAP_PER_TEXT_HEIGHT * text_height)
    # Join the letters and words of each column first, and only then drop what is too faint to be
    # text: dropped on its own, the full stop of "Conc. (mg/kg)" would look like speckle and
    # leave a column-wide gap behind.
    columns = merge_narrow_gaps(runs(profile > 0), math.ceil(min_gap))
    min_ink = MIN_COLUMN_INK_PER_TEXT_HEIGHT * text_height
    columns = [(start, end) for start, end in columns if profile[start:end].sum() >= min_ink]
    gaps = gaps_between(columns)
    ruled = [_rule_in_gap(gap, rules) for gap in gaps]
    if consistently_ruled(ruled):
        # Vertical rules between the columns: an unruled gap is then a wide space inside a cell.
        return [rule for rule in ruled if rule is not None]
    return [middle(gap) if rule is None else rule for gap, rule in zip(gaps, ruled, strict=True)]


def consistently_ruled(ruled: list[int | None]) -> bool:
    """Does the table draw its boundaries on this axis with rules?

    A rule under the header alone (booktabs style) is one; a table that rules two or more of its
    interior boundaries rules them all, so an unruled gap there is inside a cell (the line
    spacing of a multi-line cell, or a wide space in a header).
    """
    return sum(rule is not None for rule in ruled) >= 2


def cells_per_line(text: np.ndarray, line_spans: list[tuple[int, int]], columns: list[int]) -> list[int]:
    """For each line of text, how many of the detected columns it puts ink in."""
    edges = [0, *columns, text.shape[1]]
    return [
        sum(bool(text[top:bottom, left:right].any()) for left, right in zip(edges, edges[1:], strict=False))
        for top, bottom in line_spans
    ]


def row_background(smooth: np.ndarray, ink: np.ndarray) -> np.ndarray:
    """The paper grey of each pixel row, ignoring ink: shading shows up as a step."""
    paper_only = np.where(ink, np.nan, smooth)
    blank = np.isnan(paper_only).all(axis=1)
    paper_only[blank] = smooth[blank]  # a row that is all ink (a rule): use what there is
    return np.nanmedian(paper_only, axis=1)


def _v2_rows(
    line_spans: list[tuple[int, int]],
    occupancy: list[int],
    rules: list[int],
    background: np.ndarray,
    levels: GreyLevels,
    text_height: float,
) -> list[int]:
    gaps = gaps_between(line_spans)
    if not gaps:  # a single line of text has no row boundary
        return []
    ruled = [_rule_in_gap(gap, rules) for gap in gaps]
    separators = [rule for rule in ruled if rule is not None]
    if consistently_ruled(ruled):
        # Rules between rows: the remaining unruled gaps are the spacing between the lines of one
        # (multi-line) cell or of a wrapped header.
        return separators

    # A line continues the row above it (a multi-line cell, a wrapped header) when it fills only
    # the columns that wrapped, where a new row fills most of them. The fullest line (usually the
    # header) shows how many columns a row fills; a median would be a continuation line's count
    # in a table where most cells have several lines.
    full_cells = max(occupancy)
    min_gap = max(2.0, ROW_GAP_PER_TEXT_HEIGHT * text_height)
    for index, (gap, rule) in enumerate(zip(gaps, ruled, strict=True)):
        if rule is not None:
            continue
        continues_row = occupancy[index + 1] <= CONTINUATION_SHARE * full_cells
        if continues_row or gap[1] - gap[0] < min_gap:
            continue
        edge = shading_edge(gap, background, levels)
        separators.append(middle(gap) if edge is None else edge)
    return separators


def shading_edge(gap: tuple[int, int], background: np.ndarray, levels: GreyLevels) -> int | None:
    """Where the paper grey steps inside a gap (zebra or a shaded header), if it does.

    A shaded table draws its row boundary there, so that, not the middle of the whitespace, is
    where the line between the rows is. Returns the first pixel row of the new shade.
    """
    start, end = gap
    if end - start < 2:
        return None
    span = background[start:end]
    if abs(float(span[-1]) - float(span[0])) < SHADE_STEP * (levels.paper - levels.ink):
        return None
    steps = np.abs(np.diff(span))
    return start + 1 + int(np.argmax(steps))


def _rule_in_gap(gap: tuple[int, int], rules: list[int]) -> int | None:
    """The ruling line inside a gap (the one nearest its middle), if any."""
    start, end = gap
    # The rule's fringe was cleared with the rule, so the gap may extend a pixel past it.
    inside = [r for r in rules if start - 1 <= r <= end]
    if not inside:
        return None
    centre = (start + end - 1) / 2
    return min(inside, key=lambda r: abs(r - centre))


def despeckle(gray: np.ndarray) -> np.ndarray:
    """Remove isolated speckle but keep 1-px strokes and ruling lines.

    A 3x3 median would erase a 1-px line (3 dark pixels of 9). Instead take, per pixel, the darker
    of a horizontal and a vertical 3-tap median: a horizontal line survives the first, a vertical
    line the second, and a lone dark pixel survives neither.
    """
    padded = np.pad(gray, 1, mode="edge")
    along_rows = np.median(sliding_window_view(padded[1:-1, :], 3, axis=1), axis=-1)
    along_columns = np.median(sliding_window_view(padded[:, 1:-1], 3, axis=0), axis=-1)
    return np.minimum(along_rows, along_columns).astype(np.float32)


def content_spans(profile: np.ndarray, *, min_size: int, min_ink: float) -> list[tuple[int, int]]:
    """Runs of a projection profile that hold content: any ink at all, but a run too small or
    too faint to be text is speckle that survived despeckling and is dropped, so it cannot split
    a gap in two. (Treating sparse bins as blank instead would cut thin glyph strokes.)"""
    return [
        (start, end)
        for start, end in runs(profile > 0)
        if end - start >= min_size and profile[start:end].sum() >= min_ink
    ]


def estimate_skew(ink: np.ndarray) -> float:
    """The rotation (degrees, Pillow's counter-clockwise sense) that straightens the table.

    Text lines and rules make the horizontal projection sharpest when they are level; try each
    candidate angle by shearing the ink coordinates and keep the one with the peakiest profile.
    """
    ys, xs = np.nonzero(ink)
    if len(ys) < 100:
        return 0.0
    centred_x = xs - ink.shape[1] / 2
    steps = int(round(MAX_SKEW_DEGREES / SKEW_STEP_DEGREES))
    # Try angles from level outwards and keep only strict improvements, so that on a tie the
    # smaller rotation wins and a level table is never resampled.
    candidates = sorted((i * SKEW_STEP_DEGREES for i in range(-steps, steps + 1)), key=abs)
    best_angle, best_score = 0.0, -1.0
    for angle in candidates:
        sheared = np.round(ys - centred_x * math.tan(math.radians(angle))).astype(np.int64)
        counts = np.bincount(sheared - sheared.min())
        score = float(np.dot(counts, counts))
        if score > best_score:
            best_angle, best_score = angle, score
    # The shear that levels a line sloping down to the right is undone by an anticlockwise turn
    # of the same angle, which is Pillow's positive sense.
    return best_angle


def line_pixels(smooth: np.ndarray, levels: GreyLevels, axis: int) -> np.ndarray:
    """Pixels that may belong to a horizontal (axis=1) or vertical (axis=0) ruling line.

    A plain threshold cannot separate a faint, blurred rule from zebra shading on a noisy scan:
    both are a few tens of grey levels below the paper. What tells them apart is shape: a line
    pixel is darker than the pixels RULE_OFFSET away on *both* sides across the line, while a
    shaded band is as dark as its neighbours inside it and lighter only on one side at its edge.
    Averaging along the line first (RULE_SMOOTH pixels) beats down the noise without fading it.
    """
    image = smooth if axis == 1 else smooth.T
    padded = np.pad(image, ((0, 0), (RULE_SMOOTH // 2, RULE_SMOOTH // 2)), mode="edge")
    along = sliding_window_view(padded, RULE_SMOOTH, axis=1).mean(axis=-1)
    across = np.pad(along, ((RULE_OFFSET, RULE_OFFSET), (0, 0)), mode="edge")
    before, after = across[: -2 * RULE_OFFSET], across[2 * RULE_OFFSET :]
    mask = along < np.minimum(before, after) - levels.line_contrast
    return mask if axis == 1 else mask.T


def rule_lines(mask: np.ndarray, axis: int) -> list[tuple[int, int]]:
    """Ruling lines as [start, end) spans of rows (axis=1) or columns (axis=0).

    A ruling line is a long continuous dark run: text has many short runs, a rule one long one.
    The required length is relative to the extent of the table's ink, not the crop, with a
    floor so the stems of a one-line table's letters are not taken for vertical rules.
    """
    lines = mask if axis == 1 else mask.T
    occupied = np.flatnonzero(lines.any(axis=0))
    if len(occupied) == 0:
        return []
    extent = occupied[-1] - occupied[0] + 1
    min_length = max(MIN_RULE_LENGTH, RULE_SPAN_FRACTION * extent)
    is_rule = np.array([longest_run(line, RULE_BRIDGE) >= min_length for line in lines])
    return [span for span in runs(is_rule) if span[1] - span[0] <= MAX_RULE_THICKNESS]


def longest_run(line: np.ndarray, bridge: int) -> int:
    """Length of the longest run of True, treating breaks of up to `bridge` pixels as unbroken."""
    on = np.flatnonzero(line)
    if len(on) == 0:
        return 0
    breaks = np.flatnonzero(np.diff(on) > bridge + 1)
    starts = np.concatenate(([on[0]], on[breaks + 1]))
    ends = np.concatenate((on[breaks], [on[-1]]))
    return int((ends - starts + 1).max())
