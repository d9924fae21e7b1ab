"""Scanned pages of PDFs: rasterise, mark, skew, turn, damage, and embed as image-only pages.

A scanned page goes through what happens to paper, in this order:

1. rasterised from a reportlab PDF at `dpi` (pypdfium2, as `pdfpages.rasterize`);
2. marked on paper: stamps, pen marks and struck-through values with handwritten corrections
   (`damage.py`); their regions are given in page points and drawn before the skew, because
   they are on the paper when it is scanned;
3. skewed by `skew` degrees about the page centre (the scanner's bed keeps the page's size: what
   turns past an edge is lost, paper fills the corners) and toned (paper grey, ink grey, blur);
4. turned by a quarter, half or three quarters (`turn`, anticlockwise: a page fed sideways or
   upside down), which swaps the sheet's width and height for quarter turns;
5. damaged in transmission and storage: fax, JPEG round trips (`damage.py`);
6. encoded: `bitonal` pages as 1-bit CCITT Group 4 (libtiff inside Pillow's wheel), `gray`
   pages as baseline JPEG at `quality`; embedded full-page in a reportlab PDF (invariant=1).

`ScannedImage.transform` maps a point of the clean page (PDF points, origin top-left, y down, as
the page is displayed) to a pixel of the final image, so a generator carries its table boxes:
`scanned.transform.carry_box(box_in_points, scanned.image.size)`. The sheet the image fills is
`scanned.sheet` points (pixels x 72 / dpi). Marks (`damage.Mark`) come back in final pixels.

Reproducible to the byte: every random draw comes from `rng` streams named by (seed, *labels);
angles use `damage.sin_cos_degrees` (no libm); Pillow, libtiff, libjpeg, PDFium and reportlab
are pinned by uv.lock. Embedding a Group 4 stream (`pdfpages.draw_group4`) uses reportlab's image XObject class with the
stream and its decode parameters set directly (reportlab itself only writes 8-bit images).

    result = scan_document(draw_page, sizes, {0: sample_scan_settings(rng)}, SEED, "case-7")
    result.pdf                     # the PDF: page 0 an image, the others vector pages
    result.pages[0].transform      # page points -> pixels of the scan of page 0
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageFilter
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from .damage import (
    IDENTITY,
    Affine,
    Damage,
    Mark,
    apply_damage,
    bitonal,
    sample_damage,
    sin_cos_degrees,
    strike_through,
    warp,
)
from .degrade import add_noise
from .pdfpages import binary_streams, draw_group4, group4_stream, new_canvas, rasterize

MODES = ("bitonal", "gray")
TURNS = (0, 90, 180, 270)
_ON_PAPER = ("stamp", "handwriting")
_IN_TRANSIT = ("fax", "jpeg")


@dataclass(frozen=True)
class Correction:
    """A value printed at `box` (page points, top-left origin) struck through by hand and
    `written` beside it; `damage` is a sampled `strike` damage (style, placement, ink)."""

    box: tuple[float, float, float, float]
    struck: str
    written: str
    damage: Damage
    initials: str | None = None


@dataclass(frozen=True)
class ScanSettings:
    """How one page is scanned. `skew` in degrees (anticlockwise positive, |skew| <= 5), `turn`
    in degrees anticlockwise (0, 90, 180, 270). `damages`: stamps and pen marks (their
    `params["region"]`, if any, in page points) are drawn on the paper, fax and jpeg applied
    after scanning, in the order given; a `bitonal` damage sets the final threshold. A pen mark's
    `params["target"]` (page points) is the box it circles or points at."""

    dpi: int = 150
    mode: str = "bitonal"
    skew: float = 0.0
    turn: int = 0
    paper: int = 255
    ink: int = 0
    blur: float = 0.0
    noise: float = 0.0
    threshold: int = 160
    dither: bool = False
    quality: int = 35
    damages: tuple[Damage, ...] = ()

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {self.mode!r}")
        if not 72 <= self.dpi <= 300:
            raise ValueError(f"dpi must be within 72..300, got {self.dpi}")
        if abs(self.skew) > 5:
            raise ValueError(f"skew must be within 5 degrees, got {self.skew}")
        if self.turn not in TURNS:
            raise ValueError(f"turn must be one of {TURNS}, got {self.turn}")
        if not 0 <= self.ink < self.paper <= 255:
            raise ValueError("need 0 <= ink < paper <= 255")
        if not 1 <= self.quality <= 95:
            raise ValueError(f"quality must be within 1..95, got {self.quality}")
        for damage in self.damages:
            if damage.kind == "strike":
                raise ValueError("damages: a strike needs a box; pass it as a Correction")


def sample_scan_settings(
    rng: random.Random,
    *,
    mode: str | None = None,
    skew: tuple[float, float] = (2.0, 5.0),
    dpi: int | None = None,
    turn_chance: float = 0.1,
    stamp_chance: float = 0.35,
    pen_chance: float = 0.3,
    fax_chance: float = 0.2,
    jpeg_chance: float = 0.3,
    stamp_date: str | None = None,
) -> ScanSettings:
    """A plausible office scan: bitonal or grayscale, skew of `skew` degrees either way, now and
    then a page fed turned, a stamp (dated with `stamp_date` if given), a pen mark, fax or JPEG
    damage. Draws a fixed sequence from `rng` whatever the outcome, so one page's settings never
    shift the next page's."""
    low, high = skew
    if not 0 <= low <= high <= 5:
        raise ValueError(f"skew must be a range within 0..5 degrees, got {skew}")
    chosen_mode = rng.choice(MODES)
    magnitude = rng.uniform(low, high)
    sign = rng.choice((-1, 1))
    turned = rng.random() < turn_chance
    turn = rng.choice((90, 180, 270))
    draws = [rng.random() for _ in range(4)]
    stamp = sample_damage(rng, "stamp", date=stamp_date)
    pen = sample_damage(rng, "handwriting")
    fax = sample_damage(rng, "fax")
    jpeg = sample_damage(rng, "jpeg")
    tone = sample_damage(rng, "bitonal")
    mode = mode or chosen_mode
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    paper = rng.randint(232, 250)
    ink = rng.randint(10, 60)
    # A grayscale scan is soft (optics) and strongly compressed: that is what keeps a page
    # near 60-90 KB; a bitonal one is sharp.
    blur = rng.choice((0.6, 0.8)) if mode == "gray" else rng.choice((0.0, 0.5))
    quality = rng.randint(18, 28)
    grey_dpi = rng.choice((120, 135))
    damages: list[Damage] = []
    if draws[0] < stamp_chance:
        damages.append(stamp)
    if draws[1] < pen_chance:
        damages.append(pen)
    if draws[2] < fax_chance and mode == "bitonal":
        damages.append(fax)
    if draws[3] < jpeg_chance:
        damages.append(jpeg)
    return ScanSettings(
        dpi=dpi or (150 if mode == "bitonal" else grey_dpi),
        mode=mode,
        skew=sign * magnitude,
        turn=turn if turned else 0,
        paper=paper,
        ink=ink,
        blur=blur,
        threshold=int(tone.get("threshold")),  # type: ignore[arg-type]
        dither=False,
        quality=quality,
        damages=tuple(damages),
    )


