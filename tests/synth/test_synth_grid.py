"""Tables with spanning cells (tables.render_grid) and boxes carried through a scan (degrade.carry_box)."""

import numpy as np
import pytest

from envirobench_synth import degrade, tables
from envirobench_synth.png import png_bytes

G = tables.GridCell

# Two header rows: "Analyte" merged down both, a sample header over Result and Q; a section row
# over the whole table; two body rows.
CELLS = [
    G(0, 0, "Analyte", row_span=2),
    G(0, 1, "MW-01", column_span=2),
    G(1, 1, "Result"),
    G(1, 2, "Q"),
    G(2, 0, "Volatile Organic Compounds by SW-846 8260D", column_span=3, bold=True, align="left"),
    G(3, 0, "Benzene"),
    G(3, 1, "0.50"),
    G(3, 2, "U"),
    G(4, 0, "Toluene"),
    G(4, 1, "1,250"),
    G(4, 2, ""),
]
ALIGN = ("left", "right", "center")


def render(style=None, cells=CELLS):
    return tables.render_grid(cells, 5, 3, style or tables.fully_ruled(), ALIGN, header_rows=2)


@pytest.mark.parametrize(
    "style",
    [
        tables.fully_ruled(rule_width=2, header_fill=235),
        tables.horizontal_rules(),
        tables.unruled(),
        tables.zebra(header_rule=True),
    ],
)
def test_boxes_tile_the_table_and_hold_their_ink(style):
    grid = render(style)
    x, y = grid.column_edges, grid.row_edges
    assert len(x) == 4 and len(y) == 6
    covered = np.zeros((y[-1], x[-1]), dtype=int)
    for drawn in grid.cells:
        c = drawn.cell
        assert drawn.box == (
            x[c.column],
            y[c.row],
            x[c.column + c.column_span],
            y[c.row + c.row_span],
        )
        covered[drawn.box[1] : drawn.box[3], drawn.box[0] : drawn.box[2]] += 1
        if c.text:
            x0, y0, x1, y1 = drawn.ink
            assert drawn.box[0] < x0 < x1 < drawn.box[2] and drawn.box[1] < y0 < y1 < drawn.box[3]
            assert grid.ink[y0:y1, x0:x1].any()
        else:
            assert drawn.ink is None
    assert (covered[y[0] :, x[0] :] == 1).all()  # every pixel of the table in exactly one box
    assert grid.ink.sum() == sum(
        grid.ink[d.box[1] : d.box[3], d.box[0] : d.box[2]].sum() for d in grid.cells
    )


def test_spanning_cells_widen_what_they_span_and_centre_their_text():
    grid = render()
    by_text = {d.cell.text: d for d in grid.cells}
    section = by_text["Volatile Organic Compounds by SW-846 8260D"]
    # The long section row is wider than its columns would be: they grew to hold it.
    narrow = tables.render_grid(
        [c for c in CELLS if c.row != 2] + [G(2, 0, "VOCs", column_span=3)],
        5,
        3,
        tables.fully_ruled(),
        ALIGN,
        2,
    )
    assert section.box[2] - section.box[0] > narrow.column_edges[-1] - narrow.column_edges[0]
    analyte = by_text["Analyte"]  # merged down two rows: its text sits in the middle of both
    top_gap, bottom_gap = analyte.ink[1] - analyte.box[1], analyte.box[3] - analyte.ink[3]
    assert abs(top_gap - bottom_gap) <= 2
    sample = by_text["MW-01"]  # merged across two columns: centred
    left_gap, right_gap = sample.ink[0] - sample.box[0], sample.box[2] - sample.ink[2]
    assert abs(left_gap - right_gap) <= 2


def test_rules_never_cross_a_spanning_cell():
    style = tables.fully_ruled(rule_ink=40)
    grid = render(style)
    pixels = np.asarray(grid.image)
    x, y = grid.column_edges, grid.row_edges
    # The column edge between Result and Q is ruled in the body, not through "MW-01" above it.
    assert (pixels[y[3] + 2 : y[5] - 2, x[2]] == 40).all()
    assert not (pixels[y[0] + 2 : y[1] - 2, x[2]] == 40).any()
    # The row edge between the header rows is ruled under MW-01, not through "Analyte".
    assert (pixels[y[1], x[1] + 2 : x[3] - 2] == 40).all()
    assert not (pixels[y[1], x[0] + 2 : x[1] - 2] == 40).any()
    # Nor through the section row.
    assert not (pixels[y[2] + 2 : y[3] - 2, x[1]] == 40).any()


def test_rendering_is_deterministic():
    assert png_bytes(render().image) == png_bytes(render().image)


@pytest.mark.parametrize(
    ("cells", "message"),
    [
        (CELLS[:-1], r"no cell covers \(4, 2\)"),
        (CELLS + [G(4, 2, "x")], "cells 10 and 11 both cover"),
        ([*CELLS[:-1], G(4, 2, "x", column_span=2)], "leaves the 5 x 3 grid"),
        ([*CELLS[:-1], G(4, 2, "x", row_span=0)], "span below 1"),
    ],
)
def test_grids_that_do_not_tile_are_refused(cells, message):
    with pytest.raises(ValueError, match=message):
        tables.render_grid(cells, 5, 3, tables.unruled(), ALIGN, header_rows=2)


def test_header_rows_must_fit():
    with pytest.raises(ValueError, match="header_rows"):
        tables.render_grid(CELLS, 5, 3, tables.unruled(), ALIGN, header_rows=6)


def test_carry_box_follows_the_scan():
    grid = render()
    size = grid.image.size
    for drawn in grid.cells:
        assert degrade.carry_box(drawn.box, 0.0, size) == drawn.box  # no skew: the same box
    params = degrade.ScanParams(angle=0.8)
    labels = grid.ink.astype(np.int16)
    ys, xs = np.nonzero(grid.ink)
    geometry = tables.TableGeometry(
        tables.AxisGeometry((tables.Band(int(ys.min()), int(ys.max()) + 1),), ()),
        tables.AxisGeometry((tables.Band(int(xs.min()), int(xs.max()) + 1),), ()),
    )
    scanned = degrade.scan(
        tables.RenderedTable(grid.image, geometry, labels, labels), params, 1, "t"
    )
    # Each cell's text, turned with the page, lies inside the box carried for that cell.
    moved = np.asarray(scanned.row_labels) > 0
    for drawn in grid.cells:
        if drawn.ink is None:
            continue
        x0, y0, x1, y1 = degrade.carry_box(drawn.box, params.angle, size)
        assert 0 <= x0 < x1 <= scanned.image.size[0] and 0 <= y0 < y1 <= scanned.image.size[1]
        box = degrade.carry_box(drawn.ink, params.angle, size)
        assert x0 <= box[0] and y0 <= box[1] and box[2] <= x1 and box[3] <= y1
        assert moved[box[1] : box[3], box[0] : box[2]].any()
