"""Pages of a site file as replayable drawings, the office styles that lay them out, and PDFs.

A `Sheet` is one page as a list of drawing operations (text, wrapped paragraphs, rules, boxes,
tables) with the *facts* it states (keys such as "result|MW-3|2019-05-14|benzene", see
`pagefacts`) and what it is in its document (`doc`, `page_in_doc`). Sheets are drawn with
reportlab (`invariant=1`: the same bytes on every run) into one PDF by `emit_pdf`, which can
replace chosen pages by scans (rasterised with pypdfium2, degraded with `degrade.scan_page`,
reduced to black and white as an office scanner's archive keeps them).

An `OfficeStyle` is a document family: how one consultancy, laboratory or agency lays out its
paper (font, letterhead, date form, page numbering, continuation pages, title wording).
`STYLES_BY_SPLIT` holds the families apart: the test split's styles and title wordings never
occur in the dev split (docs/datasets.md, "Dev and test splits").

The document kinds (`letter`, `invoice`, `lab_report`, `certificate`, `permit`, `recorded_instrument`,
`custody_form`, `boring_log`, `photo_log`, `fax_cover`, `transmittal`, `report_pages`) each
return the sheets of one document; `finish` stamps their page numbers in the style's form.
"""

from __future__ import annotations

import datetime as dt
import io
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from PIL import Image
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from ..degrade import bitonal_office_scan
from ..named import by_name
from ..pdfpages import FONTS, binary_streams, new_canvas, rasterize, wrap
from .documents.kinds import TITLES as DOCUMENT_TITLES
from .names import SHARED_AGENCIES, SHARED_FIRST, SHARED_LABS, SHARED_LAST, SHARED_STREETS

PAGE_W, PAGE_H = 612.0, 792.0
MARGIN = 60.0
TOP = 54.0
BOTTOM = PAGE_H - 70.0  # body text stops here; page marks sit below
PDF_CREATOR = "EnviroBench synthetic site file"
MAX_SCAN_SKEW = 0.8


# -- office styles (document families) ----------------------------------------------------------


@dataclass(frozen=True)
class OfficeStyle:
    """How one office lays out its paper."""

    name: str
    firm: str
    address: str
    phone: str
    font: str  # Times, Helvetica or Courier
    size: float
    letterhead: str  # "banner", "centered" or "boxed"
    date_format: str  # strftime form
    page_mark: str  # {page}/{pages} form; "" for none
    mark_at: str  # "footer-center", "footer-right" or "header-right"
    continuation: (
        str  # later letter pages: "short-header" or "full-letterhead" (looks like a first page)
    )
    well_format: str  # "MW-{n}" or "MW-{n:02d}"
    nondetect: str  # "<{rl}" or "ND"
    unit: str  # "ug/L" or "µg/L" printed as "ug/l"
    summary: (
        str  # monitoring-report tables: "by-event" (one page per date) or "by-well" (one per well)
    )

    def date(self, day: dt.date) -> str:
        text = day.strftime(self.date_format)
        return text.replace(" 0", " ") if "%B" in self.date_format else text

    def well(self, number: int) -> str:
        return self.well_format.format(n=number)

    @property
    def regular(self) -> str:
        return FONTS[self.font][0]

    @property
    def bold(self) -> str:
        return FONTS[self.font][1]


