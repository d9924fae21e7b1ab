"""Regulatory database reports of a property and its neighbours, rendered as PDFs.

A commercial database report (the kind a Phase I assessor orders) lists, for a search radius
around a subject property, every record of every searched database: underground tanks, leaking
tank incidents, spills, hazardous-waste generators, discharge permits, enforcement actions. Each
listing gives a site name, an address, a distance and direction from the subject, the elevation
relative to it and the database's record number. The reader's job is to say, for every listing,
which site it is: the subject property, one of the neighbours the client named, another site, or
none that can be placed.

    rng = make_random(SEED, "test", "dl-test-0007")
    report = sample_report(rng, "test")
    pdf, scanned = render_report(report, SEED, "test", "dl-test-0007")

The truth rule (`Listing.site`), which is what an assessor does:

- a listing with a full street address (a number and a street) is the site at that address: the
  same street number (or a number inside a site's address range, "1200-1250 Main St"), the same
  street name, directional and city, whatever the suffix, directional or unit is written as
  ("St"/"Street", "N."/"North", "Suite 200"/"#200"), however a database's short field cut a long
  street name (COMMER or CMMRC for Commerce), and *whatever name* it is listed under (a former
  occupant at the subject's address is the subject); a listing that gives a range of numbers
  (1415-1421) is the site whose number the range holds; another number, directional, street or
  city is "other";
- a listing whose address gives a street but no number is placed by its name: the site on that
  street whose name (or former name, or d/b/a) it is, written with any corporate suffix
  ("Inc."/"Incorporated", "Co."/"Company"); a name that is no known site's is "unmappable";
- a listing without a street (only a geocoded point, or "address not reported") is "unmappable".

So a name never overrides a full address: the subject's name at another address (a chain's other
store, the owner's other plant) is "other".

The traps, recorded per listing (`Listing.trap`):

    address-variant     a known site's address written differently (suffix, directional, unit,
                        case) under a name variant
    other-occupant      a known site's address under an unrelated or former occupant's name
    in-range            a number inside a neighbour's address range
    named-street-only   a street without a number and a known site's name (or d/b/a, former name)
    same-name-elsewhere a known site's name at another address: "other"
    near-number         a known site's street with a nearby number, or just outside its range
    other-directional   a known site's number and street with the opposite directional
    other-city          a known site's number and street in another city
    other-site          an unrelated site
    unmappable-point    no street, only a geocoded point
    unmappable-street   a street without a number under a name no known site has
    truncated-street    a known site's address with its long street name cut short (TRUNCATION)
    listing-range       a range of numbers holding a known site's number

Families (`LAYOUTS_BY_SPLIT`, `DATABASES_BY_SPLIT`): how listings are laid out and what the
databases are called. The test split's layouts and database titles never occur in dev. Some
reports are scanned (their detail pages are images without a text layer).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from reportlab.pdfbase.pdfmetrics import stringWidth

from ..scans import ScanSettings, sample_scan_settings, scan_document

# -- vocabulary ---------------------------------------------------------------------------------

STREET_NAMES = (
    "Main", "Elm", "Oak", "Depot", "Railroad", "Mill", "Canal", "Harbor", "Washington", "Lincoln",
    "Commerce", "Industrial", "Market", "Maple", "Cedar", "River", "Park", "Jefferson", "Front",
    "Broad", "Water", "Spring", "Walnut", "Franklin",
)  # fmt: skip
SUFFIXES = {  # full name -> the forms reports print (USPS standard first)
    "Street": ("St", "Street", "St.", "Str"),
    "Avenue": ("Ave", "Avenue", "Av", "Ave."),
    "Road": ("Rd", "Road", "Rd."),
    "Drive": ("Dr", "Drive", "Dr."),
    "Boulevard": ("Blvd", "Boulevard", "Blvd."),
    "Parkway": ("Pkwy", "Parkway", "Pky"),
    "Highway": ("Hwy", "Highway"),
    "Lane": ("Ln", "Lane"),
}
DIRECTIONALS = {"N": "North", "S": "South", "E": "East", "W": "West"}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
CITIES = (
    ("Dunmore", "PA", "18512"), ("Greenville", "OH", "45331"), ("Marlow", "OK", "73055"),
    ("Port Ellery", "ME", "04101"), ("Rookwood", "IN", "46201"), ("Cass Lake", "MN", "56633"),
    ("Athens", "GA", "30601"), ("Fairhaven", "WA", "98225"), ("Brandon", "MS", "39042"),
    ("Millbrook", "NY", "12545"),
)  # fmt: skip
NAME_STEMS = (
    "Harmon Tool", "Redfern Petroleum", "Sutter Row Cleaners", "Blue Heron Plating",
    "Kestrel Freight", "Willowbank Printing", "Cedar Point Terminals", "Ironwood Machine",
    "Tamarack Auto Body", "Granite City Coatings", "Lakeside Fuel Stop", "Northgate Motors",
    "Prairie Ag Supply", "Summit Dry Cleaning", "Quarry Hill Concrete", "Riverside Battery",
    "Beacon Electroplating", "Copperline Wire", "Delta Marine Service", "Eastbrook Lumber",
    "Foxglove Paints", "Goldleaf Printing", "Hillcrest Transit", "Juniper Chemical",
    "Keystone Radiator", "Larkspur Laundry", "Midland Asphalt", "Old Mill Tannery",
    "Pioneer Oil", "Redstone Foundry", "Silverton Metals", "Tri-County Waste Haulers",
)  # fmt: skip
BRAND_STEMS = (
    "QuickFuel", "Gas-N-Go", "Pump Stop", "Fleet Fuel", "Corner Mart", "Star Express",
    "Handy Pantry", "Sunrise Food Mart",
)  # fmt: skip
CORPORATE = {  # the suffix's full form -> the forms listings print
    "Incorporated": ("Inc", "Inc.", "Incorporated", "INC"),
    "Corporation": ("Corp", "Corp.", "Corporation"),
    "Company": ("Co", "Co.", "Company"),
    "Limited Liability Company": ("LLC", "L.L.C.", "Limited Liability Company"),
}
HOLDING_STEMS = ("R&J Holdings", "Patel Enterprises", "Marlowe Petroleum", "Sandhu Properties",
                 "Three Rivers Realty", "Baxter Family Trust")  # fmt: skip


@dataclass(frozen=True)
class Database:
    code: str
    title: str
    record_prefix: str


DATABASES_BY_SPLIT = {
    "dev": (
        Database("UST", "UST - Registered Underground Storage Tanks", "UST"),
        Database("LUST", "LUST - Leaking Underground Storage Tank Incidents", "LU"),
        Database("SPILLS", "SPILLS - State Spill and Release Reports", "SP"),
        Database("RCRA-SQG", "RCRA-SQG - Small Quantity Generators of Hazardous Waste", "RC"),
        Database("NPDES", "NPDES - Wastewater Discharge Permits", "NP"),
        Database("ENF", "ENF - Enforcement and Compliance Actions", "EN"),
    ),
    "test": (
        Database("TANKS", "Registered Tank Facilities (state list)", "T"),
        Database("LTANKS", "Leaking Tank Incident Reports", "LT"),
        Database("RELEASES", "Release Notifications and Emergency Responses", "R"),
        Database("HW-GEN", "Hazardous Waste Handlers - Generators", "HW"),
        Database("PERMITS", "Air and Water Permit Holders", "PM"),
        Database("ACTIONS", "Formal Enforcement Actions and Penalties", "FA"),
    ),
}
LAYOUTS_BY_SPLIT = {"dev": ("block", "table"), "test": ("ledger", "compact")}
POINTS = (
    "N",
    "NNE",
    "NE",
    "ENE",
    "E",
    "ESE",
    "SE",
    "SSE",
    "S",
    "SSW",
    "SW",
    "WSW",
    "W",
    "WNW",
    "NW",
    "NNW",
)
TRAPS = (
    "address-variant", "other-occupant", "in-range", "named-street-only", "same-name-elsewhere",
    "near-number", "other-directional", "other-city", "other-site", "unmappable-point",
    "unmappable-street", "truncated-street", "listing-range",
)  # fmt: skip
SITE_TRAPS = (
    "address-variant",
    "other-occupant",
    "in-range",
    "named-street-only",
    "truncated-street",
    "listing-range",
)
# How a database's short street-name field cuts a long name, per split: the dev split's databases
# keep the first six letters (COMMER), the test split's drop the vowels after the first (CMMRC).
TRUNCATION = {"dev": "prefix", "test": "consonants"}
LONG_NAME = 7  # a street name this long or longer gets cut
SCANNED_SHARE = 0.12
SCAN_DPI = 150

# -- records ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Address:
    """A street address; `number_to` makes it a range (1200-1250), `unit` a suite or unit."""

    number: int | None
    predir: str  # "", "N", "S", "E", "W"
    street: str  # "Main"
    suffix: str  # a key of SUFFIXES
    city: str
    state: str
    zip: str
    number_to: int | None = None
    unit: str = ""

    def canonical(self) -> str:
        """The address as a client writes it: "1415 N. Main Street, Suite 200, Dunmore, PA 18512"."""
        number = ""
        if self.number is not None:
            number = f"{self.number}-{self.number_to} " if self.number_to else f"{self.number} "
        predir = f"{self.predir}. " if self.predir else ""
        unit = f", {self.unit}" if self.unit else ""
        return f"{number}{predir}{self.street} {self.suffix}{unit}, {self.city}, {self.state} {self.zip}"


@dataclass(frozen=True)
class Site:
    """A place with a name: the subject, a neighbour (id "N1"...) or another site."""

    id: str
    name: str  # the stem, "Harmon Tool"
    corporate: str  # a key of CORPORATE or ""
    address: Address
    former: str = ""  # a former name stem
    dba: str = ""  # the operator's legal name when the site trades under `name`

    def client_name(self) -> str:
        suffix = f", {self.corporate}" if self.corporate else ""
        text = f"{self.name}{suffix}"
        if self.former:
            text += f" (formerly {self.former})"
        if self.dba:
            text = f"{self.dba} d/b/a {self.name}"
        return text


@dataclass(frozen=True)
class Listing:
    record: str  # the database's record number, printed in the report
    database: Database
    name: str  # as printed
    address_line: str  # as printed ("" when none)
    city_line: str  # "DUNMORE, PA 18512" or ""
    point: str  # "39.78123, -89.65012" when the listing is only a geocoded point
    distance_mi: float
    direction: str  # "TP" at the subject
    elevation: str  # "Higher", "Lower", "Equal"
    status: str
    site: str  # the truth: "subject", "N1"..., "other" or "unmappable"
    trap: str


@dataclass(frozen=True)
class Report:
    subject: Site
    neighbours: tuple[Site, ...]
    listings: tuple[Listing, ...]  # in the report's order (by database, then distance)
    layout: str
    databases: tuple[Database, ...]
    search_date: str
    order_number: str
    scanned: bool = False
    notes: tuple[str, ...] = field(default=())


# -- sampling -----------------------------------------------------------------------------------


def _corporate_form(rng: random.Random, corporate: str) -> str:
    return rng.choice(CORPORATE[corporate]) if corporate else ""


def name_variant(rng: random.Random, stem: str, corporate: str) -> str:
    """`stem` with its corporate suffix in one of its printed forms, in upper or title case."""
    suffix = _corporate_form(rng, corporate)
    comma = rng.choice((", ", " "))
    text = f"{stem}{comma}{suffix}" if suffix else stem
    if rng.random() < 0.2:
        text = text.replace(" & ", " and ") if " & " in text else text
    return text.upper() if rng.random() < 0.6 else text


def address_variant(rng: random.Random, address: Address, *, number: int | None = None,
                    keep_unit: bool = True) -> str:  # fmt: skip
    """The street line of `address` as a database prints it (suffix, directional, unit forms)."""
    n = address.number if number is None else number
    parts = [str(n)] if n is not None else []
    if address.predir:
        parts.append(
            rng.choice((address.predir, f"{address.predir}.", DIRECTIONALS[address.predir]))
        )
    parts.append(address.street)
    parts.append(rng.choice(SUFFIXES[address.suffix]))
    line = " ".join(parts)
    if address.unit and keep_unit and rng.random() < 0.6:
        line += rng.choice((" ", ", ")) + _unit_form(rng, address.unit)
    elif not address.unit and rng.random() < 0.1:
        line += rng.choice((" Suite ", " Ste ", " Unit ", " #")) + str(
            rng.choice((1, 2, 4, 100, 210))
        )
    return line.upper() if rng.random() < 0.65 else line


def _unit_form(rng: random.Random, unit: str) -> str:
    word, number = unit.split(" ", 1)
    forms = {"Suite": ("Suite", "Ste", "Ste.", "#"), "Unit": ("Unit", "#", "Unit No.")}[word]
    form = rng.choice(forms)
    return f"#{number}" if form == "#" else f"{form} {number}"


def city_line(
    rng: random.Random, address: Address, city: tuple[str, str, str] | None = None
) -> str:
    name, state, zipcode = city or (address.city, address.state, address.zip)
    line = f"{name}, {state} {zipcode}" if rng.random() < 0.8 else f"{name} {state}"
    return line.upper() if rng.random() < 0.7 else line


def _street(rng: random.Random, used: set[tuple[str, str]]) -> tuple[str, str]:
    while True:
        street = (rng.choice(STREET_NAMES), rng.choice(tuple(SUFFIXES)))
        if street not in used:
            used.add(street)
            return street


def sample_report(rng: random.Random, split: str) -> Report:
    """One report: a subject, three to five neighbours and 12 to 28 listings (see the module)."""
    if split not in LAYOUTS_BY_SPLIT:
        raise ValueError(f"split must be dev or test, got {split!r}")
    layout = rng.choice(LAYOUTS_BY_SPLIT[split])
    databases = DATABASES_BY_SPLIT[split]
    city = rng.choice(CITIES)
    other_city = rng.choice([c for c in CITIES if c != city])
    used_streets: set[tuple[str, str]] = set()
    main_street = _street(rng, used_streets)
    cross_street = _street(rng, used_streets)
    far_street = _street(rng, used_streets)
    predir = rng.choice(("", "N", "S", "E", "W", "N", "S"))
    stems = rng.sample(NAME_STEMS, 14)
    block = rng.randrange(1, 40) * 100

    def address(number: int | None, street: tuple[str, str], *, pre: str = "", number_to=None,
                unit: str = "", where=city) -> Address:  # fmt: skip
        return Address(
            number, pre, street[0], street[1], where[0], where[1], where[2], number_to, unit
        )

    subject_number = block + rng.randrange(2, 98, 2)
    subject_unit = rng.choice(("", "", "", "Suite 100", "Unit 2"))
    subject = Site(
        "subject", stems[0], rng.choice(tuple(CORPORATE) + ("",)),
        address(subject_number, main_street, pre=predir, unit=subject_unit),
        former=stems[1] if rng.random() < 0.4 else "",
    )  # fmt: skip
    neighbours: list[Site] = []
    count = rng.randint(3, 5)
    taken = {subject_number}
    ranged = rng.random() < 0.7
    for index in range(count):
        on_main = index < 2 or rng.random() < 0.4
        street = main_street if on_main else cross_street
        pre = predir if on_main else ""
        number = block + rng.randrange(2, 98)
        while any(abs(number - t) < 6 for t in taken):
            number = block + rng.randrange(2, 98)
        taken.add(number)
        number_to = None
        if ranged and index == 0:
            number = block + 100 + rng.choice((0, 10, 20))
            number_to = number + rng.choice((30, 50, 60))
        dba = ""
        name, corporate = stems[2 + index], rng.choice(tuple(CORPORATE) + ("", ""))
        if index == 1 and rng.random() < 0.5:
            name, corporate, dba = (
                rng.choice(BRAND_STEMS) + f" #{rng.randint(2, 480)}",
                "",
                rng.choice(HOLDING_STEMS) + " LLC",
            )
        neighbours.append(Site(
            f"N{index + 1}", name, corporate,
            address(number, street, pre=pre, number_to=number_to,
                    unit=rng.choice(("", "", "", "", "Suite 200"))),
            former=stems[8 + index] if rng.random() < 0.3 else "",
            dba=dba,
        ))  # fmt: skip
    known = [subject, *neighbours]
    spare_stems = [s for s in NAME_STEMS if s not in stems]
    records: set[str] = set()

    def record_number(db: Database) -> str:
        while True:
            if split == "dev":
                text = f"{rng.randint(1000000000, 1009999999)}"
            else:
                text = f"{db.record_prefix}-{rng.randint(1000, 99999):06d}"
            if text not in records:
                records.add(text)
                return text

    distances: dict[str, tuple[float, str, str]] = {"subject": (0.0, "TP", "Equal")}
    for site in neighbours:
        distances[site.id] = (
            round(rng.uniform(0.01, 0.12), 3),
            rng.choice(POINTS),
            rng.choice(("Higher", "Lower", "Equal")),
        )

    def far() -> tuple[float, str, str]:
        return round(rng.uniform(0.13, 1.0), 3), rng.choice(POINTS), rng.choice(("Higher", "Lower"))

    def site_name(site: Site) -> str:
        choice = rng.random()
        if site.dba and choice < 0.5:
            return f"{site.dba.upper()} DBA {site.name.upper()}" if rng.random() < 0.5 else site.dba
        if site.former and choice < 0.35:
            return name_variant(rng, site.former, site.corporate)
        return name_variant(rng, site.name, site.corporate)

    plan: list[str] = []
    n_listings = rng.randint(12, 28)
    weights = {
        "address-variant": 6, "other-occupant": 1.5, "in-range": 1.5 if ranged else 0,
        "named-street-only": 1.2, "same-name-elsewhere": 1.2, "near-number": 1.5,
        "other-directional": 0.8 if predir else 0, "other-city": 0.6, "other-site": 3,
        "unmappable-point": 1, "unmappable-street": 0.8,
        "truncated-street": 2.0 if any(len(k.address.street) >= LONG_NAME for k in known) else 0,
        "listing-range": 1.0,
    }  # fmt: skip
    # Every report carries at least one listing of the subject and of a neighbour, and one trap.
    plan += [
        "address-variant",
        "address-variant",
        rng.choice(("same-name-elsewhere", "near-number", "unmappable-point")),
    ]
    kinds, w = zip(*[(k, v) for k, v in weights.items() if v], strict=True)
    plan += rng.choices(kinds, w, k=n_listings - len(plan))
    listings: list[Listing] = []
    first_site_done = False
    for trap in plan:
        db = rng.choice(databases)
        status = _status(rng, db)
        point = ""
        city_text = city_line(rng, subject.address)
        if trap == "address-variant":
            site = subject if not first_site_done else rng.choice(known)
            first_site_done = True
            number = site.address.number
            if site.address.number_to:
                number = site.address.number if rng.random() < 0.5 else site.address.number_to
            line = address_variant(rng, site.address, number=number)
            name, truth = site_name(site), site.id
        elif trap == "truncated-street":
            site = rng.choice([k for k in known if len(k.address.street) >= LONG_NAME])
            cut = dataclasses.replace(
                site.address, street=truncate(site.address.street, TRUNCATION[split])
            )
            line = address_variant(rng, cut, number=site.address.number)
            name, truth = site_name(site), site.id
        elif trap == "listing-range":
            # The listing spans a few numbers (a facility's frontage), one of them the site's.
            site = rng.choice([k for k in known if not k.address.number_to])
            low = site.address.number - rng.choice((0, 2, 4))
            high = low + rng.choice((4, 6, 8))
            if any(k is not site and _overlaps(k.address, low, high, site.address) for k in known):
                low, high = site.address.number, site.address.number
            line = address_variant(rng, site.address, number=low)
            if high != low:
                line = f"{low}-{high}" + line[len(str(low)) :]
            name, truth = site_name(site), site.id
        elif trap == "other-occupant":
            site = rng.choice(known)
            line = address_variant(rng, site.address, number=site.address.number)
            name, truth = (
                name_variant(
                    rng,
                    spare_stems.pop(rng.randrange(len(spare_stems))),
                    rng.choice(tuple(CORPORATE)),
                ),
                site.id,
            )
        elif trap == "in-range":
            site = neighbours[0]
            number = rng.randrange(site.address.number + 1, site.address.number_to)
            line = address_variant(rng, site.address, number=number)
            name = (
                site_name(site)
                if rng.random() < 0.5
                else name_variant(rng, spare_stems.pop(rng.randrange(len(spare_stems))), "Company")
            )
            truth = site.id
        elif trap == "named-street-only":
            site = rng.choice(known)
            line = address_variant(rng, site.address, keep_unit=False).split(" ", 1)[1]
            name, truth = site_name(site), site.id
        elif trap == "same-name-elsewhere":
            site = rng.choice(known)
            street = (
                far_street
                if rng.random() < 0.6 or site.address.street == cross_street[0]
                else cross_street
            )
            number = rng.randrange(100, 9900)
            while any(
                _covers(k.address, number, None) and k.address.street == street[0] for k in known
            ):
                number = rng.randrange(100, 9900)
            elsewhere = address(number, street)
            line = address_variant(rng, elsewhere)
            name, truth = name_variant(rng, site.name, site.corporate), "other"
        elif trap == "near-number":
            site = rng.choice(known)
            base = site.address.number_to or site.address.number
            number = base + rng.choice(
                (2, 4, 6, 10, 18, 36, -2 if not site.address.number_to else 2)
            )
            if site.address.number_to is None and rng.random() < 0.4:
                digits = str(site.address.number)
                number = (
                    int(digits[:-2] + digits[-1] + digits[-2])
                    if len(digits) > 2 and digits[-1] != digits[-2]
                    else number
                )
            if any(_covers(k.address, number, site.address) for k in known):
                number += 200
            line = address_variant(rng, site.address, number=number, keep_unit=False)
            name, truth = (
                name_variant(
                    rng,
                    spare_stems.pop(rng.randrange(len(spare_stems))),
                    rng.choice(tuple(CORPORATE)),
                ),
                "other",
            )
        elif trap == "other-directional":
            site = rng.choice([k for k in known if k.address.predir])
            flipped = Address(site.address.number, OPPOSITE[site.address.predir], site.address.street,
                              site.address.suffix, city[0], city[1], city[2])  # fmt: skip
            line = address_variant(rng, flipped)
            name, truth = (
                name_variant(
                    rng,
                    spare_stems.pop(rng.randrange(len(spare_stems))),
                    rng.choice(tuple(CORPORATE)),
                ),
                "other",
            )
        elif trap == "other-city":
            site = rng.choice(known)
            line = address_variant(rng, site.address, keep_unit=False)
            city_text = city_line(rng, site.address, other_city)
            name = name_variant(
                rng, spare_stems.pop(rng.randrange(len(spare_stems))), rng.choice(tuple(CORPORATE))
            )
            truth = "other"
        elif trap == "other-site":
            street = rng.choice((far_street, cross_street, main_street))
            number = rng.randrange(100, 9900)
            while any(
                _covers(k.address, number, None) and k.address.street == street[0] for k in known
            ):
                number = rng.randrange(100, 9900)
            other = address(number, street, pre=predir if street == main_street else "")
            line = address_variant(rng, other)
            name, truth = (
                name_variant(
                    rng,
                    spare_stems.pop(rng.randrange(len(spare_stems))),
                    rng.choice(tuple(CORPORATE)),
                ),
                "other",
            )
        elif trap == "unmappable-point":
            line = ""
            city_text = city_line(rng, subject.address) if rng.random() < 0.5 else ""
            point = f"{rng.uniform(30, 47):.5f}, {-rng.uniform(75, 118):.5f}"
            name, truth = (
                name_variant(
                    rng,
                    spare_stems.pop(rng.randrange(len(spare_stems))),
                    rng.choice(tuple(CORPORATE)),
                ),
                "unmappable",
            )
        else:  # unmappable-street
            street = rng.choice((main_street, cross_street))
            line = address_variant(
                rng, address(None, street, pre=predir if street == main_street else "")
            )
            name, truth = (
                name_variant(
                    rng,
                    spare_stems.pop(rng.randrange(len(spare_stems))),
                    rng.choice(tuple(CORPORATE)),
                ),
                "unmappable",
            )
        if not spare_stems:
            spare_stems = [s for s in NAME_STEMS if s not in stems]
        if truth in distances:
            distance, direction, elevation = distances[truth]
        elif trap == "near-number":  # next door: as close as a neighbour, so distance tells nothing
            distance, direction, elevation = (
                round(rng.uniform(0.01, 0.12), 3),
                rng.choice(POINTS),
                rng.choice(("Higher", "Lower", "Equal")),
            )
        else:
            distance, direction, elevation = far()
        if truth == "unmappable":
            distance, direction, elevation = -1.0, "", ""
        listings.append(Listing(record_number(db), db, name, line, city_text, point, distance,
                                direction, elevation, status, truth, trap))  # fmt: skip
    order = {db.code: i for i, db in enumerate(databases)}
    listings.sort(
        key=lambda item: (order[item.database.code], item.distance_mi < 0, item.distance_mi)
    )
    return Report(
        subject, tuple(neighbours), tuple(listings), layout, databases,
        search_date=f"{rng.randint(2019, 2025)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
        order_number=f"{rng.randint(4000000, 7999999)}.{rng.randint(1, 9)}s",
        scanned=rng.random() < SCANNED_SHARE,
    )  # fmt: skip


def truncate(street: str, style: str) -> str:
    """A long street name as a database's short field holds it (see TRUNCATION)."""
    if style == "prefix":
        return street[:6]
    return street[0] + "".join(ch for ch in street[1:] if ch.lower() not in "aeiou")


