"""Synthetic contracts with an environmental indemnity, as `Instrument`s rendered to PDF.

    rng = make_random(SEED, "dev", "it-dev-0007")
    contract = sample_contract(rng, "dev", contract_template("ashcombe-vries"), "unrecorded", "purchase-and-sale")
    rendered = render_instrument(contract.instrument, SEED, "dev", "it-dev-0007")
    contract.terms                                     # the truth: parties, scope, cap, basket, ...

Two forms: a purchase and sale agreement whose environmental indemnity is one article among
unrelated ones (definitions, price and deposit, closing, title, inspections, representations,
brokers, limitations, survival, miscellaneous), and a stand-alone environmental indemnity
agreement delivered at a closing (recitals naming the purchase agreement, its price and closing
date). Each term of the indemnity is written in one of several drafting styles, and the styles of
the dev split never occur in the test split (`WORDING[term][split]`), nor do its law-firm
templates (`CONTRACT_SPLITS`) or its defined terms for the parties ("Seller"/"Buyer" in dev,
"Vendor"/"Purchaser" and "Indemnified Party" in test).

Traps, each recorded in `ContractTerms.traps` when the contract sets it:

    percent-cap            the cap is a percentage of the purchase price (the answer is dollars)
    cross-reference        the cap or basket amount is only in the definitions ("as defined in
                           Section 1.1")
    rep-cap-elsewhere      a cap on claims for breach of representations, stated not to apply to
                           the environmental indemnity
    other-survival         a survival period for another article (brokers, representations)
    general-survival       a general survival clause that a "notwithstanding" sentence of the
                           indemnity article displaces
    notwithstanding-scope  the indemnity reads wide; a later "notwithstanding" sentence narrows it
    access-indemnity       the buyer indemnifies the seller for its inspections (the other way round)
    brokers-indemnity      each party indemnifies the other against brokers' claims
    disclosure-schedule    a schedule of environmental reports (not of indemnified matters)
    benign-notice          a notice clause that forfeits nothing (no late-notice exclusion)
    parent-indemnitor      the indemnitor is the seller's parent, not the seller
    lender-named           the buyer's lender is named (it is not the indemnitee)
    deposit-amount         an earnest-money deposit stated in dollars
    signing-before-closing the agreement is dated months before its closing date

Execution follows the instruments' scenarios (envirobench_synth.legal.instruments): signed in
ink ("unrecorded"), conformed ("conformed-unrecorded"), recorded with acknowledgments (a few
stand-alone agreements), or not executed: a draft marker, bracketed blanks, an unsigned
"Execution Version", one party's line left blank ("covenant-missing-signature", whatever the
kind). `EXECUTED` says which of them count as executed for the indemnity-terms benchmark.
"""

from __future__ import annotations

import calendar
import datetime as dt
import random
from dataclasses import dataclass, field

from .families import RecorderStyle, Template
from .instruments import (
    CAPACITIES,
    DRAFT_MARKERS,
    LENDERS,
    Acknowledgment,
    Instrument,
    Signature,
    long_date,
    person,
    sample_recording,
)

SCOPES = ("scheduled-matters-only", "breach-of-representations", "pre-closing-conditions", "all-environmental-liabilities")
EXCLUSIONS = ("buyer-initiated-testing", "change-to-residential-use", "late-notice", "risk-based-remedy")
FORMS = ("purchase-and-sale", "indemnity-agreement")
# The instrument scenarios a contract may show, and whether each is an executed contract here: a
# conformed copy records that the parties signed (a closing set), so its terms bind.
EXECUTED = {
    "unrecorded": True,
    "conformed-unrecorded": True,
    "recorded": True,
    "draft-marker": False,
    "bracketed-blanks": False,
    "execution-version-unsigned": False,
    "covenant-missing-signature": False,
}
LATEST_AS_OF = dt.date(2026, 10, 31)

# -- families: law-firm contract templates, split between dev and test -------------------------------


def _template(name: str, font: str, size: float, line: str, label: str, witness: str, blank: str, footer: str,
              prepared: str) -> Template:
    return Template(
        name, font, size, line, label, witness, blank,
        "This instrument was acknowledged before me on {date} by {signer}, as {capacity}.",
        "This instrument was acknowledged before me on ______________ by ____________________, as ______________.",
        "Notary Public", "My commission expires:", footer, False, prepared,
    )


CONTRACT_TEMPLATES: tuple[Template, ...] = (
    _template("ashcombe-vries", "Times", 10.0, "rule", "By:",
              "IN WITNESS WHEREOF, the parties have executed this Agreement as of {date}.",
              "IN WITNESS WHEREOF, the parties have executed this Agreement as of ____________, 20__.",
              "Page {page} of {pages}", "Ashcombe & Vries LLP - Real Estate Group"),
    _template("tillman-oduya", "Helvetica", 9.0, "underscore", "Authorized Signature",
              "EXECUTED by the parties on {date}.",
              "EXECUTED by the parties on the ___ day of __________, 20__.",
              "", "Tillman Oduya PLLC"),
    _template("fairlie-brandt", "Courier", 10.0, "underscore", "Name:",
              "Signed as of {date}.",
              "Signed as of [__________], 20[__].",
              "- {page} -", "FAIRLIE BRANDT LLP"),
    _template("corvino-haight", "Times", 10.5, "rule", "Its:",
              "WITNESS the execution hereof by the parties as of {date}.",
              "WITNESS the execution hereof by the parties as of the ____ day of ____________, 20__.",
              "{page}", "Corvino Haight, P.C."),
    _template("lindgren-moss", "Helvetica", 9.5, "rule", "Signed:",
              "The parties have caused this Agreement to be duly executed effective {date}.",
              "The parties have caused this Agreement to be duly executed effective ______________, 20__.",
              "Page {page}", "Lindgren Moss Real Estate Counsel"),
    _template("ruiz-abernethy", "Courier", 10.0, "rule", "Title:",
              "AGREED AND EXECUTED on {date}.",
              "AGREED AND EXECUTED on the ___ day of ___________, 20__.",
              "[{page}/{pages}]", "Ruiz Abernethy & Partners"),
)
DEV_CONTRACT_TEMPLATES = ("ashcombe-vries", "tillman-oduya", "fairlie-brandt")
TEST_CONTRACT_TEMPLATES = ("corvino-haight", "lindgren-moss", "ruiz-abernethy")
CONTRACT_SPLITS = {"dev": DEV_CONTRACT_TEMPLATES, "test": TEST_CONTRACT_TEMPLATES}
# How each template numbers the agreement's parts: "article" (ARTICLE 8 / Section 8.1) or
# "section" (Section 8 / Section 8(a)).
NUMBERING = {"ashcombe-vries": "article", "tillman-oduya": "section", "fairlie-brandt": "article",
             "corvino-haight": "section", "lindgren-moss": "article", "ruiz-abernethy": "section"}


