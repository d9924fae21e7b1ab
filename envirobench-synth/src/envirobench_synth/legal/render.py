"""`render_instrument(instrument, seed, *labels, scanned=False)`: an instrument's PDF and its truth.

The instrument is laid out in its template's font (a PDF base-14 font: nothing embedded, so a
page costs a few kilobytes), signature blocks and acknowledgments kept whole on one page, then
drawn with reportlab (`invariant=1`: the same bytes on every run). Signatures are pen strokes
(Bézier curves, no text), conformed signatures the typed "/s/ name", a notary's seal a ruled
box. The recorder's data is stamped where the recorder style puts it: a box on the first or the
last page, or a header line on every page (e-recording). With `archival` (every Legal dataset)
the copy is one of its era instead (`marks`: signatures in several hands, seals of three kinds,
the recording stamp of the year it was recorded, received stamps on paper) and a scanned copy is
an archive's (`archive`: scans, photocopies and faxes, written on, each page recorded).

A scanned copy rasterises every page (pypdfium2), degrades it with `degrade.scan_page` (skew,
blur, grey paper, noise, the scanner's clean-up) and reduces it to black and white, as
recorders' archives keep scans; each page is then one black-and-white image in the PDF (a 1-bit
CCITT Group 4 image with `group4`, else the same pixels as reportlab's 8-bit image).

The truth returned with the bytes: the status, and the evidence pages (1-based) where the copy
shows it (see `evidence_pages`).
"""

from __future__ import annotations

import datetime as dt
import io
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from ..pdfpages import new_canvas, scanned_copy, wrap
from ..rng import make_random
from .archive import PageScan, archive_copy
from .instruments import Acknowledgment, Instrument, Signature, long_date
from .marks import (
    OFFICE_STAMP_SHARE,
    notary_seal,
    office_stamp,
    recording_era,
    rubber_stamp,
    seal_lines,
    signature_hand,
)

PAGE_W, PAGE_H = 612.0, 792.0
MARGIN = 72.0
BOTTOM = PAGE_H - 60.0  # content stops here; the footer sits below
SCAN_DPIS = (120, 150)  # recorders scan at various resolutions; each scanned copy draws one
MAX_SCAN_SKEW = 0.6  # degrees
PDF_CREATOR = "EnviroBench synthetic recorded instrument"

Draw = Callable[[Canvas, float], None]  # draws a row whose top is at y (from the page top)


@dataclass
class Row:
    height: float
    draw: Draw
    tags: tuple[str, ...] = ()


@dataclass
class Block:
    rows: list[Row]
    keep: bool = False  # never split across pages
    new_page: bool = False  # start on a fresh page


@dataclass
class RenderedInstrument:
    pdf: bytes
    pages: int
    status: str
    evidence_pages: tuple[int, ...]
    scanned: bool
    page_tags: list[set[str]] = field(repr=False)
    scan_pages: tuple[PageScan, ...] = ()  # what each page of an archival scan went through


def fonts(template_font: str) -> tuple[str, str]:
    regular = {"Times": "Times-Roman", "Helvetica": "Helvetica", "Courier": "Courier"}[template_font]
    return regular, {"Times": "Times-Bold", "Helvetica": "Helvetica-Bold", "Courier": "Courier-Bold"}[template_font]


def text_row(text: str, font: str, size: float, *, x: float = MARGIN, align: str = "left", tags: tuple[str, ...] = (),
             grey: float = 0.0) -> Row:
    def draw(canvas: Canvas, y: float) -> None:
        canvas.setFont(font, size)
        canvas.setFillGray(grey)
        baseline = PAGE_H - y - size
        if align == "center":
            canvas.drawCentredString(PAGE_W / 2, baseline, text)
        elif align == "right":
            canvas.drawRightString(PAGE_W - MARGIN, baseline, text)
        else:
            canvas.drawString(x, baseline, text)

    return Row(size * 1.35, draw, tags)


def paragraph(text: str, font: str, size: float, *, indent: float = 0.0, tags: tuple[str, ...] = ()) -> Block:
    width = PAGE_W - 2 * MARGIN - indent
    rows = [text_row(line, font, size, x=MARGIN + indent, tags=tags) for line in wrap(text, font, size, width)]
    rows.append(Row(size * 0.7, lambda canvas, y: None))
    return Block(rows)


