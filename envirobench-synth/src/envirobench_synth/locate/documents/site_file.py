"""The content of the paper a site file holds besides its reports: agency letters, recorded
instruments, lease amendments, registrations, tightness tests, laboratory invoices, fax covers,
tables of contents, excerpts and cover letters.
"""

from __future__ import annotations

import datetime as dt

from .kinds import AGENCIES, CITIES, COMPANIES, LABS, MENTIONS, STREETS, Block
from .short_kinds import Writer, _para


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
