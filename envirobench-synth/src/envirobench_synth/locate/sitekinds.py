"""The documents of a site file, each as the `Sheet`s of one document, with the facts they state.

`sample_site(rng)` draws one site: its wells, sampling events and results, borings, invoices, a
permit, a recorded environmental covenant and a deed. The kind functions lay out one document
of it in an office style (`sitepages.OfficeStyle`) and return its finished sheets; each sheet
records the facts it states, as keys:

    result|<well number>|<ISO date>|<analyte>   the analyte's result in that well's sample of that day
    depth|<well number>                         the total depth of the well's boring
    invoice|<number>                            the amount due on that invoice
    permit-expiry                               the permit's expiration date
    covenant-recording                          the environmental covenant's recording number

A page *states* a fact when the fact's value is printed on it together with what identifies it
(a results table row or cell of that well and day, a sentence naming them, the stamp of the
covenant); a page that names the well, the day or the analyte without the value (a chain of
custody, a photo caption, a sentence without the number) does not.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from .sitepages import (
    AGENCIES,
    CLIENTS,
    CLOSINGS,
    COUNTIES,
    FILLER,
    LABS,
    MARGIN,
    PAGE_H,
    PAGE_W,
    SALUTATIONS,
    STREETS,
    TITLES,
    TOP,
    VENDORS,
    OfficeStyle,
    Sheet,
    finish,
    flow,
    letterhead,
    money,
    person,
    photo_sheets,
    recorder_stamp,
    wrap,
)

ANALYTES = (
    ("benzene", 1.0),
    ("toluene", 1.0),
    ("ethylbenzene", 1.0),
    ("xylenes, total", 3.0),
    ("MTBE", 1.0),
    ("naphthalene", 2.0),
    ("tetrachloroethene", 1.0),
    ("trichloroethene", 1.0),
    ("vinyl chloride", 0.5),
    ("1,2-dichloroethane", 1.0),
)
LITHOLOGY = (
    "SILTY CLAY, brown, moist, stiff",
    "CLAYEY SILT, grey, moist",
    "SAND, fine to medium, brown, wet",
    "GRAVELLY SAND, grey, saturated",
    "FILL: gravel and sand, dry",
    "SILT, olive, moist, petroleum odor",
)


@dataclass
class Invoice:
    vendor: str
    number: str
    date: dt.date
    items: list[tuple[str, int]]

    @property
    def total(self) -> int:
        return sum(cents for _, cents in self.items)


@dataclass
class Site:
    name: str
    address: str
    client: str
    contact: str
    agency: str
    county: str
    lab: str
    wells: list[int]
    events: list[dt.date]
    analytes: list[tuple[str, float]]
    results: dict[
        tuple[int, int, str], float | None
    ]  # (well, event index, analyte) -> value or None (ND)
    borings: dict[
        int, tuple[dt.date, float, float]
    ]  # well -> (drilled, total depth ft, depth to water ft)
    invoices: list[Invoice]
    permit: tuple[str, dt.date, dt.date]  # number, issued, expires
    covenant: tuple[str, dt.datetime]  # recording number, recorded at
    deed: tuple[str, dt.datetime]
    project: str = field(default="")

    def value(self, style_: OfficeStyle, well: int, event: int, analyte: str) -> str:
        found = self.results[(well, event, analyte)]
        rl = dict(self.analytes)[analyte]
        if found is None:
            return nondetect(style_, rl)
        return f"{found:g}"


def nondetect(style_: OfficeStyle, rl: float) -> str:
    """A non-detect as the office prints it: "ND" or "<RL"."""
    return "ND" if style_.nondetect == "ND" else f"<{rl:g}"


def _date(rng: random.Random, year_from: int, year_to: int) -> dt.date:
    return dt.date(year_from, 1, 1) + dt.timedelta(
        days=rng.randrange((year_to - year_from + 1) * 365)
    )


def sample_site(
    rng: random.Random, *, wells: int = 5, events: int = 3, analytes: int = 6, invoices: int = 4
) -> Site:
    """One site with `wells` monitoring wells sampled on `events` days for `analytes` analytes."""
    start = _date(rng, 2008, 2016)
    days = sorted(
        {start + dt.timedelta(days=91 * k + rng.randrange(-10, 11)) for k in range(1, events + 1)}
    )
    chosen = rng.sample(ANALYTES, analytes)
    numbers = list(range(1, wells + 1))
    results: dict[tuple[int, int, str], float | None] = {}
    for well in numbers:
        hot = rng.random() < 0.5
        for e in range(len(days)):
            for name, rl in chosen:
                if rng.random() < (0.6 if hot else 0.25):
                    results[(well, e, name)] = round(rng.uniform(rl * 1.2, 900 if hot else 40), 1)
                else:
                    results[(well, e, name)] = None
    borings = {
        w: (
            start - dt.timedelta(days=rng.randrange(20, 400)),
            float(rng.randrange(18, 45)),
            round(rng.uniform(6, 16), 1),
        )
        for w in numbers
    }
    invoice_list = []
    for _ in range(invoices):
        items = [
            (
                rng.choice(
                    (
                        "Drilling, hollow-stem auger",
                        "Mobilization",
                        "Well development",
                        "Drum disposal",
                        "Utility locate",
                        "Field technician",
                        "Laboratory analysis, VOCs",
                        "Per diem",
                    )
                ),
                rng.randrange(150, 4800) * 100 + rng.choice((0, 25, 50, 75)),
            )
            for _ in range(rng.randint(2, 6))
        ]
        invoice_list.append(
            Invoice(
                rng.choice(VENDORS),
                f"{rng.randrange(1000, 99999)}",
                start + dt.timedelta(days=rng.randrange(0, 500)),
                items,
            )
        )
    issued = start - dt.timedelta(days=rng.randrange(30, 200))
    recorded = dt.datetime.combine(
        days[-1] + dt.timedelta(days=rng.randrange(30, 300)),
        dt.time(rng.randrange(8, 16), rng.randrange(60)),
    )
    deed_at = dt.datetime.combine(
        _date(rng, 1985, 2005), dt.time(rng.randrange(8, 16), rng.randrange(60))
    )
    name = rng.choice(
        ("Former Kwik Fuel #", "Sutter Row Cleaners #", "Bulk Plant ", "Depot Yard ")
    ) + str(rng.randrange(10, 400))
    return Site(
        name=name,
        address=f"{rng.randrange(100, 9900)} {rng.choice(STREETS)}",
        client=rng.choice(CLIENTS),
        contact=person(rng),
        agency=rng.choice(AGENCIES),
        county=rng.choice(COUNTIES),
        lab=rng.choice(LABS),
        wells=numbers,
        events=days,
        analytes=chosen,
        results=results,
        borings=borings,
        invoices=invoice_list,
        permit=(
            f"{rng.choice(('WQ', 'DP', 'GW'))}-{rng.randrange(1000, 9999)}-{rng.randrange(10, 99)}",
            issued,
            issued + dt.timedelta(days=365 * rng.randint(2, 5)),
        ),
        covenant=(f"{recorded.year}-{rng.randrange(1, 999999):06d}", recorded),
        deed=(f"{deed_at.year}-{rng.randrange(1, 999999):06d}", deed_at),
        project=f"{rng.randrange(10, 99)}-{rng.randrange(1000, 9999)}",
    )


def _title(rng: random.Random, kind: str, split: str) -> str:
    return rng.choice(TITLES[kind][split])


def _later(style_: OfficeStyle, kind: str, header: list[str]) -> callable:
    def make(page: int) -> Sheet:
        sheet = Sheet(style_, kind, page_in_doc=page)
        for line in header:
            sheet.text(line.format(page=page), size=style_.size - 0.5)
        sheet.gap(12)
        return sheet

    return make


# -- kinds ------------------------------------------------------------------------------------------


def letter(
    rng: random.Random,
    st: OfficeStyle,
    split: str,
    site: Site,
    *,
    date: dt.date,
    subject: str,
    paragraphs: list[str],
    facts: list[set[str]] | None = None,
) -> list[Sheet]:
    """A letter on the office's letterhead; its later pages carry a short header, or (in styles that
    reprint it) the full letterhead again, which makes them look like first pages."""
    first = Sheet(st, "letter")
    letterhead(first)
    first.text(st.date(date))
    first.gap(10)
    for line in (site.contact, site.client, site.address):
        first.text(line)
    first.gap(8)
    first.text(f"Re: {subject}", bold=True)
    first.gap(8)
    first.text(
        rng.choice(SALUTATIONS[split]).format(
            name=f"{rng.choice(('Mr.', 'Ms.'))} {site.contact.split()[-1]}"
        )
    )
    first.gap(4)

    def later(page: int) -> Sheet:
        sheet = Sheet(st, "letter", page_in_doc=page)
        if st.continuation == "full-letterhead":
            letterhead(sheet)
        else:
            for line in (site.contact, st.date(date), f"Page {page}"):
                sheet.text(line, size=st.size - 0.5)
            sheet.gap(14)
        return sheet

    closing = [rng.choice(CLOSINGS[split]), person(rng), "Project Manager", st.firm]
    sheets = flow(
        first,
        paragraphs + closing,
        later,
        facts=(facts or [set()] * len(paragraphs)) + [set()] * len(closing),
    )
    return finish(sheets, mark="")


def invoice(
    rng: random.Random, st: OfficeStyle, split: str, site: Site, inv: Invoice
) -> list[Sheet]:
    """A vendor's one-page invoice: number, date, line items and the amount due."""
    sheet = Sheet(st, "invoice")
    letterhead(sheet, firm=inv.vendor)
    sheet.text(_title(rng, "invoice", split), size=st.size + 6, bold=True, align="right")
    sheet.gap(6)
    sheet.text(f"Invoice No.: {inv.number}", bold=True)
    sheet.text(f"Invoice Date: {st.date(inv.date)}")
    sheet.text(f"Bill To: {site.client}, attn. {site.contact}")
    sheet.text(f"Project: {site.name}, {site.address}")
    sheet.gap(10)
    rows = [[desc, money(cents)] for desc, cents in inv.items]
    sheet.table(["Description", "Amount"], rows, [340, 130])
    sheet.text(f"Amount Due: {money(inv.total)}", bold=True, x=MARGIN + 250)
    sheet.facts.add(f"invoice|{inv.number}")
    sheet.gap(8)
    sheet.text(
        f"Terms: net {rng.choice((15, 30, 45))} days. Please reference the invoice number with payment.",
        size=st.size - 1,
    )
    return finish([sheet], mark="")