@dataclass(frozen=True)
class ScannedImage:
    """One scanned page: the final image ('1' for bitonal, 'L' for gray), where clean page points
    land in it (`transform`), what was drawn on it (`marks`, in final pixels), its encoded
    stream and the sheet size in points it fills."""

    image: Image.Image
    transform: Affine
    marks: tuple[Mark, ...]
    settings: ScanSettings
    encoded: bytes = field(repr=False)

    @property
    def sheet(self) -> tuple[float, float]:
        w, h = self.image.size
        return w * 72 / self.settings.dpi, h * 72 / self.settings.dpi

    def carry_box(self, box: Sequence[float]) -> tuple[int, int, int, int]:
        """A box of the clean page (points, top-left origin) in pixels of the scan, clipped."""
        return self.transform.carry_box(box, self.image.size)


def _tone(paper: int, ink: int) -> list[int]:
    # Integer interpolation: 0 -> ink, 255 -> paper, exact everywhere.
    return [ink + ((paper - ink) * v + 127) // 255 for v in range(256)]


def _turn(image: Image.Image, turn: int) -> tuple[Image.Image, Affine]:
    w, h = image.size
    if turn == 0:
        return image, IDENTITY
    if turn == 90:
        return image.transpose(Image.Transpose.ROTATE_90), Affine(0, 1, 0, -1, 0, w)
    if turn == 180:
        return image.transpose(Image.Transpose.ROTATE_180), Affine(-1, 0, w, 0, -1, h)
    return image.transpose(Image.Transpose.ROTATE_270), Affine(0, -1, h, 1, 0, 0)


def scan_image(
    clean: Image.Image,
    page_size: tuple[float, float],
    settings: ScanSettings,
    seed: int,
    *labels: str | int,
    corrections: Sequence[Correction] = (),
) -> ScannedImage:
    """Scan a rasterised page `clean` ('L') of `page_size` points with `settings`."""
    if clean.mode != "L":
        raise ValueError(f"clean: scan a grayscale ('L') page image, not {clean.mode!r}")
    w, h = clean.size
    to_pixels = Affine.scale(w / page_size[0], h / page_size[1])
    image = clean
    marks: list[Mark] = []
    for number, damage in enumerate(settings.damages):
        if damage.kind not in _ON_PAPER:
            continue
        region, target = damage.params.get("region"), damage.params.get("target")
        done = apply_damage(
            image,
            damage,
            seed,
            *labels,
            "paper",
            number,
            region=to_pixels.carry_box(region, clean.size) if region else None,  # type: ignore[arg-type]
            target=to_pixels.carry_box(target, clean.size) if target else None,  # type: ignore[arg-type]
        )
        image = done.image
        marks.extend(done.marks)
    for number, fix in enumerate(corrections):
        p = fix.damage.get
        done = strike_through(
            image,
            to_pixels.carry_box(fix.box, clean.size),
            fix.struck,
            fix.written,
            seed,
            *labels,
            "strike",
            number,
            style=str(p("style")),
            placement=str(p("placement")),
            initials=fix.initials,
            width=int(p("width")),  # type: ignore[arg-type]
            ink=int(p("ink")),  # type: ignore[arg-type]
            jitter=float(p("jitter")),  # type: ignore[arg-type]
        )
        image = done.image
        marks.extend(done.marks)

    transform = to_pixels
    if settings.skew:
        sin, cos = sin_cos_degrees(settings.skew)
        skew = Affine(1, 0, -w / 2, 0, 1, -h / 2).then(Affine(cos, sin, w / 2, -sin, cos, h / 2))
        image = warp(image, skew, (w, h), fill=255)
        transform = transform.then(skew)
        paper_to_scan = skew
    else:
        paper_to_scan = IDENTITY
    if settings.blur > 0:
        image = image.filter(ImageFilter.GaussianBlur(settings.blur))
    image = image.point(_tone(settings.paper, settings.ink))
    if settings.noise > 0:
        image = add_noise(image, settings.noise, seed, *labels, "noise")
    image, turned = _turn(image, settings.turn)
    transform = transform.then(turned)
    paper_to_scan = paper_to_scan.then(turned)
    threshold, dither = settings.threshold, settings.dither
    for number, damage in enumerate(settings.damages):
        if damage.kind in _IN_TRANSIT:
            done = apply_damage(image, damage, seed, *labels, "transit", number)
            image = done.image
            transform = transform.then(done.carry)
            paper_to_scan = paper_to_scan.then(done.carry)
        elif damage.kind == "bitonal":
            threshold = int(damage.get("threshold"))  # type: ignore[arg-type]
            dither = bool(damage.get("dither"))
    size = image.size
    marks = [Mark(m.kind, m.text, paper_to_scan.carry_box(m.box, size)) for m in marks]
    if settings.mode == "bitonal":
        final = bitonal(image, threshold, dither=dither)
        encoded = group4_stream(final)
    else:
        encoded = _jpeg(image, settings.quality)
        with Image.open(io.BytesIO(encoded)) as decoded:
            final = decoded.convert("L")
    return ScannedImage(final, transform, tuple(marks), settings, encoded)


def scan_pdf_page(
    pdf: bytes,
    index: int,
    page_size: tuple[float, float],
    settings: ScanSettings,
    seed: int,
    *labels: str | int,
    corrections: Sequence[Correction] = (),
) -> ScannedImage:
    """Rasterise page `index` (0-based) of `pdf`, whose size is `page_size` points, and scan it."""
    clean = rasterize(pdf, index, settings.dpi)
    return scan_image(clean, page_size, settings, seed, *labels, corrections=corrections)


# -- encoding and embedding ------------------------------------------------------------------------


def _jpeg(image: Image.Image, quality: int) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=quality, optimize=False, progressive=False)
    return buffer.getvalue()


