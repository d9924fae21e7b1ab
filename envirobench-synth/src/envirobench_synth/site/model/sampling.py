"""Sampling a site model (`sample_model`): owners and transfers, the business and its tanks, the
release, the sampling campaigns and their results along a plume, the remedy and the closure.

Length: one seeded draw, read top to bottom in the order a site's history happens (the draws'
order is what makes a record regenerate byte for byte, so it is not split across modules); the
regulatory path of each archetype is a few lines of it.
"""

from __future__ import annotations

import datetime as dt
import functools
import math
import random
from dataclasses import dataclass

from ... import catalogue
from ...legal import families
from ...locate.sitepages import STYLES_BY_SPLIT
from ...rng import make_random
from .archetypes import (
    _AIR,
    _BACKGROUND,
    _GW,
    _SOIL,
    ANALYTE_BY_NAME,
    ARCHETYPES,
    CITIES,
    CONTACTS,
    OWNER_NAMES,
    PLACE_NAMES,
    STREETS,
    Archetype,
    _day,
    measure,
    three_figures,
)
from .records import (
    Campaign,
    Condition,
    Happening,
    Measurement,
    Owner,
    Point,
    Sample,
    SiteModel,
    Tank,
    key_of,
)
from .specs import SPECS, SiteSpec


def _concentration(
    site: _Draft, analyte: str, matrix: str, point: Point, day: dt.date, depth: str | None
) -> float:
    arch = site.arch
    if point.upgradient:
        background = _BACKGROUND.get(analyte)
        if background is None:
            return 0.0
        return background[0] if matrix == "groundwater" else background[1]
    spread = {"groundwater": 55.0, "soil": 30.0}.get(matrix, 40.0)
    near = math.exp(-point.distance / spread)
    if matrix == "groundwater":
        source = _GW.get(analyte, 0.0)
    elif matrix == "soil":
        source = _SOIL.get(analyte, 0.0)
        if depth is not None:
            top = float(depth.split("-")[0])
            # petroleum and solvents sit near the water table; metals and PCBs near the surface
            group = ANALYTE_BY_NAME[analyte].group
            shallow = group in ("metal", "pcb", "pah")
            near *= math.exp(-top / 6.0) if shallow else min(1.0, 0.25 + top / 12.0)
    else:
        source = _AIR.get(analyte, 0.0)
        near *= {"soil-vapor": 1.0, "sub-slab-vapor": 0.35, "indoor-air": 0.0009}[matrix]
    background = _BACKGROUND.get(analyte)
    if background is not None:
        floor = background[0] if matrix == "groundwater" else background[1]
    else:
        floor = 0.0
    # time: the remedy takes the plume down (half-life ~1.6 years) to a tenth of its start
    years = (day - site.remedy_start).days / 365.25
    decline = 1.0 if years <= 0 else max(0.08, 0.5 ** (years / 1.6))
    if matrix != "soil" and analyte in _DAUGHTERS:
        # chlorinated ethenes degrade: daughters grow as the parent declines
        age = max(0.0, (day - site.release_found).days / 365.25)
        decline = min(1.0, 0.25 + age / _DAUGHTERS[analyte]) * (decline**0.6)
    if (
        arch.name in ("bulk-plant", "rail-yard", "ag-chem-dealer")
        and analyte in ("Arsenic", "Lead")
        and matrix == "soil"
    ):
        decline = 1.0  # tie and herbicide metals stay put
    return floor + source * near * decline * site.point_strength.get(point.id, 1.0)


_DAUGHTERS = {"Trichloroethene": 6.0, "cis-1,2-Dichloroethene": 9.0, "Vinyl chloride": 14.0}

