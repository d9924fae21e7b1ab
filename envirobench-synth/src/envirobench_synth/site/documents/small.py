"""Small documents of a site file: the lease amendment, tank registration and tightness tests,
release notices, and the helpers several documents share (the agency's name, the governing rule,
the phrasing of a condition, a one-page shim).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from ...locate import sitekinds
from ...locate.sitepages import (
    STYLES_BY_SPLIT,
    OfficeStyle,
    Sheet,
    finish,
    person,
    style,
)
from ..model import SiteModel
from ..papers import (
    Doc,
    Part,
    Pen,
    letter_doc,
)
from .traps import Traps


def shim(pen: Pen, day: dt.date) -> sitekinds.Site:
    """The locate package's site record for its generic kinds (invoices, certificates...)."""
    m = pen.m
    # a certificate is issued some days after the work it certifies
    first = day - dt.timedelta(days=30)
    return sitekinds.Site(
        name=m.name,
        address=m.address,
        client=m.client_on(day),
        contact=m.contact,
        agency=m.agency,
        county=m.county,
        lab=m.campaigns[0].lab,
        wells=[1],
        events=[first],
        analytes=[],
        results={},
        borings={},
        invoices=[],
        permit=("", first, first),
        covenant=("", dt.datetime(2000, 1, 1)),
        deed=("", dt.datetime(2000, 1, 1)),
        project=m.case_number,
    )


def lease_amendment(pen: Pen, day: dt.date, n: int) -> Doc:
    m = pen.m
    lessor, lessee, signed = m.lease
    st = pen.office(day)
    ordinal = ("FIRST", "SECOND", "THIRD", "FOURTH")[n - 1]
    sheet = Sheet(st, "lease-amendment")
    sheet.text(
        f"{ordinal} AMENDMENT TO INDUSTRY TRACK AND LAND LEASE",
        size=st.size + 3,
        bold=True,
        align="center",
    )
    sheet.gap(10)
    fact = f"event|lease-amended|{m.apn}|{day.isoformat()}"
    paras = [
        (
            f"This {ordinal.title()} Amendment is made and entered into as of {day:%B} {day.day}, {day.year}, "
            f'by and between {lessor} ("Lessor") and {lessee} ("Lessee").',
            {fact},
        ),
        (
            f"WHEREAS, Lessor and Lessee are parties to a lease dated {signed:%B} {signed.day}, {signed.year} "
            f'covering a portion of Lessor\'s station grounds at {m.address}, Tax Parcel {m.apn} (the "Lease");',
            set(),
        ),
        (
            "NOW, THEREFORE, the parties agree: "
            + pen.rng.choice(
                (
                    "the term of the Lease is extended for five years from the date of this Amendment;",
                    "the annual rent is adjusted as set out in Schedule 1 to this Amendment;",
                    "Lessee shall maintain the spill prevention, control and countermeasure plan for the leased tanks and "
                    "shall deliver to Lessor a copy of every environmental report concerning the Premises;",
                    "the leased Premises are reduced by the strip of land shown on Exhibit B, returned to Lessor for "
                    "track realignment;",
                )
            ),
            set(),
        ),
        ("Except as amended hereby, the Lease remains in full force and effect.", set()),
    ]
    for text, facts in paras:
        before = len(sheet.ops)
        sheet.para(text)
        if facts and len(sheet.ops) > before:
            sheet.facts |= facts
    sheet.gap(20)
    for party in (lessor, lessee):
        sheet.text(f"{party.upper()}", bold=True)
        sheet.text("By: ______________________________")
        sheet.text(
            f"Name: {person(pen.rng)}      Title: {pen.rng.choice(('Vice President', 'Manager, Real Estate'))}"
        )
        sheet.gap(10)
    return Doc(
        "lease-amendment",
        f"{ordinal.title()} Amendment to Lease",
        day,
        [Part(finish([sheet], mark=""))],
        scannable=day.year < 2000,
    )


