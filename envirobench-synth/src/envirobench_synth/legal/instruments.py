"""Recorded instruments as data: kinds, execution scenarios and their truth, seeded sampling.

`sample_instrument(rng, scenario, template, recorder, kind=None)` draws one instrument: its
parties, parcel (lot/block/plat or metes and bounds, with an APN), body, signature blocks,
notary acknowledgments and, when recorded, the recorder's data. The *scenario* fixes what the
copy shows about execution, and so the truth (`STATUS_OF`):

    executed-recorded     every signature in ink (or conformed, "/s/") and every acknowledgment
                          completed, and the copy carries recording data (number or book/page,
                          date and time)
    executed-unrecorded   every signature in ink, every acknowledgment completed, no recording data
    not-executed          a draft marker, bracketed or underscored blanks, an unsigned signature
                          block (an "Execution Version" typed in full, notary text included, with
                          no one's signature), a blank notary block, or a covenant missing one of
                          its required signatures (fee owner, holder, agency)
    cannot-tell           the copy cannot show it: a conformed copy ("/s/") without recording
                          data, or a copy whose signature pages are not there

Traps every scenario shares: a "when recorded return to" block and the recorder's blank space
on unrecorded drafts, and earlier instruments cited by book and page (a plat, a prior deed) in
the body, which are not this instrument's recording data.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field

from .families import RecorderStyle, Template

STATUSES = ("executed-recorded", "executed-unrecorded", "not-executed", "cannot-tell")

# scenario -> status; the order is the order of dataset categories.
STATUS_OF = {
    "recorded": "executed-recorded",
    "recorded-conformed": "executed-recorded",
    "unrecorded": "executed-unrecorded",
    "draft-marker": "not-executed",
    "execution-version-unsigned": "not-executed",
    "bracketed-blanks": "not-executed",
    "blank-notary": "not-executed",
    "covenant-missing-signature": "not-executed",
    "conformed-unrecorded": "cannot-tell",
    "missing-signature-pages": "cannot-tell",
}
SCENARIOS = tuple(STATUS_OF)

KINDS = (
    "warranty-deed",
    "special-warranty-deed",
    "quitclaim-deed",
    "release",
    "easement",
    "environmental-covenant",
)
TITLES = {
    "warranty-deed": ("WARRANTY DEED", "GENERAL WARRANTY DEED", "STATUTORY WARRANTY DEED"),
    "special-warranty-deed": ("SPECIAL WARRANTY DEED", "LIMITED WARRANTY DEED"),
    "quitclaim-deed": ("QUITCLAIM DEED", "QUIT CLAIM DEED"),
    "release": ("RELEASE OF LIEN", "RELEASE OF ENVIRONMENTAL LIEN", "PARTIAL RELEASE"),
    "easement": ("EASEMENT AGREEMENT", "GRANT OF EASEMENT", "ACCESS AND MONITORING EASEMENT"),
    "environmental-covenant": ("ENVIRONMENTAL COVENANT", "ENVIRONMENTAL COVENANT (UNIFORM ENVIRONMENTAL COVENANTS ACT)"),
}
EXHIBIT_SHARE = 0.4
EXHIBIT_REFERENCE = "The real property described in Exhibit A attached hereto and made a part hereof."
DRAFT_MARKERS = ("DRAFT", "FOR DISCUSSION ONLY", "DISCUSSION DRAFT", "PRELIMINARY DRAFT - NOT FOR EXECUTION")

FIRST = ("Alicia", "Bernard", "Carmen", "Darius", "Elena", "Felix", "Greta", "Hector", "Imogen", "Jonah",
         "Keiko", "Lionel", "Marisol", "Nathan", "Odette", "Priya", "Quentin", "Rosalind", "Silas", "Tamsin")
LAST = ("Abernathy", "Bellamy", "Corcoran", "Delacroix", "Ellery", "Fenwick", "Garrity", "Halvorsen", "Iverson",
        "Juarez", "Kowalczyk", "Larkspur", "Marchetti", "Norquist", "Oyelaran", "Pemberton", "Quist", "Rasmussen")
COMPANIES = ("Redfern Petroleum Company", "Blue Heron Holdings, LLC", "Kestrel Land Partners LP",
             "Northgate Fuel Distributors, Inc.", "Willowbank Properties LLC", "Granite Ridge Development Corp.",
             "Old Mill Realty Trust", "Cedar Point Terminals, Inc.", "Harbor Lane Investors LLC",
             "Sutter Row Cleaners, Inc.", "Mesa Verde Storage LLC", "Ironwood Rail Services Company")
HOLDERS = ("Lakeshore Land Conservancy", "Riverbend Environmental Trust", "Tri-County Water Authority")
AGENCIES = ("Department of Environmental Quality", "Department of Ecology", "Department of Environmental Protection",
            "Division of Waste Management")
LENDERS = ("First Prairie Bank, N.A.", "Summit Federal Savings", "Coastal Commerce Bank")
CAPACITIES = ("Manager", "President", "Vice President", "Authorized Signatory", "Trustee", "Managing Member")
PLATS = ("WILLOW CREEK ADDITION", "RIVERSIDE INDUSTRIAL PARK", "NORTHGATE COMMERCIAL PLAT", "OAK HOLLOW SUBDIVISION",
         "RAILWAY ADDITION TO THE CITY OF MARLOW", "HARBOR VIEW TRACTS")
DIRECTIONS = ("North", "South")
EASTWEST = ("East", "West")


@dataclass
class Signature:
    """One signature block: who signs for whom, and what the copy shows on its line."""

    role: str  # "GRANTOR", "HOLDER", ...
    party: str  # the party (a person or an entity)
    signer: str  # the natural person who signs
    capacity: str  # "Grantor" for a person signing for themself, else an officer's title
    mark: str  # "ink", "conformed" or "blank"


@dataclass
class Acknowledgment:
    state: str
    county: str
    signer: str
    capacity: str
    notary: str
    date: dt.date
    expires: dt.date
    commission: str
    mark: str  # "ink", "conformed", "blank", or "prefilled" (typed in full, the notary's line unsigned)


@dataclass
class Recording:
    number: str  # "" when the style prints book and page only
    book: int
    page: int
    when: dt.datetime
    fee: str
    pages: int = 0  # filled in once the instrument is laid out


@dataclass
class Instrument:
    kind: str
    title: str
    scenario: str
    template: Template
    recorder: RecorderStyle
    date: dt.date
    return_to: list[str]
    body: list[str]
    witness_clause: str
    signatures: list[Signature]
    acknowledgments: list[Acknowledgment]
    recording: Recording | None
    draft_marker: str | None = None
    marker_every_page: bool = False
    execution_version: bool = False
    signature_pages_missing: bool = False
    apn: str = ""
    exhibit: str | None = None  # the legal description, when it is an exhibit after the signatures
    notes: list[str] = field(default_factory=list)

    @property
    def status(self) -> str:
        return STATUS_OF[self.scenario]


def recording_fee(rng: random.Random) -> str:
    """A recorder's fee, as its stamp prints it."""
    return f"{rng.randint(2, 12) * 10 + rng.choice((0, 1, 6))}.00"


