"""Reading a copy's execution: recording data, draft signs and signature lines (ink, "/s/", blank).

Shared by the solvers that must tell an executed document from an unexecuted one
(`solvers/instrument_execution.py`, `solvers/indemnity_terms.py`); what each concludes from the
signs is its own. On the page's words (`pdftext`, a text layer or OCR) and its image:

- `recording_data(lines)`: a clock time with a date and either a long number (five digits or
  more) or a book-and-page pair within RECORDING_REACH points: a recorder's stamp. Citations of
  earlier instruments carry no clock time and are not taken for it.
- `DRAFT_MARKER`, `fill_in_blank(line)`: a draft marker in capitals (DRAFT, FOR DISCUSSION, NOT
  FOR EXECUTION, PRELIMINARY); drafting placeholders in brackets (`[●]`, `[____]`, `[NAME ...]`,
  `[INSERT ...]`, `[DATE ...]`) or fill-in blanks (underscores on a line that also holds words).
- `signature_lines(path, pages)`: every signature line (a drawn rule or typed underscores, at
  least SIGNATURE_MIN_INCHES long, not the edge of a box), rendered at INK_DPI: signed when the
  band above it holds pen strokes no word box explains, conformed when "/s/" (or a name OCR read
  without it) is typed on it, blank otherwise.

Weaknesses: see `solvers/instrument_execution.py`, whose rules these are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import pdftext
from .layout import Line, normalize_space

INK_DPI = 150  # a recorder's scan at its own resolution: its broken strokes are not resampled
DARK = 180  # grey levels below this are ink (a hairline rule renders grey)
SIGNATURE_MIN_INCHES = 1.8  # a signature line is at least this long
SIGNATURE_MAX_INCHES = 5.0  # longer rules divide the page (the recorder's space), no one signs them
BAND_INCHES = 0.42  # how far above its line a signature is looked for
MIN_SIGNATURE_INK = 135  # unexplained dark pixels (at INK_DPI) that make a line signed
SKEW_ROWS = 3  # rows between the chained pieces of one skewed line
THIN_ROWS = 3  # a rule is thinner than this; the x-height of text is taller
SOLID = 0.75  # share of a line piece's own row that is ink
THIN = 0.2  # at most this share of ink THIN_ROWS above a rule
THIN_BELOW = 0.1  # and below it
MIN_PIECE = 45  # pixels: the shortest piece of a line that is chained
CHAIN_GAP = 36  # pixels between pieces of one line (a low-resolution scan breaks typed underscores)
COVERAGE = 0.5  # a chained line is at least this share ink along its length
GAP = 3  # closing reach: typed underscores on a scan break into dashes a few pixels apart
RECORDING_REACH = 80.0  # points: the time, date and number of one stamp lie this close together

CLOCK = re.compile(r"\b([01]?\d|2[0-3]):[0-5]\d(:[0-5]\d)?\s*([AaPp]\.?[Mm]\.?)?")
# Numeric dates need no word boundary before them: OCR runs a stamp's number into its date.
DATE = re.compile(
    r"(\d{1,2}/\d{1,2}/\d{2,4}|\d{4}-\d{2}-\d{2}|(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+\d{1,2},?\s+\d{4}|"
    r"\d{1,2}\s+(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+\d{4}|"
    # The day and year of a written date whose month OCR garbled ("Nov bor 11, 2001").
    r"\d{1,2},\s*(19|20)\d{2}\b)",
    re.I,
)
LONG_NUMBER = re.compile(r"(?<![\d$,.])(\d{4}-?[A-Z]?\d{4,}|\d{5,})(?![\d,.])")
BOOK_PAGE = re.compile(r"\b(book|bk|volume|vol|liber|o\.?\s?r\.?)\.?\s*\d+\s*,?\s*(page|pg|folio|p)\.?\s*\d+", re.I)
DRAFT_MARKER = re.compile(r"\bDRAFT\b|\bFOR DISCUSSION\b|\bNOT FOR EXECUTION\b|\bPRELIMINARY\b")
PLACEHOLDER = re.compile(r"\[\s*(\u25cf|\u2022|_+|\.{3,}|INSERT\b[^\]]*|NAME\b[^\]]*|DATE\b[^\]]*)\s*\]")
UNDERSCORES = re.compile(r"_{3,}")
CONFORMED = re.compile(r"(^|\s)/s/", re.I)
TYPED_NAME = re.compile(r"[A-Z][a-z]{2,}[.,]?")  # a capitalised word, as a typed name has
TYPED_CONFIDENCE = 0.8  # OCR this sure of a word: type, not a pen stroke read as letters
SITTING_INCHES = 0.09  # a word whose foot is this close above a line sits on it


@dataclass(frozen=True)
class SignatureLine:
    page: int  # 0-based
    state: str  # "signed", "conformed" or "blank"



def recording_data(page_lines: list[Line]) -> bool:
    """A clock time with a date and a long number or a book and page, close together."""
    for line in page_lines:
        if not CLOCK.search(line.text):
            continue
        near = " ".join(
            normalize_space(other.text) for other in page_lines if abs(other.top - line.top) <= RECORDING_REACH
        )
        without_dates = DATE.sub(" ", near)
        if DATE.search(near) and (LONG_NUMBER.search(without_dates) or BOOK_PAGE.search(near)):
            return True
    return False


def fill_in_blank(line: Line) -> bool:
    """Placeholders in brackets, or underscores on a line that also holds words."""
    text = normalize_space(line.text)
    if CONFORMED.search(text):
        return False  # a conformed signature typed on its line
    if PLACEHOLDER.search(text):
        return True
    if not UNDERSCORES.search(text):
        return False
    words = [w for w in text.split() if not set(w) <= set("_")]
    return any(re.search(r"[A-Za-z]{2,}", w) for w in words)


def signature_lines(path: Path, pages: list[pdftext.PageText]) -> list[SignatureLine]:
    """Every signature line of the document, with what is on it."""
    found = []
    for page in pages:
        image = np.asarray(pdftext.render_page(path, page.index, INK_DPI))
        dark = image < DARK
        scale = INK_DPI / 72.0
        words = [(w.x0 * scale, w.top * scale, w.x1 * scale, w.bottom * scale, w.text, w.confidence) for w in page.words]
        for row, x0, x1 in horizontal_lines(dark):
            found.append(SignatureLine(page.index, line_state(dark, row, x0, x1, words)))
    return found


def horizontal_lines(dark: np.ndarray) -> list[tuple[int, int, int]]:
    """(row, x0, x1) of each thin horizontal line of signature length that is no box's edge.

    Lines are chained from thin pieces: a scan's skew walks a line across rows, so pieces a
    row or two apart that meet end to end are one line. A piece is thin when the rows a few
    pixels above and below it are mostly paper (text is taller than a rule is thick)."""
    height, width = dark.shape
    low, high = SIGNATURE_MIN_INCHES * INK_DPI, SIGNATURE_MAX_INCHES * INK_DPI
    # Typed underscores leave hairline gaps between glyphs: a horizontal closing bridges them.
    bridged = close_rows(dark, GAP)
    pieces = []
    for row in range(THIN_ROWS, height - THIN_ROWS - 2):
        padded = np.concatenate(([False], bridged[row], [False]))
        edges = np.flatnonzero(padded[1:] != padded[:-1])
        for start, end in zip(edges[::2], edges[1::2], strict=True):
            if end - start < MIN_PIECE:
                continue
            # A rule is solid ink along its row (counted before closing); the densest row of
            # text still has gaps.
            solid = dark[row, start:end].mean()
            above = dark[row - THIN_ROWS, start:end].mean()
            # Below a rule is paper (a pen stroke crosses it here and there); below the top of
            # capitals stand their stems.
            below = max(dark[row + THIN_ROWS, start:end].mean(), dark[row + THIN_ROWS + 2, start:end].mean())
            if solid >= SOLID and above < THIN and below < THIN_BELOW:
                pieces.append((row, int(start), int(end)))
    groups: list[list[tuple[int, int, int]]] = []
    for piece in sorted(pieces, key=lambda p: (p[1], p[0])):
        for group in groups:
            row, start, end = group[-1]
            if abs(piece[0] - row) <= SKEW_ROWS and piece[1] <= max(p[2] for p in group) + CHAIN_GAP:
                group.append(piece)
                break
        else:
            groups.append([piece])
    lines = []
    for group in groups:
        x0, x1 = min(p[1] for p in group), max(p[2] for p in group)
        row = min(p[0] for p in group)
        covered = np.zeros(x1 - x0, dtype=bool)
        for _, start, end in group:
            covered[start - x0 : end - x0] = True
        if low <= x1 - x0 <= high and covered.mean() >= COVERAGE and not box_edge(dark, row, x0, x1):
            lines.append((row, x0, x1))
    return sorted(lines)


def close_rows(dark: np.ndarray, reach: int) -> np.ndarray:
    """Horizontal morphological closing: gaps up to 2 x reach pixels wide between ink are filled."""
    width = dark.shape[1]
    grown = dark.copy()
    for shift in range(1, reach + 1):
        grown[:, shift:] |= dark[:, :-shift]
        grown[:, :-shift] |= dark[:, shift:]
    closed = grown.copy()
    for shift in range(1, reach + 1):
        closed[:, shift:] &= grown[:, :-shift]
        closed[:, :-shift] &= grown[:, shift:]
    closed[:, :reach] = dark[:, :reach]
    closed[:, width - reach :] = dark[:, width - reach :]
    return closed


def box_edge(dark: np.ndarray, row: int, start: int, end: int) -> bool:
    """Does a vertical stroke rise or fall from near either end (a stamp's or a seal's border)?"""
    height = dark.shape[0]
    for x in (start, end - 1):
        # Rounded corners (a seal) start the vertical stroke a few pixels away from the line.
        x0, x1 = max(0, x - 18), min(dark.shape[1], x + 19)
        if row >= 45 and dark[row - 45 : row - 15, x0:x1].all(axis=0).any():
            return True
        if row + 45 < height and dark[row + 15 : row + 45, x0:x1].all(axis=0).any():
            return True
    return False


def line_state(dark: np.ndarray, row: int, x0: int, x1: int, words: list[tuple[float, float, float, float, str, float]]) -> str:
    band_top = max(0, row - int(BAND_INCHES * INK_DPI))
    band = dark[band_top : row - 2, x0:x1].copy()
    sitting = SITTING_INCHES * INK_DPI
    for wx0, wtop, wx1, wbottom, text, confidence in words:
        if wbottom < band_top or wtop > row + 2 or wx1 < x0 or wx0 > x1:
            continue
        if CONFORMED.search(" " + text) or text.lower().startswith("/s"):
            return "conformed"
        if abs(row - wbottom) <= sitting and confidence >= TYPED_CONFIDENCE and TYPED_NAME.fullmatch(text):
            # A name typed on the line itself (OCR often loses the "/s/" before it) conforms it.
            return "conformed"
        if set(text) <= set("_"):
            continue  # the line itself, typed as underscores
        # The word's box, a little padded, explains the ink inside it.
        bx0, bx1 = max(0, int(wx0) - 2 - x0), max(0, int(wx1) + 2 - x0)
        by0, by1 = max(0, int(wtop) - 2 - band_top), max(0, int(wbottom) + 2 - band_top)
        band[by0:by1, bx0:bx1] = False
    return "signed" if int(band.sum()) >= MIN_SIGNATURE_INK else "blank"
