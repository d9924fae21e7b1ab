"""Seeded property records for the Research types: a site-record excerpt as a set of PDFs, with
the facts each page states.

    record = sample_record(make_random(SEED, split, "record-0007"), split, long=True)
    pdfs = render_record(record, SEED, split, "record-0007")      # [("doc-04", PDF bytes), ...]
    record.evidence["tank-capacity|2"]                              # where the record states it

A record is what a file review pulls together about one property: a consultant's transmittal
letter, its monitoring report (findings, well construction and results tables), the boring logs
and laboratory reports (long records only), the tank registration form, a tank closure report, an
agency's no-further-action (NFA) letter, the discharge permit and a letter about its renewal, the
recorded environmental covenant and deed, a utility easement, and the invoices. Which documents a
record holds varies (a record without an NFA letter, without the closure report or without an
easement), which is what makes questions unanswerable. The site itself (wells, sampling events,
results, borings, invoices, permit, covenant, deed) comes from `envirobench_synth.locate`'s
`sample_site`, and so do the layouts of the documents that kind already has (letters, the
report's tables, boring logs, laboratory reports, the permit, recorded instruments, invoices);
the tank, closure, NFA and easement documents are laid out here in the same office styles.

Each laboratory report (one per sampling event) and each invoice is a file of its own, as in a
real file review. `render_record` names the files neutrally (`doc-01`, `doc-02`, ... in a seeded
order, `file_names`) and gives each PDF a Title of the site and that name: neither a file name,
its position nor its metadata says which kind of document it holds, and the number of files
varies with the sampling events and invoices as well as with the optional documents.

Facts (`Record.evidence`, key -> every place the record states it as (document, page, passage);
`Record.values` holds the value):

    tank-capacity|<n>  tank-product|<n>  tank-removal|<n>   per tank T-<n>
    tank-registration  closure-contractor                  the facility's registration, the closure
    nfa-date  nfa-case  nfa-covers                          the NFA letter
    permit-number  permit-expiry  permit-renewed-expiry      the permit and its renewal letter
    covenant-recording  covenant-date  deed-recording        recorded instruments
    easement-recording  easement-grantee  easement-width     the easement
    depth|<well>  result|<well>|<ISO date>|<analyte>         wells and results (as sitekinds)
    invoice|<number>                                        an invoice's amount due

A passage is the text the page prints for the fact (a sentence, a form line, a table row) as the
generator wrote it; "" where the fact sits in a table cell the generator does not lay out here
(results tables and laboratory pages), which only `missing-information` asks about.

Supersession (the stale-record rule questions use): the permit's renewal letter, when the record
holds one, supersedes the permit's expiration date; it states the renewed date
(`permit-renewed-expiry`) or only says that the permit was renewed (then the current expiration
date is not in the record). A letter may say that the easement was amended after recording and
that the amendment is not in the file: the easement's current width is then not in the record.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field

from ..locate.sitekinds import (
    Site,
    boring_log,
    custody_form,
    invoice,
    lab_report,
    letter,
    narrative,
    permit,
    recorded_instrument,
    report_title,
    sample_site,
    summary_tables,
    well_table,
)
from ..locate.sitepages import (
    FILLER,
    STYLES_BY_SPLIT,
    OfficeStyle,
    Sheet,
    emit_pdf,
    finish,
    flow,
    letterhead,
    money,
    person,
    recorder_stamp,
    style,
)
from ..rng import make_random

SCAN_DPI = 100
PRODUCTS = ("gasoline", "diesel", "waste oil", "heating oil", "kerosene")
CAPACITIES = (550, 1000, 2000, 4000, 6000, 8000, 10000, 12000)
CONTAMINANT_GROUPS = (
    "petroleum hydrocarbons",
    "chlorinated solvents",
    "metals",
    "polychlorinated biphenyls",
)
CONTRACTORS = (
    "Granite State Tank Services",
    "Bellweather Excavating, Inc.",
    "Northline Environmental Contractors",
    "Tidewater Tank Removal Co.",
)
UTILITIES = (
    "Cascade Power and Light Company",
    "Valley Natural Gas Company",
    "Riverside Water District",
    "Summit Telephone Cooperative",
)
# Document titles per split: the test split's wordings never occur in dev.
TITLES = {
    "tank-registration": {
        "dev": ("UNDERGROUND STORAGE TANK REGISTRATION",),
        "test": ("NOTIFICATION FOR UNDERGROUND STORAGE TANKS", "UST FACILITY REGISTRATION FORM"),
    },
    "closure": {
        "dev": ("TANK CLOSURE REPORT",),
        "test": ("UST REMOVAL AND SITE ASSESSMENT REPORT", "REPORT OF TANK DECOMMISSIONING"),
    },
    "easement": {
        "dev": ("GRANT OF EASEMENT",),
        "test": ("UTILITY EASEMENT DEED", "EASEMENT AGREEMENT"),
    },
}


@dataclass(frozen=True)
class Evidence:
    """One place the record states a fact: the document (index into Record.documents), the
    1-based page within that document's PDF, and the passage printed there ("" for a table
    cell)."""

    document: int
    page: int
    passage: str


@dataclass
class Tank:
    number: int
    capacity: int  # gallons
    product: str
    installed: dt.date
    removed: dt.date | None


@dataclass
class Document:
    slug: str
    title: str
    sheets: list[Sheet]
    scanned: tuple[int, ...] = ()  # 0-based pages kept as black-and-white scans


@dataclass
class Record:
    split: str
    long: bool
    site: Site
    consultant: OfficeStyle
    tanks: list[Tank]
    registration: str
    contractor: str
    closure_in_record: bool
    nfa: tuple[dt.date, str, tuple[str, ...], tuple[str, ...]] | None  # date, case, covers, not
    renewal: tuple[dt.date, dt.date | None] | None  # letter date, renewed expiry (None: unstated)
    easement: tuple[str, dt.date, str, int] | None  # number, recorded, grantee, width ft
    easement_amended: bool
    documents: list[Document] = field(default_factory=list)
    evidence: dict[str, list[Evidence]] = field(default_factory=dict)
    values: dict[str, object] = field(default_factory=dict)

    @property
    def pages(self) -> int:
        return sum(len(d.sheets) for d in self.documents)


def _date(rng: random.Random, start: dt.date, days: int) -> dt.date:
    return start + dt.timedelta(days=rng.randrange(days))


def _pick(rng: random.Random, split: str, kind: str) -> str:
    return rng.choice(TITLES[kind][split])


def sample_record(rng: random.Random, split: str, *, long: bool) -> Record:
    """One property's record: long (50-150 pages, with the monitoring data's appendices) or short
    (10-40 pages: letters, forms, instruments and invoices)."""
    names = list(STYLES_BY_SPLIT[split])
    rng.shuffle(names)
    consultant, lab, agency = (style(name) for name in names)
    if long:
        site = sample_site(
            rng,
            wells=rng.randint(5, 8),
            events=rng.randint(4, 6),
            analytes=rng.randint(4, 6),
            invoices=rng.randint(1, 4),
        )
    else:
        site = sample_site(
            rng, wells=rng.randint(3, 5), events=2, analytes=4, invoices=rng.randint(1, 3)
        )
    installed_from = dt.date(1968, 1, 1)
    tanks = []
    capacities = rng.sample(CAPACITIES, 3)
    for n in range(1, rng.randint(1, 3) + 1):
        installed = _date(rng, installed_from, 22 * 365)
        removed = _date(rng, dt.date(1996, 1, 1), 14 * 365) if rng.random() < 0.7 else None
        tanks.append(Tank(n, capacities[n - 1], rng.choice(PRODUCTS), installed, removed))
    if not any(t.removed for t in tanks):
        tanks[0].removed = _date(rng, dt.date(1996, 1, 1), 14 * 365)
    covers = tuple(sorted(rng.sample(CONTAMINANT_GROUPS, rng.randint(1, 2))))
    excluded = tuple(g for g in CONTAMINANT_GROUPS if g not in covers)
    nfa = None
    if rng.random() < 0.6:
        nfa = (
            site.events[-1] + dt.timedelta(days=rng.randrange(60, 400)),
            f"{rng.randrange(10, 99)}-{rng.randrange(1000, 9999)}",
            covers,
            excluded[: rng.randint(1, len(excluded))],
        )
    renewal = None
    if rng.random() < 0.55:
        _, _, expires = site.permit
        renewed = (
            expires + dt.timedelta(days=365 * rng.randint(3, 5)) if rng.random() < 0.5 else None
        )
        renewal = (expires - dt.timedelta(days=rng.randrange(20, 150)), renewed)
    easement = None
    if rng.random() < 0.6:
        recorded = _date(rng, dt.date(1975, 1, 1), 30 * 365)
        easement = (
            f"{recorded.year}-{rng.randrange(1, 999999):06d}",
            recorded,
            rng.choice(UTILITIES),
            rng.choice((10, 15, 20, 25, 30)),
        )
    record = Record(
        split=split,
        long=long,
        site=site,
        consultant=consultant,
        tanks=tanks,
        registration=f"{rng.choice(('UST', 'FAC'))}-{rng.randrange(10000, 99999)}",
        contractor=rng.choice(CONTRACTORS),
        closure_in_record=rng.random() < 0.75,
        nfa=nfa,
        renewal=renewal,
        easement=easement,
        easement_amended=easement is not None and rng.random() < 0.35,
    )
    _assemble(rng, record, lab, agency)
    return record


# -- assembly -----------------------------------------------------------------------------------


def _add(record: Record, document: Document) -> int:
    record.documents.append(document)
    return len(record.documents) - 1


def _note(record: Record, key: str, value: object, document: int, passage: str) -> None:
    """Record that every page of `document` whose facts hold `key` states it with `passage`."""
    record.values[key] = value
    for index, sheet in enumerate(record.documents[document].sheets):
        if key in sheet.facts:
            record.evidence.setdefault(key, []).append(Evidence(document, index + 1, passage))


def _assemble(rng: random.Random, record: Record, lab: OfficeStyle, agency: OfficeStyle) -> None:
    site, st, split = record.site, record.consultant, record.split
    last = site.events[-1]
    report_day = last + dt.timedelta(days=rng.randrange(20, 60))
    # The transmittal letter: cites the covenant and, in some records, the easement's amendment.
    number, at = site.covenant
    paragraphs = [
        f"Enclosed is the file review for {site.name}, covering the sampling events through "
        f"{st.date(last)}."
    ]
    facts: list[set[str]] = [set()]
    cite_covenant = (
        f"The environmental covenant for the property was recorded on {st.date(at.date())} as "
        f"Instrument No. {number} in the records of {site.county} County."
    )
    if rng.random() < 0.5:
        paragraphs.append(cite_covenant)
        facts.append({"covenant-recording", "covenant-date"})
    amendment = ""
    if record.easement is not None and record.easement_amended:
        amendment = (
            f"The utility easement recorded as Instrument No. {record.easement[0]} was later amended to "
            "change its width; the amending instrument was not available for this review."
        )
        paragraphs.append(amendment)
        facts.append(set())
    paragraphs += [rng.choice(FILLER).format(agency=site.agency) for _ in range(rng.randint(1, 2))]
    facts += [set()] * (len(paragraphs) - len(facts))
    cover = _add(
        record,
        Document(
            "transmittal",
            "Transmittal letter",
            letter(
                rng,
                st,
                split,
                site,
                date=report_day,
                subject=f"{site.name}: file review",
                paragraphs=paragraphs,
                facts=facts,
            ),
        ),
    )
    if cite_covenant in paragraphs:
        _note(record, "covenant-recording", number, cover, cite_covenant)
        _note(record, "covenant-date", at.date().isoformat(), cover, cite_covenant)

    # The monitoring report: findings, well construction table, results tables.
    report = [report_title(rng, st, split, site, date=report_day)]
    sentences: list[tuple[str, set[str]]] = []
    for well in rng.sample(site.wells, min(3, len(site.wells))):
        name = rng.choice(site.analytes)[0]
        value = site.results[(well, len(site.events) - 1, name)]
        verb = (
            f"was detected in {st.well(well)} at {value:g} {st.unit}"
            if value is not None
            else f"was not detected in {st.well(well)}"
        )
        sentences.append(
            (
                f"{name.capitalize()} {verb} on {st.date(last)}.",
                {f"result|{well}|{last.isoformat()}|{name}"},
            )
        )
    report += narrative(
        rng,
        st,
        split,
        site,
        sentences,
        heading="FINDINGS",
        filler=rng.randint(8, 20) if record.long else rng.randint(2, 5),
    )
    report += well_table(rng, st, split, site)
    report += summary_tables(rng, st, split, site, 2)
    report_doc = _add(record, Document("report", "Monitoring report", finish(report)))
    for well in site.wells:
        drilled, depth, _ = site.borings[well]
        row = f"{st.well(well)} {st.date(drilled)} {depth:g} {depth - 10:g}-{depth:g} 2-inch PVC"
        _note(record, f"depth|{well}", depth, report_doc, row)
    for key in {f for sheet in report for f in sheet.facts if f.startswith("result|")}:
        _note(record, key, _result(site, key), report_doc, "")

    if record.long:
        logs = [sheet for well in site.wells for sheet in boring_log(rng, st, split, site, well)]
        logs_doc = _add(record, Document("boring-logs", "Boring logs", logs))
        for well in site.wells:
            depth = site.borings[well][1]
            _note(record, f"depth|{well}", depth, logs_doc, f"Total Depth: {depth:g} ft bgs")
        # one laboratory report per sampling event, each its own file
        for e in range(len(site.events)):
            labs = lab_report(rng, lab, split, site, e, site.wells, qc=rng.random() < 0.5)
            labs += custody_form(rng, lab, split, site, e, site.wells)
            labs_doc = _add(record, Document(f"laboratory-{e + 1}", "Laboratory report", labs))
            for key in sorted(
                {f for sheet in labs for f in sheet.facts if f.startswith("result|")}
            ):
                _note(record, key, _result(site, key), labs_doc, "")

    _tank_registration(rng, record, agency)
    if record.closure_in_record:
        _closure_report(rng, record)
    if record.nfa is not None:
        _nfa_letter(rng, record, agency)
    permit_sheets = permit(rng, agency, split, site)
    permit_doc = _add(record, Document("permit", "Permit", permit_sheets))
    pnumber, _, expires = site.permit
    permit_sheets[0].facts.add("permit-number")
    # the expiration date is stated twice: the first page's form line and the last condition
    # (on the first page or the next)
    record.values["permit-expiry"] = expires.isoformat()
    stating = [i + 1 for i, sheet in enumerate(permit_sheets) if "permit-expiry" in sheet.facts]
    record.evidence["permit-expiry"] = [
        Evidence(permit_doc, 1, f"Expiration Date: {agency.date(expires)}"),
        Evidence(
            permit_doc,
            stating[-1],
            f"This permit expires at midnight on {agency.date(expires)}; an application for "
            "renewal shall be filed at least 180 days before that date.",
        ),
    ]
    _note(record, "permit-number", pnumber, permit_doc, f"Permit Number: {pnumber}")
    if record.renewal is not None:
        _renewal_letter(rng, record, agency)

    covenant = recorded_instrument(rng, agency, split, site, "covenant")
    for sheet in covenant:
        if "covenant-recording" in sheet.facts:
            sheet.facts.add("covenant-date")
    covenant_doc = _add(
        record,
        Document("covenant", "Environmental covenant", covenant, tuple(range(len(covenant)))),
    )
    _note(record, "covenant-recording", number, covenant_doc, f"Instrument No. {number}")
    _note(
        record,
        "covenant-date",
        at.date().isoformat(),
        covenant_doc,
        f"Recorded {at:%m/%d/%Y %I:%M %p}",
    )
    if record.long:
        deed = recorded_instrument(rng, agency, split, site, "deed")
        deed[0].facts.add("deed-recording")
        deed_doc = _add(record, Document("deed", "Deed", deed, tuple(range(len(deed)))))
        _note(record, "deed-recording", site.deed[0], deed_doc, f"Instrument No. {site.deed[0]}")
    if record.easement is not None:
        _easement(rng, record, agency)

    # each invoice its own file
    for inv in site.invoices:
        bills = invoice(rng, agency, split, site, inv)
        bills_doc = _add(record, Document(f"invoice-{inv.number}", "Invoice", bills))
        _note(
            record,
            f"invoice|{inv.number}",
            inv.total / 100,
            bills_doc,
            f"Amount Due: {money(inv.total)}",
        )


def _result(site: Site, key: str) -> float | None:
    _, well, day, name = key.split("|")
    event = [d.isoformat() for d in site.events].index(day)
    return site.results[(int(well), event, name)]


def _form_sheet(st: OfficeStyle, kind: str, title: str, firm: str | None = None) -> Sheet:
    sheet = Sheet(st, kind)
    letterhead(sheet, firm=firm)
    sheet.text(title, size=st.size + 5, bold=True, align="center")
    sheet.gap(10)
    return sheet


def _tank_registration(rng: random.Random, record: Record, agency: OfficeStyle) -> None:
    site, split = record.site, record.split
    filed = max(t.installed for t in record.tanks) + dt.timedelta(days=rng.randrange(200, 2000))
    filed = min(
        filed, min(t.removed or dt.date(2030, 1, 1) for t in record.tanks) - dt.timedelta(days=30)
    )
    sheet = _form_sheet(
        agency,
        "tank-registration",
        _pick(rng, split, "tank-registration"),
        f"STATE {site.agency.upper()}",
    )
    lines = [
        f"Facility Registration No.: {record.registration}",
        f"Facility: {site.name}, {site.address}, {site.county} County",
        f"Owner: {site.client}",
        f"Date Filed: {agency.date(filed)}",
    ]
    for line in lines:
        sheet.text(line)
    sheet.facts.add("tank-registration")
    sheet.gap(10)
    rows = [
        [
            f"T-{t.number}",
            f"{t.capacity:,}",
            t.product,
            agency.date(t.installed),
            "Currently in use",
        ]
        for t in record.tanks
    ]
    sheet.table(
        ["Tank ID", "Capacity (gal)", "Substance Stored", "Date Installed", "Status"],
        rows,
        [60, 90, 110, 110, 120],
    )
    for t in record.tanks:
        sheet.facts |= {f"tank-capacity|{t.number}", f"tank-product|{t.number}"}
    sheet.gap(10)
    sheet.para(
        "I certify under penalty of law that the information submitted on this form is true, accurate and "
        "complete to the best of my knowledge."
    )
    sheet.text(f"Signed: {person(rng)}, for the owner")
    doc = _add(record, Document("tank-registration", "Tank registration", finish([sheet])))
    _note(record, "tank-registration", record.registration, doc, lines[0])
    for t in record.tanks:
        row = f"T-{t.number} {t.capacity:,} {t.product} {agency.date(t.installed)} Currently in use"
        _note(record, f"tank-capacity|{t.number}", t.capacity, doc, row)
        _note(record, f"tank-product|{t.number}", t.product, doc, row)


def _closure_report(rng: random.Random, record: Record) -> None:
    site, st, split = record.site, record.consultant, record.split
    removed = [t for t in record.tanks if t.removed]
    kept = [t for t in record.tanks if not t.removed]
    last_day = max(t.removed for t in removed)
    first = _form_sheet(st, "closure", _pick(rng, split, "closure"))
    first.text(site.name, align="center")
    first.text(site.address, align="center")
    first.text(f"Prepared for {site.client}", align="center")
    first.text(st.date(last_day + dt.timedelta(days=rng.randrange(20, 90))), align="center")
    first.gap(12)
    paragraphs: list[tuple[str, set[str]]] = []
    contractor = (
        f"The tank removal was performed by {record.contractor} under the observation of {st.firm}.",
        {"closure-contractor"},
    )
    paragraphs.append(contractor)
    for t in removed:
        paragraphs.append(
            (
                f"Tank T-{t.number}, a {t.capacity:,}-gallon tank that stored {t.product}, was removed "
                f"on {st.date(t.removed)}.",
                {
                    f"tank-removal|{t.number}",
                    f"tank-capacity|{t.number}",
                    f"tank-product|{t.number}",
                },
            )
        )
    for t in kept:
        paragraphs.append(
            (
                f"Tank T-{t.number} remains in service and was not part of this work.",
                {f"tank-kept|{t.number}"},
            )
        )
    paragraphs += [
        ("Soil samples were collected from the sidewalls and floor of each excavation.", set()),
        (rng.choice(FILLER).format(agency=site.agency), set()),
    ]
    tail = paragraphs[1:]
    rng.shuffle(tail)
    paragraphs = paragraphs[:1] + tail

    def later(page: int) -> Sheet:
        return Sheet(st, "closure", page_in_doc=page)

    sheets = flow(first, [p for p, _ in paragraphs], later, facts=[f for _, f in paragraphs])
    doc = _add(record, Document("closure-report", "Tank closure report", finish(sheets)))
    _note(record, "closure-contractor", record.contractor, doc, contractor[0])
    for text, keys in paragraphs:
        for key in keys - {"closure-contractor"}:
            kind, number = key.split("|")
            tank = record.tanks[int(number) - 1]
            if kind == "tank-removal":
                _note(record, key, tank.removed.isoformat(), doc, text)
            elif kind == "tank-capacity":
                _note(record, key, tank.capacity, doc, text)
            elif kind == "tank-product":
                _note(record, key, tank.product, doc, text)
            elif kind == "tank-kept":
                _note(record, key, True, doc, text)


def _nfa_letter(rng: random.Random, record: Record, agency: OfficeStyle) -> None:
    site, split = record.site, record.split
    day, case, covers, excluded = record.nfa
    stated = (
        f"Based on the information submitted, the {site.agency} has determined that no further action is "
        f"required at the site under Case No. {case} with respect to {' and '.join(covers)}."
    )
    excluding = (
        f"This determination does not address {' or '.join(excluded)}, which were not evaluated."
    )
    paragraphs = [
        stated,
        excluding,
        "This letter does not relieve the owner of obligations under the recorded environmental covenant.",
        rng.choice(FILLER).format(agency=site.agency),
    ]
    facts = [{"nfa-date", "nfa-case", "nfa-covers"}, {"nfa-excludes"}, set(), set()]
    sheets = letter(
        rng,
        agency,
        split,
        site,
        date=day,
        subject=f"No Further Action, {site.name}",
        paragraphs=paragraphs,
        facts=facts,
    )
    sheets[0].facts.add("nfa-date")
    doc = _add(record, Document("nfa-letter", "No further action letter", sheets))
    record.values["nfa-date"] = day.isoformat()
    record.evidence["nfa-date"] = [Evidence(doc, 1, agency.date(day))]
    _note(record, "nfa-case", case, doc, stated)
    _note(record, "nfa-covers", covers, doc, stated)
    _note(record, "nfa-excludes", excluded, doc, excluding)


def _renewal_letter(rng: random.Random, record: Record, agency: OfficeStyle) -> None:
    site, split = record.site, record.split
    day, renewed = record.renewal
    number = site.permit[0]
    if renewed is not None:
        stated = f"Permit No. {number} has been renewed; the renewed permit expires on {agency.date(renewed)}."
        facts = [{"permit-renewed-expiry"}]
    else:
        stated = (
            f"Permit No. {number} has been renewed for a further term; the renewed permit and its "
            "conditions will be sent under separate cover."
        )
        facts = [set()]
    paragraphs = [stated, rng.choice(FILLER).format(agency=site.agency)]
    sheets = letter(
        rng,
        agency,
        split,
        site,
        date=day,
        subject=f"Permit No. {number}: renewal",
        paragraphs=paragraphs,
        facts=facts + [set()],
    )
    doc = _add(record, Document("permit-renewal", "Permit renewal letter", sheets))
    if renewed is not None:
        _note(record, "permit-renewed-expiry", renewed.isoformat(), doc, stated)


def _easement(rng: random.Random, record: Record, agency: OfficeStyle) -> None:
    site, split = record.site, record.split
    number, recorded, grantee, width = record.easement
    first = Sheet(agency, "easement")
    stamp = (
        f"{site.county.upper()} COUNTY RECORDER",
        f"Instrument No. {number}",
        f"Recorded {recorded:%m/%d/%Y}",
    )
    recorder_stamp(first, grantee, stamp, 50)
    first.facts |= {"easement-recording"}
    first.text(_pick(rng, split, "easement"), size=agency.size + 5, bold=True, align="center")
    first.gap(10)
    grant = (
        f"{site.client} (Grantor) grants to {grantee} (Grantee) a perpetual easement {width} feet in width "
        f"across the property at {site.address} for the installation and maintenance of utility lines."
    )
    body = [
        grant,
        "The Grantee shall restore the surface of the property after any work within the easement.",
        rng.choice(FILLER).format(agency=site.agency),
    ]
    sheets = flow(
        first,
        body,
        lambda page: Sheet(agency, "easement", page_in_doc=page),
        facts=[{"easement-grantee", "easement-width"}, set(), set()],
    )
    sheets[-1].gap(14)
    sheets[-1].text("GRANTOR: ____________________________", bold=True)
    sheets[-1].text(person(rng))
    sheets = finish(sheets)
    doc = _add(record, Document("easement", "Easement", sheets, tuple(range(len(sheets)))))
    _note(record, "easement-recording", number, doc, f"Instrument No. {number}")
    _note(record, "easement-grantee", grantee, doc, grant)
    _note(record, "easement-width", width, doc, grant)


# -- rendering ----------------------------------------------------------------------------------


def file_names(record: Record, seed: int, *labels: str | int) -> list[str]:
    """Each document's neutral file name ("doc-01", "doc-02", ...) in document order: the numbers
    are a seeded shuffle (drawn from (seed, *labels, "file order")), so neither a name nor the
    order of the files says which kind of document it is."""
    numbers = list(range(1, len(record.documents) + 1))
    make_random(seed, *labels, "file order").shuffle(numbers)
    return [f"doc-{number:02d}" for number in numbers]


def render_record(record: Record, seed: int, *labels: str | int) -> list[tuple[str, bytes]]:
    """Each document as one PDF, in document order: (its neutral name from `file_names`, bytes).
    The PDF's title is the site and that name (no metadata names the document's kind); scanned
    pages are black-and-white images at SCAN_DPI, each drawn from (seed, *labels, slug, page)."""
    out = []
    for document, name in zip(record.documents, file_names(record, seed, *labels), strict=True):
        pdf = emit_pdf(
            document.sheets,
            f"{record.site.name}: {name}",
            scanned=document.scanned,
            seed=seed,
            labels=(*labels, document.slug),
            dpi=SCAN_DPI,
            gray=True,
        )
        out.append((name, pdf))
    return out


__all__ = [
    "CONTAMINANT_GROUPS",
    "PRODUCTS",
    "SCAN_DPI",
    "Document",
    "Evidence",
    "Record",
    "Tank",
    "file_names",
    "render_record",
    "sample_record",
]
