"""The document plan of a site record: which documents the file holds, in filing order.

`plan_documents(model, seed)` turns the site model into `papers.Doc`s: recorded deeds and the
lease (rendered by `envirobench_synth.legal`), tank registration and tightness tests, tank
closure, the agency's letters, Phase I and Phase II reports (drafts and finals), quarterly and
semiannual monitoring reports with their laboratory reports and cumulative historical tables,
vapor-intrusion reports, the corrective action plan, remediation reports, the data validation
memo, a laboratory's correction letter and revised report, the no-further-action letter and the
environmental covenant, and the paper that fills a real file (invoices, transmittals, fax covers,
disposal certificates, photographs).

The traps (`Traps`) are set here, on keys that never share a trap: which results each of the
revised laboratory reports changes, which each correction letter names, which analyte of which
event each validation memo rejects and which results a laboratory flags R, which cells of which
cumulative table are misprinted, which reports have drafts in the file and which preliminary
values a draft prints, which laboratory reports are filed as scans. Enough keys are contested
(printed somewhere with a non-governing value, or excluded: 8 % or more of a record's keys) that
the reprint rules, not reading alone, decide a share of the score.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field

from ..locate import sitekinds
from ..locate.sitepages import (
    MARGIN,
    PAGE_W,
    STYLES_BY_SPLIT,
    OfficeStyle,
    Sheet,
    finish,
    person,
    style,
)
from ..rng import make_random
from . import lablink, legalink
from .model import Campaign, Measurement, Sample, SiteModel, key_of, result_fact
from .papers import (
    MATRIX_TEXT,
    SHORT,
    Doc,
    Key,
    Part,
    Pen,
    boring_log_pages,
    custody_pages,
    field_sheets,
    letter_doc,
    loc_name,
    number,
    photo_pages,
    prose,
    results_table_pages,
    site_plan,
    text_pages,
    title_page,
    unit_text,
)


@dataclass
class Traps:
    revised: dict[str, dict[Key, Measurement]] = field(
        default_factory=dict
    )  # campaign -> originals
    revised_on: dict[str, dt.date] = field(default_factory=dict)
    corrected: dict[Key, Measurement] = field(default_factory=dict)  # key -> the wrong printing
    corrected_on: dict[Key, dt.date] = field(default_factory=dict)  # key -> its letter's date
    letters: list[tuple[str, dt.date, tuple[Key, ...]]] = field(default_factory=list)
    rejected: set[Key] = field(default_factory=set)
    rejected_on: dict[Key, dt.date] = field(default_factory=dict)  # key -> its memo's date
    memos: list[tuple[str, dt.date, str]] = field(default_factory=list)  # campaign, day, analyte
    lab_rejected: set[Key] = field(default_factory=set)  # printed with an R flag by the lab
    transcription: dict[tuple[str, Key], float | None] = field(default_factory=dict)
    scanned_labs: set[str] = field(default_factory=set)  # campaigns whose lab report is a scan
    preliminary: dict[str, dict[Key, float]] = field(
        default_factory=dict
    )  # campaign -> the values its draft report prints from the preliminary data
    drafts: int = 0
    duplicates: int = 0
    scale: float = 1.0  # the trap counts per document grow with the record's keys (TRAP_KEYS)

    def lab_printing(self, campaign: Campaign, sample: Sample, m: Measurement) -> Measurement:
        """What the laboratory's original report printed for this result."""
        key = key_of(sample, m)
        if key in self.revised.get(campaign.id, {}):
            return self.revised[campaign.id][key]
        if key in self.corrected:
            return self.corrected[key]
        if key in self.lab_rejected:
            return Measurement(m.analyte, m.value, m.unit, m.rl, "R")
        return m

    def fixed_by(self, key: Key) -> dt.date | None:
        if key in self.corrected:
            return self.corrected_on[key]
        for cid, keys in self.revised.items():
            if key in keys:
                return self.revised_on[cid]
        return None

    def contested(self) -> set[Key]:
        """Keys some trap touches (every one is printed somewhere with a non-governing value or
        is excluded), except cumulative misprints, which the tables set as they are drawn."""
        out = set(self.corrected) | self.rejected
        for keys in (*self.revised.values(), *self.preliminary.values()):
            out |= set(keys)
        return out


def plan_documents(model: SiteModel, seed: int) -> tuple[list[Doc], Traps]:
    rng = make_random(seed, "documents", model.spec.site_id)
    pen = Pen(model, rng)
    traps = _choose_traps(model, rng)
    docs: list[Doc] = []
    docs += legalink.deeds(pen, seed)
    if model.lease is not None:
        docs += legalink.lease(pen, seed)
        docs += [lease_amendment(pen, day, k) for k, day in enumerate(model.lease_amendments, 1)]
    docs += tank_papers(pen)
    docs += release_papers(pen, traps)
    for index, day in enumerate(model.phase_i):
        docs += phase_i(pen, day, index, draft=index == 0)
    by_id = {c.id: c for c in model.campaigns}
    history: list[Campaign] = []
    monitoring_seen = 0
    draft_at = {2, 5, 8}
    for campaign in model.campaigns:
        if campaign.kind == "tank-closure":
            docs.append(tank_closure_report(pen, campaign, traps))
        elif campaign.kind == "phase-ii":
            docs += phase_ii(pen, campaign, traps)
        elif campaign.kind in ("characterization", "monitoring", "vapor"):
            if campaign.kind == "monitoring":
                monitoring_seen += 1
            draft = campaign.kind == "monitoring" and monitoring_seen in draft_at
            reports = monitoring_report(pen, campaign, history, traps, draft=draft)
            docs += reports
            if campaign.kind == "monitoring" and monitoring_seen % 3 == 1:
                docs.append(review_letter(pen, reports[-1]))
        history.append(campaign)
        if campaign.id in traps.revised:
            docs.append(revised_lab(pen, campaign, traps))
    docs += remedy_papers(pen, traps)
    for cid, day, keys in traps.letters:
        docs.append(correction_letter(pen, by_id[cid], day, keys, traps))
    for cid, day, analyte in traps.memos:
        docs.append(validation_memo(pen, by_id[cid], day, analyte, traps))
    if model.closed is not None:
        docs.append(ceased_letter(pen))
    if model.nfa is not None:
        docs.append(nfa_letter(pen))
    if model.covenant is not None:
        docs += legalink.covenant(pen, seed)
    docs.sort(key=lambda d: d.issued)
    return docs, traps


# -- traps ----------------------------------------------------------------------------------------

TRAP_KEYS = 400  # a record with more keys than this scales the values per trap up with them
LAB_SCAN_SHARE = 0.3  # of the laboratory reports filed as the consultant's scan of the paper copy


