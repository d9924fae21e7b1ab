"""Prices, usage and the budget stop.

Every attempt at a case reserves its worst-case cost before it starts, and starts only when what
has been spent, plus what the attempts in flight have reserved, plus its own worst case, stays
within the budget. When it does not fit, it waits for the attempts in flight to settle (they
usually cost less than they reserved); when nothing is in flight and it still does not fit, the
run stops: no further attempt starts. So concurrent attempts can never together spend past the
budget, as long as each stays within the worst case its function declared.

An attempt that spends more than it reserved (its declared bound was wrong, or it declared none
and spent anyway) or that used a model without a price (its cost is unknown, never taken as 0)
also stops the run: the guarantee above no longer holds, so nothing more is started.
"""

from __future__ import annotations

import asyncio
import math
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field

CANDIDATE = "candidate"
PRICE_FIELDS = ("input_per_mtok", "output_per_mtok")
SLACK = 1e-12  # relative: float sums (0.1 + 0.2 > 0.3); core allows 1e-9


@dataclass(frozen=True)
class Price:
    """USD per million input and output tokens of one model."""

    input_per_mtok: float
    output_per_mtok: float

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        return (input_tokens * self.input_per_mtok + output_tokens * self.output_per_mtok) / 1e6


def read_prices(prices: Mapping[str, Mapping[str, float]] | None) -> dict[str, Price]:
    """The price table an adapter declares: model -> {"input_per_mtok": x, "output_per_mtok": y}."""
    table: dict[str, Price] = {}
    for model, entry in (prices or {}).items():
        if not isinstance(model, str) or not model:
            raise ValueError(f"prices: a model name must be a non-empty string, not {model!r}")
        if not isinstance(entry, Mapping) or set(entry) != set(PRICE_FIELDS):
            raise ValueError(f"prices[{model!r}] must give exactly {', '.join(PRICE_FIELDS)}")
        values = [entry[name] for name in PRICE_FIELDS]
        if not all(is_amount(v) for v in values):
            raise ValueError(f"prices[{model!r}]: prices must be finite numbers of at least 0, not {values!r}")
        table[model] = Price(*(float(v) for v in values))
    return table


def is_amount(value: object) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value) and value >= 0


def is_count(value: object) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and value >= 0


@dataclass
class Meter:
    """The usage of one attempt, recorded by its `ctx.usage` and `ctx.cost` calls (from any thread)."""

    prices: Mapping[str, Price]
    costs: dict[tuple[str, str], list[float]] = field(default_factory=dict)  # (role, model) -> each call's cost
    unpriced: dict[tuple[str, str], int] = field(default_factory=dict)  # (role, model) -> calls without a price
    lock: threading.Lock = field(default_factory=threading.Lock)

    def tokens(self, role: str, model: str, input_tokens: int, output_tokens: int) -> float | None:
        if not (is_count(input_tokens) and is_count(output_tokens)):
            raise ValueError(f"token counts must be integers of at least 0, not {input_tokens!r} and {output_tokens!r}")
        price = self.prices.get(model)
        with self.lock:
            if price is None:
                self.unpriced[(role, model)] = self.unpriced.get((role, model), 0) + 1
                self.costs.setdefault((role, model), [])
                return None
            cost = price.cost(input_tokens, output_tokens)
            self.costs.setdefault((role, model), []).append(cost)
            return cost

    def usd(self, role: str, model: str, usd: float) -> None:
        if not is_amount(usd):
            raise ValueError(f"a cost must be a finite number of USD, at least 0, not {usd!r}")
        with self.lock:
            self.costs.setdefault((role, model), []).append(float(usd))

    def spent(self) -> float:
        with self.lock:
            return math.fsum(c for costs in self.costs.values() for c in costs)

    def unknown(self) -> bool:
        with self.lock:
            return bool(self.unpriced)


class BudgetStop(Exception):
    """No attempt may start any more; the message says why."""


