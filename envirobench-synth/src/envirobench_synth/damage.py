"""Seeded, deterministic damage of page images: what copying, faxing and handling do to a report.

Every function takes a grayscale ('L') PIL image and returns a new image (the input is never
changed); the same image, parameters, seed and labels give identical bytes on every machine:

- randomness comes from `envirobench_synth.rng` streams named by (seed, *labels): `make_random`
  for positions and shapes, `make_bits` raw integers for per-pixel fields (ink gaps, dropped
  fax lines), never numpy's distributions;
- angles never go through libm: sines and cosines are short Taylor series (`sin_cos_degrees`),
  exact to the last bit wherever IEEE 754 is;
- everything else is Pillow (pinned by uv.lock, with its bundled FreeType, libjpeg and libtiff)
  and integer numpy arithmetic.

Kinds of damage (`DAMAGE_KINDS`), each sampled by `sample_damage(rng, kind)` and applied by
`apply_damage`:

- `bitonal`: thresholding to black and white, with or without Floyd-Steinberg dithering;
- `jpeg`: a JPEG round trip at a low quality (blocking and ringing around glyphs);
- `fax`: fax transmission: a horizontal stretch, every other scan line repeated (standard
  resolution), dropped scan lines and vertical streaks;
- `stamp`: a rubber stamp ("RECEIVED", "COPY", ... optionally with a date line), rotated,
  partially inked and partly transparent;
- `handwriting`: pen marks drawn as jittered polylines: initials, a check mark, a circle round a
  region, an arrow;
- `strike`: a value struck through with a handwritten correction beside it (`strike_through`).

Geometry: only `fax` moves pixels (its stretch); every `Damaged` carries an `Affine` from input
pixels to output pixels (the identity for the others), so a generator can carry its boxes.
Skew and page rotation belong to `scans.py`. Everything drawn on the page (stamps, pen marks,
struck values and corrections) is reported as a `Mark` with its text and ink box, so a generator
can state the truth ("the value printed 12 was struck and 21 written beside it").
"""

from __future__ import annotations

import io
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from PIL import Image, ImageDraw

from .fonts import font
from .rng import make_bits, make_random

Box = tuple[int, int, int, int]  # half-open pixel box (x0, y0, x1, y1)

DAMAGE_KINDS: tuple[str, ...] = ("bitonal", "jpeg", "fax", "stamp", "handwriting", "strike")
STAMP_WORDS: tuple[str, ...] = ("RECEIVED", "COPY", "FILE COPY", "ENTERED", "SCANNED", "REVIEWED")
PEN_MARKS: tuple[str, ...] = ("initials", "check", "circle", "arrow")
_INITIAL_LETTERS = "ABCDEFGHJKLMNPRSTW"


# -- geometry ------------------------------------------------------------------------------------


def sin_cos_degrees(angle: float) -> tuple[float, float]:
    """sin and cos of `angle` degrees by Taylor series: bit-identical everywhere (libm is not).

    Accurate to about 1e-16 up to 30 degrees, which is all a skew, a stamp or a pen turns.
    """
    if abs(angle) > 30:
        raise ValueError(f"angle must be within 30 degrees, got {angle}")
    x = angle * math.pi / 180
    x2 = x * x
    sin = 1 - x2 / 110 * (1 - x2 / 156 * (1 - x2 / 210))
    sin = x * (1 - x2 / 6 * (1 - x2 / 20 * (1 - x2 / 42 * (1 - x2 / 72 * sin))))
    cos = 1 - x2 / 90 * (1 - x2 / 132 * (1 - x2 / 182))
    cos = 1 - x2 / 2 * (1 - x2 / 12 * (1 - x2 / 30 * (1 - x2 / 56 * cos)))
    return sin, cos


def _rotate(vx: float, vy: float, sin: float, cos: float) -> tuple[float, float]:
    return vx * cos - vy * sin, vx * sin + vy * cos