# The many-sites split's kinds: which close their business, and their regulatory paths (the NFA
# after the remedy ends, or after it starts; its scope; with a covenant or not; None: the case
# stays open).
CLOSED_MANY = ("ag-chem-dealer", "former-mgp", "rail-yard", "machine-shop", "paint-manufacturer")
PATHS_MANY: dict[str, tuple[str | None, str | None, bool]] = {
    "ag-chem-dealer": ("remedy", "soil at the former mixing pad and tank loading area, with a cap", True),
    "former-mgp": ("remedy", "MGP-affected fill beneath the soil cap and the tar separator area", True),
    "landfill-adjacent": ("remedy", "the on-site debris fill (the landfill plume excluded)", False),
    "rail-yard": ("remedy", "the fueling rack and the yard tracks, industrial use only", True),
    "machine-shop": ("remedy", "solvent-affected soil and groundwater, and the closed dry well", True),
    "paint-manufacturer": ("remedy", "the tank farm, drum yard and heating-oil tank areas", True),
    "truck-stop": (None, None, False),
    "boatyard": ("remedy", "the fuel dock release and the capped boat storage yard", True),
}


@dataclass
class _Draft:
    arch: Archetype
    remedy_start: dt.date
    release_found: dt.date
    point_strength: dict[str, float]


def _names_taken(spec: SiteSpec) -> set[str]:
    """The business names of the shipped sites of the same split and kind listed before `spec`
    (none for a site not in SPECS): a site's name never repeats another's in its split."""
    earlier = []
    for other in SPECS.values():
        if other.site_id == spec.site_id:
            break
        if other.shipped == spec.shipped and other.archetype == spec.archetype:
            earlier.append(other)
    else:
        return set()
    return {_business_name(other) for other in earlier}


@functools.cache
def _business_name(spec: SiteSpec) -> str:
    return sample_model(spec).business