def sample_recording(rng: random.Random, recorder: RecorderStyle, date: dt.date, max_days: int = 40) -> Recording:
    """The recorder's data of an instrument signed on `date`, recorded within `max_days`: a clock
    time, the instrument number where the style prints one, book and page, the fee."""
    when = dt.datetime.combine(date + dt.timedelta(days=rng.randint(1, max_days)),
                               dt.time(rng.randint(8, 16), rng.randint(0, 59), rng.randint(0, 59)))
    return Recording(
        number=recorder.number_format.format(year=when.year, serial=rng.randint(1000, 9999999)) if recorder.number_label else "",
        book=rng.randint(1000, 9999), page=rng.randint(1, 999), when=when, fee=recording_fee(rng),
    )


def person(rng: random.Random) -> str:
    return f"{rng.choice(FIRST)} {rng.choice('ABCDEFGHJKLMNPRSTW')}. {rng.choice(LAST)}"


def long_date(day: dt.date) -> str:
    return f"{day.strftime('%B')} {day.day}, {day.year}"


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def legal_description(rng: random.Random, recorder: RecorderStyle) -> tuple[str, str]:
    """(the legal description, the APN): lot/block/plat or metes and bounds, and a tax parcel."""
    apn = rng.choice(("{a:03d}-{b:03d}-{c:02d}", "R{a:03d}{b:03d}", "{a:02d}-{b:02d}-{c:03d}-010"))
    apn = apn.format(a=rng.randint(1, 999), b=rng.randint(1, 999), c=rng.randint(1, 99))
    county, state = recorder.county, recorder.state
    if rng.random() < 0.5:
        text = (
            f"Lot {rng.randint(1, 24)}, Block {rng.randint(1, 12)}, {rng.choice(PLATS)}, according to the plat "
            f"thereof recorded in Book {rng.randint(3, 40)} of Plats, Page {rng.randint(1, 90)}, records of "
            f"{county} County, {state}."
        )
    else:
        calls = []
        for _ in range(rng.randint(3, 4)):
            calls.append(
                f"thence {rng.choice(DIRECTIONS)} {rng.randint(0, 89):02d}\u00b0{rng.randint(0, 59):02d}'"
                f"{rng.randint(0, 59):02d}\" {rng.choice(EASTWEST)} {rng.randint(40, 900)}.{rng.randint(0, 99):02d} feet"
            )
        text = (
            f"That portion of the {rng.choice(('Northeast', 'Southwest', 'Northwest', 'Southeast'))} quarter of Section "
            f"{rng.randint(1, 36)}, Township {rng.randint(1, 9)} {rng.choice(DIRECTIONS)}, Range {rng.randint(1, 9)} "
            f"{rng.choice(EASTWEST)}, {county} County, {state}, described as follows: Beginning at an iron pin at the "
            f"corner described in the deed recorded in Book {rng.randint(100, 900)}, Page {rng.randint(1, 700)}; "
            + "; ".join(calls)
            + "; thence to the point of beginning."
        )
    return text, apn