def lab_report(
    rng: random.Random,
    st: OfficeStyle,
    split: str,
    site: Site,
    event: int,
    wells: list[int],
    *,
    qc: bool = True,
    method: Sequence[tuple[str, float]] | None = None,
) -> list[Sheet]:
    """A laboratory's report of one sampling event: a cover page, one results page per well sample
    (each states that well's results of the day) and a quality-control page (method blank).
    `method` (analyte, RL) lists every analyte of the method in the laboratory's order (the
    site's analytes among them; the others print as non-detects); by default the site's only."""
    listed = list(method) if method is not None else list(site.analytes)
    reported = {name for name, _ in site.analytes}
    day = site.events[event]
    received = day + dt.timedelta(days=1)
    title = _title(rng, "lab-report", split)
    cover = Sheet(st, "lab-report")
    letterhead(cover, firm=site.lab)
    cover.text(title, size=st.size + 6, bold=True, align="center")
    cover.gap(12)
    work_order = f"{day:%y}{rng.choice('ABCDEFGH')}{rng.randrange(1000, 9999)}"
    cover.fields(
        (
            ("Client", site.client),
            ("Project", f"{site.name} ({site.project})"),
            ("Work Order", work_order),
            ("Date Received", st.date(received)),
            ("Date Reported", st.date(received + dt.timedelta(days=rng.randrange(5, 15)))),
            ("Samples", ", ".join(st.well(w) for w in wells)),
        ),
        indent=110,
    )
    cover.gap(14)
    cover.para(
        "The results in this report apply only to the samples as received. This report shall not be reproduced "
        "except in full without the written approval of the laboratory."
    )
    cover.gap(30)
    cover.text(person(rng), bold=True)
    cover.text("Laboratory Director")
    sheets = [cover]
    for well in wells:
        page = Sheet(st, "lab-report")
        page.text(site.lab, bold=True, advance=False)
        page.text(f"Work Order {work_order}", align="right")
        page.rule()
        page.gap(10)
        page.text(f"Client Sample ID: {st.well(well)}", bold=True)
        page.text(f"Date Sampled: {st.date(day)}     Matrix: Groundwater     Method: 8260B")
        page.gap(8)
        rows = [
            [
                name,
                site.value(st, well, event, name) if name in reported else nondetect(st, rl),
                f"{rl:g}",
                st.unit,
            ]
            for name, rl in listed
        ]
        page.table(["Analyte", "Result", "RL", "Units"], rows, [200, 90, 70, 80])
        for name, _ in site.analytes:
            page.facts.add(f"result|{well}|{day.isoformat()}|{name}")
        sheets.append(page)
    if qc:
        page = Sheet(st, "lab-report")
        page.text(site.lab, bold=True, advance=False)
        page.text(f"Work Order {work_order}", align="right")
        page.rule()
        page.gap(10)
        page.text("Quality Control: Method Blank", bold=True)
        page.text(f"Analyzed: {st.date(received + dt.timedelta(days=2))}")
        rows = [[name, nondetect(st, rl), f"{rl:g}", st.unit] for name, rl in listed]
        page.table(["Analyte", "Result", "RL", "Units"], rows, [200, 90, 70, 80])
        sheets.append(page)
    return finish(sheets)