def sample_model(spec: SiteSpec, events: int | None = None) -> SiteModel:
    """The site model of `spec`, drawn from its seed; `events` caps the monitoring rounds (the
    record fits its page count by taking fewer)."""
    rng = make_random(spec.seed, "site-model", spec.site_id)
    arch = ARCHETYPES[spec.archetype]
    scale = spec.pages / 275.0
    city, county = rng.choice(CITIES)
    # the county whose recorder stamps the site's instruments (legalink picks the same style)
    recorder = families.recorder(families.SPLITS[spec.split][1][spec.seed % 3])
    county = recorder.county
    city = f"{county} {rng.choice(('Falls', 'Junction', 'Springs', 'Landing'))}"
    street = rng.choice(STREETS)
    address = f"{rng.randrange(100, 4800)} {street}, {city}"
    apn = f"{rng.randint(10, 99)}-{rng.randint(100, 999)}-{rng.randint(10, 99)}-{rng.randint(100, 999)}"
    state_tables = {**arch.standards, **dict(spec.standards)}["groundwater"].startswith("franklin")
    agency = (
        "Franklin Department of Environmental Quality"
        if state_tables
        else rng.choice(
            ("State Department of Ecology", "State Department of Environmental Protection")
        )
    )
    program = {
        "dry-cleaner": "Drycleaner Environmental Response Program",
        "station": "Leaking Underground Storage Tank Program",
        "former-station": "Leaking Underground Storage Tank Program",
        "auto-repair": "Voluntary Cleanup Program",
        "fleet-garage": "Leaking Underground Storage Tank Program",
        "truck-stop": "Leaking Underground Storage Tank Program",
        "boatyard": "Leaking Underground Storage Tank Program",
    }.get(arch.name, "Voluntary Cleanup Program")
    prefix = {"Drycleaner Environmental Response Program": "DERP"}.get(program, "")
    prefix = prefix or ("LUST" if "Tank" in program else "VCP")
    case_number = f"{prefix}-{spec.release_year % 100:02d}-{rng.randint(1000, 9999)}"

    # ownership over decades: each transfer a recorded deed
    years = sorted(rng.sample(range(1952, 2012), 4))
    names = rng.sample(OWNER_NAMES, 4)
    owners = []
    for year, name in zip(years, names, strict=False):
        signed = _day(rng, year)
        recorded = dt.datetime.combine(
            signed + dt.timedelta(days=rng.randint(2, 30)),
            dt.time(rng.randint(8, 16), rng.randint(0, 59)),
        )
        owners.append(Owner(name, recorded, signed))
    opened = dt.date(
        min(years[0] + rng.randint(1, 6), spec.release_year - 22), rng.randint(1, 12), 1
    )
    place = rng.choice(PLACE_NAMES)
    business = rng.choice(arch.business).format(
        n=rng.randint(11, 399), name=place, owner=names[0].split()[0]
    )
    taken = _names_taken(spec)
    while business in taken:
        # another site of the same kind in the split has this name: two "Former Greywater Rail
        # Yard"s told apart only by their street (issue 33); draw another place for this one
        place = rng.choice([p for p in PLACE_NAMES if p != place])
        business = rng.choice(arch.business).format(
            n=rng.randint(11, 399), name=place, owner=names[0].split()[0]
        )
    operator = rng.choice(
        ("Redfern Petroleum Company", "Cedar Point Terminals, Inc.", f"{place} Enterprises, Inc.")
    )

    tanks = []
    for index, (kind, contents, gallons) in enumerate(arch.tanks, 1):
        installed = _day(rng, min(opened.year + rng.randint(0, 14), spec.release_year - 6))
        tid = f"{'AST' if kind == 'AST' else 'T'}-{index}"
        tanks.append(
            Tank(
                tid,
                kind,
                contents,
                gallons,
                rng.choice(("bare steel", "fiberglass", "steel")),
                installed,
            )
        )
    release_found = _day(rng, spec.release_year)
    for tank in tanks:
        if tank.kind == "UST":
            tank.removed = release_found + dt.timedelta(days=rng.randint(-20, -2))
    closed = None
    if arch.name in (
        "station",
        "bulk-plant",
        "plating-shop",
        "fleet-garage",
        "printing-plant",
        *CLOSED_MANY,
    ):
        closed = dt.date(release_found.year + rng.randint(2, 6), rng.randint(1, 12), 1)
    for tank in tanks:
        if tank.kind == "AST" and closed is not None:
            tank.removed = closed + dt.timedelta(days=rng.randint(30, 200))

    phase_ii = release_found + dt.timedelta(days=rng.randint(120, 300))
    remedy_start = phase_ii + dt.timedelta(days=rng.randint(500, 900))
    cap = remedy_start - dt.timedelta(days=rng.randint(100, 200))
    remedy_end = remedy_start + dt.timedelta(days=rng.randint(700, 1800))
    if arch.name == "dry-cleaner":
        remedy_end = None  # the SSD system keeps running under O&M
    draft = _Draft(arch, remedy_start, release_found, {})

    # sampling points
    points: dict[str, Point] = {}

    def add(prefix: str, n: int, distance: float, installed: dt.date, **kw) -> Point:
        p = Point(f"{prefix}-{n}", prefix, n, distance, installed, **kw)
        points[p.id] = p
        draft.point_strength[p.id] = rng.lognormvariate(0.0, 0.3)
        return p

    n_wells_first = 3
    n_wells_more = 1 if spec.compact else max(2, round(3 * scale))
    wells = []
    for n in range(1, n_wells_first + n_wells_more + 1):
        first = n <= n_wells_first
        installed = (
            phase_ii - dt.timedelta(days=rng.randint(5, 20))
            if first
            else (phase_ii + dt.timedelta(days=rng.randint(150, 260)))
        )
        distance = 8.0 if n == 1 else rng.uniform(25, 170)
        wells.append(
            add(
                "MW",
                n,
                distance,
                installed,
                total_depth=float(rng.randrange(18, 34)),
                water=round(rng.uniform(7, 14), 1),
                upgradient=(n == n_wells_first),
            )
        )
    borings = [
        add(
            "SB",
            n,
            rng.uniform(5, 120),
            phase_ii - dt.timedelta(days=rng.randint(5, 20)),
            total_depth=float(rng.randrange(12, 26)),
        )
        for n in range(1, (2 if spec.compact else max(3, round(4 * scale))) + 1)
    ]
    pits = [
        add("TP", n, rng.uniform(2, 20), release_found) for n in range(1, 3 if spec.compact else 4)
    ]
    vapor = []
    if arch.air:
        for n in range(1, max(3, round(3 * scale)) + 1):
            vapor.append(add("SV", n, rng.uniform(10, 90), phase_ii + dt.timedelta(days=40)))
        for n in range(1, 4):
            vapor.append(add("SS", n, rng.uniform(5, 60), phase_ii + dt.timedelta(days=300)))
        for n in range(1, 4):
            vapor.append(add("IA", n, rng.uniform(5, 60), phase_ii + dt.timedelta(days=300)))

    labs = list(catalogue.LABORATORIES)
    lab = rng.choice(labs)
    campaigns: list[Campaign] = []

    def sample_round(
        cid: str, kind: str, label: str, start: dt.date, plan: list[tuple[Point, str | None, str]]
    ) -> Campaign:
        samples = []
        for k, (point, depth, matrix) in enumerate(plan):
            day = start + dt.timedelta(days=k // 6)
            names = (
                arch.gw if matrix == "groundwater" else arch.soil if matrix == "soil" else arch.air
            )
            results = []
            mrng = make_random(spec.seed, "measure", cid, point.id, depth or "-", matrix)
            for analyte in names:
                truth = _concentration(draft, analyte, matrix, point, day, depth)
                results.append(measure(mrng, analyte, matrix, truth))
            sid = _sample_id(point, depth, day, rng)
            samples.append(Sample(sid, point.id, depth, matrix, day, results))
        # a blind field duplicate of one water sample
        water = [s for s in samples if s.matrix == "groundwater"]
        if water and kind in ("monitoring", "characterization", "phase-ii"):
            parent = rng.choice(water)
            drng = make_random(spec.seed, "duplicate", cid)
            results = [
                Measurement(
                    m.analyte,
                    None if m.value is None else three_figures(m.value * drng.uniform(0.85, 1.15)),
                    m.unit,
                    m.rl,
                    m.qualifier,
                )
                for m in parent.results
            ]
            samples.append(
                Sample(
                    "DUP-1",
                    "DUP-1",
                    None,
                    "groundwater",
                    parent.date,
                    results,
                    parent=parent.location,
                )
            )
        last = max(s.date for s in samples)
        campaign = Campaign(
            cid, kind, label, start, samples, lab, last + dt.timedelta(days=rng.randint(8, 16))
        )
        campaigns.append(campaign)
        return campaign

    # tank-pit samples at the UST removal
    pit_day = min(t.removed for t in tanks if t.removed and t.kind == "UST")
    sample_round(
        "tank-closure",
        "tank-closure",
        "Tank Closure",
        pit_day,
        [(p, rng.choice(("8-9", "10-11", "11-12")), "soil") for p in pits],
    )
    # Phase II: borings at two depths, first wells
    plan = []
    for b in borings:
        for depth in rng.sample(("0-2", "4-6", "9-11", "14-16"), 2):
            plan.append((b, depth, "soil"))
    plan.sort(key=lambda item: (item[0].number, float(item[1].split("-")[0])))
    plan += [(w, None, "groundwater") for w in wells[:n_wells_first]]
    if arch.air:
        plan += [(p, None, "soil-vapor") for p in vapor if p.prefix == "SV"]
    sample_round("phase-ii", "phase-ii", "Phase II", phase_ii - dt.timedelta(days=30), plan)
    # characterization: the new wells and all wells
    char_day = wells[-1].installed + dt.timedelta(days=14)
    sample_round(
        "characterization",
        "characterization",
        "Site Characterization",
        char_day,
        [(w, None, "groundwater") for w in wells],
    )
    # monitoring: quarterly for two years, semiannual for three, then annual to as_of; when the
    # record holds fewer reports than that (its page count), the file keeps the first rounds and
    # then rounds spread over the years (a real file has gaps)
    if events is None:
        events = 2 if spec.compact else max(4, round(10 * scale))
    schedule: list[tuple[dt.date, str, int]] = []
    day = char_day + dt.timedelta(days=92)
    while day <= spec.as_of - dt.timedelta(days=60):
        n = len(schedule)
        q = (day.month - 1) // 3 + 1
        if n >= 14:
            label = f"{day.year}"
        elif n >= 8:
            label = f"{'First' if day.month <= 6 else 'Second'} Half {day.year}"
        else:
            label = f"{('First', 'Second', 'Third', 'Fourth')[q - 1]} Quarter {day.year}"
        schedule.append((day, label, n))
        step = 91 if n + 1 < 8 else 182 if n + 1 < 14 else 365
        day = day + dt.timedelta(days=step + rng.randint(-9, 9))
    if len(schedule) > events:
        # a small record keeps its first round and its last
        keep = 1 if spec.compact else min(3, events)
        rest = schedule[keep:]
        wanted = events - keep
        picks = [round((k + 1) * (len(rest) - 1) / wanted) for k in range(wanted)]
        schedule = schedule[:keep] + [rest[i] for i in sorted(set(picks))]
    for day, label, n in schedule:
        active = [w for w in wells if w.installed < day]
        if n >= 14:
            # the reduced annual program: no upgradient well, no far perimeter wells
            active = [w for w in active if not w.upgradient and w.distance < 140] or active
        sample_round(
            f"monitoring-{day:%Y%m}",
            "monitoring",
            label,
            day,
            [(w, None, "groundwater") for w in active],
        )
    if arch.air:
        vapor_rounds = max(2, round(2.2 * scale))
        vday = remedy_start - dt.timedelta(days=200)
        for k in range(vapor_rounds):
            plan = [
                (
                    p,
                    None,
                    {"SV": "soil-vapor", "SS": "sub-slab-vapor", "IA": "indoor-air"}[p.prefix],
                )
                for p in vapor
                if p.installed < vday
            ]
            sample_round(
                f"vapor-{vday:%Y%m}", "vapor", f"Vapor Intrusion Round {k + 1}", vday, plan
            )
            vday = vday + dt.timedelta(days=rng.randint(300, 420))
            if vday > spec.as_of - dt.timedelta(days=60):
                break
    campaigns.sort(key=lambda c: c.start)

    # regulatory path
    nfa = nfa_scope = covenant = None
    if arch.name in ("station",):
        nfa = remedy_end + dt.timedelta(days=rng.randint(120, 300))
        nfa_scope = "soil"
    elif arch.name == "dry-cleaner":
        nfa = remedy_start + dt.timedelta(days=rng.randint(900, 1400))
        nfa_scope = "groundwater and soil, with engineering controls"
        covenant = nfa + dt.timedelta(days=rng.randint(30, 90))
    elif arch.name == "bulk-plant":
        nfa = remedy_end + dt.timedelta(days=rng.randint(100, 250))
        nfa_scope = "PCB-affected soil at the former transformer pad"
        covenant = nfa + dt.timedelta(days=rng.randint(30, 90))
    elif arch.name == "fleet-garage":
        nfa = remedy_end + dt.timedelta(days=rng.randint(120, 300))
        nfa_scope = "petroleum-affected soil and groundwater, with a groundwater use restriction"
        covenant = nfa + dt.timedelta(days=rng.randint(30, 90))
    elif arch.name == "printing-plant":
        nfa = remedy_end + dt.timedelta(days=rng.randint(100, 250))
        nfa_scope = "soil at the former transformer vault and heating-oil tank"
        covenant = nfa + dt.timedelta(days=rng.randint(30, 90))
    elif arch.name in PATHS_MANY:
        after, nfa_scope, with_covenant = PATHS_MANY[arch.name]
        if after is not None:
            nfa = (remedy_end if after == "remedy" else remedy_start) + dt.timedelta(
                days=rng.randint(100, 300)
            )
            covenant = nfa + dt.timedelta(days=rng.randint(30, 90)) if with_covenant else None
    if nfa is not None and nfa > spec.as_of:
        nfa = covenant = None
    if covenant is not None and covenant > spec.as_of:
        covenant = None
    if remedy_end is not None and remedy_end > spec.as_of:
        remedy_end = None

    lease = None
    amendments: list[dt.date] = []
    if arch.name == "bulk-plant":
        lease = ("", "", _day(rng, opened.year))  # parties filled in by the lease instrument
        amendments = sorted(_day(rng, y) for y in rng.sample(range(opened.year + 5, 2015), 3))

    phase_i = [release_found - dt.timedelta(days=rng.randint(60, 300))]
    later = spec.as_of - dt.timedelta(days=rng.randint(200, 500))
    if later.year - phase_i[0].year > 6:
        phase_i.append(later)

    happenings = [Happening("ownership-transfer", o.recorded.date(), "day", apn) for o in owners]
    happenings.append(Happening("operations-began", opened, "year"))
    if closed is not None:
        happenings.append(Happening("operations-ceased", closed, "month"))
    for tank in tanks:
        happenings.append(Happening("tank-installed", tank.installed, "day", tank.id))
        if tank.removed is not None and tank.removed <= spec.as_of:
            happenings.append(Happening("tank-removed", tank.removed, "day", tank.id))
    happenings.append(Happening("release-reported", release_found, "day"))
    for day in phase_i:
        happenings.append(Happening("phase-i-esa", day, "day"))
    happenings.append(Happening("phase-ii-esa", phase_ii, "day"))
    happenings.append(Happening("corrective-action-plan", cap, "day"))
    # the remedy and the determination's scope are phrases, not identifiers: no subject
    happenings.append(Happening("remediation-began", remedy_start, "day"))
    if remedy_end is not None:
        happenings.append(Happening("remediation-ended", remedy_end, "day"))
    if nfa is not None:
        happenings.append(Happening("no-further-action", nfa, "day"))
    if covenant is not None:
        happenings.append(Happening("covenant-recorded", covenant, "day", apn))
    if lease is not None:
        happenings.append(Happening("lease-executed", lease[2], "day", apn))
        for day in amendments:
            happenings.append(Happening("lease-amended", day, "day", apn))
    happenings = [h for h in happenings if h.date <= spec.as_of]
    happenings.sort(key=lambda h: (h.date, h.kind, h.subject or ""))

    conditions = [Condition(k, c, s) for k, c, s in arch.conditions]
    if nfa is None:
        # without the agency's determination nothing is controlled or historical yet
        conditions = [
            Condition(c.kind, "REC" if c.cls in ("CREC", "HREC") else c.cls, c.summary)
            for c in conditions
        ]

    # consultants: one office until mid-record, another after (the well IDs may change style)
    styles = list(STYLES_BY_SPLIT[spec.split])
    rng.shuffle(styles)
    switch = campaigns[len(campaigns) // 2].start
    consultants = [(dt.date(1900, 1, 1), styles[0]), (switch, styles[1])]
    # the laboratory changes with the consultant
    second = rng.choice([name for name in labs if name != lab])
    for campaign in campaigns:
        campaign.lab = lab if campaign.start < switch else second

    model = SiteModel(
        spec=spec,
        name=f"Former {business}" if closed else business,
        business=business,
        address=address,
        city=city,
        county=county,
        apn=apn,
        agency=agency,
        program=program,
        case_number=case_number,
        owners=owners,
        operator=operator,
        client=owners[-1].name if arch.name != "bulk-plant" else operator,
        contact=rng.choice(CONTACTS),
        opened=opened,
        closed=closed,
        tanks=tanks,
        points=points,
        campaigns=campaigns,
        happenings=happenings,
        conditions=conditions,
        standards={**arch.standards, **dict(spec.standards)},
        land_use=arch.land_use,
        release_found=release_found,
        remedy=arch.remedy,
        remedy_start=remedy_start,
        remedy_end=remedy_end,
        nfa=nfa,
        nfa_scope=nfa_scope,
        covenant=covenant,
        lease=lease,
        lease_amendments=amendments,
        phase_i=phase_i,
        phase_ii=phase_ii,
        cap=cap,
        consultants=consultants,
    )
    for campaign in campaigns:
        for sample in campaign.samples:
            if sample.is_duplicate:
                continue
            for m in sample.results:
                model.truth[key_of(sample, m)] = m
    return model


def _sample_id(point: Point, depth: str | None, day: dt.date, rng: random.Random) -> str:
    if depth is not None:
        return f"{point.prefix}-{point.number}-{depth.replace('-', '')}"
    return f"{point.prefix}-{point.number}-{day:%m%d%y}"
