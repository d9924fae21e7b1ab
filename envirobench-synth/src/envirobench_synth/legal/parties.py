"""Instruments whose parties carry environmental roles: leases, mortgages, contracts, deeds, covenants.

`sample_party_instrument(rng, kind, template, recorder, wording)` draws one instrument of `kind`
(PARTY_KINDS) and returns it with its truth: every party with all its roles from the closed set
ROLES, and the entities the instrument names that hold none of them. Render it with
`render.render_instrument` (it is an ordinary `Instrument`, scenario "recorded" or "unrecorded").

The roles a party gets, and why (the rules a reader applies, written down once):

    grantor, grantee         the parties of a conveyance or grant: a deed, or an access agreement's
                             grant of entry (security instruments use borrower and lender instead)
    seller, buyer            a purchase and sale agreement's parties
    lessor, lessee           a lease's or a memorandum of lease's parties (landlord, tenant)
    lender, borrower         a mortgage's or deed of trust's parties (mortgagee or beneficiary,
                             mortgagor or trustor); also the lender and borrower an indemnity or a
                             covenant names as parties (a lender subordinating its mortgage)
    indemnitee, indemnitor   the parties an environmental indemnity protects and binds
    guarantor                a party guaranteeing another's obligations (a lease, an indemnity)
    owner                    a party the instrument calls or states to be the owner of the property
                             (the "Owner" of a covenant, a landlord or borrower that "is the owner",
                             a railroad that "retains fee title"); never a lender, whatever indicia
                             of ownership it holds (CERCLA's secured-creditor exemption), never a
                             deed of trust's trustee, never a deed's grantee merely for taking title
    operator                 a party the instrument says operates the facility (the jobber on
                             railroad land, a tenant running its business there)
    holder, agency           a UECA covenant's holder and agency

Traps (the `traps` of each instrument, for breakdowns): a lender whose instrument speaks of its
security interest and indicia of ownership, a deed of trust's trustee, a consultant named in the
instrument (with or without a defined term of its own), an escrow agent, a railroad lessor that
stays fee owner, a lessee that operates, a tenant that does not, a party "successor by merger to"
a predecessor (the predecessor is named, not a party), a party "formerly known as" another name
(an alias of the same party), trustees who sign for a trust (the trust is the party), an owner that
is also the covenant's holder, and party names in capitals.

Wording: each `Wording` is a drafting style (how a party and its defined term are introduced, the
role words chosen, how ownership, operation, mergers and name changes are said). DEV_WORDINGS and
TEST_WORDINGS share none, as the template and recorder families of `families.SPLITS` share none.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from dataclasses import dataclass, field

from ..named import by_name
from .families import RecorderStyle, Template
from .instruments import (
    LAST,
    Acknowledgment,
    Instrument,
    Signature,
    legal_description,
    long_date,
    person,
    sample_recording,
)

ROLES = (
    "grantor", "grantee", "seller", "buyer", "lessor", "lessee", "lender", "borrower", "indemnitee", "indemnitor",
    "guarantor", "owner", "operator", "holder", "agency",
)
PARTY_KINDS = (
    "railroad-lease",
    "commercial-lease",
    "mortgage",
    "purchase-agreement",
    "environmental-indemnity",
    "access-agreement",
    "deed",
    "environmental-covenant",
)
OTHER_REASONS = ("consultant", "merged-predecessor", "signing-trustee", "deed-of-trust-trustee", "escrow-agent")
TRAPS = (
    "lender-indicia", "deed-of-trust-trustee", "consultant", "escrow-agent", "railroad-fee-owner", "lessee-operates",
    "tenant-not-operator", "successor-by-merger", "former-name", "trust-party", "owner-holder", "capital-names",
    "guarantor", "subordinating-lender", "lessor-not-stated-owner", "seller-operates", "borrower-not-owner",
)

PLACES = ("Blue Heron", "Kestrel", "Granite Ridge", "Willowbank", "Cedar Point", "Harbor Lane", "Sutter Row",
          "Mesa Verde", "Ironwood", "Redfern", "Northgate", "Old Mill", "Copper Creek", "Prairie Wind", "Fox Hollow",
          "Lantern Hill", "Sable River", "Juniper Flats", "Bramble Gate", "Stonecrest", "Tamarack", "Silver Lake",
          "Heron Bay", "Quarry Point", "Elm Fork", "Aspen Draw")
COMPANY_KINDS = ("Holdings", "Properties", "Land Partners", "Development", "Realty", "Investors", "Industrial Park",
                 "Ventures", "Land Company", "Commercial Properties")
SUFFIXES = (", LLC", " LLC", ", L.L.C.", ", Inc.", " Inc.", " Corp.", " Corporation", ", LP", ", L.P.", " Incorporated")
JOBBER_KINDS = ("Petroleum Company", "Oil Company", "Fuel Distributors, Inc.", "Energy, LLC", "Oil & Gas Jobbers, Inc.",
                "Propane Service Co.", "Bulk Fuels Corp.")
TENANT_KINDS = ("Cleaners, Inc.", "Auto Service, LLC", "Quick Lube, Inc.", "Plating Works Corp.", "Coatings, LLC",
                "Logistics, Inc.", "Dental Group, P.C.", "Insurance Agency, LLC")
OPERATING_TENANTS = 6  # the first TENANT_KINDS run a business that an environmental reader cares about
RAIL_REGIONS = ("Great Plains", "Mid-Continent", "Cascade Valley", "Ozark Southern", "Tidewater", "Lake Erie Western",
                "Saginaw Bay", "Red River", "Palouse", "High Desert")
RAIL_KINDS = ("Railway Company", "Railroad Company", "Rail Road Company", "Railway Co.", "Southern Railway Company")
BANK_KINDS = ("Bank, N.A.", "National Bank", "Savings Bank", "Federal Credit Union", "Bank & Trust Company",
              "Capital Funding, LLC", "Commercial Mortgage Corp.")
CONSULTANT_KINDS = ("Environmental, Inc.", "Geosciences LLC", "Engineering & Consulting, Inc.", "EnviroServices Corp.",
                    "Environmental Consultants, LLC", "Hydrogeology Group, P.C.")
TITLE_KINDS = ("Title Company", "Title Insurance Company", "Escrow Services, Inc.", "Title & Escrow, LLC")
HOLDER_KINDS = ("Land Conservancy", "Watershed Council", "Groundwater Authority", "Open Space District")
AGENCY_NAMES = ("Department of Environmental Quality", "Department of Ecology", "Department of Environmental Protection",
                "Division of Waste Management", "Department of Natural Resources")
TRUST_FORMS = ("The {last} Family Trust", "{last} Revocable Living Trust", "The {last} Trust")
STATE_OF_INCORPORATION = ("Delaware", "Nevada", "Texas", "Illinois", "Ohio", "Oregon", "Kansas", "Colorado")


@dataclass(frozen=True)
class Wording:
    """One drafting style. Forms take {name}, {desc}, {term}, {old}, {date} as their text shows."""

    name: str
    terms: tuple[tuple[str, str], ...]  # role key -> defined term (the word the instrument uses)
    define: str  # a party introduced with its defined term
    collective: str  # several defined terms given one more: {names}, {term}
    opening: str  # {title}, {date}, {parties}
    merger: str  # {name} the survivor, {old} the predecessor
    former: str  # {name} now, {old} before
    trust: str  # {trustees} signing for {trust}
    owns: str  # {term} owns the property
    fee_retained: str  # a railroad lessor keeps the fee: {term}
    operates: str  # {term} operates: {business}
    uses: str  # {term} merely uses the premises: {business}
    lender_indicia: str  # {term} a lender holding a security interest only
    consultant: str  # {name} prepared a report: {date}
    consultant_defined: str  # {name} does the work under a defined term of its own
    dot_trustee: str  # {name} the deed of trust's trustee
    escrow: str  # {name} the escrow agent
    caps_names: bool  # party names in capitals where they are introduced

    def term(self, role: str) -> str:
        return dict(self.terms)[role]


BASE_TERMS = (("lessor", "Lessor"), ("lessee", "Lessee"), ("landlord", "Landlord"), ("tenant", "Tenant"),
              ("borrower", "Borrower"), ("lender", "Lender"), ("seller", "Seller"), ("buyer", "Buyer"),
              ("grantor", "Grantor"), ("grantee", "Grantee"), ("owner", "Owner"), ("holder", "Holder"),
              ("agency", "Agency"), ("guarantor", "Guarantor"), ("indemnitor", "Indemnitor"),
              ("indemnitee", "Indemnitee"), ("trustee", "Trustee"), ("mortgagor", "Mortgagor"),
              ("mortgagee", "Mortgagee"), ("trustor", "Borrower"), ("beneficiary", "Lender"))


def terms(**changes: str) -> tuple[tuple[str, str], ...]:
    return tuple((key, changes.get(key, value)) for key, value in BASE_TERMS)


WORDINGS: tuple[Wording, ...] = (
    Wording(
        "quoted-parenthetical",
        terms(),
        '{name}, {desc} ("{term}")',
        '{names} (collectively, "{term}")',
        'This {title} (this "Agreement") is made as of {date} by and between {parties}.',
        "{name}, successor by merger to {old}",
        "{name}, formerly known as {old}",
        "{trustees}, as Trustees of {trust}",
        "{term} is the owner in fee simple of the real property described below (the \"Property\").",
        "{term} retains fee title to the Premises and to the adjoining right of way.",
        "{term} shall operate a {business} on the Premises and is the operator of that facility.",
        "{term} shall use the Premises for {business} and for no other purpose.",
        "{term} holds a security interest in the Property only and is not an owner or operator of the Property.",
        "{name} prepared a Phase I Environmental Site Assessment of the Property dated {date}.",
        '{name} ("Consultant") shall perform the environmental investigation of the Property.',
        "to {name}, as Trustee,",
        '{name} ("Escrow Agent") shall hold the earnest money.',
        False,
    ),
    Wording(
        "as-captioned",
        terms(lessor="Landlord", lessee="Tenant", borrower="Mortgagor", lender="Mortgagee", buyer="Purchaser"),
        "{name}, {desc}, as {term}",
        "{names}, together as {term}",
        "THIS {title} is entered into on {date} by {parties}.",
        "{name}, successor-by-merger to {old}",
        "{name} f/k/a {old}",
        "{trustees}, Trustees of {trust}",
        "{term} owns the real property described below (the \"Property\") in fee simple.",
        "{term} is and shall remain the fee owner of the Premises.",
        "{term} will conduct and operate its {business} at the Premises.",
        "{term} will occupy the Premises for {business}.",
        "{term} is a secured lender only; it holds no title to the Property and is not its owner.",
        "The Phase I Environmental Site Assessment dated {date} was prepared by {name}.",
        '{name} (the "Consultant") will carry out the sampling.',
        "to {name}, Trustee,",
        '{name} (the "Escrow Agent") will hold the deposit.',
        True,
    ),
    Wording(
        "hereinafter",
        terms(lessor="Lessor", lessee="Lessee", borrower="Borrower", lender="Lender", seller="Vendor"),
        '{name}, {desc} (hereinafter called "{term}")',
        '{names} (hereinafter collectively called "{term}")',
        "KNOW ALL PERSONS BY THESE PRESENTS: this {title}, dated {date}, is made by and among {parties}.",
        "{name}, successor by merger with {old}",
        "{name}, formerly {old}",
        "{trustees}, as trustees of {trust}",
        "{term} is the owner of the real property hereinafter described (the \"Property\").",
        "{term} reserves and retains the fee title to the Premises.",
        "{term} shall be the operator of the {business} to be operated upon the Premises.",
        "{term} may occupy the Premises only for {business}.",
        "{term} holds indicia of ownership solely to protect its security interest and is not an owner of the Property.",
        "A report of environmental conditions at the Property dated {date} has been prepared by {name}.",
        '{name} (hereinafter called "Consultant") is engaged to do the work.',
        "unto {name}, as trustee,",
        '{name} (hereinafter called "Escrow Holder") holds the deposit.',
        False,
    ),
    # Test wordings: none of these forms, and some role words, occur in the dev split.
    Wording(
        "the-quoted",
        terms(seller="Seller", buyer="Buyer", trustor="Trustor", beneficiary="Beneficiary", indemnitee="Indemnified Party"),
        '{name}, {desc} (the "{term}")',
        '{names} (each, and together, the "{term}")',
        'This {title} (the "Instrument") is dated {date} and is entered into between {parties}.',
        "{name}, the surviving entity of its merger with {old}",
        "{name} (formerly known as {old})",
        "{trust}, acting by {trustees}, its trustees",
        "The {term} represents that it is the record owner of the land described below (the \"Property\").",
        "Fee simple title to the Premises remains in the {term}.",
        "The {term} is and will be the operator of a {business} on the Premises.",
        "The {term} will use the Premises solely for {business}.",
        "Nothing in this Instrument makes the {term} an owner or a mortgagee in possession; the {term} holds indicia of ownership only to protect its security interest.",
        "Environmental conditions were described in a report dated {date} by {name}.",
        '{name} (the "Environmental Consultant") will perform the testing.',
        "to {name} (the \"Trustee\"),",
        '{name} (the "Escrowee") will hold the funds.',
        True,
    ),
    Wording(
        "herein-referred",
        terms(lessor="Lessor", lessee="Lessee", borrower="Mortgagor", lender="Mortgagee", buyer="Purchaser",
              seller="Seller", owner="Property Owner", trustor="Trustor", beneficiary="Beneficiary"),
        '{name}, {desc} (herein referred to as "{term}")',
        '{names} (herein jointly and severally referred to as "{term}")',
        "This {title} is made on {date} between {parties}.",
        "{name}, as successor by merger to {old}",
        "{name}, which was formerly named {old}",
        "{trustees}, in their capacities as Trustees of {trust}",
        "{term} holds fee simple title to the land described below (herein the \"Property\").",
        "The fee estate in the Premises stays with {term}; only a leasehold passes.",
        "{term} operates, and will continue to operate, a {business} on the Premises.",
        "{term} will use the Premises for {business}.",
        "{term} is not, and shall not be deemed, an owner of the Property by reason of the security interest it holds.",
        "The Property was the subject of a Phase II investigation by {name} completed on {date}.",
        '{name} (herein referred to as "Contractor") will do the sampling.',
        "to {name}, Trustee for the benefit of the Mortgagee,",
        '{name} (herein referred to as "Escrow Agent") holds the deposit.',
        False,
    ),
    Wording(
        "party-of-the-part",
        terms(lessor="Lessor", lessee="Lessee", landlord="Landlord", tenant="Tenant", seller="Vendor",
              buyer="Vendee", lender="Lender"),
        "{name}, {desc}, hereinafter referred to as {term}",
        "{names}, hereinafter jointly referred to as {term},",
        "THIS {title}, executed {date}, by and between {parties}, WITNESSETH:",
        "{name}, which is the successor by merger of {old}",
        "{name} (f/k/a {old})",
        "{trust}, by its trustees {trustees}",
        "The {term} is seized in fee simple of the real estate described below (the \"Property\").",
        "The {term} continues to hold the fee simple estate in the Premises.",
        "The {term} shall be the operator of and shall operate the {business} on the Premises.",
        "The {term} shall use the Premises for {business} and not otherwise.",
        "The {term}'s interest is a lien only; the {term} does not hold title and is not an owner of the Property.",
        "An environmental report dated {date} was prepared for the Property by {name}.",
        '{name}, hereinafter referred to as the Consultant, will do the fieldwork.',
        "to {name}, as trustee,",
        '{name}, hereinafter referred to as the Escrow Agent, will hold the deposit.',
        True,
    ),
)
DEV_WORDINGS = ("quoted-parenthetical", "as-captioned", "hereinafter")
TEST_WORDINGS = ("the-quoted", "herein-referred", "party-of-the-part")
WORDING_SPLITS = {"dev": DEV_WORDINGS, "test": TEST_WORDINGS}


def wording(name: str) -> Wording:
    return by_name(WORDINGS, name, "wording")


@dataclass(frozen=True)
class PartyTruth:
    name: str
    roles: tuple[str, ...]  # in ROLES order
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class NamedOther:
    """An entity the instrument names that holds none of the roles."""

    name: str
    reason: str  # one of OTHER_REASONS


@dataclass
class PartyInstrument:
    instrument: Instrument
    parties: list[PartyTruth]
    others: list[NamedOther]
    traps: tuple[str, ...]


@dataclass
class Party:
    """A party while an instrument is drafted: who it is, how it is introduced, how it signs."""

    name: str
    desc: str
    roles: set[str]
    term: str  # its defined term
    caption: str  # its signature block's caption
    intro_name: str = ""  # the name as introduced (with "successor by merger to ..." and the like)
    aliases: list[str] = field(default_factory=list)
    signers: list[tuple[str, str]] = field(default_factory=list)  # (signer, capacity)

    def truth(self) -> PartyTruth:
        return PartyTruth(self.name, tuple(r for r in ROLES if r in self.roles), tuple(self.aliases))


class Names:
    """Distinct names within one instrument."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.places = rng.sample(PLACES, len(PLACES))

    def place(self) -> str:
        return self.places.pop()

    def company(self) -> str:
        return f"{self.place()} {self.rng.choice(COMPANY_KINDS)}{self.rng.choice(SUFFIXES)}"

    def jobber(self) -> str:
        return f"{self.place()} {self.rng.choice(JOBBER_KINDS)}"

    def tenant(self, operating: bool) -> str:
        kinds = TENANT_KINDS[:OPERATING_TENANTS] if operating else TENANT_KINDS[OPERATING_TENANTS:]
        return f"{self.place()} {self.rng.choice(kinds)}"

    def railroad(self) -> str:
        return f"{self.rng.choice(RAIL_REGIONS)} {self.rng.choice(RAIL_KINDS)}"

    def bank(self) -> str:
        return f"{self.place()} {self.rng.choice(BANK_KINDS)}"

    def consultant(self) -> str:
        return f"{self.place()} {self.rng.choice(CONSULTANT_KINDS)}"

    def title_company(self) -> str:
        return f"{self.place()} {self.rng.choice(TITLE_KINDS)}"

    def holder(self) -> str:
        return f"{self.place()} {self.rng.choice(HOLDER_KINDS)}"

    def trust(self) -> str:
        return self.rng.choice(TRUST_FORMS).format(last=self.rng.choice(LAST))