def custody_form(
    rng: random.Random, st: OfficeStyle, split: str, site: Site, event: int, wells: list[int]
) -> list[Sheet]:
    """A chain-of-custody form: sample IDs with their day and time, no results."""
    day = site.events[event]
    per_page = 8
    sheets = []
    chunks = [wells[i : i + per_page] for i in range(0, len(wells), per_page)] or [[]]
    title = _title(rng, "custody", split)
    for chunk in chunks:
        sheet = Sheet(st, "custody")
        sheet.text(title, size=st.size + 4, bold=True, align="center")
        sheet.text(site.lab, align="center")
        sheet.gap(8)
        sheet.text(f"Project: {site.name}    Project No.: {site.project}    Sampler: {person(rng)}")
        sheet.gap(6)
        rows = [
            [
                st.well(w),
                st.date(day),
                f"{rng.randrange(8, 17):02d}:{rng.randrange(60):02d}",
                "GW",
                "8260B",
                "3",
            ]
            for w in chunk
        ]
        sheet.table(
            ["Sample ID", "Date", "Time", "Matrix", "Analyses", "Cont."],
            rows,
            [90, 90, 60, 60, 110, 50],
        )
        sheet.gap(10)
        for label in ("Relinquished by:", "Received by:"):
            sheet.text(f"{label} ______________________   Date/Time: ____________")
        sheets.append(sheet)
    return finish(sheets, mark="Page {page} of {pages}")


