"""The kinds of document a site file holds, each rendered as a short PDF whose kind is the truth.

    rng = make_random(SEED, "test", "dt-test-0007")
    document = sample_document(rng, "invoice", "test", family("quarry-fenn"))
    pdf = render_document(document, scanned=False, seed=SEED, labels=("test", "dt-test-0007"))

`KINDS` are the kinds a reader of a site file tells apart: laboratory reports, Phase I and
Phase II reports, monitoring reports, letters, invoices, permits, certificates, deeds, leases,
contracts, boring logs, photo pages, chain-of-custody forms, transmittals, remedial action plans,
closure reports and data-validation reports. Each is drawn as blocks (a title, key-value fields,
paragraphs, tables, photographs, signature lines) laid out on one to three pages in the style of
a document *family* (`Family`: font, title placement, letterhead, date form, page numbering).
Families and title wordings are split: the test split's (`FAMILIES_BY_SPLIT["test"]`, its titles
in `TITLES`, `MISLEADING_TITLES`, `GENERIC_TITLES` and the variants' own) never occur in dev.

The five site reports (`SITE_REPORTS`: Phase I, Phase II, monitoring report, remedial action plan,
closure report) come from one pool of sentences (wells, benzene, borings, "we recommend"): what
tells them apart is purpose, scope and sections, and each later one retells the earlier stages
(`history`), as real ones do. Variants within a kind: a limited site investigation (phase-ii), a
no-further-action letter and a notice of violation (letter), an easement and an environmental
covenant (deed), a lease amendment (lease), an agency's tank registration certificate (permit), a
tank tightness-test certificate (certificate), a laboratory's invoice (invoice).

The truth rules (`sample_document`'s docstring): the kind is what the document *is*, never what
its first page, title or body names.

The traps a reader meets, recorded per document (`Document.traps`):

    cover-letter      a report, permit, certificate or log sent behind its issuer's cover letter:
                      page 1 is a letter, the document itself starts on page 2
    fax-cover         page 1 is a fax cover sheet; the document starts on page 2
    contents          a report's first page holds its table of contents (whose appendices name
                      other kinds: laboratory reports, boring logs, permits ...)
    excerpt           a report's middle pages only: no letterhead, title, first section or
                      signature; the kind of the report they come from
    cross-reference   the body names another kind (a letter about a laboratory report, an invoice
                      for a Phase I assessment, a transmittal of boring logs, a lease that refers
                      to a permit)
    certificate-title a laboratory report titled as a certificate ("Certificate of Analysis")
    misleading-title  a report titled as another kind or as no kind ("Site investigation status
                      report" for a monitoring report, "Technical memorandum")
    untitled          the document's title is missing (a page torn from its cover, a form
                      without its heading): the kind shows only in its layout and wording
    scanned           set by the caller: the PDF is a black-and-white scan without a text layer
    heavy-scan        set by the caller: a scan at HEAVY_DPI with more skew, blur and noise

Grow the tables by appending: samplers pick by position.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import io
import random
from dataclasses import dataclass, field

from reportlab import rl_config
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from ..degrade import sample_scan_params, scan_page
from ..rng import make_random

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

FONTS = {
    "Times": ("Times-Roman", "Times-Bold"),
    "Helvetica": ("Helvetica", "Helvetica-Bold"),
    "Courier": ("Courier", "Courier-Bold"),
}


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
    "Alma",
    "Boris",
    "Celeste",
    "Dmitri",
    "Esme",
    "Farid",
    "Gwen",
    "Hiro",
    "Ines",
    "Jasper",
    "Kalani",
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
    "Ashworth",
    "Brandt",
    "Castellano",
    "Dimitriou",
    "Eklund",
    "Fairweather",
    "Guerrero",
    "Haldane",
    "Ibarra",
    "Jankowski",
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
    "Northfork Analytical Laboratories",
    "Clearwater Testing Services",
    "Pinnacle Environmental Labs",
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
    "Department of Environmental Quality",
    "Department of Ecology",
    "Department of Environmental Protection",
    "County Environmental Health Services",
    "Regional Water Quality Control Board",
)
STREETS = (
    "Depot Street",
    "Main Street",
    "Railroad Avenue",
    "Industrial Parkway",
    "Mill Road",
    "Harbor Drive",
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


# -- content ----------------------------------------------------------------------------------------


class Writer:
    """Draws one document's content from its own stream, in one split's words."""

    def __init__(self, rng: random.Random, split: str, fam: Family):
        self.rng, self.split, self.family = rng, split, fam
        self.site = f"{rng.randint(100, 9800)} {rng.choice(STREETS)}, {rng.choice(CITIES)}"
        self.client = rng.choice(COMPANIES)
        self.day = dt.date(rng.randint(1992, 2024), rng.randint(1, 12), rng.randint(1, 28))
        self.title: str | None = None  # a variant's own title, set by its maker

    def person(self) -> str:
        return f"{self.rng.choice(FIRST)} {self.rng.choice(LAST)}"

    def date(self, day: dt.date | None = None) -> str:
        text = (day or self.day).strftime(self.family.date_format)
        return text.replace(" 0", " ")

    def number(self, prefix: str) -> str:
        return f"{prefix}{self.rng.randint(10000, 99999)}"

    def other_kind(self, kind: str) -> str:
        return self.rng.choice([k for k in KINDS if k != kind])


def _para(*sentences: str) -> Block:
    return Block("text", " ".join(sentences))


def laboratory_report(w: Writer) -> tuple[list[str], list[Block]]:
    r = w.rng
    lab = r.choice(LABS)
    samples = [f"MW-{i}" for i in sorted(r.sample(range(1, 9), r.randint(2, 4)))]
    rows = [["Sample ID", "Analyte", "Result", "Units", "RL", "Method"]]
    for sample in samples:
        for analyte in r.sample(ANALYTES[:9], r.randint(3, 5)):
            value = r.choice(("ND", f"{r.uniform(0.5, 900):.3g}"))
            rows.append(
                [
                    sample,
                    analyte,
                    value,
                    "ug/L",
                    f"{r.choice((0.5, 1.0, 2.0, 5.0)):g}",
                    r.choice(("8260D", "8021B", "6010D")),
                ]
            )
    return [lab, f"{r.randint(10, 999)} Laboratory Way, {r.choice(CITIES)}"], [
        Block(
            "fields",
            rows=[
                ["Client", w.client],
                ["Project", w.site],
                ["Work order", w.number("WO-")],
                ["Date received", w.date()],
            ],
        ),
        _para(
            f"The samples listed below were received on {w.date()} in good condition and analyzed by the methods indicated.",
            "Results relate only to the samples as received.",
        ),
        Block("table", rows=rows, widths=[0.14, 0.3, 0.14, 0.12, 0.1, 0.2]),
        _para(
            "Quality control results (method blanks, laboratory control samples and matrix spikes) were within limits",
            "unless flagged. ND: not detected at or above the reporting limit (RL).",
        ),
        Block("signature", text=f"{w.person()}, Laboratory Director"),
    ]


def letter(w: Writer, other: str | None) -> tuple[list[str], list[Block]]:
    r = w.rng
    issuer = r.choice(FIRMS + tuple(f"State {a}" for a in AGENCIES))
    subject = f"Re: {w.site}" + (
        f" — {MENTIONS[other].removeprefix('the ').removeprefix('your ')}" if other else ""
    )
    body = [
        _para(
            f"This letter concerns the property at {w.site}.",
            f"Enclosed please find {MENTIONS[other]} for your files."
            if other
            else "We have reviewed the information submitted for the site and have the following comments.",
        ),
        _para(
            "Please contact the undersigned if you have any questions or require further information."
        ),
    ]
    return [issuer, f"{r.randint(10, 999)} {r.choice(STREETS)}, {r.choice(CITIES)}"], [
        Block("text", w.date()),
        Block("fields", rows=[[w.person(), ""], [w.client, ""], [w.site, ""]]),
        Block("text", subject, bold=True),
        Block(
            "text", r.choice(("Dear Sir or Madam:", f"Dear {w.person()}:", f"Dear {w.person()},"))
        ),
        *body,
        Block("text", r.choice(("Sincerely,", "Very truly yours,", "Respectfully,"))),
        Block("signature", text=w.person()),
    ]


def invoice(w: Writer, other: str | None) -> tuple[list[str], list[Block]]:
    r = w.rng
    vendor = r.choice(FIRMS + LABS)
    items = [["Description", "Qty", "Rate", "Amount"]]
    total = 0
    services = [
        "Field technician, groundwater sampling",
        "Drilling subcontractor",
        "Laboratory analysis, VOCs",
        "Report preparation",
        "Drum disposal",
        "Project management",
    ]
    if other:
        services[0] = f"Preparation of {MENTIONS[other].removeprefix('the ').removeprefix('your ')}"
    for service in r.sample(services[:1], 1) + r.sample(services[1:], r.randint(2, 4)):
        qty, rate = r.randint(1, 12), r.choice((85, 95, 120, 145, 350, 1200))
        total += qty * rate
        items.append([service, str(qty), f"${rate:,.2f}", f"${qty * rate:,.2f}"])
    items.append(["Total due", "", "", f"${total:,.2f}"])
    return [vendor, f"{r.randint(10, 999)} {r.choice(STREETS)}, {r.choice(CITIES)}"], [
        Block(
            "fields",
            rows=[
                ["Invoice no.", w.number("")],
                ["Date", w.date()],
                ["Bill to", w.client],
                ["Project", w.site],
                ["Terms", "Net 30"],
            ],
        ),
        Block("table", rows=items, widths=[0.52, 0.1, 0.18, 0.2]),
        _para(
            f"Please remit payment to {vendor}. A finance charge of 1.5% per month applies to past-due balances."
        ),
    ]


def permit(w: Writer) -> tuple[list[str], list[Block]]:
    r = w.rng
    agency = r.choice(AGENCIES)
    start = w.day
    return [f"State {agency}", f"{r.randint(10, 999)} Capitol Way, {r.choice(CITIES)}"], [
        Block(
            "fields",
            rows=[
                ["Permit no.", w.number("P-")],
                ["Permittee", w.client],
                ["Facility", w.site],
                ["Effective date", w.date(start)],
                ["Expiration date", w.date(start.replace(year=start.year + 5))],
            ],
        ),
        _para(
            "The permittee is authorized to operate the facility named above subject to the conditions of this permit."
        ),
        Block("heading", text="CONDITIONS", bold=True),
        *[
            _para(f"{i}. {c}")
            for i, c in enumerate(
                r.sample(
                    (
                        "Discharges shall not exceed the limits in Table 1.",
                        "Monitoring reports shall be submitted quarterly.",
                        "The permittee shall notify the agency within 24 hours of any spill.",
                        "Wells shall be constructed by a licensed driller.",
                        "This permit is not transferable without written approval.",
                        "Records shall be kept on site for three years.",
                    ),
                    4,
                ),
                1,
            )
        ],
        Block("signature", text=f"{w.person()}, Permit Section Manager"),
    ]


def certificate(w: Writer) -> tuple[list[str], list[Block]]:
    r = w.rng
    issuer = r.choice(
        (
            "Cascade Waste Transport",
            "Ridgeline Tank Services",
            "Summit Recycling Co.",
            "Harbor Insurance Agency",
        )
    )
    return [issuer, f"{r.randint(10, 999)} {r.choice(STREETS)}, {r.choice(CITIES)}"], [
        _para(
            f"This is to certify that the materials described below, received from {w.client} at {w.site},",
            f"were {r.choice(('disposed of', 'recycled', 'destroyed', 'accepted'))} in accordance with applicable regulations on {w.date()}.",
        ),
        Block(
            "fields",
            rows=[
                ["Certificate no.", w.number("C-")],
                [
                    "Description",
                    r.choice(
                        (
                            "Two 10,000-gallon steel tanks",
                            "14 drums of purge water",
                            "22 tons of petroleum-impacted soil",
                            "Commercial general liability coverage",
                        )
                    ),
                ],
                ["Date", w.date()],
            ],
        ),
        Block("signature", text=f"{w.person()}, Authorized Representative"),
    ]


def deed(w: Writer) -> tuple[list[str], list[Block]]:
    r = w.rng
    grantor, grantee = r.sample(COMPANIES, 2)
    return [
        f"Recording requested by and return to: {w.person()}",
        f"{r.randint(10, 999)} {r.choice(STREETS)}, {r.choice(CITIES)}",
    ], [
        _para(
            f'For good and valuable consideration, the receipt of which is acknowledged, {grantor} ("Grantor")',
            f'hereby grants and conveys to {grantee} ("Grantee") the real property in {r.choice(CITIES)} County described as:',
        ),
        _para(
            f"Lot {r.randint(1, 40)}, Block {r.randint(1, 20)}, of the plat recorded in Book {r.randint(1, 90)}, Page {r.randint(1, 300)},",
            f"commonly known as {w.site}.",
        ),
        _para(
            "Subject to covenants, conditions, restrictions and easements of record.",
            "Grantor warrants title against all persons claiming by, through or under Grantor.",
        ),
        Block("signature", text=f"{grantor}, Grantor"),
        _para(
            f"State of {r.choice(('Oregon', 'Kentucky', 'Washington', 'Colorado'))}, County of {r.choice(CITIES)}: acknowledged before me on {w.date()}."
        ),
        Block("signature", text="Notary Public"),
    ]


def lease(w: Writer, other: str | None) -> tuple[list[str], list[Block]]:
    r = w.rng
    landlord, tenant = r.sample(COMPANIES, 2)
    blocks = [
        _para(
            f'This lease is made on {w.date()} between {landlord} ("Landlord") and {tenant} ("Tenant").'
        ),
        _para(f"1. Premises. Landlord leases to Tenant the premises at {w.site}."),
        _para(f"2. Term. The term is {r.randint(3, 25)} years from the commencement date."),
        _para(
            f"3. Rent. Tenant shall pay monthly rent of ${r.randint(20, 200) * 100:,} in advance."
        ),
        _para(
            "4. Environmental compliance. Tenant shall not store or release hazardous substances on the premises",
            "except in compliance with law, and shall indemnify Landlord for any release during the term.",
        ),
    ]
    if other:
        blocks.append(
            _para(
                f"5. Tenant shall keep {MENTIONS[other]} on file and deliver a copy to Landlord on request."
            )
        )
    blocks += [
        Block("signature", text=f"{landlord}, Landlord"),
        Block("signature", text=f"{tenant}, Tenant"),
    ]
    return [], blocks


def contract(w: Writer, other: str | None) -> tuple[list[str], list[Block]]:
    r = w.rng
    a, b = r.sample(COMPANIES + FIRMS, 2)
    blocks = [
        _para(
            f'This agreement is entered into as of {w.date()} by and between {a} and {b} (each a "Party").'
        ),
        Block("heading", text="RECITALS", bold=True),
        _para(
            f"WHEREAS, the parties wish to set out the terms on which {r.choice(('the property', 'the services', 'the work'))} at {w.site}",
            "will be sold or performed; NOW, THEREFORE, the parties agree as follows:",
        ),
        _para(
            f"1. Price. The price is ${r.randint(50, 5000) * 1000:,}, payable as set out in Section 2."
        ),
        _para(
            "2. Environmental matters. Each party makes the representations set out in Schedule A and shall",
            "indemnify the other for losses arising from a breach of them.",
        ),
        _para(
            f"3. Governing law. This agreement is governed by the laws of the State of {r.choice(('Oregon', 'Texas', 'Florida', 'Wisconsin'))}."
        ),
    ]
    if other:
        blocks.insert(4, _para(f"The parties acknowledge receipt of {MENTIONS[other]}."))
    blocks += [Block("signature", text=a), Block("signature", text=b)]
    return [], blocks


def boring_log(w: Writer) -> tuple[list[str], list[Block]]:
    r = w.rng
    firm = r.choice(FIRMS)
    rows = [["Depth (ft)", "Description", "PID (ppm)", "Sample"]]
    depth = 0
    for _ in range(r.randint(4, 8)):
        step = r.choice((2, 3, 5))
        rows.append(
            [
                f"{depth}-{depth + step}",
                r.choice(SOILS),
                f"{r.uniform(0, 300):.1f}",
                r.choice(("", f"S-{depth + step}")),
            ]
        )
        depth += step
    return [firm, w.site], [
        Block(
            "fields",
            rows=[
                ["Boring no.", f"B-{r.randint(1, 20)}"],
                ["Date drilled", w.date()],
                ["Driller", r.choice(("Ridgeline Drilling Co.", "Cascade Probe Inc."))],
                ["Method", r.choice(("Hollow-stem auger", "Direct push", "Sonic"))],
                ["Total depth", f"{depth} ft"],
                ["Logged by", w.person()],
            ],
        ),
        Block("table", rows=rows, widths=[0.15, 0.55, 0.15, 0.15]),
        _para(
            f"Groundwater first encountered at {r.randint(4, depth)} ft."
            if depth > 4
            else "Groundwater not encountered."
        ),
    ]


def photo_page(w: Writer) -> tuple[list[str], list[Block]]:
    r = w.rng
    blocks = [
        Block(
            "fields",
            rows=[["Site", w.site], ["Date taken", w.date()], ["Photographer", w.person()]],
        )
    ]
    for _ in range(r.randint(1, 2)):
        view = r.choice(VIEWS).format(n=r.randint(1, 8))
        blocks += [Block("photo"), Block("text", f"Photo {r.randint(1, 30)}: View of {view}.")]
    return [r.choice(FIRMS)], blocks


def custody(w: Writer) -> tuple[list[str], list[Block]]:
    r = w.rng
    rows = [["Sample ID", "Date", "Time", "Matrix", "Containers", "Analyses"]]
    for i in range(r.randint(3, 9)):
        rows.append(
            [
                f"MW-{i + 1}",
                w.date(),
                f"{r.randint(7, 17):02d}:{r.randint(0, 59):02d}",
                r.choice(("Water", "Soil")),
                str(r.randint(1, 4)),
                r.choice(("VOCs 8260", "BTEX/MTBE", "TPH-G, TPH-D", "Metals 6010")),
            ]
        )
    return [r.choice(LABS)], [
        Block(
            "fields",
            rows=[
                ["Client", w.client],
                ["Project", w.site],
                ["Sampler", w.person()],
                ["Turnaround", r.choice(("Standard", "5 day", "Rush 48 h"))],
            ],
        ),
        Block("table", rows=rows, widths=[0.14, 0.18, 0.1, 0.12, 0.14, 0.32]),
        Block(
            "table",
            rows=[
                ["Relinquished by", "Date/Time", "Received by", "Date/Time"],
                [w.person(), w.date(), w.person(), w.date()],
            ],
            widths=[0.3, 0.2, 0.3, 0.2],
        ),
    ]


def transmittal(w: Writer, other: str | None) -> tuple[list[str], list[Block]]:
    r = w.rng
    firm = r.choice(FIRMS)
    listed = [other or w.other_kind("transmittal")] + r.sample(
        [k for k in KINDS if k not in ("transmittal", other)], r.randint(1, 2)
    )
    rows = [["Copies", "Date", "Description"]] + [
        [
            str(r.randint(1, 3)),
            w.date(),
            MENTIONS[k].removeprefix("the ").removeprefix("your ").capitalize(),
        ]
        for k in listed
    ]
    return [firm, f"{r.randint(10, 999)} {r.choice(STREETS)}, {r.choice(CITIES)}"], [
        Block(
            "fields",
            rows=[
                ["To", f"{w.person()}, {w.client}"],
                ["From", w.person()],
                ["Date", w.date()],
                ["Project", w.site],
            ],
        ),
        Block("text", "We are sending you the following items:"),
        Block("table", rows=rows, widths=[0.12, 0.22, 0.66]),
        Block(
            "fields",
            rows=[
                [
                    "Remarks",
                    r.choice(("For your files.", "For review and comment.", "As requested.")),
                ]
            ],
        ),
    ]


def _wells(r: random.Random) -> list[str]:
    return [f"MW-{i}" for i in range(1, r.randint(4, 8))]


def _common(w: Writer, wells: list[str]) -> list[str]:
    """Sentences every site report may carry: the vocabulary the reports share."""
    r = w.rng
    return [
        f"Monitoring wells {wells[0]} through {wells[-1]} are screened across the water table.",
        f"Benzene has been the constituent of concern since the release from the former "
        f"{r.choice(('underground storage tanks', 'dispenser islands', 'fuel oil tank'))} was reported.",
        f"Depth to groundwater ranges from {r.randint(4, 9)} to {r.randint(10, 24)} feet below grade.",
        "Soil borings advanced during earlier work encountered silty sand over clay.",
    ]


def _sections(w: Writer, sections: list[tuple[str, list[Block]]]) -> list[Block]:
    out: list[Block] = []
    for number, (name, blocks) in enumerate(sections, 1):
        out.append(Block("heading", text=f"{number}.0 {name}", bold=True))
        out += blocks
    return out


def _front(w: Writer, firm: str, label: str) -> Block:
    return Block(
        "fields",
        rows=[
            [label, w.site],
            ["Prepared for", w.client],
            ["Prepared by", firm],
            ["Date", w.date()],
            ["Project no.", w.number("")],
        ],
    )


STAGES = SITE_REPORTS  # the order a cleanup goes through


def history(w: Writer, kind: str, wells: list[str]) -> list[Block]:
    """The site's earlier reports, as every later report (and many a Phase I) retells them: the
    vocabulary of every stage, in the body of any."""
    r = w.rng
    stage = STAGES.index(kind)
    if kind == "phase-i-report":
        upto = r.randint(0, 5)  # a former owner's case, retold from the agency's files
    elif kind == "monitoring-report":
        upto = stage + (1 if r.random() < 0.5 else 0)  # monitoring under an approved plan
    else:
        upto = stage
    year = w.day.year - r.randint(6, 14)
    told = [
        f"A Phase I environmental site assessment by {r.choice(FIRMS)} in {year} identified the former "
        "underground storage tanks as a recognized environmental condition.",
        f"A subsurface investigation in {year + 1} advanced {r.randint(3, 9)} soil borings; benzene in "
        "soil and groundwater exceeded the screening levels and the release was reported.",
        f"Quarterly groundwater monitoring of wells {wells[0]} through {wells[-1]} began in {year + 2}; "
        "the monitoring reports are on file with the agency.",
        f"The corrective action plan approved in {year + 3} selected "
        f"{r.choice(('excavation', 'air sparging', 'monitored natural attenuation'))} as the remedy.",
        f"The agency closed the release case with a no further action letter in {year + 5}.",
    ][:upto]
    if not told:
        return []
    return [
        Block("heading", text=r.choice(("BACKGROUND", "PREVIOUS INVESTIGATIONS", "SITE HISTORY"))),
        _para(*told),
    ]


def site_report(w: Writer, kind: str, other: str | None) -> tuple[list[str], list[Block]]:
    """A Phase I or II assessment, a monitoring report, a remedial action plan or a closure report
    from a pool of shared sentences: what tells them apart is purpose, scope and sections."""
    r = w.rng
    firm = r.choice(FIRMS)
    wells = _wells(r)
    common = _common(w, wells)
    r.shuffle(common)
    earlier = w.date(w.day - dt.timedelta(days=r.randint(60, 1500)))
    benzene = r.choice(ANALYTES[:3])
    if kind == "phase-i-report":
        use = r.choice(
            ("gasoline service station", "dry cleaner", "machine shop", "bulk fuel plant")
        )
        listing = [["Site", "Distance", "Database", "Status"]] + [
            [
                f"{r.randint(10, 9800)} {r.choice(STREETS)}",
                f"{r.choice(('0.1', '0.25', '0.4', 'adjoining'))} mi",
                r.choice(("LUST", "UST", "RCRA-SQG", "State spills")),
                r.choice(("Open", "Closed", "No further action")),
            ]
            for _ in range(r.randint(2, 4))
        ]
        sections = [
            (
                "INTRODUCTION",
                [
                    _para(
                        f"{firm} performed this assessment of the property at {w.site} for {w.client}"
                        + r.choice(
                            (
                                " in connection with its proposed purchase.",
                                " as part of a refinancing.",
                            )
                        ),
                        "The purpose was to identify recognized environmental conditions through a records review,",
                        "a site reconnaissance and interviews; no samples were collected.",
                    )
                ],
            ),
            (
                "SITE DESCRIPTION AND RECONNAISSANCE",
                [
                    _para(
                        f"The property was walked on {w.date()}. {len(wells)} groundwater monitoring wells installed",
                        "by others were observed in the parking area; their records were not available.",
                        common[0],
                    )
                ],
            ),
            (
                "RECORDS REVIEW",
                [
                    _para(
                        f"Aerial photographs from {w.day.year - r.randint(40, 60)} onward and city directories show the property",
                        f"used as a {use}. The regulatory database report lists the following sites:",
                    ),
                    Block("table", rows=listing, widths=[0.36, 0.16, 0.22, 0.26]),
                    _para(
                        f"{benzene.capitalize()} in groundwater was reported at the adjoining listing."
                    ),
                ],
            ),
            (
                "FINDINGS AND RECOMMENDATIONS",
                [
                    _para(
                        f"Recognized environmental conditions: the historical use as a {use} and the monitoring wells of unknown purpose.",
                        r.choice(
                            (
                                "We recommend soil borings and groundwater sampling to evaluate these conditions.",
                                "We recommend no further inquiry at this time.",
                            )
                        ),
                    )
                ],
            ),
        ]
    elif kind == "phase-ii-report":
        rows = [["Boring", "Depth (ft)", "Analyte", "Result (mg/kg)"]] + [
            [
                f"B-{i + 1}",
                str(r.choice((2, 5, 8, 10, 15))),
                r.choice(ANALYTES),
                f"{r.uniform(0.01, 400):.3g}",
            ]
            for i in range(r.randint(3, 6))
        ]
        sections = [
            (
                "INTRODUCTION",
                [
                    _para(
                        f"This report presents a limited investigation of soil and groundwater at {w.site}, performed to",
                        f"evaluate the recognized environmental conditions identified in the assessment dated {earlier}.",
                        "The scope was limited to the areas of concern named in that assessment.",
                    )
                ],
            ),
            (
                "FIELD ACTIVITIES",
                [
                    _para(
                        f"On {w.date()}, {r.randint(3, 8)} soil borings were advanced with a direct-push rig to a maximum of",
                        f"{r.randint(12, 30)} feet. Soil was screened with a PID and one sample per boring was submitted;",
                        "temporary wells were set in three borings for grab groundwater samples.",
                        common[3],
                    )
                ],
            ),
            (
                "RESULTS",
                [Block("table", rows=rows, widths=[0.2, 0.2, 0.35, 0.25]), _para(common[1])],
            ),
            (
                "CONCLUSIONS AND RECOMMENDATIONS",
                [
                    _para(
                        f"{benzene.capitalize()} exceeds the screening level near the former tank basin, so a release has occurred.",
                        r.choice(
                            (
                                "We recommend installing permanent monitoring wells to define the extent of the plume.",
                                "We recommend reporting the release to the agency and further delineation.",
                            )
                        ),
                    )
                ],
            ),
        ]
    elif kind == "monitoring-report":
        rows = [
            ["Well", "Depth to water (ft)", f"{benzene.capitalize()} (ug/L)", "Previous (ug/L)"]
        ] + [
            [
                well,
                f"{r.uniform(4, 30):.2f}",
                r.choice(("ND", f"{r.uniform(1, 900):.3g}")),
                f"{r.uniform(1, 900):.3g}",
            ]
            for well in wells
        ]
        event = r.choice(("first", "second", "third", "fourth"))
        sections = [
            (
                "INTRODUCTION",
                [
                    _para(
                        f"This report documents the {event}-quarter {w.day.year} event of the groundwater monitoring program",
                        f"required for {w.site}. {common[1]}",
                    )
                ],
            ),
            (
                "GAUGING AND SAMPLING",
                [
                    _para(
                        f"All {len(wells)} wells were gauged and purged before sampling on {w.date()}.",
                        f"Groundwater flow was toward the {r.choice(('north', 'east', 'south', 'west', 'southwest'))}.",
                        common[2],
                    )
                ],
            ),
            (
                "RESULTS AND TRENDS",
                [
                    Block("table", rows=rows, widths=[0.16, 0.28, 0.28, 0.28]),
                    _para(
                        f"Concentrations remain {r.choice(('stable', 'stable to decreasing', 'above the standard but decreasing'))} since {earlier}."
                    ),
                ],
            ),
            (
                "RECOMMENDATIONS",
                [
                    _para(
                        r.choice(
                            (
                                "We recommend continued quarterly sampling of all wells.",
                                "We recommend reducing the sampling to semiannual events.",
                                "If the trend continues for two more events we will recommend that the agency consider closure.",
                            )
                        ),
                        "The next event is scheduled for the following quarter.",
                    )
                ],
            ),
        ]
    elif kind == "remedial-action-plan":
        goals = [["Constituent", "Medium", "Cleanup goal"]] + [
            [a, m, g]
            for a, m, g in r.sample(
                [
                    ("Benzene", "Groundwater", "5 ug/L"),
                    ("MTBE", "Groundwater", "20 ug/L"),
                    ("Benzene", "Soil", "0.03 mg/kg"),
                    ("TPH-gasoline", "Soil", "100 mg/kg"),
                    ("Toluene", "Groundwater", "1,000 ug/L"),
                ],
                3,
            )
        ]
        options = [["Alternative", "Estimated cost", "Time to goals"]] + [
            [name, f"${r.randint(8, 90) * 10000:,}", f"{r.randint(1, 12)} years"]
            for name in r.sample(
                (
                    "Excavation and off-site disposal",
                    "Air sparging with soil vapor extraction",
                    "Monitored natural attenuation",
                    "In-situ chemical oxidation",
                ),
                3,
            )
        ]
        chosen = options[r.randint(1, 3)][0].lower()
        sections = [
            (
                "INTRODUCTION",
                [
                    _para(
                        f"This plan proposes the corrective action for {benzene.lower()} in soil and groundwater at {w.site},",
                        f"delineated by the investigation and monitoring through {earlier}. {common[1]}",
                    )
                ],
            ),
            ("CLEANUP GOALS", [Block("table", rows=goals, widths=[0.4, 0.3, 0.3])]),
            (
                "EVALUATION OF ALTERNATIVES",
                [Block("table", rows=options, widths=[0.5, 0.25, 0.25]), _para(common[0])],
            ),
            (
                "PROPOSED REMEDY AND SCHEDULE",
                [
                    _para(
                        f"We recommend {chosen}. Work will begin within 90 days of the agency's approval of this plan.",
                        "Performance will be measured by quarterly sampling of the existing wells until the goals are met.",
                    )
                ],
            ),
        ]
    elif kind == "closure-report":
        rows = [["Sample", "Depth (ft)", f"{benzene.capitalize()} (mg/kg)", "Cleanup goal"]] + [
            [
                f"CS-{i + 1}",
                str(r.choice((4, 6, 8, 10, 12))),
                r.choice(("ND", f"{r.uniform(0.001, 0.02):.2g}")),
                "0.03",
            ]
            for i in range(r.randint(3, 6))
        ]
        tons = r.randint(40, 900)
        sections = [
            (
                "INTRODUCTION",
                [
                    _para(
                        f"This report documents the remedial work completed at {w.site} under the plan approved on {earlier}",
                        "and requests a determination that no further action is required.",
                    )
                ],
            ),
            (
                "WORK PERFORMED",
                [
                    _para(
                        f"Between {w.date(w.day - dt.timedelta(days=r.randint(20, 200)))} and {w.date()}, {tons} tons of impacted soil",
                        "were excavated and disposed of; the disposal certificates are attached.",
                        common[3],
                    )
                ],
            ),
            (
                "CONFIRMATION SAMPLING",
                [Block("table", rows=rows, widths=[0.2, 0.2, 0.35, 0.25]), _para(common[1])],
            ),
            (
                "WELL DECOMMISSIONING AND CONCLUSIONS",
                [
                    _para(
                        f"Groundwater in {wells[0]} through {wells[-1]} has met the cleanup goals in "
                        f"{r.randint(4, 8)} consecutive events.",
                        "The wells will be decommissioned after the agency's determination.",
                        "We recommend that the site be granted closure with no further action.",
                    )
                ],
            ),
        ]
    else:
        raise ValueError(kind)
    background = history(w, kind, wells)
    if background:
        sections.insert(1, (background[0].text, background[1:]))
    blocks = [_front(w, firm, r.choice(("Property", "Site"))), *_sections(w, sections)]
    if other:
        blocks.append(
            _para(
                f"This report relies in part on {MENTIONS[other]} dated {w.date(w.day - dt.timedelta(days=r.randint(30, 900)))}."
            )
        )
    blocks.append(
        Block("signature", text=f"{w.person()}, {r.choice(('P.G.', 'P.E.', 'Project Manager'))}")
    )
    return [firm, f"{r.randint(10, 999)} {r.choice(STREETS)}, {r.choice(CITIES)}"], blocks


def data_validation(w: Writer) -> tuple[list[str], list[Block]]:
    r = w.rng
    firm = r.choice(FIRMS)
    lab = r.choice(LABS)
    rows = [["Sample ID", "Analyte", "Result", "Lab flag", "Final qualifier", "Reason"]]
    for _i in range(r.randint(4, 8)):
        rows.append(
            [
                f"MW-{r.randint(1, 8)}",
                r.choice(ANALYTES[:9]),
                f"{r.uniform(0.5, 900):.3g}",
                r.choice(("", "B", "E", "J")),
                r.choice(("J", "UJ", "R", "None")),
                r.choice(("Holding time", "Blank contamination", "LCS recovery", "MS/MSD RPD")),
            ]
        )
    return [firm, f"{r.randint(10, 999)} {r.choice(STREETS)}, {r.choice(CITIES)}"], [
        Block(
            "fields",
            rows=[
                ["Project", w.site],
                ["Laboratory", lab],
                ["Work order", w.number("WO-")],
                ["Reviewer", w.person()],
                ["Date", w.date()],
            ],
        ),
        *_sections(
            w,
            [
                (
                    "INTRODUCTION",
                    [
                        _para(
                            f"This review evaluates the analytical results reported by {lab} for groundwater samples from",
                            f"the monitoring wells at {w.site}, against the method requirements and the national functional guidelines.",
                        )
                    ],
                ),
                (
                    "HOLDING TIMES, BLANKS AND CONTROL SAMPLES",
                    [
                        _para(
                            "All samples were analyzed within holding times except as noted. Benzene was found in one method blank;",
                            "results less than five times the blank were qualified. Laboratory control sample recoveries were within limits.",
                        )
                    ],
                ),
                (
                    "QUALIFIED RESULTS",
                    [Block("table", rows=rows, widths=[0.13, 0.22, 0.12, 0.11, 0.16, 0.26])],
                ),
                (
                    "USABILITY",
                    [
                        _para(
                            r.choice(
                                (
                                    "The data are usable as qualified; results qualified R are rejected.",
                                    "Completeness is 97 percent. We recommend that rejected results not be used for decisions.",
                                )
                            )
                        )
                    ],
                ),
            ],
        ),
        Block("signature", text=f"{w.person()}, Data Validator"),
    ]


def agency_letter(w: Writer, variant: str) -> tuple[list[str], list[Block]]:
    """A letter from an agency that decides something: a no-further-action (closure) letter or a
    notice of violation. Still a letter: correspondence, whatever it decides."""
    r = w.rng
    agency = f"State {r.choice(AGENCIES)}"
    earlier = w.date(w.day - dt.timedelta(days=r.randint(30, 400)))
    if variant == "nfa":
        subject = r.choice(
            ("No Further Action Determination", "Case Closure", "Site Closure Letter")
        )
        body = [
            _para(
                f"The Department has reviewed the closure report dated {earlier} for the release at {w.site}.",
                "Based on the confirmation sampling and groundwater monitoring results, no further action is required.",
            ),
            _para(
                "All monitoring wells shall be properly decommissioned within 90 days and the well abandonment",
                "records submitted. This determination may be reopened if new information shows a threat to human health.",
            ),
        ]
    else:
        subject = r.choice(
            ("Notice of Violation", "Notice of Violation and Request for Corrective Action")
        )
        body = [
            _para(
                f"An inspection of the facility at {w.site} on {earlier} found the following violations:",
                r.choice(
                    (
                        "the quarterly groundwater monitoring reports were not submitted,",
                        "release detection was not performed on the underground storage tanks,",
                        "the tank registration had expired,",
                    )
                ),
                "and the corrective action plan required by the Department has not been received.",
            ),
            _para(
                "Within 30 days of this notice you are required to correct the violations and submit a schedule.",
                "Failure to comply may result in penalties.",
            ),
        ]
    return [agency, f"{r.randint(10, 999)} Capitol Way, {r.choice(CITIES)}"], [
        Block("text", w.date()),
        Block("fields", rows=[[w.person(), ""], [w.client, ""], [w.site, ""]]),
        Block("text", f"Re: {subject} — {w.site}", bold=True),
        Block("text", r.choice(("Dear Sir or Madam:", f"Dear {w.person()}:"))),
        *body,
        Block("text", r.choice(("Sincerely,", "Respectfully,"))),
        Block(
            "signature", text=f"{w.person()}, {r.choice(('Case Manager', 'Compliance Officer'))}"
        ),
    ]


def recorded_instrument(w: Writer, variant: str) -> tuple[list[str], list[Block]]:
    """An easement or an environmental covenant: recorded, burdening the land (kind `deed`)."""
    r = w.rng
    owner, holder = r.sample(COMPANIES, 2)
    agency = f"State {r.choice(AGENCIES)}"
    lot = (
        f"Lot {r.randint(1, 40)}, Block {r.randint(1, 20)}, of the plat recorded in Book {r.randint(1, 90)}, "
        f"Page {r.randint(1, 300)}, commonly known as {w.site}."
    )
    if variant == "easement":
        w.title = r.choice(
            {
                "dev": ("GRANT OF EASEMENT", "ACCESS EASEMENT"),
                "test": ("EASEMENT AGREEMENT", "DEED OF EASEMENT"),
            }[w.split]
        )
        body = [
            _para(
                f'{owner} ("Grantor") grants to {holder} ("Grantee") a non-exclusive easement over the land described as',
                lot,
            ),
            _para(
                "The easement is for access to install, sample and maintain groundwater monitoring wells and remediation",
                "equipment, and runs with the land until the wells are decommissioned.",
            ),
        ]
    else:
        w.title = r.choice(
            {
                "dev": ("ENVIRONMENTAL COVENANT",),
                "test": ("DECLARATION OF RESTRICTIVE COVENANT", "ACTIVITY AND USE LIMITATION"),
            }[w.split]
        )
        body = [
            _para(
                f'{owner} ("Owner") and {agency} ("Agency") enter into this covenant for the land described as',
                lot,
            ),
            _para(
                "Activity and use limitations: groundwater beneath the property shall not be used for any purpose;",
                "the property shall not be used for residential purposes; the cap over the former tank area shall be maintained.",
                "These limitations run with the land and bind every owner until released by the Agency.",
            ),
        ]
    return [
        f"Recording requested by and return to: {w.person()}",
        f"{r.randint(10, 999)} {r.choice(STREETS)}, {r.choice(CITIES)}",
    ], [
        *body,
        Block("signature", text=f"{owner}"),
        _para(
            f"State of {r.choice(('Oregon', 'Kentucky', 'Washington', 'Colorado'))}, County of {r.choice(CITIES)}: acknowledged before me on {w.date()}."
        ),
        Block("signature", text="Notary Public"),
    ]


def lease_amendment(w: Writer) -> tuple[list[str], list[Block]]:
    r = w.rng
    landlord, tenant = r.sample(COMPANIES, 2)
    w.title = r.choice(
        {
            "dev": ("FIRST AMENDMENT TO LEASE",),
            "test": ("SECOND AMENDMENT", "LEASE MODIFICATION AGREEMENT"),
        }[w.split]
    )
    return [], [
        _para(
            f"This amendment is made on {w.date()} between {landlord} and {tenant}, parties to the agreement dated",
            f"{w.date(w.day - dt.timedelta(days=r.randint(400, 4000)))} for the premises at {w.site}.",
        ),
        _para(f"1. The term is extended by {r.randint(2, 10)} years."),
        _para(
            f"2. The monthly payment is ${r.randint(20, 200) * 100:,} from the first day of the extended term."
        ),
        _para("3. Except as amended here, the agreement remains in full force."),
        Block("signature", text=f"{landlord}"),
        Block("signature", text=f"{tenant}"),
    ]


def registration(w: Writer) -> tuple[list[str], list[Block]]:
    """An agency's registration of storage tanks: an authorization, so kind `permit`."""
    r = w.rng
    agency = r.choice(AGENCIES)
    w.title = r.choice(
        {
            "dev": ("CERTIFICATE OF REGISTRATION",),
            "test": ("TANK REGISTRATION CERTIFICATE", "REGISTRATION CERTIFICATE"),
        }[w.split]
    )
    rows = [["Tank", "Capacity (gal)", "Product", "Installed"]] + [
        [
            str(i),
            f"{r.choice((4, 6, 8, 10, 12))},000",
            r.choice(("Gasoline", "Diesel", "Waste oil")),
            str(r.randint(1975, 2015)),
        ]
        for i in range(1, r.randint(2, 5))
    ]
    return [f"State {agency}", f"{r.randint(10, 999)} Capitol Way, {r.choice(CITIES)}"], [
        Block(
            "fields",
            rows=[
                ["Facility ID", w.number("")],
                ["Owner", w.client],
                ["Location", w.site],
                ["Valid through", w.date(w.day.replace(year=w.day.year + 1))],
            ],
        ),
        _para(
            "The storage tanks listed below are registered and may be operated at this location. Display this certificate at the facility."
        ),
        Block("table", rows=rows, widths=[0.15, 0.3, 0.3, 0.25]),
        Block("signature", text=f"{w.person()}, Tank Program"),
    ]


