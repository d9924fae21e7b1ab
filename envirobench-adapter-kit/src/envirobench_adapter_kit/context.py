"""What a predict function gets besides its case (`ctx`), and the error it raises to be retried."""

from __future__ import annotations

import sys
from collections.abc import Mapping
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
                 attempt: int, meter: Meter) -> None:
        self.benchmark = benchmark  # the benchmark type's ID
        self.case_id = case_id
        self.model = model  # `envirobench run --model`
        self.options: Mapping[str, str] = MappingProxyType(dict(options))  # the adapter's options, defaults filled in
        self.input_dir = input_dir  # where the case's source files are (see `case.sources`)
        self.attempt = attempt  # 1 for the first attempt, 2 for the first retry, ...
        self._meter = meter

    def usage(self, input_tokens: int = 0, output_tokens: int = 0, *, model: str | None = None, role: str = CANDIDATE) -> float | None:
        """Record one call's tokens, priced from the adapter's price table; returns its cost in
        USD, or None when the model has no price (an unpriced attempt: the run then fails, and
        nothing more is started, since its cost is unknown). `model` defaults to ctx.model;
        `role` names what the model did (a second model used as a judge: role="judge")."""
        return self._meter.tokens(role, model or self.model, input_tokens, output_tokens)

    def cost(self, usd: float, *, model: str | None = None, role: str = CANDIDATE) -> None:
        """Record a cost known in USD (a service that bills per page, say)."""
        self._meter.usd(role, model or self.model, usd)

    def log(self, message: str) -> None:
        """A line in the adapter's log (core keeps it as the run's adapter.log)."""
        print(f"{self.case_id}: {message}", file=sys.stderr, flush=True)
