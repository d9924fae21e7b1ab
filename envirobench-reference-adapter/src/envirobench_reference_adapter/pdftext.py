"""A PDF's words per page: the text layer where there is one, OCR of the rendered page where not.

`read_pdf(path)` returns one `PageText` per page, its words in PDF points measured from the
page's top-left corner (y downwards), whatever their source:

- text layer (pdfplumber, on pdfminer.six): the page's characters grouped into words, each with
  its font size and whether the font is bold; ruling lines and the edges of filled rectangles
  are kept as `rules` (table borders). Only characters of the page's dominant direction are
  read: a page printed sideways is turned upright (its coordinates are then those of the page
  as read, `width` and `height` swapped), and a diagonal watermark (DRAFT) is left out;
- image-only page (fewer than MIN_TEXT_CHARS characters, so a scan): the page is rendered with
  pypdfium2 at the resolution of its largest image (clamped to [MIN_DPI, MAX_DPI]), so a scan is
  neither resampled down nor blown up needlessly, and read with `ocr.recognize`. Its words carry
  OCR confidences and no font information; its rules are not known (empty).

`text_layers(path)` is the cheaper reading of readers that need no places (page-locate, the
property-record reader): each page's plain text (pypdfium2), with the page, so that the caller
OCRs a scan itself (`ocr_page` at `image_dpi`).

`jitter` (a numpy Generator) perturbs the rendered image of OCR pages only: a text layer has no
pixels to perturb, so on born-digital pages jitter changes nothing.

With an adapter cache directory (`envirobench run --adapter-cache DIR`), `ocr_page` keeps each
page's OCR words on disk and reads them back on every later reading of the page, in any type or
run (`ocr_cache`: keyed by the file's SHA-256, the page, the resolution and the engine).

Weaknesses: pdfplumber splits words at gaps wider than X_TOLERANCE points, so letter-spaced
text breaks into pieces and tightly set columns may run together; text drawn as curves (no
characters) counts as an image-only page only if the page has fewer than MIN_TEXT_CHARS
characters; a page that mixes a text layer with a scanned image reads only the text layer.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image

from . import ocr, ocr_cache
from .layout import Word

MIN_TEXT_CHARS = 20  # fewer characters than this: the page is a scan (a stray page number is not a layer)
MIN_DPI = 150
MAX_DPI = 300
DEFAULT_DPI = 200  # for an image-only page whose image resolution cannot be told
X_TOLERANCE = 1.5  # points: pdfplumber joins characters closer than this into one word
Y_TOLERANCE = 2.0
BOLD_MARKERS = ("bold", "black", "heavy", "semibold", "demi")


@dataclass(frozen=True)
class Rule:
    """A horizontal or vertical line segment on the page, in points."""

    x0: float
    top: float
    x1: float
    bottom: float

    @property
    def horizontal(self) -> bool:
        return (self.x1 - self.x0) >= (self.bottom - self.top)


@dataclass
class PageText:
    index: int  # 0-based page number
    width: float  # points
    height: float
    source: Literal["text-layer", "ocr"]
    words: list[Word]
    rules: list[Rule] = field(default_factory=list)
    dpi: float = 72.0  # the rendering resolution OCR saw (72 for a text layer)


def is_bold(fontname: str) -> bool:
    name = fontname.lower().split("+")[-1]
    return any(marker in name for marker in BOLD_MARKERS)


def page_count(path: Path) -> int:
    """How many pages the PDF has (pypdfium2; cheap)."""
    document = pdfium.PdfDocument(str(path))
    try:
        return len(document)
    finally:
        document.close()


def read_pdf(
    path: Path,
    *,
    jitter: np.random.Generator | None = None,
    pages: list[int] | None = None,
    ocr_scans: bool = True,
    straighten: bool = False,
    level: bool = False,
) -> list[PageText]:
    """Words of every page (or of `pages`, 0-based) of the PDF at `path`. With `ocr_scans`
    False, image-only pages are not read (no words) rather than OCRed. With `straighten`, an
    image-only page is levelled (`ocr.straighten`: a scan tilted a few degrees) and turned
    upright when its text runs up or down the page (`ocr.recognize_upright`) before it is read;
    its words are then in the levelled page's coordinates, which is what a reader of the text
    wants and not what a solver locating marks on the page's image wants (so it is opt-in). With
    `level` instead, a tilted scan is read level and its words placed back on the page as scanned
    (`ocr.recognize_level`): for a solver that does both."""
    # Imported here, not at the top: pdfplumber (with pdfminer.six) takes ~0.4 s to import, and
    # every adapter start imports this module (solver discovery) though only PDF types read one.
    import pdfplumber

    result: list[PageText] = []
    with pdfplumber.open(str(path)) as pdf:
        wanted = range(len(pdf.pages)) if pages is None else pages
        for index in wanted:
            page = pdf.pages[index]
            if len(page.chars) >= MIN_TEXT_CHARS:
                result.append(text_layer_page(page, index))
            elif not ocr_scans:
                result.append(PageText(index, float(page.width), float(page.height), "ocr", [], [], scan_dpi(page)))
            else:
                dpi = scan_dpi(page)
                result.append(ocr_page(path, index, float(page.width), float(page.height), dpi, jitter, straighten, level))
    return result


def char_direction(char: Mapping[str, Any]) -> tuple[int, int]:
    """The reading direction of a character, from its text matrix, rounded to 45 degrees."""
    a, b = float(char["matrix"][0]), float(char["matrix"][1])
    angle = math.degrees(math.atan2(b, a))
    step = round(angle / 45.0) % 8
    return {0: (1, 0), 2: (0, 1), 4: (-1, 0), 6: (0, -1)}.get(step, (9, 9))


def upright_chars(chars: list[dict[str, Any]], width: float, height: float) -> tuple[list[dict[str, Any]], float, float, int]:
    """The characters of the page's dominant direction, turned so they read left to right.

    A page printed sideways has its text running up (or down) the sheet; turning the coordinates
    a quarter turn makes it an ordinary landscape page. Characters in any other direction (a
    diagonal DRAFT watermark, a stray rotated label) are dropped. Returns the characters, the
    page's width and height as read, and the quarter turns applied (0, 1 or 3).
    """
    counts: dict[tuple[int, int], int] = {}
    for char in chars:
        direction = char_direction(char)
        counts[direction] = counts.get(direction, 0) + 1
    dominant = max(counts, key=lambda d: counts[d]) if counts else (1, 0)
    kept = [c for c in chars if char_direction(c) == dominant]
    if dominant == (0, 1):  # runs up the sheet: turned a quarter anticlockwise
        turned = [
            {**c, "x0": height - c["bottom"], "x1": height - c["top"], "top": c["x0"], "bottom": c["x1"],
             "doctop": c["x0"], "upright": True, "size": c["x1"] - c["x0"]}
            for c in kept
        ]
        return turned, height, width, 1
    if dominant == (0, -1):  # runs down the sheet: turned a quarter clockwise
        turned = [
            {**c, "x0": c["top"], "x1": c["bottom"], "top": width - c["x1"], "bottom": width - c["x0"],
             "doctop": width - c["x1"], "upright": True, "size": c["x1"] - c["x0"]}
            for c in kept
        ]
        return turned, height, width, 3
    return kept, width, height, 0


def text_layer_page(page: Any, index: int) -> PageText:
    """The words and rules of a pdfplumber page with a text layer (turned upright if sideways)."""
    # Imported here for the reason read_pdf gives (pdfplumber is slow to import).
    from pdfplumber.utils import extract_words

    width, height = float(page.width), float(page.height)
    chars, width, height, turns = upright_chars(list(page.chars), width, height)
    raw = extract_words(
        chars,
        x_tolerance=X_TOLERANCE,
        y_tolerance=Y_TOLERANCE,
        keep_blank_chars=False,
        use_text_flow=False,
        extra_attrs=["fontname", "size"],
    )
    words = [
        Word(
            w["text"],
            float(w["x0"]),
            float(w["top"]),
            float(w["x1"]),
            float(w["bottom"]),
            1.0,
            is_bold(w.get("fontname", "")),
            float(w.get("size", 0.0)),
        )
        for w in raw
        if w["text"].strip()
    ]
    rules = [] if turns else [Rule(float(e["x0"]), float(e["top"]), float(e["x1"]), float(e["bottom"])) for e in page.edges]
    return PageText(index, width, height, "text-layer", words, rules)


def scan_dpi(page: Any) -> float:
    """The resolution of the page's largest image (pixels per inch as placed), within bounds."""
    best, area = float(DEFAULT_DPI), 0.0
    for image in page.images:
        placed_width = float(image["x1"]) - float(image["x0"])
        placed_area = placed_width * (float(image["bottom"]) - float(image["top"]))
        source = image.get("srcsize") or (0, 0)
        if placed_area > area and placed_width > 0 and source[0]:
            best, area = 72.0 * float(source[0]) / placed_width, placed_area
    return float(min(MAX_DPI, max(MIN_DPI, best)))