STYLES: tuple[OfficeStyle, ...] = (
    OfficeStyle(
        "harrow-quill",
        "Harrow & Quill Environmental, Inc.",
        "410 Mercer Avenue, Suite 200, Dunmore, OR 97301",
        "(503) 555-0142",
        "Helvetica",
        9.5,
        "banner",
        "%B %d, %Y",
        "Page {page} of {pages}",
        "footer-center",
        "short-header",
        "MW-{n}",
        "<{rl}",
        "ug/L",
        "by-event",
    ),
    OfficeStyle(
        "tamarack",
        "Tamarack Geosciences LLC",
        "77 Foundry Road, Cass Lake, MN 56633",
        "218.555.0199",
        "Times",
        10.5,
        "centered",
        "%m/%d/%Y",
        "{page}",
        "footer-right",
        "full-letterhead",
        "MW-{n}",
        "ND",
        "ug/L",
        "by-well",
    ),
    OfficeStyle(
        "brightwater",
        "Brightwater Consulting Engineers",
        "2200 Levee Street, Greenville, MS 38701",
        "662-555-0107",
        "Courier",
        9.0,
        "boxed",
        "%d %b %Y",
        "- {page} -",
        "footer-center",
        "short-header",
        "MW-{n}",
        "<{rl}",
        "ug/L",
        "by-event",
    ),
    # test families: letterheads, dates, numbering and well IDs the dev split never shows
    OfficeStyle(
        "corvid-pell",
        "Corvid Pell Environmental Group",
        "9 Wharf Street, Port Ellery, ME 04011",
        "207 555 0123",
        "Times",
        10.0,
        "boxed",
        "%Y-%m-%d",
        "Page {page}",
        "header-right",
        "full-letterhead",
        "MW-{n:02d}",
        "ND",
        "µg/L",
        "by-well",
    ),
    OfficeStyle(
        "sandoval-kline",
        "Sandoval Kline Associates",
        "1818 Arroyo Boulevard, Las Cruces, NM 88001",
        "575-555-0166",
        "Helvetica",
        10.0,
        "centered",
        "%d %B %Y",
        "Sheet {page} of {pages}",
        "header-right",
        "short-header",
        "MW{n}",
        "<{rl}",
        "µg/L",
        "by-event",
    ),
    OfficeStyle(
        "okafor-dunne",
        "Okafor Dunne Earth Sciences",
        "55 Quarry Lane, Athens, GA 30601",
        "(706) 555-0188",
        "Courier",
        9.5,
        "banner",
        "%b. %d, %Y",
        "",
        "footer-center",
        "full-letterhead",
        "MW-{n}",
        "ND",
        "ug/L",
        "by-well",
    ),
)
DEV_STYLES = ("harrow-quill", "tamarack", "brightwater")
TEST_STYLES = ("corvid-pell", "sandoval-kline", "okafor-dunne")
STYLES_BY_SPLIT = {"dev": DEV_STYLES, "test": TEST_STYLES}

# Title wordings per document kind and split: the test split's never occur in dev. A kind that
# both this site file and the document-type set draw carries the document-type set's wordings
# (DOCUMENT_TITLES) where the two agree, so the one wording list serves both.
TITLES: dict[str, dict[str, tuple[str, ...]]] = {
    "invoice": DOCUMENT_TITLES["invoice"],
    "lab-report": {
        "dev": ("ANALYTICAL REPORT", "CERTIFICATE OF ANALYSIS"),
        "test": ("LABORATORY REPORT", "REPORT OF ANALYSIS"),
    },
    "certificate": {
        "dev": ("CERTIFICATE OF DISPOSAL", "CERTIFICATE OF COMPLETION"),
        "test": (
            "CERTIFICATE OF DESTRUCTION",
            "CERTIFICATE OF CALIBRATION",
            "CERTIFICATE OF INSURANCE",
        ),
    },
    "permit": {
        "dev": ("DISCHARGE PERMIT", "WELL CONSTRUCTION PERMIT"),
        "test": ("AUTHORIZATION TO DISCHARGE", "WELL DRILLING LICENSE"),
    },
    "covenant": {
        "dev": ("ENVIRONMENTAL COVENANT",),
        "test": ("ENVIRONMENTAL COVENANT", "DECLARATION OF ENVIRONMENTAL RESTRICTIONS"),
    },
    "deed": DOCUMENT_TITLES["deed"],
    "custody": DOCUMENT_TITLES["chain-of-custody"],
    "boring-log": {
        "dev": ("BORING LOG", "LOG OF BORING"),
        "test": ("WELL COMPLETION LOG", "SOIL BORING RECORD"),
    },
    "photo-log": DOCUMENT_TITLES["photo-page"],
    "fax": {
        "dev": ("FAX", "FACSIMILE TRANSMITTAL"),
        "test": ("TELECOPY COVER SHEET", "FAX TRANSMISSION"),
    },
    "transmittal": DOCUMENT_TITLES["transmittal"],
    "report": {
        "dev": ("GROUNDWATER MONITORING REPORT", "PHASE II ENVIRONMENTAL SITE ASSESSMENT"),
        "test": ("SEMIANNUAL GROUNDWATER SAMPLING REPORT", "SUBSURFACE INVESTIGATION REPORT"),
    },
}
SALUTATIONS = {"dev": ("Dear {name}:",), "test": ("Dear {name},", "{name}:")}
CLOSINGS = {
    "dev": ("Sincerely,", "Very truly yours,"),
    "test": ("Respectfully submitted,", "Regards,"),
}


def style(name: str) -> OfficeStyle:
    return by_name(STYLES, name, "office style")


# -- names and places -------------------------------------------------------------------------------

