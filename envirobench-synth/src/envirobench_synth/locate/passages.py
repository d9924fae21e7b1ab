"""Questions about a site with candidate passages from its records, graded for relevance.

    rng = make_random(SEED, "test", "pr-test-0007")
    question = sample_question(rng, "exceedance", "test")
    question.text, [(p.text, p.grade, p.essential) for p in question.passages]

A *site* (`sample_site`) is a small world of facts: monitoring wells sampled in events, analyte
results with the standard each is compared with, underground storage tanks installed and
removed, the owners of the parcel and the direction groundwater flows. Each question asks one
fact (or, for `exceedance`, joins two: a result and its standard), and its candidates are
passages of the site's records written about that fact and about its neighbours:

    grade 3  a passage that states the fact asked for (essential)
    grade 2  one that states part of it or leads straight to it (the table or figure it is in,
             the standard a result is compared with (essential for `exceedance`), the deed out
             of an owner)
    grade 1  on the topic without the fact (the same well and analyte in another event, the
             tank's installation, a request that came before a decision)
    grade 0  hard negatives that share the question's words: the same analyte in another well,
             another analyte in the same well, the same well at a neighbouring site, the
             regional flow instead of the site's, another tank's removal, the adjoining parcel's
             deeds; and other facts of the same site

Families: each split words its passages, questions, dates, units and source documents with
templates of its own (`TEMPLATES[split]`); the test split's wordings (quarters for months,
"monitoring well 3" for "MW-3", "ug/L" for "µg/L", ...) never appear in dev, so a reranker tuned
on dev wordings meets new ones. The candidates are shuffled: their order carries nothing.

Grow the tables by appending: samplers pick by position.
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


# -- the site ---------------------------------------------------------------------------------------

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


# -- wordings, by split ------------------------------------------------------------------------------

MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
QUARTERS = (
    "first",
    "first",
    "first",
    "second",
    "second",
    "second",
    "third",
    "third",
    "third",
    "fourth",
    "fourth",
    "fourth",
)


def month_year(day: dt.date) -> str:
    return f"{MONTHS[day.month - 1]} {day.year}"


def long_date(day: dt.date) -> str:
    return f"{MONTHS[day.month - 1]} {day.day}, {day.year}"


def event_words(day: dt.date, split: str, rng: random.Random) -> str:
    """How a passage names a sampling event."""
    if split == "dev":
        return rng.choice(
            (
                f"the {month_year(day)} event",
                f"the {month_year(day)} sampling event",
                f"the event of {long_date(day)}",
            )
        )
    return rng.choice(
        (
            f"the {QUARTERS[day.month - 1]} quarter {day.year} event",
            f"the {QUARTERS[day.month - 1]}-quarter {day.year} monitoring round ({day.month}/{day.day}/{day.year})",
            f"the round sampled {day.month:02d}/{day.day:02d}/{day.year}",
        )
    )


def well_words(well: str, split: str, rng: random.Random) -> str:
    if split == "dev":
        return rng.choice((well, f"monitoring well {well}", f"well {well}"))
    number = well.split("-")[1]
    return rng.choice((f"monitoring well {number}", f"MW{number}", f"well No. {number}", well))


def concentration(value: float, split: str, rng: random.Random) -> str:
    if split == "dev":
        return f"{value:g} µg/L"
    return rng.choice((f"{value:g} ug/L", f"{value:g} micrograms per liter", f"{value:g} ppb"))


def standard_words(analyte: Analyte, split: str) -> str:
    if split == "dev":
        return {
            "MCL": "maximum contaminant level (MCL)",
            "action level": "action level",
            "screening level": "groundwater screening level",
        }[analyte.standard_name]
    return {
        "MCL": "federal drinking water standard",
        "action level": "state cleanup action level",
        "screening level": "tier 1 groundwater cleanup level",
    }[analyte.standard_name]


SOURCES = {
    "dev": {
        "monitoring": "Quarterly Groundwater Monitoring Report, {when}",
        "lab": "Laboratory Analytical Report, {lab}, {when}",
        "phase1": "Phase I Environmental Site Assessment, {year}",
        "phase2": "Phase II Subsurface Investigation Report, {year}",
        "closure": "UST Closure Report, {year}",
        "deed": "Recorded deed, {year}",
        "letter": "Letter from {agency}, {when}",
    },
    "test": {
        "monitoring": "Groundwater Sampling Summary — {when}",
        "lab": "{lab} certificate of analysis ({when})",
        "phase1": "Environmental site assessment (ASTM E1527) {year}",
        "phase2": "Site characterization report {year}",
        "closure": "Tank removal and closure documentation {year}",
        "deed": "Title search exhibit: conveyance of {year}",
        "letter": "Correspondence, {agency}, {when}",
    },
}


def source(kind: str, split: str, site: Site, day: dt.date) -> str:
    return SOURCES[split][kind].format(
        when=month_year(day), year=day.year, lab=site.lab, agency=site.agency
    )


class Writer:
    """Writes the passages of one question, in one split's wordings, from its own stream."""

    def __init__(self, rng: random.Random, split: str, site: Site):
        self.rng, self.split, self.site = rng, split, site

    def pick(self, dev: tuple[str, ...], test: tuple[str, ...], **values: object) -> str:
        return self.rng.choice(dev if self.split == "dev" else test).format(**values)

    # result statements: the fact of `result` and `exceedance` questions, and many hard negatives
    def result(self, site: Site, well: str, event: dt.date, analyte: Analyte) -> str:
        r = self.rng
        values = {
            "analyte": analyte.name,
            "Analyte": analyte.name[0].upper() + analyte.name[1:],
            "well": well_words(well, self.split, r),
            "event": event_words(event, self.split, r),
            "value": concentration(site.results[(well, event, analyte.name)], self.split, r),
            "site": site.name,
            "lab": site.lab,
        }
        return self.pick(
            (
                "During {event}, {analyte} was detected in {well} at {value}.",
                "{Analyte} in the groundwater sample collected from {well} during {event} was reported at {value} by {lab}.",
                "The sample from {well} ({event}) contained {analyte} at {value}; the result was not qualified.",
            ),
            (
                "Laboratory analysis of the {well} sample from {event} reported {analyte} at a concentration of {value}.",
                "For {event}, {value} of {analyte} was measured at {well}, per the {lab} data package.",
                "{Analyte}: {value} at {well} ({event}); the data were validated without qualification.",
            ),
            **values,
        )

    def standard(self, analyte: Analyte) -> str:
        return self.pick(
            (
                "The {standard} for {analyte} in groundwater is {value}.",
                "Results were compared with the {standard} of {value} for {analyte}.",
            ),
            (
                "{Analyte} is evaluated against the {standard}, {value}.",
                "The applicable {standard} for {analyte} is {value}.",
            ),
            standard=standard_words(analyte, self.split),
            analyte=analyte.name,
            Analyte=analyte.name[0].upper() + analyte.name[1:],
            value=concentration(analyte.standard, self.split, self.rng),
        )

    def results_table(self, event: dt.date, analyte: Analyte) -> str:
        return self.pick(
            (
                "Analytical results for {event}, including {analyte} in every well, are summarized in Table {n}.",
                "Table {n} presents the {analyte} results of {event} for all monitoring wells.",
            ),
            (
                "Concentrations detected in {event} (all wells, {analyte} included) are tabulated in Table {n}.",
                "See Table {n} for the data of {event}, {analyte} among them, by well.",
            ),
            event=event_words(event, self.split, self.rng),
            analyte=analyte.name,
            n=self.rng.randint(2, 6),
        )

    def sampled(self, well: str, event: dt.date) -> str:
        return self.pick(
            (
                "{well} was purged and sampled with low-flow methods during {event}.",
                "During {event}, field parameters stabilized in {well} before sampling.",
            ),
            (
                "{well} was gauged, purged and sampled in {event}; no free product was observed.",
                "Field crews sampled {well} in {event} using a peristaltic pump.",
            ),
            well=well_words(well, self.split, self.rng),
            event=event_words(event, self.split, self.rng),
        )

    def tank_removed(self, tank: Tank, site: Site) -> str:
        return self.pick(
            (
                "The {capacity:,}-gallon {product} UST was removed on {date} and the excavation was backfilled.",
                "On {date}, the {capacity:,}-gallon underground storage tank that held {product} was excavated and removed from {site}.",
            ),
            (
                "Removal of the {product} tank ({capacity:,} gal.) was completed {date}; soil samples were taken beneath it.",
                "A {capacity:,} gallon underground tank formerly storing {product} was pulled from the ground on {date}.",
            ),
            capacity=tank.capacity,
            product=tank.product,
            date=long_date(tank.removed),
            site=site.name,
        )

    def tank_installed(self, tank: Tank) -> str:
        return self.pick(
            (
                "A {capacity:,}-gallon {product} UST was installed at the site in {year}.",
                "Fire department records show a {capacity:,}-gallon {product} tank permitted in {year}.",
            ),
            (
                "Records indicate the {product} tank ({capacity:,} gal.) was placed in service in {year}.",
                "A {capacity:,} gallon underground tank for {product} dates from {year}.",
            ),
            capacity=tank.capacity,
            product=tank.product,
            year=tank.installed,
        )

    def closure_pointer(self, tank: Tank) -> str:
        return self.pick(
            (
                "Closure of the {capacity:,}-gallon {product} UST, with the removal date and soil results, is documented in Appendix {x}.",
            ),
            (
                "Appendix {x} holds the closure documentation of the {capacity:,} gal. {product} tank, its removal date included.",
            ),
            capacity=tank.capacity,
            product=tank.product,
            x=self.rng.choice("BCDEF"),
        )

    def conveyance(self, site: Site, index: int, address: str) -> str:
        grantor = site.owners[index - 1].owner if index else "the United States"
        grantee = site.owners[index]
        return self.pick(
            (
                "By deed recorded {date}, {grantor} conveyed the property at {address} to {grantee}.",
                "{grantee} acquired {address} from {grantor} on {date}.",
            ),
            (
                "{grantor}, grantor, to {grantee}, grantee: warranty deed dated {date}, the parcel known as {address}.",
                "Title to {address} passed from {grantor} to {grantee} on {date}.",
            ),
            date=long_date(grantee.start),
            grantor=grantor,
            grantee=grantee.owner,
            address=address,
        )

    def operations(self, owner: Ownership, address: str) -> str:
        return self.pick(
            ("Interviews indicate that {owner} operated a business at {address} for many years.",),
            ("{owner} is remembered by neighbours as the operator at {address}.",),
            owner=owner.owner,
            address=address,
        )

    def flow(self, site: Site, direction: str, scope: str) -> str:
        if scope == "site":
            return self.pick(
                (
                    "Shallow groundwater beneath the site flows toward the {d}, based on the {month} gauging.",
                    "The potentiometric surface indicates groundwater flow to the {d} across the site.",
                ),
                (
                    "Water levels measured in {month} show shallow groundwater moving {d}ward under the property.",
                    "Groundwater gradient at the site is directed to the {d} (calculated from well elevations).",
                ),
                d=direction,
                month=month_year(site.events[-1]),
            )
        if scope == "regional":
            return self.pick(
                (
                    "Regional groundwater flow in the basin is toward the {d}, following topography.",
                ),
                ("Published hydrogeologic maps show regional flow in the aquifer to the {d}.",),
                d=direction,
            )
        return self.pick(  # the deep zone
            ("In the deeper aquifer, groundwater flows toward the {d}.",),
            (
                "Flow in the lower water-bearing zone is to the {d}, opposite in part to the shallow zone.",
            ),
            d=direction,
        )

    def depth(self, site: Site) -> str:
        return self.pick(
            ("Depth to groundwater ranged from about {d} feet below grade in the site wells.",),
            ("Groundwater was gauged at roughly {d} ft bgs across the monitoring network.",),
            d=site.depth_to_water,
        )

    def flow_figure(self, site: Site) -> str:
        return self.pick(
            (
                "Figure {n} shows groundwater elevation contours and the inferred flow direction for {month}.",
            ),
            ("The {month} potentiometric map (Figure {n}) shows contours and the flow arrow.",),
            n=self.rng.randint(3, 7),
            month=month_year(site.events[-1]),
        )