def scribble(rng: random.Random, x: float, width: float) -> Draw:
    """Pen strokes of a signature: a few joined Bézier loops, drawn above the line at y."""
    strokes = []
    position = x + rng.uniform(4, 14)
    end = x + min(width - 6, rng.uniform(90, 170))
    while position < end:
        step = rng.uniform(14, 34)
        strokes.append((position, rng.uniform(-3, 12), position + step * 0.3, rng.uniform(4, 24),
                        position + step * 0.7, rng.uniform(-8, 16), position + step, rng.uniform(0, 10)))
        position += step
    thickness = rng.uniform(0.7, 1.3)
    ink = rng.uniform(0.0, 0.25)

    def draw(canvas: Canvas, line_y: float) -> None:
        canvas.saveState()
        canvas.setStrokeGray(ink)
        canvas.setLineWidth(thickness)
        canvas.setLineCap(1)
        path = canvas.beginPath()
        first = strokes[0]
        path.moveTo(first[0], PAGE_H - line_y + 2 + first[1])
        for _x0, _y0, x1, y1, x2, y2, x3, y3 in strokes:
            path.curveTo(x1, PAGE_H - line_y + 2 + y1, x2, PAGE_H - line_y + 2 + y2, x3, PAGE_H - line_y + 2 + y3)
        canvas.drawPath(path, stroke=1, fill=0)
        canvas.restoreState()

    return draw


def signature_line(instrument: Instrument, rng: random.Random, mark: str, name: str, label: str, x: float,
                   size: float, tag: str, archival: bool = False) -> list[Row]:
    """A signature line with what the copy shows on it, and the printed name and label under it
    (`archival`: the signature in a hand of its own, `marks.signature_hand`)."""
    template = instrument.template
    regular, _ = fonts(template.font)
    width = 216.0
    ink = (signature_hand if archival else scribble)(rng, x, width) if mark == "ink" else None

    def draw(canvas: Canvas, y: float) -> None:
        line_y = y + 30
        if template.signature_line == "rule":
            canvas.setStrokeGray(0)
            canvas.setLineWidth(0.6)
            canvas.line(x, PAGE_H - line_y, x + width, PAGE_H - line_y)
        else:
            canvas.setFont(regular, size)
            canvas.setFillGray(0)
            count = int(width / stringWidth("_", regular, size))
            canvas.drawString(x, PAGE_H - line_y, "_" * count)
        if ink is not None:
            ink(canvas, line_y)
        elif mark == "conformed":
            canvas.setFont(regular, size)
            canvas.setFillGray(0)
            canvas.drawString(x + 6, PAGE_H - line_y + 3, f"/s/ {name}")

    rows = [Row(34, draw, (f"{tag}-{mark}",))]
    rows.append(text_row(f"{label} {name}".strip() if label.endswith(":") else name, regular, size, x=x))
    if not label.endswith(":"):
        rows.append(text_row(label, regular, size * 0.9, x=x))
    return rows


def signature_block(instrument: Instrument, rng: random.Random, sig: Signature, size: float, archival: bool = False) -> Block:
    template = instrument.template
    regular, bold = fonts(template.font)
    x = PAGE_W / 2 - 20
    rows = [Row(8, lambda canvas, y: None), text_row(f"{sig.role}:", bold, size, x=x), text_row(sig.party, regular, size, x=x)]
    printed = sig.signer if sig.signer == sig.party else f"{sig.signer}, {sig.capacity}"
    rows += signature_line(instrument, rng, sig.mark, printed, template.signature_label, x, size, "signature", archival)
    return Block(rows, keep=True)


def seal(ack: Acknowledgment, font: str, x: float) -> Draw:
    lines = seal_lines(ack)

    def draw(canvas: Canvas, y: float) -> None:
        canvas.setStrokeGray(0.1)
        canvas.setLineWidth(1.2)
        canvas.roundRect(x, PAGE_H - y - 58, 190, 54, 6, stroke=1, fill=0)
        canvas.setFont(font, 6.5)
        canvas.setFillGray(0.1)
        for index, line in enumerate(lines):
            canvas.drawCentredString(x + 95, PAGE_H - y - 16 - index * 11, line)

    return draw


