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
SITES = {
    "dev": tuple(s.site_id for s in SPECS.values() if s.split == "dev"),
    "test": tuple(s.site_id for s in SPECS.values() if s.split == "test"),
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
    if split not in SITES:
        raise ValueError(f"split {split!r} is not one of {', '.join(SITES)}")
    archetype = SMALL_ARCHETYPES[seed % len(SMALL_ARCHETYPES)]
    return SiteSpec(site_id, split, seed, archetype, pages, dt.date(2024, 6, 30), 2012)
