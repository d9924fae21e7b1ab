"""Laboratory results tables with spanning cells, drawn with their cell boxes: the tables of the
`table-structure` and `table-cells` datasets.

`make_table(seed, case_id, layout)` draws one table from its own stream,
make_random(seed, "table", case_id), and returns its grid (every cell with its spans, text and
kind), the image and every cell's box in it. The layout is the case category:

    fully-ruled        a rule between every two rows and columns, and a frame
    horizontal-rules   rules between rows only; columns separated by whitespace
    unruled            whitespace only
    zebra              every other body row shaded; sometimes a rule under the header
    multi-line-cells   analyte names and methods wrapped over several lines in a cell
    wrapped-headers    long column titles wrapped over two or three lines
    spanning-headers   several samples side by side: a merged header cell over each sample's
                       columns (with its date in a second merged row, sometimes), the analyte,
                       CAS and unit titles merged down the header rows
    scanned            a fully-ruled, horizontal-rules, unruled, zebra or spanning-headers table,
                       skewed, blurred, noisy and low in contrast

Any layout but spanning-headers may hold section rows: one cell across the table naming the
analyte group ("Volatile Organic Compounds by SW-846 8260D") above its results.

Results are printed the way laboratories print them, one convention per table, so the cells hold
the notations `values.py` reads: non-detects as `0.50` with a U in the qualifier column, `0.50 U`
or `0.50U` in the result cell, `ND`, `ND (0.50)`, `<0.50`, `< 0.50` or `<RL`; J- and B-flagged
estimates (`1.2 J`, `1.2J` when there is no qualifier column); thousands separators (`1,250`) or
none; units in µg and mg (`µg/L` next to `mg/L` in one groundwater table), spelt `ug/L` or `mg/Kg`
by some laboratories.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

import numpy as np
from PIL import Image

from envirobench_synth import catalogue, degrade, tables
from envirobench_synth.fonts import font
from envirobench_synth.rng import make_random

from . import v1_columns
from .v1_columns import ALIGN, CLEAN_LAYOUTS, LONG_TITLES, OPTIONAL, ORDERS, TITLES, table_style

LAYOUTS = (*CLEAN_LAYOUTS, "multi-line-cells", "wrapped-headers", "spanning-headers", "scanned")

# Column kinds; a cell's kind is its column's, or "header" / "section".
SUB_TITLES: dict[str, tuple[str, ...]] = {
    "result": ("Result", "Conc."),
    "qualifier": ("Q", "Qual"),
    "reporting_limit": ("RL", "MRL"),
}
SAMPLE_COLUMNS: tuple[tuple[str, ...], ...] = (
    ("result", "qualifier"),
    ("result", "qualifier", "reporting_limit"),
    ("result", "reporting_limit"),  # qualifiers follow the value in the result cell
)
GROUP_TITLES: dict[str, str] = {
    "voc": "Volatile Organic Compounds",
    "tph": "Total Petroleum Hydrocarbons",
    "metal": "Metals",
    "mercury": "Mercury",
    "pah": "Polycyclic Aromatic Hydrocarbons",
    "svoc": "Semivolatile Organic Compounds",
    "pcb": "Polychlorinated Biphenyls",
}
SECTION_ROWS = 0.35  # the chance that a single-sample table heads each analyte group with a row


@dataclass(frozen=True)
class Notation:
    """How one laboratory prints results (one per table)."""

    report: catalogue.ReportStyle
    nd_with_limit: bool  # ND style: "ND (0.50)" rather than "ND"
    less_spaced: bool  # <RL style: "< 0.50" rather than "<0.50"
    less_symbolic: bool  # <RL style: literally "<RL"
    thousands: bool  # "1,250" rather than "1250"
    attached: bool  # a U or J in the result cell touches the value: "0.50U", "1.2J"
    ascii_micro: bool  # "ug/L" rather than "µg/L"
    capital_kg: bool  # "mg/Kg" rather than "mg/kg"

    def unit(self, unit: str) -> str:
        if self.ascii_micro:
            unit = unit.replace("µ", "u")
        if self.capital_kg:
            unit = unit.replace("/kg", "/Kg")
        return unit

    def result(self, row: catalogue.ResultRow) -> str:
        """The result as printed, without a qualifier column's letter."""
        text = row.result
        if text == "ND":
            return f"ND ({row.reporting_limit})" if self.nd_with_limit else "ND"
        if text.startswith("<"):
            if self.less_symbolic:
                return "<RL"
            return f"< {text[1:]}" if self.less_spaced else text
        if self.thousands and Decimal(text) >= 1000:
            return f"{Decimal(text):,f}"
        return text

    def result_with_qualifier(self, row: catalogue.ResultRow) -> str:
        """The result with its qualifier in the same cell (no qualifier column). Only U and J
        are ever attached: `8260B` would read as a method code."""
        text = self.result(row)
        if not row.qualifier:
            return text
        attached = self.attached and row.qualifier in ("U", "J")
        return text + ("" if attached else " ") + row.qualifier