def tightness_test(w: Writer) -> tuple[list[str], list[Block]]:
    """A tester's certificate of a tank tightness test: kind `certificate`."""
    r = w.rng
    w.title = r.choice(
        {
            "dev": ("TANK TIGHTNESS TEST CERTIFICATE",),
            "test": ("PRECISION TANK TEST CERTIFICATION", "LINE AND TANK TEST CERTIFICATE"),
        }[w.split]
    )
    rows = [["Tank", "Product", "Leak rate (gal/h)", "Result"]] + [
        [str(i), r.choice(("Gasoline", "Diesel")), f"{r.uniform(-0.04, 0.09):+.3f}", "Pass"]
        for i in range(1, r.randint(2, 5))
    ]
    return [
        r.choice(("Ridgeline Tank Services", "Apex Tank Testing")),
        f"{r.randint(10, 999)} {r.choice(STREETS)}, {r.choice(CITIES)}",
    ], [
        _para(
            f"I certify that the tanks at {w.site}, owned by {w.client}, were tested on {w.date()} by a method meeting",
            "the 0.1 gallon per hour criterion, with the results below.",
        ),
        Block("table", rows=rows, widths=[0.15, 0.3, 0.3, 0.25]),
        Block(
            "fields",
            rows=[["Certificate no.", w.number("T-")], ["Technician license", w.number("L-")]],
        ),
        Block("signature", text=f"{w.person()}, Certified Tester"),
    ]


