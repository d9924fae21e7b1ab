"""Results tables as page images, with a real OCR reading of every cell (Verify's ocr-auto-accept).

`sample_table(rng, family, split)` draws one laboratory report of an Extract v2 family
(`envirobench_synth.labreport.families`) and lays one of its results tables out as a grid, the
way the family prints results: per sample and method (sample-pages: analyte, CAS, result,
qualifier, limits, unit, dilution), one long table (long-table: sample, analyte, result, limit,
unit) or samples as columns (sample-columns: analyte, CAS, unit, then one column per sample,
result and qualifier in one cell). Only body cells are kept as cells; the header row is drawn but
is not a cell to accept.

`render_table(table, seed, *labels)` draws the grid (`envirobench_synth.tables.render_grid`) at
a small type size (10 to 16 pixels to the em: a page scanned at 100 to 150 dpi), stored as a
grayscale PNG, and degrades some of them: a flatbed scan (`degrade.scan_page`: skew, blur,
noise, grey levels) stored as a grayscale JPEG, or the same scan thresholded to black and white
(`damage.bitonal`, only at 13 pixels and up) stored as a 1-bit PNG. Every cell's box is carried through the skew. The image is encoded here and decoded
again, so what is read is exactly the file a dataset ships.

`read_cells(image, cells)` runs RapidOCR (detection and recognition, one thread, deterministic on
a machine) over the whole image and gives each cell the text lines whose box centre falls inside
the cell's box, left to right and top to bottom, joined by a space; its confidence is the lowest
recognition score among them. A line that runs across two cells (merged cells) belongs to the
cell holding its centre; a cell no line's centre falls in has no reading (it is not readable).
The errors are therefore the engine's own: 0/O, 1/l, 5/S, µ/u, dropped decimal points and signs,
merged neighbours.

The truth rule (`reads_right`): a reading is right when it equals the printed text after both are
folded: Unicode NFKC (so the Greek mu the engine returns equals the micro sign printed, and
full-width digits equal ASCII ones), then every whitespace character removed ("0.50 U" equals
"0.50U": a dropped or added space changes no value). Case, punctuation, signs and decimal marks
count.

`rapidocr` is imported only when reading: it is the reference adapter's engine and a workspace
dependency, and regenerating these datasets needs it installed.
"""

from __future__ import annotations

import io
import logging
import random
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

import numpy as np
from PIL import Image

from ..damage import bitonal
from ..degrade import sample_scan_params, scan_page
from ..labreport.families import Family, FamilyReport, sample_family_report
from ..png import png_bytes
from ..rng import derive_seed
from ..tables import GridCell, TableStyle, render_grid

Copy = Literal["clean", "scan", "bitonal"]
COPIES: tuple[Copy, ...] = ("clean", "scan", "bitonal")
JPEG_QUALITY = 70
FONT_SIZES = (10, 11, 12, 13, 14, 16)
BITONAL_MIN_FONT = 13
MAX_ROWS = 16  # body rows of one table: a page's worth at these sizes
# Table looks by split: the test split draws rules and shading the dev split never shows.
LOOKS = {
    "dev": ("fully-ruled", "header-rule"),
    "test": ("horizontal-rules", "zebra", "unruled"),
}


@dataclass(frozen=True)
class TableCell:
    """One body cell of a drawn table: its position, printed text and role (analyte, cas,
    result, qualifier, limit, mdl, unit, dilution, sample, or result for a sample column)."""

    row: int
    column: int
    text: str
    role: str
    box: tuple[int, int, int, int] = (0, 0, 0, 0)  # x0, y0, x1, y1 in the image, half-open


@dataclass(frozen=True)
class Table:
    family: str
    layout: str  # per-sample, long-table, sample-columns
    header: tuple[str, ...]
    rows: tuple[tuple[tuple[str, str], ...], ...]  # per body row: (text, role) per column
    look: str
    font_size: int
    copy: Copy


@dataclass(frozen=True)
class RenderedTable:
    data: bytes
    extension: str  # "jpg" or "png"
    width: int
    height: int
    cells: tuple[TableCell, ...]


@dataclass(frozen=True)
class Reading:
    text: str | None  # None: no text line's centre fell in the cell (not readable)
    confidence: float | None


def fold(text: str) -> str:
    """The comparison form of a cell's text: NFKC, every whitespace character removed."""
    return "".join(unicodedata.normalize("NFKC", text).split())


def reads_right(reading: str, printed: str) -> bool:
    return fold(reading) == fold(printed)


# -- sampling -----------------------------------------------------------------------------------


def _result_text(cell: Any, with_qualifier: bool) -> str:
    if with_qualifier and cell.qualifier:
        return f"{cell.result} {cell.qualifier}"
    return cell.result