def draw_scanned(canvas: Canvas, scanned: ScannedImage) -> None:
    """Make the canvas's current page the sheet of `scanned` and fill it with the image."""
    width, height = scanned.sheet
    canvas.setPageSize((width, height))
    if scanned.settings.mode == "gray":
        canvas.drawImage(ImageReader(io.BytesIO(scanned.encoded)), 0, 0, width=width, height=height)
        return
    draw_group4(canvas, scanned.encoded, scanned.image.size, width, height)


DrawPage = Callable[[Canvas, int], None]


def emit_document(
    draw_page: DrawPage,
    sizes: Sequence[tuple[float, float]],
    scanned: Mapping[int, ScannedImage],
    *,
    title: str,
    creator: str,
) -> bytes:
    """The PDF of `len(sizes)` pages: page i is `scanned[i]` if scanned, else `draw_page(canvas,
    i)` drawn on a sheet of `sizes[i]` points."""
    buffer = io.BytesIO()
    with binary_streams():
        canvas = new_canvas(buffer, title, creator)
        for index, size in enumerate(sizes):
            if index in scanned:
                draw_scanned(canvas, scanned[index])
            else:
                canvas.setPageSize(size)
                draw_page(canvas, index)
            canvas.showPage()
        canvas.save()
    return buffer.getvalue()