def entity_desc(rng: random.Random, name: str) -> str:
    desc = _entity_desc(rng.choice(STATE_OF_INCORPORATION), name)
    return "an" + desc[1:] if desc.startswith("a ") and desc[2] in "AEIOU" else desc


def _entity_desc(state: str, name: str) -> str:
    lowered = name.lower()
    if "llc" in lowered.replace(".", ""):
        return f"a {state} limited liability company"
    if lowered.endswith(("lp", "l.p.")):
        return f"a {state} limited partnership"
    if re.search(r"\bbank\b", lowered) or "credit union" in lowered:
        return "a national banking association" if "n.a." in lowered or "national" in lowered else f"a {state} banking institution"
    if "rail" in lowered:
        return f"a {state} railroad corporation"
    if "p.c." in lowered:
        return f"a {state} professional corporation"
    return f"a {state} corporation"


BUSINESSES = ("bulk petroleum plant", "bulk fuel storage and distribution facility", "petroleum distribution terminal",
              "propane and fuel oil depot")
TENANT_BUSINESSES = {"Cleaners": "dry cleaning plant", "Auto Service": "automotive repair shop",
                     "Quick Lube": "vehicle lubrication service", "Plating Works": "metal plating shop",
                     "Coatings": "powder coating shop", "Logistics": "truck maintenance and fueling yard",
                     "Dental Group": "professional offices", "Insurance Agency": "general office purposes"}


