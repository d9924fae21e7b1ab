"""The documents of a site record, drawn from the site model as `sitepages.Sheet`s with facts.

Each builder returns a `Doc`: one document of the file (a report with its appendices, a letter,
a form), made of `Part`s. A part is either sheets drawn here (office styles of
`locate.sitepages`: letterheads, numbering, well-ID forms) or a PDF drawn elsewhere (a recorded
instrument of `envirobench_synth.legal`, a laboratory report), with the facts of each of its
pages. A part's `role` says what its result printings are (`lab`: a laboratory report;
`report`: a consultant's tables and text; `cumulative`: a historical table; `correction`: a
letter correcting named values) and `values` what it printed for each result it states, so the
record can tell a reprint from a transcription error (see `record`).

Fact strings (CONTRACT.md): `result|<location>|<depth or ->|<date>|<analyte>|<matrix>`,
`event|<kind>|<subject or ->|<date as printed>`, `condition|<kind>`. A page states a fact only
when it prints the value (or the dated event, or a finding about the condition) with what
identifies it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from PIL import Image, ImageDraw, ImageFilter
from reportlab.lib.utils import ImageReader

from ..legal.archive import PageScan
from ..locate.sitepages import (
    CLOSINGS,
    MARGIN,
    PAGE_H,
    PAGE_W,
    SALUTATIONS,
    STYLES_BY_SPLIT,
    TITLES,
    OfficeStyle,
    Sheet,
    finish,
    flow,
    letterhead,
    person,
    photo_sheets,
    style,
)
from ..pdfpages import wrap
from ..rng import make_bits, make_random
from .boilerplate import BY_KIND
from .model import Campaign, Measurement, Sample, SiteModel, key_of, result_fact

Key = tuple[str, str, str, str, str]


@dataclass
class Part:
    sheets: list[Sheet] | None = None
    pdf: bytes | None = None
    pdf_facts: list[set[str]] | None = None
    role: str = "report"
    values: dict[str, float | None] = field(default_factory=dict)  # result fact -> value printed
    scan: bool = False
    issued: dt.date | None = None  # an appendix issued before its report (a laboratory report)
    scannable: bool = False  # hand-filled forms (field sheets, custody) are filed as scans
    scan_pages: tuple[PageScan, ...] = ()  # a scanned part's pages as filed (`scanning`)

    @property
    def pages(self) -> int:
        return len(self.sheets) if self.sheets is not None else len(self.pdf_facts or [])

    def facts(self) -> list[set[str]]:
        if self.sheets is not None:
            return [set(s.facts) for s in self.sheets]
        return [set(f) for f in self.pdf_facts or []]


@dataclass
class Doc:
    kind: str
    title: str
    issued: dt.date
    parts: list[Part]
    draft: bool = False
    scannable: bool = False  # an old paper original: may be filed as a scan
    campaign: str | None = None  # the laboratory job a lab report prints
    filler: bool = False

    @property
    def pages(self) -> int:
        return sum(p.pages for p in self.parts)


# -- printing helpers -----------------------------------------------------------------------------


def loc_name(st: OfficeStyle, location: str) -> str:
    """A point ID in the office's well-ID form: MW-3, MW-03 or MW3 (and SB-12, SB12...)."""
    prefix, number = location.split("-")
    form = st.well_format.replace("MW", prefix)
    return form.format(n=int(number))


def number(value: float) -> str:
    if value >= 1000:
        return f"{value:,.0f}" if value == int(value) else f"{value:,.1f}"
    return f"{value:g}"


def shown(st: OfficeStyle, m: Measurement) -> str:
    if m.value is None:
        return "ND" if st.nondetect == "ND" else f"<{m.rl:g}"
    text = number(m.value)
    return f"{text} {m.qualifier}".strip() if m.qualifier in ("J", "R") else text


def unit_text(st: OfficeStyle, unit: str) -> str:
    if unit == "µg/L":
        return st.unit
    if unit == "µg/m³":
        return "ug/m3" if st.unit == "ug/L" else "µg/m³"
    return unit


