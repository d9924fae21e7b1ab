"""Page drafts: what is drawn where on each page, as display lists in points.

Coordinates are those of the page as read, upright: origin at the top-left corner, y growing
downwards, in PDF points (1/72 inch). A page drawn sideways (`PageDraft.rotated`) is drafted as
an upright landscape page; `pdf.py` turns it onto a portrait sheet when it emits the PDF.

Tables are laid out here, so their geometry is known exactly: every results table records, per
part (a table broken across pages has several), its bounding box and which measurements its rows
hold. Text is measured with the bundled Vera fonts registered with reportlab (never system fonts).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from ..fonts import font_path
from .model import TableLook

REGULAR = "EnviroBench-Vera"
BOLD = "EnviroBench-VeraBd"

PORTRAIT = (612.0, 792.0)  # US Letter
LANDSCAPE = (792.0, 612.0)
MARGIN = 50.0
CONTENT_TOP = 80.0
FOOTER_SPACE = 58.0
MIN_SPLIT_ROWS = 2  # a table part holds at least this many rows

Align = Literal["left", "right", "center"]

# The faces text is measured and drawn in. Vera (embedded) unless `typeface` says otherwise: the
# v2 report families draw in the PDF standard faces, which a PDF names but never embeds, so a
# text page costs a kilobyte or two instead of the 35 kB of two embedded fonts.
_FACES = {"regular": REGULAR, "bold": BOLD}


@contextmanager
def typeface(regular: str, bold: str) -> Iterator[None]:
    """Measure and draw text in (regular, bold) within the block, e.g. ("Helvetica", "Helvetica-Bold")."""
    saved = dict(_FACES)
    _FACES.update(regular=regular, bold=bold)
    try:
        yield
    finally:
        _FACES.update(saved)


def font_name(bold: bool) -> str:
    return _FACES["bold" if bold else "regular"]


@cache
def register_fonts() -> tuple[str, str]:
    """Register Vera and Vera Bold (from reportlab's own fonts directory) once per process."""
    pdfmetrics.registerFont(TTFont(REGULAR, str(font_path("regular"))))
    pdfmetrics.registerFont(TTFont(BOLD, str(font_path("bold"))))
    return REGULAR, BOLD


def text_width(text: str, size: float, bold: bool = False) -> float:
    register_fonts()
    return pdfmetrics.stringWidth(text, font_name(bold), size)


def wrap(text: str, size: float, width: float, bold: bool = False) -> list[str]:
    register_fonts()
    return simpleSplit(text, font_name(bold), size, width)


# -- display list -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Text:
    x: float
    y: float  # the baseline
    text: str
    size: float
    bold: bool = False
    align: Align = "left"
    grey: int = 0  # 0 black .. 255 white
    angle: float = 0.0  # degrees, anticlockwise as read, about (x, y)


@dataclass(frozen=True)
class Line:
    x0: float
    y0: float
    x1: float
    y1: float
    width: float = 0.6
    grey: int = 40


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float
    fill: int  # grey level


Item = Text | Line | Box
BBox = tuple[float, float, float, float]  # (left, top, right, bottom)


@dataclass
class Part:
    """One part of a results table on one page."""

    table: int
    part: int
    bbox: BBox
    records: tuple[int, ...]  # indices of the measurements its rows hold
    header: bool  # the part shows the column headers
    caption: bool  # the part shows the sample block above the table


@dataclass
class PageDraft:
    width: float
    height: float
    kind: str  # "cover", "narrative", "results", "qc"
    rotated: bool = False  # printed sideways on a portrait sheet
    scanned: bool = False  # emitted as an image-only scan
    items: list[Item] = field(default_factory=list)
    parts: list[Part] = field(default_factory=list)
    cursor: float = CONTENT_TOP  # where the next block goes

    @property
    def bottom(self) -> float:
        return self.height - FOOTER_SPACE


def draft_watermark(page: PageDraft) -> Text:
    """The large grey DRAFT drawn diagonally across the middle of a draft report's page, as both
    kinds of lab report (compose.py's and skeletons.py's) print it."""
    return Text(
        page.width / 2,
        page.height / 2 + 40,
        "DRAFT",
        110,
        bold=True,
        align="center",
        grey=228,
        angle=40,
    )


# -- tables -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    title: str  # "\n" separates the lines of a wrapped title
    align: Align = "left"


@dataclass(frozen=True)
class Cell:
    text: str
    marker: str = ""  # a footnote marker set as a superscript after the text


@dataclass
class TableSpec:
    columns: list[Column]
    rows: list[list[Cell]]
    caption: list[tuple[str, str]] = field(default_factory=list)  # (label, value), two a line
    title: str = ""
    footnotes: list[str] = field(default_factory=list)
    row_records: list[tuple[int, ...]] | None = None  # None: not a results table
    shaded: frozenset[tuple[int, int]] = frozenset()  # (row, column) cells printed on grey


@dataclass(frozen=True)
class TableMetrics:
    size: float
    pad: float
    widths: tuple[float, ...]
    row_h: float
    line_h: float
    header_lines: int
    header_h: float
    caption_col: float  # x offset of the second caption pair of a line
    caption_line_h: float
    footnote_line_h: float

    @property
    def width(self) -> float:
        return sum(self.widths)

    def caption_h(self, pairs: int, title: bool) -> float:
        lines = math.ceil(pairs / 2)
        return (
            (self.caption_line_h if title else 0.0)
            + lines * self.caption_line_h
            + (self.size * 0.5 if lines or title else 0.0)
        )

    def footnotes_h(self, count: int) -> float:
        return self.size * 0.5 + count * self.footnote_line_h if count else 0.0


def _marker_width(cell: Cell, size: float) -> float:
    return text_width(cell.marker, size * 0.68) + 1.0 if cell.marker else 0.0


def measure(spec: TableSpec, size: float) -> TableMetrics:
    pad = size * 0.6
    widths = []
    for c, column in enumerate(spec.columns):
        title = max(text_width(line, size, bold=True) for line in column.title.split("\n"))
        body = max(
            (text_width(row[c].text, size) + _marker_width(row[c], size) for row in spec.rows),
            default=0.0,
        )
        widths.append(round(max(title, body) + 2 * pad, 2))
    header_lines = max(column.title.count("\n") + 1 for column in spec.columns)
    line_h = size * 1.2
    first_pairs = [
        text_width(f"{label}:", size, bold=True) + 4 + text_width(value, size)
        for label, value in spec.caption[0::2]
    ]
    return TableMetrics(
        size=size,
        pad=pad,
        widths=tuple(widths),
        row_h=round(size * 1.6, 2),
        line_h=line_h,
        header_lines=header_lines,
        header_h=round(header_lines * line_h + size * 0.75, 2),
        caption_col=max([sum(widths) / 2] + [w + 24 for w in first_pairs]),
        caption_line_h=round(size * 1.55, 2),
        footnote_line_h=round(size * 1.3, 2),
    )


def fit(spec: TableSpec, size: float, max_width: float) -> TableMetrics:
    """The metrics at `size`, or at the largest smaller size (down to 6 pt) that fits the width."""
    metrics = measure(spec, size)
    while metrics.width > max_width and size > 6.0:
        size -= 0.5
        metrics = measure(spec, size)
    if metrics.width > max_width:
        raise ValueError(f"a table {metrics.width:.0f} pt wide does not fit in {max_width:.0f} pt")
    return metrics


def caption_width(
    spec: TableSpec, metrics: TableMetrics, pairs: Sequence[tuple[str, str]]
) -> float:
    size = metrics.size
    widest = 0.0
    for i, (label, value) in enumerate(pairs):
        offset = metrics.caption_col if i % 2 else 0.0
        widest = max(
            widest, offset + text_width(f"{label}:", size, bold=True) + 4 + text_width(value, size)
        )
    return widest


def draw_part(
    spec: TableSpec,
    metrics: TableMetrics,
    look: TableLook,
    x: float,
    y: float,
    rows: Sequence[int],
    *,
    title: str,
    caption: Sequence[tuple[str, str]],
    header: bool,
    footnotes: bool,
) -> tuple[list[Item], BBox]:
    """Draw one part of a table with its top-left at (x, y); returns the items and the bbox."""
    size = metrics.size
    items: list[Item] = []
    right = x + metrics.width
    extent = right
    cursor = y
    if title:
        items.append(Text(x, cursor + size * 1.15, title, size + 0.5, bold=True))
        extent = max(extent, x + text_width(title, size + 0.5, bold=True))
        cursor += metrics.caption_line_h
    for i, (label, value) in enumerate(caption):
        if i % 2 == 0 and i:
            cursor += metrics.caption_line_h
        left = x + (metrics.caption_col if i % 2 else 0.0)
        baseline = cursor + size * 1.15
        items.append(Text(left, baseline, f"{label}:", size, bold=True))
        items.append(
            Text(left + text_width(f"{label}:", size, bold=True) + 4, baseline, value, size)
        )
    if caption:
        cursor += metrics.caption_line_h + size * 0.5
        extent = max(extent, x + caption_width(spec, metrics, caption))
    elif title:
        cursor += size * 0.5

    edges = [x]
    for w in metrics.widths:
        edges.append(edges[-1] + w)
    table_top = cursor
    boundaries = [cursor]  # y of every horizontal boundary: top, under the header, between rows
    if header:
        if look == "zebra":
            items.append(Box(x, cursor, metrics.width, metrics.header_h, 214))
        for c, column in enumerate(spec.columns):
            for k, line in enumerate(column.title.split("\n")):
                baseline = cursor + size * 0.35 + size + k * metrics.line_h
                items.append(
                    _aligned(
                        line,
                        column.align,
                        edges[c],
                        edges[c + 1],
                        metrics.pad,
                        baseline,
                        size,
                        bold=True,
                    )
                )
        cursor += metrics.header_h
        boundaries.append(cursor)
    for r in rows:
        if look == "zebra" and r % 2 == 1:
            items.append(Box(x, cursor, metrics.width, metrics.row_h, 236))
        baseline = cursor + metrics.row_h * 0.5 + size * 0.35
        for c, column in enumerate(spec.columns):
            cell = spec.rows[r][c]
            if (r, c) in spec.shaded:  # an exceedance, shaded as summary tables do
                items.append(Box(edges[c], cursor, edges[c + 1] - edges[c], metrics.row_h, 205))
            if not cell.text and not cell.marker:
                continue
            marker_w = _marker_width(cell, size)
            items.append(
                _aligned(
                    cell.text,
                    column.align,
                    edges[c],
                    edges[c + 1] - marker_w,
                    metrics.pad,
                    baseline,
                    size,
                )
            )
            if cell.marker:
                end = _text_end(
                    cell.text, column.align, edges[c], edges[c + 1] - marker_w, metrics.pad, size
                )
                items.append(Text(end + 1.0, baseline - size * 0.38, cell.marker, size * 0.68))
        cursor += metrics.row_h
        boundaries.append(cursor)
    items.extend(_rules(look, x, right, edges, boundaries, header, table_top, cursor))

    if footnotes and spec.footnotes:
        cursor += size * 0.5
        small = size * 0.9
        for note in spec.footnotes:
            items.append(Text(x, cursor + small * 1.05, note, small))
            extent = max(extent, x + text_width(note, small))
            cursor += metrics.footnote_line_h
    return items, (x, y, extent, cursor)


def _aligned(
    text: str,
    align: Align,
    left: float,
    right: float,
    pad: float,
    baseline: float,
    size: float,
    bold: bool = False,
) -> Text:
    if align == "right":
        return Text(right - pad, baseline, text, size, bold=bold, align="right")
    if align == "center":
        return Text((left + right) / 2, baseline, text, size, bold=bold, align="center")
    return Text(left + pad, baseline, text, size, bold=bold)


def _text_end(text: str, align: Align, left: float, right: float, pad: float, size: float) -> float:
    if align == "right":
        return right - pad
    width = text_width(text, size)
    if align == "center":
        return (left + right) / 2 + width / 2
    return left + pad + width


def _rules(
    look: TableLook,
    left: float,
    right: float,
    edges: list[float],
    boundaries: list[float],
    header: bool,
    top: float,
    bottom: float,
) -> list[Item]:
    lines: list[Item] = []
    under_header = boundaries[1] if header and len(boundaries) > 1 else None
    if look == "grid":
        for y in boundaries:
            lines.append(Line(left, y, right, y, 0.5))
        for xe in edges:
            lines.append(Line(xe, top, xe, bottom, 0.5))
    elif look == "rows":
        for y in boundaries:
            lines.append(
                Line(
                    left,
                    y,
                    right,
                    y,
                    0.9 if y in (top, under_header) else 0.4,
                    40 if y in (top, under_header) else 120,
                )
            )
    else:  # header-rule and zebra: rules above and below the header and below the last row
        lines.append(Line(left, top, right, top, 0.9))
        if under_header is not None:
            lines.append(Line(left, under_header, right, under_header, 0.6))
        lines.append(Line(left, bottom, right, bottom, 0.9))
    return lines


# -- flowing blocks onto pages ------------------------------------------------------------------


class Book:
    """The pages of one report, filled top to bottom by `Flow`s."""

    def __init__(self) -> None:
        self.pages: list[PageDraft] = []

    def new_page(
        self, kind: str, *, landscape: bool = False, rotated: bool = False, scanned: bool = False
    ) -> PageDraft:
        width, height = LANDSCAPE if landscape or rotated else PORTRAIT
        page = PageDraft(width, height, kind, rotated=rotated, scanned=scanned)
        self.pages.append(page)
        return page


class Flow:
    """Places paragraphs and tables one after another, starting new pages as they fill."""

    def __init__(
        self,
        book: Book,
        kind: str,
        *,
        landscape: bool = False,
        rotated: bool = False,
        scanned: bool = False,
        continue_page: bool = False,
    ) -> None:
        self.book = book
        self.kind = kind
        self.options = {"landscape": landscape, "rotated": rotated, "scanned": scanned}
        if continue_page and book.pages:
            self.page = book.pages[-1]
        else:
            self.page = book.new_page(kind, **self.options)
        self.tables_on_page = 0

    @property
    def y(self) -> float:
        return self.page.cursor

    @y.setter
    def y(self, value: float) -> None:
        self.page.cursor = value

    @property
    def width(self) -> float:
        return self.page.width - 2 * MARGIN

    def new_page(self) -> None:
        self.page = self.book.new_page(self.kind, **self.options)
        self.tables_on_page = 0

    def space(self, points: float) -> None:
        self.y += points

    def heading(self, text: str, size: float = 12.0) -> None:
        if self.y + size * 3 > self.page.bottom:
            self.new_page()
        self.page.items.append(Text(MARGIN, self.y + size, text, size, bold=True))
        self.y += size * 1.8

    def paragraph(
        self, text: str, size: float = 9.0, *, bold: bool = False, indent: float = 0.0
    ) -> None:
        lines = wrap(text, size, self.width - indent, bold=bold)
        leading = size * 1.4
        if self.y + len(lines) * leading > self.page.bottom:
            self.new_page()
        for line in lines:
            self.page.items.append(Text(MARGIN + indent, self.y + size, line, size, bold=bold))
            self.y += leading
        self.y += size * 0.5

    def table(
        self,
        spec: TableSpec,
        metrics: TableMetrics,
        look: TableLook,
        *,
        table_index: int = -1,
        repeat_header: bool = True,
        per_page: int | None = None,
        gap: float = 16.0,
    ) -> None:
        """Place a table, breaking it across pages where it does not fit.

        `per_page`: start a new page before the table when the page already holds that many
        tables (1: every table on its own page). A continued part repeats the title, the first
        caption line and the header when `repeat_header`, else it is bare rows.
        """
        if per_page is not None and self.tables_on_page >= per_page:
            self.new_page()
        elif self.tables_on_page or self.y > CONTENT_TOP:
            self.y += gap
        rows = list(range(len(spec.rows)))
        part = 0
        while True:
            first = part == 0
            show_head = first or repeat_header
            caption = spec.caption if first else (spec.caption[:2] if repeat_header else [])
            title = (
                spec.title
                if first
                else ("Continued from the previous page" if repeat_header else "")
            )
            head_h = (
                (metrics.caption_h(len(caption), bool(title)) + metrics.header_h)
                if show_head
                else 0.0
            )
            available = self.page.bottom - self.y - head_h
            fits = int(available // metrics.row_h)
            last_fits = fits >= len(rows) and available - len(
                rows
            ) * metrics.row_h >= metrics.footnotes_h(len(spec.footnotes))
            if last_fits:
                take = len(rows)
            elif min(fits, len(rows) - 1) >= MIN_SPLIT_ROWS:
                take = min(fits, len(rows) - 1)
            elif self.y > CONTENT_TOP:  # nothing useful fits here: the table starts on a new page
                self.new_page()
                continue
            else:
                raise ValueError("a table part does not fit on an empty page")
            chunk = rows[:take]
            rows = rows[take:]
            items, bbox = draw_part(
                spec,
                metrics,
                look,
                MARGIN,
                self.y,
                chunk,
                title=title,
                caption=caption,
                header=show_head,
                footnotes=not rows,
            )
            self.page.items.extend(items)
            if spec.row_records is not None:
                records = tuple(i for r in chunk for i in spec.row_records[r])
                self.page.parts.append(
                    Part(table_index, part, bbox, records, show_head, bool(caption))
                )
            self.y = bbox[3]
            self.tables_on_page += 1
            if not rows:
                return
            self.new_page()
            part += 1
