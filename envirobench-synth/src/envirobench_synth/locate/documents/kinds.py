"""The kinds of document, their families by split, titles (and misleading titles), the names,
places and words documents draw from, and a document's record (`Document`, `Block`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..names import SHARED_AGENCIES, SHARED_FIRST, SHARED_LABS, SHARED_LAST, SHARED_STREETS

KINDS = (
    "laboratory-report",
    "phase-i-report",
    "phase-ii-report",
    "monitoring-report",
    "letter",
    "invoice",
    "permit",
    "certificate",
    "deed",
    "lease",
    "contract",
    "boring-log",
    "photo-page",
    "chain-of-custody",
    "transmittal",
    "remedial-action-plan",
    "closure-report",
    "data-validation-report",
)
# The reports of a site's investigation and cleanup: the same vocabulary (wells, borings, benzene,
# "recommend"), told apart by purpose, scope and sections.
SITE_REPORTS = (
    "phase-i-report",
    "phase-ii-report",
    "monitoring-report",
    "remedial-action-plan",
    "closure-report",
)
PAGE_W, PAGE_H = 612.0, 792.0
MARGIN = 64.0
BOTTOM = 72.0  # body text stops this far above the page's lower edge
SCAN_DPI = 120
MAX_SCAN_SKEW = 0.7
HEAVY_DPI = 96
HEAVY_SKEW = 1.6
PDF_CREATOR = "EnviroBench synthetic site-file document"
PDF_TITLE = "Site file document"
UNTITLED_SHARE = 0.08  # of the documents that have a title


@dataclass(frozen=True)
class Family:
    """How one office lays out its paper."""

    name: str
    font: str
    size: float
    title_align: str  # "center" or "left"
    letterhead: str  # "rule", "box" or "plain"
    date_format: str
    page_mark: str  # "{page}" and "{pages}" filled in; "" for none


FAMILIES = (
    Family(
        "harlan-voss", "Helvetica", 9.5, "center", "rule", "%B %d, %Y", "Page {page} of {pages}"
    ),
    Family("ostrander", "Times", 10.5, "left", "box", "%m/%d/%Y", "{page}"),
    Family("pell-mercado", "Courier", 9.0, "center", "plain", "%d %b %Y", "- {page} -"),
    # test families: fonts, letterheads, dates and numbering in combinations dev never shows
    Family("quarry-fenn", "Times", 10.0, "center", "plain", "%Y-%m-%d", "Page {page}"),
    Family(
        "abernathy-cho", "Helvetica", 10.0, "left", "box", "%d %B %Y", "Sheet {page} of {pages}"
    ),
    Family("lindqvist-oyelaran", "Courier", 9.5, "left", "rule", "%b. %d, %Y", ""),
)
FAMILIES_BY_SPLIT = {
    "dev": ("harlan-voss", "ostrander", "pell-mercado"),
    "test": ("quarry-fenn", "abernathy-cho", "lindqvist-oyelaran"),
}

# Title wordings per kind and split: the test split's never occur in dev.
TITLES: dict[str, dict[str, tuple[str, ...]]] = {
    "laboratory-report": {
        "dev": ("ANALYTICAL REPORT", "CERTIFICATE OF ANALYSIS"),
        "test": (
            "LABORATORY REPORT",
            "REPORT OF ANALYTICAL RESULTS",
            "CERTIFICATE OF LABORATORY ANALYSIS",
        ),
    },
    "phase-i-report": {
        "dev": ("PHASE I ENVIRONMENTAL SITE ASSESSMENT",),
        "test": (
            "ENVIRONMENTAL SITE ASSESSMENT (ASTM E1527-21)",
            "PRE-ACQUISITION ENVIRONMENTAL REVIEW",
        ),
    },
    "phase-ii-report": {
        "dev": ("PHASE II ENVIRONMENTAL SITE ASSESSMENT", "LIMITED SUBSURFACE INVESTIGATION"),
        "test": ("SITE CHARACTERIZATION REPORT", "SOIL AND GROUNDWATER SAMPLING REPORT"),
    },
    "monitoring-report": {
        "dev": ("QUARTERLY GROUNDWATER MONITORING REPORT",),
        "test": ("SEMIANNUAL GROUNDWATER SAMPLING REPORT", "ANNUAL GROUNDWATER MONITORING SUMMARY"),
    },
    "letter": {"dev": ("",), "test": ("",)},
    "invoice": {"dev": ("INVOICE",), "test": ("STATEMENT OF CHARGES", "BILLING STATEMENT")},
    "permit": {
        "dev": ("DISCHARGE PERMIT", "WELL CONSTRUCTION PERMIT"),
        "test": ("AUTHORIZATION TO DISCHARGE", "TANK OPERATING LICENSE"),
    },
    "certificate": {
        "dev": ("CERTIFICATE OF DISPOSAL", "CERTIFICATE OF COMPLETION"),
        "test": ("CERTIFICATE OF DESTRUCTION", "CERTIFICATE OF INSURANCE"),
    },
    "deed": {
        "dev": ("WARRANTY DEED", "QUITCLAIM DEED"),
        "test": ("SPECIAL WARRANTY DEED", "GRANT DEED"),
    },
    "lease": {
        "dev": ("LEASE AGREEMENT", "GROUND LEASE"),
        "test": ("COMMERCIAL LEASE", "INDUSTRIAL BUILDING LEASE"),
    },
    "contract": {
        "dev": ("PURCHASE AND SALE AGREEMENT", "ENVIRONMENTAL SERVICES AGREEMENT"),
        "test": ("AGREEMENT OF SALE", "PROFESSIONAL SERVICES CONTRACT"),
    },
    "boring-log": {
        "dev": ("BORING LOG", "LOG OF BORING"),
        "test": ("SOIL BORING RECORD", "WELL COMPLETION LOG"),
    },
    "photo-page": {
        "dev": ("PHOTOGRAPHIC LOG", "SITE PHOTOGRAPHS"),
        "test": ("PHOTO DOCUMENTATION", "PHOTOGRAPH RECORD"),
    },
    "chain-of-custody": {
        "dev": ("CHAIN OF CUSTODY RECORD",),
        "test": ("SAMPLE CUSTODY FORM", "CHAIN-OF-CUSTODY / ANALYSIS REQUEST"),
    },
    "transmittal": {
        "dev": ("TRANSMITTAL", "LETTER OF TRANSMITTAL"),
        "test": ("DOCUMENT TRANSMITTAL FORM", "TRANSMITTAL RECORD"),
    },
    "remedial-action-plan": {
        "dev": ("REMEDIAL ACTION PLAN", "CORRECTIVE ACTION PLAN"),
        "test": ("REMEDIATION WORK PLAN", "CLEANUP ACTION PLAN"),
    },
    "closure-report": {
        "dev": ("CLOSURE REPORT", "REMEDIAL ACTION COMPLETION REPORT"),
        "test": ("SITE CLOSURE REQUEST", "CLEANUP COMPLETION REPORT"),
    },
    "data-validation-report": {
        "dev": ("DATA VALIDATION REPORT", "DATA USABILITY SUMMARY"),
        "test": ("ANALYTICAL DATA REVIEW", "QUALITY ASSURANCE REVIEW OF LABORATORY DATA"),
    },
}
# Titles that name another kind than the document's (the misleading-title trap): the document is
# still what its purpose, scope and sections make it.
MISLEADING_TITLES: dict[str, dict[str, tuple[str, ...]]] = {
    "phase-i-report": {
        "dev": ("ENVIRONMENTAL INVESTIGATION REPORT",),
        "test": ("SITE INVESTIGATION REPORT",),
    },
    "phase-ii-report": {
        "dev": ("ENVIRONMENTAL SITE ASSESSMENT",),
        "test": ("SITE ASSESSMENT REPORT",),
    },
    "monitoring-report": {
        "dev": ("SITE INVESTIGATION STATUS REPORT",),
        "test": ("GROUNDWATER INVESTIGATION UPDATE",),
    },
    "remedial-action-plan": {
        "dev": ("SITE CLOSURE STRATEGY",),
        "test": ("CLOSURE WORK PLAN",),
    },
    "closure-report": {
        "dev": ("REMEDIAL ACTION REPORT",),
        "test": ("CORRECTIVE ACTION REPORT",),
    },
    "data-validation-report": {
        "dev": ("ANALYTICAL REPORT",),
        "test": ("LABORATORY DATA REPORT",),
    },
}
# Titles that name no kind at all, as many a consultant's report is titled (also misleading-title).
GENERIC_TITLES = {
    "dev": ("ENVIRONMENTAL REPORT", "REPORT OF FINDINGS", "SITE STATUS REPORT"),
    "test": ("TECHNICAL MEMORANDUM", "ENVIRONMENTAL SERVICES REPORT", "PROJECT REPORT"),
}
MISLEADING_SHARE = 0.3
# What another kind is called in a body that refers to it (the cross-reference trap).
MENTIONS = {
    "laboratory-report": "the laboratory analytical report",
    "phase-i-report": "the Phase I environmental site assessment",
    "phase-ii-report": "the Phase II subsurface investigation",
    "monitoring-report": "the groundwater monitoring report",
    "invoice": "the invoice",
    "permit": "the discharge permit",
    "certificate": "the certificate of disposal",
    "deed": "the recorded deed",
    "lease": "the lease",
    "contract": "the purchase agreement",
    "boring-log": "the boring logs",
    "photo-page": "the site photographs",
    "chain-of-custody": "the chain-of-custody forms",
    "transmittal": "the transmittal",
    "letter": "your letter",
    "remedial-action-plan": "the corrective action plan",
    "closure-report": "the closure report",
    "data-validation-report": "the data validation report",
}

FIRST = (
    *SHARED_FIRST,
    "Lorne",
    "Marisol",
    "Nils",
    "Odette",
    "Priya",
    "Rafael",
    "Sunniva",
    "Teodor",
    "Wren",
)
LAST = (
    *SHARED_LAST,
    "Kowalczyk",
    "Lindgren",
    "Mbeki",
    "Nakagawa",
    "Oyelaran",
    "Pettersen",
    "Quintana",
    "Rosales",
)
FIRMS = (
    "Harrow Geologic, Inc.",
    "Bluestem Environmental LLC",
    "Carver & Lyle Engineers",
    "Tidewater Site Services",
    "Northfield Environmental Consultants",
    "Granite Peak Geosciences",
    "Meridian Earth Sciences",
    "Alder Creek Consulting",
)
LABS = (
    *SHARED_LABS,
    "Riverbend Analytical, Inc.",
    "Summit Laboratory Group",
)
COMPANIES = (
    "Redfern Petroleum Company",
    "Blue Heron Holdings, LLC",
    "Sutter Row Cleaners, Inc.",
    "Kestrel Land Partners LP",
    "Willowbank Properties LLC",
    "Cedar Point Terminals, Inc.",
    "Ironwood Development Company",
    "Tamarack Investors LLC",
)
AGENCIES = (
    *SHARED_AGENCIES,
    "County Environmental Health Services",
    "Regional Water Quality Control Board",
)
STREETS = (
    *SHARED_STREETS,
    "Canal Street",
)
CITIES = (
    "Dunmore",
    "Cass Lake",
    "Greenville",
    "Port Ellery",
    "Las Cruces",
    "Athens",
    "Marlow",
    "Rookwood",
)
ANALYTES = (
    "Benzene",
    "Toluene",
    "Ethylbenzene",
    "Xylenes, total",
    "MTBE",
    "Naphthalene",
    "Tetrachloroethene",
    "Trichloroethene",
    "Vinyl chloride",
    "Lead",
    "TPH-gasoline range",
    "TPH-diesel range",
)
SOILS = (
    "SILTY CLAY, brown, moist, stiff",
    "CLAYEY SILT, grey, moist",
    "SAND, fine to medium, brown, wet",
    "GRAVELLY SAND, grey, saturated",
    "FILL: gravel and sand, dry",
    "SILT, olive, moist, slight odor",
)
VIEWS = (
    "north across the former dispenser island",
    "the tank excavation, looking east",
    "monitoring well MW-{n}, flush-mounted",
    "the drum storage area behind the building",
    "staining on the concrete near the service bay",
    "the vent pipes along the west wall",
    "the drilling rig at boring B-{n}",
    "the fence line along the rail spur",
)


@dataclass
class Block:
    kind: str  # "heading", "text", "fields", "table", "photo", "signature" or "page" (a page break)
    text: str = ""
    rows: list[list[str]] = field(default_factory=list)
    widths: list[float] = field(default_factory=list)  # shares of the text width, for tables
    bold: bool = False
    size: float = 0.0  # 0: the family's body size


@dataclass
class Document:
    kind: str
    split: str
    family: Family
    title: str  # "" when untitled (or a letter)
    header: list[str]  # the letterhead: issuer name and address lines
    blocks: list[Block]
    traps: tuple[str, ...]
    cover: list[Block] = field(
        default_factory=list
    )  # a cover letter on page 1; the document from page 2


def family(name: str) -> Family:
    for candidate in FAMILIES:
        if candidate.name == name:
            return candidate
    raise ValueError(f"unknown document family {name!r}")
