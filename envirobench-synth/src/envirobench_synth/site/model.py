"""The seeded site model: parcels and owners, operations, tanks, releases, sampling and results.

`sample_model(spec)` draws one site from its `SiteSpec` (id, split, seed, archetype, page target):
the owners of the parcel over decades (each transfer a recorded deed), the business and its
tanks, the release and the agency case it opened, the sampling campaigns (tank-pit samples at
tank removal, a Phase II's borings and first wells, further characterization, quarterly then
semiannual groundwater monitoring, soil-vapor, sub-slab and indoor-air rounds where solvents are
the concern), the remedy and the closure. Results follow a plume: each sampling point sits at a
distance from the source, concentrations fall off with distance and, once the remedy starts,
with time (chlorinated ethenes degrade PCE to TCE to cis-1,2-DCE to vinyl chloride), with
lognormal scatter; a value below a third of its reporting limit is a non-detect, one between
that and the limit is an estimated ("J") detection.

The truth of every result is here; documents (`papers`) print it, and the record (`record`)
decides which printing governs.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from dataclasses import dataclass, field

from .. import catalogue
from ..rng import make_random

# -- specs ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SiteSpec:
    site_id: str
    split: str  # "dev" | "test"
    seed: int
    archetype: str  # "station", "bulk-plant", "dry-cleaner", "auto-repair", "plating-shop"
    pages: int  # exact page count of the record
    as_of: dt.date
    release_year: int  # the year the release is found (the record's data start then)
    standards: tuple[tuple[str, str], ...] = ()  # (matrix, table) replacing the archetype's


SPECS: dict[str, SiteSpec] = {
    spec.site_id: spec
    for spec in (
        SiteSpec("st-275", "test", 27501, "station", 275, dt.date(2024, 6, 30), 2012),
        SiteSpec("bp-540", "test", 54002, "bulk-plant", 540, dt.date(2024, 3, 31), 2002),
        SiteSpec("dc-806", "test", 80603, "dry-cleaner", 806, dt.date(2024, 9, 30), 2010),
        SiteSpec(
            "dev-former-station",
            "dev",
            12101,
            "station",
            236,
            dt.date(2023, 12, 31),
            1999,
            (
                ("groundwater", "epa-rsl-tapwater-thq1.0"),
                ("soil", "epa-rsl-soil-industrial-thq1.0"),
            ),
        ),
        SiteSpec("dev-auto-repair", "dev", 18402, "auto-repair", 232, dt.date(2022, 6, 30), 2004),
        SiteSpec("dev-plating-shop", "dev", 25203, "plating-shop", 252, dt.date(2023, 9, 30), 2003),
        SiteSpec("dev-rail-siding", "dev", 31204, "bulk-plant", 312, dt.date(2021, 12, 31), 2005),
    )
}
SITES = {
    "dev": tuple(s.site_id for s in SPECS.values() if s.split == "dev"),
    "test": tuple(s.site_id for s in SPECS.values() if s.split == "test"),
}

# -- the model ------------------------------------------------------------------------------------


@dataclass
class Owner:
    name: str
    recorded: dt.datetime  # the vesting deed's recording
    signed: dt.date


@dataclass
class Tank:
    id: str  # "T-1", "AST-2"
    kind: str  # "UST" or "AST"
    contents: str
    gallons: int
    material: str
    installed: dt.date
    removed: dt.date | None = None


@dataclass
class Point:
    """A sampling point: a well, a boring, a tank-pit sample point, a vapor probe, an indoor spot."""

    id: str  # internal and canonical-by-number: "MW-3", "SB-12", "SV-2", "SS-1", "IA-1", "TP-4"
    prefix: str
    number: int
    distance: float  # feet from the source
    installed: dt.date
    total_depth: float | None = None
    water: float | None = None
    upgradient: bool = False


@dataclass
class Measurement:
    analyte: str  # catalogue name
    value: float | None  # None: not detected
    unit: str
    rl: float
    qualifier: str = ""


@dataclass
class Sample:
    sample_id: str  # as the field team labelled it
    location: str  # point id; a blind duplicate keeps its parent's location in `parent`
    depth: str | None
    matrix: str
    date: dt.date
    results: list[Measurement]
    parent: str | None = None  # a blind duplicate's true location

    @property
    def is_duplicate(self) -> bool:
        return self.parent is not None


@dataclass
class Campaign:
    """One sampling round, analysed in one laboratory job."""

    id: str
    kind: str  # "tank-closure", "phase-ii", "characterization", "monitoring", "vapor"
    label: str  # "First Quarter 2019", "Phase II", ...
    start: dt.date
    samples: list[Sample]
    lab: str = ""
    issued: dt.date = dt.date(1900, 1, 1)  # the lab report's date


@dataclass
class Happening:
    """One dated event of the timeline, at the precision the record gives it."""

    kind: str
    date: dt.date
    precision: str  # "day", "month" or "year"
    subject: str | None = None

    @property
    def text(self) -> str:
        if self.precision == "year":
            return f"{self.date.year:04d}"
        if self.precision == "month":
            return f"{self.date.year:04d}-{self.date.month:02d}"
        return self.date.isoformat()

    @property
    def fact(self) -> str:
        return f"event|{self.kind}|{self.subject or '-'}|{self.text}"


@dataclass
class Condition:
    kind: str
    cls: str  # REC, CREC, HREC, de-minimis
    summary: str  # one sentence, as a Phase I would state it


@dataclass
class SiteModel:
    spec: SiteSpec
    name: str
    business: str
    address: str
    city: str
    county: str
    apn: str
    agency: str
    program: str
    case_number: str
    owners: list[Owner]
    operator: str
    client: str
    contact: str
    opened: dt.date
    closed: dt.date | None
    tanks: list[Tank]
    points: dict[str, Point]
    campaigns: list[Campaign]
    happenings: list[Happening]
    conditions: list[Condition]
    standards: dict[str, str]  # matrix -> screening table id
    land_use: str  # "residential" or "industrial" (the soil table's exposure)
    release_found: dt.date
    remedy: str  # "excavation and SVE", "SSD system", ...
    remedy_start: dt.date
    remedy_end: dt.date | None
    nfa: dt.date | None
    nfa_scope: str | None
    covenant: dt.date | None
    lease: tuple[str, str, dt.date] | None = None  # lessor, lessee, date
    lease_amendments: list[dt.date] = field(default_factory=list)
    phase_i: list[dt.date] = field(default_factory=list)  # final issue dates
    phase_ii: dt.date | None = None
    cap: dt.date | None = None
    consultants: list[tuple[dt.date, str]] = field(default_factory=list)  # (from, style name)
    truth: dict[tuple[str, str, str, str, str], Measurement] = field(default_factory=dict)

    @property
    def split(self) -> str:
        return self.spec.split

    def consultant_on(self, day: dt.date) -> str:
        chosen = self.consultants[0][1]
        for start, name in self.consultants:
            if day >= start:
                chosen = name
        return chosen

    def owner_on(self, day: dt.date) -> str:
        owner = self.owners[0].name
        for o in self.owners:
            if o.recorded.date() <= day:
                owner = o.name
        return owner

    def client_on(self, day: dt.date) -> str:
        """Who commissions the work on `day`: the operator of a leased plant, else the owner of
        record then."""
        if self.lease is not None:
            return self.operator
        owner = self.owners[0].name
        for o in self.owners:
            if o.recorded.date() <= day:
                owner = o.name
        return owner

    def analytes(self) -> list[str]:
        seen: dict[str, None] = {}
        for campaign in self.campaigns:
            for sample in campaign.samples:
                for m in sample.results:
                    seen.setdefault(m.analyte, None)
        return list(seen)

    def matrices(self) -> list[str]:
        seen: dict[str, None] = {}
        for campaign in self.campaigns:
            for sample in campaign.samples:
                seen.setdefault(sample.matrix, None)
        return list(seen)


def key_of(sample: Sample, m: Measurement) -> tuple[str, str, str, str, str]:
    return (sample.location, sample.depth or "-", sample.date.isoformat(), m.analyte, sample.matrix)


def result_fact(key: tuple[str, str, str, str, str]) -> str:
    return "result|" + "|".join(key)


# -- archetypes -----------------------------------------------------------------------------------

ANALYTE_BY_NAME = {a.name: a for a in catalogue.ANALYTES}

# Source concentrations per analyte and matrix (groundwater in the catalogue's unit: µg/L for
# VOCs and PAHs, mg/L for TPH and metals; soil mg/kg; vapor and air µg/m³).
_GW = {
    "Benzene": 2400.0,
    "Toluene": 3800.0,
    "Ethylbenzene": 850.0,
    "Xylenes, Total": 5200.0,
    "Methyl tert-butyl ether": 640.0,
    "TPH-Gasoline Range Organics (C6-C10)": 28.0,
    "TPH-Diesel Range Organics (C10-C28)": 9.5,
    "Naphthalene": 160.0,
    "Tetrachloroethene": 3100.0,
    "Trichloroethene": 420.0,
    "cis-1,2-Dichloroethene": 380.0,
    "Vinyl chloride": 45.0,
    "Arsenic": 0.034,
    "Chromium": 2.6,
    "Cadmium": 0.048,
    "Lead": 0.021,
}
_SOIL = {
    "Benzene": 14.0,
    "Toluene": 90.0,
    "Ethylbenzene": 42.0,
    "Xylenes, Total": 260.0,
    "Methyl tert-butyl ether": 1.6,
    "TPH-Gasoline Range Organics (C6-C10)": 2100.0,
    "TPH-Diesel Range Organics (C10-C28)": 6400.0,
    "TPH-Oil Range Organics (C28-C40)": 3900.0,
    "Naphthalene": 38.0,
    "Benzo(a)anthracene": 4.2,
    "Chrysene": 5.1,
    "Benzo(a)pyrene": 3.4,
    "Tetrachloroethene": 48.0,
    "Trichloroethene": 6.5,
    "Arsenic": 64.0,
    "Lead": 1450.0,
    "Chromium": 2300.0,
    "Cadmium": 95.0,
    "Aroclor 1254": 6.8,
    "Aroclor 1260": 2.9,
}
_AIR = {  # µg/m³ at the source for soil vapor; sub-slab and indoor scale down
    "Tetrachloroethene": 52000.0,
    "Trichloroethene": 4100.0,
    "cis-1,2-Dichloroethene": 1900.0,
    "Vinyl chloride": 240.0,
}
_BACKGROUND = {"Arsenic": (0.002, 7.0), "Lead": (0.001, 22.0), "Chromium": (0.004, 28.0)}
_RL = {  # reporting limits by group and matrix
    ("voc", "groundwater"): 1.0,
    ("tph", "groundwater"): 0.10,
    ("metal", "groundwater"): 0.0050,
    ("pah", "groundwater"): 0.20,
    ("voc", "soil"): 0.0050,
    ("tph", "soil"): 10.0,
    ("metal", "soil"): 1.0,
    ("pah", "soil"): 0.033,
    ("pcb", "soil"): 0.050,
    ("voc", "air"): 2.5,
}


@dataclass(frozen=True)
class Archetype:
    name: str
    business: tuple[str, ...]
    gw: tuple[str, ...]
    soil: tuple[str, ...]
    air: tuple[str, ...]
    tanks: tuple[tuple[str, str, int], ...]  # (kind, contents, gallons)
    conditions: tuple[tuple[str, str, str], ...]  # (kind, class, summary)
    remedy: str
    standards: dict[str, str]
    land_use: str


ARCHETYPES = {
    "station": Archetype(
        "station",
        ("Quik Fuel #{n}", "Redline Gas & Go #{n}", "Northway Service #{n}"),
        (
            "Benzene",
            "Toluene",
            "Ethylbenzene",
            "Xylenes, Total",
            "Methyl tert-butyl ether",
            "TPH-Gasoline Range Organics (C6-C10)",
            "Naphthalene",
        ),
        (
            "Benzene",
            "Toluene",
            "Ethylbenzene",
            "Xylenes, Total",
            "TPH-Gasoline Range Organics (C6-C10)",
            "Lead",
        ),
        (),
        (
            ("UST", "regular unleaded gasoline", 10000),
            ("UST", "premium unleaded gasoline", 8000),
            ("UST", "diesel", 6000),
            ("UST", "waste oil", 550),
        ),
        (
            (
                "petroleum-ust-release",
                "REC",
                "the release of gasoline from the former UST system, whose dissolved plume "
                "remains above the groundwater cleanup standards",
            ),
            (
                "waste-oil-ust",
                "HREC",
                "the former waste-oil UST, removed with its impacted soil and closed by the "
                "agency without restrictions",
            ),
            (
                "hydraulic-lifts",
                "de-minimis",
                "minor staining around the in-ground hydraulic lifts of the service bays, not "
                "likely to be the subject of enforcement action",
            ),
        ),
        "over-excavation and soil vapor extraction",
        {"groundwater": "franklin-groundwater", "soil": "franklin-soil-industrial"},
        "industrial",
    ),
    "bulk-plant": Archetype(
        "bulk-plant",
        ("{owner} Bulk Plant", "{owner} Oil Distributors Terminal"),
        (
            "TPH-Diesel Range Organics (C10-C28)",
            "TPH-Gasoline Range Organics (C6-C10)",
            "Benzene",
            "Toluene",
            "Ethylbenzene",
            "Xylenes, Total",
            "Naphthalene",
            "Arsenic",
        ),
        (
            "TPH-Diesel Range Organics (C10-C28)",
            "TPH-Oil Range Organics (C28-C40)",
            "Benzene",
            "Naphthalene",
            "Benzo(a)anthracene",
            "Chrysene",
            "Benzo(a)pyrene",
            "Arsenic",
            "Lead",
            "Aroclor 1254",
            "Aroclor 1260",
        ),
        (),
        (
            ("AST", "diesel", 20000),
            ("AST", "gasoline", 20000),
            ("AST", "heating oil", 15000),
            ("AST", "kerosene", 12000),
            ("UST", "gasoline (loading rack sump)", 1000),
        ),
        (
            (
                "ast-loading-rack-release",
                "REC",
                "releases of petroleum at the loading rack and the aboveground tank farm, "
                "with diesel- and gasoline-range hydrocarbons in soil and groundwater",
            ),
            (
                "railroad-ties-herbicides",
                "REC",
                "arsenic and lead in surface soil along the spur track from treated ties and "
                "historical herbicide application on the railroad right-of-way",
            ),
            (
                "pcb-equipment",
                "CREC",
                "PCBs at the former pole-mounted transformer pad, remediated to industrial "
                "standards under an activity and use limitation",
            ),
            (
                "drum-storage-staining",
                "de-minimis",
                "minor staining beneath the drum rack in the warehouse, not likely to be the "
                "subject of enforcement action",
            ),
        ),
        "excavation of the loading rack soils",
        {"groundwater": "epa-mcl", "soil": "epa-rsl-soil-industrial-thq1.0"},
        "industrial",
    ),
    "dry-cleaner": Archetype(
        "dry-cleaner",
        ("{name} Cleaners", "{name} Dry Cleaning & Laundry"),
        (
            "Tetrachloroethene",
            "Trichloroethene",
            "cis-1,2-Dichloroethene",
            "Vinyl chloride",
        ),
        ("Tetrachloroethene", "Trichloroethene"),
        ("Tetrachloroethene", "Trichloroethene", "cis-1,2-Dichloroethene", "Vinyl chloride"),
        (("UST", "heating oil", 1000),),
        (
            (
                "chlorinated-solvent-release",
                "CREC",
                "the release of tetrachloroethene from the dry-cleaning operations, addressed "
                "under the state drycleaner program with an environmental covenant and "
                "engineering controls that remain in place",
            ),
            (
                "vapor-intrusion",
                "REC",
                "chlorinated solvent vapors beneath the building slab and in indoor air of "
                "the adjoining tenant space, controlled only in part by the sub-slab "
                "depressurization system",
            ),
            (
                "heating-oil-tank",
                "HREC",
                "the former heating-oil UST, removed and closed by the agency without restrictions",
            ),
        ),
        "sub-slab depressurization",
        {"groundwater": "franklin-groundwater", "soil": "franklin-soil-residential"},
        "residential",
    ),
    "auto-repair": Archetype(
        "auto-repair",
        ("{name} Auto Repair", "{name} Motors Service Center"),
        (
            "Benzene",
            "Toluene",
            "Ethylbenzene",
            "Xylenes, Total",
            "TPH-Diesel Range Organics (C10-C28)",
            "Tetrachloroethene",
            "Trichloroethene",
        ),
        ("TPH-Diesel Range Organics (C10-C28)", "TPH-Oil Range Organics (C28-C40)", "Lead"),
        (),
        (("UST", "waste oil", 550), ("UST", "gasoline", 4000)),
        (
            (
                "waste-oil-ust",
                "REC",
                "the release from the former waste-oil UST and the parts-washer area, with "
                "solvents and petroleum in groundwater",
            ),
            (
                "floor-drains-dry-well",
                "REC",
                "service-bay floor drains that discharged to a dry well",
            ),
            (
                "hydraulic-lifts",
                "de-minimis",
                "minor staining around the hydraulic lifts, not likely to be the subject of "
                "enforcement action",
            ),
        ),
        "excavation of the dry well",
        {"groundwater": "epa-rsl-tapwater-thq1.0", "soil": "epa-rsl-soil-industrial-thq1.0"},
        "industrial",
    ),
    "plating-shop": Archetype(
        "plating-shop",
        ("{name} Plating Works", "{name} Metal Finishing"),
        ("Chromium", "Cadmium", "Trichloroethene", "cis-1,2-Dichloroethene"),
        ("Chromium", "Cadmium", "Lead", "Trichloroethene"),
        (),
        (("UST", "heating oil", 2000),),
        (
            (
                "plating-solutions",
                "REC",
                "chromium and cadmium from the plating line sumps in soil and groundwater",
            ),
            (
                "chlorinated-solvent-release",
                "REC",
                "trichloroethene from the vapor degreaser",
            ),
            (
                "heating-oil-tank",
                "HREC",
                "the former heating-oil UST, removed and closed without restrictions",
            ),
            (
                "fill-material",
                "de-minimis",
                "a thin layer of cinder fill under the parking area, not likely to be the "
                "subject of enforcement action",
            ),
        ),
        "in-situ chemical reduction",
        {"groundwater": "epa-mcl", "soil": "epa-rsl-soil-residential-thq1.0"},
        "residential",
    ),
}

OWNER_NAMES = (
    "Harlan & Sons Oil Company",
    "Meriwether Holdings LLC",
    "Tobias Renner",
    "Greywater Land Company",
    "Ostrander Family Trust",
    "Copperline Properties, Inc.",
    "Yellowstone & Pacific Railway Company",
    "Calder Real Estate Partners LP",
    "Wexley Commercial LLC",
    "Pruitt Investment Group",
    "Delmonico Enterprises",
    "Foxglove Realty Corp.",
)
PLACE_NAMES = ("Juniper", "Ashgrove", "Bellhaven", "Corliss", "Duxbury", "Elmstead", "Fairlight")
CITIES = (
    ("Port Ellery", "Rookwood"),
    ("Marlow", "Marlow"),
    ("Teasdale", "Teasdale"),
    ("Alder Falls", "Alder"),
    ("Cinder Bluff", "Cinder"),
    ("Saltmarsh", "Saltmarsh"),
)
STREETS = ("Depot Street", "Main Street", "Railroad Avenue", "Industrial Parkway", "Mill Road")
CONTACTS = ("Dana Whitcombe", "Luis Ferreira", "Priya Raman", "Gordon Achebe", "Marta Lindqvist")


def _day(rng: random.Random, year: int) -> dt.date:
    return dt.date(year, rng.randint(1, 12), rng.randint(1, 28))


def _sig(value: float) -> float:
    if value <= 0:
        return 0.0
    digits = 3 - int(math.floor(math.log10(value))) - 1
    return round(value, digits)


def _unit(analyte: str, matrix: str) -> str:
    group = ANALYTE_BY_NAME[analyte].group
    if matrix in ("soil-vapor", "sub-slab-vapor", "indoor-air"):
        return "µg/m³"
    if matrix == "soil":
        return "mg/kg"
    return {"voc": "µg/L", "pah": "µg/L", "tph": "mg/L"}.get(group, "mg/L")


def _rl(analyte: str, matrix: str) -> float:
    group = ANALYTE_BY_NAME[analyte].group
    if group == "mercury":
        group = "metal"
    medium = "air" if matrix in ("soil-vapor", "sub-slab-vapor", "indoor-air") else matrix
    base = _RL[(group, medium)]
    if matrix == "indoor-air":
        return 0.20 if analyte != "Vinyl chloride" else 0.10
    return base


def measure(
    rng: random.Random, analyte: str, matrix: str, true_value: float, dilution: float = 1.0
) -> Measurement:
    """A laboratory's measurement of `true_value`: scatter, reporting limit, non-detect, J flag."""
    rl = _rl(analyte, matrix)
    if true_value > 200 * rl:
        # high concentrations are run diluted: the reporting limit rises with the dilution
        dilution = 10 ** math.floor(math.log10(true_value / (20 * rl)))
        rl = _sig(rl * dilution)
    value = true_value * rng.lognormvariate(0.0, 0.22)
    unit = _unit(analyte, matrix)
    if value < rl / 3:
        return Measurement(analyte, None, unit, rl, "U" if rng.random() < 0.5 else "")
    if value < rl:
        return Measurement(analyte, _sig(value), unit, rl, "J")
    return Measurement(analyte, _sig(value), unit, rl, "")