def lab_invoice(w: Writer) -> tuple[list[str], list[Block]]:
    r = w.rng
    lab = r.choice(LABS)
    items = [["Method", "Analysis", "Samples", "Unit price", "Amount"]]
    total = 0
    for method, name in r.sample(
        [("8260D", "VOCs"), ("8021B", "BTEX/MTBE"), ("6010D", "Metals"), ("8015", "TPH-G/TPH-D")],
        r.randint(2, 3),
    ):
        n, price = r.randint(2, 12), r.choice((45, 65, 85, 110, 140))
        total += n * price
        items.append([method, name, str(n), f"${price:,.2f}", f"${n * price:,.2f}"])
    items.append(["", "Total", "", "", f"${total:,.2f}"])
    return [lab, f"{r.randint(10, 999)} Laboratory Way, {r.choice(CITIES)}"], [
        Block(
            "fields",
            rows=[
                ["Account", w.number("A-")],
                ["Work order", w.number("WO-")],
                ["Client", w.client],
                ["Project", w.site],
                ["Date", w.date()],
            ],
        ),
        Block("table", rows=items, widths=[0.14, 0.3, 0.14, 0.2, 0.22]),
        _para(
            "Amount due in 30 days. Analytical results were reported under the work order above."
        ),
    ]


# First pages that are not the document (truth: the document is what follows them).
def fax_cover(w: Writer, kind: str) -> list[Block]:
    r = w.rng
    return [
        Block(
            "heading", text=r.choice(("FAX", "FACSIMILE TRANSMITTAL", "FAX COVER SHEET")), bold=True
        ),
        Block(
            "fields",
            rows=[
                ["To", f"{w.person()}, {w.client}"],
                ["Fax", f"({r.randint(200, 989)}) {r.randint(200, 989)}-{r.randint(1000, 9999)}"],
                ["From", w.person()],
                ["Date", w.date()],
                ["Pages", f"{r.randint(3, 9)} including cover"],
                ["Re", w.site],
            ],
        ),
        _para(
            r.choice(
                (
                    "Please see attached. Original to follow by mail.",
                    "Attached are the pages you asked for. Call if any are missing.",
                    "Confidential: if you received this fax in error, notify the sender.",
                )
            )
        ),
    ]