def sample_table(rng: random.Random, family: Family, split: str) -> Table:
    report: FamilyReport = sample_family_report(rng, family, split)  # type: ignore[arg-type]
    titles = report.conventions.titles
    skeleton = family.skeleton
    field = [
        b
        for b, block in enumerate(report.blocks)
        if not block.kind.startswith(("ms", "lab", "mb", "lcs"))
    ]
    rows: list[tuple[tuple[str, str], ...]] = []
    if skeleton == "sample-pages":
        b = rng.choice(field)
        header = [
            titles["analyte"],
            titles["cas"],
            titles["result"],
            titles["qualifier"],
            titles["reporting_limit"],
        ]
        if family.mdl_column:
            header.append(titles["mdl"])
        header += [titles["unit"], titles["dilution"]]
        for s in report.blocks[b].sections:
            section = report.sections[s]
            for a, (name, cas) in enumerate(section.analytes):
                cell = report.cell(b, s, a)
                if cell is None:
                    continue
                row = [
                    (name, "analyte"),
                    (cas or "--", "cas"),
                    (cell.result, "result"),
                    (cell.qualifier, "qualifier"),
                    (cell.rl, "limit"),
                ]
                if family.mdl_column:
                    row.append((cell.mdl, "mdl"))
                row += [(section.unit, "unit"), (cell.dilution, "dilution")]
                rows.append(tuple(row))
        layout = "per-sample"
    elif skeleton == "long-table":
        header = [
            titles["sample_id"],
            titles["analyte"],
            titles["result"],
            titles["reporting_limit"],
            titles["unit"],
        ]
        s = rng.randrange(len(report.sections))
        section = report.sections[s]
        for b in field:
            for a, (name, _cas) in enumerate(section.analytes):
                cell = report.cell(b, s, a)
                if cell is not None:
                    rows.append(
                        (
                            (report.blocks[b].label, "sample"),
                            (name, "analyte"),
                            (_result_text(cell, True), "result"),
                            (cell.rl, "limit"),
                            (section.unit, "unit"),
                        )
                    )
        layout = "long-table"
    else:
        shown = field[:5]
        header = [titles["analyte"], titles["cas"], titles["unit"]] + [
            report.blocks[b].label for b in shown
        ]
        for s, section in enumerate(report.sections):
            for a, (name, cas) in enumerate(section.analytes):
                row = [(name, "analyte"), (cas or "--", "cas"), (section.unit, "unit")]
                for b in shown:
                    cell = report.cell(b, s, a)
                    row.append((_result_text(cell, True) if cell else "", "result"))
                rows.append(tuple(row))
        layout = "sample-columns"
    if len(rows) > MAX_ROWS:
        start = rng.randrange(len(rows) - MAX_ROWS + 1)
        rows = rows[start : start + MAX_ROWS]
    font_size = rng.choice(FONT_SIZES)
    # Thresholding breaks the strokes of the smallest sizes into illegible specks.
    copies = COPIES if font_size >= BITONAL_MIN_FONT else COPIES[:2]
    return Table(
        family=family.name,
        layout=layout,
        header=tuple(header),
        rows=tuple(rows),
        look=rng.choice(LOOKS[split]),
        font_size=font_size,
        copy=rng.choice(copies),
    )


# -- rendering ----------------------------------------------------------------------------------


