"""Front matter of laboratory reports, in families, with the traps of report-level facts.

Report-metadata v2 asks for the facts a report states about itself: the issuing laboratory, its
work order, the client, the project, the report date, the sampling dates and the status (draft,
final, revised). Real reports state them in many ways; this module draws short reports (two to
five pages: front matter, one or two results pages, a closing page) in six families, each
modelled on a kind of real report, with its own skeleton, fonts, date formats and words:

dev families (dev words of `vocabulary`):

- `letterhead-cover`: a US commercial laboratory's cover page: letterhead, "Analytical Report"
  title, a block of `Label: value` facts, the signature of the approver; results pages with the
  laboratory and work order in a running header.
- `transmittal-letter`: a transmittal letter on letterhead (dated, addressed to the client's
  contact, an "RE:" line with project and work order, the receipt date in the body), then a
  sample summary table, as many smaller laboratories send reports.
- `summary-cover`: a one-page cover that holds everything (facts grid and sample summary
  table), compact, with status and page numbers in the running footer, and an approval page.

test families (test words, and dev words as real reports share the common ones):

- `certificate`: a "Certificate of Analysis" in the manner of Canadian and British
  laboratories: boxed fields with the label above the value, the client's block first and the
  laboratory only at the foot of the page, the status printed in the footer only.
- `case-narrative`: a typed case narrative (data-package style) in prose: who received what and
  when, the dates of sampling, the project, all in running sentences.
- `header-band`: no cover at all: every page opens with a band of boxed facts, the results
  follow at once, and the approval page closes the report (a LIMS print-out).

Traps (`TRAPS`; a report carries several, chosen per report and listed in `MetadataReport.traps`):

- `status-footer`: the status is printed only in the running footer;
- `draft-no-watermark`: a draft with no DRAFT watermark, the word only;
- `unmarked-final`: a final report that never says "final";
- `supersedes`: a revised report naming the report (number and date) it supersedes;
- `address-confusion`: the client's name and address block printed first and largest, the
  laboratory's name smaller or only at the foot of the page;
- `project-number`: the project number printed with or before the project name;
- `ids`: laboratory sample IDs (built on the work order), a purchase-order number and the
  client's project number printed near the work order;
- `other-dates`: received, analysed and printed dates beside the report date;
- `stapled`: a second report stapled behind the first in one PDF;
- `spread-sampling`: samples collected over three to six different days;
- `mixed-date-formats`: the sample tables print dates in another format than the cover;
- `day-first`: dates printed day first (DD.MM.YYYY, stated once on the cover);

Truth rules (report-metadata's answer, as a careful reader states it):

- The answer is that of the FIRST report in the PDF (the one that begins on page 1); reports
  stapled behind it are not asked about, and their samples are not its samples.
- `laboratory` is the name of the laboratory that issued the report (its letterhead or
  signature name), never the client's.
- `work_order` is the laboratory's number for the job under whatever label (Work Order, Job
  Number, SDG, Login No., ...); not a laboratory sample ID built on it (`24C0412-01`), not a
  purchase order, not the client's project number.
- `client` is the client company, never its contact person or the laboratory.
- `project` is the project (site) name without the project number, even where both are printed
  in one field (`2024-117 / Former Riverside Dry Cleaners` -> `Former Riverside Dry Cleaners`).
- `report_date` is the date this issue of the report was issued (for a revision, the revision's
  date, not the date of the report it supersedes); never the received, analysed or printed
  dates, nor a stamp's date.
- `sampling_dates` are the collection dates of this report's samples, each once, ISO.
- `status` is "draft" when the report says it is a draft (DRAFT, Preliminary, Provisional, ...:
  in a watermark, a label, a title or only the footer), "revised" when it says it is a revision
  or amended (or names the report it supersedes), otherwise "final" (a report that says nothing
  of its status is final).
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from ..rng import make_random
from ..vocabulary import (
    ANALYTE_SYNONYMS,
    COLUMN_TERMS,
    LABEL_TERMS,
    NOT_RESULT_TERMS,
    STATUS_TERMS,
    Split,
    choose,
)
from . import names

Status = Literal["draft", "final", "revised"]
STATUSES: tuple[Status, ...] = ("draft", "final", "revised")
PAGE = (612.0, 792.0)  # US Letter, points

TRAPS: tuple[str, ...] = (
    "status-footer",
    "draft-no-watermark",
    "unmarked-final",
    "supersedes",
    "address-confusion",
    "project-number",
    "ids",
    "other-dates",
    "stapled",
    "spread-sampling",
    "mixed-date-formats",
    "day-first",
)

FONTS = {
    "helvetica": ("Helvetica", "Helvetica-Bold"),
    "times": ("Times-Roman", "Times-Bold"),
    "courier": ("Courier", "Courier-Bold"),
}


@dataclass(frozen=True)
class Family:
    name: str
    split: Split
    modelled_on: str
    font: str  # a key of FONTS (standard PDF fonts: nothing embedded, small files)
    date_formats: tuple[str, ...]  # how the cover prints dates
    table_date_formats: tuple[str, ...]  # how sample tables print dates when they differ
    address_confusion: Literal["never", "sometimes", "always"]


DEV_DATES = ("%m/%d/%Y", "%Y-%m-%d", "%B %d, %Y", "%m/%d/%y")
TEST_DATES = ("%d-%b-%Y", "%d %B %Y", "%b %d, %Y", "%Y/%m/%d")
DAY_FIRST = "%d.%m.%Y"
# Families whose laboratories sometimes print dates day first (stated once on the cover).
DAY_FIRST_SHARES = {"certificate": 0.3, "summary-cover": 0.2}

FAMILIES: dict[str, Family] = {
    f.name: f
    for f in (
        Family(
            "letterhead-cover",
            "dev",
            "a US commercial laboratory's analytical report cover (letterhead, title, labelled "
            "facts, signature)",
            "helvetica",
            DEV_DATES,
            ("%m/%d/%Y", "%m/%d/%y"),
            "sometimes",
        ),
        Family(
            "transmittal-letter",
            "dev",
            "a smaller laboratory's transmittal letter on letterhead, then a sample summary",
            "times",
            ("%B %d, %Y",),
            ("%m/%d/%Y", "%m/%d/%y", "%Y-%m-%d"),
            "never",
        ),
        Family(
            "summary-cover",
            "dev",
            "a compact one-page cover (facts grid and sample summary) with a running footer, "
            "and an approval page",
            "helvetica",
            ("%m/%d/%Y", "%Y-%m-%d"),
            ("%m/%d/%y", "%Y-%m-%d"),
            "sometimes",
        ),
        Family(
            "certificate",
            "test",
            "a Canadian/British 'Certificate of Analysis': boxed fields, label above value, the "
            "laboratory at the foot, the status in the footer",
            "times",
            TEST_DATES,
            ("%d-%b-%y", "%Y-%m-%d", "%d/%b/%Y"),
            "always",
        ),
        Family(
            "case-narrative",
            "test",
            "a data package's typed case narrative: the facts in running prose",
            "courier",
            TEST_DATES + DEV_DATES,
            ("%m/%d/%Y", "%d-%b-%Y"),
            "never",
        ),
        Family(
            "header-band",
            "test",
            "a LIMS print-out without a cover: a band of boxed facts on every page, then the "
            "results, then an approval page",
            "helvetica",
            TEST_DATES + ("%m/%d/%Y",),
            ("%m/%d/%y", "%d-%b-%Y"),
            "sometimes",
        ),
    )
}
SPLIT_FAMILIES: dict[Split, tuple[str, ...]] = {
    split: tuple(name for name, f in FAMILIES.items() if f.split == split)
    for split in ("dev", "test")
}

# Laboratories by split: a test report comes from a laboratory the dev split never shows three
# times in four. (The first three are the v1 catalogue's; every name is invented.)
LABORATORIES: dict[Split, tuple[str, ...]] = {
    "dev": (
        "Quillmere Analytical Laboratories",
        "Fenwick Basin Environmental Testing",
        "Tarnhollow Analytical Services",
        "Harrowgate Analytical, LLC",
    ),
    "test": (
        "Coldspring Ridge Laboratories",
        "Marrowgate Environmental Labs",
        "Vellacott Analytical, Inc.",
        "Brackenridge Environmental Laboratory",
        "Ostwald & Finch Analytical",
        "Sallowmere Testing Services Ltd.",
    ),
}
EXTRA_CLIENTS: tuple[str, ...] = (
    "Kestrel Point Environmental, Inc.",
    "Dunmore Hydrogeologic Services",
    "Ashcombe Engineering Ltd.",
    "Wrenfield Geotechnical Partners",
    "Marlow & Pike Consulting",
)
EXTRA_SITES: tuple[str, ...] = (
    "Former Eastside Tannery",
    "Hillcrest Bulk Plant",
    "Cooper Street Brownfield",
    "Granary Wharf Redevelopment",
    "Stonebridge Former MGP Site",
)
MATRICES: tuple[tuple[str, str], ...] = (
    ("Water", "ug/L"),
    ("Groundwater", "ug/L"),
    ("Soil", "mg/kg"),
    ("Solid", "mg/kg"),
)
SAMPLE_PREFIXES = ("MW-", "SB-", "GW-", "TP-", "SS-", "B-")


# -- the facts ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class SampleEntry:
    sample_id: str
    lab_id: str
    matrix: str
    unit: str
    collected: dt.date
    time: str  # HH:MM
    analysed: dt.date


@dataclass(frozen=True)
class Facts:
    """What one report states about itself (the answer comes from the first report's)."""

    laboratory: str
    lab_address: tuple[str, str]
    lab_phone: str
    work_order: str
    client: str
    contact: str
    client_address: tuple[str, str]
    project: str
    project_number: str
    po_number: str
    received: dt.date
    report_date: dt.date
    printed: dt.date
    status: Status
    revision: int  # 0 for an original issue
    supersedes: str | None  # the number of the report a revision replaces
    superseded_date: dt.date | None
    samples: tuple[SampleEntry, ...]
    approver: str
    approver_title: str
    sampler: str

    def sampling_dates(self) -> tuple[dt.date, ...]:
        return tuple(sorted({s.collected for s in self.samples}))


@dataclass(frozen=True)
class MetadataReport:
    """One report as drawn: family, facts, traps, and the words and formats it prints with."""

    family: Family
    facts: Facts
    traps: frozenset[str]
    words: Mapping[str, str]  # role -> the label this report prints for it
    status_word: str
    date_format: str
    table_date_format: str
    stapled: tuple[MetadataReport, ...] = ()

    def date(self, value: dt.date) -> str:
        return value.strftime(self.date_format)

    def table_date(self, value: dt.date) -> str:
        return value.strftime(self.table_date_format)


def _person(rng: random.Random) -> str:
    return f"{rng.choice(names.FIRST_NAMES)} {rng.choice(names.LAST_NAMES)}"


def _address(rng: random.Random) -> tuple[str, str]:
    city, state, zip_code = rng.choice(names.CITIES)
    return (f"{rng.randint(10, 9899)} {rng.choice(names.STREETS)}", f"{city}, {state} {zip_code}")


def _work_order(rng: random.Random, style: int, received: dt.date) -> str:
    yy = received.year % 100
    return (
        f"{yy:02d}{'ABCDEFGHIJKL'[received.month - 1]}{rng.randint(1, 9999):04d}",
        f"J{rng.randint(10000, 99999)}-1",
        f"480-{rng.randint(10000, 99999)}-1",
        f"WO-{received.year}-{rng.randint(1, 9999):04d}",
        f"{received:%y%m%d}-{rng.randint(1, 99):02d}",
        f"L{received.year % 100:02d}{rng.randint(10000, 99999)}",
    )[style % 6]


def _lab_id(work_order: str, index: int, style: int) -> str:
    return (f"{work_order}-{index:02d}", f"{work_order}.{index:02d}", f"{work_order}-{index:03d}")[
        style % 3
    ]


def _pick(rng: random.Random, role: str, split: Split, avoid: Sequence[str] = ()) -> str:
    pool = LABEL_TERMS.get(role) or COLUMN_TERMS[role]
    for _ in range(20):
        word = choose(rng, pool, split)
        if word not in avoid:
            return word
    raise ValueError(f"role {role!r}: every {split} term is taken")


def sample_facts(
    rng: random.Random, split: Split, status: Status, *, spread: bool, samples: int
) -> Facts:
    """The facts of one report of `split` with `status`; `spread`: samples over 3-6 days."""
    labs = LABORATORIES[split]
    if split == "test" and rng.random() < 0.25:
        labs = LABORATORIES["dev"]
    lab_index = rng.randrange(len(labs))
    laboratory = labs[lab_index]
    lab_rng = make_random(0, "laboratory", laboratory)  # a laboratory keeps its address
    lab_address, lab_phone = (
        _address(lab_rng),
        f"({lab_rng.randint(201, 989)}) 555-0{lab_rng.randint(100, 999)}",
    )
    wo_style = lab_rng.randrange(6)
    clients = names.CLIENTS + (EXTRA_CLIENTS if split == "test" else ())
    sites = names.SITES + (EXTRA_SITES if split == "test" else ())

    first = dt.date.fromordinal(
        rng.randint(dt.date(2019, 1, 7).toordinal(), dt.date(2025, 9, 30).toordinal())
    )
    if spread:
        days = sorted(rng.sample(range(1, 18), rng.randint(2, min(5, samples - 1))))
        offsets = [0, *days]
    else:
        offsets = [0] if rng.random() < 0.6 or samples == 1 else [0, 1]
    received = first + dt.timedelta(days=offsets[-1] + rng.randint(0, 2))
    work_order = _work_order(rng, wo_style, received)
    matrix, unit = rng.choice(MATRICES)
    prefix = rng.choice(SAMPLE_PREFIXES)
    numbers = sorted(rng.sample(range(1, 40), samples))
    entries = []
    for i, number in enumerate(numbers):
        # Every sampling day is some sample's; the rest fall on any of them.
        offset = offsets[i] if i < len(offsets) else rng.choice(offsets)
        entries.append(
            SampleEntry(
                sample_id=f"{prefix}{number:02d}" if rng.random() < 0.8 else f"{prefix}{number}",
                lab_id=_lab_id(work_order, i + 1, wo_style),
                matrix=matrix,
                unit=unit,
                collected=first + dt.timedelta(days=offset),
                time=f"{rng.randint(7, 17):02d}:{rng.choice((0, 5, 10, 15, 20, 30, 40, 45, 50)):02d}",
                analysed=received + dt.timedelta(days=rng.randint(1, 10)),
            )
        )
    entries.sort(key=lambda s: (s.collected, s.sample_id))
    last_analysis = max(s.analysed for s in entries)
    report_date = last_analysis + dt.timedelta(days=rng.randint(1, 6))
    supersedes = superseded = None
    revision = 0
    if status == "revised":
        superseded = report_date
        report_date = superseded + dt.timedelta(days=rng.randint(6, 60))
        revision = rng.choice((1, 1, 2))
        supersedes = rng.choice((work_order, f"{work_order} Rev. {revision - 1}"))
    return Facts(
        laboratory=laboratory,
        lab_address=lab_address,
        lab_phone=lab_phone,
        work_order=work_order,
        client=rng.choice(clients),
        contact=_person(rng),
        client_address=_address(rng),
        project=rng.choice(sites),
        project_number=rng.choice(
            (
                f"{received.year}-{rng.randint(10, 999):03d}",
                f"{rng.randint(1000, 9999)}.{rng.randint(1, 20):02d}",
                f"C-{rng.randint(1000, 9999)}-{rng.randint(1, 9):02d}",
            )
        ),
        po_number=rng.choice(
            (f"PO-{rng.randint(10000, 99999)}", f"45000{rng.randint(10000, 99999)}")
        ),
        received=received,
        report_date=report_date,
        printed=report_date + dt.timedelta(days=rng.randint(1, 40)),
        status=status,
        revision=revision,
        supersedes=supersedes,
        superseded_date=superseded,
        samples=tuple(entries),
        approver=_person(rng),
        approver_title=rng.choice(names.TITLES),
        sampler=_person(rng),
    )


ROLES = (
    "work_order",
    "report_date",
    "received_date",
    "client",
    "project",
    "project_number",
    "collected",
    "matrix",
    "approver",
    "status",
    "printed",
    "supersedes",
    "po_number",
    "laboratory",
    "analysed",
    "sampler",
)
COLUMNS = ("sample_id", "lab_id", "analyte", "result", "reporting_limit", "unit", "qualifier")


def _words(rng: random.Random, split: Split) -> dict[str, str]:
    words: dict[str, str] = {}
    for role in ROLES:
        # "PO Number" titles the project number in some test reports: never beside a PO.
        avoid = ("PO Number",) if role == "project_number" else ()
        words[role] = _pick(rng, role, split, avoid)
    for role in COLUMNS:
        words["column:" + role] = choose(rng, COLUMN_TERMS[role], split)
    return words


def sample_traps(rng: random.Random, family: Family, status: Status) -> frozenset[str]:
    """Which traps one report carries: drawn with fixed draws, whatever the outcome."""
    draws = {name: rng.random() for name in TRAPS}
    traps = set()
    if draws["status-footer"] < (1.0 if family.name == "certificate" else 0.3):
        traps.add("status-footer")
    if status == "draft" and draws["draft-no-watermark"] < 0.5:
        traps.add("draft-no-watermark")
    if status == "final" and draws["unmarked-final"] < 0.35:
        traps.add("unmarked-final")
    if status == "revised" and draws["supersedes"] < 0.75:
        traps.add("supersedes")
    confusion = {"never": 0.0, "sometimes": 0.5, "always": 1.0}[family.address_confusion]
    if draws["address-confusion"] < confusion:
        traps.add("address-confusion")
    for name, share in (
        ("project-number", 0.45),
        ("ids", 0.6),
        ("other-dates", 0.6),
        ("stapled", 0.15),
        ("spread-sampling", 0.45),
        ("mixed-date-formats", 0.5),
    ):
        if draws[name] < share:
            traps.add(name)
    if draws["day-first"] < DAY_FIRST_SHARES.get(family.name, 0.0):
        traps.add("day-first")
    if "status-footer" in traps and "unmarked-final" in traps:
        traps.discard("status-footer")  # nothing to print in the footer
    if status == "draft" and "status-footer" in traps:
        traps.add("draft-no-watermark")  # a watermark would show the status off the footer
    return frozenset(traps)


def sample_metadata_report(
    rng: random.Random, family_name: str, status: Status, *, stapled: bool | None = None
) -> MetadataReport:
    """One report of family `family_name` with `status` (and, with the `stapled` trap, a second
    report behind it). `stapled` forces the trap on or off."""
    try:
        family = FAMILIES[family_name]
    except KeyError:
        raise ValueError(
            f"family: unknown {family_name!r}; choose from {', '.join(FAMILIES)}"
        ) from None
    if status not in STATUSES:
        raise ValueError(f"status: must be one of {STATUSES}, got {status!r}")
    traps = set(sample_traps(rng, family, status))
    if stapled is not None:
        traps.discard("stapled")
        if stapled:
            traps.add("stapled")
    report = _report(rng, family, status, frozenset(traps))
    if "stapled" in traps:
        other_status = rng.choice(STATUSES)
        other_traps = sample_traps(rng, family, other_status) - {"stapled"}
        behind = _report(rng, family, other_status, other_traps)
        report = MetadataReport(
            report.family,
            report.facts,
            report.traps,
            report.words,
            report.status_word,
            report.date_format,
            report.table_date_format,
            (behind,),
        )
    return report


def _report(
    rng: random.Random, family: Family, status: Status, traps: frozenset[str]
) -> MetadataReport:
    split = family.split
    count = rng.randint(4, 6) if "spread-sampling" in traps else rng.randint(1, 4)
    facts = sample_facts(rng, split, status, spread="spread-sampling" in traps, samples=count)
    words = _words(rng, split)
    date_format = DAY_FIRST if "day-first" in traps else rng.choice(family.date_formats)
    table_format = rng.choice(family.table_date_formats)
    # Day-first reports print their tables day first too, or with the month in letters: a
    # numeric month-first table under a "DD.MM.YYYY" cover would leave the dates ambiguous.
    if date_format == DAY_FIRST and "%m" in table_format:
        table_format = DAY_FIRST
    if "mixed-date-formats" not in traps or table_format == date_format:
        table_format = date_format
        traps = traps - {"mixed-date-formats"}
    status_word = choose(rng, STATUS_TERMS[status], split)
    return MetadataReport(family, facts, traps, words, status_word, date_format, table_format)


# -- drawing -----------------------------------------------------------------------------------


@dataclass
class Sheet:
    """One page as a display list (points, origin top-left): replayed on any reportlab canvas,
    so the same page can be drawn for rasterising and again for the final PDF."""

    regular: str
    bold: str
    ops: list[tuple] = field(default_factory=list)
    bottom: float = 0.0  # the lowest point drawn so far (top-left origin), footer excluded

    def text(
        self,
        x: float,
        y: float,
        text: str,
        *,
        size: float = 9.0,
        bold: bool = False,
        align: str = "left",
        grey: float = 0.0,
        footer: bool = False,
    ) -> float:
        """Draw `text` with its baseline at y; returns its width."""
        font = self.bold if bold else self.regular
        self.ops.append(("text", x, y, text, font, size, align, grey))
        if not footer:
            self.bottom = max(self.bottom, y + 3)
        return stringWidth(text, font, size)

    def width(self, text: str, size: float = 9.0, bold: bool = False) -> float:
        return stringWidth(text, self.bold if bold else self.regular, size)

    def line(self, x0: float, y0: float, x1: float, y1: float, width: float = 0.6) -> None:
        self.ops.append(("line", x0, y0, x1, y1, width))
        self.bottom = max(self.bottom, y0, y1)

    def box(self, x: float, y: float, w: float, h: float, *, fill: float | None = None) -> None:
        self.ops.append(("box", x, y, w, h, fill))
        self.bottom = max(self.bottom, y + h)

    def watermark(self, text: str) -> None:
        self.ops.append(("watermark", text))

    def draw(self, canvas: Canvas) -> None:
        height = PAGE[1]
        for op in self.ops:
            kind = op[0]
            if kind == "text":
                _, x, y, text, font, size, align, grey = op
                canvas.setFont(font, size)
                canvas.setFillGray(grey)
                {
                    "left": canvas.drawString,
                    "right": canvas.drawRightString,
                    "center": canvas.drawCentredString,
                }[align](x, height - y, text)
            elif kind == "line":
                _, x0, y0, x1, y1, width = op
                canvas.setLineWidth(width)
                canvas.setStrokeGray(0)
                canvas.line(x0, height - y0, x1, height - y1)
            elif kind == "box":
                _, x, y, w, h, fill = op
                canvas.setLineWidth(0.6)
                canvas.setStrokeGray(0)
                if fill is not None:
                    canvas.setFillGray(fill)
                canvas.rect(x, height - y - h, w, h, stroke=1, fill=0 if fill is None else 1)
                canvas.setFillGray(0)
            else:
                _, text = op
                canvas.saveState()
                canvas.setFont(self.bold, 96)
                canvas.setFillGray(0.85)
                canvas.translate(PAGE[0] / 2, height / 2)
                canvas.rotate(40)
                canvas.drawCentredString(0, -30, text)
                canvas.restoreState()

    def free_region(self) -> tuple[float, float, float, float] | None:
        """Room below everything drawn (footer excluded), for a stamp or a pen mark."""
        top = self.bottom + 12
        if PAGE[1] - 60 - top < 70:
            return None
        return (300.0, top, PAGE[0] - 40, PAGE[1] - 60)


@dataclass(frozen=True)
class RenderedPages:
    """The pages of a PDF (the first report's, then any stapled behind) and where each report
    begins; `front` lists the indexes of the first report's front-matter pages."""

    sheets: tuple[Sheet, ...]
    starts: tuple[int, ...]
    front: tuple[int, ...]

    def draw_page(self, canvas: Canvas, index: int) -> None:
        self.sheets[index].draw(canvas)


def _sheet(report: MetadataReport) -> Sheet:
    regular, bold = FONTS[report.family.font]
    return Sheet(regular, bold)


def _status_text(report: MetadataReport) -> str | None:
    """How the report names its status where it does (None: it never says)."""
    f = report.facts
    if "unmarked-final" in report.traps:
        return None
    if f.status == "revised":
        return f"Revision {f.revision}" if report.status_word == "Revision" else report.status_word
    return report.status_word


def _on_cover(report: MetadataReport) -> bool:
    """Whether the status is printed on the front matter (not only in the footer)."""
    return _status_text(report) is not None and "status-footer" not in report.traps


def _footer(sheet: Sheet, report: MetadataReport, page: int, pages: int) -> None:
    f, w = report.facts, report.words
    parts = [f"Page {page} of {pages}"]
    status = _status_text(report)
    if status is not None and (
        "status-footer" in report.traps or report.family.name in ("summary-cover", "header-band")
    ):
        parts.insert(
            0, f"{w['status']}: {status}" if report.family.name != "certificate" else status
        )
    if "other-dates" in report.traps:
        parts.append(f"{w['printed']}: {report.date(f.printed)}")
    if "address-confusion" in report.traps and report.family.name in ("certificate", "header-band"):
        parts.insert(0, f"{f.laboratory} - {f.lab_address[0]}, {f.lab_address[1]} - {f.lab_phone}")
    sheet.text(
        PAGE[0] / 2, PAGE[1] - 30, "   |   ".join(parts), size=7, align="center", footer=True
    )


def _project(report: MetadataReport) -> str:
    f = report.facts
    if "project-number" in report.traps and report.family.name in ("certificate", "header-band"):
        return f"{f.project_number} / {f.project}"
    return f.project


def _facts_pairs(report: MetadataReport) -> list[tuple[str, str]]:
    f, w = report.facts, report.words
    pairs = [(w["client"], f.client)]
    if "project-number" in report.traps:
        pairs.append((w["project_number"], f.project_number))
    pairs.append((w["project"], _project(report)))
    pairs.append((w["work_order"], f.work_order))
    if "ids" in report.traps:
        pairs.append((w["po_number"], f.po_number))
        if "project-number" not in report.traps:
            pairs.append((w["project_number"], f.project_number))
    pairs.append((w["received_date"], report.date(f.received)))
    pairs.append((w["report_date"], report.date(f.report_date)))
    if "other-dates" in report.traps:
        pairs.append((w["analysed"], report.date(max(s.analysed for s in f.samples))))
    if f.status == "revised" and "supersedes" in report.traps:
        pairs.append((w["supersedes"], f"{f.supersedes} ({report.date(f.superseded_date)})"))
    if _on_cover(report):
        pairs.append((w["status"], _status_text(report)))
    if report.date_format == DAY_FIRST:
        pairs.append(("Date format", "DD.MM.YYYY"))
    return pairs


def _kv(
    sheet: Sheet,
    x: float,
    y: float,
    pairs: Sequence[tuple[str, str]],
    label_w: float,
    size: float = 9.5,
) -> float:
    for label, value in pairs:
        sheet.text(x, y, f"{label}:", size=size, bold=True)
        sheet.text(x + label_w, y, value, size=size)
        y += size + 5
    return y


def _letterhead(
    sheet: Sheet, report: MetadataReport, y: float, *, align: str = "left", size: float = 16
) -> float:
    f = report.facts
    x = {"left": 50.0, "center": PAGE[0] / 2, "right": PAGE[0] - 50}[align]
    sheet.text(x, y, f.laboratory, size=size, bold=True, align=align)
    sheet.text(
        x, y + size * 0.9 + 2, f"{f.lab_address[0]}, {f.lab_address[1]}", size=8, align=align
    )
    sheet.text(x, y + size * 0.9 + 12, f"Tel. {f.lab_phone}", size=8, align=align)
    return y + size * 0.9 + 22


def _client_block(sheet: Sheet, report: MetadataReport, x: float, y: float, *, big: bool) -> float:
    f, w = report.facts, report.words
    size = 13 if big else 9.5
    sheet.text(x, y, f"{w['client']}:", size=8, bold=True)
    y += size + 3
    sheet.text(x, y, f.client, size=size, bold=big)
    y += size * 0.9 + 3
    for line in (f"Attn: {f.contact}", *f.client_address):
        sheet.text(x, y, line, size=9)
        y += 11
    return y


def _samples_table(
    sheet: Sheet, report: MetadataReport, y: float, *, received: bool = True
) -> float:
    f, w = report.facts, report.words
    cols = [w["column:sample_id"], w["column:lab_id"], w["matrix"], w["collected"]]
    xs = [50, 170, 290, 370]
    if received:
        cols.append(w["received_date"])
        xs.append(480)
    for x, title in zip(xs, cols, strict=True):
        sheet.text(x, y, title, size=8.5, bold=True)
    sheet.line(50, y + 4, PAGE[0] - 50, y + 4)
    y += 16
    for s in f.samples:
        cells = [s.sample_id, s.lab_id, s.matrix, f"{report.table_date(s.collected)} {s.time}"]
        if received:
            cells.append(report.table_date(f.received))
        for x, cell in zip(xs, cells, strict=True):
            sheet.text(x, y, cell, size=8.5)
        y += 12
    return y + 6


def _signature(sheet: Sheet, report: MetadataReport, y: float) -> float:
    f, w = report.facts, report.words
    sheet.line(50, y + 18, 250, y + 18)
    sheet.text(50, y + 30, f"{w['approver']}: {f.approver}, {f.approver_title}", size=9)
    sheet.text(50, y + 42, f"Date: {report.date(f.report_date)}", size=9)
    return y + 50


def _results_page(
    sheet: Sheet,
    report: MetadataReport,
    samples: Sequence[SampleEntry],
    y: float,
    rng: random.Random,
) -> None:
    w = report.words
    split = report.family.split
    cas_pool = list(ANALYTE_SYNONYMS)
    titles = [
        w["column:analyte"],
        w["column:result"],
        w["column:reporting_limit"],
        w["column:unit"],
        w["column:qualifier"],
    ]
    xs = [50, 220, 300, 360, 420]
    if "other-dates" in report.traps:
        titles.append(w["analysed"])
        xs.append(465)
    for s in samples:
        sheet.text(
            50,
            y,
            f"{w['column:sample_id']}: {s.sample_id}    {w['column:lab_id']}: {s.lab_id}    "
            f"{w['collected']}: {report.table_date(s.collected)} {s.time}",
            size=8.5,
            bold=True,
        )
        y += 14
        for x, title in zip(xs, titles, strict=True):
            sheet.text(x, y, title, size=8, bold=True)
        sheet.line(50, y + 3, PAGE[0] - 50, y + 3)
        y += 13
        for cas in rng.sample(cas_pool, rng.randint(3, 6)):
            name = choose(rng, ANALYTE_SYNONYMS[cas], split)
            limit = rng.choice(("0.50", "1.0", "2.0", "5.0", "0.20"))
            roll = rng.random()
            if roll < 0.5:
                result, qual = (
                    f"<{limit}" if rng.random() < 0.5 else limit,
                    "U" if rng.random() < 0.5 else "",
                )
            elif roll < 0.6:
                result, qual = choose(rng, NOT_RESULT_TERMS, split), ""
            else:
                result, qual = f"{rng.uniform(0.3, 250):.2f}", rng.choice(("", "", "J", "B"))
            cells = [name, result, limit, s.unit, qual]
            if "other-dates" in report.traps:
                cells.append(report.table_date(s.analysed))
            for x, cell in zip(xs, cells, strict=True):
                sheet.text(x, y, cell, size=8)
            y += 11
        y += 12


def _running_header(sheet: Sheet, report: MetadataReport) -> float:
    f, w = report.facts, report.words
    sheet.text(50, 40, f.laboratory, size=9, bold=True)
    sheet.text(PAGE[0] - 50, 40, f"{w['work_order']}: {f.work_order}", size=9, align="right")
    sheet.text(PAGE[0] - 50, 51, f"{w['client']}: {f.client}", size=8, align="right")
    sheet.line(50, 56, PAGE[0] - 50, 56)
    return 80


def _band(sheet: Sheet, report: MetadataReport) -> float:
    """The header-band family's box of facts at the top of every page."""
    f, w = report.facts, report.words
    cells = [
        (w["client"], f.client),
        (w["project"], _project(report)),
        (w["work_order"], f.work_order),
        (w["report_date"], report.date(f.report_date)),
        (w["received_date"], report.date(f.received)),
    ]
    if "ids" in report.traps:
        cells.append((w["po_number"], f.po_number))
    if _on_cover(report):
        cells.append((w["status"], _status_text(report)))
    if "address-confusion" not in report.traps:
        sheet.text(50, 34, f.laboratory, size=10, bold=True)
    cols = 3
    width = (PAGE[0] - 100) / cols
    for i, (label, value) in enumerate(cells):
        x = 50 + (i % cols) * width
        y = 42 + (i // cols) * 26
        sheet.box(x, y, width, 26)
        sheet.text(x + 4, y + 9, label, size=6.5, bold=True)
        # A long value is printed smaller rather than cut: the band prints it whole.
        size = min(8.5, 8.5 * (width - 8) / sheet.width(value, 8.5))
        sheet.text(x + 4, y + 21, value, size=size)
    return 42 + 26 * ((len(cells) + cols - 1) // cols) + 22


def _front_pages(report: MetadataReport, rng: random.Random) -> list[Sheet]:
    """The front matter of one report, by family."""
    f, w, name = report.facts, report.words, report.family.name
    sheets: list[Sheet] = []
    sheet = _sheet(report)
    if name == "letterhead-cover":
        if "address-confusion" in report.traps:
            y = _client_block(sheet, report, 50, 50, big=True)
            _letterhead(sheet, report, 50, align="right", size=10)
            y += 20
        else:
            y = _letterhead(sheet, report, 50) + 20
        title = "ANALYTICAL REPORT"
        if _on_cover(report) and f.status != "final":
            title = f"{_status_text(report).upper()} {title}"
        sheet.text(PAGE[0] / 2, y, title, size=15, bold=True, align="center")
        y += 30
        pairs = _facts_pairs(report)
        if "address-confusion" not in report.traps:
            pairs.insert(1, ("Attn", f.contact))
        y = _kv(sheet, 60, y, pairs, 150)
        y = _signature(sheet, report, y + 20)
        sheets.append(sheet)
    elif name == "transmittal-letter":
        y = _letterhead(sheet, report, 50, align="center", size=15) + 25
        sheet.text(50, y, report.date(f.report_date), size=10.5)
        y += 28
        for line in (f.contact, f.client, *f.client_address):
            sheet.text(50, y, line, size=10.5)
            y += 13
        y += 12
        re_line = f"RE: {w['project']}: {_project(report)}; {w['work_order']} {f.work_order}"
        sheet.text(50, y, re_line, size=10.5, bold=True)
        y += 14
        if "ids" in report.traps:
            sheet.text(
                72,
                y,
                f"{w['project_number']}: {f.project_number}    {w['po_number']}: {f.po_number}",
                size=10.5,
            )
            y += 14
        y += 10
        body = [
            f"Dear {f.contact.split()[0]}:",
            "",
            f"Enclosed are the results of analyses for {len(f.samples)} sample(s) received by the",
            f"laboratory on {report.date(f.received)}. The samples were analyzed according to the",
            "methods listed, and the results relate only to the samples as received.",
        ]
        status = _status_text(report)
        if _on_cover(report) and f.status == "draft":
            body += [
                "",
                f"This is a {status.lower()} report: results are subject to change and may not be",
                "used for regulatory purposes.",
            ]
        elif _on_cover(report) and f.status == "revised":
            body += [
                "",
                f"This report is {status.lower()}"
                + (
                    f" and supersedes our report {f.supersedes} of"
                    if "supersedes" in report.traps
                    else "."
                ),
            ]
            if "supersedes" in report.traps:
                body.append(f"{report.date(f.superseded_date)}, which should be discarded.")
        elif _on_cover(report):
            body += ["", f"Report status: {status}."]
        body += ["", "Please contact us with any questions.", "", "Sincerely,"]
        for line in body:
            sheet.text(50, y, line, size=10.5)
            y += 13
        sheet.line(50, y + 22, 230, y + 22)
        sheet.text(50, y + 34, f"{f.approver}, {f.approver_title}", size=10.5)
        sheet.text(50, y + 47, f.laboratory, size=10.5)
        sheets.append(sheet)
        second = _sheet(report)
        second.text(50, 50, f.laboratory, size=10, bold=True)
        second.text(PAGE[0] - 50, 50, f"{w['work_order']} {f.work_order}", size=10, align="right")
        second.text(
            PAGE[0] - 50,
            62,
            f"{w['report_date']}: {report.date(f.report_date)}",
            size=9,
            align="right",
        )
        second.text(PAGE[0] / 2, 88, "SAMPLE SUMMARY", size=13, bold=True, align="center")
        _samples_table(second, report, 116)
        sheets.append(second)
    elif name == "summary-cover":
        if "address-confusion" in report.traps:
            y = _client_block(sheet, report, 50, 46, big=True)
            sheet.text(PAGE[0] - 50, 46, f.laboratory, size=9, bold=True, align="right")
            sheet.text(PAGE[0] - 50, 57, f.lab_address[1], size=8, align="right")
        else:
            y = _letterhead(sheet, report, 46, size=13)
        y += 10
        sheet.line(50, y, PAGE[0] - 50, y)
        y += 18
        pairs = _facts_pairs(report)
        half = (len(pairs) + 1) // 2
        left = _kv(sheet, 50, y, pairs[:half], 105, size=8.5)
        right = _kv(sheet, 320, y, pairs[half:], 105, size=8.5)
        _samples_table(sheet, report, max(left, right) + 20)
        sheets.append(sheet)
    elif name == "certificate":
        y = _client_block(sheet, report, 50, 50, big=True)
        sheet.box(330, 44, 232, 30, fill=0.9)
        sheet.text(446, 64, "CERTIFICATE OF ANALYSIS", size=12, bold=True, align="center")
        y = max(y, 90) + 16
        cells = [(label, value) for label, value in _facts_pairs(report) if label != w["client"]]
        width = (PAGE[0] - 100) / 2
        for i, (label, value) in enumerate(cells):
            x = 50 + (i % 2) * width
            yy = y + (i // 2) * 30
            sheet.box(x, yy, width, 30)
            sheet.text(x + 5, yy + 10, label, size=7, bold=True)
            sheet.text(x + 5, yy + 24, value, size=10)
        y += 30 * ((len(cells) + 1) // 2) + 26
        y = _samples_table(sheet, report, y, received=False)
        if "address-confusion" not in report.traps:
            sheet.text(
                50, y + 10, f"{f.laboratory}, {f.lab_address[0]}, {f.lab_address[1]}", size=8
            )
        sheets.append(sheet)
    elif name == "case-narrative":
        sheet.text(50, 50, f.laboratory, size=11, bold=True)
        sheet.text(PAGE[0] - 50, 50, f"{w['work_order']}: {f.work_order}", size=10, align="right")
        title = "CASE NARRATIVE"
        if _on_cover(report) and f.status != "final":
            title += f" - {_status_text(report).upper()}"
        sheet.text(PAGE[0] / 2, 90, title, size=12, bold=True, align="center")
        dates = f.sampling_dates()
        if len(dates) == 1:
            when = f"on {report.date(dates[0])}"
        else:
            when = f"between {report.date(dates[0])} and {report.date(dates[-1])}"
        paragraphs = [
            f"{w['client']}: {f.client}",
            f"{w['project']}: {_project(report)}"
            + (
                f"   {w['project_number']}: {f.project_number}"
                if "project-number" in report.traps or "ids" in report.traps
                else ""
            ),
            f"{w['report_date']}: {report.date(f.report_date)}",
            "",
            f"{len(f.samples)} {f.samples[0].matrix.lower()} sample(s) collected {when} by "
            f"{f.sampler} were received by {f.laboratory} on {report.date(f.received)} under "
            f"{w['work_order'].lower()} {f.work_order}. The samples arrived intact, on ice, with "
            "custody seals in place.",
            "",
        ]
        if len(dates) > 2:
            paragraphs.append(
                "Samples were collected on "
                + ", ".join(report.date(d) for d in dates[:-1])
                + f" and {report.date(dates[-1])}."
            )
            paragraphs.append("")
        if "ids" in report.traps:
            paragraphs += [
                f"{w['po_number']}: {f.po_number}. Laboratory sample IDs {f.samples[0].lab_id} "
                f"through {f.samples[-1].lab_id} were assigned at login.",
                "",
            ]
        if "other-dates" in report.traps:
            last = max(s.analysed for s in f.samples)
            paragraphs += [
                f"All analyses were completed by {report.date(last)}; holding times were met.",
                "",
            ]
        status = _status_text(report)
        if _on_cover(report):
            if f.status == "draft":
                paragraphs += [
                    f"{w['status']}: {status}. These results have not completed review.",
                    "",
                ]
            elif f.status == "revised":
                line = f"{w['status']}: {status}."
                if "supersedes" in report.traps:
                    line += (
                        f" This report replaces {f.supersedes}, issued "
                        f"{report.date(f.superseded_date)}."
                    )
                paragraphs += [line, ""]
            else:
                paragraphs += [f"{w['status']}: {status}.", ""]
        paragraphs.append("No other problems were encountered with the analyses.")
        y = 120
        for paragraph in paragraphs:
            # Typed prose wraps at the margin (a blank paragraph is a blank line).
            for line in simpleSplit(paragraph, sheet.bold, 9.5, PAGE[0] - 100) or [""]:
                sheet.text(50, y, line, size=9.5, bold=True)
                y += 13
        sheets.append(sheet)
    # header-band: no front page of its own; the band on every page is its front matter
    return sheets


def _closing_page(report: MetadataReport, rng: random.Random) -> Sheet | None:
    f, w, name = report.facts, report.words, report.family.name
    sheet = _sheet(report)
    if name in ("summary-cover", "header-band", "case-narrative"):
        y = _band(sheet, report) if name == "header-band" else _running_header(sheet, report)
        sheet.text(50, y, "APPROVAL", size=12, bold=True)
        y += 20
        lines = [
            "The results in this report relate only to the samples tested and apply to the",
            "samples as received. This report shall not be reproduced except in full.",
        ]
        for line in lines:
            sheet.text(50, y, line, size=9)
            y += 12
        _signature(sheet, report, y + 10)
        return sheet
    if rng.random() < 0.5:
        y = _running_header(sheet, report)
        sheet.text(50, y, "SAMPLE RECEIPT", size=12, bold=True)
        y += 22
        dates = f.sampling_dates()
        rows = [
            (
                w["received_date"],
                f"{report.date(f.received)} {rng.randint(8, 16):02d}:{rng.choice((5, 20, 35, 50)):02d}",
            ),
            ("Cooler temperature", f"{rng.randint(10, 58) / 10:.1f} C"),
            ("Custody seals", "intact"),
            (w["sampler"], f.sampler),
            ("Relinquished", report.table_date(dates[-1])),
        ]
        _kv(sheet, 60, y, rows, 150)
        return sheet
    return None


def render_pages(report: MetadataReport, seed: int, *labels: str | int) -> RenderedPages:
    """Every page of the PDF: the first report, then any stapled behind it."""
    sheets: list[Sheet] = []
    starts: list[int] = []
    front: tuple[int, ...] = ()
    for number, part in enumerate((report, *report.stapled)):
        rng = make_random(seed, "frontmatter-pages", *labels, number)
        start = len(sheets)
        starts.append(start)
        pages = _front_pages(part, rng)
        if number == 0:
            front = tuple(range(len(pages))) or (0,)
        # Every sample is printed with its collection date (three to a page).
        samples = list(part.facts.samples)
        chunks = [samples[i : i + 3] for i in range(0, len(samples), 3)]
        for chunk in chunks:
            sheet = _sheet(part)
            if part.family.name == "header-band":
                y = _band(sheet, part)
            else:
                y = _running_header(sheet, part)
            _results_page(sheet, part, chunk, y + 6, rng)
            pages.append(sheet)
        closing = _closing_page(part, rng)
        if closing is not None:
            pages.append(closing)
        watermark = (
            part.facts.status == "draft"
            and "draft-no-watermark" not in part.traps
            and "status-footer" not in part.traps
        )
        for index, sheet in enumerate(pages):
            _footer(sheet, part, index + 1, len(pages))
            if watermark:
                sheet.watermark(part.status_word.upper())
        sheets.extend(pages)
    return RenderedPages(tuple(sheets), tuple(starts), front)


def sampled_dates_of(report: MetadataReport) -> tuple[str, ...]:
    return tuple(d.isoformat() for d in report.facts.sampling_dates())


DrawPage = Callable[[Canvas, int], None]
