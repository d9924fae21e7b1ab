"""Deterministic scan degradation that keeps a table's geometry right.

`scan(table, params, seed)` turns a clean `RenderedTable` into what a flatbed scan of it might
look like: a small skew, optical blur, reduced contrast (grey paper, dark-grey ink), sensor
noise, then the scanner's own clean-up: background removal (light grey becomes white) and a
reduced number of grey levels, in that order. The clean-up is also what keeps the PNG small:
noise on blank paper would otherwise cost several bits per pixel.

It returns a new `RenderedTable` whose geometry holds for the new image:

- Bands are recomputed, not guessed: each row's (column's) text mask goes through the same
  rotation and blur as the image, and its band is the extent of every pixel it touches. A
  skewed row therefore gets a taller band (its text drifts by width x tan(angle) across the
  table), and a separator in the gap is a straight line that clears every row's text.
- Separators are carried along: the point where the separator crosses the middle of the table's
  text is mapped through the rotation, then kept inside its (narrowed) gap.
- Noise is left out of the bands: it belongs to no row. Clean-up may whiten the faintest edge
  of a glyph; the band still covers it (bands err on the side of content).

Skew narrows gaps. `max_skew_degrees` gives the largest angle that keeps every gap at least
`min_gap` pixels wide, and `scan` refuses (ValueError) a result whose gaps closed, so a generator
can never ship a wrong answer.

Reproducibility: only operations with exact, platform-independent results feed the pixels.
The angle's sine and cosine come from short Taylor series (+, *, / are correctly rounded in IEEE
754 everywhere; libm's sin and cos are not guaranteed to agree to the last bit across systems);
the noise is integer arithmetic on numpy's PCG64 raw stream, whose bits numpy guarantees.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from functools import cache

import numpy as np
from PIL import Image, ImageFilter

from .rng import make_bits, make_random
from .tables import AxisGeometry, Band, RenderedTable, TableGeometry

# Irwin-Hall: the sum of four uniform 16-bit integers is close to normal. Its mean and standard
# deviation (for uniforms on 0..65535: variance (65536**2 - 1) / 12 each) scale it to grey levels.
_NOISE_TERMS = 4
_NOISE_MEAN = _NOISE_TERMS * 65535 // 2  # 131070, exact
_NOISE_STD_MILLI = 37837227  # 1000 * sqrt(4 * (65536**2 - 1) / 12), rounded


@dataclass(frozen=True)
class ScanParams:
    """One scan. `angle` is in degrees, positive turning the page anticlockwise (Pillow's sense)."""

    angle: float = 0.0
    blur_radius: float = 0.0  # Gaussian blur radius (standard deviation) in pixels; 0 = sharp
    noise_sigma: float = 0.0  # standard deviation of the additive noise in grey levels
    paper: int = 255  # the grey level white paper comes out as
    ink: int = 0  # the grey level black ink comes out as
    background: int = 256  # grey levels from here up become white (256: no background removal)
    levels: int = 256  # grey levels the scanner delivers, evenly spaced from 0 to 255

    def __post_init__(self) -> None:
        if abs(self.angle) > 5:
            raise ValueError("skew beyond 5 degrees is not a scan of a table, it is a photo of one")
        if self.blur_radius < 0 or self.noise_sigma < 0:
            raise ValueError("blur_radius and noise_sigma must not be negative")
        if not 0 <= self.ink < self.paper <= 255:
            raise ValueError("need 0 <= ink < paper <= 255")
        if not self.ink < self.background <= 256:
            raise ValueError("background must lie between ink and 256")
        if not 2 <= self.levels <= 256:
            raise ValueError("levels must be between 2 and 256")


def sample_scan_params(rng: random.Random, *, max_angle: float = 1.0) -> ScanParams:
    """A plausible office scan: skew up to `max_angle` degrees either way, light blur and noise."""
    magnitude = rng.uniform(0.25, 1.0) * max_angle
    paper = rng.randint(234, 248)
    return ScanParams(
        angle=magnitude if rng.random() < 0.5 else -magnitude,
        blur_radius=rng.choice((0.0, 0.5, 0.7, 0.9)),
        noise_sigma=rng.choice((3.0, 4.0, 5.0, 6.0)),
        paper=paper,
        ink=rng.randint(15, 60),
        # About 2.5 standard deviations of noise below the paper: a few specks survive.
        background=paper - rng.randint(12, 16),
        levels=rng.choice((16, 32)),
    )


@cache
def blur_reach(radius: float) -> int:
    """How many pixels beyond its edge Pillow's Gaussian blur of `radius` can darken paper.

    Measured rather than estimated: blur a page that is black up to a straight edge (the most
    ink any pixel can have near it) and see how far the paper changed.
    """
    if radius <= 0:
        return 0
    half = math.ceil(4 * radius) + 4  # well past the blur's support
    page = np.full((1, 2 * half), 255, dtype=np.uint8)
    page[:, :half] = 0
    blurred = np.asarray(Image.fromarray(page).filter(ImageFilter.GaussianBlur(radius)))
    return int(np.flatnonzero(blurred[0] < 255)[-1]) - half + 1


def max_skew_degrees(
    geometry: TableGeometry, *, blur_radius: float = 0.0, min_gap: int = 2
) -> float:
    """The largest skew (degrees) after which every gap is still at least `min_gap` pixels wide.

    A row band of width W grows by W x tan(angle) when skewed (a column band of height H by
    H x tan(angle)), plus up to a pixel of resampling and the blur's reach on each side.
    """
    slopes = []
    for axis, across in ((geometry.rows, geometry.columns), (geometry.columns, geometry.rows)):
        # How far this axis's bands reach across the table: the length over which skew drifts.
        extent = across.bands[-1].end - across.bands[0].start
        for start, end in axis.gaps():
            room = (end - start) - min_gap - 2 * (1 + blur_reach(blur_radius))
            if room <= 0:
                return 0.0
            slopes.append(room / extent)
    if not slopes:
        return 5.0
    slope = min(slopes)
    # atan by its series (slope is small): deterministic, and an underestimate, which is safe.
    return min(5.0, (slope - slope**3 / 3) * 180 / math.pi)


def scan(table: RenderedTable, params: ScanParams, seed: int, *labels: str | int) -> RenderedTable:
    """A degraded copy of `table` with recomputed geometry; noise drawn from (seed, *labels)."""
    rotation = _Rotation.of(params.angle, table.image.size)
    image = _scanner(rotation.apply(table.image, fill=255), params, seed, *labels)

    rows = _carry_axis(table, "rows", rotation, params.blur_radius)
    columns = _carry_axis(table, "columns", rotation, params.blur_radius)
    geometry = TableGeometry(rows, columns)
    geometry.check()
    row_labels = _carry_labels(table.row_labels, rotation)
    column_labels = _carry_labels(table.column_labels, rotation)
    return RenderedTable(image, geometry, row_labels, column_labels)


def carry_box(
    box: tuple[int, int, int, int], angle: float, size: tuple[int, int]
) -> tuple[int, int, int, int]:
    """Where a box (x0, y0, x1, y1), half-open, of an image of `size` lies after `scan` skews the
    image by `angle` degrees: the smallest half-open pixel box holding the turned box, clipped to
    the scanned image. (Blur is not added: a box is a region, not ink.)"""
    rotation = _Rotation.of(angle, size)
    corners = [rotation.forward(x, y) for x in (box[0], box[2]) for y in (box[1], box[3])]
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    width, height = rotation.size_out
    return (
        max(0, math.floor(min(xs))),
        max(0, math.floor(min(ys))),
        min(width, math.ceil(max(xs))),
        min(height, math.ceil(max(ys))),
    )


def add_noise(image: Image.Image, sigma: float, seed: int, *labels: str | int) -> Image.Image:
    """Add approximately Gaussian noise of standard deviation `sigma` grey levels, clipped."""
    pixels = np.asarray(image, dtype=np.int64)
    raw = make_bits(seed, "noise", *labels).random_raw(pixels.size)
    total = sum(
        ((raw >> np.uint64(16 * k)) & np.uint64(0xFFFF)).astype(np.int64)
        for k in range(_NOISE_TERMS)
    )
    scale = round(sigma * 1000)
    # Round to nearest in integers: (2 * a * s + d) // (2 * d) for a / d * s.
    noise = (2 * (total - _NOISE_MEAN) * scale + _NOISE_STD_MILLI) // (2 * _NOISE_STD_MILLI)
    out = np.clip(pixels + noise.reshape(pixels.shape), 0, 255).astype(np.uint8)
    return Image.fromarray(out, mode="L")


def _contrast_table(paper: int, ink: int) -> list[int]:
    # Integer interpolation: 0 -> ink, 255 -> paper, exact on every machine.
    return [ink + ((paper - ink) * v + 127) // 255 for v in range(256)]


def _cleanup_table(background: int, levels: int) -> list[int]:
    steps = levels - 1
    # Round to the nearest of `levels` evenly spaced greys, in integers.
    quantized = [
        (((v * steps * 2 + 255) // 510) * 255 * 2 + steps) // (2 * steps) for v in range(256)
    ]
    return [255 if v >= background else quantized[v] for v in range(256)]


def _sin_cos_degrees(angle: float) -> tuple[float, float]:
    x = angle * math.pi / 180
    x2 = x * x
    # Taylor series to x**9 / x**8: for |x| <= 5 degrees the error is below 1e-15.
    sin = x * (1 - x2 / 6 * (1 - x2 / 20 * (1 - x2 / 42 * (1 - x2 / 72))))
    cos = 1 - x2 / 2 * (1 - x2 / 12 * (1 - x2 / 30 * (1 - x2 / 56)))
    return sin, cos


@dataclass(frozen=True)
class _Rotation:
    """A rotation about the image centre onto a canvas just large enough to hold every corner.

    Coordinates are continuous: pixel (i, j) covers [i, i+1) x [j, j+1), which is the convention
    of Pillow's affine transform (it samples the input at the transformed pixel centre).
    """

    sin: float
    cos: float
    size_in: tuple[int, int]
    size_out: tuple[int, int]

    @classmethod
    def of(cls, angle: float, size: tuple[int, int]) -> _Rotation:
        sin, cos = _sin_cos_degrees(angle)
        w, h = size
        size_out = (math.ceil(w * cos + h * abs(sin)), math.ceil(w * abs(sin) + h * cos))
        return cls(sin, cos, size, size_out)

    def forward(self, x: float, y: float) -> tuple[float, float]:
        """Where input point (x, y) lands. Anticlockwise on screen, where y points down."""
        (w, h), (w2, h2) = self.size_in, self.size_out
        dx, dy = x - w / 2, y - h / 2
        return w2 / 2 + self.cos * dx + self.sin * dy, h2 / 2 - self.sin * dx + self.cos * dy

    def apply(
        self, image: Image.Image, fill: int, resample: Image.Resampling = Image.Resampling.BILINEAR
    ) -> Image.Image:
        (w, h), (w2, h2) = self.size_in, self.size_out
        c, s = self.cos, self.sin
        # Pillow wants the inverse map (output -> input): the transpose of the forward rotation.
        data = (c, -s, w / 2 - c * w2 / 2 + s * h2 / 2, s, c, h / 2 - s * w2 / 2 - c * h2 / 2)
        return image.transform(
            self.size_out, Image.Transform.AFFINE, data, resample=resample, fillcolor=fill
        )


def _carry_axis(
    table: RenderedTable, axis: str, rotation: _Rotation, blur_radius: float
) -> AxisGeometry:
    old: AxisGeometry = getattr(table.geometry, axis)
    across: AxisGeometry = table.geometry.columns if axis == "rows" else table.geometry.rows
    labels = table.row_labels if axis == "rows" else table.column_labels
    along = 1 if axis == "rows" else 0  # the image axis (numpy order: y, x) the bands run along

    bands = []
    for index in range(len(old.bands)):
        # The mask is black text on white, like the page: Pillow's resampling rounds towards the
        # same side for both, so any pixel the text darkens in the image is darker in the mask.
        mask = Image.fromarray(np.where(labels == index + 1, 0, 255).astype(np.uint8), mode="L")
        mask = rotation.apply(mask, fill=255)
        if blur_radius > 0:
            mask = mask.filter(ImageFilter.GaussianBlur(blur_radius))
        touched = np.flatnonzero((np.asarray(mask) < 255).any(axis=along))
        bands.append(Band(int(touched[0]), int(touched[-1]) + 1))

    # Each separator is followed where it crosses the middle of the text on the other axis.
    middle = (across.bands[0].start + across.bands[-1].end) / 2
    separators = []
    for index, position in enumerate(old.separators):
        x, y = (middle, position + 0.5) if axis == "rows" else (position + 0.5, middle)
        moved = rotation.forward(x, y)[0 if axis == "columns" else 1]
        low, high = bands[index].end, bands[index + 1].start - 1
        separators.append(min(max(math.floor(moved), low), high))
    return AxisGeometry(tuple(bands), tuple(separators))


def _carry_labels(labels: np.ndarray, rotation: _Rotation) -> np.ndarray:
    # Nearest neighbour keeps label values labels. These follow the text for display only; the
    # bands above come from the resampled masks, which reach a pixel further.
    image = Image.fromarray(labels.astype(np.int32), mode="I")
    moved = rotation.apply(image, fill=0, resample=Image.Resampling.NEAREST)
    return np.asarray(moved, dtype=np.int16)


@dataclass(frozen=True)
class ScannedPage:
    """A whole page put through `scan_page`; `forward` maps a point of the clean image to the scan."""

    image: Image.Image
    rotation: _Rotation

    def forward(self, x: float, y: float) -> tuple[float, float]:
        return self.rotation.forward(x, y)


def scan_page(image: Image.Image, params: ScanParams, seed: int, *labels: str | int) -> ScannedPage:
    """A degraded copy of a whole grayscale page, the same steps and order as `scan`.

    Unlike `scan`, the canvas keeps the page's size, as a scanner's bed does: what the skew
    turns past an edge is lost (page margins), and paper fills the corners it turns in. There is
    no geometry to carry; `forward` tells where any point of the clean page went.
    """
    if image.mode != "L":
        raise ValueError(f"scan a grayscale ('L') page, not {image.mode!r}")
    sin, cos = _sin_cos_degrees(params.angle)
    rotation = _Rotation(sin, cos, image.size, image.size)
    scanned = _scanner(rotation.apply(image, fill=255), params, seed, *labels)
    return ScannedPage(scanned, rotation)


def black_and_white(scanned: Image.Image, params: ScanParams) -> Image.Image:
    """A scanned page kept as black and white, cut nearer the paper than the ink: thin strokes
    of small type survive, as on an office's or a recorder's scan."""
    threshold = params.ink + (params.paper - params.ink) * 2 // 3
    return scanned.point(lambda v, t=threshold: 0 if v < t else 255).convert("1")


def office_scan(
    image: Image.Image, seed: int, *labels: str | int, max_angle: float, heavier: bool = False
) -> tuple[ScannedPage, ScanParams]:
    """A clean grayscale page through an office scanner: the scan's settings drawn from
    make_random(seed, *labels) (`sample_scan_params`, skew up to `max_angle` degrees), its noise
    from (seed, *labels). `heavier` is a worse copy (a copy of a copy, a fax): 0.4 pixels more
    blur and 4 grey levels more noise than drawn."""
    params = sample_scan_params(make_random(seed, *labels), max_angle=max_angle)
    if heavier:
        params = replace(
            params, blur_radius=params.blur_radius + 0.4, noise_sigma=params.noise_sigma + 4
        )
    return scan_page(image, params, seed, *labels), params


def bitonal_office_scan(
    image: Image.Image, seed: int, *labels: str | int, max_angle: float, heavier: bool = False
) -> Image.Image:
    """`office_scan` kept as black and white (`black_and_white`): a site file's, a recorder's or
    a fax's copy."""
    scanned, params = office_scan(image, seed, *labels, max_angle=max_angle, heavier=heavier)
    return black_and_white(scanned.image, params)


def _scanner(image: Image.Image, params: ScanParams, seed: int, *labels: str | int) -> Image.Image:
    """What the scanner does to a turned image, after the turn: blur, paper and ink levels,
    noise drawn from (seed, *labels), then the cleanup of background and grey levels."""
    if params.blur_radius > 0:
        image = image.filter(ImageFilter.GaussianBlur(params.blur_radius))
    image = image.point(_contrast_table(params.paper, params.ink))
    if params.noise_sigma > 0:
        image = add_noise(image, params.noise_sigma, seed, *labels)
    return image.point(_cleanup_table(params.background, params.levels))
