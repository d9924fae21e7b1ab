"""The content of the short kinds: laboratory reports, letters, invoices, permits, certificates,
deeds, leases, contracts, boring logs, photograph pages, chain-of-custody forms and transmittals
(`Writer` draws their blocks in a family's manner).
"""

from __future__ import annotations

import datetime as dt
import random

from .kinds import (
    AGENCIES,
    ANALYTES,
    CITIES,
    COMPANIES,
    FIRMS,
    FIRST,
    KINDS,
    LABS,
    LAST,
    MENTIONS,
    SOILS,
    STREETS,
    VIEWS,
    Block,
    Family,
)


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