def contract_template(name: str) -> Template:
    for item in CONTRACT_TEMPLATES:
        if item.name == name:
            return item
    raise KeyError(f"no contract template {name!r}")


# -- parties ------------------------------------------------------------------------------------------

SELLERS = ("Redfern Petroleum Company", "Northgate Fuel Distributors, Inc.", "Cedar Point Terminals, Inc.",
           "Sutter Row Cleaners, Inc.", "Ironwood Rail Services Company", "Granite Ridge Development Corp.",
           "Old Mill Realty Trust", "Tamarack Plating Works, Inc.", "Bluewater Marine Fuels, L.L.C.",
           "Halsey Chemical Distribution Co.", "Prairie Line Grain & Feed LLC", "Eastbank Industrial Partners, L.P.")
BUYERS = ("Blue Heron Holdings, LLC", "Kestrel Land Partners LP", "Willowbank Properties LLC", "Harbor Lane Investors LLC",
          "Mesa Verde Storage LLC", "Alderbrook Acquisitions, LLC", "Fernleaf Logistics Parks, Inc.",
          "Quarry Street Ventures LLC", "Stonecrest Retail Fund II, L.P.", "Larkfield Housing Partners LLC")
PARENT_SUFFIXES = ("Holdings, Inc.", "Group, Inc.", "Enterprises Corp.")
CONSULTANTS = ("Terracon Environmental Associates", "Brightwater Geosciences, Inc.", "Kellerman Site Services LLC")
STATES = ("Delaware", "Oregon", "Washington", "Colorado", "Kentucky", "Wisconsin", "Florida", "Texas")
ENTITY_KINDS = {"LLC": "limited liability company", "L.L.C.": "limited liability company", "Inc.": "corporation",
                "Corp.": "corporation", "Company": "corporation", "Co.": "corporation", "L.P.": "limited partnership",
                "LP": "limited partnership", "Trust": "business trust"}

# Defined terms for the parties: (seller, buyer) in a purchase agreement, (indemnitor, indemnitee)
# in a stand-alone agreement.
ROLE_TERMS = {
    "dev": {"purchase-and-sale": (("Seller", "Buyer"),), "indemnity-agreement": (("Indemnitor", "Indemnitee"),)},
    "test": {"purchase-and-sale": (("Vendor", "Purchaser"), ("Seller", "Purchaser")),
             "indemnity-agreement": (("Indemnitor", "Indemnified Party"),)},
}
TITLES = {
    "dev": {"purchase-and-sale": ("PURCHASE AND SALE AGREEMENT", "AGREEMENT OF PURCHASE AND SALE"),
            "indemnity-agreement": ("ENVIRONMENTAL INDEMNITY AGREEMENT",)},
    "test": {"purchase-and-sale": ("REAL ESTATE PURCHASE AGREEMENT", "CONTRACT OF SALE"),
             "indemnity-agreement": ("ENVIRONMENTAL INDEMNIFICATION AGREEMENT", "AGREEMENT OF ENVIRONMENTAL INDEMNITY")},
}

# -- drafting styles of each term: WORDING[term][split] -------------------------------------------------
# Fields filled in: {I} indemnitor's defined term, {E} indemnitee's, {L} the defined word for losses,
# {sec} the indemnity's section, {art} its article, {sched} the schedule, {rep} the environmental
# representation, {amount}, {pct}, {n}, {n_words}, {y}, {y_words}, {nth}, {days}, {narrow}, {general}.