def certificate(rng: random.Random, st: OfficeStyle, split: str, site: Site) -> list[Sheet]:
    """A one-page certificate in a border: a large title, a statement and a signature."""
    sheet = Sheet(st, "certificate")
    sheet.box(MARGIN - 20, TOP - 20, PAGE_W - 2 * MARGIN + 40, PAGE_H - 2 * TOP, width=2.5)
    sheet.gap(60)
    sheet.text(_title(rng, "certificate", split), size=st.size + 9, bold=True, align="center")
    sheet.gap(30)
    sheet.para(
        f"This is to certify that the materials and work described below, from {site.name}, "
        f"{site.address}, were handled in accordance with all applicable federal, state and local regulations."
    )
    sheet.para(
        f"Manifest / reference: {rng.randrange(100000, 999999)}.  Quantity: {rng.randint(1, 40)} drums."
    )
    sheet.gap(40)
    sheet.text(
        f"Issued {st.date(site.events[0] + dt.timedelta(days=rng.randrange(5, 60)))}",
        align="center",
    )
    sheet.gap(30)
    sheet.text("______________________________", align="center")
    sheet.text(f"{person(rng)}, Authorized Representative", align="center")
    return finish([sheet], mark="")


def permit(rng: random.Random, st: OfficeStyle, split: str, site: Site) -> list[Sheet]:
    """An agency's permit: number and dates on page 1, conditions after (the last restates the
    expiration date)."""
    number, issued, expires = site.permit
    first = Sheet(st, "permit")
    first.text(f"STATE {site.agency.upper()}", bold=True, align="center")
    first.gap(10)
    first.text(_title(rng, "permit", split), size=st.size + 6, bold=True, align="center")
    first.gap(10)
    first.fields(
        (
            ("Permit Number", number),
            ("Permittee", site.client),
            ("Facility", f"{site.name}, {site.address}"),
            ("Date of Issuance", st.date(issued)),
            ("Expiration Date", st.date(expires)),
        ),
        indent=120,
    )
    first.facts.add("permit-expiry")
    first.gap(10)
    conditions = [
        f"{k}. {text}"
        for k, text in enumerate(
            (
                "The permittee shall operate the treatment system so that the discharge meets the limits of Table 1.",
                "Monitoring results shall be submitted quarterly on the forms provided by the Department.",
                "Any bypass or upset shall be reported by telephone within 24 hours and in writing within five days.",
                "The permittee shall allow authorized representatives of the Department to enter and inspect the facility.",
                "This permit may be modified, revoked or reissued for cause.",
                "Records of monitoring shall be retained for at least three years.",
            ),
            1,
        )
    ]
    conditions += [
        f"{len(conditions) + 1}. This permit expires at midnight on {st.date(expires)}; an application "
        "for renewal shall be filed at least 180 days before that date."
    ]
    facts = [set() for _ in conditions[:-1]] + [{"permit-expiry"}]

    def later(page: int) -> Sheet:
        sheet = Sheet(st, "permit", page_in_doc=page)
        sheet.text(f"Permit No. {number}", size=st.size - 1, align="right")
        sheet.gap(10)
        return sheet

    first.text("CONDITIONS", bold=True)
    sheets = flow(first, [c * 1 for c in conditions], later, facts=facts)
    if len(sheets) == 1 and rng.random() < 0.7:
        sheets.append(later(2))
        sheets[-1].para(
            "Table 1. Effluent limits: benzene 5 ug/L; total BTEX 100 ug/L; pH 6.5 to 8.5."
        )
    return finish(sheets)