def sample_notation(rng: random.Random) -> Notation:
    return Notation(
        report=catalogue.sample_report_style(rng),
        nd_with_limit=rng.random() < 0.4,
        less_spaced=rng.random() < 0.35,
        less_symbolic=rng.random() < 0.15,
        thousands=rng.random() < 0.6,
        attached=rng.random() < 0.3,
        ascii_micro=rng.random() < 0.25,
        capital_kg=rng.random() < 0.2,
    )


@dataclass(frozen=True)
class TableSpec:
    """A table before drawing: its cells (each with a kind), grid size, header rows and look."""

    cells: tuple[tables.GridCell, ...]
    kinds: tuple[str, ...]
    rows: int
    columns: int
    header_rows: int
    align: tuple[tables.Alignment, ...]
    style: tables.TableStyle


@dataclass(frozen=True, eq=False)
class DrawnTable:
    """A drawn table: its spec, image and every cell's box [x0, y0, x1, y1) in the image."""

    spec: TableSpec
    image: Image.Image
    boxes: tuple[tuple[int, int, int, int], ...]


class _Grid:
    """Cells as they are laid out row by row."""

    def __init__(self, columns: int, header_rows: int) -> None:
        self.columns = columns
        self.header_rows = header_rows
        self.cells: list[tables.GridCell] = []
        self.kinds: list[str] = []
        self.rows = 0

    def add(self, row: int, column: int, text: str, kind: str, **spans: object) -> None:
        self.cells.append(tables.GridCell(row, column, text, **spans))  # type: ignore[arg-type]
        self.kinds.append(kind)
        self.rows = max(self.rows, row + int(spans.get("row_span", 1)))  # type: ignore[call-overload]

    def add_section(self, row: int, text: str) -> None:
        """A section row: one bold cell across the table naming the analyte group below it."""
        self.add(row, 0, text, "section", column_span=self.columns, bold=True, align="left")

    def spec(
        self,
        kinds: Sequence[str],
        style: tables.TableStyle,
        align: Mapping[str, tables.Alignment] = ALIGN,
    ) -> TableSpec:
        """The table to draw in `style`: these cells, each column aligned by its kind."""
        return TableSpec(
            tuple(self.cells),
            tuple(self.kinds),
            self.rows,
            self.columns,
            self.header_rows,
            tuple(align[k] for k in kinds),
            style,
        )


def make_table(seed: int, case_id: str, layout: str) -> DrawnTable:
    """Draw the table of one case (see the module docstring)."""
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}")
    rng = make_random(seed, "table", case_id)
    spec = build_spec(rng, layout)
    rendered = tables.render_grid(
        spec.cells, spec.rows, spec.columns, spec.style, spec.align, spec.header_rows
    )
    boxes = tuple(drawn.box for drawn in rendered.cells)
    if layout != "scanned":
        return DrawnTable(spec, rendered.image, boxes)
    params = degrade.sample_scan_params(rng)
    scanned = degrade.scan(_as_rendered_table(rendered), params, seed, "scan", case_id)
    size = rendered.image.size
    return DrawnTable(
        spec, scanned.image, tuple(degrade.carry_box(box, params.angle, size) for box in boxes)
    )


