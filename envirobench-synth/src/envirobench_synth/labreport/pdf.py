"""PDF bytes from page drafts (reportlab, `invariant=1`); page images back from PDF bytes are
`pdfpages.rasterize`'s (pypdfium2).

Emission is byte-reproducible: reportlab's invariant mode fixes the document ID and dates, the
fonts are the Vera TTFs inside the pinned reportlab wheel, and scanned pages are embedded as
grayscale images compressed by reportlab's zlib, with the pixels themselves coming from the
deterministic `degrade.scan_page`.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

from PIL import Image
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from ..pdfpages import binary_streams, new_canvas
from .draft import Box, Line, PageDraft, Text, font_name, register_fonts

PDF_TITLE = "Laboratory Analytical Report"
PDF_CREATOR = "EnviroBench synthetic laboratory report"


def physical_size(page: PageDraft) -> tuple[float, float]:
    """The sheet's size in points: a page drawn sideways is a portrait sheet."""
    return (page.height, page.width) if page.rotated else (page.width, page.height)


def to_physical(page: PageDraft, x: float, y: float) -> tuple[float, float]:
    """A point of the upright page (top-left origin) on the sheet as displayed (top-left origin).

    A sideways page is turned a quarter anticlockwise: its top edge runs up the sheet's left
    side and its text reads from the bottom of the sheet to the top.
    """
    if not page.rotated:
        return x, y
    return y, page.width - x


def emit_pdf(pages: Sequence[PageDraft], images: Mapping[int, Image.Image] | None = None) -> bytes:
    """The PDF of `pages`; a page whose index is in `images` is that image alone (a scan)."""
    register_fonts()
    images = images or {}
    buffer = io.BytesIO()
    with binary_streams():
        _emit(new_canvas(buffer, PDF_TITLE, PDF_CREATOR, physical_size(pages[0])), pages, images)
    return buffer.getvalue()


def _emit(canvas: Canvas, pages: Sequence[PageDraft], images: Mapping[int, Image.Image]) -> None:
    for index, page in enumerate(pages):
        sheet_w, sheet_h = physical_size(page)
        canvas.setPageSize((sheet_w, sheet_h))
        if index in images:
            canvas.drawImage(ImageReader(images[index]), 0, 0, width=sheet_w, height=sheet_h)
        else:
            draw_draft(canvas, page)
        canvas.showPage()
    canvas.save()


def draw_draft(canvas: Canvas, page: PageDraft) -> None:
    """Draw `page` on the canvas's current sheet (already sized), a sideways page turned, as
    `emit_pdf` draws each text page (for emitters of their own, such as scans.emit_document)."""
    sheet_w, _ = physical_size(page)
    canvas.saveState()
    if page.rotated:
        canvas.translate(sheet_w, 0)
        canvas.rotate(90)
    for item in page.items:
        _draw(canvas, item, page.height)
    canvas.restoreState()


def _draw(canvas: Canvas, item: Text | Line | Box, height: float) -> None:
    if isinstance(item, Text):
        canvas.setFont(font_name(item.bold), item.size)
        canvas.setFillGray(item.grey / 255)
        draw = {
            "left": canvas.drawString,
            "right": canvas.drawRightString,
            "center": canvas.drawCentredString,
        }[item.align]
        if item.angle:
            canvas.saveState()
            canvas.translate(item.x, height - item.y)
            canvas.rotate(item.angle)
            draw(0, 0, item.text)
            canvas.restoreState()
        else:
            draw(item.x, height - item.y, item.text)
    elif isinstance(item, Line):
        canvas.setStrokeGray(item.grey / 255)
        canvas.setLineWidth(item.width)
        canvas.line(item.x0, height - item.y0, item.x1, height - item.y1)
    else:
        canvas.setFillGray(item.fill / 255)
        canvas.rect(item.x, height - item.y - item.h, item.w, item.h, stroke=0, fill=1)
