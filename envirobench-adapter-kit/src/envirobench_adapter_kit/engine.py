"""Running the cases: concurrency, the cache, the budget, retries and validation.

Up to `max_concurrency` cases run at once, taken in the request's order: an async predict
function as tasks of one event loop, a plain one in a pool of as many threads. For each case:
its cache entry when there is a valid one; otherwise attempts, each starting only once the
budget has room for its worst case (budget.py), until one returns a prediction that validates,
a failure that is not transient, or `max_attempts` attempts. Every failed attempt is recorded;
a case that never got a valid prediction is an execution failure and has no prediction (an empty
one could be scored, and a failure is never a score).
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import json
import random
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from envirobench import EnviroBenchError, dumps_line, sha256_file, structure, unstructure

from .budget import Budget, BudgetStop, Ledger, Meter, Price, is_amount, is_count
from .cache import Cache, sha256_json
from .context import TRANSIENT, Context, Transient
from .request import Case, Job

# A bound is a number, or a function of the case, or of the case and the run's options (a function
# taking two parameters: an adapter whose options set its output limit, say).
Bound = float | Callable[[Case], float] | Callable[[Case, Mapping[str, str]], float] | None
TokenBound = int | Callable[[Case], int] | Callable[[Case, Mapping[str, str]], int] | None
MAX_MESSAGE = 1000


@dataclass(frozen=True)
class Served:
    """One benchmark type an adapter serves: its predict function and its worst case per attempt."""

    benchmark: str
    function: Callable[..., Any]
    max_cost_usd: Bound = None
    max_input_tokens: TokenBound = None
    max_output_tokens: TokenBound = None

    @property
    def priced_by_tokens(self) -> bool:
        return self.max_cost_usd is None and self.max_input_tokens is not None

    def worst_case(self, case: Case, price: Price | None, options: Mapping[str, str] | None = None) -> float:
        """The most one attempt at `case` may cost: max_cost_usd, else the declared tokens at the
        model's price, else 0 (a function that declares nothing must not spend). `options`: the
        run's adapter options, for a bound that is a function of the case and the options."""
        options = {} if options is None else options
        if self.max_cost_usd is not None:
            value = bound_value(self.max_cost_usd, case, options)
            if not is_amount(value):
                raise ValueError(f"max_cost_usd must be a finite number of USD, at least 0, not {value!r}")
            return float(value)
        if self.max_input_tokens is None or self.max_output_tokens is None:
            return 0.0
        tokens = [bound_value(bound, case, options) for bound in (self.max_input_tokens, self.max_output_tokens)]
        if not all(is_count(t) for t in tokens):
            raise ValueError(f"max_input_tokens and max_output_tokens must be integers of at least 0, not {tokens!r}")
        if price is None:  # refused before any case starts (adapter.py); kept for callers of this alone
            raise ValueError("the model has no price, so the declared tokens bound no cost")
        return price.cost(*tokens)


def bound_value(bound: Any, case: Case, options: Mapping[str, str]) -> Any:
    """A declared bound's value for `case`: the number, or the function's result (called with the
    case, or with the case and the options when it takes two positional parameters)."""
    if not callable(bound):
        return bound
    try:
        positional = [p for p in inspect.signature(bound).parameters.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) or p.kind is p.VAR_POSITIONAL]
    except (TypeError, ValueError):  # a builtin without a signature: called with the case alone
        positional = []
    return bound(case, options) if len(positional) >= 2 else bound(case)


@dataclass(frozen=True)
class Settings:
    max_concurrency: int = 4
    max_attempts: int = 4
    backoff_s: float = 1.0
    max_backoff_s: float = 60.0


@dataclass
class Outcome:
    """What became of one case."""

    id: str
    status: str = "not-started"  # predicted, cached, failed or not-started
    prediction: Any = None
    cost_usd: float | None = 0.0  # spent on it by this run (None: unknown, a model without a price)
    cached_cost_usd: float | None = None  # what a cached prediction cost when it was made
    cached_at: str | None = None
    wall_s: float | None = None
    failed_attempts: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None

    def record(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "cost_usd": self.cost_usd,
            "cached_cost_usd": self.cached_cost_usd,
            "cached_at": self.cached_at,
            "wall_s": None if self.wall_s is None else round(self.wall_s, 3),
            "failed_attempts": self.failed_attempts,
            "error": self.error,
        }


