"""Reference solver for `document-split`: the first page of every document of a scanned bundle.

Every page is rendered at its scan's resolution and read cheaply, without OCR of the whole page:

- *blank*: almost no ink away from the edges. A blank sheet separates documents, so the next
  page that is not blank starts one; the blank page itself never does.
- *page mark*: OCR of the top and bottom strips (TOP_STRIP, BOTTOM_STRIP of the page height),
  where page numbers are printed. "Page 1 of 3", "Sheet 1 of 2", "Page 1", "1 of 4" or a bare
  "1" in the bottom strip says a document starts here; any other number says it does not. A fax
  machine's counter across the top ("P.003/005") counts the transmission, not the document, and
  is dropped before reading.
- *heading and layout*: the text lines of the page's top third are measured from the rows of ink
  (no OCR): a line much taller than the page's body text is a letterhead or a title; the top band
  is reduced to a coarse grid of ink densities and compared with the previous page's.

The decision, page by page: after a blank sheet, a first page; else the page mark when there is
one; else a first page when the page has a large heading and its top band differs from the
previous page's (a new letterhead or title), a later page otherwise (the same header again, or
running text).

The bundle's page thumbnails (the input's `thumbnails`, for the report) are never read: the bundle
holds more than a 120-pixel image of each page.

Variants: `v1` (the default; `default` is its alias) as above; `marks-only` reads only blank
pages and page marks (no heading or layout cue).

Weaknesses: a document without page marks whose first page repeats the previous document's
letterhead (two letters of one office, two invoices of one vendor) is merged with it; a later page
that reprints the letterhead in full and carries no page mark is taken for a first page; an
excerpt that starts at its page 5 is missed when it is marked; OCR on a 100 dpi scan misreads
small page marks now and then.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np
import pypdfium2 as pdfium

from .. import ocr
from ..serves import Jitter, Prediction, Serves, Sources

SERVES = Serves("document-split", variants=("marks-only", "v1"))

RENDER_DPI = 100.0
TOP_STRIP = 0.10
BOTTOM_STRIP = 0.09
BLANK_INK = 0.0015  # share of dark pixels below which a page is blank
TEXT_ROW_PIXELS = (
    16  # a pixel row with fewer dark pixels holds no text (ruling lines' edges, specks)
)
BIG_LINE = 1.6  # a line this many times the median line height is a heading
HEADING_ZONE = 0.35  # of the page height, from the top
BAND = 0.18  # the top band compared between pages
GRID = (10, 24)
SAME_BAND = 0.80  # correlation of two top bands above which they are the same header
OPENING_ZONE = (
    0.33  # short lines between the top strip and this share of the height open a document
)
SHORT_LINE = 0.55  # a line ending before this share of the width is short
OPENING_LINES = 4
SAME_HEADER = 0.5  # share of the top strips' words in common above which two pages share a header

FAX_COUNTER = re.compile(r"\bP\W{0,2}\d{2,4}\s*/\s*\d{2,4}\b", re.I)
OF_MARK = re.compile(r"\b(\d{1,3})\s+[o0q][fl1t]\s+(\d{1,3})\b", re.I)
WORD_MARK = re.compile(r"\b(?:[pf][a-z]ge|she[a-z]t|pg)\W{0,2}(\d{1,3})\b", re.I)
WORD = re.compile(r"[a-z]{3,}")
BARE_MARK = re.compile(r"^\W*(\d{1,3})\W*$")


@dataclass
class PageCues:
    blank: bool
    mark: int | None  # the page's own number in its document, when printed
    heading: bool
    band: np.ndarray
    top: str = ""  # the top strip's text, fax counter dropped
    bottom: str = ""
    opening: bool = False

    @property
    def header_words(self) -> set[str]:
        return set(WORD.findall(self.top.lower()))


def page_mark(top: str, bottom: str) -> int | None:
    """The document page number printed in the top or bottom strip, or None."""
    for text in (FAX_COUNTER.sub(" ", top), bottom):
        found = OF_MARK.search(text)
        if found and 1 <= int(found.group(1)) <= int(found.group(2)):
            return int(found.group(1))
        found = WORD_MARK.search(text)
        if found:
            return int(found.group(1))
    found = BARE_MARK.match(bottom.strip())
    if found:
        return int(found.group(1))
    return None


def text_lines(ink: np.ndarray) -> list[tuple[int, int]]:
    """(top, height) of the runs of pixel rows that hold text."""
    rows = ink.sum(axis=1) >= TEXT_ROW_PIXELS
    lines, start = [], None
    for y, on in enumerate(rows):
        if on and start is None:
            start = y
        elif not on and start is not None:
            lines.append((start, y - start))
            start = None
    if start is not None:
        lines.append((start, len(rows) - start))
    return [(top, height) for top, height in lines if height >= 3]


def band_grid(ink: np.ndarray) -> np.ndarray:
    rows, cols = GRID
    h, w = ink.shape
    cropped = ink[: h - h % rows, : w - w % cols].astype(np.float32)
    return (
        cropped.reshape(rows, cropped.shape[0] // rows, cols, cropped.shape[1] // cols)
        .mean(axis=(1, 3))
        .ravel()
    )


def same_header(page: PageCues, previous: PageCues) -> bool:
    """The top strip says what the previous page's said (a running header, a reprinted letterhead)."""
    a, b = page.header_words, previous.header_words
    if a and b:
        return len(a & b) / len(a | b) >= SAME_HEADER
    return same_band(page.band, previous.band)


