"""A boring log as drillers' logs print one: a header block, a table of layers with the soil's USCS
symbol and its graphic log (the pattern geologists draw for clay, silt, sand, gravel and fill),
the photo-ionisation reading and sample recovery, and for a monitoring well a construction diagram
beside the layers: riser, screen, sand pack, bentonite seal and grout, with the first water mark.

The log states no fact of the site's answer keys (its drilling date is the well's installation,
reported elsewhere); what it adds to the page is drawing and field notes.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable

from reportlab.pdfgen.canvas import Canvas

from ..locate.sitekinds import LITHOLOGY
from ..locate.sitepages import BOTTOM, MARGIN, PAGE_H, TITLES, VENDORS, OfficeStyle, Sheet, person
from ..rng import make_random
from .papers import Pen, loc_name

# The USCS group symbol and the graphic pattern of each layer description of LITHOLOGY (shared
# with page-locate's logs, whose text must not change): looked up, never parsed from the words.
SOIL = {
    "SILTY CLAY, brown, moist, stiff": ("CL", "clay"),
    "CLAYEY SILT, grey, moist": ("ML", "silt"),
    "SAND, fine to medium, brown, wet": ("SP", "sand"),
    "GRAVELLY SAND, grey, saturated": ("SW", "gravel"),
    "FILL: gravel and sand, dry": ("FILL", "fill"),
    "SILT, olive, moist, petroleum odor": ("ML", "silt"),
}
assert set(SOIL) == set(LITHOLOGY), "every layer description needs its symbol and pattern"
WIDTHS = (58.0, 34.0, 40.0, 232.0, 42.0, 38.0)  # depth, USCS, graphic, description, PID, recovery
HEADER = ("Depth ft", "USCS", "Graphic", "Description", "PID", "Rec.%")
WELL_WIDTH = 40.0  # the well diagram's column, right of the table
ROWS = 22  # layers a page shows


def _pattern(canvas: Canvas, kind: str, x: float, y: float, w: float, h: float, rng: random.Random) -> None:
    """Fill the cell (x, y bottom-left, in PDF points) with `kind`'s pattern, clipped to it."""
    canvas.saveState()
    path = canvas.beginPath()
    path.rect(x, y, w, h)
    canvas.clipPath(path, stroke=0, fill=0)
    canvas.setLineWidth(0.4)
    if kind in ("clay", "silt"):
        step = 3.2 if kind == "clay" else 4.5
        row = 0
        yy = y + step / 2
        while yy < y + h:
            offset = (row % 2) * 4
            xx = x + offset
            while xx < x + w:
                canvas.line(xx, yy, xx + (6 if kind == "clay" else 3.5), yy)
                if kind == "silt":
                    canvas.circle(xx + 5.5, yy, 0.35, stroke=0, fill=1)
                xx += 8
            yy += step
            row += 1
    elif kind in ("sand", "gravel"):
        count = int(w * h / (9 if kind == "sand" else 14))
        for _ in range(count):
            cx, cy = x + rng.uniform(0, w), y + rng.uniform(0, h)
            canvas.circle(cx, cy, 0.45, stroke=0, fill=1)
        if kind == "gravel":
            for _ in range(int(w * h / 60)):
                canvas.circle(x + rng.uniform(0, w), y + rng.uniform(0, h), rng.uniform(1.2, 2.0), stroke=1, fill=0)
    else:  # fill: cross-hatching
        d = -h
        while d < w:
            canvas.line(x + d, y, x + d + h, y + h)
            canvas.line(x + d + h, y, x + d, y + h)
            d += 7
    canvas.restoreState()