FIRST = (
    *SHARED_FIRST,
    "Lucian",
    "Mireille",
    "Nnamdi",
    "Orla",
    "Pavel",
    "Rhea",
    "Soren",
    "Thea",
    "Umar",
)
LAST = (
    *SHARED_LAST,
    "Kettering",
    "Lindgren",
    "Mbeki",
    "Nakamura",
    "Osei",
    "Prescott",
    "Quintero",
    "Rutledge",
)
LABS = (
    *SHARED_LABS,
    "Tri-State Analytical, Inc.",
    "Meridian Laboratory Group",
)
VENDORS = (
    "Ridgeline Drilling Co.",
    "Precision Utility Locating",
    "Cascade Waste Transport",
    "Summit Survey Group",
    "Delta Pump & Well Service",
    "Kestrel Equipment Rental",
)
CLIENTS = (
    "Redfern Petroleum Company",
    "Blue Heron Holdings, LLC",
    "Sutter Row Cleaners, Inc.",
    "Ironwood Rail Services Company",
    "Cedar Point Terminals, Inc.",
    "Mesa Verde Storage LLC",
)
AGENCIES = (
    *SHARED_AGENCIES,
    "Water Quality Control Board",
)
STREETS = SHARED_STREETS
COUNTIES = ("Marlow", "Teasdale", "Rookwood", "Alder", "Cinder", "Saltmarsh")
FILLER = (
    "Field activities were performed in general accordance with the approved work plan and the applicable "
    "guidance of the {agency}.",
    "Purge water was containerized in labeled drums and stored on site pending characterization and disposal.",
    "Each well was gauged with an electronic water-level meter before purging; no measurable free product was "
    "observed.",
    "Samples were placed on ice immediately after collection and delivered to the laboratory under chain-of-custody "
    "procedures.",
    "The site is underlain by silty clay to approximately 12 feet, over fine to medium sand with gravel.",
    "Groundwater flow was inferred to the southwest, consistent with previous monitoring events.",
    "Access to the property was coordinated with the owner's representative before each field day.",
    "No deviations from the standard operating procedures were noted during the event.",
    "The findings are based on the conditions observed at the time of the work and on the data available to us.",
    "Quality control samples included one field duplicate and one trip blank per shipping cooler.",
)


def person(rng: random.Random) -> str:
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}"


def money(cents: int) -> str:
    return f"${cents // 100:,}.{cents % 100:02d}"


# -- sheets ----------------------------------------------------------------------------------------

Op = Callable[[Canvas], None]


@dataclass
class Sheet:
    """One page: its drawing, the facts it states and where it sits in its document."""

    style: OfficeStyle
    kind: str  # the document kind
    ops: list[Op] = field(default_factory=list)
    y: float = TOP
    facts: set[str] = field(default_factory=set)
    page_in_doc: int = 1
    blank: bool = False

    # drawing helpers, y measured from the page top
    def text(
        self,
        text: str,
        *,
        size: float | None = None,
        bold: bool = False,
        x: float = MARGIN,
        align: str = "left",
        y: float | None = None,
        advance: bool = True,
        font: str | None = None,
    ) -> None:
        size = size or self.style.size
        name = font or (self.style.bold if bold else self.style.regular)
        top = self.y if y is None else y

        def op(canvas: Canvas) -> None:
            canvas.setFont(name, size)
            base = PAGE_H - top - size
            if align == "center":
                canvas.drawCentredString(PAGE_W / 2, base, text)
            elif align == "right":
                canvas.drawRightString(PAGE_W - MARGIN if x == MARGIN else x, base, text)
            else:
                canvas.drawString(x, base, text)

        self.ops.append(op)
        if advance and y is None:
            self.y += size * 1.4

    def para(
        self, text: str, *, size: float | None = None, indent: float = 0.0, bold: bool = False
    ) -> None:
        size = size or self.style.size
        font = self.style.bold if bold else self.style.regular
        for line in wrap(text, font, size, PAGE_W - 2 * MARGIN - indent):
            self.text(line, size=size, x=MARGIN + indent, bold=bold)
        self.y += size * 0.6

    def gap(self, height: float) -> None:
        self.y += height

    def fields(self, rows: Sequence[tuple[str, str]], *, indent: float) -> None:
        """Labelled lines, as a form or a cover page prints them: each label and a colon in bold,
        its value on the same line `indent` points from the margin."""
        for label, value in rows:
            self.text(f"{label}:", bold=True, advance=False)
            self.text(value, x=MARGIN + indent)

    def rule(
        self,
        *,
        x0: float = MARGIN,
        x1: float = PAGE_W - MARGIN,
        width: float = 0.8,
        y: float | None = None,
    ) -> None:
        top = self.y if y is None else y

        def op(canvas: Canvas) -> None:
            canvas.setLineWidth(width)
            canvas.line(x0, PAGE_H - top, x1, PAGE_H - top)

        self.ops.append(op)

    def box(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        *,
        width: float = 0.8,
        fill: float | None = None,
    ) -> None:
        def op(canvas: Canvas) -> None:
            canvas.setLineWidth(width)
            if fill is not None:
                canvas.setFillGray(fill)
            canvas.rect(x, PAGE_H - y - h, w, h, stroke=1, fill=1 if fill is not None else 0)
            canvas.setFillGray(0)

        self.ops.append(op)

    def table(
        self,
        header: Sequence[str],
        rows: Sequence[Sequence[str]],
        widths: Sequence[float],
        *,
        size: float | None = None,
        grid: bool = True,
    ) -> None:
        size = (size or self.style.size) - 0.5
        height = size * 1.7
        x_positions = [MARGIN]
        for w in widths[:-1]:
            x_positions.append(x_positions[-1] + w)
        total = sum(widths)
        top = self.y
        for r, row in enumerate([list(header), *map(list, rows)]):
            y = top + r * height
            for c, cell in enumerate(row):
                self.text(cell, size=size, x=x_positions[c] + 3, y=y + size * 0.35, bold=r == 0)
            if grid or r <= 1:
                self.rule(x0=MARGIN, x1=MARGIN + total, y=y, width=0.5)
        bottom = top + (len(rows) + 1) * height
        self.rule(x0=MARGIN, x1=MARGIN + total, y=bottom, width=0.5)
        if grid:
            for x in [*x_positions, MARGIN + total]:
                self.ops.append(_vline(x, top, bottom))
        self.y = bottom + size

    def room(self, height: float) -> bool:
        return self.y + height <= BOTTOM

    def draw(self, canvas: Canvas) -> None:
        canvas.setFillGray(0)
        canvas.setStrokeGray(0)
        for op in self.ops:
            op(canvas)