@dataclass(frozen=True)
class Affine:
    """x' = a x + b y + c, y' = d x + e y + f: where a point goes (pixel or point coordinates,
    continuous: pixel (i, j) covers [i, i+1) x [j, j+1))."""

    a: float = 1.0
    b: float = 0.0
    c: float = 0.0
    d: float = 0.0
    e: float = 1.0
    f: float = 0.0

    @classmethod
    def scale(cls, sx: float, sy: float | None = None) -> Affine:
        return cls(sx, 0.0, 0.0, 0.0, sx if sy is None else sy, 0.0)

    def __call__(self, x: float, y: float) -> tuple[float, float]:
        return self.a * x + self.b * y + self.c, self.d * x + self.e * y + self.f

    def then(self, other: Affine) -> Affine:
        """This map followed by `other`."""
        o = other
        return Affine(
            o.a * self.a + o.b * self.d,
            o.a * self.b + o.b * self.e,
            o.a * self.c + o.b * self.f + o.c,
            o.d * self.a + o.e * self.d,
            o.d * self.b + o.e * self.e,
            o.d * self.c + o.e * self.f + o.f,
        )

    def inverse(self) -> Affine:
        det = self.a * self.e - self.b * self.d
        if det == 0:
            raise ValueError("a singular affine map has no inverse")
        a, b, d, e = self.e / det, -self.b / det, -self.d / det, self.a / det
        return Affine(a, b, -(a * self.c + b * self.f), d, e, -(d * self.c + e * self.f))

    def carry_box(
        self, box: Sequence[float], size: tuple[int, int] | None = None
    ) -> tuple[int, int, int, int]:
        """The smallest half-open integer box holding `box` (x0, y0, x1, y1) once mapped, clipped
        to an image of `size` when given."""
        corners = [self(x, y) for x in (box[0], box[2]) for y in (box[1], box[3])]
        xs, ys = [p[0] for p in corners], [p[1] for p in corners]
        x0, y0 = math.floor(min(xs)), math.floor(min(ys))
        x1, y1 = math.ceil(max(xs)), math.ceil(max(ys))
        if size is not None:
            x0, y0, x1, y1 = max(0, x0), max(0, y0), min(size[0], x1), min(size[1], y1)
        return x0, y0, x1, y1


IDENTITY = Affine()


def warp(
    image: Image.Image,
    forward: Affine,
    size: tuple[int, int],
    *,
    fill: int = 255,
    resample: Image.Resampling = Image.Resampling.BILINEAR,
) -> Image.Image:
    """`image` moved by `forward` (input -> output coordinates) onto a canvas of `size`."""
    inv = forward.inverse()
    # Pillow samples the input at inv(output pixel centre) - 0.5 offsets are in its convention.
    data = (inv.a, inv.b, inv.c, inv.d, inv.e, inv.f)
    return image.transform(size, Image.Transform.AFFINE, data, resample=resample, fillcolor=fill)