def _as_rendered_table(grid: tables.RenderedGrid) -> tables.RenderedTable:
    """The drawn grid as `degrade.scan` takes it: all text one row and one column (a grid with
    merged cells has no row bands; the scan's own geometry is not used here)."""
    labels = grid.ink.astype(np.int16)
    ys, xs = np.nonzero(grid.ink)
    rows = tables.AxisGeometry((tables.Band(int(ys.min()), int(ys.max()) + 1),), ())
    columns = tables.AxisGeometry((tables.Band(int(xs.min()), int(xs.max()) + 1),), ())
    return tables.RenderedTable(grid.image, tables.TableGeometry(rows, columns), labels, labels)


def build_spec(rng: random.Random, layout: str) -> TableSpec:
    if layout == "scanned":
        base = rng.choice((*CLEAN_LAYOUTS, "spanning-headers"))
    elif layout in ("multi-line-cells", "wrapped-headers", "spanning-headers"):
        base = rng.choice(CLEAN_LAYOUTS)
    else:
        base = layout
    style = table_style(rng, base, layout, scanned_pad_y=(6, 9))
    notation = sample_notation(rng)
    if layout == "spanning-headers" or (layout == "scanned" and base == "spanning-headers"):
        grid, kinds = _samples_table(rng, notation)
    else:
        grid, kinds = _results_table(rng, layout, style, notation)
    return grid.spec(kinds, style)


def _sample_rows(
    rng: random.Random, matrix: catalogue.MatrixName, count: int, style: catalogue.ReportStyle
) -> list[tuple[catalogue.Analyte, catalogue.ResultRow]]:
    analytes = catalogue.sample_analytes(rng, matrix, count)
    return [(a, catalogue.sample_result_row(rng, a, matrix, style)) for a in analytes]


def _section_text(rng: random.Random, group: str, method: str) -> str:
    return GROUP_TITLES[group] + (f" by {method}" if rng.random() < 0.6 else "")


def _results_table(
    rng: random.Random, layout: str, style: tables.TableStyle, notation: Notation
) -> tuple[_Grid, list[str]]:
    """One sample's results, one row per analyte (the header is one row)."""
    matrix = rng.choice(("soil", "soil", "groundwater", "groundwater", "soil-gas"))
    results = _sample_rows(rng, matrix, rng.randint(6, 12), notation.report)
    units = {row.unit for _, row in results}

    order = list(rng.choice(ORDERS))
    droppable = [c for c in OPTIONAL if c != "unit" or len(units) == 1]
    if layout == "multi-line-cells":
        droppable.remove("method")  # the wrapped method column guarantees multi-line cells
    for column in rng.sample(droppable, rng.randint(0, 2)):
        order.remove(column)
    titles = LONG_TITLES if layout == "wrapped-headers" else TITLES

    grid = _Grid(len(order), header_rows=1)
    for c, kind in enumerate(order):
        title = rng.choice(titles[kind])
        if kind == "result" and "unit" not in order:  # one unit for the table: in the title
            title += f" ({notation.unit(results[0][1].unit)})"
        if style.header_wrap:  # wrapped here so the text records its line breaks
            header_font = font(style.font_size, "bold" if style.header_bold else "regular")
            title = tables.wrap_text(title, header_font, style.header_wrap)
        grid.add(0, c, title, "header")

    sections = rng.random() < SECTION_ROWS
    body_font = font(style.font_size)
    wrap_width = rng.randint(80, 120)
    row = 1
    last_group = None
    for analyte, result in results:
        if sections and analyte.group != last_group:
            grid.add_section(row, _section_text(rng, analyte.group, result.method))
            row += 1
        last_group = analyte.group
        cells = {
            "analyte": result.analyte,
            "cas": result.cas or "NA",
            "result": notation.result(result),
            "unit": notation.unit(result.unit),
            "qualifier": result.qualifier,
            "reporting_limit": result.reporting_limit,
            "method": result.method,
        }
        if "qualifier" not in order:
            cells["result"] = notation.result_with_qualifier(result)
        if layout == "multi-line-cells":
            cells["analyte"] = tables.wrap_text(cells["analyte"], body_font, wrap_width)
            cells["method"] = v1_columns.method_on_two_lines(result.method)
        for c, kind in enumerate(order):
            grid.add(row, c, cells[kind], kind)
        row += 1
    return grid, order