def _overlaps(address: Address, low: int, high: int, like: Address) -> bool:
    if (address.street, address.predir) != (like.street, like.predir) or address.number is None:
        return False
    return not (high < address.number or (address.number_to or address.number) < low)


def _covers(address: Address, number: int, like: Address | None) -> bool:
    """Whether `number` is `address`'s number or inside its range (on `like`'s street, if given)."""
    if like is not None and (address.street, address.predir) != (like.street, like.predir):
        return False
    if address.number is None:
        return False
    high = address.number_to or address.number
    return address.number <= number <= high


def _status(rng: random.Random, db: Database) -> str:
    options = {
        0: ("Tanks: 2 (1 removed)", "Tanks: 3 in use", "Tanks: 1 closed in place", "Tanks: 4 (all removed)"),
        1: ("Status: Open", "Status: Closed - NFA issued", "Status: Case closed", "Status: Active remediation"),
        2: ("Spill: 30 gal diesel", "Spill: unknown petroleum", "Spill: 5 gal hydraulic oil", "Release: gasoline to soil"),
        3: ("Generator class: SQG", "Generator class: CESQG", "Violations: none found", "Violations: 2"),
        4: ("Permit status: Active", "Permit status: Expired", "Permit: general stormwater", "Permit: individual"),
        5: ("Action: consent order", "Action: notice of violation", "Penalty: $4,500", "Action: compliance letter"),
    }  # fmt: skip
    # Both splits list their databases in the same order: tanks, leaks, spills, waste, permits, enforcement.
    position = [d.code for d in DATABASES_BY_SPLIT["dev"] + DATABASES_BY_SPLIT["test"]].index(
        db.code
    ) % 6
    return rng.choice(options[position])