def tenant_business(name: str) -> str:
    return next(text for key, text in TENANT_BUSINESSES.items() if key in name)


class Drafter:
    """Writes one instrument's parts in one wording."""

    def __init__(self, rng: random.Random, words: Wording, recorder: RecorderStyle):
        self.rng = rng
        self.words = words
        self.recorder = recorder
        self.names = Names(rng)
        self.traps: list[str] = []
        self.others: list[NamedOther] = []

    def party(self, name: str, roles: set[str], term_key: str, *, desc: str | None = None, caption: str | None = None,
              person_signs: bool = False) -> Party:
        term = self.words.term(term_key)
        individual = desc == "an individual"
        party = Party(name, desc or entity_desc(self.rng, name), set(roles), term, (caption or term).upper(),
                      self.shown(name))
        if individual or person_signs:
            party.signers.append((name, term))
        else:
            party.signers.append((person(self.rng), self.rng.choice(("President", "Vice President", "Manager",
                                                                     "Authorized Signatory", "Managing Member"))))
        return party

    def shown(self, name: str) -> str:
        return name.upper() if self.words.caps_names else name

    def intro(self, party: Party) -> str:
        return self.words.define.format(name=party.intro_name, desc=party.desc, term=party.term)

    def opening(self, title: str, date: dt.date, parties: list[Party]) -> str:
        intros = [self.intro(p) for p in parties]
        joined = intros[0] if len(intros) == 1 else ", ".join(intros[:-1]) + ", and " + intros[-1]
        return self.words.opening.format(title=title, date=long_date(date), parties=joined)

    def merged(self, party: Party) -> None:
        """The party is the survivor of a merger: its predecessor is named, not a party."""
        old = self.names.company()
        party.intro_name = self.words.merger.format(name=self.shown(party.name), old=self.shown(old))
        self.others.append(NamedOther(old, "merged-predecessor"))
        self.traps.append("successor-by-merger")

    def renamed(self, party: Party) -> None:
        old = self.names.company()
        party.intro_name = self.words.former.format(name=self.shown(party.name), old=self.shown(old))
        party.aliases.append(old)
        self.traps.append("former-name")

    def trust(self, roles: set[str], term_key: str) -> Party:
        """A trust whose trustees sign for it: the trust is the party, the trustees are not."""
        name = self.names.trust()
        trustees = [person(self.rng) for _ in range(self.rng.choice((1, 2, 2)))]
        shown_trustees = " and ".join(self.shown(t) for t in trustees)
        party = self.party(name, roles, term_key, desc="a trust")
        party.intro_name = self.words.trust.format(trustees=shown_trustees, trust=self.shown(name))
        if len(trustees) == 1:
            party.intro_name = party.intro_name.replace("Trustees", "Trustee").replace("trustees", "trustee")
            party.intro_name = party.intro_name.replace("in their capacities", "in the capacity")
        party.signers = [(t, "Trustee") for t in trustees]
        self.others += [NamedOther(t, "signing-trustee") for t in trustees]
        self.traps.append("trust-party")
        return party

    def consultant(self, date: dt.date, defined: bool) -> str:
        name = self.names.consultant()
        self.others.append(NamedOther(name, "consultant"))
        self.traps.append("consultant")
        form = self.words.consultant_defined if defined else self.words.consultant
        text = form.format(name=name, date=long_date(date - dt.timedelta(days=self.rng.randint(30, 400))))
        return text.replace("..", ".")  # a name ending "Inc." ends the sentence too


