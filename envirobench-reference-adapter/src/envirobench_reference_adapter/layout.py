"""Words with positions, and the geometry that turns them into lines, phrases and table columns.

Every Extract solver reads text as `Word`s: from a PDF's text layer (`pdftext`) or from OCR
(`ocr`). Both put a word's box in the same kind of coordinates (pixels of an image, or PDF
points from the page's top-left corner, y growing downwards), so everything here works for both.

- `group_lines`: words whose vertical extents overlap enough form one line (reading order).
- `split_phrases`: within a line, runs of words separated by less than a given blank (wider
  than a word space) are one phrase; a table row is a line whose phrases are its cells.
- `column_gaps`: the x-extents of a table's columns: the ranges some word of some line covers,
  split wherever a blank at least a given width runs down every line; `assign_column` puts a
  word or phrase into the column it overlaps most.
- `em_size`: the scale every gap is judged against (font size, or OCR box height).

Weaknesses, shared by every solver built on them: a skewed scan (lines tilted by more than about
half a line height across the table) merges or splits lines; a gutter narrower than the column
blank is read as a word space, and a word space wider than it (justified text) as a gutter; a
right-aligned column next to a left-aligned one with a narrow gutter merges with it.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

# A word belongs to a line when its vertical overlap with the line is at least this share of
# the smaller of the two heights (so a superscript or a taller OCR box still joins its line).
LINE_OVERLAP = 0.5


@dataclass(frozen=True)
class Word:
    """A word and its box: x0 < x1 left to right, top < bottom downwards."""

    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    confidence: float = 1.0  # OCR's confidence; 1.0 for a PDF text layer
    bold: bool = False  # the text layer says the font is bold; OCR never knows
    size: float = 0.0  # the font size in points (text layer); 0.0 when unknown

    @property
    def height(self) -> float:
        return self.bottom - self.top

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def cx(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def cy(self) -> float:
        return (self.top + self.bottom) / 2

    def moved(self, dx: float, dy: float, scale: float = 1.0) -> Word:
        """This word with its box (and its em) scaled by `scale` and then shifted by (dx, dy)."""
        return Word(
            self.text,
            self.x0 * scale + dx,
            self.top * scale + dy,
            self.x1 * scale + dx,
            self.bottom * scale + dy,
            self.confidence,
            self.bold,
            self.size * scale,
        )


class WordRun:
    """Text and extent of a run of words (`self.words`), shared by phrases and lines."""

    words: list[Word]

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)

    @property
    def x0(self) -> float:
        return min(w.x0 for w in self.words)

    @property
    def x1(self) -> float:
        return max(w.x1 for w in self.words)

    @property
    def top(self) -> float:
        return min(w.top for w in self.words)

    @property
    def bottom(self) -> float:
        return max(w.bottom for w in self.words)


@dataclass
class Phrase(WordRun):
    """Neighbouring words of one line with no column gap between them: a cell's text on a line."""

    words: list[Word]

    @property
    def bold(self) -> bool:
        return all(w.bold for w in self.words)


@dataclass
class Line(WordRun):
    """Words sharing a baseline, left to right."""

    words: list[Word] = field(default_factory=list)

    @property
    def height(self) -> float:
        return statistics.median(w.height for w in self.words)

    @property
    def bold(self) -> bool:
        return bool(self.words) and all(w.bold for w in self.words)


def overlap(a0: float, a1: float, b0: float, b1: float) -> float:
    """Length of the overlap of [a0, a1] and [b0, b1] (0 when they are apart)."""
    return max(0.0, min(a1, b1) - max(a0, b0))


def group_lines(words: Iterable[Word]) -> list[Line]:
    """Words grouped into lines, top to bottom, each line's words left to right.

    Words are taken top-down by their vertical centre; a word joins the last line that it
    overlaps vertically by LINE_OVERLAP of the smaller height, else it starts a line. Looking
    back over a few recent lines (not only the last) keeps a line together when one of its words
    sits a little higher, as subscripts and OCR boxes do.
    """
    lines: list[Line] = []
    for word in sorted(words, key=lambda w: (w.cy, w.x0)):
        if not word.text.strip():
            continue
        home = None
        for line in reversed(lines[-4:]):
            top = statistics.median(w.top for w in line.words)
            bottom = statistics.median(w.bottom for w in line.words)
            shared = overlap(top, bottom, word.top, word.bottom)
            if shared >= LINE_OVERLAP * min(bottom - top, word.height):
                home = line
                break
        if home is None:
            lines.append(Line([word]))
        else:
            home.words.append(word)
    for line in lines:
        line.words.sort(key=lambda w: w.x0)
    lines.sort(key=lambda line: (line.top + line.bottom) / 2)
    return lines


def split_phrases(line: Line, min_gap: float) -> list[Phrase]:
    """The line's words as phrases: a blank wider than `min_gap` starts a new phrase."""
    phrases: list[Phrase] = []
    for word in line.words:
        if phrases and word.x0 - phrases[-1].x1 <= min_gap:
            phrases[-1].words.append(word)
        else:
            phrases.append(Phrase([word]))
    return phrases


def merge_intervals(intervals: Iterable[tuple[float, float]], slack: float = 0.0) -> list[tuple[float, float]]:
    """Overlapping (or closer than `slack`) intervals merged, left to right."""
    merged: list[tuple[float, float]] = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1] + slack:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def assign_column(x0: float, x1: float, columns: Sequence[tuple[float, float]]) -> int:
    """The index of the column an extent overlaps most; by nearest centre when it overlaps none."""
    best, best_overlap = 0, -1.0
    for index, (start, end) in enumerate(columns):
        shared = overlap(x0, x1, start, end)
        if shared > best_overlap:
            best, best_overlap = index, shared
    if best_overlap > 0:
        return best
    centre = (x0 + x1) / 2
    return min(range(len(columns)), key=lambda i: abs((columns[i][0] + columns[i][1]) / 2 - centre))


_SPACES = re.compile(r"\s+")


def normalize_space(text: str) -> str:
    """Runs of whitespace as one space, trimmed."""
    return _SPACES.sub(" ", text).strip()


def em_size(words: Iterable[Word]) -> float:
    """The median em of some words, in their coordinates: the font size where the text layer
    gives it, else the box height (OCR sets `size` from its box height)."""
    sizes = [w.size if w.size > 0 else w.height for w in words]
    sizes = [s for s in sizes if s > 0]
    return statistics.median(sizes) if sizes else 1.0


def column_gaps(lines: Sequence[Line], min_gap: float) -> list[tuple[float, float]]:
    """The column extents of a table's lines: x-ranges covered by some word of some line,
    split wherever no line has a word over a blank at least `min_gap` wide."""
    return merge_intervals(((w.x0, w.x1) for line in lines for w in line.words), slack=min_gap)