class InvalidPrediction(ValueError):
    pass


def describe(error: BaseException) -> str:
    text = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 3] + "..."


class Runner:
    def __init__(self, job: Job, served: Served, settings: Settings, prices: dict[str, Price], cache: Cache | None,
                 adapter: tuple[str, str], on_done: Callable[[Outcome], None], on_part: Callable[[int, int, str], None] | None = None,
                 on_log: Callable[[str, str], None] | None = None) -> None:
        self.job, self.served, self.settings, self.prices, self.cache = job, served, settings, prices, cache
        self.adapter = adapter
        self.on_done = on_done  # each case done (predicted, cached or failed), with its outcome
        self.on_part = on_part  # ctx.progress(): the progress inside a case
        self.on_log = on_log  # ctx.log(): a line of the case's own log
        self.price = prices.get(job.request.model)
        self.outcomes = {case.id: Outcome(case.id) for case in job.cases}
        self.ledger = Ledger(job.request.model)
        self.budget: Budget | None = None

    async def run(self) -> dict[str, Outcome]:
        self.budget = Budget(self.job.request.budget_usd)
        executor = ThreadPoolExecutor(max_workers=self.settings.max_concurrency, thread_name_prefix="predict")
        pending = iter(self.job.cases)
        try:
            await asyncio.gather(*(self._worker(pending, executor) for _ in range(self.settings.max_concurrency)))
        finally:
            # On an interruption, a plain predict function still running in a thread is left to
            # finish (a thread cannot be stopped); nothing it returns is used.
            executor.shutdown(wait=False, cancel_futures=True)
        return self.outcomes

    async def _worker(self, pending: Iterator[Case], executor: ThreadPoolExecutor) -> None:
        assert self.budget is not None
        for case in pending:  # one iterator shared by the workers of one event loop
            if self.budget.stopped is not None:
                return
            await self._case(case, executor)
            if self.outcomes[case.id].status != "not-started":
                self.on_done(self.outcomes[case.id])

    async def _case(self, case: Case, executor: ThreadPoolExecutor) -> None:
        assert self.budget is not None
        loop = asyncio.get_running_loop()
        outcome = self.outcomes[case.id]
        started = time.monotonic()
        material: dict[str, Any] = {}
        if self.cache is not None:
            try:
                material = await loop.run_in_executor(executor, self.material, case)
            except OSError as exc:
                return self._fail(outcome, started, f"cannot read a source file of the case: {describe(exc)}")
            entry = await loop.run_in_executor(executor, self.cache.get, material, self.validate)
            if entry is not None:
                outcome.status, outcome.prediction, outcome.cost_usd = "cached", entry.prediction, 0.0
                outcome.cached_cost_usd, outcome.cached_at = entry.cost_usd, entry.made_at
                return None
        for attempt in range(1, self.settings.max_attempts + 1):
            try:
                worst = self.served.worst_case(case, self.price, self.job.options)
            except (ValueError, TypeError) as exc:
                return self._fail(outcome, started, f"its worst case could not be computed: {describe(exc)}")
            try:
                token = await self.budget.reserve(worst)
            except BudgetStop as exc:
                if attempt == 1:
                    return None  # never started: not a failure of the system, the run is stopped
                return self._fail(outcome, started, f"not retried: {exc}")
            if attempt == 1:
                started = time.monotonic()  # its wall time: from its first attempt, not while it waited for the budget
            meter = Meter(self.prices)
            ctx = Context(benchmark=self.job.benchmark, case_id=case.id, model=self.job.request.model, options=self.job.options,
                          input_dir=self.job.input_dir, attempt=attempt, meter=meter, on_part=self.on_part,
                          on_log=self.on_log)
            error: Exception | None = None
            try:
                value = await self._call(case, ctx, executor)
            except Exception as exc:  # any failure of the author's code is the case's, never the run's
                error = exc
            finally:
                self.budget.settle(token, case.id, meter)
                self.ledger.add(meter)
                outcome.cost_usd = None if outcome.cost_usd is None or meter.unknown() else outcome.cost_usd + meter.spent()
            if error is None:
                try:
                    prediction = self.validate(value)
                except InvalidPrediction as exc:
                    outcome.failed_attempts.append({"attempt": attempt, "error": str(exc), "transient": False})
                    return self._fail(outcome, started, str(exc))
                outcome.status, outcome.prediction, outcome.wall_s = "predicted", prediction, time.monotonic() - started
                if self.cache is not None and outcome.cost_usd is not None:
                    await loop.run_in_executor(executor, self._put, material, prediction, outcome.cost_usd, outcome.wall_s)
                return None
            transient = isinstance(error, TRANSIENT)
            outcome.failed_attempts.append({"attempt": attempt, "error": describe(error), "transient": transient})
            if not transient or attempt == self.settings.max_attempts:
                why = describe(error) if not transient else f"{describe(error)} (after {attempt} attempts)"
                return self._fail(outcome, started, why)
            await asyncio.sleep(self.backoff(attempt, error))
        return None  # pragma: no cover (every path of the last attempt returns)

    def _fail(self, outcome: Outcome, started: float, message: str) -> None:
        outcome.status, outcome.error, outcome.wall_s = "failed", message, time.monotonic() - started
        self.ledger.execution_failures += 1

    async def _call(self, case: Case, ctx: Context, executor: ThreadPoolExecutor) -> Any:
        function = self.served.function
        if inspect.iscoroutinefunction(function):
            value = await function(case, ctx)
        else:
            value = await asyncio.get_running_loop().run_in_executor(executor, functools.partial(function, case, ctx))
        if inspect.isawaitable(value):
            value = await value
        return value

    def backoff(self, attempt: int, error: BaseException) -> float:
        """Exponential, with jitter (so concurrent cases do not retry in step), at most max_backoff_s;
        at least what the service asked for (`Transient(retry_after=...)`) within that."""
        delay = min(self.settings.max_backoff_s, self.settings.backoff_s * 2 ** (attempt - 1)) * random.uniform(0.5, 1.0)
        asked = getattr(error, "retry_after", None) if isinstance(error, Transient) else None
        if asked is not None and is_amount(asked):
            delay = max(delay, min(float(asked), self.settings.max_backoff_s))
        return delay

    def validate(self, value: Any) -> Any:
        """The prediction as JSON, valid for the type (core's strict converter, the check core
        makes when it reads the predictions), or InvalidPrediction saying what is wrong."""
        try:
            value = json.loads(dumps_line(unstructure(value)))
        except (TypeError, ValueError) as exc:
            raise InvalidPrediction(f"the prediction is not JSON: {describe(exc)}") from None
        try:
            structure(value, self.job.btype.Prediction)
        except EnviroBenchError as exc:
            raise InvalidPrediction(f"not a valid {self.job.btype.FORMAT} prediction: {exc.field}: {exc.message}") from None
        return value

    def material(self, case: Case) -> dict[str, Any]:
        """What the cache key is made of (cache.py)."""
        request = self.job.request
        return {
            "adapter": self.adapter[0],
            "version": self.adapter[1],
            "model": request.model,
            "options": dict(sorted(self.job.options.items())),  # the reserved ones (max_concurrency) are not among them
            "benchmark": request.benchmark.id,
            "format": request.benchmark.format,
            "case": case.id,
            "input_sha256": sha256_json(case.input),
            "sources_sha256": {relative: sha256_file(path) for relative, path in sorted(case.sources.items())},
        }

    def _put(self, material: dict[str, Any], prediction: Any, cost_usd: float, wall_s: float) -> None:
        assert self.cache is not None
        try:
            self.cache.put(material, prediction, cost_usd, wall_s)
        except OSError as exc:  # a full disk must not lose the prediction itself
            print(f"warning: could not write the cache entry of case {material['case']!r}: {describe(exc)}", file=sys.stderr, flush=True)