# -- rendering ----------------------------------------------------------------------------------

PAGE = (612.0, 792.0)
MARGIN = 50.0
PDF_CREATOR = "EnviroBench synthetic database report"


@dataclass(frozen=True)
class Line:
    text: str
    size: float = 9.0
    bold: bool = False
    x: float = 0.0  # indent from the margin
    columns: tuple[tuple[float, str], ...] = ()  # (x from margin, text) cells of a table row


def paginate(blocks: Sequence[Sequence[Line]], header: str, footer: str) -> list[list[Line]]:
    """Blocks of lines onto pages; a block never splits across pages (unless it is too long)."""
    usable = PAGE[1] - 2 * MARGIN - 40
    pages: list[list[Line]] = [[]]
    height = 0.0
    for block in blocks:
        need = sum(line.size * 1.45 for line in block)
        if height + need > usable and pages[-1]:
            pages.append([])
            height = 0.0
        pages[-1].extend(block)
        height += need
    return pages


def draw_lines(canvas, lines: Sequence[Line], header: str, footer: str) -> None:
    y = PAGE[1] - MARGIN
    canvas.setFont("Helvetica", 7.5)
    canvas.drawString(MARGIN, y, header)
    canvas.drawRightString(PAGE[0] - MARGIN, MARGIN - 20, footer)
    y -= 24
    for line in lines:
        font = "Helvetica-Bold" if line.bold else "Helvetica"
        canvas.setFont(font, line.size)
        if line.columns:
            for x, text in line.columns:
                canvas.drawString(MARGIN + x, y, text)
        elif line.text:
            canvas.drawString(MARGIN + line.x, y, line.text)
        y -= line.size * 1.45