def acknowledgment_block(instrument: Instrument, rng: random.Random, ack: Acknowledgment, size: float,
                         archival: bool = False, paper: bool = False) -> Block:
    """The notary's acknowledgment (`archival`: a signature hand and a seal of its own style,
    `marks.notary_seal`, an embossed one possible on a `paper` original)."""
    template = instrument.template
    regular, bold = fonts(template.font)
    rows = [Row(10, lambda canvas, y: None)]
    rows.append(text_row(f"STATE OF {ack.state.upper()}", regular, size))
    rows.append(text_row(f"COUNTY OF {ack.county.upper()}", regular, size))
    rows.append(Row(4, lambda canvas, y: None))
    if ack.mark == "blank":
        text = template.blank_acknowledgment
    else:
        text = template.acknowledgment.format(date=long_date(ack.date), signer=ack.signer, capacity=ack.capacity)
    rows += paragraph(text, regular, size).rows
    x = PAGE_W / 2 - 20
    label = template.notary_label.format(state=ack.state)
    line_mark = "blank" if ack.mark == "prefilled" else ack.mark
    rows += signature_line(instrument, rng, line_mark, ack.notary if ack.mark != "blank" else "", label, x, size, "notary", archival)
    expires = ack.expires.strftime("%m/%d/%Y") if ack.mark != "blank" else "________________"
    rows.append(text_row(f"{template.commission_label} {expires}", regular, size, x=x))
    if ack.mark == "ink" and archival:
        height, draw = notary_seal(ack, bold, MARGIN + rng.uniform(0, 15), rng, paper=paper)
        rows.append(Row(height, draw))
    elif ack.mark == "ink":
        rows.append(Row(62, seal(ack, bold, MARGIN)))
    elif ack.mark == "conformed":
        rows.append(text_row("[NOTARIAL SEAL]", regular, size, x=MARGIN))
    return Block(rows, keep=True)


def stamp_lines(instrument: Instrument) -> list[str]:
    recording, style = instrument.recording, instrument.recorder
    assert recording is not None
    when = f"{recording.when.strftime(style.date_format)} {recording.when.strftime(style.time_format)}"
    lines = [style.heading, f"{style.county.upper()} COUNTY, {style.state.upper()}"]
    if style.number_label:
        lines.append(f"{style.number_label} {recording.number}")
    if style.book_page:
        lines.append(style.book_page.format(book=recording.book, page=recording.page))
    lines += [when, f"{style.fee_label} {recording.fee}  Pages: {recording.pages}", f"{style.county} County {style.office}"]
    return lines


def stamp_box(instrument: Instrument, x: float) -> Draw:
    def draw(canvas: Canvas, y: float) -> None:
        lines = stamp_lines(instrument)
        height = 12 + 11 * len(lines)
        canvas.setStrokeGray(0)
        canvas.setLineWidth(1.0)
        canvas.rect(x, PAGE_H - y - height, 230, height, stroke=1, fill=0)
        canvas.setFillGray(0)
        for index, line in enumerate(lines):
            canvas.setFont("Courier-Bold", 8.5)
            canvas.drawString(x + 8, PAGE_H - y - 15 - index * 11, line)

    return draw


def header_stamp(instrument: Instrument, page: int) -> Draw:
    def draw(canvas: Canvas, y: float) -> None:
        recording, style = instrument.recording, instrument.recorder
        assert recording is not None
        parts = [f"{style.heading} {style.county} County {style.state}"]
        if style.number_label:
            parts.append(f"{style.number_label} {recording.number}")
        if style.book_page:
            parts.append(style.book_page.format(book=recording.book, page=recording.page))
        parts.append(f"{recording.when.strftime(style.date_format)} {recording.when.strftime(style.time_format)}")
        parts.append(f"Page {page} of {recording.pages}")
        canvas.setFont("Helvetica", 8)
        canvas.setFillGray(0)
        canvas.drawString(36, PAGE_H - 22, "  ".join(parts))

    return draw