def recorded_instrument(
    rng: random.Random, st: OfficeStyle, split: str, site: Site, which: str
) -> list[Sheet]:
    """A recorded environmental covenant (which="covenant") or deed (which="deed"): the recorder's
    stamp with its number on page 1, the body, signatures and an acknowledgment."""
    number, at = site.covenant if which == "covenant" else site.deed
    first = Sheet(st, which)
    stamp = (
        f"{site.county.upper()} COUNTY RECORDER",
        f"Instrument No. {number}",
        f"Recorded {at:%m/%d/%Y %I:%M %p}",
        f"Fee ${rng.randrange(20, 90)}.00",
    )
    recorder_stamp(first, st.firm, stamp, 62)
    if which == "covenant":
        first.facts.add("covenant-recording")
    title = _title(rng, which, split)
    first.text(title, size=st.size + 6, bold=True, align="center")
    first.gap(10)
    if which == "covenant":
        body = [
            f"This {title.title()} is made by {site.client} (the Owner) and the {site.agency} (the Agency) "
            f"under the Uniform Environmental Covenants Act, concerning the property at {site.address}, "
            f"{site.county} County (the Property).",
            "Activity and use limitations: the Property shall not be used for residential purposes; groundwater "
            "beneath the Property shall not be extracted for any purpose other than monitoring or remediation.",
            "The Owner shall maintain the engineered cap and shall notify the Agency at least thirty days before "
            "any conveyance of an interest in the Property.",
            "This covenant runs with the land and binds the Owner's successors and assigns.",
        ]
    else:
        body = [
            f"FOR VALUE RECEIVED, {rng.choice(CLIENTS)} (Grantor) conveys to {site.client} (Grantee) the real "
            f"property at {site.address}, in {site.county} County, described in Exhibit A.",
            "Subject to easements, restrictions and reservations of record, and to taxes for the current year.",
            "Grantor warrants title to the property against the lawful claims of all persons.",
        ]
    body += [rng.choice(FILLER).format(agency=site.agency) for _ in range(rng.randint(2, 6))]

    def later(page: int) -> Sheet:
        return Sheet(st, which, page_in_doc=page)

    sheets = flow(first, body, later)
    sign = sheets[-1] if sheets[-1].room(200) else later(len(sheets) + 1)
    if sign is not sheets[-1]:
        sheets.append(sign)
    sign.gap(16)
    for role in ("OWNER / GRANTOR", "AGENCY" if which == "covenant" else "WITNESS"):
        sign.text(f"{role}: ____________________________", bold=True)
        sign.text(person(rng))
        sign.gap(8)
    sign.para(
        f"STATE OF ____________, COUNTY OF {site.county}. Acknowledged before me on {st.date(at.date())} by "
        f"the above-named signer. ______________________ Notary Public"
    )
    return finish(sheets)


