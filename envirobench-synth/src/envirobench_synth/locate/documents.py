"""The kinds of document a site file holds, each rendered as a short PDF whose kind is the truth.

    rng = make_random(SEED, "test", "dt-test-0007")
    document = sample_document(rng, "invoice", "test", family("quarry-fenn"))
    pdf = render_document(document, scanned=False, seed=SEED, labels=("test", "dt-test-0007"))

`KINDS` are the kinds a reader of a site file tells apart: laboratory reports, Phase I and
Phase II reports, monitoring reports, letters, invoices, permits, certificates, deeds, leases,
contracts, boring logs, photo pages, chain-of-custody forms and transmittals. Each is drawn as
blocks (a title, key-value fields, paragraphs, tables, photographs, signature lines) laid out
on one to three pages in the style of a document *family* (`Family`: font, title placement,
letterhead, date form, page numbering). Families and title wordings are split: the test split's
(`FAMILIES_BY_SPLIT["test"]`, `TITLES[kind]["test"]`) never occur in dev.

The traps a reader meets, recorded per document (`Document.traps`):

    cover-letter      a report, permit, certificate or log sent behind its issuer's cover letter:
                      page 1 is a letter, the document itself starts on page 2
    cross-reference   the body names another kind (a letter about a laboratory report, an invoice
                      for a Phase I assessment, a transmittal of boring logs, a lease that refers
                      to a permit)
    certificate-title a laboratory report titled as a certificate ("Certificate of Analysis")
    untitled          the document's title is missing (a page torn from its cover, a form
                      without its heading): the kind shows only in its layout and wording
    scanned           set by the caller: the PDF is a black-and-white scan without a text layer

Grow the tables by appending: samplers pick by position.
"""

from __future__ import annotations

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
)
PAGE_W, PAGE_H = 612.0, 792.0
MARGIN = 64.0
BOTTOM = 72.0  # body text stops this far above the page's lower edge
SCAN_DPI = 120
MAX_SCAN_SKEW = 0.7
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
}
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


def phase_report(w: Writer, phase: str, other: str | None) -> tuple[list[str], list[Block]]:
    r = w.rng
    firm = r.choice(FIRMS)
    blocks = [
        Block(
            "fields",
            rows=[
                ["Property", w.site],
                ["Prepared for", w.client],
                ["Prepared by", firm],
                ["Date", w.date()],
                ["Project no.", w.number("")],
            ],
        ),
        Block("heading", text="1.0 INTRODUCTION", bold=True),
    ]
    if phase == "i":
        blocks += [
            _para(
                f"{firm} performed this assessment of the property at {w.site} for {w.client}.",
                "The purpose was to identify recognized environmental conditions in connection with the property.",
                "The assessment included a records review, a site reconnaissance, interviews and this report.",
            ),
            Block("heading", text="2.0 HISTORICAL REVIEW", bold=True),
            _para(
                f"Fire insurance maps, aerial photographs from {w.day.year - r.randint(40, 60)} onward and city directories",
                f"show the property used as a {r.choice(('gasoline service station', 'dry cleaner', 'machine shop', 'bulk fuel plant'))}.",
                "No records of a release were found in the regulatory database search.",
            ),
            Block("heading", text="3.0 FINDINGS", bold=True),
            _para(
                "Recognized environmental conditions: the former underground storage tanks and the historical use of",
                "solvents. No further investigation is recommended at this time."
                if r.random() < 0.3
                else "A subsurface investigation is recommended to evaluate soil and groundwater.",
            ),
        ]
    else:
        rows = [["Boring", "Depth (ft)", "Analyte", "Result (mg/kg)"]]
        for i in range(r.randint(3, 6)):
            rows.append(
                [
                    f"B-{i + 1}",
                    str(r.choice((2, 5, 8, 10, 15))),
                    r.choice(ANALYTES),
                    f"{r.uniform(0.01, 400):.3g}",
                ]
            )
        blocks += [
            _para(
                f"This report presents the results of soil borings and groundwater sampling at {w.site}.",
                f"{r.randint(3, 8)} borings were advanced with a direct-push rig; soil and grab groundwater samples were",
                "submitted for laboratory analysis.",
            ),
            Block("heading", text="2.0 SAMPLING RESULTS", bold=True),
            Block("table", rows=rows, widths=[0.2, 0.2, 0.35, 0.25]),
            _para(
                "Concentrations above screening levels were found in the vicinity of the former tank basin."
            ),
        ]
    if other:
        blocks.append(
            _para(
                f"This report relies in part on {MENTIONS[other]} dated {w.date(w.day - dt.timedelta(days=r.randint(30, 900)))}."
            )
        )
    return [firm, f"{r.randint(10, 999)} {r.choice(STREETS)}, {r.choice(CITIES)}"], blocks