SHORT = {
    "Benzene": "Benzene",
    "Toluene": "Toluene",
    "Ethylbenzene": "Ethylbenz.",
    "Xylenes, Total": "Xylenes",
    "Methyl tert-butyl ether": "MTBE",
    "TPH-Gasoline Range Organics (C6-C10)": "TPH-GRO",
    "TPH-Diesel Range Organics (C10-C28)": "TPH-DRO",
    "TPH-Oil Range Organics (C28-C40)": "TPH-ORO",
    "Naphthalene": "Naphth.",
    "Tetrachloroethene": "PCE",
    "Trichloroethene": "TCE",
    "cis-1,2-Dichloroethene": "cis-DCE",
    "Vinyl chloride": "VC",
    "Benzo(a)anthracene": "B(a)A",
    "Chrysene": "Chrysene",
    "Benzo(a)pyrene": "B(a)P",
    "Aroclor 1254": "PCB-1254",
    "Aroclor 1260": "PCB-1260",
}
MATRIX_TEXT = {
    "groundwater": "Groundwater",
    "soil": "Soil",
    "soil-vapor": "Soil Vapor",
    "sub-slab-vapor": "Sub-Slab Vapor",
    "indoor-air": "Indoor Air",
}


# Report titles and draft markers by split: the test split's wordings never occur in dev.
DOC_TITLES = {
    "tank-closure": {
        "dev": ("Underground Storage Tank Closure Report",),
        "test": ("UST Removal and Site Assessment Report", "Tank System Closure Assessment"),
    },
    "phase-ii": {
        "dev": ("Phase II Environmental Site Assessment",),
        "test": ("Phase II Subsurface Investigation Report", "Limited Subsurface Investigation"),
    },
    "characterization": {
        "dev": ("Site Characterization Report",),
        "test": ("Site Assessment Report", "Supplemental Site Investigation Report"),
    },
    "monitoring": {
        "dev": ("{word} Groundwater Monitoring Report, {label}",),
        "test": (
            "Groundwater Sampling Report, {label}",
            "{word} Groundwater Sampling Report - {label}",
        ),
    },
    "vapor": {
        "dev": ("Vapor Intrusion Assessment Report, {label}",),
        "test": ("Soil Vapor and Indoor Air Sampling Report, {label}",),
    },
    "cap": {"dev": ("Corrective Action Plan",), "test": ("Remedial Action Plan",)},
    "completion": {
        "dev": ("Remediation Completion Report",),
        "test": ("Remedial Action Completion Report",),
    },
    "draft": {
        "dev": ("DRAFT - FOR AGENCY REVIEW",),
        "test": ("PRELIMINARY DRAFT - NOT FOR DISTRIBUTION", "DRAFT FOR CLIENT COMMENT"),
    },
}


# The sentences that state facts, by split: the test split words them as the dev split never does.
WORDS = {
    "detected": {
        "dev": "{analyte} was detected in {where} at {value} {unit}.",
        "test": "The sample from {where} contained {analyte} at a concentration of {value} {unit}.",
    },
    "used-since": {
        "dev": "The subject property has been used as {use} since {year}, according to city "
        "directories, aerial photographs and the owner's interview.",
        "test": "Historical sources (city directories, aerial photographs, the owner's interview) show "
        "the subject property in use as {use} from {year} on.",
    },
    "ceased": {
        "dev": "Operations at the property ceased in {month}, and the building has been vacant or used "
        "for storage since.",
        "test": "The business closed in {month}; the building has since been vacant or used for storage.",
    },
    "tank": {
        "dev": "Tank {id}, a {gallons}-gallon {material} {kind} for {contents}, was installed on "
        "{installed}{removed}, according to the registration records.",
        "test": "Registration records show tank {id} ({gallons} gallons, {material}, {contents}) placed in "
        "service on {installed}{removed}.",
    },
    "removed": {"dev": " and removed on {date}", "test": " and taken out of the ground on {date}"},
    "release": {
        "dev": "A release was discovered on {date} and reported to the {agency} (Case No. {case}).",
        "test": "On {date} a release was confirmed and reported to the {agency}, which opened Case No. "
        "{case}.",
    },
    "finding": {
        "dev": "This assessment has revealed {summary}. In our opinion this is {phrase}.",
        "test": "We identified {summary}; in our professional judgment this constitutes {phrase}.",
    },
    "remedy-began": {
        "dev": "The {remedy} began on {date}, as the approved Corrective Action Plan provides.",
        "test": "Start-up of the {remedy} took place on {date} under the approved plan.",
    },
    "remedy-ended": {
        "dev": "The {remedy} was completed on {date}.",
        "test": "Field work for the {remedy} ended on {date}, when the performance criteria were met.",
    },
}