def boring_log(
    rng: random.Random, st: OfficeStyle, split: str, site: Site, well: int
) -> list[Sheet]:
    """A boring log: a header block (boring, dates, total depth, water) and the lithology by depth."""
    drilled, depth, water = site.borings[well]
    title = _title(rng, "boring-log", split)
    layers = []
    top = 0.0
    while top < depth:
        bottom = min(depth, top + rng.choice((2.5, 4.0, 5.0, 7.5)))
        layers.append([f"{top:g}-{bottom:g}", rng.choice(LITHOLOGY), f"{rng.uniform(0, 300):.1f}"])
        top = bottom
    chunks = [layers[:14], layers[14:]] if len(layers) > 14 else [layers]
    sheets = []
    for index, chunk in enumerate(chunks):
        sheet = Sheet(st, "boring-log")
        sheet.text(f"{title}: {st.well(well)}", size=st.size + 4, bold=True)
        sheet.text(f"{st.firm}   Project: {site.name}")
        sheet.rule()
        sheet.gap(6)
        if index == 0:
            sheet.text(f"Date Drilled: {st.date(drilled)}    Driller: {rng.choice(VENDORS)}")
            sheet.text(
                f"Total Depth: {depth:g} ft bgs    First Water: {water:g} ft bgs    Method: HSA"
            )
            sheet.facts.add(f"depth|{well}")
            sheet.gap(6)
        sheet.table(["Depth (ft)", "Description", "PID (ppm)"], chunk, [80, 300, 80])
        sheets.append(sheet)
    return finish(sheets, mark="Sheet {page} of {pages}")


def well_table(rng: random.Random, st: OfficeStyle, split: str, site: Site) -> list[Sheet]:
    """A report table of well construction details: every well's total depth (states depth|well)."""
    sheet = Sheet(st, "report")
    sheet.text(f"Table {rng.randint(1, 3)}. Well Construction Details", bold=True, align="center")
    sheet.gap(8)
    rows = []
    for well in site.wells:
        drilled, depth, water = site.borings[well]
        rows.append(
            [
                st.well(well),
                st.date(drilled),
                f"{depth:g}",
                f"{depth - 10:g}-{depth:g}",
                "2-inch PVC",
            ]
        )
        sheet.facts.add(f"depth|{well}")
    sheet.table(
        ["Well", "Installed", "Total Depth (ft)", "Screen (ft)", "Casing"],
        rows,
        [70, 100, 100, 100, 100],
    )
    return [sheet]


def photo_log(
    rng: random.Random, st: OfficeStyle, split: str, site: Site, pages: int
) -> list[Sheet]:
    """Photograph pages: two photographs a page with captions; every page repeats the same heading."""
    title = _title(rng, "photo-log", split)

    def photograph(sheet: Sheet, number: int) -> None:
        top = sheet.y
        sheet.box(MARGIN + 40, top, PAGE_W - 2 * MARGIN - 80, 240, width=1.0)
        for _ in range(6):  # shapes in the photograph
            w, h = rng.uniform(40, 200), rng.uniform(20, 100)
            x, y = (
                MARGIN + 45 + rng.uniform(0, PAGE_W - 2 * MARGIN - 90 - w),
                top + 5 + rng.uniform(0, 230 - h),
            )
            sheet.box(x, y, w, h, width=1.5)
        sheet.y = top + 250
        well = rng.choice(site.wells)
        sheet.text(
            f"Photograph {number}. {st.well(well)} {rng.choice(('well vault', 'during purging', 'after repair'))}, "
            f"looking {rng.choice(('north', 'south', 'east', 'west'))}.",
            x=MARGIN + 40,
        )
        sheet.gap(8)

    place = f"{site.name}, {site.address}"
    return finish(photo_sheets(st, title, place, pages, photograph, title_size=st.size + 4, gap=10))


def fax_cover(
    rng: random.Random, st: OfficeStyle, split: str, site: Site, *, pages: int, date: dt.date
) -> list[Sheet]:
    sheet = Sheet(st, "fax")
    letterhead(sheet)
    sheet.text(_title(rng, "fax", split), size=st.size + 10, bold=True)
    sheet.gap(10)
    sheet.fields(
        (
            ("To", f"{site.contact}, {site.client}"),
            ("From", person(rng)),
            ("Date", st.date(date)),
            ("Pages (including cover)", str(pages)),
            ("Re", site.name),
        ),
        indent=150,
    )
    sheet.gap(16)
    sheet.para(
        "The information in this facsimile is confidential. If you are not the intended recipient, please "
        "notify the sender by telephone and destroy the pages received."
    )
    return finish([sheet], mark="")


