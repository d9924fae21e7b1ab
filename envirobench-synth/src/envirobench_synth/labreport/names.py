"""Invented names for lab reports: clients, contacts, projects, addresses, analysts.

Every name is made up. As with the catalogue, grow these pools by appending: samplers pick by
position, so inserting in the middle would change every dataset generated from them.
`person(rng)` and `address(rng)` draw a person's name and a two-line street address from them.
"""

from __future__ import annotations

import random

CLIENTS: tuple[str, ...] = (
    "Harwick & Lowe Environmental Consultants",
    "Brightwater Geoscience, LLC",
    "Ostrander Site Services",
    "Pellham Engineering Group",
    "Cinderford Environmental, Inc.",
    "Alder Creek Remediation Partners",
    "Maplethorne Consulting Engineers",
    "Rookwood Hydrogeology Associates",
    "Saltmarsh Environmental Group",
    "Teasdale & Brook Geologists",
)

FIRST_NAMES: tuple[str, ...] = (
    "Alicia",
    "Bernard",
    "Carmen",
    "Darius",
    "Elena",
    "Felix",
    "Greta",
    "Hector",
    "Imogen",
    "Jonah",
    "Keiko",
    "Lionel",
    "Marisol",
    "Nathan",
    "Odette",
    "Priya",
    "Quentin",
    "Rosalind",
)

LAST_NAMES: tuple[str, ...] = (
    "Abernathy",
    "Bellweather",
    "Castellanos",
    "Drummond",
    "Esterhaus",
    "Fairbairn",
    "Galloway",
    "Hollis",
    "Ingersoll",
    "Jaramillo",
    "Kettering",
    "Lindqvist",
    "Mossberg",
    "Nakashima",
    "Okonkwo",
    "Prendergast",
)

SITES: tuple[str, ...] = (
    "Former Riverside Dry Cleaners",
    "Elm Street Service Station",
    "Northgate Industrial Park, Building C",
    "Old Mill Road Landfill",
    "Cedar Avenue Auto Repair",
    "Harbor Point Fuel Terminal",
    "Lakeview Plating Works",
    "Westfield Rail Yard",
    "Pine Hollow Manufacturing",
    "Quarry Lane Former Gas Works",
    "Maple Court Apartments (Phase II)",
    "Sunset Boulevard Shopping Center",
)

STREETS: tuple[str, ...] = (
    "Main Street",
    "Industrial Way",
    "Commerce Drive",
    "Harbor Road",
    "Mill Street",
    "Station Avenue",
    "Quarry Lane",
    "Ridge Road",
    "Canal Street",
    "Foundry Row",
)

CITIES: tuple[tuple[str, str, str], ...] = (
    ("Fairhaven", "MA", "02719"),
    ("Springdale", "OH", "45246"),
    ("Clearwater", "MN", "55320"),
    ("Greenville", "NC", "27834"),
    ("Riverton", "WY", "82501"),
    ("Millbrook", "NY", "12545"),
    ("Oakdale", "CA", "95361"),
    ("Brookfield", "WI", "53005"),
)

TITLES: tuple[str, ...] = (
    "Laboratory Director",
    "Project Manager",
    "Quality Assurance Manager",
    "Technical Director",
)

REVISION_REASONS: tuple[str, ...] = (
    "Sample ID corrected at the client's request.",
    "Results re-reported after re-analysis at a dilution.",
    "Units corrected on the results pages.",
    "Project name corrected at the client's request.",
    "Qualifier added after review of the method blank.",
)


def person(rng: random.Random) -> str:
    """A first and a last name (two draws, in that order)."""
    return f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"


def address(rng: random.Random) -> tuple[str, str]:
    """(street line, "City, ST zip"): the city is drawn first, then the number and the street."""
    city, state, zip_code = rng.choice(CITIES)
    return (f"{rng.randint(10, 9899)} {rng.choice(STREETS)}", f"{city}, {state} {zip_code}")
