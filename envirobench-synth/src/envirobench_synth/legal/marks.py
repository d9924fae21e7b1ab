"""What hands and offices put on a recorded instrument, drawn as a copy of its era shows them.

`render_instrument(..., archival=True)` (every Legal dataset) draws these instead of the plain
forms the Site records still carry (one squiggle for every signature, a ruled box for every
notary's seal, a typed reception box whatever the year):

- `signature_hand`: a signature in one of several hands (`HANDS`): cursive loops, an angular
  scrawl, big initials with a tail, loops with an underline flourish; slant, size, pressure and
  ink drawn per signature.
- `notary_seal`: an inked round seal (text around the rim, the commission in the middle), an inked
  rectangular stamp, or, on a paper original that is scanned, an embossed seal: a raised ring that
  shows on the scan only as faint grey, mostly lost when the scan is reduced to black and white.
  Inked seals sit at a slant.
- `recording_era`: how the recorder marked a copy in the year it was recorded. Before
  `RUBBER_STAMP_UNTIL` an inked rubber stamp at an angle, the date and time struck by hand ("at
  2:41 o'clock P.M."), book and page, a deputy's signature; a county that e-records today typed a
  reception box before `E_RECORDING_FROM` (no e-recording header on a 1990 deed).
- `office_stamp`: a title company's or law office's "RECEIVED" stamp at an angle, with a date and
  sometimes a clock time but no recording number: a copy that was received, not recorded. Only
  paper (a scanned copy) is stamped so.

Everything is drawn in PDF vector operators with the standard fonts (no embedding), so a
born-digital copy keeps the stamp's words in its text layer, as an e-recorded PDF does.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from .instruments import Acknowledgment, Instrument

PAGE_H = 792.0
Draw = Callable[[Canvas, float], None]  # draws with its top (or its line) at y from the page top

HANDS = ("looped", "angular", "initials", "flourish")
SEAL_STYLES = ("inked-round", "inked-box", "embossed")
RUBBER_STAMP_UNTIL = 1985  # recorders stamped by hand (rubber stamp, time clock) before this year
E_RECORDING_FROM = 2005  # the first year an e-recording header can be on a copy
OFFICE_STAMP_SHARE = 0.15  # copies that carry a received stamp
OFFICES = ("FIRST AMERICAN TITLE", "CHICAGO TITLE CO.", "STEWART TITLE", "OLD REPUBLIC TITLE",
           "LAND TITLE GUARANTEE", "RECORDS DEPT.")

Stroke = list[tuple[float, float]]  # (x, height above the line) in points


def signature_hand(rng: random.Random, x: float, width: float) -> Draw:
    """Pen strokes of a signature above a line at y, in a hand drawn from `HANDS`."""
    hand = rng.choice(HANDS)
    height = rng.uniform(12, 22)
    lift = rng.uniform(1, 5)  # how far above the line the pen rides
    slant = rng.uniform(-0.15, 0.5)
    start = x + rng.uniform(4, 20)
    end = x + min(width - 8, rng.uniform(85, 185))
    strokes: list[Stroke] = []
    if hand == "angular":
        stroke, position = [(start, rng.uniform(0, 4))], start
        while position < end:
            position += rng.uniform(4, 11)
            stroke.append((position, rng.uniform(height / 3, height) if len(stroke) % 2 else rng.uniform(0, 3)))
        strokes.append(stroke)
    else:
        first = start
        if hand == "initials":  # a tall first letter, pen lifted, then a short word
            tall = height * rng.uniform(1.4, 1.9)
            strokes.append(_loops(rng, start, start + rng.uniform(14, 24), tall, 1))
            first = strokes[-1][-1][0] + rng.uniform(4, 10)
            end = min(end, first + rng.uniform(40, 80))
        strokes.append(_loops(rng, first, end, height, max(2, int((end - first) / rng.uniform(12, 24)))))
        if hand == "flourish":  # back under the name in one sweep, above the printed name
            last = strokes[-1][-1]
            strokes[-1] += [(last[0] + 6, 0), ((start + last[0]) / 2, -lift + 0.5), (start - 4, rng.uniform(0, 3))]
    thickness = rng.uniform(0.8, 1.5)  # a ballpoint's or a fountain pen's line
    ink = rng.uniform(0.0, 0.2)
    slanted = [[(px + slant * py, py + lift) for px, py in stroke] for stroke in strokes]

    def draw(canvas: Canvas, line_y: float) -> None:
        canvas.saveState()
        canvas.setStrokeGray(ink)
        canvas.setLineWidth(thickness)
        canvas.setLineCap(1)
        canvas.setLineJoin(1)
        for stroke in slanted:
            path = canvas.beginPath()
            path.moveTo(stroke[0][0], PAGE_H - line_y + 2 + stroke[0][1])
            for px, py in stroke[1:]:
                path.lineTo(px, PAGE_H - line_y + 2 + py)
            canvas.drawPath(path, stroke=1, fill=0)
        canvas.restoreState()

    return draw


def _loops(rng: random.Random, x0: float, x1: float, height: float, count: int) -> Stroke:
    """Cursive loops from x0 to x1: a prolate cycloid (the pen runs back a little on each
    upstroke), each loop's height and width drawn on its own."""
    points: Stroke = []
    widths = [rng.uniform(0.5, 1.5) for _ in range(count)]
    scale = (x1 - x0) / sum(widths)
    left = x0
    for width in widths:
        step = width * scale
        radius = step * rng.uniform(0.15, 0.7)  # under half a step the pen never crosses back: a hump
        tall = height * rng.uniform(0.55, 1.1)
        for k in range(10):
            t = 2 * math.pi * k / 10
            points.append((left + step * t / (2 * math.pi) - radius * math.sin(t), tall * (1 - math.cos(t)) / 2))
        left += step
    points.append((x1, rng.uniform(0, height / 3)))
    return points