def same_band(a: np.ndarray, b: np.ndarray) -> bool:
    if a.std() == 0 or b.std() == 0:
        return False
    return float(np.corrcoef(a, b)[0, 1]) >= SAME_BAND


def read_cues(pixels: np.ndarray, jitter: np.random.Generator | None, *, layout: bool) -> PageCues:
    h, w = pixels.shape
    ink = pixels < 128
    margin_y, margin_x = int(h * 0.03), int(w * 0.03)
    if ink[margin_y:-margin_y, margin_x:-margin_x].mean() < BLANK_INK:
        return PageCues(True, None, False, np.zeros(GRID[0] * GRID[1]))
    image = ocr.jitter_image(pixels, jitter) if jitter is not None else pixels
    top = " ".join(word.text for word in ocr.recognize(image[: int(h * TOP_STRIP)]))
    bottom = " ".join(word.text for word in ocr.recognize(image[int(h * (1 - BOTTOM_STRIP)) :]))
    mark = page_mark(top, bottom)
    heading, opening = layout_cues(ink) if layout else (False, False)
    band = band_grid(ink[int(h * TOP_STRIP * 0.6) : int(h * BAND)])
    return PageCues(False, mark, heading, band, FAX_COUNTER.sub(" ", top), bottom, opening)


def layout_cues(ink: np.ndarray) -> tuple[bool, bool]:
    """(heading, opening): a line in the top third much taller than the body text (a letterhead or
    title), and a run of short left-aligned lines below the top strip (a letter's date, address,
    reference and salutation; a form's labels) rather than running paragraphs."""
    h, w = ink.shape
    margin_y, margin_x = int(h * 0.03), int(w * 0.03)
    body = ink[margin_y:, margin_x:-margin_x]
    lines = text_lines(body)
    if not lines:
        return False, False
    median = float(np.median([height for _, height in lines]))
    heading = any(top < h * HEADING_ZONE and height >= BIG_LINE * median for top, height in lines)
    short = 0
    for top, height in lines:
        if not h * TOP_STRIP <= top + margin_y <= h * OPENING_ZONE:
            continue
        columns = np.flatnonzero(body[top : top + height].sum(axis=0))
        if len(columns) and columns[-1] < body.shape[1] * SHORT_LINE:
            short += 1
    return heading, short >= OPENING_LINES


def decide(cues: list[PageCues], *, layout: bool) -> list[int]:
    """The 1-based first pages from the pages' cues."""
    first = [1]
    previous: PageCues | None = None
    after_blank = False
    for index, page in enumerate(cues):
        if page.blank:
            after_blank = previous is not None
            continue
        if index > 0:
            if after_blank:
                starts = True
            elif page.mark is not None:
                starts = page.mark == 1
            elif layout and previous is not None:
                starts = page.opening or (page.heading and not same_header(page, previous))
            else:
                starts = False
            if starts:
                first.append(index + 1)
        previous, after_blank = page, False
    return first


def solve(case_input: Any, sources: Sources, variant: str, jitter: Jitter = None) -> Prediction:
    layout = variant == "v1"
    cues = []
    document = pdfium.PdfDocument(str(sources[case_input.bundle]))
    try:
        for index in range(len(document)):
            image = (
                document[index]
                .render(scale=RENDER_DPI / 72.0, grayscale=True)
                .to_pil()
                .convert("L")
            )
            cues.append(read_cues(np.asarray(image), jitter, layout=layout))
    finally:
        document.close()
    return {"first_pages": decide(cues, layout=layout)}