def _vline(x: float, top: float, bottom: float) -> Op:
    def op(canvas: Canvas) -> None:
        canvas.setLineWidth(0.5)
        canvas.line(x, PAGE_H - top, x, PAGE_H - bottom)

    return op


def letterhead(
    sheet: Sheet, *, firm: str | None = None, address: str | None = None, phone: str | None = None
) -> None:
    """The office's letterhead at the top of the sheet, in its style."""
    s = sheet.style
    firm, address, phone = firm or s.firm, address or s.address, phone or s.phone
    if s.letterhead == "banner":
        sheet.text(firm, size=s.size + 7, bold=True, advance=False)
        sheet.text(phone, size=s.size - 1, align="right", y=sheet.y + 4)
        sheet.y += s.size + 12
        sheet.text(address, size=s.size - 1)
        sheet.rule(width=1.6)
        sheet.gap(16)
    elif s.letterhead == "centered":
        sheet.text(firm.upper(), size=s.size + 5, bold=True, align="center")
        sheet.text(f"{address}  |  {phone}", size=s.size - 1.5, align="center")
        sheet.gap(18)
    else:
        sheet.box(MARGIN, sheet.y - 4, PAGE_W - 2 * MARGIN, s.size * 3.6 + 6, width=1.2)
        sheet.text(firm, size=s.size + 4, bold=True, x=MARGIN + 8)
        sheet.text(f"{address}   Tel. {phone}", size=s.size - 1.5, x=MARGIN + 8)
        sheet.gap(22)


def recorder_stamp(sheet: Sheet, return_to: str, lines: Sequence[str], height: float) -> None:
    """The top of a recorded instrument's first page: whom to return it to, the county recorder's
    box (`lines`: the recorder, the instrument number, when recorded...) at the top right, and the
    sheet's pen moved below it for the title."""
    sheet.text(f"When recorded return to: {return_to}", size=sheet.style.size - 1)
    sheet.box(PAGE_W - MARGIN - 200, TOP - 8, 200, height, width=1.0)
    for k, line in enumerate(lines):
        sheet.text(line, size=8.5, x=PAGE_W - MARGIN - 194, y=TOP - 2 + k * 13)
    sheet.y = TOP + 80