def _samples_table(rng: random.Random, notation: Notation) -> tuple[_Grid, list[str]]:
    """Several samples side by side: leading analyte (and CAS) columns, a group of columns per
    sample under a merged header cell, and sometimes a units column; the header has two or three
    rows and the leading titles are merged down them."""
    matrix = rng.choice(("soil", "groundwater", "groundwater", "soil-gas"))
    count = rng.randint(5, 10)
    analytes = catalogue.sample_analytes(rng, matrix, count)
    wanted = rng.randint(2, 3)
    samples: list[str] = []
    while len(samples) < wanted:
        sample = catalogue.sample_id(rng, matrix)
        if sample not in samples:
            samples.append(sample)
    results = [
        [catalogue.sample_result_row(rng, a, matrix, notation.report) for a in analytes]
        for _ in samples
    ]
    units = [row.unit for row in results[0]]
    sub = rng.choice(SAMPLE_COLUMNS)
    with_cas = rng.random() < 0.5
    dated = rng.random() < 0.4
    header_rows = 3 if dated else 2

    lead = ["analyte"] + (["cas"] if with_cas else [])
    units_first = rng.random() < 0.3
    kinds = lead + (["unit"] if units_first else [])
    sample_start = len(kinds)
    for _ in samples:
        kinds += list(sub)
    if not units_first:
        kinds.append("unit")

    grid = _Grid(len(kinds), header_rows)
    for c, kind in enumerate(kinds):
        if kind in ("analyte", "cas", "unit"):
            grid.add(0, c, rng.choice(TITLES[kind]), "header", row_span=header_rows)
    sub_titles = {kind: rng.choice(SUB_TITLES[kind]) for kind in sub}
    date_style = rng.choice(("%m/%d/%Y", "%Y-%m-%d", "%d-%b-%y"))
    for s, sample in enumerate(samples):
        first = sample_start + s * len(sub)
        grid.add(0, first, sample, "header", column_span=len(sub))
        if dated:
            grid.add(
                1,
                first,
                catalogue.sample_date(rng).strftime(date_style),
                "header",
                column_span=len(sub),
            )
        for k, kind in enumerate(sub):
            grid.add(header_rows - 1, first + k, sub_titles[kind], "header")

    sections = rng.random() < SECTION_ROWS
    row = header_rows
    last_group = None
    for a, analyte in enumerate(analytes):
        if sections and analyte.group != last_group:
            grid.add_section(row, _section_text(rng, analyte.group, results[0][a].method))
            row += 1
        last_group = analyte.group
        first_result = results[0][a]
        grid.add(row, 0, first_result.analyte, "analyte")
        if with_cas:
            grid.add(row, 1, first_result.cas or "NA", "cas")
        for s in range(len(samples)):
            result = results[s][a]
            first = sample_start + s * len(sub)
            for k, kind in enumerate(sub):
                if kind == "result":
                    text = (
                        notation.result(result)
                        if "qualifier" in sub
                        else notation.result_with_qualifier(result)
                    )
                elif kind == "qualifier":
                    text = result.qualifier
                else:
                    text = result.reporting_limit
                grid.add(row, first + k, text, kind)
        grid.add(row, kinds.index("unit"), notation.unit(units[a]), "unit")
        row += 1
    return grid, kinds


def spec_cells(spec: TableSpec) -> list[tuple[tables.GridCell, str]]:
    """The cells of a spec with their kinds, in row-then-column order."""
    return sorted(
        zip(spec.cells, spec.kinds, strict=True), key=lambda ck: (ck[0].row, ck[0].column)
    )