def _style(look: str, font_size: int) -> TableStyle:
    pad = max(4, font_size // 2)
    common = {"font_size": font_size, "pad_x": pad, "pad_y": max(3, font_size // 4), "margin": 10}
    if look == "fully-ruled":
        return TableStyle(horizontal_rules=True, vertical_rules=True, frame=True, **common)
    if look == "header-rule":
        return TableStyle(header_rule=True, frame=True, **common)
    if look == "horizontal-rules":
        return TableStyle(horizontal_rules=True, frame=True, **common)
    if look == "zebra":
        return TableStyle(zebra=True, header_rule=True, **common)
    return TableStyle(**common)


def render_table(table: Table, seed: int, *labels: str | int) -> RenderedTable:
    columns = len(table.header)
    grid = [GridCell(0, c, text) for c, text in enumerate(table.header)]
    for r, row in enumerate(table.rows, start=1):
        grid += [GridCell(r, c, text) for c, (text, _role) in enumerate(row)]
    align = ["left"] + ["right" if c >= 2 else "left" for c in range(1, columns)]
    drawn = render_grid(
        grid, len(table.rows) + 1, columns, _style(table.look, table.font_size), align=align
    )  # type: ignore[arg-type]
    image = drawn.image
    forward = None
    if table.copy != "clean":
        rng = random.Random(derive_seed(seed, "scan", *labels))
        params = sample_scan_params(rng, max_angle=0.6)
        scanned = scan_page(image, params, seed, "scan", *labels)
        image, forward = scanned.image, scanned.forward
        if table.copy == "bitonal":
            image = bitonal(image, rng.randint(150, 190))
    cells = []
    width, height = image.size
    for drawn_cell in drawn.cells:
        cell = drawn_cell.cell
        if cell.row == 0 or not cell.text.strip():
            continue
        box = drawn_cell.box
        if forward is not None:
            corners = [forward(x, y) for x in (box[0], box[2]) for y in (box[1], box[3])]
            xs, ys = [p[0] for p in corners], [p[1] for p in corners]
            box = (
                max(0, int(min(xs))),
                max(0, int(min(ys))),
                min(width, int(np.ceil(max(xs)))),
                min(height, int(np.ceil(max(ys)))),
            )
        role = table.rows[cell.row - 1][cell.column][1]
        cells.append(TableCell(cell.row, cell.column, cell.text, role, tuple(box)))  # type: ignore[arg-type]
    if table.copy != "scan":  # a clean print has few greys; a thresholded scan has two
        data, extension = png_bytes(image), "png"
    else:
        buffer = io.BytesIO()
        image.save(buffer, format="JPEG", quality=JPEG_QUALITY, optimize=True)
        data, extension = buffer.getvalue(), "jpg"
    return RenderedTable(data, extension, width, height, tuple(cells))


# -- reading ------------------------------------------------------------------------------------

DET_MAX_SIDE = 1600


# The engine's own files and settings: PP-OCRv6 small detection and recognition models as the
# `rapidocr` wheel ships them (the orientation classifier is configured but off), one thread.
MODELS = {
    "det": ("PP-OCRv6", "det", "small"),
    "rec": ("PP-OCRv6", "rec", "small"),
    "cls": ("ch_ppocr", "mobile_v2.0_cls", "mobile"),
}
THREADS = 1


@cache
def _engine() -> Any:
    # Lazily on purpose: rapidocr (and onnxruntime under it) is heavy and no dependency of synth's
    # own; only reading a table needs it (envirobench-verify declares it for its generators).
    import rapidocr

    folder = Path(rapidocr.__file__).resolve().parent / "models"
    files = {
        role: folder / f"{family}_{task}_{size}.onnx"
        for role, (family, task, size) in MODELS.items()
    }
    absent = [str(p) for p in files.values() if not p.is_file()]
    if absent:
        raise RuntimeError(
            f"the rapidocr wheel lacks {', '.join(absent)}: reinstall it (models are never fetched)"
        )
    logging.getLogger("RapidOCR").setLevel(logging.ERROR)
    params: dict[str, Any] = {
        "Global.log_level": "error",
        "Global.use_cls": False,
        "Global.text_score": 0.0,
        "Global.max_side_len": 4000,
        "Det.limit_type": "max",
        "Det.limit_side_len": DET_MAX_SIDE,
    }
    for scope in ("intra", "inter"):
        params[f"EngineConfig.onnxruntime.{scope}_op_num_threads"] = THREADS
    for role, prefix in (("det", "Det"), ("rec", "Rec"), ("cls", "Cls")):
        params[f"{prefix}.model_path"] = str(files[role])
    return rapidocr.RapidOCR(params=params)


def ocr_lines(data: bytes) -> list[tuple[tuple[float, float, float, float], str, float]]:
    """(box, text, score) of every text line RapidOCR reads in an encoded image."""
    with Image.open(io.BytesIO(data)) as image:
        rgb = np.asarray(image.convert("RGB"))
    result = _engine()(rgb, use_det=True, use_cls=False, use_rec=True)
    if result is None or not getattr(result, "txts", None):
        return []
    lines = []
    for quad, text, score in zip(result.boxes, result.txts, result.scores, strict=True):
        points = np.asarray(quad, dtype=float)
        box = (
            float(points[:, 0].min()),
            float(points[:, 1].min()),
            float(points[:, 0].max()),
            float(points[:, 1].max()),
        )
        if text.strip():
            lines.append((box, text, float(score)))
    return lines


def read_cells(data: bytes, cells: tuple[TableCell, ...]) -> list[Reading]:
    lines = ocr_lines(data)
    taken: list[list[tuple[float, float, str, float]]] = [[] for _ in cells]
    for (x0, y0, x1, y1), text, score in lines:
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        for index, cell in enumerate(cells):
            bx0, by0, bx1, by1 = cell.box
            if bx0 <= cx < bx1 and by0 <= cy < by1:
                taken[index].append((y0, x0, text.strip(), score))
                break
    readings = []
    for found in taken:
        if not found:
            readings.append(Reading(None, None))
            continue
        found.sort(key=lambda item: (round(item[0] / 8), item[1]))
        readings.append(
            Reading(" ".join(t for _, _, t, _ in found), round(min(s for *_, s in found), 4))
        )
    return readings
