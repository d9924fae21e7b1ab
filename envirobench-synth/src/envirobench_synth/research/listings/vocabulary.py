"""The vocabulary of database reports (street names, name stems, databases by split, layouts,
traps) and their records (`Address`, `Site`, `Listing`, `Report`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
