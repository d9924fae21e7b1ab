"""What a predict function gets besides its case (`ctx`), and the error it raises to be retried."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType

from .budget import CANDIDATE, Meter


class Transient(Exception):
    """A failure worth retrying (a rate limit, a dropped connection, a server's 5xx): the kit
    retries the case with exponential backoff, at most the adapter's `max_attempts` times in
    all. `retry_after` (seconds), when the service said how long to wait, is waited at least.
    ConnectionError and TimeoutError (and their subclasses) are retried too; any other exception
    fails the case at once."""

    def __init__(self, message: str = "", *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


RetryableError = Transient
TRANSIENT = (Transient, ConnectionError, TimeoutError)


class Context:
    """One attempt at one case: the run's model and options, and the usage recorder."""

    def __init__(self, *, benchmark: str, case_id: str, model: str, options: Mapping[str, str], input_dir: Path,
                 attempt: int, meter: Meter, on_part: Callable[[int, int, str], None] | None = None,
                 on_log: Callable[[str, str], None] | None = None) -> None:
        self.benchmark = benchmark  # the benchmark type's ID
        self.case_id = case_id
        self.model = model  # `envirobench run --model`
        self.options: Mapping[str, str] = MappingProxyType(dict(options))  # the adapter's options, defaults filled in
        self.input_dir = input_dir  # where the case's source files are (see `case.sources`)
        self.attempt = attempt  # 1 for the first attempt, 2 for the first retry, ...
        self._meter = meter
        self._on_part = on_part
        self._on_log = on_log

    def usage(self, input_tokens: int = 0, output_tokens: int = 0, *, model: str | None = None, role: str = CANDIDATE) -> float | None:
        """Record one call's tokens, priced from the adapter's price table; returns its cost in
        USD, or None when the model has no price (an unpriced attempt: the run then fails, and
        nothing more is started, since its cost is unknown). `model` defaults to ctx.model;
        `role` names what the model did (a second model used as a judge: role="judge")."""
        return self._meter.tokens(role, model or self.model, input_tokens, output_tokens)

    def cost(self, usd: float, *, model: str | None = None, role: str = CANDIDATE) -> None:
        """Record a cost known in USD (a service that bills per page, say)."""
        self._meter.usd(role, model or self.model, usd)

    def progress(self, done: int, total: int, unit: str = "pages") -> None:
        """How far the case has got, for a case that takes long (a site record read page by page):
        `done` of `total` `unit`s. Core shows it beside the run's count of cases (a line of
        progress.jsonl with a `part`); written at most a few times a second."""
        if not (type(done) is int and type(total) is int and 0 <= done <= total):
            raise ValueError(f"progress needs whole numbers 0 <= done <= total, not {done!r} of {total!r}")
        if not (isinstance(unit, str) and 0 < len(unit) <= 20 and unit.isprintable()):
            raise ValueError(f"a progress unit is a short printable word (at most 20 characters), not {unit!r}")
        if self._on_part is not None:
            self._on_part(done, total, unit)

    def log(self, message: str) -> None:
        """A line in the adapter's log (core keeps it as the run's adapter.log) and in the case's
        own log file, logs/..., which the run's report links from the case."""
        print(f"{self.case_id}: {message}", file=sys.stderr, flush=True)
        if self._on_log is not None:
            self._on_log(self.case_id, message)
