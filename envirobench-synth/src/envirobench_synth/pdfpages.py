"""PDF pages both ways: words wrapped to lines of a width in a PDF font (reportlab's metrics),
and a page of PDF bytes rendered back to a grayscale image (PDFium, inside the pinned pypdfium2
wheel, so a page renders to the same pixels on every machine).

The laboratory reports, the legal instruments, the office papers of a site file and the typed
documents of document-type all lay text out and rasterise scans through these two, and start
every PDF they write on `new_canvas` (reportlab's invariant mode: the same bytes on every run).
`scanned_copy` is a whole PDF as an office scanner copies it (the legal instruments' recorded
copies, document-type's scanned documents).
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

import pypdfium2 as pdfium
from PIL import Image
from reportlab import rl_config
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from .degrade import bitonal_office_scan

# The standard PDF fonts an office's family names, as (regular, bold): no font file embedded.
FONTS = {
    "Times": ("Times-Roman", "Times-Bold"),
    "Helvetica": ("Helvetica", "Helvetica-Bold"),
    "Courier": ("Courier", "Courier-Bold"),
}


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """`text`'s words in lines no wider than `width` points in `font` at `size` (a word wider
    than `width` stands alone on its line)."""
    lines, current = [], ""
    for word in text.split():
        candidate = f"{current} {word}".strip()
        if current and stringWidth(candidate, font, size) > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current:
        lines.append(current)
    return lines


def new_canvas(
    buffer: io.BytesIO, title: str, creator: str, pagesize: tuple[float, float] | None = None
) -> Canvas:
    """A reportlab canvas that writes the same bytes on every run (invariant=1 fixes the document
    ID and dates), with compressed pages, `title` and `creator`; `pagesize` None is reportlab's
    default (for a writer that sets each page's size)."""
    canvas = Canvas(buffer, pagesize=pagesize, invariant=1, pageCompression=1)
    canvas.setTitle(title)
    canvas.setCreator(creator)
    return canvas


@contextmanager
def binary_streams() -> Iterator[None]:
    """reportlab writes binary Flate streams while inside: ASCII85 on top would cost a quarter
    more bytes. reportlab reads the setting while it embeds images and writes the file, so it is
    set for exactly that and restored after."""
    saved = rl_config.useA85
    rl_config.useA85 = 0
    try:
        yield
    finally:
        rl_config.useA85 = saved


def image_pdf(
    images: Iterable[Image.Image], size: tuple[float, float], title: str, creator: str
) -> bytes:
    """A PDF of one image a page, each filling a page of `size` points (a scanned document);
    the same images give the same bytes (reportlab's invariant mode)."""
    buffer = io.BytesIO()
    with binary_streams():
        canvas = new_canvas(buffer, title, creator, size)
        for image in images:
            canvas.drawImage(ImageReader(image), 0, 0, width=size[0], height=size[1])
            canvas.showPage()
        canvas.save()
    return buffer.getvalue()


def scanned_copy(
    pdf: bytes,
    pages: int,
    dpi: float,
    size: tuple[float, float],
    title: str,
    creator: str,
    seed: int,
    *labels: str | int,
    max_angle: float,
    heavier: bool = False,
) -> bytes:
    """The first `pages` pages of `pdf` as an office scanner copies them: each page rasterised at
    `dpi`, put through `degrade.bitonal_office_scan` (drawn from (seed, *labels, "scan", page
    index), skew up to `max_angle` degrees, `heavier` for a copy of a copy), one black-and-white
    image a page of `size` points (`image_pdf`)."""
    images = [
        bitonal_office_scan(
            rasterize(pdf, index, dpi),
            seed,
            *labels,
            "scan",
            index,
            max_angle=max_angle,
            heavier=heavier,
        )
        for index in range(pages)
    ]
    return image_pdf(images, size, title, creator)


def rasterize(pdf: bytes, index: int, dpi: float) -> Image.Image:
    """Page `index` (0-based) of `pdf` as a grayscale image at `dpi` (PDFium, no annotations)."""
    document = pdfium.PdfDocument(pdf)
    try:
        image = document[index].render(scale=dpi / 72, grayscale=True, draw_annots=False).to_pil()
    finally:
        document.close()
    return image if image.mode == "L" else image.convert("L")
