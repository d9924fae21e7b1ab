"""Page thumbnails of a PDF, for the reports of `page-locate` and `document-split`.

A report shows only image files, and these datasets ship PDFs; so each dataset also ships one
small PNG per page, which the report's page strip draws in place of a numbered box.

    images = thumbnails(pdf)                                   # PNG bytes, one per page
    paths = write_thumbnails(root, "assets/dev-file-001", pdf) # ("assets/dev-file-001/p0001.png", ...)

Each page is rendered by PDFium (pypdfium2, as every synthetic PDF here is rasterised) at WIDTH
pixels wide, in grey, darkened (grey level v becomes v^2/255, so the thin grey strokes of text a
downscale leaves still read as lines of text) and reduced to LEVELS grey levels, then written by
envirobench_synth.png with no metadata. A page of text comes to about 0.9 KB: at this size a
thumbnail shows a page's layout (a letter, a table, a form, a scan, a photograph page), not its
words, and fewer grey levels cost nothing visible while halving the file.

Integer arithmetic only after rendering, and PDFium's and Pillow's pinned wheels: the same PDF
gives the same bytes on every machine, so the datasets regenerate byte for byte.
"""

from __future__ import annotations

import math
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

from ..png import png_bytes

WIDTH = 120  # pixels; the height follows the page's aspect ratio (156 for a letter page)
LEVELS = 16


def _tone(value: int) -> int:
    darkened = value * value // 255
    return (darkened * (LEVELS - 1) + 127) // 255 * (255 // (LEVELS - 1))


TONES = [_tone(value) for value in range(256)]


def page_image(page) -> Image.Image:  # a pypdfium2 PdfPage
    """One page as a WIDTH-pixel-wide grey image, before the tone curve."""
    width = page.get_width()
    scale = WIDTH / width
    # pypdfium2 sizes the bitmap as ceil(page width * scale); a rounding error of the division
    # must not make it WIDTH + 1.
    while math.ceil(width * scale) > WIDTH:
        scale = math.nextafter(scale, 0.0)
    image = page.render(scale=scale, grayscale=True, draw_annots=False).to_pil()
    return image if image.mode == "L" else image.convert("L")


def thumbnails(pdf: bytes) -> list[bytes]:
    """The PNG bytes of a thumbnail of every page of `pdf`, in page order."""
    document = pdfium.PdfDocument(pdf)
    try:
        return [
            png_bytes(page_image(document[index]).point(TONES)) for index in range(len(document))
        ]
    finally:
        document.close()


def thumbnail_path(directory: str, page: int) -> str:
    """The dataset-relative path of page `page`'s (1-based) thumbnail in `directory`."""
    return f"{directory}/p{page:04d}.png"


def write_thumbnails(root: Path, directory: str, pdf: bytes) -> tuple[str, ...]:
    """Write the thumbnails of `pdf` to root/directory/p0001.png, p0002.png, ... and return their
    paths relative to `root`, in page order."""
    (Path(root) / directory).mkdir(parents=True, exist_ok=True)
    paths = []
    for page, data in enumerate(thumbnails(pdf), start=1):
        path = thumbnail_path(directory, page)
        (Path(root) / path).write_bytes(data)
        paths.append(path)
    return tuple(paths)