class ExactSum:
    """A running sum of floats without rounding error (Shewchuk's partials, as math.fsum keeps
    them): a run of 100,000 cases neither drifts nor sums its list again at every reservation."""

    def __init__(self) -> None:
        self.partials: list[float] = []

    def add(self, x: float) -> None:
        kept = []
        for y in self.partials:
            if abs(x) < abs(y):
                x, y = y, x
            high = x + y
            low = y - (high - x)
            if low:
                kept.append(low)
            x = high
        kept.append(x)
        self.partials = kept

    @property
    def value(self) -> float:
        return math.fsum(self.partials)


class Budget:
    """The run's spending: what is spent, what the attempts in flight reserved, and the stop.

    Used from the event loop's thread only (attempts meter their usage apart, in a Meter, and
    settle here when they end), so its bookkeeping needs no lock."""

    def __init__(self, limit_usd: float) -> None:
        self.limit = limit_usd
        self.costs = ExactSum()
        self.reservations: dict[int, float] = {}  # at most one per attempt in flight
        self.stopped: str | None = None
        self._next = 0
        self._changed = asyncio.Event()

    @property
    def spent(self) -> float:
        return self.costs.value

    def fits(self, worst: float) -> bool:
        total = math.fsum([*self.costs.partials, *self.reservations.values(), worst])
        return total <= self.limit * (1 + SLACK)

    async def reserve(self, worst: float) -> int:
        """Reserve `worst` USD for an attempt; raise BudgetStop once nothing more may start."""
        while True:
            if self.stopped is not None:
                raise BudgetStop(self.stopped)
            if self.fits(worst):
                self._next += 1
                self.reservations[self._next] = worst
                return self._next
            if not self.reservations:
                self.stop(f"stopped before the budget was exceeded: ${self.spent:.6g} spent of ${self.limit:.6g}, "
                          f"and the next case could cost up to ${worst:.6g}")
                raise BudgetStop(self.stopped or "")
            changed = self._changed
            await changed.wait()

    def settle(self, token: int, case_id: str, meter: Meter) -> None:
        """An attempt ended: its reservation is released and what it spent is counted."""
        reserved = self.reservations.pop(token)
        spent = meter.spent()
        self.costs.add(spent)
        if meter.unknown():
            models = ", ".join(sorted({m for _, m in meter.unpriced}))
            self.stop(f"case {case_id!r} used {models}, which has no price in the adapter's price table, "
                      "so what it cost is unknown; nothing more was started")
        elif spent > reserved * (1 + SLACK) + 1e-15:
            self.stop(f"case {case_id!r} spent ${spent:.6g}, more than the ${reserved:.6g} its predict function declared "
                      "as its worst case (max_cost_usd, or max_input_tokens and max_output_tokens at the model's price); "
                      "nothing more was started, so that the budget stop holds")
        self._wake()

    def stop(self, reason: str) -> None:
        if self.stopped is None:
            self.stopped = reason
        self._wake()

    def _wake(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()


@dataclass
class Ledger:
    """The run's usage by system, for adapter-result.json's `systems`."""

    model: str
    costs: dict[tuple[str, str], list[float]] = field(default_factory=dict)
    unpriced: dict[tuple[str, str], int] = field(default_factory=dict)
    execution_failures: int = 0

    def add(self, meter: Meter) -> None:
        with meter.lock:
            for key, costs in meter.costs.items():
                self.costs.setdefault(key, []).extend(costs)
            for key, count in meter.unpriced.items():
                self.unpriced[key] = self.unpriced.get(key, 0) + count

    def systems(self) -> list[dict[str, object]]:
        """The candidate system (the request's model) first, then every other (role, model) used."""
        keys = [(CANDIDATE, self.model)] + sorted(k for k in {*self.costs, *self.unpriced} if k != (CANDIDATE, self.model))
        return [
            {
                "role": role,
                "model": model,
                "cost_usd": math.fsum(self.costs.get((role, model), [])),
                "execution_failures": self.execution_failures if (role, model) == (CANDIDATE, self.model) else 0,
                "unpriced_attempts": self.unpriced.get((role, model), 0),
            }
            for role, model in keys
        ]