WORDING: dict[str, dict[str, tuple[str, ...]]] = {
    "lead": {
        "dev": ("{I} shall indemnify, defend and hold harmless {E} from and against any and all {L} {scope}.",
                "{I} hereby agrees to indemnify and hold {E} harmless from all {L} {scope}."),
        "test": ("{I} shall protect, defend, indemnify and save harmless {E} and its affiliates from and against all {L} {scope}.",
                 "{E} shall be indemnified and held harmless by {I} against any and all {L} {scope}."),
    },
    "pre-closing-conditions": {
        "dev": ("arising from the presence of any Hazardous Substances at, on or under the Property prior to the Closing Date",
                "arising out of any environmental condition of the Property existing on or before the Closing, whether "
                "discovered before or after the Closing"),
        "test": ("to the extent attributable to any Release of Hazardous Substances at the Property that occurred before the Closing",
                 "resulting from environmental conditions first existing during {I}'s ownership of the Property and prior to "
                 "the Closing Date"),
    },
    "scheduled-matters-only": {
        "dev": ("arising from the environmental conditions described on {sched} (the \"Scheduled Matters\"), and from no other "
                "environmental condition",
                "arising from the Scheduled Environmental Matters listed in {sched}, and only those matters"),
        "test": ("solely to the extent arising from the Identified Conditions set forth in {sched}; {I} has no obligation "
                 "hereunder for any other condition",
                 "in respect of the Disclosed Contamination identified in {sched} and no other matter"),
    },
    "breach-of-representations": {
        "dev": ("arising from any breach of or inaccuracy in the environmental representations and warranties of {I} set forth "
                "in {rep}",
                "by reason of any representation of {I} in {rep} (Environmental Matters) being untrue"),
        "test": ("resulting from any misrepresentation in, or breach of, the environmental warranties of {I} contained in {rep}",
                 "to the extent caused by the inaccuracy, when made, of any statement of {I} in {rep}"),
    },
    "all-environmental-liabilities": {
        "dev": ("arising under Environmental Laws with respect to the Property, whether arising or existing before or after "
                "the Closing",
                "relating to any Hazardous Substances at, on, under or migrating from the Property, regardless of when such "
                "condition arose"),
        "test": ("in any way relating to the environmental condition of the Property, whenever arising",
                 "arising under any Environmental Law in connection with the Property, whether the condition existed prior "
                 "to, on or after the Closing Date"),
    },
    "narrowing": {
        "dev": ("Notwithstanding anything to the contrary in {sec}, the obligations of {I} under {sec} shall be limited to {narrow}.",),
        "test": ("{sec} notwithstanding, {I} shall have liability thereunder solely for {narrow}.",),
    },
    "narrow-scheduled-matters-only": {
        "dev": ("the Scheduled Matters described in {sched}",),
        "test": ("the conditions identified in {sched}",),
    },
    "narrow-breach-of-representations": {
        "dev": ("{L} resulting from a breach of the representations and warranties of {I} in {rep}",),
        "test": ("{L} caused by an untrue warranty of {I} in {rep}",),
    },
    "narrow-pre-closing-conditions": {
        "dev": ("conditions existing at the Property on or before the Closing Date",),
        "test": ("contamination present at the Property as of the Closing",),
    },
    "cap": {
        "dev": ("In no event shall the aggregate liability of {I} under {sec} exceed {amount}.",
                "The total liability of {I} under {sec} shall be limited to {amount} in the aggregate."),
        "test": ("The maximum aggregate amount payable by {I} under {sec} is {amount}.",
                 "The obligations of {I} under {sec} are capped at {amount} in the aggregate."),
    },
    "cap-percent": {
        "dev": ("In no event shall the aggregate liability of {I} under {sec} exceed an amount equal to {pct_words} percent "
                "({pct}%) of the Purchase Price.",),
        "test": ("The aggregate liability of {I} under {sec} shall be capped at {pct}% of the Purchase Price.",),
    },
    "cap-defined": {
        "dev": ("In no event shall the aggregate liability of {I} under {sec} exceed the Environmental Cap (as defined in "
                "Section 1.1).",),
        "test": ("Amounts payable by {I} under {sec} shall not in the aggregate exceed the Indemnity Ceiling (as defined in "
                 "Section 1.1).",),
    },
    "cap-definition": {
        "dev": ("\"Environmental Cap\" means {amount}.",),
        "test": ("\"Indemnity Ceiling\" means the sum of {amount}.",),
    },
    "uncapped": {
        "dev": ("The obligations of {I} under {sec} are not subject to any limitation as to amount.",),
        "test": ("No monetary limit applies to the liability of {I} under {sec}.",),
    },
    "deductible": {
        "dev": ("{I} shall have no liability under {sec} until the aggregate amount of {L} thereunder exceeds {amount}, and "
                "then only for the amount of {L} in excess of {amount}.",
                "{I} shall be liable under {sec} only to the extent the aggregate {L} exceed {amount} (the \"Deductible\"), "
                "and only for such excess."),
        "test": ("{E} shall bear the first {amount} of {L}, and the obligations of {I} under {sec} shall apply only to {L} "
                 "in excess thereof.",
                 "No amount is payable under {sec} except to the extent that the aggregate of all {L} exceeds {amount}, in "
                 "which case only the excess is recoverable."),
    },
    "tipping": {
        "dev": ("{I} shall have no liability under {sec} until the aggregate amount of {L} thereunder exceeds {amount}, "
                "whereupon {I} shall be liable for all such {L} from the first dollar.",
                "Once the aggregate {L} exceed {amount} (the \"Threshold\"), {I} shall be liable for the full amount of all "
                "{L}, and not merely the excess."),
        "test": ("If the aggregate of all {L} exceeds {amount}, {I} shall be responsible for the entire amount thereof, "
                 "including the first {amount}.",
                 "{I} is not required to make any payment under {sec} unless the aggregate of {L} exceeds {amount}, in "
                 "which event {I} shall pay all {L} back to the first dollar."),
    },
    "basket-defined": {
        "dev": ("{I} shall have no liability under {sec} until the aggregate amount of {L} thereunder exceeds the Basket "
                "Amount (as defined in Section 1.1), {tail}.",),
        "test": ("No payment is due under {sec} until the aggregate {L} exceed the Threshold Amount (as defined in Section "
                 "1.1), {tail}.",),
    },
    "basket-tail-deductible": {
        "dev": ("and then only for the amount of {L} in excess of the Basket Amount",),
        "test": ("and then only for the excess over the Threshold Amount",),
    },
    "basket-tail-tipping": {
        "dev": ("whereupon {I} shall be liable for all such {L} from the first dollar",),
        "test": ("whereupon all {L}, including the Threshold Amount, shall be payable",),
    },
    "basket-definition": {
        "dev": ("\"Basket Amount\" means {amount}.",),
        "test": ("\"Threshold Amount\" means the sum of {amount}.",),
    },
    "de-minimis": {
        "dev": ("No claim for an individual matter involving {L} of less than {amount} may be asserted under {sec}, and such "
                "claims shall not be counted toward any threshold.",
                "{I} shall not be liable for any single claim of less than {amount} (a \"De Minimis Claim\")."),
        "test": ("Any claim (or series of related claims) for less than {amount} shall be disregarded for all purposes of {sec}.",
                 "Individual items of {L} below {amount} are excluded from recovery hereunder."),
    },
    "survival-months": {
        "dev": ("The obligations of {I} under {sec} shall survive the Closing for a period of {n_words} ({n}) months.",
                "{sec} shall survive the Closing until the date that is {n} months after the Closing Date, and no claim may "
                "be made thereunder after such date."),
        "test": ("Claims under {sec} must be asserted within {n} months following the Closing, after which the obligations of "
                 "{I} thereunder shall terminate.",),
    },
    "survival-years": {
        "dev": ("The obligations of {I} under {sec} shall survive the Closing for a period of {y_words} ({y}) years.",),
        "test": ("The liability of {I} under {sec} shall expire on the {nth} anniversary of the Closing Date.",),
    },
    "survival-unlimited": {
        "dev": ("The obligations of {I} under {sec} shall survive the Closing without limitation as to time.",),
        "test": ("{sec} shall survive the Closing indefinitely and shall not merge into the deed.",),
    },
    "general-survival": {
        "dev": ("Except as otherwise expressly provided in this Agreement, the representations, warranties and indemnities of "
                "the parties shall survive the Closing for {n_words} ({n}) months.",),
        "test": ("Save as otherwise provided herein, all representations, warranties and indemnities herein survive Closing "
                 "for {n} months only.",),
    },
    "override-survival": {
        "dev": ("Notwithstanding {general}, ",),
        "test": ("{general} notwithstanding, ",),
    },
    "other-survival": {
        "dev": ("The provisions of {other} shall survive the Closing for a period of {n_words} ({n}) months.",),
        "test": ("The covenants in {other} survive Closing for {n} months.",),
    },
    "buyer-initiated-testing": {
        "dev": ("{I} shall have no obligation under {sec} with respect to any condition first discovered as a result of a "
                "Phase II environmental site assessment or other invasive testing of the Property initiated by {E} after "
                "the Closing, unless such testing is required by Environmental Law or a Governmental Authority.",),
        "test": ("Excluded from the obligations of {I} are {L} arising from any sampling, drilling or other intrusive "
                 "investigation of the Property undertaken by or at the request of {E}, except as compelled by a "
                 "governmental agency.",),
    },
    "change-to-residential-use": {
        "dev": ("{I} shall have no liability for {L} to the extent resulting from a change in the use of the Property to "
                "residential use.",),
        "test": ("{I} shall not be responsible for any {L} that would not have been incurred but for the conversion of the "
                 "Property to residential, school, day-care or other sensitive use.",),
    },
    "late-notice": {
        "dev": ("{E} shall give {I} written notice of any claim under {sec} within {days} days after {E} first becomes aware "
                "of it, and {I} shall have no liability for any claim of which notice is not given within such period.",),
        "test": ("No claim may be made under {sec} unless {E} delivers a written claim notice on or before the {days}th day "
                 "following its discovery of the matter; a claim not so noticed is waived.",),
    },
    "risk-based-remedy": {
        "dev": ("{I} shall have the right to control any Remediation and to select the remedy, and may achieve risk-based "
                "cleanup standards applicable to commercial or industrial property through institutional controls and "
                "engineering controls; {I} shall have no liability for the cost of achieving any more stringent standard.",),
        "test": ("Any Remedial Work shall be performed to the least stringent standards permitted by the Governmental "
                 "Authority for non-residential property, including by means of deed restrictions, and {I} shall select "
                 "the method of Remedial Work in its sole discretion.",),
    },
    "benign-notice": {
        "dev": ("{E} shall promptly notify {I} of any claim under {sec}; provided that the failure to give such notice shall "
                "not relieve {I} of its obligations except to the extent {I} is materially prejudiced thereby.",),
        "test": ("A delay by {E} in giving notice of a claim shall not release {I} from its obligations hereunder, except to "
                 "the extent of actual prejudice.",),
    },
    "rep-cap": {
        "dev": ("The aggregate liability of {S} for breaches of its representations and warranties in {reps} shall not "
                "exceed {amount}; provided, however, that this limitation shall not apply to the obligations of {S} under "
                "{art}.",),
        "test": ("The limitation in this Section on claims for breach of warranty shall not limit or apply to the indemnity in "
                 "{art}; claims for breach of warranty shall not exceed {amount} in the aggregate.",),
    },
    "losses": {"dev": ("Losses",), "test": ("Environmental Costs", "Claims")},
}
# The losses word of each lead: a passive or "protect" lead in test uses its own.


