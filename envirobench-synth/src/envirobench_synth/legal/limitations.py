"""A parcel's title search for use limitations: the recorded instruments, and what burdens the parcel.

`sample_search(rng, split, template_names, recorder_style, focus)` draws one subject parcel (APN
and legal description) and the instruments a title search of its county returns for it (3 to 5;
each an `Instrument` of `instruments.py`, recorded, so its recording stamp gives its reference),
with the truth: the activity and use limitations, environmental covenants and liens that burden
the parcel *now*, and why every other instrument is not one.

Kinds of instrument (KINDS): UECA environmental covenants, declarations of restrictions (deed
restrictions), notices of activity and use limitation, environmental liens (a CERCLA §107(l)
lien of the EPA, a state cleanup-cost lien), notices of contamination; lien releases, covenant
terminations and amendments; and distractors: vesting deeds (with "subject to restrictions of
record", or citing a municipal ordinance), monitoring-well and utility easements, releases of
mortgages.

Truth rules (docs/legal.md, use-limitations):
- a limitation burdens the parcel when the instrument's own parcel number (its APN) is the
  subject's; a covenant on the adjoining parcel, or a lien on another APN, does not;
- a released lien or a terminated covenant is not a current limitation (nor is the release or
  termination itself);
- an amendment changes the restrictions of the instrument it amends (adds or lifts one); the
  limitation keeps the amended instrument's reference, the amendment is not listed by itself;
- a UECA covenant without the agency's signature is not a valid environmental covenant (UECA
  §4(a) requires the agency to sign) and is not listed;
- easements, deeds (a generic "subject to restrictions of record", a municipal ordinance cited)
  and mortgage releases impose no use limitation.

The reference of a recorded instrument (`reference_of`): the recorder's instrument number when
the stamp prints one, as its digits without leading zeros; else its book and page, "book/page".

Restriction wording comes in drafting styles split between dev and test (RESTRICTION_TEXT), as
do the instruments' titles (TITLES), so a reader developed on dev meets new wording in test.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from dataclasses import dataclass, field

from .families import RecorderStyle, Template, template
from .instruments import (
    AGENCIES,
    CAPACITIES,
    COMPANIES,
    HOLDERS,
    LENDERS,
    Acknowledgment,
    Instrument,
    Recording,
    Signature,
    legal_description,
    long_date,
    person,
    recording_fee,
)

TYPES = (
    "environmental-covenant",
    "activity-use-limitation",
    "deed-restriction",
    "environmental-lien",
    "notice-of-contamination",
)
RESTRICTIONS = (
    "no-residential-use",
    "no-groundwater-extraction",
    "maintain-engineered-control",
    "no-excavation-without-plan",
    "vapor-mitigation-required",
    "no-agricultural-use",
    "no-sensitive-use",
)
# Why an instrument of the search is not a current limitation of the parcel.
REASONS = (
    "other-parcel",  # it burdens another parcel (the adjoining one, a lien on another APN)
    "released",  # a lien later released
    "terminated",  # a covenant or restriction later terminated
    "not-signed-by-agency",  # a UECA covenant without the agency's signature
    "release-or-termination",  # the release or termination itself
    "amendment",  # folded into the instrument it amends
    "easement",
    "deed",
    "mortgage-release",
)
FOREIGN_REASONS = ("other-parcel", "released", "terminated")
KINDS = TYPES + ("lien-release", "termination", "amendment", "deed", "easement", "mortgage-release")

# Drafting styles of each restriction; the test split's never occur in dev.
RESTRICTION_TEXT: dict[str, dict[str, tuple[str, ...]]] = {
    "no-residential-use": {
        "dev": ("The Property shall not be used for residential purposes of any kind.",
                "No residential use of the Property is permitted."),
        "test": ("The Property shall be used only for commercial or industrial purposes, and no dwelling, apartment "
                 "or other residence shall be built or occupied on it.",
                 "Owner shall not permit the Property to be occupied as a residence or used for housing."),
    },
    "no-groundwater-extraction": {
        "dev": ("Groundwater beneath the Property shall not be extracted or used for any purpose.",
                "No wells shall be installed on the Property for the withdrawal of groundwater, except monitoring "
                "wells approved by the Agency."),
        "test": ("The use of groundwater underlying the Property for drinking, irrigation or any other purpose is "
                 "prohibited.",
                 "No person shall drill a water supply well on the Property or pump groundwater from beneath it."),
    },
    "maintain-engineered-control": {
        "dev": ("The engineered cap over the Property shall be maintained in good repair and shall not be disturbed.",
                "Owner shall inspect and maintain the asphalt and concrete cover that serves as an engineered control."),
        "test": ("The soil cover system and its barrier layer shall be kept intact, inspected annually and repaired "
                 "as needed.",
                 "The impermeable surface barrier constructed as part of the remedy shall be preserved and maintained "
                 "by the Owner."),
    },
    "no-excavation-without-plan": {
        "dev": ("No excavation or soil disturbance shall occur on the Property except in accordance with the approved "
                "Soil Management Plan.",
                "Soils beneath the Property shall not be excavated or removed without a soil management plan approved "
                "by the Agency."),
        "test": ("Any digging, trenching or grading below the surface requires prior written approval of a "
                 "materials management plan.",
                 "Subsurface soils shall not be disturbed unless the work follows a contaminated media handling plan "
                 "approved in advance."),
    },
    "vapor-mitigation-required": {
        "dev": ("Any building constructed on the Property shall include a vapor intrusion mitigation system.",
                "Enclosed structures on the Property shall be equipped with a sub-slab depressurization system to "
                "address soil vapor."),
        "test": ("No occupied building may be erected on the Property unless it incorporates a vapor barrier and "
                 "active venting designed to prevent indoor air impacts.",
                 "New construction shall be designed to mitigate the migration of subsurface gases into indoor air."),
    },
    "no-agricultural-use": {
        "dev": ("The Property shall not be used for agricultural purposes, including the growing of crops for human "
                "consumption.",
                "Farming, gardening for food and the raising of livestock are prohibited on the Property."),
        "test": ("No crops, fruit or vegetables intended for human or animal consumption shall be cultivated on the "
                 "Property.",
                 "The Property shall not be grazed, farmed or otherwise put to agricultural use."),
    },
    "no-sensitive-use": {
        "dev": ("The Property shall not be used for a school, day-care facility, hospital or playground.",
                "Child care centers, schools and other sensitive uses are prohibited on the Property."),
        "test": ("Facilities serving children, the elderly or the infirm, such as nurseries, elementary schools and "
                 "nursing homes, may not be operated on the Property.",
                 "No preschool, playground, eldercare facility or hospital shall be located on the Property."),
    },
}

TITLES: dict[str, dict[str, tuple[str, ...]]] = {
    "environmental-covenant": {"dev": ("ENVIRONMENTAL COVENANT", "ENVIRONMENTAL COVENANT (UNIFORM ENVIRONMENTAL COVENANTS ACT)"),
                               "test": ("UNIFORM ENVIRONMENTAL COVENANT", "GRANT OF ENVIRONMENTAL COVENANT")},
    "activity-use-limitation": {"dev": ("NOTICE OF ACTIVITY AND USE LIMITATION",),
                                "test": ("ACTIVITY AND USE LIMITATION NOTICE", "NOTICE OF ACTIVITY AND USE LIMITATIONS")},
    "deed-restriction": {"dev": ("DECLARATION OF RESTRICTIONS", "DEED RESTRICTION"),
                         "test": ("DECLARATION OF RESTRICTIVE COVENANTS", "ENVIRONMENTAL DEED RESTRICTION")},
    "environmental-lien": {"dev": ("NOTICE OF FEDERAL LIEN UNDER CERCLA SECTION 107(l)", "ENVIRONMENTAL LIEN"),
                           "test": ("NOTICE OF ENVIRONMENTAL LIEN", "NOTICE OF LIEN FOR CLEANUP COSTS")},
    "notice-of-contamination": {"dev": ("NOTICE OF CONTAMINATION", "NOTICE OF ENVIRONMENTAL CONTAMINATION"),
                                "test": ("NOTICE OF RESIDUAL CONTAMINATION", "NOTICE OF HAZARDOUS SUBSTANCE RELEASE")},
    "lien-release": {"dev": ("RELEASE OF ENVIRONMENTAL LIEN", "RELEASE OF LIEN"),
                     "test": ("CERTIFICATE OF RELEASE OF LIEN", "SATISFACTION AND DISCHARGE OF LIEN")},
    "termination": {"dev": ("TERMINATION OF {title}",), "test": ("RELEASE AND TERMINATION OF {title}", "RESCISSION OF {title}")},
    "amendment": {"dev": ("AMENDMENT TO {title}", "FIRST AMENDMENT TO {title}"),
                  "test": ("MODIFICATION OF {title}", "SECOND AMENDMENT TO {title}")},
}
# The one word a termination's or amendment's title cites its instrument by (TERMINATION OF ...).
TITLE_NOUN = {"environmental-covenant": "ENVIRONMENTAL COVENANT", "activity-use-limitation": "NOTICE OF ACTIVITY AND USE LIMITATION",
              "deed-restriction": "DECLARATION OF RESTRICTIONS"}

# Sentences that name restricted things but restrict nothing: a careless reader lists them.
NON_RESTRICTING = (
    "The Agency may require the Owner to sample soil, groundwater and soil vapor at the Property from time to time.",
    "The remedy for the Site includes long-term monitoring of groundwater and periodic review by the Agency.",
    "Nothing in this instrument restricts the use of any property other than the Property.",
)
ORDINANCES = (
    "The Property lies within the area of the City's groundwater ordinance (Ordinance No. {number}), which prohibits "
    "potable water wells within the City limits; this reference imposes no restriction under this deed.",
    "Grantee is advised that municipal zoning ordinance No. {number} governs the use of the Property.",
)
EPA = "United States Environmental Protection Agency"
SITES = ("Former Redfern Bulk Plant", "Depot Street Dry Cleaner", "Cedar Point Terminal", "Mill Creek Plating Works",
         "Harbor Lane Service Station", "Old Mill Tannery")


@dataclass(frozen=True)
class Limitation:
    """One current limitation: its type, its restrictions (sorted), holder and reference."""

    type: str
    restrictions: tuple[str, ...]
    holder: str
    reference: str


@dataclass
class SearchDocument:
    instrument: Instrument
    kind: str
    reference: str
    reason: str | None  # None: a current limitation of the parcel (or the instrument it amends is)
    restrictions: tuple[str, ...] = ()  # what a limitation instrument imposes as recorded (before amendments)
    holder: str = ""  # a limitation instrument's holder or beneficiary


@dataclass
class ParcelSearch:
    apn: str
    legal_description: str
    documents: list[SearchDocument]
    limitations: list[Limitation]
    excluded: list[tuple[str, str]]  # (reference, reason) of every other instrument
    traps: list[str] = field(default_factory=list)


def reference_of(recording: Recording, recorder: RecorderStyle) -> str:
    """The normalised reference: the instrument number's digits (no leading zeros), else book/page."""
    if recorder.number_label:
        return str(int(re.sub(r"\D", "", recording.number)))
    return f"{recording.book}/{recording.page}"


