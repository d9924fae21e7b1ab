"""A parcel's recorded history over decades, and its title packet: the truth of a chain of title.

    rng = make_random(SEED, "test", "ct-0007")
    history = sample_history(rng, recorder("rookwood-co"), periods=6, focus="corrective")
    packet = render_packet(history, SEED, "test", "ct-0007", templates=("bellweather-nakashima",),
                           cover=cover_style("fairmount-search"), scan=lambda i: i % 5 == 4)
    packet.pdf, history.periods()

A history is the subject parcel (a platted lot with its APN), its owners one after another, and
every instrument an abstractor's search turns up, in recording order:

    vesting               a deed from the owner of record (or, the first, from a grantor whose own
                          title the search did not reach: the chain starts there) to the next owner:
                          warranty, special warranty, quitclaim; or a sheriff's or trustee's deed
                          after a foreclosure of the owner's mortgage or deed of trust. Each starts
                          an ownership period.
    corrective            re-records an earlier vesting deed between the same parties to correct a
                          clerical error in it: no new period
    wild                  a deed of the subject parcel from a stranger to the record chain: no period
    adjoining             a deed of the neighbouring lot, same plat and block: not the subject parcel
    tax-lot               a deed of a neighbouring tax lot whose tax-lot number is the subject's plat
                          lot number ("Tax Lot 7" beside "Lot 7, Block 3"): not the subject parcel
    caption-two-parcels   a deed whose caption lists the subject's APN and the neighbour's while its
                          body conveys only the neighbour's lot: not the subject parcel
    mortgage, deed-of-trust, easement
                          the owner's security instruments and easements: they convey no ownership

Name changes and mergers record no deed: the owner's next deed names it as "New Name, formerly
known as Old Name" or "Successor Co., successor by merger to Old Name". They start no period;
the period keeps the grantee's name as its vesting deed gives it.

Decisions (docs/legal.md, chain-of-title): a period starts on the *recording date* of its vesting
deed and ends on the recording date of the next vesting deed (None for the owner of record); the
vesting instrument is the recorder's reference stamped on it (the instrument number where the
recorder numbers instruments, else its book and page).
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from ..rng import make_random
from .archive import PageScan
from .families import RecorderStyle, template
from .instruments import (
    CAPACITIES,
    COMPANIES,
    LAST,
    LENDERS,
    PLATS,
    Acknowledgment,
    Instrument,
    Recording,
    Signature,
    long_date,
    person,
    recording_fee,
)
from .packet import Cover, CoverStyle, IndexEntry, Packet, assemble_packet, render_cover
from .render import render_instrument

OWNER_COMPANIES = COMPANIES + (
    "Brightwater Industrial LLC",
    "Coppergate Realty Partners LP",
    "Dunmore Avenue Properties, Inc.",
    "Eastfield Logistics Corp.",
    "Foxhollow Land Company",
    "Greystone Ventures LLC",
    "Highmark Storage Partners",
    "Juniper Flats Holdings, Inc.",
    "Larchmont Commercial LLC",
    "Meridian Yard Company",
    "Northstar Equities LLC",
    "Pinewood Terminal Corp.",
)
SUCCESSOR_WORDS = ("Holdings", "Properties", "Realty", "Land", "Ventures", "Partners")
UTILITIES = ("Western Power Cooperative", "Tri-County Gas Company", "Metro Water District", "Valley Electric Authority")
TRUSTEES = ("Pacific Title Trustee Services, Inc.", "Frontier Reconveyance Corp.", "Lakeside Trustee Company")
EXTRA_PLATS = ("CEDAR BLUFF ADDITION", "MILL RACE ACRES", "DEPOT STREET PLAT", "SUNSET ORCHARD TRACTS")
CORRECTIONS = (
    "the block number",
    "the plat page",
    "the recording reference of the plat",
    "the lot number",
    "the county named",
)
CONSIDERATIONS = (
    "TEN AND NO/100 DOLLARS ($10.00) and other good and valuable consideration",
    "good and valuable consideration, the receipt of which is acknowledged",
)

# Deed wording by law-firm template: dev templates word their deeds one way, test templates another.
DEED_FORMS = {
    "hollis-drummond": "comma",
    "castellanos-fairbairn": "presents",
    "okonkwo-lindqvist": "labels",
    "bellweather-nakashima": "between",
    "esterhaus-galloway": "defined",
    "prendergast-mossberg": "inline-labels",
}
VERBS = {
    "warranty-deed": "conveys and warrants",
    "special-warranty-deed": "grants, bargains, sells and conveys, with special warranty,",
    "quitclaim-deed": "remises, releases and quitclaims",
    "corrective-deed": "conveys and confirms",
    "sheriffs-deed": "grants and conveys",
    "trustees-deed": "grants and conveys, without warranty,",
}
TITLES = {
    "warranty-deed": ("WARRANTY DEED", "GENERAL WARRANTY DEED", "STATUTORY WARRANTY DEED"),
    "special-warranty-deed": ("SPECIAL WARRANTY DEED", "LIMITED WARRANTY DEED"),
    "quitclaim-deed": ("QUITCLAIM DEED", "QUIT CLAIM DEED"),
    "corrective-deed": ("CORRECTIVE WARRANTY DEED", "CORRECTION DEED", "CORRECTIVE DEED"),
    "sheriffs-deed": ("SHERIFF'S DEED", "SHERIFF'S DEED ON FORECLOSURE SALE"),
    "trustees-deed": ("TRUSTEE'S DEED", "TRUSTEE'S DEED UPON SALE"),
    "mortgage": ("MORTGAGE", "OPEN-END MORTGAGE"),
    "deed-of-trust": ("DEED OF TRUST", "DEED OF TRUST AND ASSIGNMENT OF RENTS"),
    "easement": ("GRANT OF EASEMENT", "UTILITY EASEMENT"),
}
# The focus traps a generator cycles through so that every trap is in many packets.
FOCI = (
    "corrective",
    "wild",
    "adjoining",
    "caption-two-parcels",
    "tax-lot",
    "name-change",
    "merger",
    "sheriffs-deed",
    "trustees-deed",
    "quitclaim-from-owner",
    "mortgage-easement",
)


@dataclass(frozen=True)
class Parcel:
    apn: str
    lot: int
    block: int
    plat: str
    plat_book: int
    plat_page: int
    county: str
    state: str
    tax_map: str = ""  # set for a tax lot: described by the assessor's map, not the plat

    @property
    def short(self) -> str:
        if self.tax_map:
            return f"Tax Lot {self.lot}, Assessor's Map {self.tax_map}"
        return f"Lot {self.lot}, Block {self.block}, {self.plat}"

    @property
    def description(self) -> str:
        if self.tax_map:
            return f"Tax Lot {self.lot} as shown on Assessor's Map {self.tax_map}, {self.county} County, {self.state}."
        return (
            f"Lot {self.lot}, Block {self.block}, {self.plat}, according to the plat thereof recorded in Book "
            f"{self.plat_book} of Plats, Page {self.plat_page}, records of {self.county} County, {self.state}."
        )


@dataclass
class TitleInstrument:
    """One recorded instrument of a history, and its part in the chain (`role`)."""

    role: str
    kind: str
    title: str
    grantor: str  # as the instrument names the grantor, recital included ("X, formerly known as Y")
    grantee: str
    parcel: Parcel
    date: dt.date
    recorded: dt.datetime = dt.datetime(1900, 1, 1)
    number: str = ""
    book: int = 0
    page: int = 0
    show_apn: bool = True
    caption: tuple[Parcel, ...] = ()
    recital: str = ""  # a paragraph before the granting clause (correction, foreclosure)
    signer: str = ""
    capacity: str = "Grantor"
    secured_party: str = ""  # the lender of a mortgage or deed of trust
    corrects: TitleInstrument | None = None  # the deed a corrective deed corrects

    @property
    def starts_period(self) -> bool:
        return self.role == "vesting"


@dataclass(frozen=True)
class Period:
    grantee: str
    start: dt.date  # the vesting deed's recording date
    end: dt.date | None  # the next vesting deed's recording date; None for the owner of record
    reference: str  # the stamp's reference, as `reference_of` writes it
    other_references: tuple[str, ...]  # the stamp's other forms (a book and page beside the number)


@dataclass
class TitleHistory:
    subject: Parcel
    recorder: RecorderStyle
    focus: str
    instruments: list[TitleInstrument]  # in recording order
    traps: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list)

    def periods(self) -> list[Period]:
        vesting = [i for i in self.instruments if i.starts_period]
        out = []
        for index, deed in enumerate(vesting):
            end = vesting[index + 1].recorded.date() if index + 1 < len(vesting) else None
            first, *others = references_of(self.recorder, deed)
            out.append(Period(deed.grantee, deed.recorded.date(), end, first, tuple(others)))
        return out


def references_of(style: RecorderStyle, item: TitleInstrument) -> list[str]:
    """The recording references the stamp shows: the instrument number first, where there is one."""
    out = []
    if style.number_label:
        out.append(f"{style.number_label} {item.number}")
    if style.book_page:
        out.append(style.book_page.format(book=item.book, page=item.page))
    return out


def company_or_person(rng: random.Random, used: set[str], company_share: float = 0.55) -> str:
    for _ in range(100):
        name = rng.choice(OWNER_COMPANIES) if rng.random() < company_share else person(rng)
        if name not in used and " and " not in name:
            used.add(name)
            return name
    raise RuntimeError("ran out of distinct names")


def successor_name(rng: random.Random, old: str, used: set[str]) -> str:
    """A company's new name: the same first word, another business word."""
    stem = old.split()[0]
    suffix = rng.choice(("LLC", "Inc.", "Company", "LP"))
    for word in rng.sample(SUCCESSOR_WORDS, len(SUCCESSOR_WORDS)):
        name = f"{stem} {word} {suffix}"
        if name not in used and name != old:
            used.add(name)
            return name
    raise RuntimeError("no successor name")