def _well(canvas: Canvas, x: float, w: float, y_of: Callable[[float], float], depth: float, screen_top: float,
          seal_top: float, water: float | None) -> None:
    """The well's construction drawn down the column at x: the annulus (grout, bentonite seal,
    sand pack) and the casing (riser, then the slotted screen) inside it."""
    top, bottom = y_of(0.0), y_of(depth)
    inner = w * 0.3
    cx = x + w / 2
    canvas.saveState()
    canvas.setLineWidth(0.4)
    canvas.setFillGray(0.85)  # grout
    canvas.rect(x + 4, y_of(seal_top), w - 8, top - y_of(seal_top), stroke=1, fill=1)
    canvas.setFillGray(0.45)  # bentonite seal
    canvas.rect(x + 4, y_of(screen_top - 1), w - 8, y_of(seal_top) - y_of(screen_top - 1), stroke=1, fill=1)
    canvas.setFillGray(1)
    canvas.rect(x + 4, bottom, w - 8, y_of(screen_top - 1) - bottom, stroke=1, fill=1)  # sand pack
    canvas.setFillGray(0)
    rng = random.Random(int(depth * 100))
    for _ in range(int((w - 8) * (y_of(screen_top - 1) - bottom) / 8)):
        canvas.circle(x + 4 + rng.uniform(0, w - 8), bottom + rng.uniform(0, y_of(screen_top - 1) - bottom), 0.4, stroke=0, fill=1)
    canvas.setFillGray(1)
    canvas.rect(cx - inner / 2, bottom, inner, top - bottom, stroke=0, fill=1)
    canvas.setFillGray(0)
    canvas.setLineWidth(0.9)
    canvas.line(cx - inner / 2, top, cx - inner / 2, bottom)
    canvas.line(cx + inner / 2, top, cx + inner / 2, bottom)
    canvas.setLineWidth(0.5)
    slot = y_of(screen_top)
    while slot > bottom + 1:  # the screen's slots
        canvas.line(cx - inner / 2, slot, cx + inner / 2, slot)
        slot -= 2.2
    canvas.line(cx - inner / 2, bottom, cx + inner / 2, bottom)
    if water is not None and water < depth:
        wy = y_of(water)
        canvas.setLineWidth(0.6)
        path = canvas.beginPath()
        path.moveTo(x + w - 9, wy + 5)
        path.lineTo(x + w - 3, wy + 5)
        path.lineTo(x + w - 6, wy)
        path.close()
        canvas.drawPath(path, stroke=1, fill=0)
        canvas.line(x + w - 10, wy - 1.5, x + w - 2, wy - 1.5)
    canvas.restoreState()