def render_pages(pages: list[list[Line]], header: str, title: str, seed: int, labels: Sequence[str | int],
                 scanned: Sequence[int] = (), scan_rng: random.Random | None = None) -> bytes:  # fmt: skip
    """A PDF of line pages; pages in `scanned` (0-based) become bitonal scans at SCAN_DPI."""

    def draw(canvas, index: int) -> None:
        draw_lines(canvas, pages[index], header, f"Page {index + 1} of {len(pages)}")

    scans: dict[int, ScanSettings] = {}
    for index in scanned:
        settings = sample_scan_settings(
            scan_rng or random.Random(0), mode="bitonal", skew=(0.2, 1.2), dpi=SCAN_DPI,
            turn_chance=0.0, stamp_chance=0.15, pen_chance=0.1, fax_chance=0.0, jpeg_chance=0.0,
        )  # fmt: skip
        scans[index] = settings
    result = scan_document(
        draw, [PAGE] * len(pages), scans, seed, *labels, title=title, creator=PDF_CREATOR
    )
    return result.pdf


def _fit(text: str, width: float, size: float = 8.0) -> str:
    while text and stringWidth(text, "Helvetica", size) > width:
        text = text[:-1]
    return text


def _distance(listing: Listing, style: str) -> str:
    if listing.distance_mi < 0:
        return "Not mapped" if style == "dev" else "n/a"
    if listing.direction == "TP":
        return "TP / 0.000 mi" if style == "dev" else "Target property"
    feet = round(listing.distance_mi * 5280)
    if style == "dev":
        return f"{listing.direction} {listing.distance_mi:.3f} mi ({feet} ft)"
    return f"{listing.distance_mi:.2f} mi {listing.direction}"