APPENDICES = (
    "Laboratory Analytical Reports and Chain-of-Custody Records",
    "Boring Logs and Well Construction Details",
    "Site Photographs",
    "Certificates of Disposal",
    "Regulatory Correspondence",
    "Historical Aerial Photographs",
    "Data Validation Reports",
    "Permits",
)


def contents(w: Writer, blocks: list[Block]) -> list[Block]:
    """A table of contents of the report's sections and appendices (which name other kinds)."""
    r = w.rng
    rows = [["Section", "Page"]]
    page = 1
    for block in blocks:
        if block.kind == "heading":
            page += r.randint(1, 4)
            rows.append([block.text.title().replace(".0 ", ".0  "), str(page)])
    for letter_, name in zip("ABCDE", r.sample(APPENDICES, r.randint(3, 5)), strict=False):
        rows.append([f"Appendix {letter_}  {name}", ""])
    return [
        Block("heading", text="TABLE OF CONTENTS", bold=True),
        Block("table", rows=rows, widths=[0.85, 0.15]),
    ]


def excerpt(blocks: list[Block]) -> list[Block]:
    """A report's middle pages: from its second section up to (not including) its signature."""
    headings = [i for i, b in enumerate(blocks) if b.kind == "heading"]
    start = headings[1] if len(headings) > 1 else 1
    return [b for b in blocks[start:] if b.kind != "signature"]