def on_property(form: str) -> str:
    """A form written for leased premises, said of the Property."""
    return form.replace("the Premises", "the Property")


def body_date(rng: random.Random) -> dt.date:
    return dt.date(rng.randint(1986, 2023), rng.randint(1, 12), rng.randint(1, 28))


def draft_railroad_lease(d: Drafter, date: dt.date, description: str, apn: str) -> tuple[str, list[str], list[Party], bool]:
    rng, w = d.rng, d.words
    title = rng.choice(("MEMORANDUM OF LEASE", "LEASE", "INDUSTRY TRACK AND LAND LEASE", "MEMORANDUM OF GROUND LEASE"))
    lessor = d.party(d.names.railroad(), {"lessor", "owner"}, "lessor")
    lessee = d.party(d.names.jobber(), {"lessee", "operator"}, "lessee")
    parties = [lessor, lessee]
    d.traps += ["railroad-fee-owner", "lessee-operates"]
    if rng.random() < 0.3:
        guarantor = d.party(person(rng), {"guarantor"}, "guarantor", desc="an individual")
        parties.append(guarantor)
        d.traps.append("guarantor")
    if rng.random() < 0.2:
        d.renamed(lessee)
    body = [
        d.opening(title, date, parties),
        f"{lessor.term} leases to {lessee.term}, for a term of {rng.choice((10, 15, 20, 25))} years, the portion of its "
        f"station grounds described below (the \"Premises\"):",
        description,
        f"Tax Parcel: {apn}",
        w.fee_retained.format(term=lessor.term),
        w.operates.format(term=lessee.term, business=rng.choice(BUSINESSES)),
        f"{lessee.term} shall comply with all environmental laws and shall remove its tanks and piping at the end of the term.",
    ]
    if len(parties) == 3:
        body.append(f"{parties[2].term} guarantees the payment and performance of every obligation of {lessee.term} under the lease.")
    return title, body, parties, rng.random() < 0.75