# -- questions ------------------------------------------------------------------------------------


def _other_site(rng: random.Random, site: Site) -> Site:
    """A neighbouring site with the same well names and events, for hard negatives."""
    other = sample_site(rng)
    while other.name == site.name:
        other = sample_site(rng)
    other.wells, other.events = site.wells, site.events
    other.analytes = list(dict.fromkeys(site.analytes + other.analytes))
    other.results = {
        (w, e, a.name): _value(rng, a)
        for w in other.wells
        for e in other.events
        for a in other.analytes
    }
    return other


def _at(site: Site, text: str, rng: random.Random, split: str) -> str:
    """The passage with its site named, as many records do (and a neighbouring site's always do)."""
    prefix = rng.choice(
        (
            (f"At the {site.name}, ", f"{site.name}: "),
            (f"{site.name} ({site.address}) — ", f"At {site.address}, "),
        )[split == "test"]
    )
    return prefix + text[0].lower() + text[1:] if not text[:2].isupper() else prefix + text


def sample_question(rng: random.Random, kind: str, split: str) -> RerankQuestion:
    """One question of `kind` with CANDIDATES graded passages, in `split`'s wordings."""
    if kind not in QUESTION_KINDS:
        raise ValueError(f"unknown question kind {kind!r}; choose from {', '.join(QUESTION_KINDS)}")
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; choose from {', '.join(SPLITS)}")
    site = sample_site(rng)
    other = _other_site(rng, site)
    w = Writer(rng, split, site)
    out: list[tuple[str, str, int, bool, str]] = []  # text, source, grade, essential, role

    def add(
        text: str,
        src: str,
        grade: int,
        role: str,
        essential: bool = False,
        named: bool | None = None,
    ) -> None:
        text = text[0].upper() + text[1:]
        if named if named is not None else rng.random() < 0.3:
            text = _at(other if role == "other-site" else site, text, rng, split)
        out.append((text, src, grade, essential, role))

    event = rng.choice(site.events)
    analyte = rng.choice(site.analytes)
    well = rng.choice(site.wells)
    mon = source("monitoring", split, site, event)
    if kind in ("result", "exceedance"):
        if kind == "result":
            question = w.pick(
                (
                    "What was the {analyte} concentration in {well} in the {when} sampling event at the {site}?",
                    "At the {site}, what {analyte} result was reported for {well} in {when}?",
                ),
                (
                    "How much {analyte} was found in groundwater from {well} when the {site} was sampled in {when}?",
                    "{site}: {analyte} level in {well}, {when} round?",
                ),
                analyte=analyte.name,
                well=well,
                when=month_year(event),
                site=site.name,
            )
        else:
            question = w.pick(
                (
                    "Did {analyte} in {well} exceed its {standard} in the {when} event at the {site}?",
                    "At the {site}, was the {when} {analyte} result for {well} above the {standard}?",
                ),
                (
                    "Was {analyte} in {well} over the {standard} when the {site} was sampled in {when}?",
                    "{site}: did {well} exceed the {standard} for {analyte} in {when}?",
                ),
                analyte=analyte.name,
                well=well,
                when=month_year(event),
                site=site.name,
                standard=standard_words(analyte, "dev") if split == "dev" else "cleanup standard",
            )
        add(
            w.result(site, well, event, analyte),
            rng.choice((mon, source("lab", split, site, event))),
            3,
            "statement",
            True,
        )
        if kind == "exceedance":
            add(w.standard(analyte), mon, 2, "standard", True)
            for a in rng.sample([a for a in site.analytes if a != analyte], 2):
                add(w.standard(a), mon, 0, "other-standard")
        else:
            add(w.results_table(event, analyte), mon, 2, "table")
        others = [e for e in site.events if e != event]
        for e in rng.sample(others, 2):
            add(
                w.result(site, well, e, analyte),
                source("monitoring", split, site, e),
                1,
                "other-event",
            )
        add(w.sampled(well, event), mon, 1, "sampled")
        for other_well in rng.sample([x for x in site.wells if x != well], 3):
            add(w.result(site, other_well, event, analyte), mon, 0, "other-well")
        for a in rng.sample([a for a in site.analytes if a != analyte], 2):
            add(w.result(site, well, event, a), mon, 0, "other-analyte")
        add(
            w.result(other, well, event, analyte),
            source("monitoring", split, other, event),
            0,
            "other-site",
            named=True,
        )
    elif kind == "tank-removal":
        tank = rng.choice(site.tanks)
        question = w.pick(
            (
                "When was the {capacity:,}-gallon {product} UST removed from the {site}?",
                "On what date was the {product} underground storage tank ({capacity:,} gallons) removed at the {site}?",
            ),
            (
                "Removal date of the {capacity:,} gal. {product} tank at the {site}?",
                "When did the {site}'s {capacity:,}-gallon {product} tank come out of the ground?",
            ),
            capacity=tank.capacity,
            product=tank.product,
            site=site.name,
        )
        closure = source("closure", split, site, tank.removed)
        add(w.tank_removed(tank, site), closure, 3, "statement", True)
        add(w.closure_pointer(tank), source("phase2", split, site, tank.removed), 2, "appendix")
        add(w.tank_installed(tank), source("phase1", split, site, tank.removed), 1, "installed")
        for t in site.tanks:
            if t != tank:
                add(w.tank_removed(t, site), closure, 0, "other-tank")
                add(
                    w.tank_installed(t),
                    source("phase1", split, site, t.removed),
                    0,
                    "other-tank-installed",
                )
        twin = Tank(tank.capacity, tank.product, other.tanks[0].installed, other.tanks[0].removed)
        add(
            w.tank_removed(twin, other),
            source("closure", split, other, twin.removed),
            0,
            "other-site",
            named=True,
        )
    elif kind == "ownership":
        index = rng.randrange(len(site.owners) - 1) if len(site.owners) > 1 else 0
        held = site.owners[index]
        end = held.end or dt.date(2026, 1, 1)
        year = rng.randint(held.start.year + 1, max(held.start.year + 1, end.year - 1))
        question = w.pick(
            (
                "Who owned the property at {address} in {year}?",
                "Which party held title to {address} ({site}) in {year}?",
            ),
            (
                "Owner of record of {address} as of {year}?",
                "In {year}, who was the titleholder of the {site} parcel at {address}?",
            ),
            address=site.address,
            year=year,
            site=site.name,
        )
        deeds = source("deed", split, site, held.start)
        add(w.conveyance(site, index, site.address), deeds, 3, "statement", True, named=False)
        if index + 1 < len(site.owners):
            add(
                w.conveyance(site, index + 1, site.address),
                source("deed", split, site, site.owners[index + 1].start),
                2,
                "deed-out",
                named=False,
            )
        add(
            w.operations(held, site.address),
            source("phase1", split, site, event),
            1,
            "operations",
            named=False,
        )
        for i in range(len(site.owners)):
            if i not in (index, index + 1):
                add(
                    w.conveyance(site, i, site.address),
                    source("deed", split, site, site.owners[i].start),
                    0,
                    "other-conveyance",
                    named=False,
                )
        adjoining = f"{int(site.address.split()[0]) + rng.choice((2, 4, 6, 8))} {' '.join(site.address.split()[1:])}"
        for i in rng.sample(range(len(other.owners)), min(3, len(other.owners))):
            add(
                w.conveyance(other, i, adjoining),
                source("deed", split, other, other.owners[i].start),
                0,
                "adjoining-parcel",
                named=False,
            )
    else:  # flow-direction
        question = w.pick(
            (
                "In which direction does shallow groundwater flow beneath the {site}?",
                "What is the groundwater flow direction at the {site}?",
            ),
            (
                "Shallow groundwater at the {site} moves which way?",
                "Which way is the groundwater gradient under the {site} ({address})?",
            ),
            site=site.name,
            address=site.address,
        )
        add(w.flow(site, site.flow, "site"), mon, 3, "statement", True)
        add(w.flow_figure(site), mon, 2, "figure")
        add(w.depth(site), mon, 1, "depth")
        add(
            w.flow(site, site.regional_flow, "regional"),
            source("phase1", split, site, event),
            0,
            "regional-flow",
        )
        add(
            w.flow(site, rng.choice([d for d in DIRECTIONS if d != site.flow]), "deep"),
            source("phase2", split, site, event),
            0,
            "deep-zone",
        )
        add(
            w.flow(other, other.flow, "site"),
            source("monitoring", split, other, event),
            0,
            "other-site",
            named=True,
        )
    traps = tuple(role for _, _, grade, _, role in out if grade == 0)
    # Fill with other facts of the same site: every record of the site file shares its words. A
    # filler never restates what the graded passages are about (the asked tank, the depth to water
    # of a flow question), so it is rightly graded 0.
    asked_tank = tank if kind == "tank-removal" else None
    fillers = [
        lambda: (
            w.result(
                site,
                rng.choice(site.wells),
                rng.choice(site.events),
                rng.choice([a for a in site.analytes if a != analyte]),
            ),
            mon,
        ),
        lambda: (
            w.tank_installed(rng.choice([t for t in site.tanks if t != asked_tank])),
            source("phase1", split, site, event),
        ),
        lambda: (w.standard(rng.choice([a for a in site.analytes if a != analyte])), mon),
        lambda: (
            w.sampled(rng.choice([x for x in site.wells if x != well]), rng.choice(site.events)),
            mon,
        ),
    ]
    if kind != "flow-direction":
        fillers.append(lambda: (w.depth(site), mon))
    texts = {text for text, *_ in out}
    while len(out) < CANDIDATES:
        text, src = rng.choice(fillers)()
        if text not in texts:
            texts.add(text)
            add(text, src, 0, "same-site")
    rng.shuffle(out)
    prefix = rng.choice(("p", "c", "s"))
    passages = tuple(
        CandidatePassage(f"{prefix}{i + 1:02d}", text, src, grade, essential, role)
        for i, (text, src, grade, essential, role) in enumerate(out)
    )
    return RerankQuestion(kind, question, passages, site.name, traps)