# Kinds a site file often holds behind a cover letter of their issuer (a laboratory's letter to
# its client, a consultant's letter to the agency): the document is the report, not the letter.
COVERED = (
    "laboratory-report",
    *SITE_REPORTS,
    "data-validation-report",
    "permit",
    "certificate",
    "boring-log",
)
COVER_SHARE = 0.25  # a cover letter on page 1
FAX_SHARE = 0.12  # a fax cover sheet on page 1
CONTENTS_SHARE = 0.2  # of the reports left: a table of contents after the title
EXCERPT_SHARE = 0.2  # of the reports left: the middle pages only
EXCERPTED = (*SITE_REPORTS, "data-validation-report")


def cover_letter(w: Writer, kind: str) -> list[Block]:
    r = w.rng
    noun = MENTIONS[kind].removeprefix("the ")
    return [
        Block("text", w.date()),
        Block("fields", rows=[[w.person(), ""], [w.client, ""], [w.site, ""]]),
        Block("text", f"Re: {w.site}", bold=True),
        Block(
            "text", r.choice(("Dear Sir or Madam:", f"Dear {w.person()}:", f"Dear {w.person()},"))
        ),
        _para(
            f"Enclosed please find the {noun} for the property referenced above.",
            r.choice(
                (
                    "Please call if you have any questions.",
                    "We appreciate the opportunity to assist you.",
                )
            ),
        ),
        Block("text", r.choice(("Sincerely,", "Very truly yours,", "Respectfully,"))),
        Block("signature", text=w.person()),
    ]