def prose(analyte: str) -> str:
    """An analyte's name inside a sentence: "benzene", "total xylenes", "TPH-GRO"."""
    special = {"Xylenes, Total": "total xylenes", "Methyl tert-butyl ether": "MTBE"}
    if analyte in special:
        return special[analyte]
    if analyte.startswith("TPH-"):
        return SHORT.get(analyte, analyte)
    return analyte[0].lower() + analyte[1:] if analyte[1:2].islower() else analyte


class Pen:
    """What every builder needs: the model, its split, a seeded stream and the office styles."""

    def __init__(self, model: SiteModel, rng: random.Random):
        self.m = model
        self.rng = rng
        self.split = model.split

    def office(self, day: dt.date) -> OfficeStyle:
        return style(self.m.consultant_on(day))

    def agency_style(self) -> OfficeStyle:
        # the agency's letters in a style of the split that no consultant of this site uses
        used = {name for _, name in self.m.consultants}
        free = [n for n in STYLES_BY_SPLIT[self.split] if n not in used]
        return style(free[0] if free else STYLES_BY_SPLIT[self.split][0])

    def title(self, kind: str) -> str:
        return self.rng.choice(TITLES[kind][self.split])

    def doc_title(self, kind: str, **fields: str) -> str:
        """A report title of this split, the same for every report of a site (one office
        keeps its wording)."""
        options = DOC_TITLES[kind][self.split]
        return options[self.m.spec.seed % len(options)].format(**fields)

    def filler(self, n: int, kind: str = "field") -> list[str]:
        """`n` sentences stating nothing, from the vocabulary of the document's kind (`boilerplate`)."""
        return [text.format(agency=self.m.agency) for text in self.rng.sample(BY_KIND[kind], n)]

    def framed(self, sections: list[tuple[str, list[tuple[str, set[str]]]]]) -> list[tuple[str, list[tuple[str, set[str]]]]]:
        """A field report's sections with a site setting after the first and its limitations at
        the end, as reports print them (sentences that state nothing: `boilerplate`)."""
        setting = ("Site Setting", [(t, set()) for t in self.filler(3, "setting")])
        limitations = ("Limitations", [(t, set()) for t in self.filler(3, "limitations")])
        return [sections[0], setting, *sections[1:], limitations]

    def say(self, key: str, **fields: object) -> str:
        text = WORDS[key][self.split].format(**fields)
        return text[0].upper() + text[1:]


# -- generic pieces -------------------------------------------------------------------------------


def _continuation(st: OfficeStyle, kind: str, header: str) -> callable:
    def make(page: int) -> Sheet:
        sheet = Sheet(st, kind, page_in_doc=page)
        sheet.text(header, size=st.size - 1, bold=True)
        sheet.rule()
        sheet.gap(12)
        return sheet

    return make


