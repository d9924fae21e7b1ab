"""PDF pages both ways: words wrapped to lines of a width in a PDF font (reportlab's metrics),
and a page of PDF bytes rendered back to a grayscale image (PDFium, inside the pinned pypdfium2
wheel, so a page renders to the same pixels on every machine).

The laboratory reports, the legal instruments, the office papers of a site file and the typed
documents of document-type all lay text out and rasterise scans through these two, and start
every PDF they write on `new_canvas` (reportlab's invariant mode: the same bytes on every run).
`scanned_copy` is a whole PDF as an office scanner copies it (the legal instruments' recorded
copies, document-type's scanned documents). A black-and-white page image goes into a PDF either
through reportlab (8 bits a sample) or, here, as the 1-bit CCITT Group 4 stream a recorder's
archive holds (`group4_stream`, `draw_group4`; `scans.py`'s bitonal pages, `image_pdf(...,
group4=True)`): reportlab itself only writes 8-bit images.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

import pypdfium2 as pdfium
from PIL import Image
from reportlab import rl_config
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFImageXObject, PDFName, PDFStream
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
    images: Iterable[Image.Image], size: tuple[float, float], title: str, creator: str, *, group4: bool = False
) -> bytes:
    """A PDF of one image a page, each filling a page of `size` points (a scanned document);
    the same images give the same bytes (reportlab's invariant mode). Reportlab writes every
    image 8 bits a sample; `group4` embeds black-and-white images (every pixel 0 or 255) as 1-bit
    CCITT Group 4 streams instead, as a recorder's archive keeps them: the same pixels in about a
    third of the bytes (a grey pixel is refused)."""
    buffer = io.BytesIO()
    with binary_streams():
        canvas = new_canvas(buffer, title, creator, size)
        for image in images:
            if group4:
                bits = black_and_white_bits(image)
                draw_group4(canvas, group4_stream(bits), bits.size, *size)
            else:
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
    group4: bool = False,
) -> bytes:
    """The first `pages` pages of `pdf` as an office scanner copies them: each page rasterised at
    `dpi`, put through `degrade.bitonal_office_scan` (drawn from (seed, *labels, "scan", page
    index), skew up to `max_angle` degrees, `heavier` for a copy of a copy), one black-and-white
    image a page of `size` points (`image_pdf`; `group4`: 1-bit Group 4 images)."""
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
    return image_pdf(images, size, title, creator, group4=group4)


def rasterize(pdf: bytes, index: int, dpi: float) -> Image.Image:
    """Page `index` (0-based) of `pdf` as a grayscale image at `dpi` (PDFium, no annotations)."""
    document = pdfium.PdfDocument(pdf)
    try:
        image = document[index].render(scale=dpi / 72, grayscale=True, draw_annots=False).to_pil()
    finally:
        document.close()
    return image if image.mode == "L" else image.convert("L")


# -- 1-bit pages: CCITT Group 4 streams embedded as they are ------------------------------------


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


def group4_stream(image: Image.Image) -> bytes:
    """The CCITT Group 4 stream of a '1' image (one strip, as a PDF wants it)."""
    buffer = io.BytesIO()
    # One strip holding every row; ROWSPERSTRIP = 278.
    image.save(buffer, format="TIFF", compression="group4", tiffinfo={278: image.size[1]})
    buffer.seek(0)
    with Image.open(buffer) as tiff:
        offsets = tiff.tag_v2[273]
        counts = tiff.tag_v2[279]
        photometric = tiff.tag_v2[262]
    if len(offsets) != 1:
        raise RuntimeError("libtiff wrote more than one strip")
    if photometric != 1:
        raise RuntimeError(f"expected a min-is-black Group 4 strip, got photometric {photometric}")
    data = buffer.getvalue()
    return data[offsets[0] : offsets[0] + counts[0]]


class Group4Image(PDFImageXObject):
    """An image XObject holding a CCITT Group 4 stream as it is."""

    def __init__(self, name: str, data: bytes, size: tuple[int, int]) -> None:
        super().__init__(name)
        self.width, self.height = size
        self.bitsPerComponent = 1
        self.colorSpace = "DeviceGray"
        self._filters = ("CCITTFaxDecode",)
        self.streamContent = data
        self.mask = None

    def format(self, document: object) -> bytes:
        stream = PDFStream(content=self.streamContent)
        d = stream.dictionary
        d["Type"] = PDFName("XObject")
        d["Subtype"] = PDFName("Image")
        d["Width"] = self.width
        d["Height"] = self.height
        d["BitsPerComponent"] = 1
        d["ColorSpace"] = PDFName("DeviceGray")
        d["Filter"] = PDFArray([PDFName("CCITTFaxDecode")])
        # Pillow writes '1' images min-is-black (TIFF photometric 1), which a PDF decodes with
        # BlackIs1 true. With an array of filters the parameters must be an array as well
        # (PDFium ignores a bare dictionary there and decodes garbage).
        d["DecodeParms"] = PDFArray(
            [
                PDFDictionary(
                    {"K": -1, "BlackIs1": "true", "Columns": self.width, "Rows": self.height}
                )
            ]
        )
        d["Length"] = len(self.streamContent)
        return stream.format(document)


def draw_group4(canvas: Canvas, stream: bytes, pixels: tuple[int, int], width: float, height: float) -> None:
    """Fill the canvas's current page (`width` x `height` points) with the Group 4 image `stream`
    of `pixels` (width, height): what reportlab's drawImage does for its own image XObjects, with
    the stream as it is (an image drawn twice is embedded once)."""
    name = "g4-" + hashlib.sha256(stream).hexdigest()[:24]
    reg = canvas._doc.getXObjectName(name)
    if canvas._doc.idToObject.get(reg) is None:
        xobject = Group4Image(name, stream, pixels)
        canvas._setXObjects(xobject)
        canvas._doc.Reference(xobject, reg)
        canvas._doc.addForm(name, xobject)
    canvas._currentPageHasImages = 1
    canvas.saveState()
    canvas.scale(width, height)
    canvas._code.append(f"/{reg} Do")
    canvas.restoreState()
    canvas._formsinuse.append(name)
