"""Laboratory results tables drawn with Pillow, with the gaps between their rows and columns known.

The tests' own ground truth: each drawn table records, for every interior boundary, the blank
band between the neighbouring rows (or columns) of ink, measured on the clean drawing, and the
ruling line's position when one is drawn. A separator is right when it falls inside its band.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

HEADER = ["Analyte", "CAS No.", "Result", "Unit", "Qual", "Reporting Limit", "Method"]
ROWS = [
    ["Benzene", "71-43-2", "0.52", "mg/kg", "J", "0.10", "8260D"],
    ["Toluene", "108-88-3", "1.9", "mg/kg", "", "0.10", "8260D"],
    ["Total Petroleum Hydrocarbons", "n/a", "410", "mg/kg", "", "25", "8015C"],
    ["Tetrachloroethene", "127-18-4", "ND", "ug/L", "U", "1.0", "8260D"],
    ["Lead", "7439-92-1", "87.3", "mg/kg", "B", "0.50", "6010D"],
    ["Benzo(a)pyrene", "50-32-8", "0.034", "mg/kg", "J", "0.010", "8270E"],
]
# Every header cell on two lines: no line of the header "looks" like a continuation by its cells.
HEADER_TWO_LINES = ["Analyte\nName", "CAS\nNumber", "Sample\nResult", "Unit\nused", "Data\nQual", "Reporting\nLimit", "Test\nMethod"]
LAYOUTS = ("ruled", "hrules", "unruled", "zebra", "multiline", "wrapped-header", "two-line-header")


@dataclass
class DrawnTable:
    image: Image.Image
    row_bands: list[tuple[int, int]]  # blank [start, end) between neighbouring rows of ink
    column_bands: list[tuple[int, int]]
    row_rules: list[int | None] = field(default_factory=list)  # the rule in each band, if drawn
    column_rules: list[int | None] = field(default_factory=list)
    row_edges: list[int] = field(default_factory=list)  # where one row's cell box meets the next


def draw_table(layout: str, *, font_size: int = 13, seed: int = 0, extra_lines: int = 0) -> DrawnTable:
    """Draw a table in one of LAYOUTS; multi-line cells wrap at spaces, headers wrap too in
    `wrapped-header`. `extra_lines` adds that many note lines under every analyte name."""
    rng = random.Random(seed)
    font = ImageFont.load_default(size=font_size)
    line_height = font_size + 3
    pad_x, pad_y = 9, 6
    wrap_cells = layout == "multiline"
    header = [h.replace(" ", "\n") if layout == "wrapped-header" else h for h in HEADER]
    if layout == "two-line-header":
        header = list(HEADER_TWO_LINES)
    body = [
        [cell.replace(" ", "\n", 1) if wrap_cells and " " in cell and c == 0 else cell for c, cell in enumerate(row)]
        for row in ROWS
    ]
    if layout != "multiline":
        body[2][0] = "TPH (C10-C28)"
    for row in body:
        row[0] += "".join(f"\n(note {k + 1})" for k in range(extra_lines))
    table = [header, *body]
    scratch = ImageDraw.Draw(Image.new("L", (1, 1)))

    def text_width(text: str) -> int:
        return max(int(scratch.textlength(line, font=font)) for line in text.split("\n"))

    widths = [max(text_width(row[c]) for row in table) + 2 * pad_x for c in range(len(HEADER))]
    heights = [max(cell.count("\n") + 1 for cell in row) * line_height + 2 * pad_y for row in table]
    margin = 6 + rng.randrange(4)
    xs = [margin]
    for w in widths:
        xs.append(xs[-1] + w)
    ys = [margin]
    for h in heights:
        ys.append(ys[-1] + h)
    image = Image.new("L", (xs[-1] + margin, ys[-1] + margin), 255)
    draw = ImageDraw.Draw(image)

    if layout == "zebra":
        for r in range(1, len(table), 2):
            draw.rectangle([xs[0], ys[r], xs[-1] - 1, ys[r + 1] - 1], fill=228)
    text_only = Image.new("L", image.size, 255)  # the same text without rules, to measure bands
    text_draw = ImageDraw.Draw(text_only)
    for r, row in enumerate(table):
        for c, cell in enumerate(row):
            for k, line in enumerate(cell.split("\n")):
                position = (xs[c] + pad_x, ys[r] + pad_y + k * line_height)
                draw.text(position, line, fill=20, font=font)
                text_draw.text(position, line, fill=0, font=font)

    ruled_rows = layout in ("ruled", "hrules", "multiline")
    ruled_columns = layout in ("ruled", "multiline")
    if ruled_rows:
        for y in ys:
            draw.line([(xs[0], y), (xs[-1], y)], fill=0, width=1)
    if ruled_columns:
        for x in xs:
            draw.line([(x, ys[0]), (x, ys[-1])], fill=0, width=1)

    ink = np.asarray(text_only) < 128
    row_bands = [_band(ink.any(axis=1), ys[i], ys[i + 1], ys[i + 2]) for i in range(len(table) - 1)]
    column_bands = [_band(ink.any(axis=0), xs[i], xs[i + 1], xs[i + 2]) for i in range(len(HEADER) - 1)]
    return DrawnTable(
        image,
        row_bands,
        column_bands,
        [ys[i + 1] if ruled_rows else None for i in range(len(row_bands))],
        [xs[i + 1] if ruled_columns else None for i in range(len(column_bands))],
        ys[1:-1],
    )


def _band(occupied: np.ndarray, first: int, boundary: int, last: int) -> tuple[int, int]:
    """The blank span around `boundary` between the ink of [first, boundary) and [boundary, last)."""
    above = np.flatnonzero(occupied[first:boundary])
    below = np.flatnonzero(occupied[boundary:last])
    return first + int(above[-1]) + 1, boundary + int(below[0])


def degrade(table: DrawnTable, *, angle: float = 0.7, noise: float = 0.004, seed: int = 0) -> DrawnTable:
    """A scan of the table: rotated about its centre, blurred, speckled. Bands stay those of the
    clean drawing (they hold at the table's centre, where rotation about it moves nothing)."""
    rng = np.random.default_rng(seed)
    image = table.image.rotate(angle, resample=Image.Resampling.BICUBIC, fillcolor=255)
    image = image.filter(ImageFilter.GaussianBlur(0.7))
    pixels = np.asarray(image, dtype=np.float32) + rng.normal(0, 6, size=image.size[::-1])
    specks = rng.random(pixels.shape) < noise
    pixels[specks] = rng.uniform(0, 90, size=int(specks.sum()))
    degraded = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8))
    return DrawnTable(degraded, table.row_bands, table.column_bands, table.row_rules, table.column_rules, table.row_edges)


def count_hits(predicted: list[int], bands: list[tuple[int, int]], slack: int = 0) -> tuple[int, int]:
    """(bands holding exactly one predicted separator, predicted separators outside every band or
    duplicating one): the lenient scoring rule the benchmark uses."""
    hits, extras = 0, 0
    claimed = [0] * len(bands)
    for p in predicted:
        for i, (start, end) in enumerate(bands):
            if start - slack <= p < end + slack:
                claimed[i] += 1
                break
        else:
            extras += 1
    for n in claimed:
        hits += n >= 1
        extras += max(0, n - 1)
    return hits, extras
