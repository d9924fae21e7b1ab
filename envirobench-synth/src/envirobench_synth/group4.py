"""Scanned copies as recorders keep them: one 1-bit CCITT Group 4 image a page.

`pdfpages.scanned_copy` embeds each black-and-white page through reportlab's drawImage, which
writes every image as 8-bit RGB: three bytes a pixel for pixels that are each 0 or 255, a
third again of the packet after Flate. `scanned_copy` here makes the same pages (the same
rasterising, the same `degrade.bitonal_office_scan` drawn from the same streams) and embeds each
as the 1-bit Group 4 stream a county recorder's archive holds (`scans._group4`, libtiff inside
Pillow's wheel), about a third of the bytes. A PDF renderer shows the same pixels either way.

It is a module of its own, beside `pdfpages` and `scans`, because the seeded datasets pin the
code that made them (tests/regeneration-verified.json): a change to either of those would
void the regeneration stamps of nearly every dataset. `draw_group4` repeats the few lines of
`scans.draw_scanned` that register a Group 4 XObject; that function is to call this one the
next time scans.py changes for a reason of its own.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Iterable

from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from .degrade import bitonal_office_scan
from .pdfpages import binary_streams, new_canvas, rasterize
from .scans import _group4, _Group4Image


def black_and_white_bits(image: Image.Image) -> Image.Image:
    """The '1' image of a grayscale image whose every pixel is 0 or 255 (the same pixels); a grey
    pixel is refused (ValueError): Group 4 holds black and white only."""
    if image.mode == "1":
        return image
    grey = image if image.mode == "L" else image.convert("L")
    greys = sorted({value for _, value in grey.getcolors(256)} - {0, 255})
    if greys:
        raise ValueError(f"a Group 4 page must be black and white; this one has grey levels {greys[:5]}")
    return grey.convert("1", dither=Image.Dither.NONE)


def draw_group4(canvas: Canvas, stream: bytes, pixels: tuple[int, int], width: float, height: float) -> None:
    """Fill the canvas's current page (`width` x `height` points) with the Group 4 image `stream`
    of `pixels` (width, height): what reportlab's drawImage does for its own image XObjects, with
    the stream as it is (an image drawn twice is embedded once)."""
    name = "g4-" + hashlib.sha256(stream).hexdigest()[:24]
    reg = canvas._doc.getXObjectName(name)
    if canvas._doc.idToObject.get(reg) is None:
        xobject = _Group4Image(name, stream, pixels)
        canvas._setXObjects(xobject)
        canvas._doc.Reference(xobject, reg)
        canvas._doc.addForm(name, xobject)
    canvas._currentPageHasImages = 1
    canvas.saveState()
    canvas.scale(width, height)
    canvas._code.append(f"/{reg} Do")
    canvas.restoreState()
    canvas._formsinuse.append(name)


def image_pdf(images: Iterable[Image.Image], size: tuple[float, float], title: str, creator: str) -> bytes:
    """A PDF of one black-and-white image a page, each filling a page of `size` points, each a
    Group 4 stream; the same images give the same bytes (reportlab's invariant mode)."""
    buffer = io.BytesIO()
    with binary_streams():
        canvas = new_canvas(buffer, title, creator, size)
        for image in images:
            bits = black_and_white_bits(image)
            draw_group4(canvas, _group4(bits), bits.size, *size)
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
) -> bytes:
    """`pdfpages.scanned_copy` with each page a Group 4 image: the first `pages` pages of `pdf`
    rasterised at `dpi` and put through `degrade.bitonal_office_scan` (drawn from (seed, *labels,
    "scan", page index), skew up to `max_angle` degrees)."""
    images = (
        bitonal_office_scan(rasterize(pdf, index, dpi), seed, *labels, "scan", index, max_angle=max_angle)
        for index in range(pages)
    )
    return image_pdf(images, size, title, creator)
