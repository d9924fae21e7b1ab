"""What the v2 grid-table datasets do to a clean table: compact images, and scans.

`clean_finish` and `compact_png` keep a clean table in four grey levels (2 bits a pixel).
`damage_grid` (table-structure, table-cells) and `damage_separators` (table-separators) put a
clean table on a wider sheet, mark it with `envirobench_synth.damage` (a stamp, a pen mark, a
value struck through with its correction in the margin) and scan it at 2-5 degrees of skew, then
finish it as one of SCAN_KINDS; the truth rules under damage are in `grid_families`' docstring.
Kept apart from the families, which decide what a table holds: this module only decides what
happens to its pixels, and carries every box and band through it.
"""

from __future__ import annotations

import dataclasses
import io
import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from envirobench_synth import damage, degrade, tables

from .grid_tables import _as_rendered_table

SCAN_KINDS = ("bitonal", "grayscale", "jpeg", "fax")


# -- compact images --------------------------------------------------------------------------------


def clean_finish(image: Image.Image, style: tables.TableStyle) -> Image.Image:
    """A clean table in four grey levels: ink, a mid grey for the edges of glyphs, the table's
    fill (shading or header fill; else a light grey) and paper, so the PNG needs 2 bits a pixel."""
    fill = style.shade if style.zebra else style.header_fill
    return image.point(_quantiser((0, 102, fill if fill is not None else 187, 255)))


def _quantiser(levels: tuple[int, ...]) -> list[int]:
    return [min(levels, key=lambda level: (abs(level - v), level)) for v in range(256)]


_LEVELS_4 = _quantiser((0, 85, 170, 255))


def compact_png(image: Image.Image) -> bytes:
    """Byte-deterministic PNG bytes with no metadata chunks: a 1-bit image as 1-bit; a grayscale
    image of at most 16 grey levels with a palette of its greys in ascending order (1, 2 or 4
    bits a pixel); anything else as 8-bit grayscale."""
    buffer = io.BytesIO()
    if image.mode == "1":
        image.save(buffer, format="PNG", optimize=True)
        return buffer.getvalue()
    if image.mode != "L":
        raise ValueError(f"write grayscale ('L') or 1-bit ('1') images, not {image.mode!r}")
    pixels = np.asarray(image)
    greys = np.unique(pixels)
    if len(greys) > 16:
        clean = image.copy()
        clean.info = {}
        clean.save(buffer, format="PNG", optimize=True)
        return buffer.getvalue()
    bits = next(b for b in (1, 2, 4) if len(greys) <= 1 << b)
    indices = np.searchsorted(greys, pixels).astype(np.uint8)
    indexed = Image.frombytes("P", image.size, indices.tobytes())
    indexed.putpalette([int(g) for grey in greys for g in (grey,) * 3])
    indexed.save(buffer, format="PNG", optimize=True, bits=bits)
    return buffer.getvalue()


def write_compact_png(path: Path, image: Image.Image) -> int:
    data = compact_png(image)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return len(data)


# -- scans -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Marks:
    """What is done to the paper before it is scanned (envirobench_synth.damage draws it)."""

    stamp: bool
    pen: str | None  # a pen mark of damage.PEN_MARKS, or none
    strike: bool  # a number of the last column struck through, its correction in the margin


def sample_marks(rng: random.Random, *, pens: tuple[str, ...] = damage.PEN_MARKS) -> Marks:
    return Marks(
        stamp=rng.random() < 0.45,
        pen=rng.choice(pens) if rng.random() < 0.55 else None,
        strike=rng.random() < 0.3,
    )


def _margins(rng: random.Random, marks: Marks) -> tuple[int, int, int, int]:
    """Paper around the table (left, top, right, bottom): room for initials above or below and
    for a correction written to the right of the last column."""
    right = rng.randint(70, 90) if marks.strike else rng.randint(24, 40)
    return rng.randint(10, 30), rng.randint(36, 56), right, rng.randint(36, 56)


def _correction(rng: random.Random, printed: str) -> str:
    """The value a hand writes beside a struck one: the printed number with its last digit
    changed (a transcription corrected)."""
    last = max(i for i, ch in enumerate(printed) if ch.isdigit())
    digit = rng.choice([d for d in "0123456789" if d != printed[last]])
    return printed[:last] + digit + printed[last + 1 :]


def strikable_text(text: str) -> bool:
    """Whether a cell holds a plain number, the kind of value a reviewer corrects by hand."""
    return (
        bool(text)
        and any(ch.isdigit() for ch in text)
        and all(ch.isdigit() or ch in ".," for ch in text)
    )