# -- records -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Damage:
    """One damage of `kind` with its parameters (as `sample_damage` draws them)."""

    kind: str
    params: Mapping[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.kind not in DAMAGE_KINDS:
            raise ValueError(f"kind: unknown damage {self.kind!r}; choose from {DAMAGE_KINDS}")

    def get(self, name: str) -> object:
        try:
            return self.params[name]
        except KeyError:
            raise ValueError(f"params: {self.kind} damage needs {name!r}") from None


@dataclass(frozen=True)
class Mark:
    """Something drawn on the page: `kind` (stamp, initials, check, circle, arrow, strike,
    correction), the text it shows ("" for a tick or a circle) and its ink box in pixels."""

    kind: str
    text: str
    box: Box


@dataclass(frozen=True)
class Damaged:
    """A damaged image; `carry` maps input pixels to output pixels; `marks` what was drawn."""

    image: Image.Image
    carry: Affine = IDENTITY
    marks: tuple[Mark, ...] = ()


def _check_gray(image: Image.Image) -> None:
    if image.mode != "L":
        raise ValueError(f"image: damage a grayscale ('L') image, not mode {image.mode!r}")


# -- sampling ------------------------------------------------------------------------------------


def sample_damage(rng: random.Random, kind: str, *, date: str | None = None) -> Damage:
    """Plausible parameters for one damage of `kind`. `date` (text as it should appear) makes a
    stamp a dated one ("RECEIVED" over "NOV 03 2025"); without it stamps carry a word only."""
    if kind == "bitonal":
        # Below ~150 the thin strokes of a typewriter face (Courier) break up and a page stops
        # being legible; above ~200 grey paper starts to turn black.
        return Damage(kind, {"threshold": rng.randint(150, 200), "dither": rng.random() < 0.2})
    if kind == "jpeg":
        return Damage(kind, {"quality": rng.choice((8, 12, 15, 20, 25, 30))})
    if kind == "fax":
        return Damage(
            kind,
            {
                "stretch": rng.choice((1.0, 1.01, 1.02, 1.03)),
                "halve_rows": rng.random() < 0.6,
                "drop_per_mille": rng.randint(2, 12),
                "streaks": rng.randint(0, 3),
            },
        )
    if kind == "stamp":
        words = "RECEIVED" if date is not None else rng.choice(STAMP_WORDS)
        return Damage(
            kind,
            {
                "lines": (words, date) if date is not None else (words,),
                "angle": rng.choice((-1, 1)) * rng.uniform(3.0, 12.0),
                "size": rng.randint(20, 30),
                "ink": rng.randint(30, 90),
                "opacity": rng.randint(650, 900),  # per mille
                "coverage": rng.randint(780, 950),  # per mille of the stamp's pixels that take ink
                "border": rng.choice(("box", "double", "none")),
            },
        )
    if kind == "handwriting":
        letters = "".join(rng.choice(_INITIAL_LETTERS) for _ in range(rng.choice((2, 2, 3))))
        return Damage(
            kind,
            {
                "mark": rng.choice(PEN_MARKS),
                "text": letters,
                "width": rng.choice((2, 2, 3)),
                "ink": rng.randint(20, 90),
                "jitter": rng.uniform(0.8, 2.0),
            },
        )
    if kind == "strike":
        return Damage(
            kind,
            {
                "style": rng.choice(("single", "single", "double", "scribble")),
                "placement": rng.choice(("right", "above")),
                "initials": rng.random() < 0.6,
                "width": rng.choice((2, 2, 3)),
                "ink": rng.randint(20, 80),
                "jitter": rng.uniform(0.6, 1.6),
            },
        )
    raise ValueError(f"kind: unknown damage {kind!r}; choose from {DAMAGE_KINDS}")


def apply_damage(
    image: Image.Image,
    damage: Damage,
    seed: int,
    *labels: str | int,
    region: Box | None = None,
    target: Box | None = None,
) -> Damaged:
    """Apply one sampled damage. `region` is where a stamp or pen mark may go (default: the page
    without a 5 % margin); `target` is the box a circle or an arrow points at (default: chosen
    inside `region`). `strike` needs a box and texts: call `strike_through`."""
    _check_gray(image)
    p = damage.get
    if damage.kind == "bitonal":
        binary = bitonal(image, int(p("threshold")), dither=bool(p("dither")))  # type: ignore[arg-type]
        return Damaged(binary.convert("L"))
    if damage.kind == "jpeg":
        return Damaged(jpeg_damage(image, int(p("quality"))))  # type: ignore[arg-type]
    if damage.kind == "fax":
        return fax_damage(
            image,
            seed,
            *labels,
            stretch=float(p("stretch")),  # type: ignore[arg-type]
            halve_rows=bool(p("halve_rows")),
            drop_per_mille=int(p("drop_per_mille")),  # type: ignore[arg-type]
            streaks=int(p("streaks")),  # type: ignore[arg-type]
        )
    region = region or _inner(image.size)
    if damage.kind == "stamp":
        return stamp(
            image,
            tuple(p("lines")),  # type: ignore[arg-type]
            seed,
            *labels,
            region=region,
            angle=float(p("angle")),  # type: ignore[arg-type]
            size=int(p("size")),  # type: ignore[arg-type]
            ink=int(p("ink")),  # type: ignore[arg-type]
            opacity=int(p("opacity")),  # type: ignore[arg-type]
            coverage=int(p("coverage")),  # type: ignore[arg-type]
            border=str(p("border")),
        )
    if damage.kind == "handwriting":
        return pen_mark(
            image,
            str(p("mark")),
            seed,
            *labels,
            region=region,
            target=target,
            text=str(p("text")),
            width=int(p("width")),  # type: ignore[arg-type]
            ink=int(p("ink")),  # type: ignore[arg-type]
            jitter=float(p("jitter")),  # type: ignore[arg-type]
        )
    raise ValueError("strike damage needs a box and texts: call strike_through")


def _inner(size: tuple[int, int]) -> Box:
    w, h = size
    return (w // 20, h // 20, w - w // 20, h - h // 20)


# -- tone and encoding damage --------------------------------------------------------------------


def bitonal(image: Image.Image, threshold: int = 128, *, dither: bool = False) -> Image.Image:
    """Black and white ('1'): grey levels below `threshold` become black; with `dither`, Floyd-
    Steinberg error diffusion around the same threshold (greys become dot patterns)."""
    _check_gray(image)
    if not 1 <= threshold <= 255:
        raise ValueError(f"threshold must be within 1..255, got {threshold}")
    if dither:
        # Shift the tones so that Pillow's fixed mid-grey threshold falls at `threshold`.
        shift = [min(255, max(0, v + 128 - threshold)) for v in range(256)]
        return image.point(shift).convert("1", dither=Image.Dither.FLOYDSTEINBERG)
    return image.point([0 if v < threshold else 255 for v in range(256)]).convert(
        "1", dither=Image.Dither.NONE
    )


def jpeg_damage(image: Image.Image, quality: int) -> Image.Image:
    """A JPEG round trip at `quality` (1..95; baseline, no optimisation: fixed settings give
    fixed bytes)."""
    _check_gray(image)
    if not 1 <= quality <= 95:
        raise ValueError(f"quality must be within 1..95, got {quality}")
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=quality, optimize=False, progressive=False)
    buffer.seek(0)
    with Image.open(buffer) as decoded:
        return decoded.convert("L")


def fax_damage(
    image: Image.Image,
    seed: int,
    *labels: str | int,
    stretch: float = 1.02,
    halve_rows: bool = True,
    drop_per_mille: int = 5,
    streaks: int = 1,
) -> Damaged:
    """What a fax does: stretch rows horizontally by `stretch` (content beyond the right edge is
    lost, as a fax's paper width is fixed), repeat every other scan line (standard resolution
    is half the vertical resolution), drop about `drop_per_mille` scan lines in a thousand
    (a dropped line is white) and draw `streaks` faint vertical streaks (a dirty scanner bar)."""
    _check_gray(image)
    if not 1.0 <= stretch <= 1.1:
        raise ValueError(f"stretch must be within 1.0..1.1, got {stretch}")
    if not 0 <= drop_per_mille <= 100 or streaks < 0:
        raise ValueError("drop_per_mille must be within 0..100 and streaks not negative")
    carry = Affine.scale(stretch, 1.0)
    out = warp(image, carry, image.size) if stretch != 1.0 else image.copy()
    pixels = np.array(out, dtype=np.uint8)
    if halve_rows:
        pixels[1::2] = pixels[0:-1:2][: pixels[1::2].shape[0]]
    raw = make_bits(seed, "fax-lines", *labels).random_raw(pixels.shape[0])
    dropped = (raw % np.uint64(1000)) < np.uint64(drop_per_mille)
    pixels[dropped] = 255
    rng = make_random(seed, "fax-streaks", *labels)
    width = pixels.shape[1]
    for _ in range(streaks):
        x = rng.randrange(width)
        thickness = rng.choice((1, 1, 2))
        grey = rng.randint(90, 170)
        column = pixels[:, x : x + thickness]
        np.minimum(column, grey, out=column)
    return Damaged(Image.fromarray(pixels, mode="L"), carry)


# -- ink on the paper ----------------------------------------------------------------------------


def _ink(
    image: Image.Image, alpha: np.ndarray, ink: int, origin: tuple[int, int]
) -> tuple[Image.Image, Box | None]:
    """Lay ink of grey `ink` with per-pixel opacity `alpha` (0..255, uint8 array) whose top-left
    corner sits at `origin`; clipped to the image. Returns the image and the inked box."""
    pixels = np.array(image, dtype=np.int32)
    h, w = pixels.shape
    ox, oy = origin
    x0, y0 = max(0, ox), max(0, oy)
    x1, y1 = min(w, ox + alpha.shape[1]), min(h, oy + alpha.shape[0])
    if x0 >= x1 or y0 >= y1:
        return image.copy(), None
    a = alpha[y0 - oy : y1 - oy, x0 - ox : x1 - ox].astype(np.int32)
    region = pixels[y0:y1, x0:x1]
    # Ink darkens: blend towards `ink` but never lighten what is already darker.
    blended = (region * (255 - a) + ink * a + 127) // 255
    pixels[y0:y1, x0:x1] = np.minimum(region, blended)
    ys, xs = np.nonzero(a)
    box = None
    if len(xs):
        box = (
            x0 + int(xs.min()),
            y0 + int(ys.min()),
            x0 + int(xs.max()) + 1,
            y0 + int(ys.max()) + 1,
        )
    return Image.fromarray(pixels.astype(np.uint8), mode="L"), box


def _turn(layer: Image.Image, angle: float) -> Image.Image:
    """`layer` (opacity, 0 = none) turned `angle` degrees anticlockwise onto a canvas that holds it."""
    sin, cos = sin_cos_degrees(angle)
    w, h = layer.size
    w2 = math.ceil(w * cos + h * abs(sin)) + 2
    h2 = math.ceil(w * abs(sin) + h * cos) + 2
    forward = Affine(1, 0, -w / 2, 0, 1, -h / 2).then(Affine(cos, sin, w2 / 2, -sin, cos, h2 / 2))
    return warp(layer, forward, (w2, h2), fill=0)


def _place(rng: random.Random, size: tuple[int, int], region: Box) -> tuple[int, int]:
    """A top-left corner that puts an object of `size` inside `region` (or as near as fits)."""
    x0, y0, x1, y1 = region
    return (
        rng.randint(x0, max(x0, x1 - size[0])),
        rng.randint(y0, max(y0, y1 - size[1])),
    )


def stamp(
    image: Image.Image,
    lines: Sequence[str],
    seed: int,
    *labels: str | int,
    region: Box | None = None,
    angle: float = 6.0,
    size: int = 24,
    ink: int = 70,
    opacity: int = 700,
    coverage: int = 880,
    border: str = "box",
) -> Damaged:
    """A rubber stamp of `lines` (first line large and bold, the rest smaller: a date line),
    turned `angle` degrees, placed at random inside `region`. Ink is grey `ink` at `opacity` per
    mille, and only about `coverage` per mille of its pixels take ink (a worn, unevenly inked
    stamp). `border`: "box", "double" or "none"."""
    _check_gray(image)
    if not lines or not all(lines):
        raise ValueError("lines: a stamp needs at least one non-empty line")
    if border not in ("box", "double", "none"):
        raise ValueError(f"border must be box, double or none, got {border!r}")
    if not (0 < opacity <= 1000 and 0 < coverage <= 1000):
        raise ValueError("opacity and coverage are per mille, within 1..1000")
    fonts = [font(size, "bold")] + [font(max(10, size * 2 // 3), "bold")] * (len(lines) - 1)
    boxes = [f.getbbox(text) for f, text in zip(fonts, lines, strict=True)]
    pad = max(6, size // 3)
    width = max(b[2] for b in boxes) + 2 * pad
    heights = [b[3] for b in boxes]
    height = sum(heights) + pad * (len(lines) + 1)
    layer = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(layer)
    y = pad
    for f, text, b, line_h in zip(fonts, lines, boxes, heights, strict=True):
        draw.text(((width - b[2]) // 2, y), text, fill=255, font=f)
        y += line_h + pad
    if border != "none":
        draw.rectangle((0, 0, width - 1, height - 1), outline=255, width=max(2, size // 10))
        if border == "double":
            inset = max(4, size // 6)
            draw.rectangle(
                (inset, inset, width - 1 - inset, height - 1 - inset), outline=255, width=1
            )
    turned = np.asarray(_turn(layer, angle), dtype=np.int32)
    gaps = make_bits(seed, "stamp-ink", *labels).random_raw(turned.size) % np.uint64(1000)
    inked = gaps.reshape(turned.shape) < np.uint64(coverage)
    alpha = np.where(inked, turned * opacity // 1000, 0).astype(np.uint8)
    rng = make_random(seed, "stamp-place", *labels)
    origin = _place(rng, (alpha.shape[1], alpha.shape[0]), region or _inner(image.size))
    out, box = _ink(image, alpha, ink, origin)
    marks = (Mark("stamp", "\n".join(lines), box),) if box else ()
    return Damaged(out, IDENTITY, marks)


def _jittered(
    rng: random.Random, points: Sequence[tuple[float, float]], jitter: float, step: float = 6.0
) -> list[tuple[float, float]]:
    """The polyline through `points`, resampled every `step` pixels, each vertex moved by up to
    `jitter` pixels with a drift that wanders (a hand, not white noise)."""
    out: list[tuple[float, float]] = []
    dx = dy = 0.0
    for (xa, ya), (xb, yb) in zip(points, points[1:], strict=False):
        n = max(1, math.ceil(math.sqrt((xb - xa) ** 2 + (yb - ya) ** 2) / step))
        for i in range(n):
            t = i / n
            dx = 0.6 * dx + rng.uniform(-jitter, jitter)
            dy = 0.6 * dy + rng.uniform(-jitter, jitter)
            out.append((xa + (xb - xa) * t + dx, ya + (yb - ya) * t + dy))
    out.append((points[-1][0] + dx, points[-1][1] + dy))
    return out


def _stroke_box(
    strokes: Sequence[Sequence[tuple[float, float]]], width: int, size: tuple[int, int]
) -> Box:
    xs = [x for s in strokes for x, _ in s]
    ys = [y for s in strokes for _, y in s]
    reach = width / 2 + 1
    return (
        max(0, math.floor(min(xs) - reach)),
        max(0, math.floor(min(ys) - reach)),
        min(size[0], math.ceil(max(xs) + reach)),
        min(size[1], math.ceil(max(ys) + reach)),
    )


def _draw_strokes(
    image: Image.Image, strokes: Sequence[Sequence[tuple[float, float]]], width: int, ink: int
) -> Image.Image:
    out = image.copy()
    draw = ImageDraw.Draw(out)
    for stroke in strokes:
        draw.line(list(stroke), fill=ink, width=width, joint="curve")
    return out


def _handwritten_text(
    image: Image.Image,
    text: str,
    at: tuple[int, int],
    rng: random.Random,
    *,
    height: int,
    ink: int,
) -> tuple[Image.Image, Box | None]:
    """`text` in italic, slightly turned and unevenly sized, its top-left corner near `at`:
    handwriting as far as a bundled font can fake it."""
    f = font(max(8, height), rng.choice(("italic", "bold-italic")))
    b = f.getbbox(text)
    layer = Image.new("L", (b[2] + 4, b[3] + 4), 0)
    ImageDraw.Draw(layer).text((2, 2), text, fill=255, font=f)
    turned = np.asarray(_turn(layer, rng.uniform(-8.0, 8.0)), dtype=np.uint8)
    return _ink(image, turned, ink, at)


def pen_mark(
    image: Image.Image,
    mark: str,
    seed: int,
    *labels: str | int,
    region: Box | None = None,
    target: Box | None = None,
    text: str = "JM",
    width: int = 2,
    ink: int = 40,
    jitter: float = 1.2,
) -> Damaged:
    """A pen mark of kind `mark` inside `region`: `initials` (`text`, with a flourish under it),
    `check` (a tick), `circle` (a loop round `target`, a value's box) or `arrow` (pointing at
    `target` from its left). Without a `target`, a value-sized box inside `region` is chosen."""
    _check_gray(image)
    if mark not in PEN_MARKS:
        raise ValueError(f"mark: unknown pen mark {mark!r}; choose from {PEN_MARKS}")
    if width < 1:
        raise ValueError(f"width must be at least 1 pixel, got {width}")
    region = region or _inner(image.size)
    rng = make_random(seed, "pen", mark, *labels)
    if target is None:
        size = (rng.randint(40, 90), rng.randint(14, 22))
        corner = _place(rng, size, region)
        target = (corner[0], corner[1], corner[0] + size[0], corner[1] + size[1])
    x0, y0, x1, y1 = target
    if mark == "initials":
        height = rng.randint(22, 34)
        at = _place(rng, (height * max(1, len(text)), height * 2), region)
        out, box = _handwritten_text(image, text, at, rng, height=height, ink=ink)
        if box is None:
            return Damaged(image.copy())
        under = [
            (box[0] - 2, box[3] + 3),
            ((box[0] + box[2]) / 2, box[3] + 6),
            (box[2] + 6, box[3]),
        ]
        stroke = _jittered(rng, under, jitter)
        out = _draw_strokes(out, [stroke], width, ink)
        sbox = _stroke_box([stroke], width, image.size)
        box = (
            min(box[0], sbox[0]),
            min(box[1], sbox[1]),
            max(box[2], sbox[2]),
            max(box[3], sbox[3]),
        )
        return Damaged(out, IDENTITY, (Mark("initials", text, box),))
    if mark == "check":
        size = rng.randint(18, 30)
        x, y = _place(rng, (size, size), region)
        shape = [(x, y + size * 0.55), (x + size * 0.35, y + size), (x + size, y)]
        strokes = [_jittered(rng, shape, jitter * 0.6, step=4.0)]
    elif mark == "circle":
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        rx, ry = (x1 - x0) / 2 + 6, (y1 - y0) / 2 + 5
        n = 48
        # A hand-drawn loop overshoots where it began; it turns by repeated small rotations
        # (basic arithmetic only, so the points are the same everywhere).
        sin, cos = sin_cos_degrees(360 * rng.uniform(1.05, 1.2) / n)
        vx, vy = 1.0, 0.0
        for _ in range(rng.randrange(n)):  # where the pen starts
            vx, vy = _rotate(vx, vy, sin, cos)
        shape = []
        for i in range(n + 1):
            grow = 1 + 0.06 * i / n  # the loop drifts outwards a little as it goes round
            shape.append((cx + rx * grow * vx, cy + ry * grow * vy))
            vx, vy = _rotate(vx, vy, sin, cos)
        strokes = [_jittered(rng, shape, jitter * 0.5, step=5.0)]
    else:  # arrow
        length = rng.randint(50, 110)
        tip = (x0 - 4, (y0 + y1) / 2)
        tail = (tip[0] - length, tip[1] + rng.uniform(-length / 3, length / 3))
        dx, dy = tail[0] - tip[0], tail[1] - tip[1]
        norm = math.sqrt(dx * dx + dy * dy)
        head = 12 / norm
        sin, cos = sin_cos_degrees(28.0)
        lx, ly = _rotate(dx * head, dy * head, sin, cos)
        rx_, ry_ = _rotate(dx * head, dy * head, -sin, cos)
        left, right = (tip[0] + lx, tip[1] + ly), (tip[0] + rx_, tip[1] + ry_)
        strokes = [
            _jittered(rng, [tail, tip], jitter),
            _jittered(rng, [left, tip, right], jitter * 0.5, step=4.0),
        ]
    out = _draw_strokes(image, strokes, width, ink)
    return Damaged(out, IDENTITY, (Mark(mark, "", _stroke_box(strokes, width, image.size)),))


def strike_through(
    image: Image.Image,
    box: Box,
    struck: str,
    correction: str,
    seed: int,
    *labels: str | int,
    style: str = "single",
    placement: str = "right",
    initials: str | None = None,
    width: int = 2,
    ink: int = 40,
    jitter: float = 1.0,
) -> Damaged:
    """Strike through `box` (where `struck` is printed) by hand and write `correction` beside it
    (`placement` "right" or "above"), optionally initialled. `style`: "single" line, "double"
    line or "scribble". The marks returned are ("strike", struck, box of the stroke),
    ("correction", correction, box of its ink) and, if initialled, ("initials", ...)."""
    _check_gray(image)
    if style not in ("single", "double", "scribble"):
        raise ValueError(f"style must be single, double or scribble, got {style!r}")
    if placement not in ("right", "above"):
        raise ValueError(f"placement must be right or above, got {placement!r}")
    if not correction:
        raise ValueError("correction: a strike-through needs the value written instead")
    x0, y0, x1, y1 = box
    if not (x0 < x1 and y0 < y1):
        raise ValueError(f"box must have x0 < x1 and y0 < y1, got {box}")
    rng = make_random(seed, "strike", *labels)
    mid = (y0 + y1) / 2
    h = y1 - y0
    if style == "single":
        shapes = [[(x0 - 3, mid + rng.uniform(-1, 1)), (x1 + 3, mid + rng.uniform(-2, 2))]]
    elif style == "double":
        shapes = [
            [(x0 - 3, mid - h * 0.15), (x1 + 3, mid - h * 0.15 + rng.uniform(-1, 1))],
            [(x0 - 3, mid + h * 0.15), (x1 + 3, mid + h * 0.15 + rng.uniform(-1, 1))],
        ]
    else:
        zig = []
        n = max(3, round((x1 - x0) / max(4, h / 2)))
        for i in range(n + 1):
            zig.append((x0 - 2 + (x1 - x0 + 4) * i / n, y0 + 1 if i % 2 == 0 else y1 - 1))
        shapes = [zig]
    strokes = [_jittered(rng, s, jitter * 0.5, step=5.0) for s in shapes]
    out = _draw_strokes(image, strokes, width, ink)
    marks = [Mark("strike", struck, _stroke_box(strokes, width, image.size))]
    height = max(12, round(h * rng.uniform(1.0, 1.3)))
    if placement == "right":
        at = (x1 + rng.randint(6, 14), y0 - round(h * 0.2))
    else:
        at = (x0 + rng.randint(-4, 8), y0 - height - rng.randint(4, 10))
    out, written = _handwritten_text(out, correction, at, rng, height=height, ink=ink)
    if written is None:
        raise ValueError(f"box {box}: no room on the page to write the correction")
    marks.append(Mark("correction", correction, written))
    if initials:
        at = (written[2] + rng.randint(4, 10), written[1] + rng.randint(0, 6))
        out, ibox = _handwritten_text(
            out, initials, at, rng, height=max(10, height * 3 // 4), ink=ink
        )
        if ibox is not None:
            marks.append(Mark("initials", initials, ibox))
    return Damaged(out, IDENTITY, tuple(marks))