CROSS_REFERENCING = (
    "phase-i-report",
    "phase-ii-report",
    "letter",
    "invoice",
    "lease",
    "contract",
    "transmittal",
)


def sample_document(rng: random.Random, kind: str, split: str, fam: Family) -> Document:
    """One document of `kind` in family `fam`, in `split`'s title wordings.

    Truth rules: the kind is what the document *is* (its purpose, scope and sections), not what
    its first page, its title or its body names. A document behind a cover letter or a fax cover
    sheet is the document behind it; a report's table of contents does not make it anything
    else; an excerpt (a report's middle pages, no title, letterhead or signature) is the kind of
    the report it comes from. Variants: a limited site investigation is a `phase-ii-report`; a
    no-further-action letter or a notice of violation is a `letter`; an easement or an
    environmental covenant is a `deed` (a recorded instrument burdening the land); a lease
    amendment is a `lease`; an agency's tank registration certificate is a `permit`; a tank
    tightness-test certificate is a `certificate`; a laboratory's bill is an `invoice`.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown document kind {kind!r}; choose from {', '.join(KINDS)}")
    if split not in ("dev", "test"):
        raise ValueError(f"unknown split {split!r}")
    w = Writer(rng, split, fam)
    traps: list[str] = []
    other = (
        w.other_kind(kind)
        if kind in CROSS_REFERENCING and (kind == "transmittal" or rng.random() < 0.6)
        else None
    )
    if other:
        traps.append("cross-reference")
    variant = rng.random()
    makers = {
        "laboratory-report": lambda: laboratory_report(w),
        "phase-i-report": lambda: site_report(w, kind, other),
        "phase-ii-report": lambda: site_report(w, kind, other),
        "monitoring-report": lambda: site_report(w, kind, other),
        "remedial-action-plan": lambda: site_report(w, kind, other),
        "closure-report": lambda: site_report(w, kind, other),
        "data-validation-report": lambda: data_validation(w),
        "letter": lambda: (
            agency_letter(w, "nfa" if variant < 0.25 else "nov")
            if variant < 0.5 and not other
            else letter(w, other)
        ),
        "invoice": lambda: lab_invoice(w) if variant < 0.35 and not other else invoice(w, other),
        "permit": lambda: registration(w) if variant < 0.4 else permit(w),
        "certificate": lambda: tightness_test(w) if variant < 0.4 else certificate(w),
        "deed": lambda: (
            recorded_instrument(w, "easement" if variant < 0.25 else "covenant")
            if variant < 0.5
            else deed(w)
        ),
        "lease": lambda: lease_amendment(w) if variant < 0.35 and not other else lease(w, other),
        "contract": lambda: contract(w, other),
        "boring-log": lambda: boring_log(w),
        "photo-page": lambda: photo_page(w),
        "chain-of-custody": lambda: custody(w),
        "transmittal": lambda: transmittal(w, other),
    }
    header, blocks = makers[kind]()
    if w.title is not None:
        title = w.title
    elif kind in MISLEADING_TITLES and rng.random() < MISLEADING_SHARE:
        title = rng.choice(MISLEADING_TITLES[kind][split] + GENERIC_TITLES[split])
        traps.append("misleading-title")
    else:
        title = rng.choice(TITLES[kind][split])
    if kind == "laboratory-report" and title.startswith("CERTIFICATE"):
        traps.append("certificate-title")
    cover: list[Block] = []
    front = rng.random() if kind in COVERED else 1.0
    if front < COVER_SHARE:
        cover = cover_letter(w, kind)
        traps.append("cover-letter")
    elif front < COVER_SHARE + FAX_SHARE:
        cover = fax_cover(w, kind)
        traps.append("fax-cover")
    elif kind in EXCERPTED:
        pick = rng.random()
        if pick < CONTENTS_SHARE:
            blocks = [*contents(w, blocks), Block("page"), *blocks]
            traps.append("contents")
        elif pick < CONTENTS_SHARE + EXCERPT_SHARE:
            return Document(kind, split, fam, "", [], excerpt(blocks), (*traps, "excerpt"))
    if title and rng.random() < UNTITLED_SHARE:
        title = ""
        traps.append("untitled")
    return Document(kind, split, fam, title, header, blocks, tuple(traps), cover)


# -- layout and PDF ---------------------------------------------------------------------------------


def _wrap(text: str, font: str, size: float, width: float) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if line and stringWidth(trial, font, size) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    return lines + ([line] if line else [])


Op = tuple  # ("text", x, y, font, size, string) | ("rect", x, y, w, h, fill) | ("line", x1, y1, x2, y2)


def layout(document: Document) -> list[list[Op]]:
    """The document's pages as drawing operations, top to bottom, a new page when one is full."""
    fam = document.family
    regular, bold = FONTS[fam.font]
    size = fam.size
    width = PAGE_W - 2 * MARGIN
    pages: list[list[Op]] = [[]]
    y = PAGE_H - 56.0

    def need(height: float) -> None:
        nonlocal y
        if y - height < BOTTOM:
            pages.append([])
            y = PAGE_H - 60.0

    def text_line(
        string: str, font: str, fsize: float, x: float = MARGIN, align: str = "left"
    ) -> None:
        nonlocal y
        need(fsize * 1.35)
        if align == "center":
            x = (PAGE_W - stringWidth(string, font, fsize)) / 2
        pages[-1].append(("text", x, y - fsize, font, fsize, string))
        y -= fsize * 1.35

    # letterhead
    if document.header:
        top = y
        text_line(
            document.header[0],
            bold,
            size + 2,
            align="center" if fam.title_align == "center" else "left",
        )
        for line in document.header[1:]:
            text_line(
                line, regular, size - 0.5, align="center" if fam.title_align == "center" else "left"
            )
        if fam.letterhead == "rule":
            pages[-1].append(("line", MARGIN, y - 2, PAGE_W - MARGIN, y - 2))
        elif fam.letterhead == "box":
            pages[-1].append(("rect", MARGIN - 6, y - 4, width + 12, top - y + 6, False))
        y -= 14
    body = document.blocks
    if document.cover:
        body = [*document.cover, Block("page"), *document.blocks]
        pending_title = document.title
    else:
        pending_title = ""
        if document.title:
            text_line(document.title, bold, size + 4, align=fam.title_align)
            y -= 6
    for block in body:
        if block.kind == "page":
            pages.append([])
            y = PAGE_H - 60.0
            if pending_title:
                text_line(pending_title, bold, size + 4, align=fam.title_align)
                y -= 6
            continue
        font = bold if block.bold else regular
        if block.kind in ("text", "heading"):
            for line in _wrap(block.text, font, size, width):
                text_line(line, font, size)
            y -= size * 0.6
        elif block.kind == "fields":
            for label, value in block.rows:
                need(size * 1.35)
                if value:
                    pages[-1].append(("text", MARGIN, y - size, bold, size, f"{label}:"))
                    pages[-1].append(("text", MARGIN + 110, y - size, regular, size, value))
                else:
                    pages[-1].append(("text", MARGIN, y - size, regular, size, label))
                y -= size * 1.35
            y -= size * 0.6
        elif block.kind == "table":
            tsize = size - 1
            xs = [MARGIN]
            for share in block.widths[:-1]:
                xs.append(xs[-1] + share * width)
            for index, row in enumerate(block.rows):
                need(tsize * 1.5)
                for x, cell, share in zip(xs, row, block.widths, strict=True):
                    cell_font = bold if index == 0 else regular
                    while cell and stringWidth(cell, cell_font, tsize) > share * width - 4:
                        cell = cell[:-1]
                    pages[-1].append(("text", x + 2, y - tsize, cell_font, tsize, cell))
                pages[-1].append(
                    ("line", MARGIN, y - tsize * 1.45, MARGIN + width, y - tsize * 1.45)
                )
                y -= tsize * 1.5
            y -= size
        elif block.kind == "photo":
            need(200)
            pages[-1].append(("rect", MARGIN + 40, y - 190, width - 80, 185, True))
            y -= 198
        elif block.kind == "signature":
            need(size * 4)
            y -= size * 2
            pages[-1].append(("line", MARGIN, y, MARGIN + 200, y))
            pages[-1].append(("text", MARGIN, y - size * 1.2, regular, size, block.text))
            y -= size * 2.2
    return pages