def notary_seal(ack: Acknowledgment, font: str, x: float, rng: random.Random, *, paper: bool) -> tuple[float, Draw]:
    """(the height it takes, the drawing) of a notary's seal in a style drawn from
    `SEAL_STYLES`; an embossed seal only on a `paper` original (a scan): born digital, it would
    be a grey drawing in the text layer no one could have made."""
    style = rng.choice(SEAL_STYLES if paper else SEAL_STYLES[:2])
    angle = rng.uniform(-9, 9)
    ink = rng.uniform(0.08, 0.35)
    name, state = ack.notary.upper(), ack.state.upper()
    middle = [f"COMM. NO. {ack.commission}", f"EXP. {ack.expires.strftime('%m/%d/%Y')}"]
    if style == "inked-box":
        lines = seal_lines(ack)

        def box(canvas: Canvas, y: float) -> None:
            with inked(canvas, x + 95, y + 31, angle / 2, ink, 1.2):
                canvas.roundRect(-95, -27, 190, 54, 6, stroke=1, fill=0)
                canvas.setFont(font, 6.5)
                for index, line in enumerate(lines):
                    canvas.drawCentredString(0, 15 - index * 11, line)

        return 64.0, box
    grey = ink if style == "inked-round" else rng.uniform(0.74, 0.84)
    radius = rng.uniform(32, 38)

    def round_seal(canvas: Canvas, y: float) -> None:
        with inked(canvas, x + radius + 4, y + radius + 4, angle, grey, 1.3):
            canvas.circle(0, 0, radius, stroke=1, fill=0)
            canvas.setLineWidth(0.6)
            canvas.circle(0, 0, radius - 9, stroke=1, fill=0)
            if style == "embossed":  # the crimped rim of a seal press
                for tooth in range(48):
                    a = 2 * math.pi * tooth / 48
                    canvas.line(radius * math.cos(a), radius * math.sin(a), (radius + 3) * math.cos(a), (radius + 3) * math.sin(a))
            _arc_text(canvas, f"{name} \u2022 NOTARY PUBLIC", font, 5.6, radius - 6.5, top=True)
            _arc_text(canvas, f"STATE OF {state}", font, 5.6, radius - 6.5, top=False)
            canvas.setFont(font, 5.2)
            for index, line in enumerate(middle):
                canvas.drawCentredString(0, 2 - index * 7, line)

    return 2 * radius + 12, round_seal


@contextmanager
def inked(canvas: Canvas, x: float, y: float, angle: float, ink: float, line_width: float) -> Iterator[None]:
    """Draw inside in grey `ink` with lines `line_width` thick, the origin at (x, y from the
    page's top) and turned `angle` degrees: a stamp or seal struck at a slant."""
    canvas.saveState()
    canvas.translate(x, PAGE_H - y)
    canvas.rotate(angle)
    canvas.setStrokeGray(ink)
    canvas.setFillGray(ink)
    canvas.setLineWidth(line_width)
    try:
        yield
    finally:
        canvas.restoreState()


def seal_lines(ack: Acknowledgment) -> list[str]:
    """What a notary's rectangular stamp says: the name, the office and state, the commission and
    its expiry (the plain copies' ruled seal box says the same)."""
    return [ack.notary.upper(), f"NOTARY PUBLIC - STATE OF {ack.state.upper()}", f"COMMISSION NO. {ack.commission}",
            f"MY COMMISSION EXPIRES {ack.expires.strftime('%m/%d/%Y')}"]