def layout(instrument: Instrument, rng: random.Random, archival: bool = False, paper: bool = False
           ) -> tuple[list[list[tuple[float, Row]]], float]:
    """Blocks flowed into pages: each page a list of (top y, row)."""
    template = instrument.template
    regular, bold = fonts(template.font)
    size = template.size
    blocks: list[Block] = []
    top_rows = [text_row(line, regular, size - 1, x=MARGIN) for line in instrument.return_to]
    top_rows.append(text_row(template.prepared_by, regular, size - 1.5, x=MARGIN))
    blocks.append(Block(top_rows))
    first_top = 200.0 if template.recorder_space else 160.0
    title_tags = ("marker",) if instrument.draft_marker and not instrument.marker_every_page else ()
    if instrument.draft_marker and not instrument.marker_every_page:
        blocks.append(Block([text_row(instrument.draft_marker, bold, size + 2, align="center", tags=title_tags)]))
    blocks.append(Block([text_row(instrument.title, bold, size + 3, align="center"), Row(8, lambda c, y: None)]))
    blank_tags = ("blanks",) if instrument.scenario == "bracketed-blanks" else ()
    for text in instrument.body:
        blocks.append(paragraph(text, regular, size, tags=blank_tags if "[" in text else ()))
    blocks.append(paragraph(instrument.witness_clause, regular, size, tags=blank_tags))
    if instrument.signature_pages_missing:
        blocks.append(paragraph("[Signature page follows]", regular, size, tags=("signature-page-follows",)))
    signature_blocks = [signature_block(instrument, rng, sig, size, archival) for sig in instrument.signatures]
    ack_blocks = [acknowledgment_block(instrument, rng, ack, size, archival, paper) for ack in instrument.acknowledgments]
    if instrument.signature_pages_missing:
        signature_blocks[0].new_page = True
    blocks += signature_blocks + ack_blocks
    if instrument.exhibit is not None:
        exhibit = [text_row("EXHIBIT A", bold, size + 1, align="center"), text_row("Legal Description", regular, size, align="center"),
                   Row(10, lambda c, y: None)]
        exhibit += paragraph(instrument.exhibit, regular, size).rows + paragraph(f"APN: {instrument.apn}", regular, size).rows
        blocks.append(Block(exhibit, new_page=True))
    if instrument.recording is not None and placement(instrument, archival) == "box-last-page":
        blocks.append(Block([Row(14, lambda c, y: None), Row(110, stamp_box(instrument, MARGIN), ("stamp",))], keep=True))

    pages: list[list[tuple[float, Row]]] = [[]]
    y = 60.0
    for index, block in enumerate(blocks):
        if index == 1:
            y = first_top
        height = sum(row.height for row in block.rows)
        if block.new_page or (block.keep and y + height > BOTTOM):
            pages.append([])
            y = MARGIN
        for row in block.rows:
            if y + row.height > BOTTOM:
                pages.append([])
                y = MARGIN
            pages[-1].append((y, row))
            y += row.height
    return pages, first_top


def placement(instrument: Instrument, archival: bool) -> str:
    """Where the copy shows its recording: the recorder's placement, or (`archival`) the one of
    the year it was recorded (`marks.recording_era`)."""
    return recording_era(instrument) if archival else instrument.recorder.placement