def cited(recording: Recording, recorder: RecorderStyle) -> str:
    """How another instrument cites this one: by its number where the county numbers, else book and page."""
    if recorder.number_label:
        return f"{recorder.number_label} {recording.number}"
    return recorder.book_page.format(book=recording.book, page=recording.page)


def neighbour_apn(rng: random.Random, apn: str) -> str:
    """An APN a few numbers from `apn` (the adjoining parcel's), of the same form."""
    runs = list(re.finditer(r"\d+", apn))
    run = runs[-1] if runs[-1].group() != "010" else runs[-2]
    width, value = len(run.group()), int(run.group())
    delta = rng.choice((-2, -1, 1, 2, 3))
    new = value + delta if value + delta > 0 else value + 4
    return apn[: run.start()] + f"{new:0{width}d}"[-width:] + apn[run.end():]


def neighbour_description(rng: random.Random, description: str, recorder: RecorderStyle) -> str:
    match = re.match(r"Lot (\d+),", description)
    if match:
        lot = int(match.group(1))
        other = lot + 1 if lot < 24 else lot - 1
        return f"Lot {other}," + description[match.end():]
    return legal_description(rng, recorder)[0]


class Builder:
    """Draws the instruments of one search: one county (recorder), templates of one split."""

    def __init__(self, rng: random.Random, split: str, templates: tuple[str, ...], recorder: RecorderStyle):
        self.rng, self.split, self.recorder = rng, split, recorder
        self.templates = [template(name) for name in templates]
        self.agency = f"{recorder.state} {rng.choice(AGENCIES)}"
        owner = rng.choice(COMPANIES)
        self.owner = (owner, person(rng), rng.choice(CAPACITIES))
        self.used_serials: set[int] = set()
        self.conformed = rng.random() < 0.5  # a county's copies: signatures in ink or conformed

    def template(self) -> Template:
        return self.rng.choice(self.templates)

    def recording(self, when: dt.date) -> Recording:
        rng = self.rng
        serial = rng.randint(1000, 999999)
        while serial in self.used_serials:
            serial = rng.randint(1000, 999999)
        self.used_serials.add(serial)
        moment = dt.datetime.combine(when + dt.timedelta(days=rng.randint(1, 30)),
                                     dt.time(rng.randint(8, 16), rng.randint(0, 59), rng.randint(0, 59)))
        book = 400 + (when.year - 1980) * 45 + rng.randint(0, 44)
        number = self.recorder.number_format.format(year=moment.year, serial=serial) if self.recorder.number_label else ""
        return Recording(number=number, book=book, page=rng.randint(1, 999), when=moment, fee=recording_fee(rng))

    def instrument(self, kind: str, title: str, when: dt.date, body: list[str],
                   signers: list[tuple[str, str, str, str]], apn: str, description: str,
                   blank_roles: tuple[str, ...] = ()) -> Instrument:
        rng, recorder = self.rng, self.recorder
        chosen = self.template()
        mark = "conformed" if self.conformed else "ink"
        signatures = [Signature(role, party, signer, capacity, "blank" if role in blank_roles else mark)
                      for role, party, signer, capacity in signers]
        notary = person(rng)
        expires = when + dt.timedelta(days=rng.randint(200, 1400))
        acknowledgments = [
            Acknowledgment(recorder.state, recorder.county, sig.signer, sig.capacity, notary, when, expires,
                           f"{rng.randint(100000, 999999)}", sig.mark)
            for sig in signatures
        ]
        recording = self.recording(when)
        witness = chosen.witness_clause.format(party=signers[0][1], date=long_date(when))
        return_to = ["When recorded, return to:", rng.choice((signers[-1][1], self.owner[0])),
                     f"{rng.randint(100, 9999)} {rng.choice(('Oak', 'Main', 'Harbor', 'Depot', 'Mill'))} Street"]
        instrument = Instrument(
            kind=kind, title=title, scenario="recorded", template=chosen, recorder=recorder, date=when,
            return_to=return_to, body=body, witness_clause=witness, signatures=signatures,
            acknowledgments=acknowledgments, recording=recording, apn=apn,
        )
        if rng.random() < 0.2:
            # The legal description as Exhibit A after the signature pages, as many instruments have it.
            instrument.exhibit = description
            instrument.body = [("The real property described in Exhibit A attached hereto (the \"Property\")."
                                if text == description else text) for text in body]
        return instrument

    # -- bodies -------------------------------------------------------------------------------

    def parcel_lines(self, apn: str, description: str) -> list[str]:
        label = self.rng.choice(("Parcel Number:", "Assessor's Parcel No.", "Tax Parcel Number:", "APN:",
                                 "Parcel identification:"))
        return [description, f"{label} {apn}"]

    def restriction_paragraphs(self, restrictions: tuple[str, ...]) -> list[str]:
        rng = self.rng
        sentences = [rng.choice(RESTRICTION_TEXT[name][self.split]) for name in restrictions]
        style = rng.choice(("list", "joined", "sections"))
        if style == "joined":
            heading = rng.choice(("Activity and use limitations:", "Restrictions.", "The following restrictions apply:"))
            return [heading + " " + " ".join(sentences)]
        if style == "list":
            return ["The Property is subject to the following activity and use limitations:"] + [
                f"({chr(97 + index)}) {sentence}" for index, sentence in enumerate(sentences)
            ]
        return [f"Section {index + 3}. {sentence}" for index, sentence in enumerate(sentences)]

    def limitation(self, kind: str, when: dt.date, apn: str, description: str, restrictions: tuple[str, ...],
                   *, blank_agency: bool = False, mention_apn: str | None = None) -> tuple[Instrument, str]:
        """A limitation instrument of `kind` on the parcel `apn`, and its holder."""
        rng = self.rng
        title = rng.choice(TITLES[kind][self.split])
        owner, owner_signer, owner_capacity = self.owner
        extra = [rng.choice(NON_RESTRICTING)] if rng.random() < 0.6 else []
        neighbour = ([f"The Property adjoins the parcel identified as APN {mention_apn}, which this instrument does "
                      "not burden."] if mention_apn else [])
        site = rng.choice(SITES)
        if kind == "environmental-covenant":
            holder = rng.choice(HOLDERS + (self.agency,))
            opening = rng.choice((
                f"This Environmental Covenant is executed pursuant to the Uniform Environmental Covenants Act by "
                f"{owner}, as Owner, {holder}, as Holder, and the {self.agency}, as Agency.",
                f"{owner} (\"Owner\") grants this environmental covenant to {holder} (\"Holder\"), with the approval "
                f"of the {self.agency} (\"Agency\"), under the Uniform Environmental Covenants Act.",
            ))
            body = [opening, *self.parcel_lines(apn, description), *neighbour, *self.restriction_paragraphs(restrictions),
                    *extra, "This Covenant runs with the land and is perpetual unless terminated or amended as the Act "
                    "provides."]
            signers = [("OWNER", owner, owner_signer, owner_capacity)]
            if holder != self.agency:
                signers.append(("HOLDER", holder, person(rng), "Executive Director"))
            signers.append(("AGENCY", self.agency, person(rng), "Program Manager"))
            blank = ("AGENCY",) if blank_agency else ()
            return self.instrument(kind, title, when, body, signers, apn, description, blank), holder
        if kind in ("deed-restriction", "activity-use-limitation"):
            holder = self.agency if kind == "activity-use-limitation" or rng.random() < 0.6 else rng.choice(HOLDERS)
            opening = rng.choice((
                f"{owner}, the owner of the Property (\"Declarant\"), declares that the Property is held subject to the "
                f"restrictions below, which run with the land for the benefit of {holder}.",
                f"Declarant, {owner}, imposes the following restrictions on the Property in favor of {holder}, which "
                f"may enforce them.",
            ))
            if kind == "activity-use-limitation":
                opening = (f"Notice is given that an activity and use limitation has been established on the Property "
                           f"in connection with the response action at the {site}, enforceable by the {holder}. "
                           f"Owner: {owner}.")
            body = [opening, *self.parcel_lines(apn, description), *neighbour,
                    *self.restriction_paragraphs(restrictions), *extra]
            signers = [("DECLARANT" if kind == "deed-restriction" else "OWNER", owner, owner_signer, owner_capacity)]
            return self.instrument(kind, title, when, body, signers, apn, description), holder
        if kind == "environmental-lien":
            federal = rng.random() < 0.5
            holder = EPA if federal else self.agency
            amount = f"${rng.randint(40, 2400) * 1000 + rng.randint(0, 999):,}.{rng.randint(0, 99):02d}"
            if federal:
                text = (f"NOTICE is given that the United States, acting through the {EPA}, holds a lien under "
                        f"Section 107(l) of CERCLA, 42 U.S.C. \u00a7 9607(l), upon the property described below for "
                        f"response costs of {amount} incurred at the {site} Site, including groundwater extraction "
                        f"and treatment.")
            else:
                text = (f"The {holder} claims a lien upon the property described below, owned by {owner}, for "
                        f"{amount} expended to clean up hazardous substances at the {site}, under the state's "
                        f"cleanup cost recovery statute.")
            body = [text, *self.parcel_lines(apn, description), *neighbour,
                    "The lien continues until the costs are paid or the lien is released of record."]
            signers = [("LIENHOLDER", holder, person(rng), rng.choice(("Regional Counsel", "Director", "Program Manager")))]
            return self.instrument(kind, title, when, body, signers, apn, description), holder
        # notice-of-contamination
        holder = self.agency
        body = [f"Notice is given that hazardous substances remain in soil or groundwater at the Property following "
                f"the response action at the {site}, as reported to the {holder}. Owner: {owner}.",
                *self.parcel_lines(apn, description), *neighbour,
                "Copies of the site file may be reviewed at the offices of the agency."]
        return self.instrument(kind, title, when, body, [("OWNER", owner, owner_signer, owner_capacity)], apn,
                               description), holder

    def release(self, original: Instrument, original_kind: str, holder: str, when: dt.date, apn: str,
                description: str) -> Instrument:
        rng = self.rng
        assert original.recording is not None
        reference = cited(original.recording, self.recorder)
        recorded = long_date(original.recording.when.date())
        if original_kind == "environmental-lien":
            title = rng.choice(TITLES["lien-release"][self.split])
            text = rng.choice((
                f"{holder} releases the lien recorded on {recorded} as {reference}, the costs it secured having been "
                f"paid in full.",
                f"The lien noticed by the instrument recorded {recorded} under {reference} is fully released and "
                f"discharged by its holder, {holder}.",
            ))
            signers = [("LIENHOLDER", holder, person(rng), "Director")]
            kind = "lien-release"
        else:
            noun = TITLE_NOUN[original_kind]
            title = rng.choice(TITLES["termination"][self.split]).format(title=noun)
            text = rng.choice((
                f"The {noun.lower()} recorded on {recorded} as {reference} is terminated in its entirety, the "
                f"{self.agency} having determined that the remedy is complete and the limitations are no longer needed.",
                f"With the agreement of the {self.agency}, the instrument recorded {recorded} under {reference} is "
                f"released and shall be of no further force or effect.",
            ))
            signers = [("OWNER", self.owner[0], self.owner[1], self.owner[2])]
            if holder != self.agency:
                signers.append(("HOLDER", holder, person(rng), "Executive Director"))
            signers.append(("AGENCY", self.agency, person(rng), "Program Manager"))
            kind = "termination"
        body = [text, *self.parcel_lines(apn, description)]
        return self.instrument(kind, title, when, body, signers, apn, description)

    def amendment(self, original: Instrument, original_kind: str, holder: str, when: dt.date, apn: str,
                  description: str, added: tuple[str, ...], lifted: tuple[str, ...]) -> Instrument:
        rng = self.rng
        assert original.recording is not None
        noun = TITLE_NOUN[original_kind]
        title = rng.choice(TITLES["amendment"][self.split]).format(title=noun)
        body = [f"This instrument amends the {noun.lower()} recorded on {long_date(original.recording.when.date())} "
                f"as {cited(original.recording, self.recorder)} (the \"Original Instrument\"), as to the Property "
                "described below.", *self.parcel_lines(apn, description)]
        for name in added:
            lead = rng.choice(("The following restriction is added to the Original Instrument:",
                               "A new limitation is inserted in the Original Instrument, as follows:"))
            body.append(f"{lead} {rng.choice(RESTRICTION_TEXT[name][self.split])}")
        for name in lifted:
            lead = rng.choice(("The following restriction of the Original Instrument is deleted and of no further "
                               "force or effect:",
                               "The Agency having approved its removal, this limitation no longer applies and is "
                               "struck from the Original Instrument:"))
            body.append(f"{lead} {rng.choice(RESTRICTION_TEXT[name][self.split])}")
        body.append("Except as amended here, the Original Instrument remains in full force and effect.")
        signers = [("OWNER", self.owner[0], self.owner[1], self.owner[2])]
        if original_kind == "environmental-covenant" and holder != self.agency:
            signers.append(("HOLDER", holder, person(rng), "Executive Director"))
        if original_kind == "environmental-covenant":
            signers.append(("AGENCY", self.agency, person(rng), "Program Manager"))
        return self.instrument("amendment", title, when, body, signers, apn, description)

    def deed(self, when: dt.date, apn: str, description: str, ordinance: bool) -> Instrument:
        rng = self.rng
        grantor = rng.choice([c for c in COMPANIES if c != self.owner[0]])
        title = rng.choice(("WARRANTY DEED", "SPECIAL WARRANTY DEED", "QUITCLAIM DEED"))
        body = [f"{grantor}, Grantor, for good and valuable consideration, conveys to {self.owner[0]}, Grantee, the "
                "following described real property:", *self.parcel_lines(apn, description),
                "SUBJECT TO easements, covenants, conditions and restrictions of record, and general taxes for the "
                "current year."]
        if ordinance:
            body.append(rng.choice(ORDINANCES).format(number=f"{rng.randint(1990, 2020)}-{rng.randint(1, 60)}"))
        signers = [("GRANTOR", grantor, person(rng), rng.choice(CAPACITIES))]
        return self.instrument("deed", title, when, body, signers, apn, description)

    def easement(self, when: dt.date, apn: str, description: str) -> Instrument:
        rng = self.rng
        monitoring = rng.random() < 0.5
        grantee = self.agency if monitoring else rng.choice(("Marlow Electric Cooperative", "Northgate Gas Company",
                                                            "City Water and Sewer Utility"))
        purpose = ("access to install, sample and maintain groundwater monitoring wells" if monitoring else
                   "the installation, operation and maintenance of underground utility lines")
        title = rng.choice(("GRANT OF EASEMENT", "ACCESS EASEMENT", "UTILITY EASEMENT"))
        body = [f"{self.owner[0]} grants to {grantee} a non-exclusive easement over and across the property described "
                f"below for {purpose}.", *self.parcel_lines(apn, description),
                "The easement runs with the land. Grantor reserves every use of the property not inconsistent with it."]
        signers = [("GRANTOR", *self.owner), ("GRANTEE", grantee, person(rng), rng.choice(CAPACITIES))]
        return self.instrument("easement", title, when, body, signers, apn, description)

    def mortgage_release(self, when: dt.date, apn: str, description: str) -> Instrument:
        rng = self.rng
        lender = rng.choice(LENDERS)
        body = [f"{lender}, the holder of the mortgage recorded in Book {rng.randint(100, 999)}, Page "
                f"{rng.randint(1, 800)}, releases the property described below from the lien of that mortgage.",
                *self.parcel_lines(apn, description)]
        signers = [("RELEASOR", lender, person(rng), rng.choice(CAPACITIES))]
        return self.instrument("mortgage-release", "RELEASE OF MORTGAGE", when, body, signers, apn, description)


