"""The sites' specs (`SiteSpec`: id, split, seed, archetype, page target), by split, and
`sized_spec`, a site of a chosen size from a chosen seed (the holdout's demo splits)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass


@dataclass(frozen=True)
class SiteSpec:
    site_id: str
    split: str  # "dev" | "test"
    seed: int
    archetype: str  # test: "station", "bulk-plant", "dry-cleaner"; dev: "auto-repair",
    # "plating-shop", "fleet-garage", "printing-plant"
    pages: int  # exact page count of the record
    as_of: dt.date
    release_year: int  # the year the release is found (the record's data start then)
    standards: tuple[tuple[str, str], ...] = ()  # (matrix, table) replacing the archetype's
    # The shipped split the site belongs to when it is not `split` (whose families and wordings
    # it is drawn from): "test-sites20", the many small test sites beside the three public ones.
    group: str = ""
    # A small record (the many-sites split): one edition of each report (no drafts but one
    # monitoring draft), two monitoring rounds (one early, one late), fewer wells and borings;
    # `pages` 0: the record is as long as its documents plus FILL_SHARE of loose paper.
    compact: bool = False

    @property
    def shipped(self) -> str:
        """The split the site ships in (a key of SITES)."""
        return self.group or self.split


SPECS: dict[str, SiteSpec] = {
    spec.site_id: spec
    for spec in (
        SiteSpec("st-275", "test", 27501, "station", 275, dt.date(2024, 6, 30), 2012),
        SiteSpec("bp-540", "test", 54002, "bulk-plant", 540, dt.date(2024, 3, 31), 2002),
        SiteSpec("dc-806", "test", 80603, "dry-cleaner", 806, dt.date(2024, 9, 30), 2010),
        # Dev's archetypes are not the test sites' (a fleet fueling yard and a printing plant
        # beside a rail siding, where a station and a bulk plant stood before): a site's name and
        # the dev keys give no test site's conditions.
        SiteSpec(
            "dev-former-station", "dev", 12101, "fleet-garage", 236, dt.date(2023, 12, 31), 1999
        ),
        SiteSpec("dev-auto-repair", "dev", 18402, "auto-repair", 232, dt.date(2022, 6, 30), 2004),
        SiteSpec("dev-plating-shop", "dev", 25203, "plating-shop", 252, dt.date(2023, 9, 30), 2003),
        SiteSpec(
            "dev-rail-siding", "dev", 31204, "printing-plant", 312, dt.date(2021, 12, 31), 2005
        ),
    )
}

# The many-sites test split (issue 33: a Site test with power): 20 small sites of eight kinds that
# occur neither in dev nor among the public test sites, drawn with the test split's office,
# laboratory and recorder families and wordings, each record as long as its documents.
SITES20 = "test-sites20"
_MANY = (
    # (archetype, seed, as-of, release year)
    ("ag-chem-dealer", 40101, dt.date(2024, 3, 31), 2008),
    ("former-mgp", 40102, dt.date(2023, 9, 30), 2007),
    ("landfill-adjacent", 40103, dt.date(2024, 6, 30), 2009),
    ("rail-yard", 40104, dt.date(2023, 12, 31), 2006),
    ("machine-shop", 40105, dt.date(2024, 6, 30), 2008),
    ("paint-manufacturer", 40106, dt.date(2022, 12, 31), 2005),
    ("truck-stop", 40107, dt.date(2024, 9, 30), 2016),
    ("boatyard", 40108, dt.date(2023, 6, 30), 2007),
    ("ag-chem-dealer", 40109, dt.date(2022, 6, 30), 2006),
    ("former-mgp", 40110, dt.date(2024, 9, 30), 2009),
    ("landfill-adjacent", 40111, dt.date(2023, 3, 31), 2007),
    ("rail-yard", 40112, dt.date(2024, 3, 31), 2008),
    ("machine-shop", 40113, dt.date(2023, 6, 30), 2006),
    ("paint-manufacturer", 40114, dt.date(2024, 6, 30), 2009),
    ("truck-stop", 40115, dt.date(2023, 12, 31), 2018),
    ("boatyard", 40116, dt.date(2024, 12, 31), 2010),
    ("ag-chem-dealer", 40117, dt.date(2023, 12, 31), 2009),
    ("machine-shop", 40118, dt.date(2022, 9, 30), 2005),
    ("truck-stop", 40119, dt.date(2022, 12, 31), 2015),
    ("rail-yard", 40120, dt.date(2022, 3, 31), 2005),
)
for _n, (_arch, _seed, _as_of, _release) in enumerate(_MANY, 1):
    _spec = SiteSpec(
        f"ts-{_n:02d}", "test", _seed, _arch, 0, _as_of, _release, group=SITES20, compact=True
    )
    SPECS[_spec.site_id] = _spec

SITES = {
    split: tuple(s.site_id for s in SPECS.values() if s.shipped == split)
    for split in ("dev", "test", SITES20)
}


# The smallest record a site's documents fit: at two monitoring rounds (the fewest the record
# keeps) a plating shop's or an auto-repair shop's documents take 160-170 pages, a station's
# about 180 and a dry cleaner's about 215, and record.FILL_SHARE of the pages are loose paper.
SMALL_PAGES = 200
SMALL_ARCHETYPES = ("plating-shop", "auto-repair")


def sized_spec(site_id: str, split: str, seed: int, pages: int = SMALL_PAGES) -> SiteSpec:
    """A site of exactly `pages` pages, not one of SPECS, drawn from `seed`: a plating shop or an
    auto-repair shop (by the seed), its release found in 2012, its record as of mid-2024. Below
    SMALL_PAGES the documents may not fit (build raises ValueError saying so)."""
    if split not in ("dev", "test"):
        raise ValueError(f"split {split!r} is not one of dev, test")
    archetype = SMALL_ARCHETYPES[seed % len(SMALL_ARCHETYPES)]
    return SiteSpec(site_id, split, seed, archetype, pages, dt.date(2024, 6, 30), 2012)