def text_layers(path: Path) -> Iterator[tuple[int, Any, str]]:
    """(index, page, text) of every page of the PDF, in order: the pypdfium2 page and the plain
    text of its text layer (`read_pdf`'s words and places are more than a reader of a question's
    pages needs: page-locate and the property-record reader). The document stays open while the
    caller reads a page (to OCR a scan, say) and is closed after the last."""
    document = pdfium.PdfDocument(str(path))
    try:
        for index in range(len(document)):
            page = document[index]
            textpage = page.get_textpage()
            text = textpage.get_text_range()
            textpage.close()
            yield index, page, text
    finally:
        document.close()


def image_dpi(page: Any) -> float:
    """The resolution of a pypdfium2 page's largest image (a scan's own), within [100, 200]: OCR
    reads a low-resolution scan no better blown up (`text_layers`' readers OCR at it)."""
    best = 150.0
    for obj in page.get_objects():
        if obj.type == pdfium_c.FPDF_PAGEOBJ_IMAGE:
            pixels = obj.get_px_size()[0]
            if pixels:
                best = pixels / page.get_width() * 72.0
    return min(200.0, max(100.0, best))


def render_page(path: Path, index: int, dpi: float) -> Any:
    """Page `index` rendered to a greyscale Pillow image at `dpi` (pypdfium2)."""
    document = pdfium.PdfDocument(str(path))
    try:
        bitmap = document[index].render(scale=dpi / 72.0, grayscale=True)
        return bitmap.to_pil().convert("L")
    finally:
        document.close()