def words(n: int) -> str:
    """A whole number in words, as a contract spells it ("two hundred fifty thousand")."""
    ones = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
            "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
    tens = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
    if n < 20:
        return ones[n]
    if n < 100:
        return tens[n // 10] + ("" if n % 10 == 0 else "-" + ones[n % 10])
    if n < 1000:
        return ones[n // 100] + " hundred" + ("" if n % 100 == 0 else " " + words(n % 100))
    for size, name in ((1_000_000_000, "billion"), (1_000_000, "million"), (1000, "thousand")):
        if n >= size:
            return words(n // size) + f" {name}" + ("" if n % size == 0 else " " + words(n % size))
    raise AssertionError(n)


def ordinal_word(n: int) -> str:
    return ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")[n - 1]


def money(rng: random.Random, amount: int, split: str) -> str:
    """$250,000, or the amount in words with the figure, as drafters write it."""
    figure = f"${amount:,}"
    if rng.random() < 0.4:
        spelled = words(amount).title()
        return f"{spelled} Dollars ({figure})" if split == "dev" else f"{spelled} and No/100 Dollars ({figure})"
    return figure


def add_months(day: dt.date, months: int) -> dt.date:
    """`day` plus whole months: the same day of the month, or the last day of a shorter month."""
    index = day.month - 1 + months
    year, month = day.year + index // 12, index % 12 + 1
    return dt.date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


# -- the truth ------------------------------------------------------------------------------------------


@dataclass
class ContractTerms:
    """What the contract's environmental indemnity says (and the facts it is read against)."""

    form: str
    indemnitor: str
    indemnitee: str
    scope: str
    cap: int | None
    basket: tuple[str, int] | None  # (type, amount)
    de_minimis: int | None
    survival_months: int | None
    closing_date: dt.date
    as_of: dt.date
    exclusions: tuple[str, ...]
    executed: bool
    purchase_price: int
    traps: list[str] = field(default_factory=list)

    @property
    def survival_end(self) -> dt.date | None:
        return None if self.survival_months is None else add_months(self.closing_date, self.survival_months)


@dataclass
class Contract:
    instrument: Instrument
    terms: ContractTerms


class Numbering:
    """Section references in a template's style: Article 8 / Section 8.1, or Section 8 / Section 8(a)."""

    def __init__(self, style: str) -> None:
        self.style = style

    def heading(self, number: int, name: str) -> str:
        return f"ARTICLE {number} - {name.upper()}" if self.style == "article" else f"SECTION {number}. {name.upper()}"

    def article(self, number: int) -> str:
        return f"Article {number}" if self.style == "article" else f"Section {number}"

    def sub(self, number: int, index: int) -> str:
        return f"{number}.{index}" if self.style == "article" else f"{number}({'abcdefghij'[index - 1]})"

    def section(self, number: int, index: int) -> str:
        return f"Section {self.sub(number, index)}"


def entity_description(name: str, rng: random.Random) -> str:
    kind = next((kind for suffix, kind in ENTITY_KINDS.items() if name.rstrip(".").endswith(suffix.rstrip("."))), "corporation")
    return f"a {rng.choice(STATES)} {kind}"


def draw_terms(rng: random.Random, form: str, execution: str) -> ContractTerms:
    seller = rng.choice(SELLERS)
    buyer = rng.choice(BUYERS)
    indemnitor, traps = seller, []
    if form == "indemnity-agreement" and rng.random() < 0.4:
        indemnitor = f"{seller.split()[0]} {rng.choice(('Energy', 'Industries', 'Capital'))} {rng.choice(PARENT_SUFFIXES)}"
        traps.append("parent-indemnitor")
    weights = (0.2, 0.25, 0.35, 0.2) if form == "purchase-and-sale" else (0.15, 0.1, 0.4, 0.35)
    scope = rng.choices(SCOPES, weights)[0]
    price = rng.randint(16, 480) * 50_000
    roll = rng.random()
    cap = None
    if roll < 0.4:
        cap = rng.choice((250_000, 500_000, 750_000, 1_000_000, 1_500_000, 2_000_000, 3_000_000))
    elif roll < 0.65:
        cap = price * rng.choice((10, 15, 20, 25, 50)) // 100
        traps.append("percent-cap")
    roll = rng.random()
    amount = rng.choice((25_000, 50_000, 75_000, 100_000, 150_000, 250_000))
    basket = None if roll < 0.45 else ("deductible", amount) if roll < 0.75 else ("tipping", amount)
    de_minimis = rng.choice((5_000, 10_000, 15_000, 25_000)) if rng.random() < 0.4 else None
    survival = None if rng.random() < 0.2 else rng.choice((12, 18, 24, 30, 36, 48, 60))
    exclusions = tuple(name for name in EXCLUSIONS if rng.random() < 0.3)
    closing = dt.date(rng.randint(2009, 2023), rng.randint(1, 12), rng.randint(1, 28))
    as_of = min(add_months(closing, rng.randint(3, 100)), LATEST_AS_OF)
    return ContractTerms(form, indemnitor, buyer, scope, cap, basket, de_minimis, survival, closing, as_of, exclusions,
                         EXECUTED[execution], price, traps)


# -- the document -------------------------------------------------------------------------------------


class Drafter:
    """Writes one contract's paragraphs in its split's drafting styles."""

    def __init__(self, rng: random.Random, split: str, terms: ContractTerms, numbering: Numbering, context: dict[str, str]):
        self.rng, self.split, self.terms, self.numbering, self.context = rng, split, terms, numbering, context

    def say(self, term: str, **extra: str) -> str:
        text = self.rng.choice(WORDING[term][self.split])
        return text.format(**{**self.context, **extra})

    def money(self, amount: int) -> str:
        return money(self.rng, amount, self.split)


def indemnity_article(d: Drafter, number: int, general_survival: str | None) -> tuple[list[str], list[str]]:
    """The environmental indemnity's paragraphs, and definitions it adds to Section 1.1."""
    t, rng, n = d.terms, d.rng, d.numbering
    definitions: list[str] = []
    sub = iter(range(1, 20))
    out = [n.heading(number, "Environmental Indemnity")]
    narrowed = t.scope != "all-environmental-liabilities" and rng.random() < 0.25
    wide = rng.choice([s for s in SCOPES if SCOPES.index(s) > SCOPES.index(t.scope)]) if narrowed else t.scope
    out.append(f"{n.sub(number, next(sub))} Indemnity. " + d.say("lead", scope=d.say(wide)))
    limits = []
    if narrowed:
        t.traps.append("notwithstanding-scope")
        limits.append(d.say("narrowing", narrow=d.say(f"narrow-{t.scope}")))
    if t.cap is not None:
        if "percent-cap" in t.traps:
            pct = t.cap * 100 // t.purchase_price
            limits.append(d.say("cap-percent", pct=str(pct), pct_words=words(pct)))
        elif rng.random() < 0.3:
            t.traps.append("cross-reference")
            limits.append(d.say("cap-defined"))
            definitions.append(d.say("cap-definition", amount=d.money(t.cap)))
        else:
            limits.append(d.say("cap", amount=d.money(t.cap)))
    elif rng.random() < 0.5:
        limits.append(d.say("uncapped"))
    if t.basket is not None:
        kind, amount = t.basket
        if rng.random() < 0.25:
            if "cross-reference" not in t.traps:
                t.traps.append("cross-reference")
            limits.append(d.say("basket-defined", tail=d.say(f"basket-tail-{kind}")))
            definitions.append(d.say("basket-definition", amount=d.money(amount)))
        else:
            limits.append(d.say(kind, amount=d.money(amount)))
    if t.de_minimis is not None:
        limits.append(d.say("de-minimis", amount=d.money(t.de_minimis)))
    if limits:
        out.append(f"{n.sub(number, next(sub))} Limitations. " + " ".join(limits))
    carve = []
    for name in t.exclusions:
        carve.append(d.say(name, days=str(rng.choice((30, 45, 60, 90, 180)))))
    if carve:
        out.append(f"{n.sub(number, next(sub))} Exclusions. " + " ".join(carve))
    if "late-notice" not in t.exclusions and rng.random() < 0.4:
        t.traps.append("benign-notice")
        out.append(f"{n.sub(number, next(sub))} Notice of Claims. " + d.say("benign-notice"))
    if t.survival_months is not None:
        months = t.survival_months
        if months % 12 == 0 and (d.split == "test" or rng.random() < 0.5):
            text = d.say("survival-years", y=str(months // 12), y_words=words(months // 12), nth=ordinal_word(months // 12))
        else:
            text = d.say("survival-months", n=str(months), n_words=words(months))
    else:
        text = d.say("survival-unlimited")
    if general_survival is not None:
        t.traps.append("general-survival")
        lead = d.say("override-survival", general=general_survival)
        text = lead + ("the " + text[4:] if text.startswith("The ") else text)
    if t.survival_months is not None or general_survival is not None or rng.random() < 0.7:
        out.append(f"{n.sub(number, next(sub))} Survival. " + text)
    return out, definitions


def definitions_paragraphs(d: Drafter, extra: list[str], price: bool) -> list[str]:
    n = d.numbering
    out = [n.heading(1, "Definitions"), f"{n.sub(1, 1)} Defined Terms. In this Agreement:"]
    out.append("\"Environmental Laws\" means all federal, state and local laws, regulations, ordinances and common law "
               "relating to pollution or the protection of human health or the environment, including the Comprehensive "
               "Environmental Response, Compensation, and Liability Act, 42 U.S.C. \u00a7 9601 et seq., and the Resource "
               "Conservation and Recovery Act, 42 U.S.C. \u00a7 6901 et seq., each as amended.")
    out.append("\"Hazardous Substances\" means any substance regulated under any Environmental Law, including petroleum and "
               "its fractions, asbestos, polychlorinated biphenyls and per- and polyfluoroalkyl substances.")
    out.append(f"\"{d.context['L']}\" means all claims, liabilities, damages, fines, penalties, costs of investigation and "
               "Remediation, and reasonable attorneys' and consultants' fees.")
    if price:
        out.append("\"Property\" means the land described in Exhibit A, with all improvements on it.")
    return out + extra


def purchase_agreement(rng: random.Random, split: str, template: Template, terms: ContractTerms,
                       seller_term: str, buyer_term: str, effective: dt.date) -> list[str]:
    n = Numbering(NUMBERING[template.name])
    losses = rng.choice(WORDING["losses"][split])
    reps, brokers, env = 5, 6, 7
    context = {"I": seller_term, "E": buyer_term, "S": seller_term, "L": losses, "sec": n.section(env, 1),
               "art": n.article(env), "sched": f"Schedule {n.sub(env, 1)}", "rep": n.section(reps, 2),
               "reps": n.article(reps)}
    d = Drafter(rng, split, terms, n, context)
    seller, buyer = terms.indemnitor, terms.indemnitee
    price, deposit = terms.purchase_price, rng.choice((50_000, 100_000, 150_000, 250_000))
    rep_cap = rng.random() < 0.4
    limits = env + 1
    survival = env + 2 if rep_cap else env + 1
    general = None
    if terms.survival_months is not None and rng.random() < 0.3:
        general = n.section(survival, 1)
    article, definitions = indemnity_article(d, env, general)
    terms.traps += ["deposit-amount", "signing-before-closing"]
    body = [
        f"THIS {template_title(rng, split, terms.form)} (this \"Agreement\") is made as of {long_date(effective)} by and "
        f"between {seller}, {entity_description(seller, rng)} (\"{seller_term}\"), and {buyer}, "
        f"{entity_description(buyer, rng)} (\"{buyer_term}\").",
    ]
    body += definitions_paragraphs(d, definitions, price=True)
    body += [
        n.heading(2, "Purchase Price"),
        f"{n.sub(2, 1)} Price. The purchase price for the Property is {d.money(price)} (the \"Purchase Price\"), payable in "
        "immediately available funds at the Closing.",
        f"{n.sub(2, 2)} Deposit. Within three business days after the date of this Agreement, {buyer_term} shall deposit "
        f"{d.money(deposit)} with the Title Company as earnest money, to be applied to the Purchase Price at the Closing.",
        n.heading(3, "Closing"),
        f"{n.sub(3, 1)} " + (f"Closing Date. The closing of the purchase and sale of the Property (the \"Closing\") shall "
                             f"take place on {long_date(terms.closing_date)} (the \"Closing Date\")." if split == "dev" else
                             f"Closing Date. The Closing Date is {long_date(terms.closing_date)}. The closing of the sale "
                             "(the \"Closing\") shall take place at the offices of the Title Company on the Closing Date."),
        f"{n.sub(3, 2)} Prorations. Real estate taxes and utilities shall be prorated as of the Closing Date.",
        n.heading(4, "Title and Inspections"),
        f"{n.sub(4, 1)} Title. {buyer_term} shall have twenty (20) days after receipt of the title commitment to object "
        f"to any exception to title; {seller_term} may elect to cure any objection within ten (10) days.",
    ]
    if rng.random() < 0.5:
        terms.traps.append("access-indemnity")
        body.append(
            f"{n.sub(4, 2)} Access. {buyer_term} and its consultants may enter the Property before the Closing to conduct "
            f"inspections. {buyer_term} shall indemnify, defend and hold harmless {seller_term} from any damage to persons "
            f"or property caused by such entry; provided that {buyer_term} shall have no liability for the mere discovery "
            "of conditions existing at the Property."
        )
    body += [
        n.heading(reps, "Representations and Warranties"),
        f"{n.sub(reps, 1)} Authority. Each party represents that it has full power to enter into this Agreement.",
        f"{n.sub(reps, 2)} Environmental Matters. {seller_term} represents and warrants to {buyer_term} that, to "
        f"{seller_term}'s knowledge and except as disclosed in the Environmental Reports, no Hazardous Substances have "
        "been released at the Property in violation of Environmental Laws and no underground storage tank is located at "
        "the Property.",
        n.heading(brokers, "Brokers"),
    ]
    if rng.random() < 0.5:
        terms.traps.append("brokers-indemnity")
        body.append(f"{n.sub(brokers, 1)} Each party represents that it has dealt with no broker in connection with this "
                    "transaction, and each party shall indemnify and hold the other harmless from any claim for a commission "
                    "arising through it.")
    else:
        body.append(f"{n.sub(brokers, 1)} Each party represents that it has dealt with no broker in connection with this "
                    "transaction.")
    body += article
    if rep_cap:
        terms.traps.append("rep-cap-elsewhere")
        other_cap = rng.choice((100_000, 200_000, 400_000, 600_000, 900_000))
        body += [n.heading(limits, "Limitations on Liability"), f"{n.sub(limits, 1)} " + d.say("rep-cap", amount=d.money(other_cap))]
    misc = [n.heading(survival, "Survival and Miscellaneous")]
    index = 1
    if general is not None:
        months = other_months(rng, terms)
        misc.append(f"{n.sub(survival, index)} Survival. " + d.say("general-survival", n=str(months), n_words=words(months)))
        index += 1
    if rng.random() < 0.5:
        terms.traps.append("other-survival")
        months = other_months(rng, terms)
        other = f"{n.article(brokers)} (Brokers)" if rng.random() < 0.5 else f"{n.section(reps, 1)} (Authority)"
        misc.append(f"{n.sub(survival, index)} " + d.say("other-survival", other=other, n=str(months), n_words=words(months)))
        index += 1
    misc.append(f"{n.sub(survival, index)} Governing Law. This Agreement is governed by the laws of the State in which the "
                "Property is located.")
    body += misc
    body += schedules(d, env, reps)
    return body


def other_months(rng: random.Random, terms: ContractTerms) -> int:
    """A survival period that is not the indemnity's (so a reader who takes it is wrong)."""
    return rng.choice([m for m in (6, 9, 12, 18, 24) if m != terms.survival_months])


def schedules(d: Drafter, env: int, reps: int) -> list[str]:
    t, rng, n = d.terms, d.rng, d.numbering
    consultant = rng.choice(CONSULTANTS)
    report = long_date(t.closing_date - dt.timedelta(days=rng.randint(60, 400)))
    if t.scope == "scheduled-matters-only":
        return [
            f"SCHEDULE {n.sub(env, 1)}",
            f"1. Petroleum hydrocarbons in soil and groundwater near the former underground storage tanks, as described in "
            f"the Phase II Environmental Site Assessment prepared by {consultant} dated {report}.",
            "2. Tetrachloroethylene (PCE) in groundwater beneath the eastern portion of the Property.",
        ]
    if rng.random() < 0.3:
        t.traps.append("disclosure-schedule")
        return [
            f"SCHEDULE {n.sub(reps, 2)} - ENVIRONMENTAL REPORTS",
            f"1. Phase I Environmental Site Assessment prepared by {consultant} dated {report}.",
            "2. Limited subsurface investigation letter report (soil borings B-1 through B-6).",
        ]
    return []


def template_title(rng: random.Random, split: str, form: str) -> str:
    return rng.choice(TITLES[split][form])


def indemnity_agreement(rng: random.Random, split: str, template: Template, terms: ContractTerms,
                        indemnitor_term: str, indemnitee_term: str, seller: str, lender: str | None) -> list[str]:
    n = Numbering(NUMBERING[template.name])
    losses = rng.choice(WORDING["losses"][split])
    env = 2
    context = {"I": indemnitor_term, "E": indemnitee_term, "S": "Seller", "L": losses, "sec": n.section(env, 1),
               "art": n.article(env), "sched": "Schedule 1", "rep": "Section 6.2 of the Purchase Agreement",
               "reps": "the Purchase Agreement"}
    d = Drafter(rng, split, terms, n, context)
    article, definitions = indemnity_article(d, env, None)
    buyer = terms.indemnitee
    purchase_date = terms.closing_date - dt.timedelta(days=rng.randint(30, 150))
    parent = "parent-indemnitor" in terms.traps
    recital_seller = (f"WHEREAS, {seller} (\"Seller\"), a wholly owned subsidiary of {indemnitor_term}, and {indemnitee_term} "
                      if parent else f"WHEREAS, {indemnitor_term} and {indemnitee_term} ")
    body = [
        f"THIS {template_title(rng, split, terms.form)} (this \"Agreement\") is made as of {long_date(terms.closing_date)} by "
        f"{terms.indemnitor}, {entity_description(terms.indemnitor, rng)} (\"{indemnitor_term}\"), in favor of {buyer}, "
        f"{entity_description(buyer, rng)} (\"{indemnitee_term}\").",
        recital_seller + f"are parties to that certain Purchase and Sale Agreement dated {long_date(purchase_date)} (the "
        f"\"Purchase Agreement\"), under which the real property described in Exhibit A (the \"Property\") is sold to "
        f"{indemnitee_term} for a purchase price of {d.money(terms.purchase_price)} (the \"Purchase Price\").",
        f"WHEREAS, the closing under the Purchase Agreement (the \"Closing\") is taking place on "
        f"{long_date(terms.closing_date)} (the \"Closing Date\"), and it is a condition of the Closing that "
        f"{indemnitor_term} deliver this Agreement.",
    ]
    if lender is not None:
        terms.traps.append("lender-named")
        body.append(f"WHEREAS, {indemnitee_term} is financing its acquisition of the Property with a loan from {lender} "
                    "(the \"Lender\"), which is not a party to this Agreement.")
    body.append(f"NOW, THEREFORE, {indemnitor_term} agrees as follows:")
    body += definitions_paragraphs(d, definitions, price=False)
    body += article
    index = 1
    closing = [n.heading(3, "General Provisions")]
    if lender is not None:
        closing.append(f"{n.sub(3, index)} Assignment. {indemnitee_term} may collaterally assign its rights under this "
                       "Agreement to the Lender; no such assignment makes the Lender an indemnified party.")
        index += 1
    closing.append(f"{n.sub(3, index)} Governing Law. This Agreement is governed by the laws of the State in which the "
                   "Property is located.")
    body += closing
    if terms.scope == "scheduled-matters-only":
        consultant = rng.choice(CONSULTANTS)
        body += ["SCHEDULE 1",
                 f"1. Chlorinated solvents in soil gas and groundwater at the former dry cleaning unit, as reported by "
                 f"{consultant}.",
                 "2. Lead in shallow soil along the western property line."]
    return body


def sample_contract(rng: random.Random, split: str, template: Template, execution: str, form: str,
                    recorder: RecorderStyle | None = None) -> Contract:
    """One contract of `form` in `template`, in the drafting styles of `split`, showing `execution`
    (a key of EXECUTED; "recorded" needs `recorder`)."""
    if execution not in EXECUTED:
        raise ValueError(f"unknown execution scenario {execution!r}")
    if form not in FORMS:
        raise ValueError(f"unknown contract form {form!r}")
    if execution == "recorded" and recorder is None:
        raise ValueError("a recorded contract needs a recorder style")
    terms = draw_terms(rng, form, execution)
    first, second = rng.choice(ROLE_TERMS[split][form])
    if form == "purchase-and-sale":
        effective = terms.closing_date - dt.timedelta(days=rng.randint(45, 200))
        body = purchase_agreement(rng, split, template, terms, first, second, effective)
        parties = [(first.upper(), terms.indemnitor), (second.upper(), terms.indemnitee)]
        date = effective
        title = body[0].split(" (this")[0].removeprefix("THIS ")
    else:
        seller = terms.indemnitor
        if "parent-indemnitor" in terms.traps:
            seller = rng.choice([s for s in SELLERS if s != terms.indemnitor])
        lender = rng.choice(LENDERS) if rng.random() < 0.4 else None
        body = indemnity_agreement(rng, split, template, terms, first, second, seller, lender)
        parties = [(first.upper(), terms.indemnitor), (second.upper(), terms.indemnitee)]
        date = terms.closing_date
        title = body[0].split(" (this")[0].removeprefix("THIS ")
    if execution == "bracketed-blanks":
        # A draft still being negotiated: its date and a drafting note left in brackets.
        body[0] = body[0].replace(long_date(date), "[__________], 20[__]", 1)
        body.insert(len(body) // 2, "[NTD: Parties to confirm the survival period and the Schedule before signing.]")
    mark = {"unrecorded": "ink", "recorded": "ink", "conformed-unrecorded": "conformed"}.get(execution, "blank")
    signatures = []
    for role, party in parties:
        individual = rng.random() < 0.15
        signer = person(rng)
        signatures.append(Signature(role, party, signer, rng.choice(CAPACITIES) if not individual else "Manager", mark))
    if execution == "covenant-missing-signature":
        # One party signed; the other's line is still blank.
        signatures[0].mark = "ink"
    acknowledgments, recording = [], None
    if execution == "recorded":
        assert recorder is not None
        notary = person(rng)
        expires = date + dt.timedelta(days=rng.randint(200, 1400))
        acknowledgments = [Acknowledgment(recorder.state, recorder.county, sig.signer, sig.capacity, notary, date, expires,
                                          f"{rng.randint(100000, 999999)}", "ink") for sig in signatures]
        recording = sample_recording(rng, recorder, date, max_days=20)
    blank_witness = execution in ("draft-marker", "bracketed-blanks")
    witness = template.blank_witness_clause if blank_witness else template.witness_clause.format(date=long_date(date), party="")
    instrument = Instrument(
        kind=form, title=title, scenario=execution, template=template, recorder=recorder or _NO_RECORDER, date=date,
        return_to=[], body=body[:], witness_clause=witness, signatures=signatures, acknowledgments=acknowledgments,
        recording=recording,
    )
    if execution == "draft-marker":
        instrument.draft_marker = rng.choice(DRAFT_MARKERS)
        instrument.marker_every_page = rng.random() < 0.6
    if execution == "execution-version-unsigned" or (execution == "unrecorded" and rng.random() < 0.2):
        instrument.execution_version = True
    return Contract(instrument, terms)


# Unrecorded contracts never reach a recorder; the Instrument model still names a style.
_NO_RECORDER = RecorderStyle("none", "", "", "", "box-first-page", "", "", "", "%m/%d/%Y", "%H:%M", "", "")
