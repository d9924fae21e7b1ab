"""The site a passage-rerank question is about: question kinds, names and places, the site's
records (`Site`, tanks, owners, analytes), the question's record and `sample_site`.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field

QUESTION_KINDS = ("result", "exceedance", "tank-removal", "ownership", "flow-direction")
SPLITS = ("dev", "test")
CANDIDATES = 20  # passages offered per question

PLACES = (
    "Blue Heron",
    "Kestrel",
    "Granite Ridge",
    "Willowbank",
    "Cedar Point",
    "Harbor Lane",
    "Sutter Row",
    "Mesa Verde",
    "Ironwood",
    "Redfern",
    "Northgate",
    "Old Mill",
    "Copper Creek",
    "Prairie Wind",
    "Fox Hollow",
    "Lantern Hill",
    "Sable River",
    "Juniper Flats",
    "Bramble Gate",
    "Stonecrest",
    "Tamarack",
    "Silver Lake",
)
SITE_KINDS = (
    "Service Station",
    "Dry Cleaners",
    "Bulk Fuel Plant",
    "Auto Repair",
    "Plating Works",
    "Truck Terminal",
)
STREETS = (
    "Main Street",
    "Harbor Avenue",
    "Industrial Way",
    "Railroad Avenue",
    "Mill Road",
    "Commerce Drive",
    "Front Street",
    "Depot Road",
    "Canal Street",
    "Airport Boulevard",
)
OWNER_NAMES = (
    "Redfern Petroleum Company",
    "Halvorsen Family Trust",
    "Blue Heron Holdings, LLC",
    "Northgate Fuel Distributors, Inc.",
    "Willowbank Properties LLC",
    "Cedar Point Terminals, Inc.",
    "Kestrel Land Partners LP",
    "Sable River Realty Corp.",
    "Marguerite D. Olsen",
    "Tamarack Investors LLC",
    "Ironwood Development Company",
    "Lantern Hill Cleaners, Inc.",
    "Quarry Point Enterprises Corp.",
    "Juniper Flats Auto Service, LLC",
)
AGENCIES = (
    "the State Department of Environmental Quality",
    "the Regional Water Quality Control Board",
    "the County Environmental Health Department",
    "the Department of Ecology",
)
PRODUCTS = ("gasoline", "diesel", "waste oil", "kerosene", "heating oil")
CAPACITIES = (550, 1000, 2000, 4000, 6000, 8000, 10000, 12000)
DIRECTIONS = ("north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest")


@dataclass(frozen=True)
class Analyte:
    name: str
    standard: float  # µg/L
    standard_name: str  # dev wording; test wording from the template table


ANALYTES = (
    Analyte("benzene", 5.0, "MCL"),
    Analyte("toluene", 1000.0, "MCL"),
    Analyte("ethylbenzene", 700.0, "MCL"),
    Analyte("total xylenes", 10000.0, "MCL"),
    Analyte("MTBE", 20.0, "action level"),
    Analyte("tetrachloroethene", 5.0, "MCL"),
    Analyte("trichloroethene", 5.0, "MCL"),
    Analyte("cis-1,2-dichloroethene", 70.0, "MCL"),
    Analyte("vinyl chloride", 2.0, "MCL"),
    Analyte("naphthalene", 17.0, "screening level"),
    Analyte("1,2-dichloroethane", 5.0, "MCL"),
    Analyte("lead", 15.0, "action level"),
)


@dataclass(frozen=True)
class Tank:
    capacity: int
    product: str
    installed: int
    removed: dt.date


@dataclass(frozen=True)
class Ownership:
    owner: str
    start: dt.date
    end: dt.date | None  # None: the present owner


@dataclass
class Site:
    name: str
    address: str
    wells: list[str]
    events: list[dt.date]
    analytes: list[Analyte]
    results: dict[tuple[str, dt.date, str], float]
    tanks: list[Tank]
    owners: list[Ownership]
    flow: str
    regional_flow: str
    depth_to_water: float
    agency: str
    consultant: str
    lab: str


@dataclass(frozen=True)
class CandidatePassage:
    id: str
    text: str
    source: str
    grade: int
    essential: bool
    role: str  # what the passage is, e.g. "statement", "other-well", "other-site"


@dataclass(frozen=True)
class RerankQuestion:
    kind: str
    text: str
    passages: tuple[CandidatePassage, ...]
    site: str
    traps: tuple[str, ...] = field(
        default=()
    )  # the roles of its graded-0 passages that share the question's words


CONSULTANTS = (
    "Terracon Environmental Associates",
    "Brightwater Geosciences, Inc.",
    "Kellerman Site Services LLC",
    "Hollis Engineering & Consulting",
    "Prairie Wind Environmental, Inc.",
    "Stonecrest Geologic LLC",
)
LABS = (
    "Pace Analytical Services",
    "Eurofins Environment Testing",
    "ALS Environmental",
    "SGS North America",
    "Enthalpy Analytical",
    "Fremont Analytical",
)


def _date(rng: random.Random, start: int, end: int) -> dt.date:
    return dt.date(rng.randint(start, end), rng.randint(1, 12), rng.randint(1, 28))


def _value(rng: random.Random, analyte: Analyte) -> float:
    # Around the standard, from a tenth of it to ten times it, three significant figures.
    value = analyte.standard * 10 ** rng.uniform(-1.2, 1.2)
    return float(f"{value:.3g}")


def sample_site(rng: random.Random) -> Site:
    place = rng.choice(PLACES)
    name = f"Former {place} {rng.choice(SITE_KINDS)}"
    address = f"{rng.randint(100, 9800)} {rng.choice(STREETS)}"
    wells = [f"MW-{i}" for i in range(1, rng.randint(5, 9))]
    first = rng.randint(2008, 2018)
    months = rng.choice(((3, 6, 9, 12), (2, 5, 8, 11), (1, 4, 7, 10)))
    events = [
        dt.date(year, month, rng.randint(3, 26))
        for year in range(first, first + rng.randint(2, 4))
        for month in months
    ]
    analytes = rng.sample(ANALYTES, rng.randint(4, 6))
    results = {(w, e, a.name): _value(rng, a) for w in wells for e in events for a in analytes}
    tanks = []
    for capacity in sorted(rng.sample(CAPACITIES, rng.randint(2, 4))):
        installed = rng.randint(1955, 1985)
        tanks.append(Tank(capacity, rng.choice(PRODUCTS), installed, _date(rng, 1988, 2007)))
    owners = []
    start = _date(rng, 1940, 1955)
    for index, owner in enumerate(rng.sample(OWNER_NAMES, rng.randint(3, 5))):
        end = start + dt.timedelta(days=rng.randint(6, 22) * 365) if index < 4 else None
        owners.append(Ownership(owner, start, end))
        if end is None:
            break
        start = end
    owners[-1] = Ownership(owners[-1].owner, owners[-1].start, None)
    flow = rng.choice(DIRECTIONS)
    regional = rng.choice([d for d in DIRECTIONS if d != flow])
    return Site(
        name,
        address,
        wells,
        events,
        analytes,
        results,
        tanks,
        owners,
        flow,
        regional,
        round(rng.uniform(4, 38), 1),
        rng.choice(AGENCIES),
        rng.choice(CONSULTANTS),
        rng.choice(LABS),
    )
