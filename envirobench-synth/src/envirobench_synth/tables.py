"""Tables drawn with Pillow, with the exact geometry a benchmark needs as its answer.

`render_table(header, rows, style)` draws a grayscale table (the header is row 0) and returns the
image with its geometry:

- per row, the content band [start, end) in y, and per column the content band [start, end) in
  x: the exact extent of the text ink of that row (column), measured from the drawn pixels. Rules
  and shading are not content;
- the interior separators: one between every two neighbouring rows (columns). Where the table
  draws the boundary itself the separator is that boundary: the centre pixel of the ruling line,
  or the first pixel of the next row where a shaded row meets an unshaded one. Where nothing is
  drawn it is the middle pixel of the whitespace gap between the two content bands.

Every separator lies in its gap [band_i.end, band_i+1.start), which is never empty; a style too
tight for that is refused with ValueError instead of producing a wrong answer.

Text is pasted through a coverage mask per cell, so the pixels a cell's text touches are exactly
the non-zero pixels of its mask: the label arrays (`row_labels`, `column_labels`) record them,
and `degrade` uses them to recompute the bands after skewing a table.

`render_grid(cells, rows, columns, style)` draws a table given cell by cell, where cells may span
rows and columns (merged header cells, section rows), and returns every cell's box and ink.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from .fonts import font

Alignment = Literal["left", "right", "center"]
_ANCHORS = {"left": "la", "right": "ra", "center": "ma"}


@dataclass(frozen=True)
class Band:
    """A half-open pixel interval [start, end) along one axis."""

    start: int
    end: int

    def __post_init__(self) -> None:
        if not 0 <= self.start < self.end:
            raise ValueError(f"a band needs 0 <= start < end, got [{self.start}, {self.end})")

    def __contains__(self, position: int) -> bool:
        return self.start <= position < self.end


@dataclass(frozen=True)
class AxisGeometry:
    """The content bands along one axis (rows: y, columns: x) and the separators between them."""

    bands: tuple[Band, ...]
    separators: tuple[int, ...]

    def gaps(self) -> tuple[tuple[int, int], ...]:
        """The interior gaps [end of band i, start of band i+1), one per separator."""
        return tuple((a.end, b.start) for a, b in zip(self.bands, self.bands[1:], strict=False))

    def check(self, axis: str) -> None:
        """Raise ValueError unless the bands are ordered with non-empty gaps holding the separators."""
        if not self.bands:
            raise ValueError(f"{axis}: a table needs at least one band")
        if len(self.separators) != len(self.bands) - 1:
            raise ValueError(
                f"{axis}: {len(self.bands)} bands need {len(self.bands) - 1} separators, got {len(self.separators)}"
            )
        for index, ((start, end), separator) in enumerate(
            zip(self.gaps(), self.separators, strict=True)
        ):
            if start >= end:
                raise ValueError(
                    f"{axis}: bands {index} and {index + 1} touch or overlap (no gap between them)"
                )
            if not start <= separator < end:
                raise ValueError(
                    f"{axis}: separator {index} at {separator} is outside its gap [{start}, {end})"
                )


@dataclass(frozen=True)
class TableGeometry:
    rows: AxisGeometry
    columns: AxisGeometry

    def check(self) -> None:
        self.rows.check("rows")
        self.columns.check("columns")


@dataclass(frozen=True, eq=False)
class RenderedTable:
    """A drawn table. The label arrays (shape height x width, int16) hold 1 + the index of the
    row (column) whose text inked each pixel, and 0 where no text is."""

    image: Image.Image
    geometry: TableGeometry
    row_labels: np.ndarray = field(repr=False)
    column_labels: np.ndarray = field(repr=False)


@dataclass(frozen=True)
class TableStyle:
    """How a table looks. Grey levels: 0 black, 255 white."""

    font_size: int = 13
    header_bold: bool = True
    horizontal_rules: bool = False  # a ruling line between every two rows
    vertical_rules: bool = False  # a ruling line between every two columns
    header_rule: bool = False  # a ruling line under the header only
    frame: bool = False  # rules above and below the table, and beside it when columns are ruled
    zebra: bool = False  # shade every other body row
    zebra_first: bool = True  # shade the first body row (else the second)
    header_fill: int | None = None  # shade the header row with this grey
    shade: int = 228  # the grey of shaded body rows
    paper: int = 255
    ink: int = 20
    rule_ink: int = 40
    rule_width: int = 1
    pad_x: int = 8  # space between a cell's text and its left/right edges
    pad_y: int = 4  # space between a cell's text and its top/bottom edges
    line_gap: int = 2  # extra leading between the lines of one cell
    margin: int = 8  # paper around the table
    header_wrap: int | None = None  # wrap header text to at most this many pixels per line

    def __post_init__(self) -> None:
        # Text must keep clear of a rule drawn on its cell's edge, and a frame needs paper.
        if min(self.pad_x, self.pad_y) <= self.rule_width:
            raise ValueError("pad_x and pad_y must exceed rule_width")
        if self.margin < self.rule_width:
            raise ValueError("margin must be at least rule_width")


def fully_ruled(**changes: object) -> TableStyle:
    return TableStyle(horizontal_rules=True, vertical_rules=True, frame=True, **changes)  # type: ignore[arg-type]


def horizontal_rules(**changes: object) -> TableStyle:
    return TableStyle(horizontal_rules=True, frame=True, **changes)  # type: ignore[arg-type]


def unruled(**changes: object) -> TableStyle:
    return TableStyle(**changes)  # type: ignore[arg-type]


def zebra(**changes: object) -> TableStyle:
    return TableStyle(zebra=True, **changes)  # type: ignore[arg-type]


def wrap_text(text: str, typeface: ImageFont.FreeTypeFont, max_width: int) -> str:
    """Greedy word wrap to `max_width` pixels, keeping existing line breaks. A single word wider
    than the limit stays whole on its own line (tables widen the column rather than split words)."""
    out: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            candidate = f"{line} {word}" if line else word
            if line and typeface.getlength(candidate) > max_width:
                out.append(line)
                line = word
            else:
                line = candidate
        out.append(line)
    return "\n".join(out)


def render_table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    style: TableStyle,
    align: Sequence[Alignment] | None = None,
) -> RenderedTable:
    """Draw `header` and `rows` (cell strings, `\\n` for line breaks) as a grayscale table."""
    ncols = len(header)
    if ncols == 0:
        raise ValueError("a table needs at least one column")
    for index, row in enumerate(rows):
        if len(row) != ncols:
            raise ValueError(f"row {index} has {len(row)} cells, the header has {ncols}")
    align = tuple(align) if align is not None else ("left",) * ncols
    if len(align) != ncols:
        raise ValueError(f"{len(align)} alignments for {ncols} columns")

    body_font = font(style.font_size)
    header_font = font(style.font_size, "bold" if style.header_bold else "regular")
    header_cells = [
        wrap_text(h, header_font, style.header_wrap) if style.header_wrap else h for h in header
    ]
    grid = [[cell.split("\n") for cell in header_cells]] + [
        [cell.split("\n") for cell in row] for row in rows
    ]
    fonts = [header_font] + [body_font] * len(rows)

    # Layout: every cell's box is its column's width by its row's height, text inset by padding.
    col_widths = [
        max(_line_width(line, fonts[r]) for r in range(len(grid)) for line in grid[r][c])
        + 2 * style.pad_x
        for c in range(ncols)
    ]
    line_heights = [sum(f.getmetrics()) for f in fonts]
    row_heights = [
        max(len(cell) for cell in grid[r]) * (line_heights[r] + style.line_gap)
        - style.line_gap
        + 2 * style.pad_y
        for r in range(len(grid))
    ]
    x_edges = _edges(style.margin, col_widths)
    y_edges = _edges(style.margin, row_heights)
    size = (x_edges[-1] + style.margin, y_edges[-1] + style.margin)

    image = Image.new("L", size, style.paper)
    draw = ImageDraw.Draw(image)
    fills = _row_fills(style, len(grid))
    for r, fill in enumerate(fills):
        if fill != style.paper:
            draw.rectangle((x_edges[0], y_edges[r], x_edges[-1] - 1, y_edges[r + 1] - 1), fill=fill)

    row_labels = np.zeros((size[1], size[0]), dtype=np.int16)
    column_labels = np.zeros_like(row_labels)
    row_ink: list[list[int]] = [[] for _ in grid]  # [top, bottom) of each inked cell, per row
    col_ink: list[list[int]] = [[] for _ in range(ncols)]
    for r, cells in enumerate(grid):
        for c, lines in enumerate(cells):
            box = (x_edges[c], y_edges[r], x_edges[c + 1], y_edges[r + 1])
            mask = _cell_mask(lines, fonts[r], line_heights[r], box, align[c], style)
            if mask is None:  # an empty cell
                continue
            image.paste(style.ink, (box[0], box[1]), mask)
            inked = np.asarray(mask) > 0
            row_labels[box[1] : box[3], box[0] : box[2]][inked] = r + 1
            column_labels[box[1] : box[3], box[0] : box[2]][inked] = c + 1
            left, top, right, bottom = mask.getbbox()  # type: ignore[misc]
            row_ink[r] += [box[1] + top, box[1] + bottom]
            col_ink[c] += [box[0] + left, box[0] + right]

    _draw_rules(draw, style, x_edges, y_edges)
    geometry = TableGeometry(
        rows=_axis(row_ink, y_edges, _row_boundaries(style, fills), style.rule_width, "row"),
        columns=_axis(
            col_ink,
            x_edges,
            ["rule" if style.vertical_rules else None] * (ncols - 1),
            style.rule_width,
            "column",
        ),
    )
    geometry.check()
    return RenderedTable(image, geometry, row_labels, column_labels)


def _line_width(line: str, typeface: ImageFont.FreeTypeFont) -> int:
    # The advance width, or the ink if a glyph overhangs its advance (never narrower than either).
    left, _, right, _ = typeface.getbbox(line, anchor="la")
    return int(max(typeface.getlength(line), right) - min(left, 0))


def _edges(start: int, sizes: Sequence[int]) -> list[int]:
    edges = [start]
    for size in sizes:
        edges.append(edges[-1] + size)
    return edges


def _row_fills(style: TableStyle, nrows: int) -> list[int]:
    fills = [style.header_fill if style.header_fill is not None else style.paper]
    for body_index in range(nrows - 1):
        shaded = style.zebra and (body_index % 2 == 0) == style.zebra_first
        fills.append(style.shade if shaded else style.paper)
    return fills


def _cell_mask(
    lines: list[str],
    typeface: ImageFont.FreeTypeFont,
    line_height: int,
    box: tuple[int, int, int, int],
    alignment: Alignment,
    style: TableStyle,
) -> Image.Image | None:
    """The cell's text coverage (0-255) over its box, or None when the cell holds no ink."""
    width, height = box[2] - box[0], box[3] - box[1]
    mask = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(mask)
    x = {"left": style.pad_x, "right": width - style.pad_x, "center": width // 2}[alignment]
    for index, line in enumerate(lines):
        y = style.pad_y + index * (line_height + style.line_gap)
        draw.text((x, y), line, font=typeface, fill=255, anchor=_ANCHORS[alignment])
    bbox = mask.getbbox()
    if bbox is None:
        return None
    # Ink reaching into the outer rule_width pixels could touch (or be hidden by) a ruling line.
    w = style.rule_width
    if bbox[0] < w or bbox[1] < w or bbox[2] > width - w or bbox[3] > height - w:
        raise ValueError(f"text {lines!r} does not fit inside its cell; increase the padding")
    return mask


def _draw_rules(
    draw: ImageDraw.ImageDraw, style: TableStyle, x_edges: list[int], y_edges: list[int]
) -> None:
    w = style.rule_width
    left, right, top, bottom = x_edges[0], x_edges[-1], y_edges[0], y_edges[-1]
    # Interior rules are centred on the edge between two cells; the frame lies just outside the
    # table box. Padding keeps text clear of both, so rules never cover content.
    ys = [_rule_start(y, w) for y in y_edges[1:-1]] if style.horizontal_rules else []
    if style.header_rule and not style.horizontal_rules and len(y_edges) > 2:
        ys.append(_rule_start(y_edges[1], w))
    xs = [_rule_start(x, w) for x in x_edges[1:-1]] if style.vertical_rules else []
    side_frame = style.frame and style.vertical_rules
    if style.frame:
        ys += [top - w, bottom]
    if side_frame:
        xs += [left - w, right]
    # Rules meet at the corners: horizontal ones reach over a side frame, vertical ones over the
    # top and bottom frame.
    x_from, x_to = (left - w, right + w) if side_frame else (left, right)
    y_from, y_to = (top - w, bottom + w) if style.frame else (top, bottom)
    for y in ys:
        draw.rectangle((x_from, y, x_to - 1, y + w - 1), fill=style.rule_ink)
    for x in xs:
        draw.rectangle((x, y_from, x + w - 1, y_to - 1), fill=style.rule_ink)


def _rule_start(edge: int, width: int) -> int:
    """First pixel of a rule of `width` centred on a cell edge."""
    return edge - width // 2


Boundary = Literal["rule", "shade"] | None


def _row_boundaries(style: TableStyle, fills: list[int]) -> list[Boundary]:
    """What the table draws between each two rows: a rule, a change of shading, or nothing."""
    out: list[Boundary] = []
    for index in range(len(fills) - 1):
        if style.horizontal_rules or (style.header_rule and index == 0):
            out.append("rule")
        elif fills[index] != fills[index + 1]:
            out.append("shade")
        else:
            out.append(None)
    return out


def _axis(
    ink: list[list[int]], edges: list[int], boundaries: list[Boundary], rule_width: int, name: str
) -> AxisGeometry:
    bands = []
    for index, extents in enumerate(ink):
        if not extents:
            raise ValueError(f"{name} {index} holds no text; every row and column needs content")
        bands.append(Band(min(extents[0::2]), max(extents[1::2])))
    separators = []
    for index, boundary in enumerate(boundaries):
        edge = edges[index + 1]
        if boundary == "rule":  # the rule's centre pixel (of two, the first)
            separators.append(_rule_start(edge, rule_width) + (rule_width - 1) // 2)
        elif boundary == "shade":
            separators.append(edge)  # the first pixel of the second row's shading (or paper)
        else:
            separators.append((bands[index].end + bands[index + 1].start - 1) // 2)
    return AxisGeometry(tuple(bands), tuple(separators))


# -- Tables with spanning cells ------------------------------------------------------------------
#
# `render_grid` draws a table given cell by cell on a grid, where a cell may span several rows
# and columns (merged header cells, section rows across the table). It returns every cell's box
# rather than separators: with spanning cells a row is no longer one band of text.


@dataclass(frozen=True)
class GridCell:
    """One cell of a grid: its top-left position, its spans and its text (`\\n` breaks lines)."""

    row: int
    column: int
    text: str
    row_span: int = 1
    column_span: int = 1
    bold: bool | None = None  # None: bold in header rows when the style's header is bold
    align: Alignment | None = None  # None: its column's alignment, or centred when it spans columns


@dataclass(frozen=True)
class DrawnCell:
    """A cell as drawn. `box` is its area (x0, y0, x1, y1), half-open: rules are centred on its
    edges and neighbouring boxes share them. `ink` is the extent of its text, None when empty."""

    cell: GridCell
    box: tuple[int, int, int, int]
    ink: tuple[int, int, int, int] | None


@dataclass(frozen=True, eq=False)
class RenderedGrid:
    """A drawn grid: the image, every cell (in the order given), the y of every row boundary and
    the x of every column boundary (rows + 1 and columns + 1 of them), and a boolean mask
    (height x width) of the pixels some cell's text inked."""

    image: Image.Image
    cells: tuple[DrawnCell, ...]
    row_edges: tuple[int, ...]
    column_edges: tuple[int, ...]
    ink: np.ndarray = field(repr=False)


def check_grid(cells: Sequence[GridCell], rows: int, columns: int) -> None:
    """Raise ValueError unless `cells` cover every position of the grid exactly once."""
    if rows < 1 or columns < 1:
        raise ValueError("a grid needs at least one row and one column")
    owner: dict[tuple[int, int], int] = {}
    for index, cell in enumerate(cells):
        if cell.row_span < 1 or cell.column_span < 1:
            raise ValueError(f"cell {index} at ({cell.row}, {cell.column}) has a span below 1")
        if (
            cell.row < 0
            or cell.column < 0
            or cell.row + cell.row_span > rows
            or cell.column + cell.column_span > columns
        ):
            raise ValueError(
                f"cell {index} at ({cell.row}, {cell.column}) leaves the {rows} x {columns} grid"
            )
        for r in range(cell.row, cell.row + cell.row_span):
            for c in range(cell.column, cell.column + cell.column_span):
                if (r, c) in owner:
                    raise ValueError(f"cells {owner[r, c]} and {index} both cover ({r}, {c})")
                owner[r, c] = index
    if len(owner) != rows * columns:
        missing = next((r, c) for r in range(rows) for c in range(columns) if (r, c) not in owner)
        raise ValueError(f"no cell covers {missing}")


def render_grid(
    cells: Sequence[GridCell],
    rows: int,
    columns: int,
    style: TableStyle,
    align: Sequence[Alignment] | None = None,
    header_rows: int = 1,
) -> RenderedGrid:
    """Draw a grid of cells as a grayscale table; the first `header_rows` rows are the header.

    Layout: a column is as wide as its widest one-column cell, a row as tall as its tallest
    one-row cell; a spanning cell that needs more room widens (heightens) the columns (rows) it
    spans, evenly. Text is inset by the padding; a cell spanning rows has its text centred
    vertically. Rules follow the cells: with `horizontal_rules` each cell's bottom edge inside
    the table is ruled, with `vertical_rules` its right edge, so no rule crosses a spanning cell.
    `header_rule` rules the bottom of the header; `frame` and the fills work as in render_table
    (the header fill covers every header row, zebra shading counts body rows; a cell takes the
    fill of its first row).
    """
    check_grid(cells, rows, columns)
    if not 0 <= header_rows <= rows:
        raise ValueError(f"header_rows must be between 0 and {rows}, got {header_rows}")
    align = tuple(align) if align is not None else ("left",) * columns
    if len(align) != columns:
        raise ValueError(f"{len(align)} alignments for {columns} columns")

    def typeface(cell: GridCell) -> ImageFont.FreeTypeFont:
        bold = cell.bold if cell.bold is not None else cell.row < header_rows and style.header_bold
        return font(style.font_size, "bold" if bold else "regular")

    fonts = [typeface(cell) for cell in cells]
    lines = [
        (
            wrap_text(cell.text, f, style.header_wrap)
            if style.header_wrap and cell.row < header_rows
            else cell.text
        ).split("\n")
        for cell, f in zip(cells, fonts, strict=True)
    ]
    line_heights = [sum(f.getmetrics()) for f in fonts]
    needs_x = [
        max(_line_width(line, f) for line in text) + 2 * style.pad_x
        for text, f in zip(lines, fonts, strict=True)
    ]
    needs_y = [
        len(text) * (height + style.line_gap) - style.line_gap + 2 * style.pad_y
        for text, height in zip(lines, line_heights, strict=True)
    ]
    body_height = sum(font(style.font_size).getmetrics()) + 2 * style.pad_y
    col_widths = _spread(
        [(cell.column, cell.column_span, need) for cell, need in zip(cells, needs_x, strict=True)],
        columns,
        2 * style.pad_x + 1,
    )
    row_heights = _spread(
        [(cell.row, cell.row_span, need) for cell, need in zip(cells, needs_y, strict=True)],
        rows,
        body_height,
    )
    x_edges = _edges(style.margin, col_widths)
    y_edges = _edges(style.margin, row_heights)
    size = (x_edges[-1] + style.margin, y_edges[-1] + style.margin)

    image = Image.new("L", size, style.paper)
    draw = ImageDraw.Draw(image)
    fills = _grid_fills(style, rows, header_rows)
    boxes = [
        (
            x_edges[cell.column],
            y_edges[cell.row],
            x_edges[cell.column + cell.column_span],
            y_edges[cell.row + cell.row_span],
        )
        for cell in cells
    ]
    for cell, box in zip(cells, boxes, strict=True):
        if fills[cell.row] != style.paper:
            draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=fills[cell.row])

    ink = np.zeros((size[1], size[0]), dtype=bool)
    drawn = []
    for index, (cell, box) in enumerate(zip(cells, boxes, strict=True)):
        alignment = cell.align or ("center" if cell.column_span > 1 else align[cell.column])
        cell_style = style
        if cell.row_span > 1:  # centre the text block in the rows it spans
            cell_style = replace(style, pad_y=style.pad_y + (box[3] - box[1] - needs_y[index]) // 2)
        mask = _cell_mask(
            lines[index], fonts[index], line_heights[index], box, alignment, cell_style
        )
        if mask is None:
            drawn.append(DrawnCell(cell, box, None))
            continue
        image.paste(style.ink, (box[0], box[1]), mask)
        ink[box[1] : box[3], box[0] : box[2]] |= np.asarray(mask) > 0
        left, top, right, bottom = mask.getbbox()  # type: ignore[misc]
        drawn.append(
            DrawnCell(cell, box, (box[0] + left, box[1] + top, box[0] + right, box[1] + bottom))
        )

    _draw_grid_rules(draw, style, cells, x_edges, y_edges, header_rows)
    return RenderedGrid(image, tuple(drawn), tuple(y_edges), tuple(x_edges), ink)


def _spread(needs: list[tuple[int, int, int]], count: int, minimum: int) -> list[int]:
    """Sizes of `count` tracks from (first track, span, size needed) of each cell: one-track
    cells first, then spanning cells (shortest span first) grow their tracks evenly."""
    sizes = [0] * count
    for start, span, need in needs:
        if span == 1:
            sizes[start] = max(sizes[start], need)
    sizes = [max(size, minimum) for size in sizes]
    for start, span, need in sorted((n for n in needs if n[1] > 1), key=lambda n: (n[1], n[0])):
        extra = need - sum(sizes[start : start + span])
        if extra > 0:
            for k in range(span):  # the remainder goes to the last tracks
                sizes[start + k] += extra // span + (1 if k >= span - extra % span else 0)
    return sizes


def _grid_fills(style: TableStyle, rows: int, header_rows: int) -> list[int]:
    header = style.header_fill if style.header_fill is not None else style.paper
    fills = [header] * header_rows
    for body_index in range(rows - header_rows):
        shaded = style.zebra and (body_index % 2 == 0) == style.zebra_first
        fills.append(style.shade if shaded else style.paper)
    return fills


def _draw_grid_rules(
    draw: ImageDraw.ImageDraw,
    style: TableStyle,
    cells: Sequence[GridCell],
    x_edges: list[int],
    y_edges: list[int],
    header_rows: int,
) -> None:
    w = style.rule_width
    left, right, top, bottom = x_edges[0], x_edges[-1], y_edges[0], y_edges[-1]
    side_frame = style.frame and style.vertical_rules
    x_from, x_to = (left - w, right + w) if side_frame else (left, right)
    y_from, y_to = (top - w, bottom + w) if style.frame else (top, bottom)

    def across(y: int, x0: int, x1: int) -> None:  # a rule centred on y from edge x0 to edge x1
        start = max(x_from, _rule_start(x0, w) if x0 != left else x_from)
        end = min(x_to, _rule_start(x1, w) + w if x1 != right else x_to)
        draw.rectangle(
            (start, _rule_start(y, w), end - 1, _rule_start(y, w) + w - 1), fill=style.rule_ink
        )

    def down(x: int, y0: int, y1: int) -> None:  # a rule centred on x from edge y0 to edge y1
        start = max(y_from, _rule_start(y0, w) if y0 != top else y_from)
        end = min(y_to, _rule_start(y1, w) + w if y1 != bottom else y_to)
        draw.rectangle(
            (_rule_start(x, w), start, _rule_start(x, w) + w - 1, end - 1), fill=style.rule_ink
        )

    for cell in cells:
        x0, x1 = x_edges[cell.column], x_edges[cell.column + cell.column_span]
        y0, y1 = y_edges[cell.row], y_edges[cell.row + cell.row_span]
        if style.horizontal_rules and y1 != bottom:
            across(y1, x0, x1)
        if style.vertical_rules and x1 != right:
            down(x1, y0, y1)
    if style.header_rule and not style.horizontal_rules and 0 < header_rows < len(y_edges) - 1:
        across(y_edges[header_rows], left, right)
    if style.frame:
        for y in (top - w, bottom):
            draw.rectangle((x_from, y, x_to - 1, y + w - 1), fill=style.rule_ink)
    if side_frame:
        for x in (left - w, right):
            draw.rectangle((x, y_from, x + w - 1, y_to - 1), fill=style.rule_ink)