def photo_sheets(
    style_: OfficeStyle,
    title: str,
    place: str,
    pages: int,
    photograph: Callable[[Sheet, int], None],
    *,
    title_size: float,
    gap: float,
) -> list[Sheet]:
    """Photograph-log pages: two photographs a page, each drawn with its caption by
    `photograph(sheet, number)` (numbered from 1 across the pages), under the same title and the
    place's name on every page."""
    sheets = []
    number = 1
    for _ in range(pages):
        sheet = Sheet(style_, "photo-log")
        sheet.text(title, size=title_size, bold=True, align="center")
        sheet.text(place, align="center")
        sheet.gap(gap)
        for _ in range(2):
            photograph(sheet, number)
            number += 1
        sheets.append(sheet)
    return sheets


def new_sheet(style_: OfficeStyle, kind: str, page_in_doc: int) -> Sheet:
    return Sheet(style_, kind, page_in_doc=page_in_doc)


def finish(
    sheets: list[Sheet], *, mark: str | None = None, start: int = 1, total: int | None = None
) -> list[Sheet]:
    """Stamp the document's page numbers in the style's form (or `mark`) at the style's place.
    `start` and `total` let an excerpt keep the numbers of the whole it was taken from."""
    if not sheets:
        return sheets
    s = sheets[0].style
    form = s.page_mark if mark is None else mark
    pages = total or (start + len(sheets) - 1)
    for offset, sheet in enumerate(sheets):
        sheet.page_in_doc = offset + 1
        if not form or sheet.blank:
            continue
        text = form.format(page=start + offset, pages=pages)
        if s.mark_at == "header-right":
            sheet.text(text, size=s.size - 1, align="right", y=TOP - 30)
        elif s.mark_at == "footer-right":
            sheet.text(text, size=s.size - 1, align="right", y=PAGE_H - 50)
        else:
            sheet.text(text, size=s.size - 1, align="center", y=PAGE_H - 50)
    return sheets


def flow(
    first: Sheet,
    paragraphs: Sequence[str],
    continuation: Callable[[int], Sheet],
    *,
    facts: Sequence[set[str]] | None = None,
) -> list[Sheet]:
    """Paragraphs written from `first` on, onto new sheets made by `continuation(page)` as each
    fills; `facts[i]` (when given) are stated by paragraph i and go to the sheet(s) it lands on."""
    sheets = [first]
    size = first.style.size
    for index, text in enumerate(paragraphs):
        lines = wrap(text, first.style.regular, size, PAGE_W - 2 * MARGIN)
        stated = facts[index] if facts is not None else set()
        if stated and not sheets[-1].room(size * 1.4 * len(lines)):
            sheets.append(
                continuation(len(sheets) + 1)
            )  # a sentence stating a fact stays on one page
        for line in lines:
            if not sheets[-1].room(size * 1.4):
                sheets.append(continuation(len(sheets) + 1))
            sheets[-1].text(line)
            sheets[-1].facts |= stated
        sheets[-1].gap(size * 0.6)
    return sheets


# -- emission ----------------------------------------------------------------------------------------


def scanned_image(clean: Image.Image, seed: int, *labels: str | int) -> Image.Image:
    """A clean page image put through an office scanner and kept as black and white."""
    return bitonal_office_scan(clean, seed, *labels, "scan", max_angle=MAX_SCAN_SKEW)


def emit_pdf(
    sheets: Sequence[Sheet],
    title: str,
    *,
    scanned: Sequence[int] = (),
    seed: int = 0,
    labels: Sequence[str | int] = (),
    dpi: int = 100,
    gray: bool = False,
) -> bytes:
    """The sheets as one PDF; the pages whose 0-based indexes are in `scanned` become black-and-white
    scans at `dpi` (each page its own scan, drawn from (seed, *labels, page)), stored as grey images
    with `gray` (smaller), else as reportlab stores a 1-bit image."""
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, title, PDF_CREATOR, (PAGE_W, PAGE_H))
    for sheet in sheets:
        sheet.draw(canvas)
        canvas.showPage()
    canvas.save()
    clean = buffer.getvalue()
    if not scanned:
        return clean
    wanted = set(scanned)
    buffer = io.BytesIO()
    with binary_streams():
        canvas = new_canvas(buffer, title, PDF_CREATOR, (PAGE_W, PAGE_H))
        for index, sheet in enumerate(sheets):
            if index in wanted:
                image = scanned_image(rasterize(clean, index, dpi), seed, *labels, index)
                if gray:
                    # reportlab stores a 1-bit image as 8-bit RGB; as 8-bit grey (still only black
                    # and white) the Flate stream is about a third smaller.
                    image = image.convert("L")
                canvas.drawImage(ImageReader(image), 0, 0, width=PAGE_W, height=PAGE_H)
            else:
                sheet.draw(canvas)
            canvas.showPage()
        canvas.save()
    return buffer.getvalue()