def make_apn(rng: random.Random, form: str, used: set[str]) -> str:
    while True:
        apn = form.format(a=rng.randint(1, 999), b=rng.randint(1, 999), c=rng.randint(1, 99))
        if apn not in used:
            used.add(apn)
            return apn


def sample_parcels(rng: random.Random, recorder: RecorderStyle) -> tuple[Parcel, Parcel, Parcel]:
    """The subject lot, its neighbour in the same block, and a neighbouring tax lot numbered as the
    subject's plat lot."""
    form = rng.choice(("{a:03d}-{b:03d}-{c:02d}", "R{a:03d}{b:03d}", "{a:02d}-{b:02d}-{c:03d}-010"))
    used: set[str] = set()
    plat = rng.choice(PLATS + EXTRA_PLATS)
    lot, block = rng.randint(2, 23), rng.randint(1, 12)
    book, page = rng.randint(3, 40), rng.randint(1, 90)
    county, state = recorder.county, recorder.state
    subject = Parcel(make_apn(rng, form, used), lot, block, plat, book, page, county, state)
    neighbour = Parcel(make_apn(rng, form, used), lot + rng.choice((-1, 1)), block, plat, book, page, county, state)
    tax_map = f"{rng.randint(1, 4)}{rng.choice('NS')} {rng.randint(1, 6)}{rng.choice('EW')} {rng.randint(1, 36)}"
    tax_lot = Parcel(make_apn(rng, form, used), lot, 0, "", 0, 0, county, state, tax_map=tax_map)
    return subject, neighbour, tax_lot