def draft_commercial_lease(d: Drafter, date: dt.date, description: str, apn: str) -> tuple[str, list[str], list[Party], bool]:
    rng, w = d.rng, d.words
    title = rng.choice(("LEASE AGREEMENT", "MEMORANDUM OF LEASE", "COMMERCIAL LEASE", "GROUND LEASE"))
    operating = rng.random() < 0.65
    # Many leases never say who owns the land: a landlord is then a lessor, not a stated owner.
    stated_owner = rng.random() < 0.65
    landlord_roles = {"lessor", "owner"} if stated_owner else {"lessor"}
    if not stated_owner:
        d.traps.append("lessor-not-stated-owner")
    if rng.random() < 0.25:
        landlord = d.trust(landlord_roles, "landlord")
    else:
        landlord = d.party(d.names.company(), landlord_roles, "landlord")
    tenant_name = d.names.tenant(operating)
    tenant = d.party(tenant_name, {"lessee", "operator"} if operating else {"lessee"}, "tenant")
    d.traps.append("lessee-operates" if operating else "tenant-not-operator")
    parties = [landlord, tenant]
    if rng.random() < 0.3:
        guarantor = d.party(d.names.company(), {"guarantor"}, "guarantor")
        parties.append(guarantor)
        d.traps.append("guarantor")
    if rng.random() < 0.15:
        d.merged(tenant)
    business = tenant_business(tenant_name)
    body = [
        d.opening(title, date, parties),
        *([w.owns.format(term=landlord.term)] if stated_owner else []),
        description,
        f"APN {apn}",
        f"{landlord.term} leases the Property (the \"Premises\") to {tenant.term} for a term of {rng.choice((5, 7, 10))} years.",
        (w.operates if operating else w.uses).format(term=tenant.term, business=business),
    ]
    if len(parties) == 3:
        body.append(f"{parties[2].term} unconditionally guarantees the obligations of {tenant.term} under this lease.")
    return title, body, parties, rng.random() < 0.5