def parties_for(rng: random.Random, kind: str) -> list[tuple[str, str, str, str]]:
    """(role, party, signer, capacity) of each party that signs, in signing order."""
    owner = rng.choice(COMPANIES)
    if rng.random() < 0.35:
        individual = person(rng)
        owner_entry = ("GRANTOR", individual, individual, "Grantor")
    else:
        owner_entry = ("GRANTOR", owner, person(rng), rng.choice(CAPACITIES))
    if kind == "release":
        return [("RELEASOR", rng.choice(LENDERS), person(rng), rng.choice(CAPACITIES))]
    if kind == "easement":
        first = ("GRANTOR", *owner_entry[1:])
        second = ("GRANTEE", rng.choice([c for c in COMPANIES if c != owner_entry[1]]), person(rng), rng.choice(CAPACITIES))
        return [first, second]
    if kind == "environmental-covenant":
        return [
            ("OWNER", owner, person(rng), rng.choice(CAPACITIES)),
            ("HOLDER", rng.choice(HOLDERS), person(rng), "Executive Director"),
            ("AGENCY", f"State {rng.choice(AGENCIES)}", person(rng), "Program Manager"),
        ]
    return [owner_entry]


def body_for(rng: random.Random, kind: str, parties: list[tuple[str, str, str, str]], grantee: str,
             description: str, apn: str, bracketed: bool) -> list[str]:
    first = parties[0][1]
    consideration = rng.choice(("TEN AND NO/100 DOLLARS ($10.00)", "good and valuable consideration",
                                f"${rng.randint(120, 2400) * 1000:,}"))
    if bracketed:
        grantee = "[NAME OF GRANTEE]"
        consideration = "[\u25cf] DOLLARS ($[\u25cf])"
    if kind in ("warranty-deed", "special-warranty-deed", "quitclaim-deed"):
        verb = {"warranty-deed": "conveys and warrants", "special-warranty-deed": "conveys and specially warrants",
                "quitclaim-deed": "releases and quitclaims"}[kind]
        out = [
            f"{first}, Grantor, for and in consideration of {consideration}, {verb} to {grantee}, Grantee, the "
            f"following described real property situated in the County named below:",
            description,
            f"Tax Parcel Number: {apn}",
        ]
        if kind == "special-warranty-deed":
            out.append("Grantor warrants title only against the lawful claims of persons claiming by, through or under Grantor.")
        out.append("SUBJECT TO easements, restrictions and reservations of record, and general taxes for the current year.")
        return out
    if kind == "release":
        return [
            f"KNOW ALL PERSONS BY THESE PRESENTS that {first}, the holder of the lien described below, for "
            f"{consideration}, releases and discharges the real property described below from the lien of the "
            f"instrument recorded in Book {rng.randint(100, 999)}, Page {rng.randint(1, 800)}, in favor of "
            f"{'[LIENHOLDER]' if bracketed else first}.",
            description,
            f"Parcel identification: {apn}",
            "This release does not affect any other property or any obligation not secured by the lien released.",
        ]
    if kind == "easement":
        return [
            f"{first} grants to {grantee} a non-exclusive easement over, under and across the property described "
            f"below for access, installation and maintenance of groundwater monitoring wells, for {consideration}.",
            description,
            f"Assessor's Parcel No. {apn}",
            "The easement runs with the land and binds the successors and assigns of the parties.",
        ]
    return [
        f"This Environmental Covenant is executed pursuant to the Uniform Environmental Covenants Act by "
        f"{first}, as Owner, {parties[1][1]}, as Holder, and the {parties[2][1]}, as Agency.",
        description,
        f"Parcel Number: {apn}",
        "Activity and use limitations: the Property shall not be used for residential purposes; groundwater beneath "
        "the Property shall not be extracted for any use; the engineered cap shall be maintained.",
        "This Covenant runs with the land and is perpetual unless terminated or amended as the Act provides.",
    ]