def boring_log_pages(pen: Pen, st: OfficeStyle, point_id: str, drilled: dt.date) -> list[Sheet]:
    p = pen.m.points[point_id]
    depth = p.total_depth or 20.0
    titles = TITLES["boring-log"][pen.split]
    wells = [t for t in titles if "WELL" in t]
    borings = [t for t in titles if "WELL" not in t]
    title = (wells or borings)[0] if p.prefix == "MW" else (borings or titles)[0]
    draw_rng = make_random(pen.m.spec.seed, "boring-log", point_id)  # the drawing's own stream
    sheet = Sheet(st, "boring-log")
    sheet.text(f"{title}: {loc_name(st, point_id)}", size=st.size + 3, bold=True)
    sheet.text(f"{st.firm}    Project: {pen.m.name}")
    sheet.rule()
    sheet.gap(6)
    small = st.size - 1
    sheet.text(f"Date Drilled: {st.date(drilled)}    Method: hollow-stem auger / direct push", size=small)
    water = f"{p.water:g} ft bgs" if p.water else "not encountered"
    sheet.text(f"Total Depth: {depth:g} ft bgs    First Water: {water}    Logged by: {person(pen.rng)}", size=small)
    sheet.text(
        f"Driller: {draw_rng.choice([v for v in VENDORS if 'Drill' in v or 'Well' in v])}    Borehole diameter: "
        f"{draw_rng.choice(('8.25', '6.0', '4.25'))} in    Sampler: {draw_rng.choice(('split spoon', 'macro-core', 'acetate sleeve'))}",
        size=small,
    )
    sheet.gap(6)
    layers, top = [], 0.0
    while top < depth:
        bottom = min(depth, top + pen.rng.choice((2.0, 2.5, 4.0, 5.0)))
        layers.append((top, bottom, pen.rng.choice(LITHOLOGY), f"{pen.rng.uniform(0, 280):.1f}"))
        top = bottom
    shown = layers[:ROWS]
    rows = [[f"{a:g}-{b:g}", SOIL[text][0], "", text, pid, f"{draw_rng.choice((60, 70, 75, 80, 90, 100))}"]
            for a, b, text, pid in shown]
    size = st.size - 1.5
    header_height = size * 1.7
    table_top = sheet.y
    # rows to scale, as a log is drawn: each layer as tall as it is thick, never shorter than a line
    room = BOTTOM - table_top - header_height - 150  # the notes below the log
    per_foot = min(30.0, room / shown[-1][1])
    heights = [max(size * 1.7, (b - a) * per_foot) for a, b, _t, _p in shown]
    while sum(heights) > room and per_foot > 1:  # thin layers kept a line each: scale the rest down
        per_foot *= 0.9
        heights = [max(size * 1.7, (b - a) * per_foot) for a, b, _t, _p in shown]
    tops = [table_top + header_height]
    for h in heights:
        tops.append(tops[-1] + h)
    xs = [MARGIN]
    for w in WIDTHS:
        xs.append(xs[-1] + w)
    for c, text in enumerate(HEADER):
        sheet.text(text, size=size, x=xs[c] + 3, y=table_top + size * 0.35, bold=True)
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            sheet.text(text, size=size, x=xs[c] + 3, y=tops[r] + size * 0.35)
    bottom_y = tops[-1]

    def grid(canvas: Canvas) -> None:
        canvas.setLineWidth(0.5)
        for y in [table_top, *tops]:
            canvas.line(xs[0], PAGE_H - y, xs[-1], PAGE_H - y)
        for x in xs:
            canvas.line(x, PAGE_H - table_top, x, PAGE_H - bottom_y)

    sheet.ops.append(grid)
    sheet.y = bottom_y + size
    seed = make_random(pen.m.spec.seed, "graphic-log", point_id).getrandbits(32)

    def draw_graphic(canvas: Canvas) -> None:
        rng = random.Random(seed)
        for index, (_a, _b, text, _pid) in enumerate(shown):
            _pattern(canvas, SOIL[text][1], xs[2] + 0.5, PAGE_H - tops[index + 1] + 0.5, WIDTHS[2] - 1, heights[index] - 1, rng)

    sheet.ops.append(draw_graphic)
    if p.prefix == "MW":
        well_x = xs[-1] + 6
        shown_depth = shown[-1][1]

        def y_of(d: float) -> float:
            d = min(d, shown_depth)
            for index, (a, b, _text, _pid) in enumerate(shown):
                if d <= b:
                    return PAGE_H - (tops[index] + (d - a) / (b - a) * heights[index])
            return PAGE_H - bottom_y

        screen_top = max(depth - 15, 3)
        seal_top = max(1.0, screen_top - 3)
        sheet.text("Well", size=size, x=well_x + 6, y=table_top + size * 0.35, bold=True)
        sheet.ops.append(lambda canvas: _well(canvas, well_x, WELL_WIDTH, y_of, min(depth, shown_depth), screen_top,
                                              seal_top, p.water))
        sheet.para(
            f"Well construction: 2-inch Sch. 40 PVC; screen {screen_top:g}-{depth:g} ft "
            "(0.010-inch slot); #2/12 sand pack; bentonite seal; flush-mount vault.",
            size=small,
        )
    sheet.para(
        "Abbreviations: bgs = below ground surface; PID = photo-ionisation detector reading of the sample headspace "
        "(ppmv); Rec.% = sample recovery; USCS = Unified Soil Classification System. Graphic log: dashes clay, dashes and dots "
        "silt, dots sand, circles gravel, hatching fill.",
        size=st.size - 2,
    )
    sheet.para(
        draw_rng.choice((
            "Soil cuttings were drummed and left on site pending disposal. The boring was logged continuously from the "
            "surface; descriptions follow the visual-manual procedure.",
            "Headspace readings were taken in sealed bags after warming. Lithologic contacts are approximate and may be "
            "gradational between samples.",
            "Cuttings were placed in labelled drums. Boreholes not completed as wells were backfilled with hydrated "
            "bentonite chips to the surface.",
        )),
        size=st.size - 2,
    )
    return [sheet]