def draft_mortgage(d: Drafter, date: dt.date, description: str, apn: str) -> tuple[str, list[str], list[Party], bool]:
    rng, w = d.rng, d.words
    trust_deed = rng.random() < 0.45
    title = rng.choice(("DEED OF TRUST", "DEED OF TRUST AND ASSIGNMENT OF RENTS") if trust_deed
                       else ("MORTGAGE", "MORTGAGE, SECURITY AGREEMENT AND FIXTURE FILING", "OPEN-END MORTGAGE"))
    lender_key = "beneficiary" if trust_deed else rng.choice(("lender", "mortgagee"))
    borrower_key = "trustor" if trust_deed else rng.choice(("borrower", "mortgagor"))
    borrower = d.party(d.names.company(), {"borrower", "owner"}, borrower_key)
    lender = d.party(d.names.bank(), {"lender"}, lender_key)
    d.traps.append("lender-indicia")
    if rng.random() < 0.25:
        d.renamed(borrower)
    elif rng.random() < 0.2:
        d.merged(lender)
    amount = f"${rng.randint(4, 180) * 25000:,}"
    if trust_deed:
        trustee = d.names.title_company()
        d.others.append(NamedOther(trustee, "deed-of-trust-trustee"))
        d.traps.append("deed-of-trust-trustee")
        grant = (f"To secure a loan of {amount}, {borrower.term} irrevocably conveys "
                 f"{w.dot_trustee.format(name=d.shown(trustee))} in trust with power of sale, for the benefit of "
                 f"{lender.term}, the Property described below.")
    else:
        grant = f"To secure a loan of {amount}, {borrower.term} mortgages to {lender.term} the Property described below."
    body = [
        d.opening(title, date, [borrower, lender]),
        w.owns.format(term=borrower.term),
        grant,
        description,
        f"Parcel No. {apn}",
        w.lender_indicia.format(term=lender.term),
        f"{borrower.term} shall keep the Property free of hazardous substances except as lawfully used in the ordinary course.",
    ]
    return title, body, [borrower, lender], True


def draft_purchase_agreement(d: Drafter, date: dt.date, description: str, apn: str) -> tuple[str, list[str], list[Party], bool]:
    rng, w = d.rng, d.words
    title = rng.choice(("PURCHASE AND SALE AGREEMENT", "AGREEMENT OF PURCHASE AND SALE", "REAL ESTATE PURCHASE CONTRACT"))
    seller = d.party(d.names.company(), {"seller", "owner"}, "seller")
    operating = rng.random() < 0.35
    if operating:
        seller.roles.add("operator")
        d.traps.append("seller-operates")
    if rng.random() < 0.3:
        buyer = d.party(person(rng), {"buyer"}, "buyer", desc="an individual")
    else:
        buyer = d.party(d.names.company(), {"buyer"}, "buyer")
    if rng.random() < 0.25:
        d.merged(seller)
    elif rng.random() < 0.2:
        d.renamed(buyer)
    body = [
        d.opening(title, date, [seller, buyer]),
        w.owns.format(term=seller.term),
        description,
        f"Assessor's Parcel No. {apn}",
        f"{seller.term} agrees to sell and {buyer.term} agrees to buy the Property for ${rng.randint(30, 900) * 5000:,}.",
        *([on_property(w.operates).format(term=seller.term, business=rng.choice(BUSINESSES))] if operating else []),
        d.consultant(date, defined=rng.random() < 0.3),
    ]
    if rng.random() < 0.5:
        escrow = d.names.title_company()
        d.others.append(NamedOther(escrow, "escrow-agent"))
        d.traps.append("escrow-agent")
        body.append(w.escrow.format(name=escrow))
    body.append(f"{buyer.term} accepts the Property AS IS after its own environmental due diligence.")
    return title, body, [seller, buyer], False