def _choose_traps(model: SiteModel, rng: random.Random) -> Traps:
    """The record's reconciliation traps, on keys that never overlap (one trap per key): 2-4
    revised laboratory reports (2-8 values each, times `scale`), 2 correction letters (2-5 values of one job
    each), validation memos rejecting 2-3 analyte/event combinations, 2-3 laboratory R flags,
    and which laboratory reports are filed as scans."""
    traps = Traps()
    traps.scale = max(1.0, len(model.truth) / TRAP_KEYS)
    monitoring = [c for c in model.campaigns if c.kind in ("monitoring", "characterization")]
    n = len(monitoring)
    taken: set[Key] = set()
    detected = lambda c: [  # noqa: E731
        (s, m)
        for s in c.samples
        if not s.is_duplicate
        for m in s.results
        if m.value is not None and key_of(s, m) not in taken
    ]
    # rejected data first (whole analyte/event combinations): validation memos, one per event
    victims = rng.sample(range(n // 4, max(n // 4 + 1, (3 * n) // 4)), min(rng.randint(2, 3), max(1, n // 2)))
    for index in sorted(victims):
        victim = monitoring[index]
        day = victim.issued + dt.timedelta(days=rng.randint(50, 80))
        analyte = rng.choice(sorted({m.analyte for s in victim.samples for m in s.results}))
        traps.memos.append((victim.id, day, analyte))
        for s in victim.samples:
            if s.is_duplicate:
                continue
            for m in s.results:
                if m.analyte == analyte:
                    traps.rejected.add(key_of(s, m))
                    traps.rejected_on[key_of(s, m)] = day
                    taken.add(key_of(s, m))
    # laboratory R flags in the later events
    late = monitoring[max(0, (2 * n) // 3) :] or monitoring
    for c in sorted(rng.sample(late, min(len(late), rng.randint(2, 3))), key=lambda c: c.start):
        pool = [
            (s, m)
            for s in c.samples
            if not s.is_duplicate
            for m in s.results
            if key_of(s, m) not in taken
        ]
        if pool:
            s, m = rng.choice(pool)
            traps.lab_rejected.add(key_of(s, m))
            traps.rejected.add(key_of(s, m))
            traps.rejected_on[key_of(s, m)] = c.issued
            taken.add(key_of(s, m))
    # revised laboratory reports: each original printed 2-8 results wrong (calculation errors)
    order = list(range(1, n)) or [0]
    revised = sorted(rng.sample(order, min(len(order), rng.randint(2, 4), max(2, n // 3))))
    for index in revised:
        target = monitoring[index]
        pool = detected(target)
        originals = {}
        for s, m in rng.sample(pool, min(round(rng.randint(2, 8) * traps.scale), len(pool))):
            originals[key_of(s, m)] = Measurement(
                m.analyte, _misprint(rng, m.value), m.unit, m.rl, m.qualifier
            )
            taken.add(key_of(s, m))
        traps.revised[target.id] = originals
        traps.revised_on[target.id] = target.issued + dt.timedelta(days=rng.randint(40, 80))
    # correction letters: 2-5 results of one job misreported (a dilution factor not applied)
    spare = [i for i in range(n) if monitoring[i].id not in traps.revised] or list(range(n))
    for index in sorted(rng.sample(spare, min(2, len(spare)))):
        other = monitoring[index]
        day = other.issued + dt.timedelta(days=rng.randint(30, 60))
        pool = detected(other)
        keys = []
        for s, m in rng.sample(pool, min(rng.randint(2, 5), len(pool))):
            key = key_of(s, m)
            traps.corrected[key] = Measurement(
                m.analyte, _sig(m.value / rng.choice((10, 10, 100))), m.unit, m.rl, m.qualifier
            )
            traps.corrected_on[key] = day
            taken.add(key)
            keys.append(key)
        if keys:
            traps.letters.append((other.id, day, tuple(sorted(keys))))
    # laboratory reports filed as scans, of jobs no revision replaces (a revision is e-mailed,
    # and the scanned original is then what governs)
    jobs = [c.id for c in model.campaigns if any(not s.is_duplicate for s in c.samples)]
    kept = [cid for cid in jobs if cid not in traps.revised]
    traps.scanned_labs = set(rng.sample(kept, min(len(kept), round(len(jobs) * LAB_SCAN_SHARE))))
    for c in model.campaigns:
        traps.duplicates += sum(1 for s in c.samples if s.is_duplicate)
    return traps


def _sig(value: float) -> float:
    from .model import _sig as sig

    return sig(value)


def _misprint(rng: random.Random, value: float) -> float:
    form = rng.choice(("swap", "shift", "digit"))
    if form == "shift":
        return _sig(value * 10)
    text = f"{value:.3g}"
    digits = [c for c in text if c.isdigit()]
    if form == "swap" and len(digits) >= 2 and digits[0] != digits[1]:
        i, j = text.index(digits[0]), text.index(digits[1], text.index(digits[0]) + 1)
        chars = list(text)
        chars[i], chars[j] = chars[j], chars[i]
        out = float("".join(chars))
        if out != value:
            return out
    return _sig(value * 1.8) if value * 1.8 != value else value + 1


# -- small documents ------------------------------------------------------------------------------


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
    for label, value in (
        ("Facility", f"{pen.m.business}, {pen.m.address}"),
        ("Test date", st.date(day)),
        ("Tank", f"{tank.id}  ({tank.gallons:,} gal {tank.contents})"),
        ("Product level", f"{pen.rng.randint(55, 95)} %"),
        ("Measured leak rate", f"{leak:+.3f} gal/hr (threshold 0.100 gal/hr)"),
        ("Result", "FAIL - TANK SYSTEM NOT TIGHT" if failed else "PASS - TANK TIGHT"),
    ):
        sheet.text(f"{label}:", bold=True, advance=False)
        sheet.text(value, x=MARGIN + 130)
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
            *pen.filler(2),
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
    sheets = letter_doc(
        pen,
        ast,
        kind="agency-letter",
        date=day,
        subject=f"Confirmed Release, {m.business}, {m.address}; Case No. {m.case_number}",
        firm=(agency_name(m), f"{m.program}, 800 Capitol Way, {m.city}", "(555) 010-2000"),
        sender=(person(pen.rng), "Case Manager"),
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


# What a Phase I says of a condition before the release is found, and while the case is open.
EARLY = {
    "petroleum-ust-release": "the underground storage tank system in service since {year}, with no "
    "release detection records before 1990 and petroleum odors reported near the dispensers",
    "waste-oil-ust": "a waste-oil underground storage tank beside the service bays, of unknown age "
    "and integrity",
    "heating-oil-tank": "a heating-oil underground storage tank of unknown age and integrity",
    "ast-loading-rack-release": "stained soil and stressed vegetation at the loading rack and the "
    "aboveground tank farm, in use since {year}",
    "railroad-ties-herbicides": "creosote-treated ties and a history of herbicide application "
    "along the spur track",
    "pcb-equipment": "a pole-mounted transformer of unknown PCB content with stained gravel beneath",
    "chlorinated-solvent-release": "dry-cleaning operations using tetrachloroethene since {year}, "
    "with a floor drain beneath the dry-cleaning machine",
    "vapor-intrusion": "the potential for solvent vapors to migrate into the building",
    "floor-drains-dry-well": "service-bay floor drains that discharge to a dry well",
    "plating-solutions": "plating tanks and sumps in use since {year}, with corroded floor trenches",
    "fill-material": "a thin layer of fill of unknown origin under the parking area",
    "hydraulic-lifts": "in-ground hydraulic lifts of unknown age in the service bays",
    "drum-storage-staining": "drums of lubricants with minor staining beneath the drum rack",
    "offsite-source": "a leaking tank site on the adjoining property",
}
OPEN = {
    "petroleum-ust-release": "the release of petroleum from the former UST system, under "
    "investigation and corrective action by the agency",
    "waste-oil-ust": "the release from the former waste-oil UST, not yet closed by the agency",
    "heating-oil-tank": "the former heating-oil UST, removed but not yet closed by the agency",
    "pcb-equipment": "PCBs in soil at the former transformer pad, not yet addressed",
    "chlorinated-solvent-release": "the release of tetrachloroethene from the dry-cleaning "
    "operations, under investigation in the state drycleaner program",
}


USE = {
    "station": "a retail gasoline service station",
    "bulk-plant": "a petroleum bulk plant and distribution terminal",
    "dry-cleaner": "a dry-cleaning plant",
    "auto-repair": "an automotive repair shop",
    "plating-shop": "a metal plating and finishing shop",
}
PHASE_I_FILLER = (
    "Aerial photographs of 1952, 1965, 1974, 1988, 1996 and later years were reviewed.",
    "Fire insurance maps were not available for the subject property.",
    "City directories were reviewed at approximately five-year intervals from 1950.",
    "The local fire department and building department were asked for records of the property.",
    "The owner's representative was interviewed about current and past uses of the property.",
    "No pits, ponds or lagoons were observed on the subject property.",
    "No evidence of stressed vegetation was observed except as noted below.",
    "The property is served by the municipal water and sewer systems.",
    "Heating is provided by natural gas; no heating-oil fill pipes were observed.",
    "Hazardous substances observed on site were limited to small containers of consumer products.",
    "No environmental liens were identified in the title records provided by the User.",
    "The database report lists no federal NPL or CERCLIS sites within the search radius.",
)


def _p1(rng, n: int) -> list[str]:
    return rng.sample(PHASE_I_FILLER, n)


# -- Phase I ---------------------------------------------------------------------------------------


def phase_i(pen: Pen, day: dt.date, index: int, *, draft: bool) -> list[Doc]:
    out = []
    if draft:
        draft_day = day - dt.timedelta(days=pen.rng.randint(14, 30))
        out.append(_phase_i(pen, draft_day, index, draft=True))
    out.append(_phase_i(pen, day, index, draft=False))
    return out


def _phase_i(pen: Pen, day: dt.date, index: int, *, draft: bool) -> Doc:
    m = pen.m
    st = pen.office(day)
    rng = make_random(m.spec.seed, "phase-i", index)  # the draft and the final say the same things
    title = "Phase I Environmental Site Assessment"
    facts = set() if draft else {f"event|phase-i-esa|-|{day.isoformat()}"}
    sheets = [
        title_page(
            pen,
            st,
            title,
            day,
            draft=draft,
            subtitle="ASTM E1527-21"
            if day.year >= 2022
            else "ASTM E1527-13"
            if day.year >= 2014
            else "ASTM E1527-05",
            facts=facts,
        )
    ]
    [h for h in m.happenings if h.date < day]
    owners = [o for o in m.owners if o.recorded.date() < day]
    tanks_known = [t for t in m.tanks if t.installed < day]
    findings: list[tuple[str, set[str]]] = []
    for c in m.conditions:
        visible = c.kind not in ("vapor-intrusion",) or day > m.phase_ii + dt.timedelta(days=300)
        if not visible:
            continue
        closed = m.nfa is not None and day >= m.nfa
        if c.cls == "de-minimis":
            cls, summary = c.cls, c.summary
        elif day < m.release_found:
            cls, summary = "REC", EARLY[c.kind].format(year=m.opened.year)
        elif not closed:
            cls, summary = "REC", OPEN.get(c.kind, c.summary)
        else:
            cls, summary = c.cls, c.summary
        phrase = {
            "REC": "a recognized environmental condition (REC)",
            "CREC": "a controlled recognized environmental condition (CREC)",
            "HREC": "a historical recognized environmental condition (HREC)",
            "de-minimis": "a de minimis condition",
        }[cls]
        findings.append(
            (
                pen.say("finding", summary=summary, phrase=phrase),
                {f"condition|{c.kind}"},
            )
        )
    exec_summary = [
        (
            f"{st.firm} performed a Phase I Environmental Site Assessment of {m.name}, {m.address} (the "
            f"subject property, Tax Parcel {m.apn}), in conformance with the scope and limitations of ASTM "
            "Practice E1527 and the All Appropriate Inquiries rule (40 CFR Part 312).",
            set(),
        ),
        *findings,
    ]
    history = [
        (
            pen.say("used-since", use=USE[m.spec.archetype], year=m.opened.year),
            {f"event|operations-began|-|{m.opened.year:04d}"},
        ),
    ]
    if m.closed is not None and m.closed < day:
        history.append(
            (
                pen.say("ceased", month=f"{m.closed:%B %Y}"),
                {f"event|operations-ceased|-|{m.closed:%Y-%m}"},
            )
        )
    for t in tanks_known:
        removed = (
            pen.say("removed", date=st.date(t.removed)) if t.removed and t.removed < day else ""
        )
        facts_t = {f"event|tank-installed|{t.id}|{t.installed.isoformat()}"}
        if removed:
            facts_t.add(f"event|tank-removed|{t.id}|{t.removed.isoformat()}")
        history.append(
            (
                pen.say(
                    "tank",
                    id=t.id,
                    gallons=f"{t.gallons:,}",
                    material=t.material,
                    kind=t.kind,
                    contents=t.contents,
                    installed=st.date(t.installed),
                    removed=removed,
                ),
                facts_t,
            )
        )
    if m.release_found < day:
        history.append(
            (
                pen.say(
                    "release", date=st.date(m.release_found), agency=m.agency, case=m.case_number
                ),
                {f"event|release-reported|-|{m.release_found.isoformat()}", *_cond(m, "release")},
            )
        )
    sections = [
        ("Executive Summary", exec_summary),
        (
            "Introduction",
            [
                (t, set())
                for t in (
                    "The purpose of this assessment is to identify recognized environmental conditions in connection with "
                    "the subject property, as that term is defined in ASTM E1527.",
                    "This report was prepared for the sole use of the User and may be relied upon only as stated in the "
                    "terms and conditions of our agreement.",
                    *_p1(rng, 2),
                )
            ],
        ),
        (
            "Site Description",
            [
                (t, set())
                for t in (
                    f"The subject property is located at {m.address} in {m.county} County, on a parcel of approximately "
                    f"{rng.uniform(0.4, 3.5):.2f} acres developed with a {rng.choice(('one-story', 'two-story'))} "
                    f"{rng.choice(('masonry', 'steel-frame', 'wood-frame'))} building.",
                    "Adjoining properties include commercial buildings to the north and east, a public street to the "
                    "south and a residential neighborhood beyond a railroad right-of-way to the west.",
                    *_p1(rng, 2),
                )
            ],
        ),
        (
            "User Provided Information",
            [
                (t, set())
                for t in (
                    "The User completed the ASTM user questionnaire; no environmental liens or activity and use "
                    "limitations were reported by the User.",
                    *_p1(rng, 1),
                )
            ],
        ),
        (
            "Records Review",
            [
                (t, set())
                for t in (
                    f"A regulatory database report was obtained for the subject property and the ASTM minimum search "
                    f"distances. The subject property is listed on the UST and LUST databases (Case No. {m.case_number}).",
                    *_p1(rng, 2),
                )
            ],
        ),
        ("Historical Use Information", history),
        (
            "Site Reconnaissance",
            [
                (t, set())
                for t in (
                    f"The site reconnaissance was performed on {st.date(day - dt.timedelta(days=rng.randint(10, 30)))} by "
                    f"{person(rng)}. Weather was {rng.choice(('clear', 'overcast', 'light rain'))}.",
                    *_p1(rng, 3),
                )
            ],
        ),
        ("Findings, Opinions and Conclusions", findings),
        (
            "Deviations and Data Gaps",
            [
                (t, set())
                for t in (
                    "No significant data gaps were identified. Historical sources were reviewed at approximately "
                    "five-year intervals where available.",
                    *_p1(rng, 1),
                )
            ],
        ),
    ]
    body = text_pages(pen, st, f"Phase I ESA - {m.name}", sections)
    # chain of title table (reprints of the deeds' recording dates)
    table = Sheet(st, "report")
    table.text("Table 1. Chain of Title (from the title company's report)", bold=True)
    rows = []
    for o in owners:
        rows.append([o.name[:34], st.date(o.recorded.date()), "Deed"])
        table.facts.add(f"event|ownership-transfer|{m.apn}|{o.recorded.date().isoformat()}")
    table.table(["Grantee", "Recorded", "Instrument"], rows, [260, 120, 90])
    body.append(table)
    photos = photo_pages(
        pen,
        st,
        2 if not draft else 1,
        (
            "View of the subject property looking north.",
            "Former tank area, looking east.",
            "Interior of the service area.",
            "Monitoring well vault in the parking area.",
            "Adjoining property to the south.",
            "Drum storage area behind the building.",
        ),
    )
    db = []
    for _k in range(3 if index == 0 else 4):
        s = Sheet(st, "database")
        s.text("REGULATORY DATABASE REPORT - RADIUS MAP SUMMARY", bold=True, align="center")
        s.gap(6)
        rows = [
            [
                rng.choice(("LUST", "UST", "RCRA-SQG", "DRYCLEANERS", "SPILLS", "ERNS", "VCP")),
                f"{rng.randint(100, 9999)} {rng.choice(('Main', 'Depot', 'Mill', 'Oak'))} St",
                f"{rng.uniform(0.01, 0.99):.2f} mi",
                rng.choice(("N", "NE", "E", "SE", "S", "SW", "W", "NW")),
                rng.choice(("Closed", "Open", "Active", "NFA")),
            ]
            for _ in range(24)
        ]
        s.table(
            ["Database", "Address", "Distance", "Dir.", "Status"],
            rows,
            [90, 170, 70, 50, 80],
            size=st.size - 1,
        )
        db.append(s)
    pages = finish([*sheets, *body]) + photos + db
    return Doc("phase-i", title, day, [Part(pages)], draft=draft)


# -- results documents -----------------------------------------------------------------------------


def lab_part(pen: Pen, campaign: Campaign, traps: Traps, *, revision: int = 0) -> Part:
    """The laboratory's report of `campaign` (the original, or a revision printing the truth)."""
    samples = []
    for s in campaign.samples:
        if revision:
            results = list(s.results)
        else:
            results = [traps.lab_printing(campaign, s, m) for m in s.results]
        samples.append(
            Sample(s.sample_id, s.location, s.depth, s.matrix, s.date, results, s.parent)
        )
    issued = traps.revised_on.get(campaign.id, campaign.issued) if revision else campaign.issued
    note = None
    if revision:
        changed = ", ".join(f"{k[3]} in {k[0]}" for k in traps.revised[campaign.id])
        note = (
            f"This report supersedes the report issued {campaign.issued:%m/%d/%Y}. The results for "
            f"{changed} were recalculated after a data-entry error was found in review."
        )
    return lablink.lab_report(
        pen,
        campaign,
        samples,
        issued,
        revision=revision,
        note=note,
        scanned=not revision and campaign.id in traps.scanned_labs,
    )


def samples_printed(
    campaign: Campaign, traps: Traps, *, after: dt.date | None = None
) -> list[Sample]:
    """The samples as a consultant's report copies them from the laboratory: the lab's original
    printing, or the corrected values when the report is issued after the fix."""
    out = []
    for s in campaign.samples:
        results = []
        for m in s.results:
            key = key_of(s, m)
            fixed = traps.fixed_by(key)
            if fixed is not None and after is not None and after >= fixed:
                results.append(m)
            else:
                results.append(traps.lab_printing(campaign, s, m))
        out.append(Sample(s.sample_id, s.location, s.depth, s.matrix, s.date, results, s.parent))
    return out


STANDARD_LABELS = {
    "franklin-groundwater": "FCS Table 1",
    "franklin-soil-residential": "FCS Table 2",
    "franklin-soil-industrial": "FCS Table 3",
    "epa-mcl": "MCL",
    "epa-rsl-tapwater-thq1.0": "RSL tapwater",
    "epa-rsl-soil-industrial-thq1.0": "RSL ind. soil",
    "epa-rsl-soil-residential-thq1.0": "RSL res. soil",
}


def standard_row(
    m: SiteModel, samples: list[Sample], analytes: list[str], day: dt.date
) -> tuple[str, list[str]] | None:
    """The row of screening levels a report prints above its results: the governing table's
    values in force on the report's date (not always those in force when a sample was taken)."""
    from .. import standards

    matrices = {s.matrix for s in samples}
    if len(matrices) != 1:
        return None
    table = m.standards.get(matrices.pop())
    if table is None:
        return None
    units = {r.analyte: r.unit for s in samples for r in s.results}
    cells = []
    for analyte in analytes:
        try:
            row = standards.value_in_force(table, analyte, day)
        except ValueError:
            row = standards.value_in_force(table, analyte, day, basis="total")
        if row is None:
            cells.append("NE")
            continue
        factor = {("mg/L", "µg/L"): 1000.0, ("µg/L", "mg/L"): 0.001}.get(
            (row.unit, units[analyte]), 1.0
        )
        cells.append(number(float(f"{row.value * factor:.3g}")))
    return STANDARD_LABELS.get(table, table), cells


def _label(st: OfficeStyle):
    def label(s: Sample) -> str:
        if s.is_duplicate:
            return s.sample_id
        text = loc_name(st, s.location)
        return f"{text} ({s.depth} ft)" if s.depth else text

    return label


def tank_closure_report(pen: Pen, campaign: Campaign, traps: Traps) -> Doc:
    m = pen.m
    day = campaign.issued + dt.timedelta(days=pen.rng.randint(15, 35))
    st = pen.office(day)
    removed = [t for t in m.tanks if t.removed and abs((t.removed - campaign.start).days) < 60]
    title = pen.doc_title("tank-closure")
    paras = [
        (
            f"This report documents the closure by removal of the underground storage tanks at {m.business}.",
            set(),
        )
    ]
    for t in removed:
        paras.append(
            (
                f"Tank {t.id} ({t.gallons:,} gallons, {t.contents}) was removed on {st.date(t.removed)} "
                f"and transported for cleaning and scrap.",
                {f"event|tank-removed|{t.id}|{t.removed.isoformat()}"},
            )
        )
    paras.append(
        (
            f"Petroleum-stained soil and odors were observed in the tank excavation. The release was reported "
            f"to the {m.agency} on {st.date(m.release_found)}.",
            {f"event|release-reported|-|{m.release_found.isoformat()}", *_cond(m, "release")},
        )
    )
    paras += [(t, set()) for t in pen.filler(3)]
    values: dict[str, float | None] = {}
    printed = samples_printed(campaign, traps, after=day)
    analytes = sorted({a.analyte for s in printed for a in s.results}, key=_order)
    body = text_pages(pen, st, title, [("Closure Activities", paras)])
    table = results_table_pages(
        pen,
        st,
        "Table 1. Tank Closure Soil Sample Results",
        printed,
        analytes,
        first_column="Sample (depth)",
        label=_label(st),
        values=values,
        standard=standard_row(m, printed, analytes, day),
    )
    report = Part(
        finish(
            [
                title_page(pen, st, title, day, draft=False),
                *body,
                *table,
                site_plan(pen, st, 1, day),
            ]
        ),
        values=values,
    )
    photos = Part(
        photo_pages(
            pen,
            st,
            1,
            (
                "Tank removal, looking north.",
                "Tank excavation after removal.",
                "Tanks staged for transport.",
            ),
        )
    )
    cert = Part(sitekinds.certificate(pen.rng, st, pen.split, shim(pen, day)))
    return Doc(
        "tank-closure",
        title,
        day,
        [
            report,
            photos,
            lab_part(pen, campaign, traps),
            Part(custody_pages(pen, st, campaign), scannable=True),
            cert,
        ],
        scannable=day.year < 2000,
        campaign=campaign.id,
    )


def _order(analyte: str) -> int:
    from ..catalogue import ANALYTES

    names = [a.name for a in ANALYTES]
    return names.index(analyte) if analyte in names else 999


def numbered_results_tables(
    pen: Pen,
    st: OfficeStyle,
    groups: list[tuple[str, list[Sample]]],
    values: dict[str, float | None],
    day: dt.date,
    t_no: int,
) -> tuple[list[Sheet], int]:
    """The results table pages of each non-empty (caption, samples) group, numbered from t_no
    ("Table 3. Soil Analytical Results"), and the next table number."""
    tables: list[Sheet] = []
    for caption, group in groups:
        if not group:
            continue
        analytes = sorted({r.analyte for s in group for r in s.results}, key=_order)
        tables += results_table_pages(
            pen,
            st,
            f"Table {t_no}. {caption}",
            group,
            analytes,
            first_column="Sample",
            label=_label(st),
            values=values,
            standard=standard_row(pen.m, group, analytes, day),
        )
        t_no += 1
    return tables, t_no


def phase_ii(pen: Pen, campaign: Campaign, traps: Traps) -> list[Doc]:
    m = pen.m
    out = []
    final_day = m.phase_ii
    for draft in (True, False):
        day = final_day - dt.timedelta(days=pen.rng.randint(15, 30)) if draft else final_day
        st = pen.office(day)
        title = pen.doc_title("phase-ii")
        values: dict[str, float | None] = {}
        printed = samples_printed(campaign, traps, after=day)
        soil = [s for s in printed if s.matrix == "soil"]
        water = [s for s in printed if s.matrix == "groundwater"]
        vapor = [s for s in printed if s.matrix not in ("soil", "groundwater")]
        paras = [
            (
                f"{st.firm} advanced {len({s.location for s in soil})} soil borings and installed "
                f"{len({s.location for s in water if not s.is_duplicate})} monitoring wells at {m.name} between "
                f"{st.date(campaign.start)} and {st.date(max(s.date for s in printed))}.",
                set(),
            ),
            (
                f"The work was performed under the {m.program} to assess the release reported on "
                f"{st.date(m.release_found)}.",
                _cond(m, "release"),
            ),
            *[(t, set()) for t in pen.filler(3)],
        ]
        # one findings sentence per detected groundwater maximum (a printing in text)
        highlights = []
        for s in water:
            if s.is_duplicate:
                continue
            top = max(
                (r for r in s.results if r.value is not None),
                key=lambda r: r.value or 0,
                default=None,
            )
            if top is not None and len(highlights) < 3:
                fact = result_fact(key_of(s, top))
                values[fact] = top.value
                highlights.append(
                    (
                        pen.say(
                            "detected",
                            analyte=prose(top.analyte),
                            where=loc_name(st, s.location),
                            value=number(top.value),
                            unit=unit_text(st, top.unit),
                        ),
                        {fact},
                    )
                )
        sections = [
            ("Introduction", paras[:2]),
            ("Field Activities", paras[2:]),
            ("Results", highlights),
            (
                "Conclusions",
                [(f"{rule}", set()) for rule in (governing_rule(m),)]
                + [
                    (
                        "Further assessment of the extent of impacts in groundwater is recommended.",
                        _cond(m, "release"),
                    )
                ],
            ),
        ]
        body = text_pages(pen, st, title, sections)
        tables, t_no = numbered_results_tables(
            pen,
            st,
            [
                ("Soil Analytical Results", soil),
                ("Groundwater Analytical Results", water),
                ("Soil Vapor Analytical Results", vapor),
            ],
            values,
            day,
            1,
        )
        facts = set() if draft else {f"event|phase-ii-esa|-|{day.isoformat()}"}
        report = Part(
            finish(
                [
                    title_page(pen, st, title, day, draft=draft, facts=facts),
                    *body,
                    *tables,
                    site_plan(pen, st, 1, day),
                ]
            ),
            values=values,
        )
        parts = [report]
        if not draft:
            logs = []
            for pid in sorted(
                {s.location for s in printed if not s.is_duplicate},
                key=lambda p: (p.split("-")[0], int(p.split("-")[1])),
            ):
                if pid.startswith(("SB", "MW")):
                    logs += boring_log_pages(pen, st, pid, m.points[pid].installed)
            parts.append(Part(finish(logs, mark="Appendix A - {page}")))
            parts.append(lab_part(pen, campaign, traps))
            parts.append(Part(custody_pages(pen, st, campaign), scannable=True))
            parts.append(
                Part(
                    photo_pages(
                        pen,
                        st,
                        2,
                        (
                            "Drill rig at SB-1.",
                            "Soil cores from the source area.",
                            "Well installation.",
                            "Drum staging area.",
                        ),
                    )
                )
            )
        else:
            traps.drafts += 1
        out.append(
            Doc(
                "phase-ii",
                title,
                day,
                parts,
                draft=draft,
                campaign=campaign.id if not draft else None,
            )
        )
    return out


def monitoring_report(
    pen: Pen, campaign: Campaign, history: list[Campaign], traps: Traps, *, draft: bool
) -> list[Doc]:
    m = pen.m
    final_day = campaign.issued + dt.timedelta(days=pen.rng.randint(20, 45))
    out = []
    for is_draft in (True, False) if draft else (False,):
        day = final_day - dt.timedelta(days=pen.rng.randint(10, 20)) if is_draft else final_day
        st = pen.office(day)
        kind = campaign.kind
        if kind == "vapor":
            title = pen.doc_title("vapor", label=campaign.label)
        elif kind == "characterization":
            title = pen.doc_title("characterization")
        else:
            word = (
                "Semiannual"
                if "Half" in campaign.label
                else "Annual"
                if campaign.label.isdigit()
                else "Quarterly"
            )
            title = pen.doc_title("monitoring", word=word, label=campaign.label)
        values: dict[str, float | None] = {}
        printed = samples_printed(campaign, traps, after=day)
        if is_draft:
            printed = preliminary(pen, campaign, printed, traps)
        water = [s for s in printed if s.matrix == "groundwater"]
        dup = next((s for s in printed if s.is_duplicate), None)
        paras = [
            (
                f"This report presents the results of the {campaign.label.lower()} sampling event at {m.name} "
                f"({m.agency} Case No. {m.case_number}), performed on {st.date(campaign.start)}.",
                set(),
            ),
            (
                f"A total of {len([s for s in printed if not s.is_duplicate])} samples were collected and "
                f"submitted to {campaign.lab} for analysis.",
                set(),
            ),
        ]
        if dup is not None:
            paras.append(
                (
                    f"A blind field duplicate ({dup.sample_id}) was collected at {loc_name(st, dup.parent)} "
                    "for quality control; its results are not used for decisions.",
                    set(),
                )
            )
        paras += [(t, set()) for t in pen.filler(2 if kind == "monitoring" else 4)]
        highlights = []
        for s in sorted(water, key=lambda s: s.location):
            if s.is_duplicate:
                continue
            lead = s.results[0]
            if lead.value is not None and len(highlights) < 4:
                fact = result_fact(key_of(s, lead))
                values[fact] = lead.value
                highlights.append(
                    (
                        pen.say(
                            "detected",
                            analyte=prose(lead.analyte),
                            where=loc_name(st, s.location),
                            value=number(lead.value),
                            unit=unit_text(st, lead.unit),
                        ),
                        {fact},
                    )
                )
        if kind == "monitoring":
            highlights += trend_sentences(pen, st, campaign, history, traps, day, water, values)
        if kind == "vapor":
            for s in printed:
                if s.matrix != "indoor-air" or len(highlights) >= 6:
                    continue
                top = s.results[0]
                fact = result_fact(key_of(s, top))
                values[fact] = top.value
                level = (
                    "not detected"
                    if top.value is None
                    else (f"detected at {number(top.value)} {unit_text(st, top.unit)}")
                )
                highlights.append(
                    (
                        f"{_cap(prose(top.analyte))} was {level} in indoor air sample "
                        f"{loc_name(st, s.location)}.",
                        {fact},
                    )
                )
            running = campaign.start >= m.remedy_start
            highlights.append(
                (
                    "Indoor air and sub-slab concentrations were compared with the agency's vapor "
                    "intrusion screening levels. "
                    + (
                        "The sub-slab depressurization system operated throughout the event."
                        if running
                        else "Mitigation of the building is recommended."
                    ),
                    {"condition|vapor-intrusion"},
                )
            )
        sections = [
            ("Introduction", paras[:2]),
            ("Field Activities", paras[2:]),
            ("Analytical Results", highlights or [("No analytes were detected.", set())]),
            (
                "Conclusions and Recommendations",
                [
                    (t, set())
                    for t in (
                        "Monitoring will continue on the approved schedule.",
                        pen.rng.choice(VAPOR_CONC if kind == "vapor" else FILLER_CONC),
                    )
                ],
            ),
        ]
        body = text_pages(pen, st, title, sections)
        tables = []
        t_no = 1
        if water:
            tables.append(elevation_table(pen, st, water, t_no))
            t_no += 1
        event_tables, t_no = numbered_results_tables(
            pen,
            st,
            [
                (f"{MATRIX_TEXT[matrix]} Analytical Results, {campaign.label}", [s for s in printed if s.matrix == matrix])
                for matrix in ("groundwater", "soil", "soil-vapor", "sub-slab-vapor", "indoor-air")
            ],
            values,
            day,
            t_no,
        )
        tables += event_tables
        cumulative_values: dict[str, float | None] = {}
        cumulative = cumulative_tables(
            pen, st, campaign, history, traps, day, t_no, cumulative_values, draft=is_draft
        )
        report_sheets = [
            title_page(pen, st, title, day, draft=is_draft),
            *body,
            *tables,
            site_plan(pen, st, 1, day),
        ]
        parts = [Part(finish(report_sheets), values=values)]
        if cumulative:
            parts.append(Part(cumulative, role="cumulative", values=cumulative_values))
        if not is_draft:
            parts.append(
                Part(
                    finish(field_sheets(pen, st, printed), mark="Appendix A - {page}"),
                    scannable=True,
                )
            )
            parts.append(lab_part(pen, campaign, traps))
            parts.append(Part(custody_pages(pen, st, campaign), scannable=True))
        else:
            traps.drafts += 1
        out.append(
            Doc(
                kind + "-report",
                title,
                day,
                parts,
                draft=is_draft,
                campaign=None if is_draft else campaign.id,
            )
        )
    return out


def preliminary(pen: Pen, campaign: Campaign, printed: list[Sample], traps: Traps) -> list[Sample]:
    """A draft report's copy of the event: 2-4 detections (times `scale`) as the preliminary data
    gave them (10-40 % off, before its review), chosen once per event; the final prints the
    laboratory's report."""
    chosen = traps.preliminary.setdefault(campaign.id, {})
    if not chosen:
        rng = make_random(pen.m.spec.seed, "preliminary", campaign.id)
        touched = traps.contested()
        pool = [
            (key_of(s, r), r.value)
            for s in printed
            if not s.is_duplicate
            for r in s.results
            if r.value is not None and key_of(s, r) not in touched
        ]
        for key, value in rng.sample(pool, min(len(pool), round(rng.randint(2, 4) * traps.scale))):
            factor = rng.choice((0.6, 0.7, 0.8, 0.9, 1.1, 1.2, 1.3, 1.4))
            chosen[key] = _sig(value * factor)
    out = []
    for s in printed:
        results = [
            Measurement(r.analyte, chosen[key_of(s, r)], r.unit, r.rl, r.qualifier)
            if key_of(s, r) in chosen
            else r
            for r in s.results
        ]
        out.append(Sample(s.sample_id, s.location, s.depth, s.matrix, s.date, results, s.parent))
    return out


def _cap(text: str) -> str:
    return text[0].upper() + text[1:]


def trend_sentences(
    pen: Pen,
    st: OfficeStyle,
    campaign: Campaign,
    history: list[Campaign],
    traps: Traps,
    day: dt.date,
    water: list[Sample],
    values: dict[str, float | None],
) -> list[tuple[str, set[str]]]:
    """How the lead analyte changed in the wells since the first groundwater event: each sentence
    restates two results (an earlier one as the report copies it, and this event's)."""
    first = next((c for c in history if c.kind in ("phase-ii", "characterization")), None)
    if first is None:
        return []
    earlier = {
        s.location: s
        for s in samples_printed(first, traps, after=day)
        if s.matrix == "groundwater" and not s.is_duplicate
    }
    out = []
    for s in water:
        if s.is_duplicate or s.location not in earlier or len(out) >= 2:
            continue
        now, then = s.results[0], earlier[s.location].results[0]
        keys = (key_of(s, now), key_of(earlier[s.location], then))
        if now.value is None or then.value is None or any(k in traps.rejected for k in keys):
            continue
        trend = "decreased" if now.value < then.value else "increased"
        unit = unit_text(st, now.unit)
        where = loc_name(st, s.location)
        if pen.split == "dev":
            text = (
                f"{_cap(prose(now.analyte))} in {where} has {trend} from {number(then.value)} {unit} "
                f"({st.date(earlier[s.location].date)}) to {number(now.value)} {unit}."
            )
        else:
            text = (
                f"Since {st.date(earlier[s.location].date)}, {prose(now.analyte)} in {where} has {trend} "
                f"({number(then.value)} to {number(now.value)} {unit})."
            )
        facts = {result_fact(k) for k in keys}
        values[result_fact(keys[0])] = now.value
        values[result_fact(keys[1])] = then.value
        out.append((text, facts))
    return out


def elevation_table(pen: Pen, st: OfficeStyle, water: list[Sample], number_: int) -> Sheet:
    """Gauging data of the event: top of casing, depth to water, groundwater elevation."""
    sheet = Sheet(st, "report")
    sheet.text(f"Table {number_}. Groundwater Elevation Data", bold=True)
    sheet.gap(4)
    rows = []
    rng = make_random(pen.m.spec.seed, "gauging", water[0].date.isoformat())
    for s in water:
        if s.is_duplicate:
            continue
        p = pen.m.points[s.location]
        toc = 100.0 - p.distance * 0.02 + (0.8 if p.upgradient else 0.0)
        dtw = (p.water or 10.0) + rng.uniform(-1.2, 1.2)
        rows.append(
            [
                loc_name(st, s.location),
                st.date(s.date),
                f"{toc:.2f}",
                f"{dtw:.2f}",
                f"{toc - dtw:.2f}",
            ]
        )
    sheet.table(
        ["Well", "Date", "TOC elev. (ft)", "Depth to water (ft)", "GW elev. (ft)"],
        rows,
        [80, 110, 100, 110, 100],
        size=st.size - 1,
    )
    sheet.text("Elevations relative to an arbitrary site datum of 100.00 ft.", size=st.size - 2)
    return sheet


def review_letter(pen: Pen, report: Doc) -> Doc:
    """The agency's comments on a monitoring report."""
    m = pen.m
    ast = pen.agency_style()
    day = report.issued + dt.timedelta(days=pen.rng.randint(30, 75))
    comments = pen.rng.sample(REVIEW_COMMENTS, 2)
    sheets = letter_doc(
        pen,
        ast,
        kind="agency-letter",
        date=day,
        subject=f"Review of {report.title}, Case No. {m.case_number}",
        firm=(agency_name(m), f"{m.program}, 800 Capitol Way, {m.city}", "(555) 010-2000"),
        sender=(person(pen.rng), "Case Manager"),
        paragraphs=[
            f"The {m.agency} has reviewed the report dated {ast.date(report.issued)} and has the following "
            "comments.",
            *[f"{k}. {c}" for k, c in enumerate(comments, 1)],
            "Please address these comments in the next scheduled report.",
        ],
    )
    return Doc("agency-letter", "Agency Review Letter", day, [Part(sheets)], scannable=True)


REVIEW_COMMENTS = (
    "Include the laboratory's case narrative with every data package.",
    "Show the inferred groundwater flow direction on a figure for each event.",
    "Report non-detects at the reporting limit, not at the method detection limit.",
    "Compare the results with the screening levels in force on the date each sample was collected.",
    "Continue to gauge all wells for free product before purging.",
    "Provide the purge water disposal documentation.",
    "Evaluate whether the perimeter wells delineate the plume downgradient.",
)

TRANSCRIPTION_SHARE = 0.8  # of monitoring reports whose cumulative tables misprint 1-3 cells
VAPOR_CONC = (
    "Sub-slab vapor concentrations remain above the screening levels beneath the former machine area.",
    "Indoor air results will be reviewed with the occupants of the adjoining tenant space.",
    "The next round will be collected during the heating season.",
)

FILLER_CONC = (
    "Concentrations in the source-area wells continue to decline since the remedy began.",
    "The dissolved plume appears stable and is not migrating off site.",
    "We recommend reducing the sampling frequency in the perimeter wells.",
)


def cumulative_tables(
    pen: Pen,
    st: OfficeStyle,
    campaign: Campaign,
    history: list[Campaign],
    traps: Traps,
    day: dt.date,
    t_no: int,
    values: dict[str, float | None],
    *,
    draft: bool = False,
) -> list[Sheet]:
    """Historical results by well for every earlier groundwater event and this one, as the report
    prints them: corrected values once the fix is known, rejected results flagged R, and now and
    then a transcription error (the laboratory report settles it)."""
    events = [
        c for c in history + [campaign] if c.kind in ("phase-ii", "characterization", "monitoring")
    ]
    if len(events) < 2 or campaign.kind not in ("monitoring",):
        return []
    wells = sorted(
        {
            s.location
            for c in events
            for s in c.samples
            if s.matrix == "groundwater" and not s.is_duplicate
        },
        key=lambda p: int(p.split("-")[1]),
    )
    rng = make_random(pen.m.spec.seed, "cumulative", campaign.id)
    last = campaign is [c for c in pen.m.campaigns if c.kind == "monitoring"][-1]
    slips = _slips(rng, events, campaign, traps, last=last)
    sheets = []
    for well in wells:
        history_samples = []
        for c in events:
            rows = samples_printed(c, traps, after=day)
            if draft and c is campaign:
                rows = preliminary(pen, c, rows, traps)
            for s in rows:
                if s.location == well and s.matrix == "groundwater" and not s.is_duplicate:
                    history_samples.append(s)
        if not history_samples:
            continue
        analytes = [r.analyte for r in history_samples[0].results]
        per_page = 30
        for start in range(0, len(history_samples), per_page):
            chunk = history_samples[start : start + per_page]
            # short tables share a page, as report tables do
            height = (len(chunk) + 3) * (st.size - 0.5) * 1.7 + 60
            if sheets and sheets[-1].room(height):
                sheet = sheets.pop()
                sheet.gap(14)
            else:
                sheet = Sheet(st, "report")
            cont = " (continued)" if start else ""
            sheet.text(
                f"Table {t_no}. Historical Groundwater Analytical Results, {loc_name(st, well)}{cont}",
                bold=True,
            )
            units = ", ".join(
                f"{SHORT.get(r.analyte, r.analyte)} {unit_text(st, r.unit)}"
                for r in chunk[0].results
            )
            sheet.text(f"Units: {units}", size=st.size - 2)
            sheet.gap(4)
            table_rows = []
            level = standard_row(pen.m, chunk, analytes, day)
            if level is not None:
                table_rows.append([level[0], *level[1]])
            for s in chunk:
                row = [st.date(s.date)]
                for r in s.results:
                    key = key_of(s, r)
                    fact = result_fact(key)
                    value = r
                    if key in traps.rejected and day > traps.rejected_on[key]:
                        row.append(f"{number(r.value) if r.value is not None else 'ND'} R")
                        sheet.facts.add(fact)
                        values[fact] = r.value
                        continue
                    if key in slips:
                        wrong = _slip(rng, slips[key], r, history_samples, s)
                        value = Measurement(r.analyte, wrong, r.unit, r.rl, r.qualifier)
                        traps.transcription[(campaign.id, key)] = wrong
                    row.append(_cell(st, value))
                    sheet.facts.add(fact)
                    values[fact] = value.value
                table_rows.append(row)
            width = (PAGE_W - 2 * MARGIN - 90) / max(1, len(analytes))
            sheet.table(
                ["Date", *(SHORT.get(a, a) for a in analytes)],
                table_rows,
                [90, *([width] * len(analytes))],
                size=st.size - 1,
            )
            sheet.text(
                "R = rejected during data validation; not usable. "
                + (
                    f"{level[0]}: screening level in force at the date of this report."
                    if level
                    else ""
                ),
                size=st.size - 2,
            )
            sheets.append(sheet)
        t_no += 1
    return sheets


def _slips(
    rng: random.Random, events: list[Campaign], campaign: Campaign, traps: Traps, *, last: bool
) -> dict[Key, str]:
    """The cells of earlier detections a cumulative table misprints, and how: most reports
    misprint 1-3 times `scale` (digits swapped, a decimal point moved, another digit, or the value of the
    well's row above or below), half of them, where there are any, results whose laboratory
    report is filed as a scan (a reader who trusts the typed table over the scan is caught).
    Keys another trap touches are left alone (their printings tell their own story)."""
    touched = traps.contested()
    eligible = [
        (c.id in traps.scanned_labs, key_of(s, r))
        for c in events
        if c.start < campaign.start
        for s in c.samples
        if s.matrix == "groundwater" and not s.is_duplicate
        for r in s.results
        if r.value is not None and key_of(s, r) not in touched
    ]
    count = round(rng.randint(1, 3) * traps.scale) if rng.random() < TRANSCRIPTION_SHARE or last else 0
    out: dict[Key, str] = {}
    for _ in range(min(count, len(eligible))):
        scanned = [k for flag, k in eligible if flag and k not in out]
        typed = [k for flag, k in eligible if not flag and k not in out]
        pool = scanned if scanned and (rng.random() < 0.5 or not typed) else typed
        out[rng.choice(pool)] = rng.choice(("digits", "digits", "digits", "row"))
    return out


def _slip(
    rng: random.Random, form: str, r: Measurement, rows: list[Sample], at: Sample
) -> float:
    """The misprinted value: the digits garbled, or (`row`) the value of the same analyte in
    the row above or below (another date of the well), when that differs."""
    if form == "row":
        index = rows.index(at)
        for other in (rows[index - 1] if index else None, *rows[index + 1 : index + 2]):
            if other is None:
                continue
            theirs = next((x for x in other.results if x.analyte == r.analyte), None)
            if theirs is not None and theirs.value is not None and abs(theirs.value - r.value) > 0.02 * r.value:
                return theirs.value
    return _misprint(rng, r.value)


def _cell(st: OfficeStyle, m: Measurement) -> str:
    from .papers import shown

    return shown(st, m)


def revised_lab(pen: Pen, campaign: Campaign, traps: Traps) -> Doc:
    day = traps.revised_on[campaign.id]
    part = lab_part(pen, campaign, traps, revision=1)
    part.role = "lab-revised"
    return Doc("lab-report", "Revised Laboratory Report", day, [part], campaign=campaign.id)


def correction_letter(
    pen: Pen, campaign: Campaign, day: dt.date, keys: tuple[Key, ...], traps: Traps
) -> Doc:
    """The laboratory's letter correcting `keys` of one job (each misreported without its
    dilution factor); every other result of the report stands."""
    m = pen.m
    lab = campaign.lab
    st = style(STYLES_BY_SPLIT[pen.split][(pen.rng.randrange(3))])
    lines, facts, values = [], [], {}
    for key in keys:
        truth, wrong = m.truth[key], traps.corrected[key]
        sample = next(
            s
            for s in campaign.samples
            if not s.is_duplicate and any(key_of(s, r) == key for r in s.results)
        )
        fact = result_fact(key)
        lines.append(
            f"Sample {sample.sample_id} ({loc_name(st, key[0])}), collected "
            f"{st.date(dt.date.fromisoformat(key[2]))}: {key[3]} was reported as "
            f"{number(wrong.value)} {unit_text(st, truth.unit)}; the correct result is "
            f"{number(truth.value)} {unit_text(st, truth.unit)} (reporting limit {truth.rl:g})."
        )
        facts.append({fact})
        values[fact] = truth.value
    sheets = letter_doc(
        pen,
        st,
        kind="correction-letter",
        date=day,
        subject=f"Correction to Laboratory Report, {m.name}, samples received {st.date(campaign.start)}",
        firm=(lab, "1200 Analytical Drive, Suite 4", "(555) 010-7700"),
        sender=(person(pen.rng), "Quality Assurance Manager"),
        paragraphs=[
            f"During a routine review of our report for the samples collected on {st.date(campaign.start)}, "
            f"we found that a dilution factor was not applied to {len(keys)} results. The corrected results "
            "are given below; every other result of the report is unchanged.",
            *lines,
            "Please replace these results in your records. We regret any inconvenience this may have caused.",
        ],
        facts=[set(), *facts, set()],
    )
    return Doc(
        "correction-letter",
        "Laboratory Correction Letter",
        day,
        [Part(sheets, role="correction", values=values)],
    )


def validation_memo(
    pen: Pen, campaign: Campaign, day: dt.date, analyte: str, traps: Traps
) -> Doc:
    """The consultant's data validation memo rejecting one analyte of one event."""
    m = pen.m
    keys = sorted(
        key_of(s, r)
        for s in campaign.samples
        if not s.is_duplicate
        for r in s.results
        if r.analyte == analyte and key_of(s, r) in traps.rejected - traps.lab_rejected
    )
    st = pen.office(day)
    wells = ", ".join(loc_name(st, k[0]) + (f" ({k[1]} ft)" if k[1] != "-" else "") for k in keys)
    sheets = letter_doc(
        pen,
        st,
        kind="memo",
        date=day,
        subject=f"Data Validation Summary, {campaign.label} Sampling Event, {m.name}",
        to=(person(pen.rng), m.agency),
        paragraphs=[
            f"The analytical data of the {campaign.label} event (samples collected {st.date(campaign.start)}) were "
            "validated in general accordance with the EPA National Functional Guidelines.",
            f"The {analyte} results for samples {wells} are rejected (R): the samples were analyzed "
            f"{pen.rng.randint(3, 9)} days past the method holding time. These results are not usable and are "
            "excluded from the site data set.",
            "All other results are usable as reported, with the qualifiers assigned by the laboratory.",
            *pen.filler(1),
        ],
    )
    return Doc("memo", "Data Validation Memorandum", day, [Part(sheets)])


def remedy_papers(pen: Pen, traps: Traps) -> list[Doc]:
    m = pen.m
    docs = []
    # corrective action plan, draft then final, and the agency's approval
    for draft in (True, False):
        day = m.cap - dt.timedelta(days=pen.rng.randint(20, 40)) if draft else m.cap
        st = pen.office(day)
        title = pen.doc_title("cap")
        facts = set() if draft else {f"event|corrective-action-plan|-|{day.isoformat()}"}
        sections = [
            (
                "Introduction",
                [
                    (
                        f"This Corrective Action Plan proposes {m.remedy} to address the release at {m.name} "
                        f"({m.agency} Case No. {m.case_number}).",
                        _cond(m, "release"),
                    )
                ],
            ),
            (
                "Remedial Objectives",
                [(governing_rule(m), set()), *[(t, set()) for t in pen.filler(2)]],
            ),
            (
                "Evaluation of Alternatives",
                [
                    (t, set())
                    for t in (
                        "Alternatives evaluated included monitored natural attenuation, excavation, soil vapor extraction "
                        "and in-situ treatment.",
                        *pen.filler(3),
                    )
                ],
            ),
            (
                "Proposed Remedy and Schedule",
                [
                    (
                        f"The recommended remedy is {m.remedy}, to begin within 90 days of "
                        "the agency's approval.",
                        set(),
                    ),
                    *[(t, set()) for t in pen.filler(2)],
                ],
            ),
        ]
        body = text_pages(pen, st, title, sections)
        sheets = finish(
            [
                title_page(pen, st, title, day, draft=draft, facts=facts),
                *body,
                site_plan(pen, st, 1, day),
            ]
        )
        docs.append(Doc("cap", title, day, [Part(sheets)], draft=draft))
        if draft:
            traps.drafts += 1
    ast = pen.agency_style()
    approve = m.cap + dt.timedelta(days=pen.rng.randint(30, 60))
    docs.append(
        Doc(
            "agency-letter",
            "CAP Approval",
            approve,
            [
                Part(
                    letter_doc(
                        pen,
                        ast,
                        kind="agency-letter",
                        date=approve,
                        subject=f"Approval of Corrective Action Plan, Case No. {m.case_number}",
                        firm=(
                            agency_name(m),
                            f"{m.program}, 800 Capitol Way, {m.city}",
                            "(555) 010-2000",
                        ),
                        sender=(person(pen.rng), "Case Manager"),
                        paragraphs=[
                            f"The {m.agency} has reviewed the Corrective Action Plan dated {ast.date(m.cap)} and approves it "
                            "with the following conditions.",
                            governing_rule(m),
                            "Progress reports shall be submitted with each monitoring report.",
                        ],
                    )
                )
            ],
        )
    )
    # start-up and completion
    st = pen.office(m.remedy_start)
    day = m.remedy_start + dt.timedelta(days=pen.rng.randint(20, 40))
    fact = f"event|remediation-began|-|{m.remedy_start.isoformat()}"
    docs.append(
        Doc(
            "letter",
            "Remediation Start-up",
            day,
            [
                Part(
                    letter_doc(
                        pen,
                        st,
                        kind="letter",
                        date=day,
                        subject=f"Remedial System Start-up, {m.name}",
                        to=(person(pen.rng), m.agency),
                        paragraphs=[
                            pen.say("remedy-began", remedy=m.remedy, date=st.date(m.remedy_start)),
                            *pen.filler(3),
                        ],
                        facts=[{fact}, set(), set(), set()],
                    )
                )
            ],
        )
    )
    if m.remedy_end is not None:
        st = pen.office(m.remedy_end)
        day = m.remedy_end + dt.timedelta(days=pen.rng.randint(30, 60))
        fact = f"event|remediation-ended|-|{m.remedy_end.isoformat()}"
        title = pen.doc_title("completion")
        sections = [
            (
                "Summary",
                [
                    (pen.say("remedy-ended", remedy=m.remedy, date=st.date(m.remedy_end)), {fact}),
                    *[(t, set()) for t in pen.filler(4)],
                ],
            )
        ]
        sheets = finish(
            [title_page(pen, st, title, day, draft=False), *text_pages(pen, st, title, sections)]
        )
        docs.append(Doc("report", title, day, [Part(sheets)]))
    return docs


def ceased_letter(pen: Pen) -> Doc:
    m = pen.m
    day = m.closed + dt.timedelta(days=pen.rng.randint(20, 60))
    st = pen.office(day)
    fact = f"event|operations-ceased|-|{m.closed:%Y-%m}"
    sheets = letter_doc(
        pen,
        st,
        kind="letter",
        date=day,
        subject=f"Facility Status, {m.business}",
        to=(person(pen.rng), m.agency),
        paragraphs=[
            f"{m.operator} informs the {m.agency} that {m.business} ceased operations in "
            f"{m.closed:%B %Y}. Product was removed from the tanks and the dispensers were "
            "locked out.",
            "The monitoring program will continue as approved.",
        ],
        facts=[{fact}, set()],
    )
    return Doc("letter", "Notice of Closure of Operations", day, [Part(sheets)], scannable=True)


def nfa_letter(pen: Pen) -> Doc:
    m = pen.m
    ast = pen.agency_style()
    day = m.nfa
    fact = f"event|no-further-action|-|{day.isoformat()}"
    conds = {f"condition|{c.kind}" for c in m.conditions if c.cls in ("CREC", "HREC")}
    sheets = letter_doc(
        pen,
        ast,
        kind="agency-letter",
        date=day,
        subject=f"No Further Action Determination ({m.nfa_scope}), Case No. {m.case_number}",
        firm=(agency_name(m), f"{m.program}, 800 Capitol Way, {m.city}", "(555) 010-2000"),
        sender=(person(pen.rng), "Program Manager"),
        paragraphs=[
            f"Based on the information submitted, the {m.agency} has determined that no further action is required "
            f"for {m.nfa_scope} at the site. This determination is effective {ast.date(day)}.",
            "This determination is conditioned on the activity and use limitations of the environmental covenant to "
            "be recorded for the property and on the continued operation of the engineering controls described in "
            "the approved plans."
            if m.covenant
            else "Groundwater monitoring shall continue under the approved schedule; this letter does not close the case "
            "for groundwater.",
            "The agency may reopen the case if new information shows that the conditions at the site pose a risk "
            "to human health or the environment.",
        ],
        facts=[{fact, *conds}, conds, set()],
    )
    return Doc("agency-letter", "No Further Action Letter", day, [Part(sheets)], scannable=True)


# The loose paper of each kind of site, in the order a file repeats it.
LOOSE = {
    "station": ("invoice", "transmittal", "invoice", "fax", "certificate", "product-gauging"),
    "bulk-plant": ("invoice", "spcc-inspection", "transmittal", "manifest", "invoice", "fax"),
    "dry-cleaner": ("invoice", "manifest", "ssd-inspection", "transmittal", "invoice", "fax"),
    "auto-repair": ("invoice", "transmittal", "manifest", "invoice", "fax", "certificate"),
    "plating-shop": ("invoice", "manifest", "transmittal", "invoice", "certificate", "fax"),
}


def form_doc(pen: Pen, day: dt.date, which: str) -> Doc:
    """The site-specific one-page forms: an SPCC monthly tank inspection, a hazardous waste
    manifest (F002 spent solvent for a dry cleaner), an SSD system O&M checklist, a free-product
    gauging log."""
    m = pen.m
    st = pen.office(day)
    sheet = Sheet(st, which)
    rng = pen.rng
    if which == "spcc-inspection":
        sheet.text(
            "SPCC MONTHLY INSPECTION CHECKLIST - ABOVEGROUND STORAGE TANKS",
            bold=True,
            align="center",
        )
        sheet.text(f"Facility: {m.business}, {m.address}    Month: {day:%B %Y}", align="center")
        sheet.gap(8)
        rows = []
        for t in [t for t in m.tanks if t.kind == "AST"] or m.tanks:
            for item in (
                "Tank shell: leaks, corrosion",
                "Secondary containment: cracks, water",
                "Valves and piping",
                "Level gauge / overfill alarm",
            ):
                rows.append(
                    [
                        t.id,
                        item,
                        rng.choice(
                            (
                                "OK",
                                "OK",
                                "OK",
                                "Rain water in berm - drained",
                                "Weep at flange - tightened",
                            )
                        ),
                    ]
                )
        sheet.table(
            ["Tank", "Item inspected", "Condition / action"],
            rows[:30],
            [60, 220, 210],
            size=st.size - 1,
        )
        sheet.text(
            f"Loading rack drip pans emptied: {rng.choice(('yes', 'yes', 'n/a'))}.  Inspector: {person(rng)}"
        )
        sheet.text("Records retained for three years per 40 CFR 112.7(e).", size=st.size - 1)
    elif which == "manifest":
        waste = {
            "dry-cleaner": (
                "F002",
                "Waste tetrachloroethylene, 6.1, UN1897, PG III (spent dry-cleaning solvent "
                "and still bottoms)",
            ),
            "plating-shop": (
                "F006",
                "Wastewater treatment sludge from electroplating (chromium, cadmium)",
            ),
            "auto-repair": ("D001", "Waste petroleum naphtha and spent parts-washer solvent"),
            "bulk-plant": (
                "NON-HAZ",
                "Petroleum-contaminated water and tank bottoms, non-regulated",
            ),
        }[m.spec.archetype]
        sheet.box(MARGIN - 10, 40, PAGE_W - 2 * MARGIN + 20, 560, width=1.4)
        sheet.y = 50
        sheet.text(
            "UNIFORM HAZARDOUS WASTE MANIFEST"
            if waste[0] != "NON-HAZ"
            else "NON-HAZARDOUS WASTE MANIFEST",
            size=st.size + 3,
            bold=True,
            align="center",
        )
        sheet.text("Form Approved. OMB No. 2050-0039", size=st.size - 2, align="center")
        sheet.gap(8)
        for label, value in (
            ("1. Generator ID Number", f"FRD{rng.randint(100000000, 999999999)}"),
            ("4. Manifest Tracking Number", f"{rng.randint(10000000, 99999999)} JJK"),
            ("5. Generator's Name and Site Address", f"{m.client_on(day)}, {m.address}"),
            (
                "6. Transporter 1 Company Name",
                rng.choice(("Cascade Waste Transport", "Safe-Haul Environmental")),
            ),
            (
                "8. Designated Facility",
                rng.choice(("Clean Harbors Recycling Center", "Heritage Solvents TSDF")),
            ),
            ("9b. U.S. DOT Description", waste[1]),
            ("11. Total Quantity", f"{rng.randint(2, 55) * 5} {rng.choice(('gallons', 'pounds'))}"),
            ("13. Waste Codes", waste[0]),
        ):
            sheet.text(label, bold=True, size=st.size - 1)
            sheet.text(value, x=MARGIN + 20)
        sheet.gap(10)
        sheet.para(
            "15. GENERATOR'S/OFFEROR'S CERTIFICATION: I hereby declare that the contents of this consignment "
            "are fully and accurately described above by the proper shipping name, and are classified, "
            "packaged, marked and labeled/placarded.",
            size=st.size - 1,
        )
        sheet.text(
            f"Printed name: {person(rng)}     Signature: __________     Date: {st.date(day)}"
        )
    elif which == "ssd-inspection":
        sheet.text("SUB-SLAB DEPRESSURIZATION SYSTEM - O&M INSPECTION", bold=True, align="center")
        sheet.text(f"{m.name}, {m.address}    Inspection date: {st.date(day)}", align="center")
        sheet.gap(8)
        rows = [
            [
                f"VP-{k}",
                f"-{rng.uniform(0.02, 0.35):.3f}",
                rng.choice(("OK", "OK", "OK", "Low - adjusted")),
            ]
            for k in range(1, 7)
        ]
        sheet.table(
            ["Monitoring point", "Vacuum (in. w.c.)", "Remarks"],
            rows,
            [140, 140, 180],
            size=st.size - 1,
        )
        sheet.text(
            f"Fan: {rng.choice(('RP-265', 'GP-501', 'HP-220'))}   Manometer at riser: "
            f"{rng.uniform(0.8, 2.6):.2f} in. w.c.   Alarm tested: yes"
        )
        sheet.text(
            f"Technician: {person(rng)}. Next inspection due in 3 months under the O&M plan."
        )
    else:  # product-gauging
        sheet.text("FREE PRODUCT GAUGING AND RECOVERY LOG", bold=True, align="center")
        sheet.text(f"{m.name}    Date: {st.date(day)}", align="center")
        sheet.gap(8)
        rows = []
        for k in range(1, 5):
            dtw = rng.uniform(7, 12)
            thickness = rng.choice((0.0, 0.0, 0.0, 0.01, 0.12, 0.35)) if k != 3 else 0.0
            if thickness:
                rows.append(
                    [
                        loc_name(st, f"MW-{k}"),
                        f"{dtw - thickness:.2f}",
                        f"{dtw:.2f}",
                        "sheen" if thickness < 0.05 else f"{thickness * 0.6:.2f} gal bailed",
                    ]
                )
            else:
                rows.append([loc_name(st, f"MW-{k}"), "--", f"{dtw:.2f}", "none (no product)"])
        sheet.table(
            ["Well", "Depth to product (ft)", "Depth to water (ft)", "Recovered"],
            rows,
            [90, 130, 130, 140],
            size=st.size - 1,
        )
        sheet.text(f"Absorbent socks replaced in {loc_name(st, 'MW-1')}. Technician: {person(rng)}")
    return Doc(
        which,
        which.replace("-", " ").title(),
        day,
        [Part(finish([sheet], mark=""))],
        scannable=True,
        filler=True,
    )


def filler_doc(pen: Pen, day: dt.date, which: str) -> Doc:
    """A one-page document most of a file is made of: an invoice, a transmittal, a fax cover, a
    disposal certificate (the locate package's kinds)."""
    if which in ("spcc-inspection", "manifest", "ssd-inspection", "product-gauging"):
        return form_doc(pen, day, which)
    st = pen.office(day)
    site = shim(pen, day)
    if which == "invoice":
        inv = sitekinds.Invoice(
            pen.rng.choice(
                (
                    "Ridgeline Drilling Co.",
                    "Delta Pump & Well Service",
                    st.firm,
                    "Cascade Waste Transport",
                )
            ),
            f"{pen.rng.randint(10000, 99999)}",
            day,
            [
                (
                    pen.rng.choice(
                        (
                            "Groundwater sampling, labor",
                            "Field vehicle",
                            "Purge water disposal",
                            "Report preparation",
                            "Laboratory analysis",
                            "Project management",
                        )
                    ),
                    pen.rng.randint(150, 4800) * 100,
                )
                for _ in range(pen.rng.randint(2, 6))
            ],
        )
        sheets = sitekinds.invoice(pen.rng, st, pen.split, site, inv)
    elif which == "transmittal":
        sheets = sitekinds.transmittal(
            pen.rng,
            st,
            pen.split,
            site,
            date=day,
            items=[
                pen.rng.choice(
                    (
                        "Monitoring report (2 copies)",
                        "Laboratory data package",
                        "Field notes",
                        "Waste manifests",
                        "Site plan, revised",
                    )
                )
            ],
        )
    elif which == "fax":
        sheets = sitekinds.fax_cover(
            pen.rng, st, pen.split, site, pages=pen.rng.randint(2, 9), date=day
        )
    else:
        sheets = sitekinds.certificate(pen.rng, st, pen.split, site)
    return Doc(which, which.title(), day, [Part(sheets)], scannable=True, filler=True)