def sample_instrument(
    rng: random.Random, scenario: str, template: Template, recorder: RecorderStyle, kind: str | None = None
) -> Instrument:
    """One instrument of `kind` (drawn when None) showing `scenario`, in the given family."""
    if scenario not in STATUS_OF:
        raise ValueError(f"unknown scenario {scenario!r}")
    if scenario == "covenant-missing-signature":
        kind = "environmental-covenant"
    kind = kind or rng.choice(KINDS)
    title = rng.choice(TITLES[kind])
    date = dt.date(rng.randint(1988, 2023), rng.randint(1, 12), rng.randint(1, 28))
    parties = parties_for(rng, kind)
    grantee = person(rng) if rng.random() < 0.3 else rng.choice([c for c in COMPANIES if c != parties[0][1]])
    description, apn = legal_description(rng, recorder)
    bracketed = scenario == "bracketed-blanks"
    body = body_for(rng, kind, parties, grantee, description, apn, bracketed)

    recorded = scenario in ("recorded", "recorded-conformed")
    conformed = scenario in ("recorded-conformed", "conformed-unrecorded")
    unsigned = scenario in ("draft-marker", "execution-version-unsigned", "bracketed-blanks")
    sign_mark = "conformed" if conformed else "blank" if unsigned else "ink"
    signatures = [Signature(role, party, signer, capacity, sign_mark) for role, party, signer, capacity in parties]
    missing = rng.randrange(len(signatures)) if scenario == "covenant-missing-signature" else None
    if missing is not None:
        signatures[missing].mark = "blank"

    acknowledgments = []
    expires = date + dt.timedelta(days=rng.randint(200, 1400))
    notary = person(rng)
    for index, sig in enumerate(signatures):
        mark = sig.mark
        if scenario == "blank-notary" and index == len(signatures) - 1:
            mark = "blank"
        if scenario == "execution-version-unsigned":
            # The form meant for signing: every blank filled in, only the signatures missing.
            mark = "prefilled"
        acknowledgments.append(
            Acknowledgment(recorder.state, recorder.county, sig.signer, sig.capacity, notary, date, expires,
                           f"{rng.randint(100000, 999999)}", mark)
        )

    recording = None
    if recorded:
        recording = sample_recording(rng, recorder, date)
    if scenario in ("draft-marker", "bracketed-blanks"):
        witness = template.blank_witness_clause.format(party=parties[0][1])
    else:
        witness = template.witness_clause.format(party=parties[0][1], date=long_date(date))
    return_to = ["When recorded, return to:", grantee if not bracketed else "[NAME]",
                 f"{rng.randint(100, 9999)} {rng.choice(('Oak', 'Main', 'Harbor', 'Depot', 'Mill'))} Street"]
    instrument = Instrument(
        kind=kind, title=title, scenario=scenario, template=template, recorder=recorder, date=date,
        return_to=return_to, body=body, witness_clause=witness, signatures=signatures,
        acknowledgments=acknowledgments, recording=recording, apn=apn,
    )
    if scenario == "draft-marker":
        instrument.draft_marker = rng.choice(DRAFT_MARKERS)
        instrument.marker_every_page = rng.random() < 0.6
    if scenario == "execution-version-unsigned" or (scenario in ("recorded", "unrecorded") and rng.random() < 0.25):
        # "Execution Version" names the form meant for signing; it proves nothing either way.
        instrument.execution_version = True
    if scenario == "missing-signature-pages":
        instrument.signature_pages_missing = True
    if rng.random() < EXHIBIT_SHARE:
        # Many instruments attach the legal description as Exhibit A, after the signature pages.
        instrument.exhibit = description
        instrument.body = [EXHIBIT_REFERENCE if text == description else text for text in body]
    return instrument