def draft_indemnity(d: Drafter, date: dt.date, description: str, apn: str) -> tuple[str, list[str], list[Party], bool]:
    rng, w = d.rng, d.words
    title = rng.choice(("ENVIRONMENTAL INDEMNITY AGREEMENT", "HAZARDOUS MATERIALS INDEMNITY AGREEMENT",
                        "UNSECURED ENVIRONMENTAL INDEMNITY"))
    # A borrower that runs its business on land it leases indemnifies without owning the land.
    owns = rng.random() < 0.65
    borrower = d.party(d.names.company(), {"borrower", "indemnitor", "owner" if owns else "operator"}, "borrower")
    if not owns:
        d.traps.append("borrower-not-owner")
    parties = [borrower]
    if rng.random() < 0.7:
        guarantor = d.party(person(rng), {"guarantor", "indemnitor"}, "guarantor", desc="an individual")
        parties.append(guarantor)
        d.traps.append("guarantor")
    lender = d.party(d.names.bank(), {"lender", "indemnitee"}, "lender")
    d.traps.append("lender-indicia")
    if rng.random() < 0.25:
        d.merged(lender)
    indemnitor, indemnitee = w.term("indemnitor"), w.term("indemnitee")
    names = " and ".join(p.term for p in parties)
    body = [
        d.opening(title, date, parties + [lender]),
        (w.collective.format(names=names, term=indemnitor) if len(parties) > 1 else f"{names}, as {indemnitor},")
        + f" shall indemnify {lender.term} "
        f"(together with its successors and assigns, the \"{indemnitee}\") as this Agreement provides.",
        w.owns.format(term=borrower.term) if owns else
        on_property(w.operates).format(term=borrower.term, business=rng.choice(BUSINESSES))
        + f" {borrower.term} leases the Property from its owner.",
        description,
        f"Tax ID {apn}",
        f"{indemnitor} shall defend, indemnify and hold harmless the {indemnitee} from all losses arising from hazardous "
        "substances at, on or under the Property, whenever released.",
        w.lender_indicia.format(term=lender.term),
        d.consultant(date, defined=False),
    ]
    return title, body, parties + [lender], False


def draft_access(d: Drafter, date: dt.date, description: str, apn: str) -> tuple[str, list[str], list[Party], bool]:
    rng, w = d.rng, d.words
    title = rng.choice(("ACCESS AGREEMENT", "ENVIRONMENTAL ACCESS AGREEMENT", "RIGHT OF ENTRY AND ACCESS AGREEMENT"))
    owner = d.party(d.names.company(), {"owner", "grantor"}, "owner")
    if rng.random() < 0.35:
        agency_name = f"{d.recorder.state} {rng.choice(AGENCY_NAMES)}"
        grantee = d.party(agency_name, {"grantee", "agency"}, "grantee")
        grantee.desc = f"an agency of the State of {d.recorder.state}"
        agency_line = f"{grantee.term} is the state agency responsible for the cleanup of the Property."
    else:
        grantee = d.party(d.names.company(), {"grantee"}, "grantee")
        agency_line = f"{grantee.term} is evaluating the Property before a possible acquisition."
    body = [
        d.opening(title, date, [owner, grantee]),
        w.owns.format(term=owner.term),
        description,
        f"Parcel {apn}",
        f"{owner.term} grants to {grantee.term} and its contractors a license to enter the Property to install and "
        "sample groundwater monitoring wells.",
        agency_line,
        d.consultant(date, defined=rng.random() < 0.6),
    ]
    return title, body, [owner, grantee], rng.random() < 0.5


def draft_deed(d: Drafter, date: dt.date, description: str, apn: str) -> tuple[str, list[str], list[Party], bool]:
    rng = d.rng
    title = rng.choice(("WARRANTY DEED", "SPECIAL WARRANTY DEED", "QUITCLAIM DEED", "BARGAIN AND SALE DEED"))
    grantor = d.party(d.names.company(), {"grantor"}, "grantor")
    trap = rng.random()
    if trap < 0.4:
        d.merged(grantor)
    elif trap < 0.7:
        d.renamed(grantor)
    if rng.random() < 0.35:
        grantee = d.trust({"grantee"}, "grantee")
    elif rng.random() < 0.3:
        grantee = d.party(person(rng), {"grantee"}, "grantee", desc="an individual")
    else:
        grantee = d.party(d.names.company(), {"grantee"}, "grantee")
    verb = {"WARRANTY DEED": "conveys and warrants", "SPECIAL WARRANTY DEED": "conveys and specially warrants",
            "QUITCLAIM DEED": "releases and quitclaims", "BARGAIN AND SALE DEED": "bargains, sells and conveys"}[title]
    body = [
        d.opening(title, date, [grantor, grantee]),
        f"{grantor.term}, for {rng.choice(('TEN AND NO/100 DOLLARS ($10.00)', 'good and valuable consideration'))}, "
        f"{verb} to {grantee.term} the real property described below:",
        description,
        f"Tax Parcel Number: {apn}",
        "SUBJECT TO easements, restrictions and reservations of record, and general taxes for the current year.",
    ]
    return title, body, [grantor, grantee], True


