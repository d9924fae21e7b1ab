"""Laying a document out and writing it as PDF: `render_document` (typed or scanned)."""

from __future__ import annotations

import io

from reportlab.pdfbase.pdfmetrics import stringWidth

from ...pdfpages import FONTS, new_canvas, scanned_copy, wrap
from .kinds import (
    BOTTOM,
    HEAVY_DPI,
    HEAVY_SKEW,
    MARGIN,
    MAX_SCAN_SKEW,
    PAGE_H,
    PAGE_W,
    PDF_CREATOR,
    PDF_TITLE,
    SCAN_DPI,
    Block,
    Document,
)

Op = tuple  # ("text", x, y, font, size, string) | ("rect", x, y, w, h, fill) | ("line", x1, y1, x2, y2)


def layout(document: Document) -> list[list[Op]]:
    """The document's pages as drawing operations, top to bottom, a new page when one is full."""
    fam = document.family
    regular, bold = FONTS[fam.font]
    size = fam.size
    width = PAGE_W - 2 * MARGIN
    pages: list[list[Op]] = [[]]
    y = PAGE_H - 56.0

    def need(height: float) -> None:
        nonlocal y
        if y - height < BOTTOM:
            pages.append([])
            y = PAGE_H - 60.0

    def text_line(
        string: str, font: str, fsize: float, x: float = MARGIN, align: str = "left"
    ) -> None:
        nonlocal y
        need(fsize * 1.35)
        if align == "center":
            x = (PAGE_W - stringWidth(string, font, fsize)) / 2
        pages[-1].append(("text", x, y - fsize, font, fsize, string))
        y -= fsize * 1.35

    # letterhead
    if document.header:
        top = y
        text_line(
            document.header[0],
            bold,
            size + 2,
            align="center" if fam.title_align == "center" else "left",
        )
        for line in document.header[1:]:
            text_line(
                line, regular, size - 0.5, align="center" if fam.title_align == "center" else "left"
            )
        if fam.letterhead == "rule":
            pages[-1].append(("line", MARGIN, y - 2, PAGE_W - MARGIN, y - 2))
        elif fam.letterhead == "box":
            pages[-1].append(("rect", MARGIN - 6, y - 4, width + 12, top - y + 6, False))
        y -= 14
    body = document.blocks
    if document.cover:
        body = [*document.cover, Block("page"), *document.blocks]
        pending_title = document.title
    else:
        pending_title = ""
        if document.title:
            text_line(document.title, bold, size + 4, align=fam.title_align)
            y -= 6
    for block in body:
        if block.kind == "page":
            pages.append([])
            y = PAGE_H - 60.0
            if pending_title:
                text_line(pending_title, bold, size + 4, align=fam.title_align)
                y -= 6
            continue
        font = bold if block.bold else regular
        if block.kind in ("text", "heading"):
            for line in wrap(block.text, font, size, width):
                text_line(line, font, size)
            y -= size * 0.6
        elif block.kind == "fields":
            for label, value in block.rows:
                need(size * 1.35)
                if value:
                    pages[-1].append(("text", MARGIN, y - size, bold, size, f"{label}:"))
                    pages[-1].append(("text", MARGIN + 110, y - size, regular, size, value))
                else:
                    pages[-1].append(("text", MARGIN, y - size, regular, size, label))
                y -= size * 1.35
            y -= size * 0.6
        elif block.kind == "table":
            tsize = size - 1
            xs = [MARGIN]
            for share in block.widths[:-1]:
                xs.append(xs[-1] + share * width)
            for index, row in enumerate(block.rows):
                need(tsize * 1.5)
                for x, cell, share in zip(xs, row, block.widths, strict=True):
                    cell_font = bold if index == 0 else regular
                    while cell and stringWidth(cell, cell_font, tsize) > share * width - 4:
                        cell = cell[:-1]
                    pages[-1].append(("text", x + 2, y - tsize, cell_font, tsize, cell))
                pages[-1].append(
                    ("line", MARGIN, y - tsize * 1.45, MARGIN + width, y - tsize * 1.45)
                )
                y -= tsize * 1.5
            y -= size
        elif block.kind == "photo":
            need(200)
            pages[-1].append(("rect", MARGIN + 40, y - 190, width - 80, 185, True))
            y -= 198
        elif block.kind == "signature":
            need(size * 4)
            y -= size * 2
            pages[-1].append(("line", MARGIN, y, MARGIN + 200, y))
            pages[-1].append(("text", MARGIN, y - size * 1.2, regular, size, block.text))
            y -= size * 2.2
    return pages


def emit(document: Document, pages: list[list[Op]]) -> bytes:
    buffer = io.BytesIO()
    # PDF_TITLE is the same for every kind: metadata must not tell the kind
    canvas = new_canvas(buffer, PDF_TITLE, PDF_CREATOR, (PAGE_W, PAGE_H))
    regular = FONTS[document.family.font][0]
    for number, ops in enumerate(pages, 1):
        for op in ops:
            if op[0] == "text":
                _, x, y, font, size, string = op
                canvas.setFont(font, size)
                canvas.drawString(x, y, string)
            elif op[0] == "line":
                canvas.setLineWidth(0.6)
                canvas.line(*op[1:])
            else:
                _, x, y, w, h, fill = op
                canvas.setFillGray(0.55 if fill else 1)
                canvas.rect(x, y, w, h, stroke=1, fill=1 if fill else 0)
                canvas.setFillGray(0)
        if document.family.page_mark:
            canvas.setFont(regular, 8)
            canvas.drawCentredString(
                PAGE_W / 2, 36, document.family.page_mark.format(page=number, pages=len(pages))
            )
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def scanned_pdf(
    pdf: bytes, pages: int, title: str, seed: int, *labels: str | int, heavy: bool = False
) -> bytes:
    """Every page rasterised at SCAN_DPI, put through an office scanner, kept black and white; a
    heavy scan (a copy of a copy, a fax) at HEAVY_DPI with more skew, blur and noise."""
    return scanned_copy(
        pdf,
        pages,
        HEAVY_DPI if heavy else SCAN_DPI,
        (PAGE_W, PAGE_H),
        title,
        PDF_CREATOR,
        seed,
        *labels,
        max_angle=HEAVY_SKEW if heavy else MAX_SCAN_SKEW,
        heavier=heavy,
    )


def render_document(
    document: Document,
    *,
    scanned: bool,
    seed: int,
    labels: tuple[str | int, ...],
    heavy: bool = False,
) -> tuple[bytes, int]:
    """(PDF bytes, pages) of the document; a scanned copy draws its noise from (seed, *labels)."""
    pages = layout(document)
    pdf = emit(document, pages)
    if scanned:
        pdf = scanned_pdf(pdf, len(pages), PDF_TITLE, seed, *labels, heavy=heavy)
    return pdf, len(pages)
