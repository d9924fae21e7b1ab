"""Historical-use records of a property: city directories, fire-insurance maps, aerial photographs.

A Phase I assessor reconstructs a property's past uses from three kinds of historical source and
bundles them in a report's appendix: city directory listings by year (who was at the address,
with a trade descriptor), fire-insurance (Sanborn-style) map descriptions (the building's
construction and use as the map's legend marks it) and aerial photograph descriptions (what the
property looks like from the air). This module draws a property's true history, the sources an
assessor would find for it and renders them as one text-layer PDF.

    rng = make_random(SEED, "test", "hu-test-0007")
    history = sample_history(rng, "test")
    pdf = render_history(history, SEED, "test", "hu-test-0007")

The uses come from one pinned vocabulary (`USES`). The truth (`History.periods`) is what the
sources document, not the hidden history: for each run of one use on the property, the period
runs from the first to the last year of a source that shows that use there (a directory entry at
the property's own address, a map or photograph whose description names the use). A run that no
source shows is not in the truth. Two uses may hold at once (a retail store and a dry cleaner in
one building: two directory entries at the address in the same year).

Sources that show nothing, and so neither start nor extend a period: a directory year where the
address is "not listed", an aerial photograph whose description does not tell the use ("a
commercial building; use not discernible"), a map sheet that does not cover the property.

The traps, counted per history (`History.traps`):

    adjacent-address   directory entries for the neighbouring numbers (1413, 1417 beside 1415),
                       some with telling uses (a gasoline station next door)
    not-listed         directory years without an entry for the address
    undiscernible      aerial photographs that do not show the use
    concurrent         two uses at once (two occupants in the same years)
    renamed            the same use under a new occupant's name (still one period)
    trade-abbreviation directory trade descriptors abbreviated as directories print them

Families (`STYLES_BY_SPLIT`): how the sources are worded and laid out; the test split's
descriptor wordings, map legends and layouts never occur in dev.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .listings import Line, paginate, render_pages

USES = (
    "residential", "agricultural", "vacant", "gasoline-station", "auto-repair", "dry-cleaner",
    "manufacturing", "warehouse", "retail", "office", "restaurant", "parking",
)  # fmt: skip
STYLES_BY_SPLIT = {"dev": ("by-source", "abstract"), "test": ("chronology", "appendix")}
TRAPS = (
    "adjacent-address",
    "not-listed",
    "undiscernible",
    "concurrent",
    "renamed",
    "trade-abbreviation",
)

# What each source says for a use, per split: directory trade descriptors, map legends, aerial
# descriptions. A use with no aerial wording is not discernible from the air.
DIRECTORY_TRADES = {
    "dev": {
        "gasoline-station": ("gasoline filling station", "gas sta", "service station"),
        "auto-repair": ("auto repairing", "auto repr", "garage"),
        "dry-cleaner": ("dry cleaners", "clnrs & dyers", "cleaning and pressing"),
        "manufacturing": ("machine shop", "mfrs", "metal products mfg"),
        "warehouse": ("warehouse", "whse", "storage"),
        "retail": ("grocer", "hardware", "variety store"),
        "office": ("insurance agency", "real estate", "attorneys"),
        "restaurant": ("restaurant", "lunch room", "cafe"),
        "parking": ("parking lot", "auto parking"),
    },
    "test": {
        "gasoline-station": ("Filling Stations-Gasoline", "petroleum products retail", "gas & oil"),
        "auto-repair": ("Automobile Repairing & Service", "body & fender wk", "auto mechanics"),
        "dry-cleaner": ("Cleaners & Dyers", "dry clg plant", "valet & dry cleaning"),
        "manufacturing": ("Manufacturers-Metal Goods", "plating wks", "tool & die"),
        "warehouse": ("Storage-Merchandise", "distribution center", "wholesale depot"),
        "retail": ("Retail-General Merchandise", "drug store", "appliance dealer"),
        "office": ("Offices-Professional", "accountants", "title company"),
        "restaurant": ("Eating Places", "diner", "tavern & grill"),
        "parking": ("Parking Stations", "park & lock"),
    },
}
RESIDENT_MARK = {"dev": ("r", "h", "res"), "test": ("(res)", "householder", "(h)")}
VACANT_WORDS = {"dev": ("Vacant", "vacant"), "test": ("Unoccupied", "(vacant)")}
NOT_LISTED = {
    "dev": ("No listing", "Address not listed"),
    "test": ("No return", "Not in directory"),
}
MAP_LEGENDS = {
    "dev": {
        "residential": "a two-story frame dwelling (D) with an auto garage (A) at the rear",
        "gasoline-station": "a one-story filling station with gasoline tanks (G.T.) at the front",
        "auto-repair": "a one-story concrete-block building labelled Auto Repairing",
        "dry-cleaner": "a one-story brick building labelled Cleaning & Dyeing, boiler at rear",
        "manufacturing": "a brick machine shop with a foundry annex",
        "warehouse": "a one-story brick warehouse with a loading platform",
        "retail": "a one-story brick store (S)",
        "office": "a two-story brick office building",
        "restaurant": "a one-story frame building labelled Restaurant",
        "vacant": "no structures; the lot is shown vacant",
    },
    "test": {
        "residential": "1 1/2-st. fr. dwg. with detached auto (Dwg.)",
        "gasoline-station": "Filling Sta. (1-st. conc.), 3 underground gas tanks noted",
        "auto-repair": "Auto Rep. & Paint (1-st. C.B.)",
        "dry-cleaner": "Dry Clg. (1-st. Bk.) - cleaning fluid tank noted",
        "manufacturing": "Mfg. - Plating & Polishing (2-st. Bk.)",
        "warehouse": "Whse. (1-st. Bk.), R.R. siding",
        "retail": "Store (1-st. Bk.)",
        "office": "Offs. (2-st. Bk.)",
        "restaurant": "Lunch Rm. (1-st. fr.)",
        "vacant": "lot unbuilt",
    },
}
AERIAL = {
    "dev": {
        "residential": "a house with a yard and a detached garage",
        "agricultural": "cultivated fields in rows",
        "vacant": "an undeveloped, cleared lot",
        "gasoline-station": "a small building with a canopy and pump islands at the street",
        "parking": "an open paved parking lot with striped spaces",
        "warehouse": "a large flat-roofed building with loading docks and trailers",
    },
    "test": {
        "residential": "single-family residence, driveway visible",
        "agricultural": "orchard or cropland",
        "vacant": "bare ground, no improvements",
        "gasoline-station": "fuel canopy and dispenser islands with a kiosk",
        "parking": "surface parking covering the parcel",
        "warehouse": "bulk storage building with truck courts",
    },
}
UNDISCERNIBLE = {
    "dev": "a commercial building; its use cannot be discerned",
    "test": "structure present; occupancy not identifiable from the photograph",
}
SURNAMES = ("Kowalski", "Brennan", "Okafor", "Lindqvist", "Marchetti", "Haddad", "Nguyen", "Fischer",
            "Delgado", "Whitcomb", "Abernathy", "Sato")  # fmt: skip
FIRST = ("John", "Mary", "Walter", "Edna", "Frank", "Ruth", "George", "Alice", "Harold", "Irene")
BUSINESS = {
    "gasoline-station": ("{n} Texaco", "{n} Service", "Corner Gas", "{n} Mobil"),
    "auto-repair": ("{n} Garage", "{n} Auto Body", "Precision Motors"),
    "dry-cleaner": ("{n} Cleaners", "One Hour Valet", "Spotless Cleaners"),
    "manufacturing": ("{n} Machine Works", "Acme Plating Co", "{n} Tool & Die"),
    "warehouse": ("{n} Storage Co", "Central Freight Whse", "{n} Distributors"),
    "retail": ("{n} Hardware", "{n} Grocery", "Ben Franklin Store"),
    "office": ("{n} Insurance", "{n} & Assoc", "First Title Co"),
    "restaurant": ("{n}'s Diner", "Blue Plate Cafe", "{n} Grill"),
    "parking": ("{n} Parking", "City Park-Rite"),
}
DIRECTORY_YEARS = tuple(range(1930, 2021, 5))
MAP_YEARS = (1927, 1939, 1950, 1962, 1969, 1978)
AERIAL_YEARS = (1938, 1949, 1957, 1966, 1974, 1983, 1994, 2005, 2013, 2019)
TOLERANCE_NOTE = "periods are documented spans: the first to the last source year showing the use"


@dataclass(frozen=True)
class Period:
    use: str
    from_year: int
    to_year: int


@dataclass(frozen=True)
class Entry:
    """One line of one source: `kind` directory, map or aerial; `shows` the use it shows at the
    property ("" when none)."""

    kind: str
    year: int
    address: str
    text: str
    shows: str


@dataclass(frozen=True)
class History:
    address: str
    number: int
    street: str
    city: str
    style: str
    entries: tuple[Entry, ...]
    periods: tuple[Period, ...]  # the truth: documented periods
    hidden: tuple[Period, ...]  # the drawn history (every run, documented or not)
    traps: tuple[str, ...]


def _runs(rng: random.Random) -> list[Period]:
    """A drawn history: consecutive periods from 1925 to 2020, plus now and then a concurrent one."""
    start = rng.choice((1920, 1925))
    first = rng.choice(("agricultural", "vacant", "residential", "residential"))
    commercial = [u for u in USES if u not in ("agricultural", "vacant", "residential")]
    uses = [first]
    for _ in range(rng.randint(2, 4)):
        uses.append(rng.choice([u for u in commercial + ["vacant"] if u != uses[-1]]))
    cuts = sorted(rng.sample(range(start + 12, 2014, 1), len(uses) - 1))
    bounds = [start, *cuts, 2020]
    runs = [
        Period(u, bounds[i], bounds[i + 1] - 1 if i + 1 < len(uses) else 2020)
        for i, u in enumerate(uses)
    ]
    if rng.random() < 0.3:
        host = rng.choice(
            [r for r in runs if r.use in ("retail", "office", "warehouse", "restaurant")]
            or [runs[-1]]
        )
        if host.to_year - host.from_year >= 14:
            a = rng.randint(host.from_year, host.to_year - 10)
            b = rng.randint(a + 8, host.to_year)
            # A use the property never has otherwise, so no two documented periods of it abut.
            spare = [
                u for u in ("dry-cleaner", "auto-repair", "restaurant", "office") if u not in uses
            ]
            if not spare:
                return runs
            extra = rng.choice(spare)
            runs.append(Period(extra, a, b))
    return runs


def _use_at(runs: list[Period], year: int) -> list[str]:
    return [r.use for r in runs if r.from_year <= year <= r.to_year]


def sample_history(rng: random.Random, split: str) -> History:
    if split not in STYLES_BY_SPLIT:
        raise ValueError(f"split must be dev or test, got {split!r}")
    style = rng.choice(STYLES_BY_SPLIT[split])
    runs = _runs(rng)
    number = rng.randrange(101, 2999, 2)
    street = rng.choice(("Main Street", "Railroad Avenue", "Depot Street", "Mill Road", "Canal Street",
                         "Market Street", "Front Street", "Water Street"))  # fmt: skip
    city = rng.choice(("Dunmore", "Greenville", "Marlow", "Rookwood", "Athens", "Brandon"))
    address = f"{number} {street}"
    trades = DIRECTORY_TRADES[split]
    names: dict[tuple[str, int], str] = {}
    traps: set[str] = set()

    def occupant(run: Period, year: int) -> str:
        # An occupant keeps its name for a stretch, then a new one takes over the same use.
        stint = (year - run.from_year) // 18
        key = (run.use + str(run.from_year), stint)
        if key not in names:
            if run.use == "residential":
                names[key] = f"{rng.choice(SURNAMES)} {rng.choice(FIRST)}"
            else:
                names[key] = rng.choice(BUSINESS[run.use]).format(n=rng.choice(SURNAMES))
            if stint:
                traps.add("renamed")
        return names[key]

    entries: list[Entry] = []
    years = [y for y in DIRECTORY_YEARS if y >= runs[0].from_year + 5 and rng.random() < 0.85]
    for year in years:
        here = [
            r for r in runs if r.from_year <= year <= r.to_year and r.use not in ("agricultural",)
        ]
        lines: list[tuple[str, str]] = []
        if rng.random() < 0.1 or not here:
            lines.append((rng.choice(NOT_LISTED[split]), ""))
            traps.add("not-listed")
        else:
            for run in here:
                if run.use == "vacant":
                    lines.append((rng.choice(VACANT_WORDS[split]), "vacant"))
                elif run.use == "residential":
                    lines.append(
                        (f"{occupant(run, year)} {rng.choice(RESIDENT_MARK[split])}", "residential")
                    )
                else:
                    trade = rng.choice(trades[run.use])
                    if trade != trades[run.use][0]:
                        traps.add("trade-abbreviation")
                    lines.append((f"{occupant(run, year)} {trade}", run.use))
            if len(here) > 1:
                traps.add("concurrent")
        for text, shows in lines:
            entries.append(Entry("directory", year, address, text, shows))
        for offset in rng.sample((-2, 2, -4, 4), rng.randint(1, 2)):
            neighbour_use = rng.choice(
                ("residential", "gasoline-station", "auto-repair", "dry-cleaner", "retail")
            )
            if neighbour_use == "residential":
                text = (
                    f"{rng.choice(SURNAMES)} {rng.choice(FIRST)} {rng.choice(RESIDENT_MARK[split])}"
                )
            else:
                text = f"{rng.choice(BUSINESS[neighbour_use]).format(n=rng.choice(SURNAMES))} {rng.choice(trades[neighbour_use])}"
            entries.append(Entry("directory", year, f"{number + offset} {street}", text, ""))
            traps.add("adjacent-address")
    for year in MAP_YEARS:
        if year < runs[0].from_year or rng.random() < 0.3:
            continue
        for use in _use_at(runs, year)[:1]:
            if use in MAP_LEGENDS[split]:
                entries.append(Entry("map", year, address, MAP_LEGENDS[split][use], use))
            elif use == "agricultural":
                entries.append(
                    Entry("map", year, address, "the sheet does not extend to this property", "")
                )
    for year in AERIAL_YEARS:
        if rng.random() < 0.2:
            continue
        present = _use_at(runs, year)
        use = present[0] if present else ""
        if use in AERIAL[split]:
            entries.append(Entry("aerial", year, address, AERIAL[split][use], use))
        else:
            entries.append(Entry("aerial", year, address, UNDISCERNIBLE[split], ""))
            traps.add("undiscernible")
    entries.sort(key=lambda e: (e.kind, e.year, e.address != address))
    periods = documented(runs, entries)
    return History(
        address,
        number,
        street,
        city,
        style,
        tuple(entries),
        periods,
        tuple(runs),
        tuple(sorted(traps)),
    )


def documented(runs: list[Period], entries: list[Entry]) -> tuple[Period, ...]:
    """Each run's documented span: the first to the last source year that shows its use inside
    the run; runs no source shows are left out."""
    out = []
    for run in runs:
        years = [
            e.year for e in entries if e.shows == run.use and run.from_year <= e.year <= run.to_year
        ]
        if years:
            out.append(Period(run.use, min(years), max(years)))
    return tuple(sorted(out, key=lambda p: (p.from_year, p.use)))


# -- rendering ----------------------------------------------------------------------------------

KIND_TITLES = {
    "dev": {
        "directory": "City directory search",
        "map": "Fire insurance maps",
        "aerial": "Aerial photographs",
    },
    "test": {
        "directory": "Reverse street directories",
        "map": "Fire-insurance map review",
        "aerial": "Historical aerial imagery",
    },
}


def history_blocks(history: History, split: str) -> list[list[Line]]:
    titles = KIND_TITLES[split]
    title = {
        "by-source": "Historical Records Review",
        "abstract": "Summary of Historical Sources",
        "chronology": "Chronology of Site Use Sources",
        "appendix": "Appendix D - Historical Research Documentation",
    }[history.style]
    blocks = [[
        Line(title, 15, True), Line(""),
        Line(f"Property: {history.address}, {history.city}"), Line(""),
        Line("Sources reviewed for the property and adjoining addresses. Entries are transcribed as printed.", 8.5),
        Line(""),
    ]]  # fmt: skip
    if history.style in ("by-source", "appendix"):
        for kind in ("directory", "map", "aerial"):
            blocks.append([Line(titles[kind], 11, True)])
            for entry in (e for e in history.entries if e.kind == kind):
                if kind == "directory":
                    text = f"{entry.year}   {entry.address:<22} {entry.text}"
                elif history.style == "by-source":
                    text = f"{entry.year}   {entry.text}"
                else:
                    text = f"{entry.year} - subject parcel: {entry.text}"
                blocks.append([Line(text, 9, x=10)])
            blocks.append([Line("")])
    else:
        label = {"directory": "Directory", "map": "Map", "aerial": "Aerial"}
        if split == "test":
            label = {"directory": "Dir.", "map": "FIM", "aerial": "Photo"}
        for year in sorted({e.year for e in history.entries}):
            rows = [e for e in history.entries if e.year == year]
            block = [Line(str(year), 10, True)]
            for entry in rows:
                where = f" ({entry.address})" if entry.kind == "directory" else ""
                block.append(Line(f"{label[entry.kind]}{where}: {entry.text}", 9, x=14))
            blocks.append(block)
    return blocks


def render_history(history: History, split: str, seed: int, *labels: str | int) -> bytes:
    header = f"Historical sources - {history.address}, {history.city}"
    pages = paginate(history_blocks(history, split), header, "")
    return render_pages(pages, header, "Historical sources", seed, labels)