def letter_doc(
    pen: Pen,
    st: OfficeStyle,
    *,
    kind: str,
    date: dt.date,
    subject: str,
    paragraphs: Sequence[str],
    facts: Sequence[set[str]] | None = None,
    to: tuple[str, str] | None = None,
    sender: tuple[str, str] | None = None,
    firm: tuple[str, str, str] | None = None,
    cc: Sequence[str] = (),
) -> list[Sheet]:
    """A letter on `st`'s letterhead (or `firm`'s: name, address, phone); `facts[i]` are stated by
    paragraph i and go to the page it lands on."""
    m = pen.m
    first = Sheet(st, kind)
    if firm:
        letterhead(first, firm=firm[0], address=firm[1], phone=firm[2])
    else:
        letterhead(first)
    first.text(st.date(date))
    first.gap(10)
    name, org = to or (m.contact, m.client_on(date))
    for line in (name, org, m.address):
        first.text(line)
    first.gap(8)
    for k, line in enumerate(_wrap_subject(st, subject)):
        first.text(("Re: " if k == 0 else "      ") + line, bold=True)
    first.gap(8)
    salutation = pen.rng.choice(SALUTATIONS[pen.split])
    first.text(salutation.format(name=f"{pen.rng.choice(('Mr.', 'Ms.'))} {name.split()[-1]}"))
    first.gap(4)

    def later(page: int) -> Sheet:
        sheet = Sheet(st, kind, page_in_doc=page)
        if st.continuation == "full-letterhead":
            letterhead(sheet)
        for line in (name, st.date(date), f"Page {page}"):
            sheet.text(line, size=st.size - 0.5)
        sheet.gap(14)
        return sheet

    signer, role = sender or (person(pen.rng), "Project Manager")
    closing = [pen.rng.choice(CLOSINGS[pen.split]), "", signer, role, firm[0] if firm else st.firm]
    closing_facts = [set() for _ in closing]
    body = list(paragraphs)
    body_facts = list(facts) if facts is not None else [set() for _ in body]
    if cc:
        closing.append("cc: " + "; ".join(cc))
        closing_facts.append(set())
    sheets = flow(first, body + closing, later, facts=body_facts + closing_facts)
    return finish(sheets, mark="")


def _wrap_subject(st: OfficeStyle, subject: str) -> list[str]:
    return wrap(subject, st.bold, st.size, PAGE_W - 2 * MARGIN - 40)


def title_page(
    pen: Pen,
    st: OfficeStyle,
    title: str,
    date: dt.date,
    *,
    draft: bool,
    subtitle: str = "",
    facts: set[str] | None = None,
) -> Sheet:
    m = pen.m
    sheet = Sheet(st, "report")
    letterhead(sheet)
    if draft:
        sheet.text(pen.doc_title("draft"), size=st.size + 4, bold=True, align="center")
    sheet.gap(90)
    for line in _wrap_title(st, title.upper()):
        sheet.text(line, size=st.size + 7, bold=True, align="center")
    if subtitle:
        sheet.gap(6)
        sheet.text(subtitle, size=st.size + 2, align="center")
    sheet.gap(16)
    sheet.text(m.name, size=st.size + 3, align="center")
    sheet.text(m.address, align="center")
    sheet.text(f"{m.agency} Case No. {m.case_number}", align="center")
    sheet.gap(40)
    sheet.text("Prepared for:", bold=True, align="center")
    sheet.text(m.client_on(date), align="center")
    sheet.gap(14)
    sheet.text("Prepared by:", bold=True, align="center")
    sheet.text(st.firm, align="center")
    sheet.text(st.address, align="center")
    sheet.gap(14)
    sheet.text(st.date(date), size=st.size + 1, bold=True, align="center")
    if facts:
        sheet.facts |= facts
    return sheet


def _wrap_title(st: OfficeStyle, title: str) -> list[str]:
    return wrap(title, st.bold, st.size + 7, PAGE_W - 2 * MARGIN)


def text_pages(
    pen: Pen,
    st: OfficeStyle,
    header: str,
    sections: Sequence[tuple[str, list[tuple[str, set[str]]]]],
) -> list[Sheet]:
    """Report text: numbered sections of (paragraph, facts), flowing over pages with a running
    header."""
    make = _continuation(st, "report", header)
    first = make(1)
    paragraphs: list[str] = []
    facts: list[set[str]] = []
    for number_, (heading, paras) in enumerate(sections, 1):
        paragraphs.append(f"{number_}.0  {heading.upper()}")
        facts.append(set())
        for text, stated in paras:
            paragraphs.append(text)
            facts.append(stated)
    sheets = flow(first, paragraphs, make, facts=facts)
    return sheets