def _address_text(listing: Listing) -> tuple[str, str]:
    street = listing.address_line or "ADDRESS NOT REPORTED"
    city = listing.city_line
    if listing.point:
        city = (city + "  " if city else "") + f"Lat/Long: {listing.point}"
    return street, city


def report_blocks(report: Report) -> list[list[Line]]:
    blocks: list[list[Line]] = []
    s = report.subject
    title = (
        "Regulatory Database Radius Report"
        if report.layout in ("block", "table")
        else "Environmental Records Search"
    )
    blocks.append([
        Line(title, 16, True), Line(""),
        Line(f"Order No. {report.order_number}    Search date: {report.search_date}"), Line(""),
        Line("Subject property" if report.layout in ("block", "table") else "TARGET PROPERTY", 11, True),
        Line(s.name.upper()), Line(s.address.canonical().upper()), Line(""),
        Line("Databases searched", 11, True),
        *[Line(db.title, 8.5, x=10) for db in report.databases], Line(""),
        Line("Listings are ordered by database and by distance from the subject property. Elevation is "
             "relative to the subject property.", 8), Line(""),
    ])  # fmt: skip
    for db in report.databases:
        rows = [item for item in report.listings if item.database.code == db.code]
        head = [Line(db.title, 11, True), Line(f"{len(rows)} record(s) found", 8)]
        if not rows:
            blocks.append([*head, Line("")])
            continue
        if report.layout == "table":
            columns = (0, 28, 185, 330, 430)
            header = Line(
                "",
                7.5,
                True,
                columns=tuple(
                    zip(
                        columns,
                        ("Map", "Site", "Address", "Dist / Dir / Elev", "Record ID"),
                        strict=True,
                    )
                ),
            )
            blocks.append([*head, header])
            for number, item in enumerate(rows, 1):
                street, city = _address_text(item)
                dist = _distance(item, "dev") + (f" {item.elevation}" if item.elevation else "")
                blocks.append([
                    Line("", 7.5, columns=((0, str(number)), (28, _fit(item.name, 150, 7.5)), (185, _fit(street, 140, 7.5)),
                                             (330, _fit(dist, 98, 7.5)), (430, item.record))),
                    Line("", 7.5, columns=((185, _fit(city, 240, 7.5)), (28, item.status))),
                ])  # fmt: skip
            continue
        blocks.append(head)
        for number, item in enumerate(rows, 1):
            street, city = _address_text(item)
            if report.layout == "block":
                blocks.append([
                    Line(f"Map ID {number}    {_distance(item, 'dev')}    {item.elevation + ' elevation' if item.elevation else ''}", 8.5, True),
                    Line(item.name, 9, x=10), Line(street, 9, x=10), Line(city, 9, x=10),
                    Line(f"Database: {db.code}    Record ID: {item.record}    {item.status}", 8, x=10), Line("", 5),
                ])  # fmt: skip
            elif report.layout == "ledger":
                blocks.append([
                    Line(f"Record No.: {item.record}", 8.5, True),
                    Line(f"Facility: {item.name}", 9, x=12), Line(f"Location: {street}", 9, x=12),
                    Line(f"          {city}", 9, x=12) if city else Line("", 2),
                    Line(f"Bearing/Distance: {_distance(item, 'test')}    Relative elevation: {item.elevation or 'n/a'}", 8, x=12),
                    Line(f"List: {db.code}    {item.status}", 8, x=12), Line("", 5),
                ])  # fmt: skip
            else:  # compact
                blocks.append([
                    Line(f"{number:>3}  {item.record}  {item.name}", 8.5),
                    Line(f"{street}{' / ' + city if city else ''}", 8.5, x=30),
                    Line(f"{_distance(item, 'test')}  elev. {(item.elevation or 'n/a').lower()}  {item.status}", 8, x=30),
                    Line("", 4),
                ])  # fmt: skip
    return blocks


def render_report(report: Report, seed: int, *labels: str | int) -> tuple[bytes, tuple[int, ...]]:
    """The report's PDF and its scanned pages (1-based): a scanned report's every page after the
    first is an image without a text layer."""
    blocks = report_blocks(report)
    header = f"Order {report.order_number} - {report.subject.name.upper()}"
    pages = paginate(blocks, header, "")
    scanned = tuple(range(1, len(pages))) if report.scanned else ()
    from ..rng import make_random

    pdf = render_pages(
        pages, header, "Database report", seed, labels, scanned, make_random(seed, *labels, "scan")
    )
    return pdf, tuple(i + 1 for i in scanned)