def mark_paper(
    sheet: Image.Image,
    rng: random.Random,
    seed: int,
    case_id: str,
    marks: Marks,
    table_box: tuple[int, int, int, int],
    targets: list[tuple[int, int, int, int]],
    strikable: list[tuple[tuple[int, int, int, int], str]],
) -> Image.Image:
    """`sheet` stamped, marked by pen and struck as `marks` says. `table_box` is where the table
    lies on the sheet, `targets` the ink boxes of body cells a circle or an arrow may point at,
    `strikable` (ink box, text) of the last column's body cells."""
    x0, y0, x1, y1 = table_box
    width, height = sheet.size
    if marks.stamp:
        stamp = damage.sample_damage(rng, "stamp")
        sheet = damage.apply_damage(
            sheet, stamp, seed, case_id, "stamp", region=(x0, max(0, y0 - 30), x1, y1)
        ).image
    if marks.pen is not None:
        pen = damage.sample_damage(rng, "handwriting")
        pen = damage.Damage("handwriting", {**pen.params, "mark": marks.pen})
        if marks.pen == "initials":  # in the top or bottom margin (or as near as fits)
            region = (x0, 0, x1, y0) if rng.random() < 0.5 else (x0, y1, x1, height)
        elif marks.pen == "check":
            region = (x1, y0, width, y1)
        else:
            region = (0, y0, width, y1)
        target = rng.choice(targets) if targets and marks.pen in ("circle", "arrow") else None
        sheet = damage.apply_damage(
            sheet, pen, seed, case_id, "pen", region=region, target=target
        ).image
    if marks.strike and strikable:
        box, text = rng.choice(strikable)
        strike = damage.sample_damage(rng, "strike")
        params = dict(strike.params)
        sheet = damage.strike_through(
            sheet,
            box,
            text,
            _correction(rng, text),
            seed,
            case_id,
            "strike",
            style=str(params["style"]),
            placement="right",
            initials=None,
            width=int(params["width"]),  # type: ignore[call-overload]
            ink=int(params["ink"]),  # type: ignore[call-overload]
            jitter=float(params["jitter"]),  # type: ignore[arg-type]
        ).image
    return sheet


def sample_scan(rng: random.Random) -> degrade.ScanParams:
    """A scan skewed 2-5 degrees either way."""
    magnitude = rng.uniform(2.0, 5.0)
    paper = rng.randint(232, 248)
    return degrade.ScanParams(
        angle=magnitude if rng.random() < 0.5 else -magnitude,
        blur_radius=rng.choice((0.0, 0.0, 0.5)),
        noise_sigma=rng.choice((2.0, 3.0, 4.0)),
        paper=paper,
        ink=rng.randint(10, 50),
        background=paper - rng.randint(12, 16),
        levels=16,
    )


def finish_scan(
    image: Image.Image,
    kind: str,
    rng: random.Random,
    seed: int,
    case_id: str,
    *,
    streaks: bool = True,
) -> Image.Image:
    """The scanner's (or fax machine's) output of a scanned grey image. A fax here keeps the
    page's width (no stretch) and halves the vertical resolution, so nothing moves sideways and
    text moves down by at most one line."""
    if kind == "bitonal":
        return damage.bitonal(image, rng.randint(130, 175))
    if kind == "grayscale":
        return image.point(_LEVELS_4)  # the scanner stores four grey levels
    if kind == "jpeg":
        damaged = damage.jpeg_damage(image, rng.choice((12, 15, 20, 25)))
        background = rng.randint(222, 236)  # the artefacts on blank paper are cleaned away
        return damaged.point([255 if v >= background else _LEVELS_4[v] for v in range(256)])
    if kind == "fax":
        faxed = damage.fax_damage(
            image,
            seed,
            case_id,
            stretch=1.0,
            halve_rows=True,
            drop_per_mille=rng.randint(2, 12),
            streaks=rng.randint(0, 2) if streaks else 0,
        )
        return damage.bitonal(faxed.image, rng.randint(140, 185))
    raise ValueError(f"unknown scan kind {kind!r}; choose from {', '.join(SCAN_KINDS)}")