def draw_furniture(canvas: Canvas, instrument: Instrument, index: int, pages: int, first_top: float,
                   archival: bool = False, first_page_stamps: Sequence[Draw] = ()) -> set[str]:
    """What every page carries besides its rows: recorder's space, stamps, markers, footer;
    `first_page_stamps` the archival copy's own (`archival_stamps`: drawn with their top at y 0,
    they hold their own place)."""
    template = instrument.template
    regular, bold = fonts(template.font)
    tags: set[str] = set()
    number = index + 1
    if index == 0 and template.recorder_space:
        canvas.setStrokeGray(0)
        canvas.setLineWidth(0.5)
        canvas.line(MARGIN, PAGE_H - first_top + 18, PAGE_W - MARGIN, PAGE_H - first_top + 18)
        canvas.setFont(regular, 7)
        canvas.drawCentredString(PAGE_W / 2, PAGE_H - first_top + 9, "SPACE ABOVE THIS LINE FOR RECORDER'S USE")
    recording = instrument.recording
    if recording is not None:
        where = placement(instrument, archival)
        if where == "box-first-page" and index == 0:
            stamp_box(instrument, PAGE_W - MARGIN - 200)(canvas, 40)
            tags.add("stamp")
        elif where == "header-every-page":
            header_stamp(instrument, number)(canvas, 0)
            tags.add("stamp")
        elif where == "rubber-stamp" and index == 0:
            tags.add("stamp")  # drawn among first_page_stamps
    for draw in first_page_stamps if index == 0 else ():
        draw(canvas, 0)
    if instrument.draft_marker and instrument.marker_every_page:
        canvas.setFont(bold, 11)
        canvas.setFillGray(0)
        canvas.drawRightString(PAGE_W - MARGIN, PAGE_H - 44, instrument.draft_marker)
        tags.add("marker")
    if instrument.execution_version and index == 0:
        canvas.setFont(bold, 9)
        canvas.setFillGray(0)
        first_box = recording and placement(instrument, archival) in ("box-first-page", "rubber-stamp")
        canvas.drawRightString(PAGE_W - MARGIN, PAGE_H - (160 if first_box else 44), "Execution Version")
    if template.page_footer:
        canvas.setFont(regular, 8)
        canvas.setFillGray(0)
        canvas.drawCentredString(PAGE_W / 2, 36, template.page_footer.format(page=number, pages=pages))
    return tags


def emit(instrument: Instrument, pages: list[list[tuple[float, Row]]], first_top: float, total: int,
         pdf_title: str, archival: bool = False, first_page_stamps: Sequence[Draw] = ()) -> tuple[bytes, list[set[str]]]:
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, pdf_title, PDF_CREATOR, (PAGE_W, PAGE_H))
    page_tags = []
    for index, rows in enumerate(pages):
        tags = draw_furniture(canvas, instrument, index, total, first_top, archival, first_page_stamps)
        for y, row in rows:
            row.draw(canvas, y)
            tags.update(row.tags)
        page_tags.append(tags)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue(), page_tags


def scanned_pdf(pdf: bytes, pages: int, title: str, seed: int, *labels: str | int, group4: bool = False) -> bytes:
    """Every page rasterised, degraded and reduced to black and white, one image per page
    (`group4`: 1-bit Group 4 images; else the same pixels as 8-bit images)."""
    dpi = make_random(seed, *labels, "scan-dpi").choice(SCAN_DPIS)
    return scanned_copy(pdf, pages, dpi, (PAGE_W, PAGE_H), title, PDF_CREATOR, seed, *labels, max_angle=MAX_SCAN_SKEW,
                        group4=group4)


EVIDENCE_TAGS = {
    "recorded": ("stamp",),
    "recorded-conformed": ("stamp",),
    "unrecorded": ("signature-ink", "notary-ink"),
    "draft-marker": ("marker",),
    "execution-version-unsigned": ("signature-blank",),
    "bracketed-blanks": ("blanks", "signature-blank"),
    "blank-notary": ("notary-blank",),
    "covenant-missing-signature": ("signature-blank",),
    "conformed-unrecorded": ("signature-conformed", "notary-conformed"),
}


def evidence_pages(scenario: str, page_tags: list[set[str]]) -> tuple[int, ...]:
    """The pages (1-based) that show the status: the stamp of a recorded copy, the signed pages
    of an unrecorded one, the marker, blanks or blank block of an unexecuted one, the conformed
    pages of a conformed copy; for a copy without its signature pages, its last page."""
    if scenario == "missing-signature-pages":
        return (len(page_tags),)
    wanted = EVIDENCE_TAGS[scenario]
    pages = tuple(i + 1 for i, tags in enumerate(page_tags) if any(t in tags for t in wanted))
    if not pages:
        raise ValueError(f"scenario {scenario!r} left no evidence on any page")
    return pages


# The Title metadata of a dataset's single-instrument PDFs: the same word whatever the kind.
NEUTRAL_TITLE = "Document"