# -- sampling the model ---------------------------------------------------------------------------


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
    if arch.name in ("bulk-plant",) and analyte in ("Arsenic", "Lead") and matrix == "soil":
        decline = 1.0  # tie and herbicide metals stay put
    return floor + source * near * decline * site.point_strength.get(point.id, 1.0)


_DAUGHTERS = {"Trichloroethene": 6.0, "cis-1,2-Dichloroethene": 9.0, "Vinyl chloride": 14.0}


@dataclass
class _Draft:
    arch: Archetype
    remedy_start: dt.date
    release_found: dt.date
    point_strength: dict[str, float]


def sample_model(spec: SiteSpec, events: int | None = None) -> SiteModel:
    """The site model of `spec`, drawn from its seed; `events` caps the monitoring rounds (the
    record fits its page count by taking fewer)."""
    rng = make_random(spec.seed, "site-model", spec.site_id)
    arch = ARCHETYPES[spec.archetype]
    scale = spec.pages / 275.0
    city, county = rng.choice(CITIES)
    # the county whose recorder stamps the site's instruments (legalink picks the same style)
    from ..legal import families

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
    if arch.name in ("station", "bulk-plant", "plating-shop"):
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
    n_wells_more = max(2, round(3 * scale))
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
        for n in range(1, max(3, round(4 * scale)) + 1)
    ]
    pits = [add("TP", n, rng.uniform(2, 20), release_found) for n in range(1, 4)]
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
                    None if m.value is None else _sig(m.value * drng.uniform(0.85, 1.15)),
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
    events = max(4, round(10 * scale)) if events is None else events
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
        keep = min(3, events)
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
    from ..locate.sitepages import STYLES_BY_SPLIT

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
