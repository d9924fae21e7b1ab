"""The families and vocabularies of laboratory-report front matter: statuses, traps, page size,
fonts, each family's date formats and words, and the laboratories, clients and sites drawn from.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...vocabulary import (
    Split,
)

Status = Literal["draft", "final", "revised"]
STATUSES: tuple[Status, ...] = ("draft", "final", "revised")
PAGE = (612.0, 792.0)  # US Letter, points

TRAPS: tuple[str, ...] = (
    "status-footer",
    "draft-no-watermark",
    "unmarked-final",
    "supersedes",
    "address-confusion",
    "project-number",
    "ids",
    "other-dates",
    "stapled",
    "spread-sampling",
    "mixed-date-formats",
    "day-first",
)

FONTS = {
    "helvetica": ("Helvetica", "Helvetica-Bold"),
    "times": ("Times-Roman", "Times-Bold"),
    "courier": ("Courier", "Courier-Bold"),
}


@dataclass(frozen=True)
class Family:
    name: str
    split: Split
    modelled_on: str
    font: str  # a key of FONTS (standard PDF fonts: nothing embedded, small files)
    date_formats: tuple[str, ...]  # how the cover prints dates
    table_date_formats: tuple[str, ...]  # how sample tables print dates when they differ
    address_confusion: Literal["never", "sometimes", "always"]


DEV_DATES = ("%m/%d/%Y", "%Y-%m-%d", "%B %d, %Y", "%m/%d/%y")
TEST_DATES = ("%d-%b-%Y", "%d %B %Y", "%b %d, %Y", "%Y/%m/%d")
DAY_FIRST = "%d.%m.%Y"
# Families whose laboratories sometimes print dates day first (stated once on the cover).
DAY_FIRST_SHARES = {"certificate": 0.3, "summary-cover": 0.2}

FAMILIES: dict[str, Family] = {
    f.name: f
    for f in (
        Family(
            "letterhead-cover",
            "dev",
            "a US commercial laboratory's analytical report cover (letterhead, title, labelled "
            "facts, signature)",
            "helvetica",
            DEV_DATES,
            ("%m/%d/%Y", "%m/%d/%y"),
            "sometimes",
        ),
        Family(
            "transmittal-letter",
            "dev",
            "a smaller laboratory's transmittal letter on letterhead, then a sample summary",
            "times",
            ("%B %d, %Y",),
            ("%m/%d/%Y", "%m/%d/%y", "%Y-%m-%d"),
            "never",
        ),
        Family(
            "summary-cover",
            "dev",
            "a compact one-page cover (facts grid and sample summary) with a running footer, "
            "and an approval page",
            "helvetica",
            ("%m/%d/%Y", "%Y-%m-%d"),
            ("%m/%d/%y", "%Y-%m-%d"),
            "sometimes",
        ),
        Family(
            "certificate",
            "test",
            "a Canadian/British 'Certificate of Analysis': boxed fields, label above value, the "
            "laboratory at the foot, the status in the footer",
            "times",
            TEST_DATES,
            ("%d-%b-%y", "%Y-%m-%d", "%d/%b/%Y"),
            "always",
        ),
        Family(
            "case-narrative",
            "test",
            "a data package's typed case narrative: the facts in running prose",
            "courier",
            TEST_DATES + DEV_DATES,
            ("%m/%d/%Y", "%d-%b-%Y"),
            "never",
        ),
        Family(
            "header-band",
            "test",
            "a LIMS print-out without a cover: a band of boxed facts on every page, then the "
            "results, then an approval page",
            "helvetica",
            TEST_DATES + ("%m/%d/%Y",),
            ("%m/%d/%y", "%d-%b-%Y"),
            "sometimes",
        ),
    )
}
SPLIT_FAMILIES: dict[Split, tuple[str, ...]] = {
    split: tuple(name for name, f in FAMILIES.items() if f.split == split)
    for split in ("dev", "test")
}

# Laboratories by split: a test report comes from a laboratory the dev split never shows three
# times in four. (The first three are the v1 catalogue's; every name is invented.)
LABORATORIES: dict[Split, tuple[str, ...]] = {
    "dev": (
        "Quillmere Analytical Laboratories",
        "Fenwick Basin Environmental Testing",
        "Tarnhollow Analytical Services",
        "Harrowgate Analytical, LLC",
    ),
    "test": (
        "Coldspring Ridge Laboratories",
        "Marrowgate Environmental Labs",
        "Vellacott Analytical, Inc.",
        "Brackenridge Environmental Laboratory",
        "Ostwald & Finch Analytical",
        "Sallowmere Testing Services Ltd.",
    ),
}
EXTRA_CLIENTS: tuple[str, ...] = (
    "Kestrel Point Environmental, Inc.",
    "Dunmore Hydrogeologic Services",
    "Ashcombe Engineering Ltd.",
    "Wrenfield Geotechnical Partners",
    "Marlow & Pike Consulting",
)
EXTRA_SITES: tuple[str, ...] = (
    "Former Eastside Tannery",
    "Hillcrest Bulk Plant",
    "Cooper Street Brownfield",
    "Granary Wharf Redevelopment",
    "Stonebridge Former MGP Site",
)
MATRICES: tuple[tuple[str, str], ...] = (
    ("Water", "ug/L"),
    ("Groundwater", "ug/L"),
    ("Soil", "mg/kg"),
    ("Solid", "mg/kg"),
)
SAMPLE_PREFIXES = ("MW-", "SB-", "GW-", "TP-", "SS-", "B-")