def ocr_page(
    path: Path, index: int, width: float, height: float, dpi: float, jitter: np.random.Generator | None,
    straighten: bool = False,
    level: bool = False,
) -> PageText:
    """OCR of an image-only page, its words converted from pixels to points (see read_pdf for
    `straighten` and `level`); read from the OCR page cache when it has the page (`ocr_cache`:
    never with `jitter`), and kept there when it is read."""
    if jitter is None and (words := ocr_cache.cached(path, index, dpi, straighten, level)) is not None:
        return PageText(index, width, height, "ocr", words, [], dpi)
    image = render_page(path, index, dpi)
    pixels = np.asarray(image)
    if jitter is not None:
        pixels = ocr.jitter_image(pixels, jitter)
    scale = 72.0 / dpi
    if straighten:
        upright, _, _ = ocr.recognize_upright(ocr.straighten(Image.fromarray(pixels)))
        words = [w.moved(0.0, 0.0, scale) for w in upright]
    elif level:
        words = [w.moved(0.0, 0.0, scale) for w in ocr.recognize_level(Image.fromarray(pixels))]
    else:
        words = [w.moved(0.0, 0.0, scale) for w in ocr.recognize(pixels)]
    if jitter is None:
        ocr_cache.keep(path, index, dpi, straighten, words, level)
    return PageText(index, width, height, "ocr", words, [], dpi)
