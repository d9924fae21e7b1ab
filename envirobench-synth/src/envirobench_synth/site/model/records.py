"""The records of a site model: owners, tanks, sampling points, measurements, samples, campaigns,
happenings and conditions, held together by `SiteModel`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from .specs import SiteSpec


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