def results_table_pages(
    pen: Pen,
    st: OfficeStyle,
    caption: str,
    samples: Sequence[Sample],
    analytes: Sequence[str],
    *,
    first_column: str,
    label: callable,
    values: dict[str, float | None],
    note: str = "",
    override: dict[Key, Measurement] | None = None,
    standard: tuple[str, list[str]] | None = None,
) -> list[Sheet]:
    """A results table (one row per sample, one column per analyte), over as many pages as it
    needs; each page states the results of its rows."""
    override = override or {}
    per_page = 28
    units = {}
    for s in samples:
        for m_ in s.results:
            units.setdefault(m_.analyte, m_.unit)
    heads = [first_column, *(SHORT.get(a, a) for a in analytes)]
    width_first = 110.0
    col = (PAGE_W - 2 * MARGIN - width_first) / max(1, len(analytes))
    sheets = []
    chunks = [list(samples[i : i + per_page]) for i in range(0, len(samples), per_page)] or [[]]
    for index, chunk in enumerate(chunks):
        sheet = Sheet(st, "report")
        sheet.text(caption + (" (continued)" if index else ""), bold=True)
        unit_line = ", ".join(
            f"{SHORT.get(a, a)} {unit_text(st, units.get(a, ''))}" for a in analytes
        )
        sheet.text(f"Units: {unit_line}", size=st.size - 2)
        sheet.gap(4)
        rows = []
        if standard is not None:
            # the screening level the report compares with (in force when the report was written)
            rows.append([standard[0], *standard[1]])
        for s in chunk:
            row = [label(s)]
            by = {m_.analyte: m_ for m_ in s.results}
            for a in analytes:
                if a not in by:
                    row.append("--")
                    continue
                m_ = override.get(key_of(s, by[a]), by[a])
                row.append(shown(st, m_))
                if not s.is_duplicate:
                    fact = result_fact(key_of(s, by[a]))
                    sheet.facts.add(fact)
                    values[fact] = m_.value
            rows.append(row)
        sheet.table(heads, rows, [width_first, *([col] * len(analytes))], size=st.size - 1)
        nd = (
            "ND = not detected above the reporting limit"
            if st.nondetect == "ND"
            else ("<x = not detected at reporting limit x")
        )
        if standard is not None:
            note = f"{standard[0]}: screening level (NE = none established). {note}"
        sheet.text(
            f"Notes: {nd}; J = estimated value below the reporting limit. {note}".strip(),
            size=st.size - 2,
        )
        sheets.append(sheet)
    return sheets


def site_plan(pen: Pen, st: OfficeStyle, figure: int, day: dt.date) -> Sheet:
    """A figure page: the building, the former tanks and the sampling points."""
    m = pen.m
    rng = random.Random(hash_of(m.spec.site_id, "plan"))
    sheet = Sheet(st, "figure")
    sheet.text(f"Figure {figure}. Site Plan and Sampling Locations", bold=True, align="center")
    sheet.text(f"{m.name}, {m.address}", align="center", size=st.size - 1)
    top = sheet.y + 10
    sheet.box(MARGIN, top, PAGE_W - 2 * MARGIN, 520, width=1.2)
    sheet.box(MARGIN + 60, top + 60, 200, 120, width=1.5)
    sheet.text("BUILDING", x=MARGIN + 130, y=top + 112, bold=True)
    sheet.box(MARGIN + 300, top + 230, 120, 70, width=0.8)
    sheet.text("FORMER TANK AREA", x=MARGIN + 305, y=top + 258, size=st.size - 2)
    cx, cy = MARGIN + 360, top + 265
    shown_points = [p for p in m.points.values() if p.installed <= day]
    for p in shown_points:
        angle = rng.uniform(0, 2 * math.pi)
        r = min(230.0, p.distance * 1.4 + 15)
        x = max(MARGIN + 10, min(PAGE_W - MARGIN - 40, cx + r * math.cos(angle)))
        y = max(top + 10, min(top + 500, cy + r * math.sin(angle) * 0.9))
        sheet.box(x - 3, y - 3, 6, 6, width=1.0, fill=0 if p.prefix == "MW" else None)
        sheet.text(loc_name(st, p.id), x=x + 5, y=y - 4, size=6.5)
    sheet.y = top + 530
    sheet.text(
        "LEGEND:  filled square = monitoring well;  open square = boring, probe or sample "
        "point.  Not to scale.",
        size=st.size - 2,
    )
    return sheet


