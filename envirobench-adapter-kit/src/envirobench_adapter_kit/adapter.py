"""`Adapter`: what an adapter author makes, registers predict functions on and runs.

    kit = Adapter(name="my-adapter", version="0.1.0", prices={"my/model": {"input_per_mtok": 1.0, "output_per_mtok": 2.0}})

    @kit.predict("count-words", max_input_tokens=2_000, max_output_tokens=20)
    def count(case, ctx):
        ...
        ctx.usage(input_tokens=..., output_tokens=...)
        return {"count": ...}

    if __name__ == "__main__":
        kit.main()

`kit.run(request, output)` does one run (what `ADAPTER run --request FILE --output DIR` does) and
writes into the output directory, per the protocol `envirobench.adapter.v1`:

- `progress.jsonl`: `{"done": n, "total": m}` lines while working (at most ~100, each flushed),
  and lines with a `part` when predict reports the progress inside a case (`ctx.progress`);
- `cases.jsonl`: one line per case done, appended as it is done (`{"id", "prediction", "cost_usd",
  "wall_s"}`): what an interrupted or failed run finished, which `envirobench run --resume` keeps;
- `predictions.json`: case ID -> prediction, for every case that has a valid one;
- `kit-report.json`: what became of each case (predicted, cached, failed, not started), its cost,
  wall time and every failed attempt, the cache's hits, the budget and why the run stopped;
- `adapter-result.json`, last: `completed`, or `failed` with the reason when the request was
  refused or the budget stopped the run before every case was done. Core treats a failed
  result, an execution failure and a missing case alike: a technical failure, nothing scored.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import math
import os
import re
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click

from envirobench import (
    CASES_FILE,
    PROGRESS_FILE,
    RESULT_FILE,
    BenchmarkType,
    EnviroBenchError,
    dumps_line,
    write_json,
)

from . import __version__
from .budget import Ledger, Price, read_prices
from .cache import SAFE_NAME, Cache
from .engine import Bound, Outcome, Runner, Served, Settings, TokenBound
from .request import Job, Refused, Unreadable, read_job

PREDICTIONS_FILE = "predictions.json"
REPORT_FILE = "kit-report.json"
REPORT_FORMAT = "envirobench-adapter-kit.report.v1"
MAX_PROGRESS_LINES = 100
PART_INTERVAL_S = 0.5
MAX_CASE_LOGS = 10_000
MAX_CONCURRENCY = 256
F = TypeVar("F", bound=Callable[..., Any])


class KitError(Exception):
    """The run could not be made and no result could be written (the message says why)."""


@dataclass(frozen=True)
class Report:
    """What `Adapter.run` did: the result's status and reason, and each case's outcome."""

    status: str  # "completed" or "failed"
    error: str | None
    outcomes: Mapping[str, Outcome]
    spent_usd: float

    def count(self, status: str) -> int:
        return sum(o.status == status for o in self.outcomes.values())


class Adapter:
    """An EnviroBench adapter: one predict function per benchmark type it serves.

    `prices`: USD per million tokens of each model it may be run with (`envirobench run --model`),
    `{"provider/model": {"input_per_mtok": 1.0, "output_per_mtok": 2.0}}`; `ctx.usage` prices
    tokens by it. `options`: the `--adapter-option`s it takes, with their defaults (any other is
    refused; `max_concurrency` is the kit's own). `max_attempts`, `backoff_s`, `max_backoff_s`:
    the retries of a transient failure. `max_concurrency`: cases run at once, unless the command
    line's `--max-concurrency` or the option `max_concurrency` says otherwise. `types`: the
    classes of benchmark types it serves that are not installed as a plugin (the installed
    plugins' types are found by their IDs). `resolve_options(benchmark, options) -> options`: checks
    the options for the benchmark type the request names, before any case starts, and returns
    the ones predict sees and the cache keys (an alias resolved to its name, say); a ValueError
    it raises refuses the request with its message (a variant this type does not have).
    `prices_from_options(options) -> prices`: more prices (the form of `prices`, over them) from
    the run's options, for an adapter whose user gives the price of the model it runs; a
    ValueError refuses the request, naming the options."""

    def __init__(self, name: str, version: str, *, prices: Mapping[str, Mapping[str, float]] | None = None,
                 options: Mapping[str, str] | None = None, max_concurrency: int = 4, max_attempts: int = 4,
                 backoff_s: float = 1.0, max_backoff_s: float = 60.0, types: Sequence[type[BenchmarkType]] = (),
                 resolve_options: Callable[[str, Mapping[str, str]], Mapping[str, str]] | None = None,
                 prices_from_options: Callable[[Mapping[str, str]], Mapping[str, Mapping[str, float]]] | None = None) -> None:
        if not SAFE_NAME.fullmatch(name):
            raise ValueError(f"an adapter name must be letters, digits, '.', '_' or '-', not {name!r}")
        if not isinstance(version, str) or not version:
            raise ValueError("an adapter needs a version (it is part of every cache key)")
        self.name, self.version = name, version
        self.prices = read_prices(prices)
        # Prices the run's options give (an adapter for any server, priced by its user), over `prices`.
        self.prices_from_options = prices_from_options
        self.options = dict(options or {})
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in self.options.items()) or "max_concurrency" in self.options:
            raise ValueError("options map option names to default string values (max_concurrency is the kit's own)")
        if not (1 <= max_concurrency <= MAX_CONCURRENCY and max_attempts >= 1 and 0 <= backoff_s <= max_backoff_s):
            raise ValueError("need 1 <= max_concurrency <= 256, max_attempts >= 1 and 0 <= backoff_s <= max_backoff_s")
        self.settings = Settings(max_concurrency, max_attempts, backoff_s, max_backoff_s)
        self.types = tuple(types)
        self.resolve_options = resolve_options
        self.served: dict[str, Served] = {}

    def predict(self, benchmark: str, *, max_cost_usd: Bound = None, max_input_tokens: TokenBound = None,
                max_output_tokens: TokenBound = None) -> Callable[[F], F]:
        """Register `function(case, ctx) -> prediction` (plain or async) for a benchmark type.

        Its worst case per attempt, which the budget reserves before the attempt starts: either
        `max_cost_usd`, or `max_input_tokens` and `max_output_tokens` at the run's model's price
        (each a number, or a function of the case, or of the case and the run's options). A function that declares neither must not
        spend: any cost it records stops the run (the budget stop could not hold)."""
        if benchmark in self.served:
            raise ValueError(f"{benchmark!r} is served twice")
        if (max_input_tokens is None) != (max_output_tokens is None):
            raise ValueError("declare both max_input_tokens and max_output_tokens, or neither")

        def register(function: F) -> F:
            self.served[benchmark] = Served(benchmark, function, max_cost_usd, max_input_tokens, max_output_tokens)
            return function

        return register

    def main(self, argv: Sequence[str] | None = None) -> NoReturn:
        """The command line: `ADAPTER run --request FILE --output DIR [--max-concurrency N]`, `ADAPTER describe`."""
        command(self).main(args=list(argv) if argv is not None else None, prog_name=self.name)
        raise SystemExit(0)  # pragma: no cover (click exits)

    def run(self, request: str | Path, output: str | Path, *, max_concurrency: int | None = None,
            cache_dir: str | Path | None = None) -> Report:
        """One run: read the request, predict every case, write the output (see the module's
        docstring). `cache_dir`: the cache's directory, else `$ENVIROBENCH_ADAPTER_CACHE`, else
        none. Raises KitError when no result can be written (an unreadable request, an output
        directory that is not empty)."""
        output_dir = prepare_output(Path(output))
        try:
            job = self._resolved(read_job(Path(request), self.served, self.options, self.types))
            settings = self._settings(job, max_concurrency)
            prices = self._prices(job)
            self._check_prices(job, prices)
            cache = Cache(Path(cache_dir), self.name) if cache_dir is not None else Cache.from_environment(self.name)
        except Refused as exc:
            systems = [] if exc.model is None else Ledger(exc.model).systems()
            write_json(output_dir / RESULT_FILE, self._result(exc.benchmark, exc.format, "failed", str(exc), systems, None))
            return Report("failed", str(exc), {}, 0.0)
        except (Unreadable, EnviroBenchError) as exc:
            raise KitError(str(exc)) from None
        logs = CaseLogs(output_dir)
        with ProgressLog(output_dir / PROGRESS_FILE, len(job.cases)) as progress, CaseLog(output_dir / CASES_FILE) as finished:

            def done(outcome: Outcome) -> None:
                finished.write(outcome)
                progress.advance()

            runner = Runner(job, self.served[job.benchmark], settings, prices, cache, (self.name, self.version), done, progress.part, logs.write)
            outcomes = asyncio.run(runner.run())
        assert runner.budget is not None
        stopped = runner.budget.stopped
        not_started = [o.id for o in outcomes.values() if o.status == "not-started"]
        error = None
        if stopped is not None and not_started:
            error = f"{stopped}; {len(not_started)} of {len(outcomes)} case(s) not started"
        elif stopped is not None:
            error = stopped  # every case was done, but what was spent breaks a rule the run must keep
        predictions = {o.id: o.prediction for o in outcomes.values() if o.status in ("predicted", "cached")}
        write_json(output_dir / PREDICTIONS_FILE, predictions)
        spent = math.fsum(float(s["cost_usd"]) for s in runner.ledger.systems())  # type: ignore[arg-type]
        write_json(output_dir / REPORT_FILE, self._report(job, settings, runner, outcomes, spent, cache))
        status = "failed" if error else "completed"
        cases = [{"id": o.id, "cost_usd": o.cost_usd, "wall_s": None if o.status == "cached" or o.wall_s is None else round(o.wall_s, 3)}
                 | ({"trace": logs.files[o.id]} if o.id in logs.files else {}) for o in outcomes.values() if o.status != "not-started"]
        document = self._result(job.benchmark, job.request.benchmark.format, status, error, runner.ledger.systems(), cases)
        write_json(output_dir / RESULT_FILE, document)
        return Report(status, error, outcomes, spent)

    def _resolved(self, job: Job) -> Job:
        if self.resolve_options is None:
            return job
        try:
            options = dict(self.resolve_options(job.benchmark, dict(job.options)))
        except ValueError as exc:
            raise Refused(str(exc), job.benchmark, job.request.benchmark.format, job.request.model) from None
        return dataclasses.replace(job, options=options)

    def _settings(self, job: Job, max_concurrency: int | None) -> Settings:
        value = max_concurrency
        if value is None and "max_concurrency" in job.kit_options:
            text = job.kit_options["max_concurrency"]
            if not re.fullmatch(r"[0-9]{1,3}", text):
                raise Refused(f"$.options.max_concurrency: must be a whole number from 1 to {MAX_CONCURRENCY}, not {text!r}",
                              job.benchmark, job.request.benchmark.format, job.request.model)
            value = int(text)
        value = self.settings.max_concurrency if value is None else value
        if not 1 <= value <= MAX_CONCURRENCY:
            raise Refused(f"max_concurrency must be from 1 to {MAX_CONCURRENCY}, not {value}", job.benchmark, job.request.benchmark.format,
                          job.request.model)
        return Settings(value, self.settings.max_attempts, self.settings.backoff_s, self.settings.max_backoff_s)

    def _prices(self, job: Job) -> dict[str, Price]:
        if self.prices_from_options is None:
            return self.prices
        try:
            given = read_prices(self.prices_from_options(job.options))
        except ValueError as exc:
            raise Refused(f"$.options: {exc}", job.benchmark, job.request.benchmark.format, job.request.model) from None
        return {**self.prices, **given}

    def _check_prices(self, job: Job, prices: Mapping[str, Price]) -> None:
        served = self.served[job.benchmark]
        if served.priced_by_tokens and job.request.model not in prices:
            priced = ", ".join(sorted(prices)) or "none"
            raise Refused(f"$.model: {job.request.model!r} has no price in this adapter's price table (priced: {priced}), "
                          "so what a case may cost cannot be bounded and the budget could not be kept", job.benchmark,
                          job.request.benchmark.format, job.request.model)

    def _result(self, benchmark: str, fmt: str, status: str, error: str | None, systems: list[dict[str, Any]],
                cases: list[dict[str, Any]] | None) -> dict[str, Any]:
        document: dict[str, Any] = {
            "id": benchmark,
            "status": status,
            "format": fmt,
            "data": PREDICTIONS_FILE,
            "adapter": {"name": self.name, "version": self.version},
            "systems": systems,
        }
        if error is not None:
            document["error"] = error
        if cases is not None:
            document["cases"] = cases
        return document

    def _report(self, job: Job, settings: Settings, runner: Runner, outcomes: Mapping[str, Outcome], spent: float,
                cache: Cache | None) -> dict[str, Any]:
        counts = {s: sum(o.status == s for o in outcomes.values()) for s in ("predicted", "cached", "failed", "not-started")}
        assert runner.budget is not None
        return {
            "format": REPORT_FORMAT,
            "kit": {"name": "envirobench-adapter-kit", "version": __version__},
            "adapter": {"name": self.name, "version": self.version},
            "benchmark": job.benchmark,
            "model": job.request.model,
            "max_concurrency": settings.max_concurrency,
            "max_attempts": settings.max_attempts,
            "budget_usd": job.request.budget_usd,
            "spent_usd": spent,
            "stopped": runner.budget.stopped,
            "cache": None if cache is None else {"hits": counts["cached"], "ignored_entries": cache.ignored},
            "counts": counts,
            "cases": {o.id: o.record() for o in outcomes.values()},
        }


def prepare_output(output_dir: Path) -> Path:
    """Core makes the output directory empty; anything already in it belongs to another run."""
    if output_dir.exists() and not output_dir.is_dir():
        raise KitError(f"{output_dir}: the output path exists and is not a directory")
    output_dir.mkdir(parents=True, exist_ok=True)
    leftovers = sorted(p.name for p in output_dir.iterdir())
    if leftovers:
        raise KitError(f"{output_dir}: the output directory is not empty ({', '.join(leftovers[:5])}); refusing to mix runs")
    return output_dir


class ProgressLog:
    """Appends `{"done": n, "total": m}` lines to progress.jsonl, each flushed at once (core reads
    them as they come), at most ~MAX_PROGRESS_LINES of them; and, for `ctx.progress`, lines that
    add the progress inside a case (`"part": {"done", "total", "unit"}`), at most one every
    PART_INTERVAL_S seconds but the last of a case. Predict functions in threads write parts, so
    writes hold a lock."""

    def __init__(self, path: Path, total: int) -> None:
        self.path, self.total, self.done = path, total, 0
        self.step = max(1, math.ceil(total / MAX_PROGRESS_LINES))
        self.lock = threading.Lock()
        self.last_part = -math.inf

    def __enter__(self) -> ProgressLog:
        self.handle = self.path.open("a", encoding="utf-8")
        self._write()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.handle.close()

    def advance(self) -> None:
        self.done += 1
        if self.done % self.step == 0 or self.done == self.total:
            self._write()

    def part(self, done: int, total: int, unit: str) -> None:
        now = time.monotonic()
        if done < total and now - self.last_part < PART_INTERVAL_S:
            return
        self.last_part = now
        self._write({"done": done, "total": total, "unit": unit})

    def _write(self, part: dict[str, Any] | None = None) -> None:
        line = {"done": self.done, "total": self.total} | ({"part": part} if part else {})
        try:
            with self.lock:
                self.handle.write(dumps_line(line))
                self.handle.flush()
        except OSError as exc:  # progress is a courtesy: a full disk must not fail the cases
            print(f"warning: could not write progress: {exc}", file=sys.stderr, flush=True)


class CaseLog:
    """Appends one line to cases.jsonl per case done with a valid prediction whose cost is known
    (`{"id", "prediction", "cost_usd", "wall_s"}`, the protocol's optional per-case output), each
    written whole and flushed at once: whatever stops the run, core keeps the cases finished, and
    `envirobench run --resume` does not ask for them again (docs/runs.md, "Salvage and resume")."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __enter__(self) -> CaseLog:
        self.handle = self.path.open("a", encoding="utf-8")
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.handle.close()

    def write(self, outcome: Outcome) -> None:
        if outcome.status not in ("predicted", "cached") or outcome.cost_usd is None:
            return  # a failed case has no prediction; an unpriced one's cost is unknown, so it is asked for again
        wall = None if outcome.status == "cached" or outcome.wall_s is None else round(outcome.wall_s, 3)
        line = {"id": outcome.id, "prediction": outcome.prediction, "cost_usd": outcome.cost_usd, "wall_s": wall}
        try:
            self.handle.write(dumps_line(line))
            self.handle.flush()
        except OSError as exc:  # a full disk: the case stays in predictions.json and the cache
            print(f"warning: could not write {CASES_FILE}: {exc}", file=sys.stderr, flush=True)


class CaseLogs:
    """`ctx.log` lines, each case's in a file of its own under logs/ (named from the case ID, made
    safe), named in the result as the case's `trace` so that the report links it. At most
    MAX_CASE_LOGS files (core copies at most 100,000 entries of the output); later cases' lines
    are in the adapter's log only."""

    def __init__(self, output_dir: Path) -> None:
        self.output_dir = output_dir
        self.files: dict[str, str] = {}
        self.lock = threading.Lock()

    def write(self, case_id: str, message: str) -> None:
        with self.lock:
            relative = self.files.get(case_id)
            if relative is None:
                if len(self.files) >= MAX_CASE_LOGS:
                    return
                safe = re.sub(r"[^A-Za-z0-9._-]", "_", case_id)[:80].lstrip(".") or "case"
                if safe != case_id or safe in self.files.values():
                    safe += "-" + hashlib.sha256(case_id.encode("utf-8", "surrogatepass")).hexdigest()[:12]
                relative = self.files[case_id] = f"logs/{safe}.log"
            try:
                (self.output_dir / "logs").mkdir(exist_ok=True)
                with open(self.output_dir / relative, "a", encoding="utf-8", errors="backslashreplace") as fh:
                    fh.write(message.rstrip("\n") + "\n")
            except OSError as exc:
                print(f"warning: could not write {relative}: {exc}", file=sys.stderr, flush=True)


# -- the command line -------------------------------------------------------------------------------

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}


def command(adapter: Adapter) -> click.Group:
    """The command line of an adapter made with the kit (`kit.main()`).

        ADAPTER run --request FILE --output DIR [--max-concurrency N]
        ADAPTER describe [--json]

    Exit status of `run`: 0 when a result was written (`completed`, or `failed` with its reason,
    which core then reports); 1 when none could be (an unreadable request, an output directory
    that is not empty; the message on stderr); 2 on a usage error; 130 when interrupted by SIGINT
    (the cases finished so far are in the cache, when there is one, and are not predicted again)."""
    @click.group(context_settings=CONTEXT_SETTINGS, help=f"{adapter.name} {adapter.version}: an EnviroBench adapter "
                 f"(protocol envirobench.adapter.v1), made with envirobench-adapter-kit {__version__}.")
    @click.version_option(adapter.version, "-V", "--version", prog_name=adapter.name)
    def main() -> None:
        pass

    @main.command("run", context_settings=CONTEXT_SETTINGS)
    @click.option("--request", "request", required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
                  help="The adapter-request.json core wrote.")
    @click.option("--output", "output", required=True, type=click.Path(file_okay=False, path_type=Path),
                  help="The (empty) directory to write adapter-result.json, predictions.json, kit-report.json and progress.jsonl into.")
    @click.option("--max-concurrency", type=click.IntRange(1, MAX_CONCURRENCY), default=None,
                  help=f"Cases run at once (default: the option max_concurrency, else {adapter.settings.max_concurrency}).")
    def run(request: Path, output: Path, max_concurrency: int | None) -> None:
        """Predict every case of a request and write the adapter's result."""
        try:
            report = adapter.run(request, output, max_concurrency=max_concurrency)
        except KitError as exc:
            raise click.ClickException(str(exc)) from None
        except KeyboardInterrupt:
            print(f"{adapter.name}: interrupted; the cases finished so far are in the cache, if there is one", file=sys.stderr, flush=True)
            sys.stdout.flush()
            # At once: a predict function still running in a thread is not waited for (every
            # cache entry and output file is written whole or not at all).
            os._exit(130)
        counts = ", ".join(f"{report.count(s)} {s}" for s in ("predicted", "cached", "failed", "not-started") if report.count(s))
        click.echo(f"{adapter.name}: {report.status}: {counts or 'no cases'}; ${report.spent_usd:.6g} spent"
                   + (f"; {report.error}" if report.error else ""), err=True)

    @main.command("describe", context_settings=CONTEXT_SETTINGS)
    @click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
    def describe(as_json: bool) -> None:
        """The benchmark types this adapter serves, its options and the models it has prices for."""
        rows = {
            "adapter": adapter.name,
            "version": adapter.version,
            "benchmarks": sorted(adapter.served),
            "options": adapter.options,
            "priced_models": sorted(adapter.prices),
        }
        if as_json:
            click.echo(json.dumps(rows, indent=2, sort_keys=True))
            return
        click.echo(f"{adapter.name} {adapter.version}")
        click.echo(f"serves: {', '.join(rows['benchmarks']) or 'nothing'}")
        click.echo(f"options: {', '.join(f'{k} (default {v!r})' for k, v in adapter.options.items()) or 'none'} (and max_concurrency)")
        click.echo(f"priced models: {', '.join(rows['priced_models']) or 'none'}")

    return main