@dataclass(frozen=True)
class ScanResult:
    pdf: bytes
    clean_pdf: bytes = field(repr=False)
    pages: Mapping[int, ScannedImage] = field(default_factory=dict)


def scan_document(
    draw_page: DrawPage,
    sizes: Sequence[tuple[float, float]],
    scans: Mapping[int, ScanSettings],
    seed: int,
    *labels: str | int,
    corrections: Mapping[int, Sequence[Correction]] | None = None,
    title: str = "Report",
    creator: str = "EnviroBench synthetic document",
) -> ScanResult:
    """Draw a document, then scan the pages in `scans` (0-based index -> settings): the clean
    PDF is drawn, those pages rasterised and scanned, and the PDF drawn again with each scanned
    page replaced by its image. `draw_page(canvas, i)` draws page i on a sheet of `sizes[i]`
    points (it must draw the same thing both times: it is called twice)."""
    corrections = corrections or {}
    for index in (*scans, *corrections):
        if not 0 <= index < len(sizes):
            raise ValueError(f"scans: page index {index} outside 0..{len(sizes) - 1}")
    for index in corrections:
        if index not in scans:
            raise ValueError(f"corrections: page {index} is not scanned")
    clean = emit_document(draw_page, sizes, {}, title=title, creator=creator)
    pages = {
        index: scan_pdf_page(
            clean,
            index,
            sizes[index],
            settings,
            seed,
            *labels,
            "page",
            index,
            corrections=corrections.get(index, ()),
        )
        for index, settings in sorted(scans.items())
    }
    pdf = emit_document(draw_page, sizes, pages, title=title, creator=creator)
    return ScanResult(pdf, clean, pages)