def _arc_text(canvas: Canvas, text: str, font: str, size: float, radius: float, *, top: bool) -> None:
    """`text` around a circle of `radius` about the origin: over the top reading left to right,
    or along the bottom, its letters upright to the rim."""
    widths = [stringWidth(c, font, size) for c in text]
    total = sum(widths) / radius  # radians the text spans
    angle = math.pi / 2 + total / 2 if top else -math.pi / 2 - total / 2
    canvas.setFont(font, size)
    for char, w in zip(text, widths, strict=True):
        half = w / 2 / radius
        angle += -half if top else half
        canvas.saveState()
        canvas.translate(radius * math.cos(angle), radius * math.sin(angle))
        canvas.rotate(math.degrees(angle) - 90 if top else math.degrees(angle) + 90)
        canvas.drawCentredString(0, -size / 3 if top else 0, char)
        canvas.restoreState()
        angle += -half if top else half


def recording_era(instrument: Instrument) -> str:
    """How the copy shows its recording: "rubber-stamp" before `RUBBER_STAMP_UNTIL`, else the
    recorder's own placement, an e-recording header becoming a first-page box before
    `E_RECORDING_FROM`."""
    assert instrument.recording is not None
    year = instrument.recording.when.year
    if year < RUBBER_STAMP_UNTIL:
        return "rubber-stamp"
    if instrument.recorder.placement == "header-every-page" and year < E_RECORDING_FROM:
        return "box-first-page"
    return instrument.recorder.placement


def rubber_stamp_lines(instrument: Instrument) -> list[str]:
    """What a recorder's rubber stamp of its era says: its heading, the county, the date and the
    hour struck by hand, the number where the county keeps one, book and page, fee and office."""
    recording, style = instrument.recording, instrument.recorder
    assert recording is not None
    when = recording.when
    hour = f"{when.hour % 12 or 12}:{when.minute:02d} o'clock {'A.M.' if when.hour < 12 else 'P.M.'}"
    lines = [style.heading, f"{style.county.upper()} COUNTY, {style.state.upper()}", f"{when.strftime(style.date_format)} at {hour}"]
    if style.number_label:
        lines.append(f"{style.number_label} {recording.number}")
    lines.append((style.book_page or "Book {book} Page {page}").format(book=recording.book, page=recording.page))
    lines.append(f"{style.fee_label} {recording.fee}")
    lines.append(f"{style.county} County {style.office}")
    return lines


def rubber_stamp(instrument: Instrument, x: float, rng: random.Random, *, paper: bool) -> Draw:
    """The drawing of the recorder's inked rubber stamp, with the deputy's
    signature on its last line; its top-left corner at (x, y). Struck by hand on `paper` (a
    scanned copy) it sits at a slant; a born-digital copy of an old instrument is the record's
    transcription, its stamp level."""
    lines = rubber_stamp_lines(instrument)
    angle = rng.choice((-1, 1)) * rng.uniform(1.5, 5.0) if paper else 0.0
    ink = rng.uniform(0.1, 0.35)
    font = rng.choice(("Times-Bold", "Helvetica-Bold", "Courier-Bold"))
    width = max(stringWidth(line, font, 8.5) for line in lines) + 20
    height = 16 + 11 * len(lines) + 18
    deputy = signature_hand(rng, 30, 110)

    def draw(canvas: Canvas, y: float) -> None:
        with inked(canvas, x, y, angle, ink, 1.6):
            canvas.roundRect(0, -height, width, height, 5, stroke=1, fill=0)
            canvas.setLineWidth(0.5)
            canvas.roundRect(3, -height + 3, width - 6, height - 6, 4, stroke=1, fill=0)
            for index, line in enumerate(lines):
                canvas.setFont(font, 10 if index == 0 else 8.5)
                canvas.drawCentredString(width / 2, -15 - index * 11, line)
            canvas.setFont(font, 7.5)
            canvas.drawString(10, -height + 8, "By")
            canvas.drawRightString(width - 10, -height + 8, "Deputy")
        # The deputy signs after the stamp is struck: level, across its foot.
        canvas.saveState()
        canvas.translate(x, 0)
        deputy(canvas, y + height - 12)
        canvas.restoreState()

    return draw


def office_stamp(rng: random.Random, x: float, when_text: str) -> Draw:
    """A "RECEIVED" stamp of a title company or office at a slant: the date, perhaps a clock
    time, the office; no recording number, no book and page."""
    office = rng.choice(OFFICES)
    angle = rng.choice((-1, 1)) * rng.uniform(3, 12)
    ink = rng.uniform(0.15, 0.4)
    lines = ["RECEIVED", when_text, office]
    width = max(stringWidth(line, "Helvetica-Bold", 9) for line in lines) + 16

    def draw(canvas: Canvas, y: float) -> None:
        with inked(canvas, x, y, angle, ink, 1.2):
            canvas.rect(0, -44, width, 44, stroke=1, fill=0)
            for index, line in enumerate(lines):
                canvas.setFont("Helvetica-Bold", 11 if index == 0 else 8)
                canvas.drawCentredString(width / 2, -14 - index * 11, line)

    return draw