def tank_papers(pen: Pen) -> list[Doc]:
    m = pen.m
    docs = []
    usts = [t for t in m.tanks if t.kind == "UST"]
    tanks = list(m.tanks)
    if not tanks:
        return docs
    registered = max(dt.date(1986, 5, 8), max(t.installed for t in tanks) + dt.timedelta(days=30))
    registered = registered + dt.timedelta(days=pen.rng.randint(0, 40))
    st = pen.agency_style()
    sheet = Sheet(st, "registration")
    sheet.text(agency_name(m).upper(), bold=True, align="center")
    label = (
        "NOTIFICATION FOR UNDERGROUND STORAGE TANKS"
        if usts
        else "ABOVEGROUND STORAGE TANK REGISTRATION"
    )
    sheet.text(label, size=st.size + 3, bold=True, align="center")
    sheet.gap(8)
    for text in (
        f"Facility name: {m.business}        Facility ID: {pen.rng.randint(10000, 99999)}",
        f"Location: {m.address}, {m.county} County",
        f"Owner: {m.owners[-1].name if m.owners[-1].recorded.date() < registered else m.owners[-2].name}",
        f"Operator: {m.operator}",
        f"Date received: {st.date(registered)}",
    ):
        sheet.text(text)
    sheet.gap(8)
    rows = []
    for t in tanks:
        rows.append(
            [t.id, t.kind, f"{t.gallons:,}", t.contents[:22], t.material, st.date(t.installed)]
        )
        sheet.facts.add(f"event|tank-installed|{t.id}|{t.installed.isoformat()}")
    sheet.table(
        ["Tank", "Type", "Capacity (gal)", "Substance", "Construction", "Installed"],
        rows,
        [45, 40, 80, 140, 90, 95],
        size=st.size - 1,
    )
    sheet.para(
        "I certify under penalty of law that I have personally examined and am familiar with the "
        "information submitted in this document and that it is true, accurate and complete."
    )
    sheet.text("Signature: ______________________   Title: Owner/Operator")
    docs.append(
        Doc(
            "registration",
            label.title(),
            registered,
            [Part(finish([sheet], mark=""))],
            scannable=True,
        )
    )
    # tightness tests of the USTs, one page each, every few years
    year = max(registered.year + 1, m.release_found.year - 7)
    while usts and year < m.release_found.year:
        day = dt.date(year, pen.rng.randint(1, 12), pen.rng.randint(1, 28))
        for t in usts:
            docs.append(
                tightness_test(
                    pen, t, day, failed=year + 3 >= m.release_found.year and t is usts[0]
                )
            )
        year += pen.rng.choice((3, 4, 5))
    return docs


def tightness_test(pen: Pen, tank, day: dt.date, failed: bool) -> Doc:
    st = style(STYLES_BY_SPLIT[pen.split][pen.rng.randrange(3)])
    sheet = Sheet(st, "tightness-test")
    vendor = pen.rng.choice(
        ("Precision Tank Testing Co.", "Accu-Tite Leak Detection", "Tri-County Tank Services")
    )
    sheet.text(vendor, size=st.size + 4, bold=True)
    sheet.text("PRECISION TANK TIGHTNESS TEST REPORT (NFPA 329 / EPA volumetric)", bold=True)
    sheet.rule()
    sheet.gap(6)
    leak = pen.rng.uniform(0.11, 0.31) if failed else pen.rng.uniform(-0.04, 0.04)
    sheet.fields(
        (
            ("Facility", f"{pen.m.business}, {pen.m.address}"),
            ("Test date", st.date(day)),
            ("Tank", f"{tank.id}  ({tank.gallons:,} gal {tank.contents})"),
            ("Product level", f"{pen.rng.randint(55, 95)} %"),
            ("Measured leak rate", f"{leak:+.3f} gal/hr (threshold 0.100 gal/hr)"),
            ("Result", "FAIL - TANK SYSTEM NOT TIGHT" if failed else "PASS - TANK TIGHT"),
        ),
        indent=130,
    )
    sheet.gap(10)
    rows = [
        [
            f"{h:02d}:{mm:02d}",
            f"{pen.rng.uniform(40, 70):.2f}",
            f"{pen.rng.uniform(-0.02, 0.02) + leak / 4:.4f}",
        ]
        for h in range(1, 4)
        for mm in (0, 20, 40)
    ]
    sheet.table(["Time", "Temp (F)", "Level change (in)"], rows, [90, 90, 140], size=st.size - 1)
    sheet.text(f"Technician: {person(pen.rng)}   Certification No. {pen.rng.randint(1000, 9999)}")
    return Doc(
        "tightness-test",
        "Tank Tightness Test",
        day,
        [Part(finish([sheet], mark=""))],
        scannable=True,
    )