def damage_grid(
    rendered: tables.RenderedGrid,
    boxes: tuple[tuple[int, int, int, int], ...],
    rng: random.Random,
    seed: int,
    case_id: str,
    kind: str,
) -> tuple[Image.Image, tuple[tuple[int, int, int, int], ...]]:
    """Mark, scan and finish a drawn grid; the cell boxes carried into the scanned image."""
    marks = sample_marks(rng)
    left, top, right, bottom = _margins(rng, marks)
    width, height = rendered.image.size
    sheet = Image.new("L", (width + left + right, height + top + bottom), 255)
    sheet.paste(rendered.image, (left, top))
    ink = np.zeros((sheet.height, sheet.width), dtype=bool)
    ink[top : top + height, left : left + width] = rendered.ink
    last = max(d.cell.column + d.cell.column_span for d in rendered.cells) - 1
    targets, strikable = [], []
    for d in rendered.cells:
        if d.ink is None or d.cell.row_span > 1 or d.cell.column_span > 1 or d.cell.row == 0:
            continue
        box = (d.ink[0] + left, d.ink[1] + top, d.ink[2] + left, d.ink[3] + top)
        targets.append(box)
        if d.cell.column == last and strikable_text(d.cell.text):
            strikable.append((box, d.cell.text))
    sheet = mark_paper(
        sheet,
        rng,
        seed,
        case_id,
        marks,
        (left, top, left + width, top + height),
        targets,
        strikable,
    )
    params = sample_scan(rng)
    shifted = _as_rendered_table(tables.RenderedGrid(sheet, (), (), (), ink))
    scanned = degrade.scan(shifted, params, seed, "scan", case_id)
    carried = tuple(
        degrade.carry_box(
            (b[0] + left, b[1] + top, b[2] + left, b[3] + top), params.angle, sheet.size
        )
        for b in boxes
    )
    return finish_scan(scanned.image, kind, rng, seed, case_id), carried


# -- scans of the separators' flat tables -----------------------------------------------------


def _shift(axis: tables.AxisGeometry, by: int) -> tables.AxisGeometry:
    return tables.AxisGeometry(
        tuple(tables.Band(b.start + by, b.end + by) for b in axis.bands),
        tuple(s + by for s in axis.separators),
    )


def damage_separators(
    rendered: tables.RenderedTable,
    texts: list[list[str]],
    rng: random.Random,
    seed: int,
    case_id: str,
    kind: str,
) -> tables.RenderedTable:
    """Mark, scan and finish a flat table. The skew is the largest (up to 5 degrees) that keeps
    every gap open; bands are recomputed by `degrade.scan` and widened for the fax's line pairs."""
    # Pen marks stay off the table (a circle or an arrow would reach into the gaps between
    # columns): initials in a margin, a tick beside it.
    marks = sample_marks(rng, pens=("initials", "check"))
    left, top, right, bottom = _margins(rng, marks)
    width, height = rendered.image.size
    sheet = Image.new("L", (width + left + right, height + top + bottom), 255)
    sheet.paste(rendered.image, (left, top))
    pad = ((top, bottom), (left, right))
    row_labels = np.pad(rendered.row_labels, pad)
    column_labels = np.pad(rendered.column_labels, pad)
    geometry = tables.TableGeometry(
        _shift(rendered.geometry.rows, top), _shift(rendered.geometry.columns, left)
    )
    last = len(geometry.columns.bands) - 1
    targets, strikable = [], []
    for r in range(1, len(geometry.rows.bands)):
        for c in range(len(geometry.columns.bands)):
            ys, xs = np.nonzero((row_labels == r + 1) & (column_labels == c + 1))
            if len(ys):
                box = (int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1)
                targets.append(box)
                if c == last and strikable_text(texts[r][c]):
                    strikable.append((box, texts[r][c]))
    sheet = mark_paper(
        sheet, rng, seed, case_id, marks, (left, top, left + width, top + height), [], strikable
    )
    table = tables.RenderedTable(sheet, geometry, row_labels, column_labels)
    params = sample_scan(rng)
    safe = degrade.max_skew_degrees(geometry, blur_radius=params.blur_radius, min_gap=4)
    params = dataclasses.replace(params, angle=max(-safe, min(safe, params.angle)))
    scanned = degrade.scan(table, params, seed, "scan", case_id)
    image = finish_scan(scanned.image, kind, rng, seed, case_id, streaks=False)
    geometry = scanned.geometry
    if kind == "fax":
        rows = _pair_bands(geometry.rows)
        geometry = tables.TableGeometry(rows, geometry.columns)
        geometry.check()
    return tables.RenderedTable(image, geometry, scanned.row_labels, scanned.column_labels)


def _pair_bands(axis: tables.AxisGeometry) -> tables.AxisGeometry:
    """Row bands after the fax repeats line 2k as line 2k+1: ink on the last line of a band,
    when that line is even, is repeated on the line after it."""
    bands = tuple(tables.Band(b.start, b.end + (1 if b.end % 2 else 0)) for b in axis.bands)
    separators = tuple(
        min(max(s, bands[i].end), bands[i + 1].start - 1) for i, s in enumerate(axis.separators)
    )
    return tables.AxisGeometry(bands, separators)