LIMITATION_KINDS = ("environmental-covenant", "activity-use-limitation", "deed-restriction", "environmental-lien",
                    "notice-of-contamination")
LIMITATION_WEIGHTS = (4, 2, 2, 2, 1)
# The trap a search is built around (the case's category); "plain" has none beyond the distractors.
FOCUSES = ("plain", "adjoining-parcel", "released-lien", "terminated-covenant", "amendment-adds",
           "amendment-lifts", "missing-agency-signature", "lien-other-apn", "nothing-recorded")


def restriction_set(rng: random.Random, kind: str) -> tuple[str, ...]:
    if kind in ("environmental-lien", "notice-of-contamination"):
        return ()
    count = rng.randint(2, 4) if kind == "environmental-covenant" else rng.randint(1, 3)
    return tuple(sorted(rng.sample(RESTRICTIONS, count)))


def sample_search(rng: random.Random, split: str, templates: tuple[str, ...], recorder: RecorderStyle,
                  focus: str, documents: int) -> ParcelSearch:
    """One parcel's search of `documents` instruments (3 to 5) built around the trap `focus`."""
    if focus not in FOCUSES:
        raise ValueError(f"unknown focus {focus!r}")
    if not 3 <= documents <= 5:
        raise ValueError(f"a search holds 3 to 5 instruments, not {documents}")
    build = Builder(rng, split, templates, recorder)
    description, apn = legal_description(rng, recorder)
    other_apn = neighbour_apn(rng, apn)
    other_description = neighbour_description(rng, description, recorder)
    start = dt.date(rng.randint(1990, 2008), rng.randint(1, 12), rng.randint(1, 28))

    def later(day: dt.date, low: int = 120, high: int = 2200) -> dt.date:
        return day + dt.timedelta(days=rng.randint(low, high))

    docs: list[SearchDocument] = []
    limitations: list[Limitation] = []
    traps: list[str] = []

    def reference(instrument: Instrument) -> str:
        assert instrument.recording is not None
        return reference_of(instrument.recording, recorder)

    def add(instrument: Instrument, kind: str, reason: str | None, restrictions: tuple[str, ...] = (),
            holder: str = "") -> SearchDocument:
        doc = SearchDocument(instrument, kind, reference(instrument), reason, restrictions, holder)
        docs.append(doc)
        return doc

    def kind_choice(kinds=LIMITATION_KINDS, weights=LIMITATION_WEIGHTS) -> str:
        return rng.choices(kinds, weights)[0]

    def current(kind: str | None = None) -> None:
        kind = kind or kind_choice()
        restrictions = restriction_set(rng, kind)
        when = later(start, 30, 5000)
        instrument, holder = build.limitation(kind, when, apn, description, restrictions)
        add(instrument, kind, None, restrictions, holder)
        limitations.append(Limitation(kind, restrictions, holder, reference(instrument)))

    if focus == "adjoining-parcel":
        kind = kind_choice(LIMITATION_KINDS[:3], LIMITATION_WEIGHTS[:3])
        when = later(start, 30, 5000)  # the draws in this order: dates, restrictions, mention
        restrictions = restriction_set(rng, kind)
        instrument, holder = build.limitation(kind, when, other_apn, other_description,
                                              restrictions, mention_apn=apn if rng.random() < 0.5 else None)
        add(instrument, kind, "other-parcel", restrictions, holder)
        traps.append("adjoining-parcel")
    elif focus == "lien-other-apn":
        instrument, holder = build.limitation("environmental-lien", later(start, 30, 5000), other_apn,
                                              other_description, ())
        add(instrument, "environmental-lien", "other-parcel", (), holder)
        traps.append("lien-other-apn")
    elif focus in ("released-lien", "terminated-covenant"):
        kind = "environmental-lien" if focus == "released-lien" else kind_choice(LIMITATION_KINDS[:3], LIMITATION_WEIGHTS[:3])
        when = later(start, 30, 3000)
        restrictions = restriction_set(rng, kind)
        original, holder = build.limitation(kind, when, apn, description, restrictions)
        add(original, kind, "released" if kind == "environmental-lien" else "terminated", restrictions, holder)
        add(build.release(original, kind, holder, later(when, 200, 3000), apn, description),
            "lien-release" if kind == "environmental-lien" else "termination", "release-or-termination")
        traps.append(focus)
    elif focus in ("amendment-adds", "amendment-lifts"):
        kind = kind_choice(LIMITATION_KINDS[:3], LIMITATION_WEIGHTS[:3])
        restrictions = restriction_set(rng, kind)
        if focus == "amendment-lifts" and len(restrictions) < 2:
            restrictions = tuple(sorted(set(restrictions) | {rng.choice([r for r in RESTRICTIONS if r not in restrictions])}))
        when = later(start, 30, 3000)
        original, holder = build.limitation(kind, when, apn, description, restrictions)
        if focus == "amendment-adds":
            added, lifted = (rng.choice([r for r in RESTRICTIONS if r not in restrictions]),), ()
        else:
            added, lifted = (), (rng.choice(restrictions),)
        add(original, kind, None, restrictions, holder)
        add(build.amendment(original, kind, holder, later(when, 200, 3000), apn, description, added, lifted),
            "amendment", "amendment")
        amended = tuple(sorted((set(restrictions) | set(added)) - set(lifted)))
        limitations.append(Limitation(kind, amended, holder, reference(original)))
        traps.append(focus)
    elif focus == "missing-agency-signature":
        when = later(start, 30, 5000)
        restrictions = restriction_set(rng, "environmental-covenant")
        instrument, holder = build.limitation("environmental-covenant", when, apn, description,
                                              restrictions, blank_agency=True)
        add(instrument, "environmental-covenant", "not-signed-by-agency", restrictions, holder)
        traps.append(focus)

    # A current limitation in most searches (a second in some), never in "nothing-recorded".
    if focus != "nothing-recorded":
        if focus in ("plain", "adjoining-parcel", "lien-other-apn", "missing-agency-signature") or rng.random() < 0.5:
            current()
        if len(docs) < documents - 1 and rng.random() < 0.3:
            current()
    # Distractors fill the search: the vesting deed first, then easements and mortgage releases.
    fillers = ["deed", "easement", "mortgage-release", "deed-ordinance"]
    rng.shuffle(fillers)
    fillers.insert(0, "deed" if rng.random() < 0.6 else "deed-ordinance")
    while len(docs) < documents:
        filler = fillers.pop(0)
        when = later(start, 0, 6000)
        if filler.startswith("deed"):
            add(build.deed(start if not any(d.kind == "deed" for d in docs) else when, apn, description,
                           filler == "deed-ordinance"), "deed", "deed")
            if filler == "deed-ordinance" and "ordinance-cited" not in traps:
                traps.append("ordinance-cited")
        elif filler == "easement":
            add(build.easement(when, apn, description), "easement", "easement")
        else:
            add(build.mortgage_release(when, apn, description), "mortgage-release", "mortgage-release")
    docs.sort(key=lambda d: d.instrument.recording.when)  # type: ignore[union-attr]
    excluded = [(d.reference, d.reason) for d in docs if d.reason is not None]
    limitations.sort(key=lambda item: item.reference)
    return ParcelSearch(apn, description, docs, limitations, excluded, traps)