def monitoring_report(w: Writer) -> tuple[list[str], list[Block]]:
    r = w.rng
    firm = r.choice(FIRMS)
    rows = [["Well", "Date gauged", "Depth to water (ft)", "Benzene (ug/L)", "MTBE (ug/L)"]]
    for i in range(1, r.randint(4, 8)):
        rows.append(
            [
                f"MW-{i}",
                w.date(),
                f"{r.uniform(4, 30):.2f}",
                r.choice(("ND", f"{r.uniform(1, 900):.3g}")),
                r.choice(("ND", f"{r.uniform(1, 200):.3g}")),
            ]
        )
    return [firm, f"{r.randint(10, 999)} {r.choice(STREETS)}, {r.choice(CITIES)}"], [
        Block(
            "fields",
            rows=[["Site", w.site], ["Sampling event", w.date()], ["Prepared for", w.client]],
        ),
        _para(
            f"Groundwater was gauged and sampled in {len(rows) - 1} monitoring wells on {w.date()}.",
            f"Groundwater flow was toward the {r.choice(('north', 'east', 'south', 'west', 'southwest'))}.",
            "Concentrations remain stable to decreasing in the source-area wells.",
        ),
        Block("table", rows=rows, widths=[0.14, 0.22, 0.22, 0.21, 0.21]),
        _para("The next sampling event is scheduled for the following quarter."),
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


# Kinds a site file often holds behind a cover letter of their issuer (a laboratory's letter to
# its client, a consultant's letter to the agency): the document is the report, not the letter.
COVERED = (
    "laboratory-report",
    "phase-i-report",
    "phase-ii-report",
    "monitoring-report",
    "permit",
    "certificate",
    "boring-log",
)
COVER_SHARE = 0.35


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
    """One document of `kind` in family `fam`, in `split`'s title wordings."""
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
    makers = {
        "laboratory-report": lambda: laboratory_report(w),
        "phase-i-report": lambda: phase_report(w, "i", other),
        "phase-ii-report": lambda: phase_report(w, "ii", other),
        "monitoring-report": lambda: monitoring_report(w),
        "letter": lambda: letter(w, other),
        "invoice": lambda: invoice(w, other),
        "permit": lambda: permit(w),
        "certificate": lambda: certificate(w),
        "deed": lambda: deed(w),
        "lease": lambda: lease(w, other),
        "contract": lambda: contract(w, other),
        "boring-log": lambda: boring_log(w),
        "photo-page": lambda: photo_page(w),
        "chain-of-custody": lambda: custody(w),
        "transmittal": lambda: transmittal(w, other),
    }
    header, blocks = makers[kind]()
    cover = cover_letter(w, kind) if kind in COVERED and rng.random() < COVER_SHARE else []
    if cover:
        traps.append("cover-letter")
    title = rng.choice(TITLES[kind][split])
    if kind == "laboratory-report" and title.startswith("CERTIFICATE"):
        traps.append("certificate-title")
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


def scanned_pdf(pdf: bytes, pages: int, title: str, seed: int, *labels: str | int) -> bytes:
    """Every page rasterised at SCAN_DPI, put through an office scanner, kept black and white."""
    saved = rl_config.useA85
    rl_config.useA85 = 0  # binary Flate streams: ASCII85 would cost a quarter more bytes
    try:
        buffer = io.BytesIO()
        canvas = Canvas(buffer, pagesize=(PAGE_W, PAGE_H), invariant=1, pageCompression=1)
        canvas.setTitle(title)
        canvas.setCreator(PDF_CREATOR)
        for index in range(pages):
            params = sample_scan_params(
                make_random(seed, *labels, "scan", index), max_angle=MAX_SCAN_SKEW
            )
            scanned = scan_page(
                _rasterize(pdf, index, SCAN_DPI), params, seed, *labels, "scan", index
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
    document: Document, *, scanned: bool, seed: int, labels: tuple[str | int, ...]
) -> tuple[bytes, int]:
    """(PDF bytes, pages) of the document; a scanned copy draws its noise from (seed, *labels)."""
    pages = layout(document)
    pdf = emit(document, pages)
    if scanned:
        pdf = scanned_pdf(pdf, len(pages), PDF_TITLE, seed, *labels)
    return pdf, len(pages)