def draft_covenant(d: Drafter, date: dt.date, description: str, apn: str) -> tuple[str, list[str], list[Party], bool]:
    rng, w = d.rng, d.words
    title = rng.choice(("ENVIRONMENTAL COVENANT", "ENVIRONMENTAL COVENANT (UNIFORM ENVIRONMENTAL COVENANTS ACT)",
                        "DECLARATION OF ENVIRONMENTAL COVENANT"))
    owner = d.party(d.names.company(), {"owner"}, "owner")
    parties = [owner]
    if rng.random() < 0.2:
        owner.roles.add("holder")
        d.traps.append("owner-holder")
        holder_line = f"{owner.term} is also the holder of this Covenant."
    else:
        holder = d.party(d.names.holder(), {"holder"}, "holder")
        holder.desc = f"a {d.recorder.state} nonprofit corporation"
        parties.append(holder)
        holder_line = f"{holder.term} is a holder of this Covenant under the Act."
    agency = d.party(f"{d.recorder.state} {rng.choice(AGENCY_NAMES)}", {"agency"}, "agency")
    agency.desc = f"an agency of the State of {d.recorder.state}"
    parties.append(agency)
    body_parties = list(parties)
    lender = None
    if rng.random() < 0.5:
        lender = d.party(d.names.bank(), {"lender"}, "lender")
        body_parties.append(lender)
        parties.append(lender)
        d.traps += ["subordinating-lender", "lender-indicia"]
    body = [
        d.opening(title, date, body_parties),
        w.owns.format(term=owner.term),
        description,
        f"Parcel Number: {apn}",
        f"This Covenant is granted under the Uniform Environmental Covenants Act. {holder_line} {agency.term} approves "
        "the environmental response project it protects.",
        "Activity and use limitations: no residential use; no extraction of groundwater; the cap shall be maintained.",
        d.consultant(date, defined=False),
    ]
    if lender is not None:
        body.append(f"{lender.term}, the mortgagee under a mortgage recorded against the Property, subordinates its lien "
                    "to this Covenant.")
        body.append(w.lender_indicia.format(term=lender.term))
    return title, body, parties, True


DRAFTERS = {
    "railroad-lease": draft_railroad_lease,
    "commercial-lease": draft_commercial_lease,
    "mortgage": draft_mortgage,
    "purchase-agreement": draft_purchase_agreement,
    "environmental-indemnity": draft_indemnity,
    "access-agreement": draft_access,
    "deed": draft_deed,
    "environmental-covenant": draft_covenant,
}
# Who signs: a mortgage, deed or covenant binds those who grant; a lender signs what it joins (a
# subordination, an agreement of which it is a party).
NOT_SIGNING = {"mortgage": {"lender"}, "deed": {"grantee"}}


def sample_party_instrument(rng: random.Random, kind: str, template: Template, recorder: RecorderStyle,
                            words: Wording) -> PartyInstrument:
    """One instrument of `kind` in the given template, recorder style and wording, with its truth."""
    if kind not in DRAFTERS:
        raise ValueError(f"unknown kind {kind!r}")
    drafter = Drafter(rng, words, recorder)
    date = body_date(rng)
    description, apn = legal_description(rng, recorder)
    title, body, parties, recorded = DRAFTERS[kind](drafter, date, description, apn)
    if words.caps_names:
        drafter.traps.append("capital-names")
    skip = NOT_SIGNING.get(kind, set())
    signatures = []
    for party in parties:
        if party.roles & skip:
            continue
        for signer, capacity in party.signers:
            signatures.append(Signature(party.caption, party.name, signer, capacity, "ink"))
    acknowledgments = []
    if recorded or rng.random() < 0.4:
        expires = date + dt.timedelta(days=rng.randint(200, 1400))
        notary = person(rng)
        for sig in signatures:
            acknowledgments.append(Acknowledgment(recorder.state, recorder.county, sig.signer, sig.capacity, notary, date,
                                                  expires, f"{rng.randint(100000, 999999)}", "ink"))
    recording = None
    if recorded:
        recording = sample_recording(rng, recorder, date)
    witness = template.witness_clause.format(party="each party" if len(signatures) > 1 else signatures[0].party,
                                             date=long_date(date))
    return_to = []
    if recorded:
        return_to = ["When recorded, return to:", parties[-1].name,
                     f"{rng.randint(100, 9999)} {rng.choice(('Oak', 'Main', 'Harbor', 'Depot', 'Mill'))} Street"]
    instrument = Instrument(
        kind=kind, title=title, scenario="recorded" if recorded else "unrecorded", template=template, recorder=recorder,
        date=date, return_to=return_to, body=body, witness_clause=witness, signatures=signatures,
        acknowledgments=acknowledgments, recording=recording, apn=apn,
    )
    traps = tuple(t for t in TRAPS if t in drafter.traps)
    return PartyInstrument(instrument, [p.truth() for p in parties], drafter.others, traps)
