"""The one generic mapper from an OCR tool's words to a `table-cells` prediction.

A `table-cells` case gives a table crop and the box of every cell; the prediction is each cell's
text. An OCR tool reads the whole crop and gives words (or text lines) with boxes; this mapper,
shared by every OCR adapter so that rows of the board differ only by the tool, puts each word in
the given cell that holds the word's centre (a word whose centre lies in no cell, a stray mark
or a word of the caption, is dropped; where boxes overlap, the smallest cell holding the centre
wins, since a spanning header's box covers the cells under it) and joins a cell's words in
reading order: lines top to bottom (a word starts a new line when its centre is below the
previous word's bottom), left to right within a line, with single spaces. A given cell no word
falls in is predicted blank, as a reader who sees nothing there would say.

Nothing here is tuned on answers: no spelling, vocabulary or character corrections, no
confidence threshold (a tool's confidence is its own; a word it returns is kept).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Word:
    """A word (or a text line) a tool read, its box in the crop's pixels."""

    text: str
    left: float
    top: float
    right: float
    bottom: float

    @property
    def centre(self) -> tuple[float, float]:
        return (self.left + self.right) / 2, (self.top + self.bottom) / 2


def holding_cell(word: Word, cells: Sequence[Any]) -> Any | None:
    """The smallest given cell whose box holds `word`'s centre, or None."""
    x, y = word.centre
    best = None
    best_area = None
    for cell in cells:
        x0, y0, x1, y1 = cell.box
        if x0 <= x <= x1 and y0 <= y <= y1:
            area = (x1 - x0) * (y1 - y0)
            if best_area is None or area < best_area:
                best, best_area = cell, area
    return best


def reading_order(words: Iterable[Word]) -> str:
    """Words joined top to bottom, then left to right within a line, by single spaces."""
    lines: list[list[Word]] = []
    for word in sorted(words, key=lambda w: (w.top, w.left)):
        if lines and word.centre[1] <= max(w.bottom for w in lines[-1]):
            lines[-1].append(word)
        else:
            lines.append([word])
    return " ".join(" ".join(w.text for w in sorted(line, key=lambda w: w.left)) for line in lines)


def cells_from_words(words: Iterable[Word], cells: Sequence[Any]) -> dict[str, Any]:
    """The `table-cells` prediction: every given cell (`row`, `column`, `box`), its words' text."""
    held: dict[int, list[Word]] = {id(cell): [] for cell in cells}
    for word in words:
        text = " ".join(word.text.split())
        if not text:
            continue
        cell = holding_cell(word, cells)
        if cell is not None:
            held[id(cell)].append(Word(text, word.left, word.top, word.right, word.bottom))
    return {
        "cells": [
            {"row": cell.row, "column": cell.column, "text": reading_order(held[id(cell)])}
            for cell in cells
        ]
    }
