"""The truth of a contract (`ContractTerms`, `Contract`): the terms drawn for it.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field

from ..instruments import (
    Instrument,
)
from .templates import (
    BUYERS,
    ENTITY_KINDS,
    EXCLUSIONS,
    EXECUTED,
    LATEST_AS_OF,
    PARENT_SUFFIXES,
    SCOPES,
    SELLERS,
    STATES,
)
from .wording import add_months


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