def emit(document: Document, pages: list[list[Op]]) -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(PAGE_W, PAGE_H), invariant=1, pageCompression=1)
    canvas.setTitle(PDF_TITLE)  # the same for every kind: metadata must not tell the kind
    canvas.setCreator(PDF_CREATOR)
    regular = FONTS[document.family.font][0]
    for number, ops in enumerate(pages, 1):
        for op in ops:
            if op[0] == "text":
                _, x, y, font, size, string = op
                canvas.setFont(font, size)
                canvas.drawString(x, y, string)
            elif op[0] == "line":
                canvas.setLineWidth(0.6)
                canvas.line(*op[1:])
            else:
                _, x, y, w, h, fill = op
                canvas.setFillGray(0.55 if fill else 1)
                canvas.rect(x, y, w, h, stroke=1, fill=1 if fill else 0)
                canvas.setFillGray(0)
        if document.family.page_mark:
            canvas.setFont(regular, 8)
            canvas.drawCentredString(
                PAGE_W / 2, 36, document.family.page_mark.format(page=number, pages=len(pages))
            )
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _rasterize(pdf: bytes, index: int, dpi: int):
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        image = document[index].render(scale=dpi / 72, grayscale=True, draw_annots=False).to_pil()
    finally:
        document.close()
    return image if image.mode == "L" else image.convert("L")