def sample_history(rng: random.Random, recorder: RecorderStyle, periods: int, focus: str) -> TitleHistory:
    """A parcel's history with `periods` ownership periods and the trap `focus` (one of FOCI),
    among others drawn at random."""
    if focus not in FOCI:
        raise ValueError(f"unknown focus {focus!r}")
    subject, neighbour, tax_lot = sample_parcels(rng, recorder)
    used: set[str] = set()
    owners = [company_or_person(rng, used) for _ in range(periods + 1)]  # owners[0]: the unknown source
    start = dt.date(rng.randint(1958, 1984), rng.randint(1, 12), rng.randint(1, 28))
    span = (dt.date(2024, 6, 30) - start).days
    # Vesting dates spread over the span, each in its own stretch of it (more than a year apart).
    stretch = span // periods
    vest_dates = [start + dt.timedelta(days=i * stretch + rng.randint(0, stretch // 2)) for i in range(periods)]
    traps = {focus}
    for extra in FOCI:
        if extra != focus and rng.random() < 0.28:
            traps.add(extra)
    # How each period after the first begins.
    ways = ["sale"] * periods
    ways[0] = "first"
    later = list(range(1, periods))
    rng.shuffle(later)
    for trap in ("sheriffs-deed", "trustees-deed", "quitclaim-from-owner", "name-change", "merger"):
        if trap in traps and later:
            ways[later.pop()] = trap
    items: list[TitleInstrument] = []
    apn_shown = rng.random() < 0.5  # older deeds often omit the APN

    def deed(
        role: str, kind: str, grantor: str, grantee: str, parcel: Parcel, day: dt.date, **extra
    ) -> TitleInstrument:
        item = TitleInstrument(role, kind, rng.choice(TITLES[kind]), grantor, grantee, parcel, day, **extra)
        items.append(item)
        return item

    previous_vesting: TitleInstrument | None = None
    for index in range(periods):
        day = vest_dates[index]
        grantor, grantee = owners[index], owners[index + 1]
        way = ways[index]
        show_apn = day.year >= 1985 or apn_shown
        if way in ("sheriffs-deed", "trustees-deed"):
            lender = rng.choice(LENDERS)
            security_day = day - dt.timedelta(days=rng.randint(500, 1500))
            if previous_vesting is not None and security_day <= previous_vesting.date:
                security_day = previous_vesting.date + dt.timedelta(days=60)
            if way == "sheriffs-deed":
                deed("mortgage", "mortgage", grantor, lender, subject, security_day, secured_party=lender)
                sheriff = person(rng)
                case_no = f"{day.year - 1}-CV-{rng.randint(100, 9999):04d}"
                recital = (
                    f"WHEREAS, by a judgment of foreclosure entered in {lender} v. {grantor}, Case No. {case_no}, "
                    f"the Court ordered the mortgaged premises sold, and the premises were sold at public auction "
                    f"to {grantee}, the highest bidder, and the sale was confirmed;"
                )
                deed(
                    "vesting",
                    "sheriffs-deed",
                    f"{sheriff}, Sheriff of {subject.county} County, {subject.state}",
                    grantee,
                    subject,
                    day,
                    recital=recital,
                    signer=sheriff,
                    capacity="Sheriff",
                    show_apn=show_apn,
                )
            else:
                trustee = rng.choice(TRUSTEES)
                deed("deed-of-trust", "deed-of-trust", grantor, trustee, subject, security_day, secured_party=lender)
                recital = (
                    f"WHEREAS, {grantor}, as Trustor, executed a Deed of Trust for the benefit of {lender}; default "
                    f"occurred, notice of default and of sale was given as the law requires, and the property "
                    f"was sold at a trustee's sale to {grantee}, the highest bidder;"
                )
                deed(
                    "vesting",
                    "trustees-deed",
                    f"{trustee}, as Trustee",
                    grantee,
                    subject,
                    day,
                    recital=recital,
                    signer=person(rng),
                    capacity=rng.choice(("Vice President", "Assistant Secretary")),
                    show_apn=show_apn,
                )
        else:
            kind = (
                "quitclaim-deed"
                if way == "quitclaim-from-owner"
                else rng.choice(("warranty-deed", "warranty-deed", "special-warranty-deed"))
            )
            named = grantor
            if way in ("name-change", "merger") and index > 0:
                # The owner took title under its old name; it conveys under its new one.
                if looks_personal(grantor):
                    first, middle, _ = grantor.split()
                    new = f"{first} {middle} {rng.choice([n for n in LAST if n not in grantor])}"
                else:
                    new = successor_name(rng, grantor, used)
                named = (
                    f"{new}, formerly known as {grantor}"
                    if way == "name-change"
                    else f"{new}, successor by merger to {grantor}"
                )
            deed("vesting", kind, named, grantee, subject, day, show_apn=show_apn)
        previous_vesting = items[-1]

    vesting = [i for i in items if i.role == "vesting"]
    end_of_search = dt.date(2024, 9, 30)

    def between(a: dt.date, b: dt.date) -> dt.date:
        if (b - a).days < 60:
            return a + dt.timedelta(days=max(1, (b - a).days // 2))
        return a + dt.timedelta(days=rng.randint(30, (b - a).days - 30))

    def tenure(index: int) -> tuple[dt.date, dt.date, str]:
        a = vesting[index].date
        b = vesting[index + 1].date if index + 1 < len(vesting) else end_of_search
        return a, b, vesting[index].grantee

    if "corrective" in traps:
        index = rng.randrange(len(vesting))
        original = vesting[index]
        a, b, _ = tenure(index)
        day = between(a, min(b, a + dt.timedelta(days=500)))
        what = rng.choice(CORRECTIONS)
        corrective = deed(
            "corrective",
            "corrective-deed",
            original.grantor,
            original.grantee,
            subject,
            day,
            show_apn=original.show_apn,
        )
        corrective.corrects = original
        corrective.recital = (
            f"This deed is given to correct {what} in the deed between the same parties recorded as "
            "{original}, and is not a new conveyance."
        )
    if "wild" in traps:
        stranger, claimant = company_or_person(rng, used, 0.3), company_or_person(rng, used)
        index = rng.randrange(len(vesting))
        a, b, _ = tenure(index)
        deed(
            "wild",
            rng.choice(("quitclaim-deed", "quitclaim-deed", "warranty-deed")),
            stranger,
            claimant,
            subject,
            between(a, b),
            show_apn=rng.random() < 0.6,
        )
    if "adjoining" in traps or rng.random() < 0.5:
        for _ in range(1 if rng.random() < 0.6 else 2):
            day = dt.date(rng.randint(start.year, 2023), rng.randint(1, 12), rng.randint(1, 28))
            deed(
                "adjoining",
                rng.choice(("warranty-deed", "special-warranty-deed")),
                company_or_person(rng, used),
                company_or_person(rng, used),
                neighbour,
                day,
            )
    if "tax-lot" in traps:
        day = dt.date(rng.randint(start.year, 2023), rng.randint(1, 12), rng.randint(1, 28))
        deed("tax-lot", "warranty-deed", company_or_person(rng, used), company_or_person(rng, used), tax_lot, day)
    if "caption-two-parcels" in traps:
        day = dt.date(rng.randint(max(start.year, 1985), 2023), rng.randint(1, 12), rng.randint(1, 28))
        caption = (subject, neighbour) if rng.random() < 0.5 else (neighbour, subject)
        deed(
            "caption-two-parcels",
            rng.choice(("warranty-deed", "special-warranty-deed")),
            company_or_person(rng, used),
            company_or_person(rng, used),
            neighbour,
            day,
            caption=caption,
        )
    if "mortgage-easement" in traps or rng.random() < 0.5:
        for kind in rng.sample(("mortgage", "deed-of-trust", "easement"), rng.randint(1, 2)):
            index = rng.randrange(len(vesting))
            a, b, owner = tenure(index)
            if kind == "easement":
                deed("easement", "easement", owner, rng.choice(UTILITIES), subject, between(a, b))
            elif kind == "mortgage":
                lender = rng.choice(LENDERS)
                deed("mortgage", "mortgage", owner, lender, subject, between(a, b), secured_party=lender)
            else:
                lender = rng.choice(LENDERS)
                deed(
                    "deed-of-trust",
                    "deed-of-trust",
                    owner,
                    rng.choice(TRUSTEES),
                    subject,
                    between(a, b),
                    secured_party=lender,
                )

    for item in items:
        if not item.signer:
            if looks_personal(item.grantor):
                item.signer, item.capacity = item.grantor.split(",")[0], "Grantor"
            else:
                item.signer, item.capacity = person(rng), rng.choice(CAPACITIES)
    items.sort(key=lambda item: (item.date, item.role != "vesting"))
    stamp(rng, recorder, items)
    for item in items:
        if item.corrects is not None:
            item.recital = item.recital.replace("{original}", references_of(recorder, item.corrects)[0])
    return TitleHistory(subject, recorder, focus, items, traps_in(items))


def traps_in(items: Sequence[TitleInstrument]) -> tuple[str, ...]:
    """The trap kinds (FOCI) the instruments hold, in FOCI order."""
    found = set()
    for item in items:
        if item.role in ("corrective", "wild", "adjoining", "tax-lot", "caption-two-parcels"):
            found.add(item.role)
        elif item.role in ("mortgage", "deed-of-trust", "easement"):
            found.add("mortgage-easement")
        elif item.kind in ("sheriffs-deed", "trustees-deed"):
            found.add(item.kind)
        elif item.kind == "quitclaim-deed":
            found.add("quitclaim-from-owner")
        if ", formerly known as " in item.grantor:
            found.add("name-change")
        if ", successor by merger to " in item.grantor:
            found.add("merger")
    return tuple(name for name in FOCI if name in found)


def looks_personal(name: str) -> bool:
    """A person's name as `person` draws them: "First M. Last"."""
    parts = name.split(",")[0].split()
    return len(parts) == 3 and len(parts[1]) == 2 and parts[1].endswith(".")


def stamp(rng: random.Random, recorder: RecorderStyle, items: list[TitleInstrument]) -> None:
    """Recording times and references, growing with time as a recorder's do; distinct in the packet."""
    seen: set[str] = set()
    last = dt.datetime(1900, 1, 1)
    for item in items:
        when = dt.datetime.combine(
            item.date + dt.timedelta(days=rng.randint(1, 30)),
            dt.time(rng.randint(8, 16), rng.randint(0, 59), rng.randint(0, 59)),
        )
        if when <= last:
            when = last + dt.timedelta(days=1)
        last = when
        days = (when.date() - dt.date(1950, 1, 1)).days
        while True:
            if "{year}" in recorder.number_format:
                serial = when.timetuple().tm_yday * 40 + rng.randint(0, 39)
            else:
                serial = days * 40 + rng.randint(0, 39)
            number = recorder.number_format.format(year=when.year, serial=serial) if recorder.number_label else ""
            book, page = 100 + days // 20, (days % 20) * 40 + rng.randint(1, 39)
            key = f"{number}|{book}|{page}"
            if key not in seen:
                seen.add(key)
                break
        item.recorded, item.number, item.book, item.page = when, number, book, page


# -- instruments as documents --------------------------------------------------------------------


def parcel_paragraphs(item: TitleInstrument) -> list[str]:
    out = [item.parcel.description]
    if item.show_apn:
        out.append(f"Tax Parcel No.: {item.parcel.apn}")
    return out


def granting_clause(item: TitleInstrument, form: str, consideration: str) -> list[str]:
    verb = VERBS[item.kind]
    grantor, grantee = item.grantor, item.grantee
    where = f"{item.parcel.county} County, {item.parcel.state}"
    if form == "comma":
        return [
            f"{grantor}, Grantor, for and in consideration of {consideration}, {verb} to {grantee}, Grantee, the "
            f"following described real property situated in {where}:"
        ]
    if form == "presents":
        return [
            f'KNOW ALL PERSONS BY THESE PRESENTS, that {grantor} ("Grantor"), for {consideration}, {verb} unto '
            f'{grantee} ("Grantee"), and Grantee\'s successors and assigns forever, the real property in {where} '
            "described as:"
        ]
    if form == "labels":
        return [
            f"GRANTOR: {grantor}",
            f"GRANTEE: {grantee}",
            f"For {consideration}, Grantor {verb} to Grantee the following real property in {where}:",
        ]
    if form == "between":
        return [
            f"THIS DEED is made {long_date(item.date)} between {grantor}, as grantor, and {grantee}, as grantee. "
            f"WITNESSETH, that the grantor, for {consideration}, {verb} to the grantee the land in {where} "
            "described as follows:"
        ]
    if form == "defined":
        return [
            f'{grantor} (the "Grantor") hereby {verb} to {grantee} (the "Grantee"), for {consideration}, '
            f"the following described property located in {where}:"
        ]
    return [
        f"Grantor: {grantor}. Grantee: {grantee}. Consideration: {consideration}.",
        f"Grantor {verb} to Grantee the real property in {where} described below:",
    ]


def body_of(item: TitleInstrument, form: str, rng: random.Random) -> list[str]:
    consideration = rng.choice(CONSIDERATIONS)
    body: list[str] = []
    if item.caption:
        body.append("Re: Tax Parcel Nos. " + " and ".join(p.apn for p in item.caption))
    if item.kind == "mortgage":
        return body + [
            f"{item.grantor}, Mortgagor, mortgages and warrants to {item.grantee}, Mortgagee, the real property "
            f"described below, to secure the payment of a promissory note of even date in the principal sum of "
            f"${rng.randint(40, 900) * 1000:,}:",
            *parcel_paragraphs(item),
            "This mortgage is a lien on the property until the note is paid; it conveys no title to the Mortgagee.",
        ]
    if item.kind == "deed-of-trust":
        return body + [
            f"{item.grantor}, as Trustor, irrevocably grants to {item.grantee}, as Trustee, in trust, with power of "
            f"sale, for the benefit of {item.secured_party}, as Beneficiary, the real property described below, as "
            f"security for a loan of ${rng.randint(40, 900) * 1000:,}:",
            *parcel_paragraphs(item),
        ]
    if item.kind == "easement":
        return body + [
            f"{item.grantor}, Grantor, grants to {item.grantee}, Grantee, a perpetual non-exclusive easement ten feet "
            "wide along the rear line of the property described below, for the installation and maintenance of "
            "underground utility lines, for good and valuable consideration:",
            *parcel_paragraphs(item),
            "Grantor keeps the fee title and every use of the easement area that does not interfere with the easement.",
        ]
    if item.recital:
        body.append(item.recital)
    body += granting_clause(item, form, consideration)
    body += parcel_paragraphs(item)
    if item.kind == "special-warranty-deed":
        body.append(
            "Grantor warrants title only against the lawful claims of persons claiming by, through or under Grantor."
        )
    body.append(
        "SUBJECT TO easements, restrictions and reservations of record, and general taxes for the current year."
    )
    return body


def to_instrument(item: TitleInstrument, template_name: str, recorder: RecorderStyle, rng: random.Random) -> Instrument:
    """The recorded instrument, laid out by its law firm's template and stamped by the recorder."""
    chosen = template(template_name)
    form = DEED_FORMS[template_name]
    role = {"mortgage": "MORTGAGOR", "deed-of-trust": "TRUSTOR"}.get(item.kind, "GRANTOR")
    party = item.grantor.split(", formerly known as")[0].split(", successor by merger to")[0]
    if item.kind == "sheriffs-deed":
        party = item.grantor
    signature = Signature(role, party, item.signer, item.capacity, "ink")
    expires = item.date + dt.timedelta(days=rng.randint(200, 1400))
    acknowledgment = Acknowledgment(
        recorder.state,
        recorder.county,
        item.signer,
        item.capacity,
        person(rng),
        item.date,
        expires,
        f"{rng.randint(100000, 999999)}",
        "ink",
    )
    recording = Recording(item.number, item.book, item.page, item.recorded, recording_fee(rng))
    return_to = [
        "When recorded, return to:",
        item.secured_party or item.grantee,
        f"{rng.randint(100, 9999)} {rng.choice(('Oak', 'Main', 'Harbor', 'Depot', 'Mill'))} Street",
    ]
    return Instrument(
        kind=item.kind,
        title=item.title,
        scenario="recorded",
        template=chosen,
        recorder=recorder,
        date=item.date,
        return_to=return_to,
        body=body_of(item, form, rng),
        witness_clause=chosen.witness_clause.format(party=party, date=long_date(item.date)),
        signatures=[signature],
        acknowledgments=[acknowledgment],
        recording=recording,
        apn=item.parcel.apn,
    )


@dataclass(frozen=True)
class RenderedPacket:
    packet: Packet
    scanned: tuple[bool, ...]  # per instrument, in packet order
    cover_errors: tuple[str, ...]
    scan_pages: tuple[PageScan, ...] = ()  # archival scans' pages, numbered within the packet

    @property
    def pdf(self) -> bytes:
        return self.packet.pdf


def cover_of(history: TitleHistory, style: CoverStyle, rng: random.Random) -> tuple[Cover, tuple[str, ...]]:
    """The abstractor's index: every instrument, sometimes with one left out or one reference mistyped."""
    entries = []
    for item in history.instruments:
        entries.append(
            IndexEntry(
                index_title(item.title),
                item.recorded.date(),
                references_of(history.recorder, item)[0],
                item.grantor,
                item.grantee,
            )
        )
    errors = []
    if len(entries) > 3 and rng.random() < 0.2:
        index = rng.randrange(1, len(entries))
        entries.pop(index)
        errors.append("omitted-instrument")
    if rng.random() < 0.2:
        index = rng.randrange(len(entries))
        entry = entries[index]
        digits = [i for i, ch in enumerate(entry.reference) if ch.isdigit()]
        at = digits[-1]
        wrong = (
            entry.reference[:at] + str((int(entry.reference[at]) + rng.randint(1, 8)) % 10) + entry.reference[at + 1 :]
        )
        entries[index] = IndexEntry(entry.title, entry.recorded, wrong, entry.grantor, entry.grantee)
        errors.append("mistyped-reference")
    cover = Cover(
        style,
        history.subject.description,
        history.subject.apn,
        tuple(entries),
        f"{rng.choice('ABCDEHKT')}{rng.randint(10000, 99999)}",
        dt.date(2024, 10, rng.randint(1, 28)),
    )
    return cover, tuple(errors)


def index_title(title: str) -> str:
    """ "DEED OF TRUST" as an index lists it: "Deed of Trust"."""
    small = {"of", "and", "on", "upon"}
    words = [word.lower() if word.lower() in small else word.capitalize() for word in title.split()]
    return " ".join(words)


def render_packet(
    history: TitleHistory,
    seed: int,
    *labels: str | int,
    templates: Sequence[str],
    cover: CoverStyle,
    scan: Callable[[int], bool],
    group4: bool = False,
    archival: bool = False,
) -> RenderedPacket:
    """The packet PDF: the cover page, then every instrument of the history in recording order,
    each laid out by one of `templates` and scanned when `scan(its index)` is true (`group4`:
    render_instrument's; `archival` too, each scanned page's record numbered within the packet)."""
    rng = make_random(seed, *labels, "packet")
    parts = []
    scanned = []
    scan_pages = []
    for index, item in enumerate(history.instruments):
        instrument = to_instrument(item, templates[rng.randrange(len(templates))], history.recorder, rng)
        is_scanned = scan(index)
        rendered = render_instrument(instrument, seed, *labels, index, scanned=is_scanned, group4=group4, archival=archival)
        parts.append(rendered.pdf)
        scan_pages.append(rendered.scan_pages)
        scanned.append(is_scanned)
    # The index draws from a stream of its own, so it can be rebuilt without rendering the packet.
    cover_page, errors = cover_of(history, cover, make_random(seed, *labels, "cover"))
    packet = assemble_packet(render_cover(cover_page), parts)
    in_packet = tuple(replace(page, page=first + page.page - 1)
                      for (first, _last), pages in zip(packet.instrument_pages, scan_pages, strict=True) for page in pages)
    return RenderedPacket(packet, tuple(scanned), errors, in_packet)