def hash_of(*labels: str) -> int:
    return int.from_bytes(hashlib.sha256("|".join(labels).encode()).digest()[:8], "big")


def photograph(seed: int, *labels: str | int, width: int = 420, height: int = 250) -> bytes:
    """A grey outdoor photograph as a small JPEG: sky, a building or tank with its shadow, the
    ground, pavement joints, and grain. Drawn from (seed, *labels) with integer arithmetic on a
    PCG64 stream, so the bytes are the same on every machine."""
    rng = make_random(seed, *labels, "photo")
    horizon = rng.randint(height // 3, height // 2)
    rows = np.arange(height, dtype=np.int32)[:, None]
    sky = 215 - (rows * 40) // max(1, horizon)
    ground = 150 - ((rows - horizon) * 50) // max(1, height - horizon)
    base = np.where(rows < horizon, sky, ground).repeat(width, axis=1).astype(np.int32)
    image = Image.fromarray(np.clip(base, 0, 255).astype(np.uint8), "L")
    draw = ImageDraw.Draw(image)
    for _ in range(rng.randint(1, 3)):  # buildings, canopies, tanks
        w, h = rng.randint(60, 200), rng.randint(40, horizon + 20)
        x = rng.randint(-20, width - 40)
        top = horizon - h + rng.randint(0, 25)
        tone = rng.randint(70, 190)
        if rng.random() < 0.4:
            draw.ellipse((x, top, x + w, top + h), fill=tone)
        else:
            draw.rectangle((x, top, x + w, horizon + rng.randint(0, 30)), fill=tone)
            draw.rectangle((x + w, top + 8, x + w + w // 4, horizon + 25), fill=max(0, tone - 45))
            for k in range(rng.randint(0, 4)):  # windows or doors
                wx = x + 10 + k * (w // 5)
                draw.rectangle(
                    (wx, top + 15, wx + w // 8, top + 15 + h // 4), fill=max(0, tone - 60)
                )
    for _ in range(rng.randint(2, 6)):  # pavement joints, pipes, a well vault
        y = rng.randint(horizon + 10, height - 5)
        draw.line(
            (0, y, width, y + rng.randint(-30, 30)),
            fill=rng.randint(90, 130),
            width=rng.randint(1, 3),
        )
    if rng.random() < 0.5:
        cx, cy = rng.randint(40, width - 40), rng.randint(horizon + 30, height - 20)
        draw.ellipse((cx - 18, cy - 10, cx + 18, cy + 10), fill=60, outline=30)
    image = image.filter(ImageFilter.GaussianBlur(1.2))
    bits = make_bits(seed, *labels, "grain")
    raw = bits.random_raw(width * height // 8 + 1)
    noise = np.frombuffer(np.asarray(raw, dtype=np.uint64).tobytes(), dtype=np.uint8)[
        : width * height
    ]
    grain = (noise.astype(np.int32) % 25 - 12).reshape(height, width)
    pixels = np.clip(np.asarray(image, dtype=np.int32) + grain, 0, 255).astype(np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(pixels, "L").save(buffer, format="JPEG", quality=45, optimize=False)
    return buffer.getvalue()


def _image_op(jpeg: bytes, x: float, top: float, w: float, h: float):
    def op(canvas) -> None:
        canvas.drawImage(ImageReader(io.BytesIO(jpeg)), x, PAGE_H - top - h, width=w, height=h)

    return op


def photo_pages(pen: Pen, st: OfficeStyle, count: int, captions: Sequence[str]) -> list[Sheet]:
    title = pen.title("photo-log")

    def photo(sheet: Sheet, n: int) -> None:
        top = sheet.y
        w, h = PAGE_W - 2 * MARGIN - 80, 250.0
        jpeg = photograph(pen.m.spec.seed, pen.m.spec.site_id, "photo", pen.rng.randrange(10**9))
        sheet.ops.append(_image_op(jpeg, MARGIN + 40, top, w, h))
        sheet.box(MARGIN + 40, top, w, h, width=0.8)
        sheet.y = top + 258
        sheet.text(f"Photo {n}. {pen.rng.choice(captions)}", x=MARGIN + 40)
        sheet.gap(10)

    place = f"{pen.m.name}, {pen.m.address}"
    return photo_sheets(st, title, place, count, photo, title_size=st.size + 3, gap=8)


def field_sheets(pen: Pen, st: OfficeStyle, samples: Sequence[Sample]) -> list[Sheet]:
    """Groundwater sampling field forms, two wells a page: purge volumes and parameters."""
    sheets = []
    water = [s for s in samples if s.matrix == "groundwater" and not s.is_duplicate]
    for i in range(0, len(water), 2):
        sheet = Sheet(st, "field-form")
        sheet.text(
            "GROUNDWATER SAMPLING FIELD DATA SHEET"
            if pen.split == "dev"
            else "WELL PURGING AND SAMPLING LOG",
            size=st.size + 2,
            bold=True,
            align="center",
        )
        sheet.gap(6)
        for s in water[i : i + 2]:
            p = pen.m.points[s.location]
            sheet.text(
                f"Well ID: {loc_name(st, s.location)}    Date: {st.date(s.date)}    "
                f"Sampler: {person(pen.rng)}",
                bold=True,
            )
            dtw = (p.water or 10.0) + pen.rng.uniform(-1.5, 1.5)
            sheet.text(
                f"Depth to water: {dtw:.2f} ft TOC    Total depth: {p.total_depth or 25:g} ft    "
                f"Casing volume: {((p.total_depth or 25) - dtw) * 0.163:.2f} gal"
            )
            rows = []
            for minute in range(0, 25, 5):
                rows.append(
                    [
                        f"{minute}",
                        f"{pen.rng.uniform(6.2, 7.4):.2f}",
                        f"{pen.rng.uniform(320, 980):.0f}",
                        f"{pen.rng.uniform(11, 17):.1f}",
                        f"{pen.rng.uniform(0.3, 3.8):.2f}",
                        f"{pen.rng.uniform(-120, 140):.0f}",
                    ]
                )
            sheet.table(
                ["Minutes", "pH", "Cond. (uS/cm)", "Temp (C)", "DO (mg/L)", "ORP (mV)"],
                rows,
                [70, 70, 90, 80, 80, 80],
                size=st.size - 1,
            )
            sheet.text(
                "Purge method: low-flow peristaltic pump. Odor/sheen: "
                f"{pen.rng.choice(('none', 'slight petroleum odor', 'none observed', 'faint'))}.",
                size=st.size - 1,
            )
            sheet.gap(14)
        sheets.append(sheet)
    return sheets


def custody_pages(pen: Pen, st: OfficeStyle, campaign: Campaign) -> list[Sheet]:
    title = pen.title("custody")
    sheets = []
    per = 12
    for i in range(0, len(campaign.samples), per):
        sheet = Sheet(st, "custody")
        sheet.text(title, size=st.size + 3, bold=True, align="center")
        sheet.text(campaign.lab, align="center")
        sheet.gap(6)
        sheet.text(f"Project: {pen.m.name}    Sampler: {person(pen.rng)}")
        rows = []
        for s in campaign.samples[i : i + per]:
            rows.append(
                [
                    s.sample_id,
                    st.date(s.date),
                    f"{pen.rng.randint(8, 16):02d}:{pen.rng.randint(0, 59):02d}",
                    MATRIX_TEXT.get(s.matrix, s.matrix)[:12],
                    "see list",
                    str(pen.rng.randint(2, 4)),
                ]
            )
        sheet.table(
            ["Sample ID", "Date", "Time", "Matrix", "Analyses", "Cont."],
            rows,
            [120, 85, 50, 80, 80, 45],
            size=st.size - 1,
        )
        sheet.gap(10)
        for label in ("Relinquished by:", "Received by:"):
            sheet.text(f"{label} ______________________   Date/Time: ____________")
        sheets.append(sheet)
    return finish(sheets, mark="Page {page} of {pages}")