def transmittal(
    rng: random.Random, st: OfficeStyle, split: str, site: Site, *, date: dt.date, items: list[str]
) -> list[Sheet]:
    sheet = Sheet(st, "transmittal")
    letterhead(sheet)
    sheet.text(_title(rng, "transmittal", split), size=st.size + 6, bold=True, align="center")
    sheet.gap(8)
    for label, value in (
        ("To", f"{site.contact}, {site.client}"),
        ("Date", st.date(date)),
        ("Project", site.name),
    ):
        sheet.text(f"{label}: {value}")
    sheet.gap(8)
    sheet.text("We are sending you the following:", bold=True)
    sheet.table(
        ["Copies", "Description"], [[str(rng.randint(1, 3)), item] for item in items], [60, 400]
    )
    sheet.text("Remarks: for your files.")
    return finish([sheet], mark="")


def report_title(
    rng: random.Random, st: OfficeStyle, split: str, site: Site, *, date: dt.date
) -> Sheet:
    sheet = Sheet(st, "report")
    letterhead(sheet)
    sheet.gap(120)
    sheet.text(_title(rng, "report", split), size=st.size + 8, bold=True, align="center")
    sheet.gap(16)
    sheet.text(site.name, size=st.size + 3, align="center")
    sheet.text(site.address, align="center")
    sheet.gap(30)
    sheet.text(f"Prepared for {site.client}", align="center")
    sheet.text(st.date(date), align="center")
    return sheet


def narrative(
    rng: random.Random,
    st: OfficeStyle,
    split: str,
    site: Site,
    sentences: list[tuple[str, set[str]]],
    *,
    heading: str,
    filler: int,
) -> list[Sheet]:
    """Report text: a heading, then filler paragraphs with the given (sentence, facts) among them."""
    first = Sheet(st, "report")
    first.text(heading, bold=True)
    first.gap(6)
    paragraphs = [(rng.choice(FILLER).format(agency=site.agency), set()) for _ in range(filler)]
    for item in sentences:
        paragraphs.insert(rng.randrange(len(paragraphs) + 1), item)

    def later(page: int) -> Sheet:
        return Sheet(st, "report", page_in_doc=page)

    return flow(first, [p for p, _ in paragraphs], later, facts=[f for _, f in paragraphs])


def summary_tables(
    rng: random.Random, st: OfficeStyle, split: str, site: Site, table_number: int
) -> list[Sheet]:
    """Results tables of a monitoring report: one page per event (wells by analytes) or one page
    per well (dates by analytes), as the style has it."""
    sheets = []
    names = [name for name, _ in site.analytes]
    width = (PAGE_W - 2 * MARGIN - 80) / len(names)
    short = [name if len(name) < 12 else name[:10] + "." for name in names]

    def table_page(
        caption: str, first_column: str, rows: list[list[str]], facts: set[str]
    ) -> Sheet:
        sheet = Sheet(st, "report")
        sheet.text(f"{caption} ({st.unit})", bold=True)
        sheet.gap(6)
        sheet.table([first_column, *short], rows, [80, *([width] * len(names))], size=st.size - 1)
        sheet.facts |= facts
        return sheet

    if st.summary == "by-event":
        for e, day in enumerate(site.events):
            rows = [[st.well(w), *(site.value(st, w, e, n) for n in names)] for w in site.wells]
            facts = {f"result|{w}|{day.isoformat()}|{n}" for w in site.wells for n in names}
            caption = f"Table {table_number + e}. Groundwater Analytical Results, {st.date(day)}"
            sheets.append(table_page(caption, "Well", rows, facts))
    else:
        for k, well in enumerate(site.wells):
            rows = [
                [st.date(day), *(site.value(st, well, e, n) for n in names)]
                for e, day in enumerate(site.events)
            ]
            facts = {f"result|{well}|{day.isoformat()}|{n}" for day in site.events for n in names}
            caption = f"Table {table_number + k}. Historical Results, {st.well(well)}"
            sheets.append(table_page(caption, "Date", rows, facts))
    return sheets


def fax_header(sheet: Sheet, text: str) -> None:
    """The header line a fax machine prints across the top of every page it sends."""
    sheet.text(text, size=7.5, y=8, font="Courier")


def blank(st: OfficeStyle) -> Sheet:
    sheet = Sheet(st, "blank", blank=True)
    return sheet


__all__ = ["ANALYTES", "Invoice", "Site", "sample_site", "wrap"]