def scanned_pdf(
    pdf: bytes, pages: int, title: str, seed: int, *labels: str | int, heavy: bool = False
) -> bytes:
    """Every page rasterised at SCAN_DPI, put through an office scanner, kept black and white; a
    heavy scan (a copy of a copy, a fax) at HEAVY_DPI with more skew, blur and noise."""
    saved = rl_config.useA85
    rl_config.useA85 = 0  # binary Flate streams: ASCII85 would cost a quarter more bytes
    try:
        buffer = io.BytesIO()
        canvas = Canvas(buffer, pagesize=(PAGE_W, PAGE_H), invariant=1, pageCompression=1)
        canvas.setTitle(title)
        canvas.setCreator(PDF_CREATOR)
        for index in range(pages):
            params = sample_scan_params(
                make_random(seed, *labels, "scan", index),
                max_angle=HEAVY_SKEW if heavy else MAX_SCAN_SKEW,
            )
            if heavy:
                params = dataclasses.replace(
                    params, blur_radius=params.blur_radius + 0.4, noise_sigma=params.noise_sigma + 4
                )
            scanned = scan_page(
                _rasterize(pdf, index, HEAVY_DPI if heavy else SCAN_DPI),
                params,
                seed,
                *labels,
                "scan",
                index,
            ).image
            threshold = params.ink + (params.paper - params.ink) * 2 // 3
            image = scanned.point(lambda v, t=threshold: 0 if v < t else 255).convert("1")
            canvas.drawImage(ImageReader(image), 0, 0, width=PAGE_W, height=PAGE_H)
            canvas.showPage()
        canvas.save()
    finally:
        rl_config.useA85 = saved
    return buffer.getvalue()


def render_document(
    document: Document,
    *,
    scanned: bool,
    seed: int,
    labels: tuple[str | int, ...],
    heavy: bool = False,
) -> tuple[bytes, int]:
    """(PDF bytes, pages) of the document; a scanned copy draws its noise from (seed, *labels)."""
    pages = layout(document)
    pdf = emit(document, pages)
    if scanned:
        pdf = scanned_pdf(pdf, len(pages), PDF_TITLE, seed, *labels, heavy=heavy)
    return pdf, len(pages)