def release_papers(pen: Pen, traps: Traps) -> list[Doc]:
    """The closure notice, and the agency's letter confirming the release and naming the
    screening tables that govern the site."""
    m = pen.m
    docs = []
    removal = min(
        (t.removed for t in m.tanks if t.removed and t.kind == "UST"), default=m.release_found
    )
    st = pen.office(removal)
    notice_day = removal - dt.timedelta(days=pen.rng.randint(30, 45))
    sheets = letter_doc(
        pen,
        st,
        kind="letter",
        date=notice_day,
        subject=f"30-Day Notice of Underground Storage Tank Closure, {m.business}, {m.address}",
        to=(person(pen.rng), m.agency),
        paragraphs=[
            f"On behalf of {m.client_on(notice_day)}, we notify the {m.agency} that the underground storage tanks at the "
            "facility will be permanently closed by removal, in accordance with the state's UST regulations.",
            "Closure sampling will be performed beneath each tank and dispenser island, and the results will be "
            "reported in a closure report within 60 days of the removal.",
            *pen.filler(2, "letter"),
        ],
    )
    docs.append(
        Doc(
            "letter",
            "UST Closure Notice",
            notice_day,
            [Part(sheets)],
            scannable=notice_day.year < 2002,
        )
    )
    ast = pen.agency_style()
    day = m.release_found + dt.timedelta(days=pen.rng.randint(6, 20))
    rel = f"event|release-reported|-|{m.release_found.isoformat()}"
    gw, soil = m.standards["groundwater"], m.standards["soil"]
    rule = governing_rule(m)
    sheets = agency_letter(
        pen,
        ast,
        date=day,
        subject=f"Confirmed Release, {m.business}, {m.address}; Case No. {m.case_number}",
        paragraphs=[
            f"The {m.agency} received your report of a release of regulated substances at the facility "
            f"discovered on {ast.date(m.release_found)}. The release has been assigned Case No. {m.case_number} "
            f"under the {m.program}.",
            "You are required to investigate the extent of the release and to submit a site characterization "
            "work plan within 60 days of this letter.",
            rule,
            "Please reference the case number on all correspondence.",
        ],
        facts=[{rel, *_cond(m, "release")}, set(), set(), set()],
    )
    docs.append(Doc("agency-letter", "Release Confirmation", day, [Part(sheets)], scannable=True))
    _ = (gw, soil)
    return docs


def agency_letterhead(m: SiteModel) -> tuple[str, str, str]:
    """The agency's letterhead (name, address, phone) on the letters it sends."""
    return (agency_name(m), f"{m.program}, 800 Capitol Way, {m.city}", "(555) 010-2000")


def agency_letter(
    pen: Pen,
    ast: OfficeStyle,
    *,
    date: dt.date,
    subject: str,
    paragraphs: Sequence[str],
    facts: Sequence[set[str]] | None = None,
    signer: str = "Case Manager",
) -> list[Sheet]:
    """A letter the agency sends about the site's case: in the agency's style `ast`, on its
    letterhead, signed by a named member of its staff (`signer` is their title). The review,
    approval, release and no-further-action letters all come this way."""
    return letter_doc(
        pen,
        ast,
        kind="agency-letter",
        date=date,
        subject=subject,
        firm=agency_letterhead(pen.m),
        sender=(person(pen.rng), signer),
        paragraphs=paragraphs,
        facts=facts,
    )


def agency_name(m: SiteModel) -> str:
    return (
        m.agency
        if m.agency.startswith("State")
        else f"State of Franklin {m.agency}".replace("Franklin Franklin", "Franklin")
    )


def governing_rule(m: SiteModel) -> str:
    """The sentence of the agency's letters that names the governing tables (the rule of
    exceedance-summary)."""
    names = {
        "franklin-groundwater": "Table 1 (groundwater) of the Franklin Cleanup Standards",
        "franklin-soil-residential": "Table 2 (residential soil) of the Franklin Cleanup Standards",
        "franklin-soil-industrial": "Table 3 (industrial soil) of the Franklin Cleanup Standards",
        "epa-mcl": "the federal maximum contaminant levels (40 CFR 141)",
        "epa-rsl-tapwater-thq1.0": "the EPA Regional Screening Levels for tapwater (THQ 1.0)",
        "epa-rsl-soil-industrial-thq1.0": "the EPA Regional Screening Levels for industrial soil (THQ 1.0)",
        "epa-rsl-soil-residential-thq1.0": "the EPA Regional Screening Levels for residential soil (THQ 1.0)",
    }
    return (
        f"Groundwater results shall be compared with {names[m.standards['groundwater']]} and soil results "
        f"with {names[m.standards['soil']]}, each as in force on the date the sample was collected."
    )


def _cond(m: SiteModel, moment: str) -> set[str]:
    """Condition facts a document about `moment` supports."""
    kinds = {c.kind for c in m.conditions}
    main = next(iter(c.kind for c in m.conditions))
    if moment == "release":
        return {f"condition|{main}"}
    return {f"condition|{k}" for k in kinds}