def render_instrument(instrument: Instrument, seed: int, *labels: str | int, scanned: bool = False,
                      pdf_title: str | None = None, group4: bool = False, archival: bool = False) -> RenderedInstrument:
    """`pdf_title`: the PDF's Title metadata, by default the instrument's title. A dataset whose
    cases are single instruments gives a neutral one: the metadata is read without opening a page
    and would name the instrument's kind even on a scan. `group4`: a scanned copy's pages are
    1-bit CCITT Group 4 images, as recorders keep them; the Site records embed the same
    black-and-white pixels as 8-bit images, three times the bytes, until they are next made.
    `archival` (every Legal dataset; not yet the Site records): the marks of a
    real copy of its era (`marks`: signature hands, seal styles, the recording stamp of its year,
    received stamps) and, scanned, an archive's copy (`archive.archive_copy`: photocopies and
    faxes, handwriting in the margins, bleed-through, each page's degradation in `scan_pages`;
    always Group 4)."""
    pdf_title = instrument.title.title() if pdf_title is None else pdf_title
    rng = make_random(seed, *labels, "ink")
    pages, first_top = layout(instrument, rng, archival, scanned)
    total = len(pages)
    stamps = archival_stamps(instrument, rng, scanned) if archival else []
    if instrument.recording is not None:
        instrument.recording.pages = total
    shown = pages
    if instrument.signature_pages_missing:
        # The copy stops where the signature pages would begin; the footer still counts them.
        first_signature = next(i for i, rows in enumerate(pages) if any("signature-blank" in r.tags or "signature-ink" in r.tags for _, r in rows))
        shown = pages[:first_signature]
    pdf, page_tags = emit(instrument, shown, first_top, total, pdf_title, archival, stamps)
    scan_pages: tuple[PageScan, ...] = ()
    if scanned and archival:
        signed = any(sig.mark == "ink" for sig in instrument.signatures)
        sent = (instrument.recording.when if instrument.recording else dt.datetime.combine(instrument.date, dt.time(9)))
        sent += dt.timedelta(days=make_random(seed, *labels, "fax-day").randint(0, 30), minutes=make_random(seed, *labels, "fax-time").randint(0, 480))
        pdf, scan_pages = archive_copy(pdf, len(shown), (PAGE_W, PAGE_H), pdf_title, PDF_CREATOR, seed, *labels, dpis=SCAN_DPIS,
                                       signed=signed, sender=next((line for line in instrument.return_to if not line.endswith(":")), "Records"),
                                       sent=sent.strftime("%b-%d-%Y %H:%M").upper())
    elif scanned:
        pdf = scanned_pdf(pdf, len(shown), pdf_title, seed, *labels, group4=group4)
    return RenderedInstrument(pdf, len(shown), instrument.status, evidence_pages(instrument.scenario, page_tags), scanned, page_tags,
                              scan_pages)


def archival_stamps(instrument: Instrument, rng: random.Random, paper: bool) -> list[Draw]:
    """The stamps an archival copy's first page carries beyond the recorder's own forms: the
    recorder's rubber stamp of a copy recorded before `marks.RUBBER_STAMP_UNTIL` (at a slant on
    `paper`, a scanned copy), and on some paper copies a received stamp (`marks.office_stamp`)
    below the return-to address."""
    stamps: list[Draw] = []
    if instrument.recording is not None and placement(instrument, True) == "rubber-stamp":
        stamp = rubber_stamp(instrument, PAGE_W - MARGIN - 215, rng, paper=paper)
        stamps.append(lambda canvas, _y, stamp=stamp: stamp(canvas, 30))
    if rng.random() < OFFICE_STAMP_SHARE and paper:
        day = instrument.date + dt.timedelta(days=rng.randint(0, 20))
        when = day.strftime("%b %d %Y").upper() + (f"  {rng.randint(8, 16)}:{rng.randint(0, 59):02d}" if rng.random() < 0.5 else "")
        stamp = office_stamp(rng, MARGIN + rng.uniform(150, 200), when)
        stamps.append(lambda canvas, _y, stamp=stamp: stamp(canvas, 112))
    return stamps

