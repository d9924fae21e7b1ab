"""The adapter side of `envirobench.adapter.v1`: read and check a request, run it, write the result.

Core writes `adapter-request.json` and starts `ADAPTER run --request FILE --output DIR`. This
module refuses a request it cannot honour (wrong format, unknown benchmark, unknown option or
variant, a source path that leaves the input directory) before doing any work, then solves every
case with the benchmark's solver (a module of `solvers`) and writes into DIR:

- `progress.jsonl`: `{"done": n, "total": m}` lines while working (at most ~100, each flushed);
- `predictions.json`: case ID -> prediction, for every case that was processed;
- `failures.json`: case ID -> reason, only when some case could not be processed;
- `timings.json`: case ID -> seconds spent solving it (wall time, models already loaded for all
  but the first case that uses them), so a run's cost can be broken down by case and layout;
- `adapter-result.json`: written last, so its presence means the run finished.

A case that cannot be processed (an unreadable or missing image, say) does not stop the run. It
is counted in `execution_failures` and left out of `predictions.json` rather than given an empty
prediction: an empty prediction is a valid answer that could be scored, and the reference system
must never make up an answer it did not compute. Core sees the failure count (and the missing
case) and reports the run as a technical failure.

The adapter reads only the request file and the files the cases name under `input_dir`.
"""

from __future__ import annotations

import hashlib
import math
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath, PureWindowsPath
from types import ModuleType
from typing import Any

import numpy as np

from envirobench import (
    PROGRESS_FILE,
    PROTOCOL,
    REQUEST_FORMAT,
    RESULT_FILE,
    EnviroBenchError,
    dumps_line,
    read_json,
    write_json,
)

from . import NAME, __version__, solvers

PREDICTIONS_FILE = "predictions.json"
FAILURES_FILE = "failures.json"
TIMINGS_FILE = "timings.json"
MAX_PROGRESS_LINES = 100

# Benchmark ID -> its solver module: every module of the `solvers` package (see its docstring
# for what a solver declares).
SOLVERS: dict[str, ModuleType] = solvers.discover()
KNOWN_OPTIONS = ("variant", "jitter")

# Builds the error for a refused request field: refuse("$.options.variant", "unknown variant ...").
Refuse = Callable[[str, str], EnviroBenchError]


@dataclass(frozen=True)
class RequestCase:
    id: str
    input: Any  # the solver's parsed input
    sources: Mapping[str, Path]  # input-directory-relative path -> checked absolute path


@dataclass(frozen=True)
class Request:
    path: Path
    run_id: str
    model: str
    benchmark_id: str
    benchmark_format: str
    variant: str
    jitter: int | None  # the `jitter=SEED` option: perturb each image to emulate run-to-run variation
    input_dir: Path
    cases: tuple[RequestCase, ...]

    @property
    def solver(self) -> ModuleType:
        return SOLVERS[self.benchmark_id]


@dataclass(frozen=True)
class RunSummary:
    total: int
    predicted: int
    failures: Mapping[str, str]  # case ID -> why it could not be processed


def read_request(path: Path) -> Request:
    """Read and check a request; raise EnviroBenchError naming the field for anything refused."""
    path = Path(path)
    data = read_json(path)

    def refuse(field: str, message: str) -> EnviroBenchError:
        return EnviroBenchError(message, file=path, field=field)

    if not isinstance(data, dict):
        raise refuse("$", "a request must be a JSON object")
    for field, expected in (("format", REQUEST_FORMAT), ("protocol", PROTOCOL)):
        if data.get(field) != expected:
            raise refuse(f"$.{field}", f"expected {expected!r}, got {data.get(field)!r}")
    run_id = _string(data, "run_id", refuse)
    model = _string(data, "model", refuse)
    budget = data.get("budget_usd")
    if isinstance(budget, bool) or not isinstance(budget, (int, float)) or not math.isfinite(budget) or budget < 0:
        raise refuse("$.budget_usd", "must be a non-negative number")

    benchmark = data.get("benchmark")
    if not isinstance(benchmark, dict):
        raise refuse("$.benchmark", "must be an object with id and format")
    benchmark_id = _string(benchmark, "id", refuse, "$.benchmark.id")
    benchmark_format = _string(benchmark, "format", refuse, "$.benchmark.format")
    solver = SOLVERS.get(benchmark_id)
    if solver is None:
        raise refuse("$.benchmark.id", f"unknown benchmark {benchmark_id!r}; this adapter solves {', '.join(sorted(SOLVERS))}")
    if benchmark_format != solver.FORMAT:
        raise refuse("$.benchmark.format", f"unknown format {benchmark_format!r} for {benchmark_id}; expected {solver.FORMAT!r}")

    variant, jitter = _read_options(data.get("options", {}), solver, refuse)
    input_dir = _read_input_dir(data.get("input_dir"), refuse)

    raw_cases = data.get("cases")
    if not isinstance(raw_cases, list):
        raise refuse("$.cases", "must be a list")
    cases: list[RequestCase] = []
    seen: set[str] = set()
    for i, raw in enumerate(raw_cases):
        where = f"$.cases[{i}]"
        if not isinstance(raw, dict):
            raise refuse(where, "must be an object with id and input")
        case_id = _string(raw, "id", refuse, f"{where}.id")
        if case_id in seen:
            raise refuse(f"{where}.id", f"duplicate case ID {case_id!r}")
        seen.add(case_id)
        try:
            parsed = solver.parse_input(raw.get("input"), f"{where}.input")
        except ValueError as exc:
            raise EnviroBenchError(str(exc), file=path) from None
        sources = {
            relative: resolve_source(input_dir, relative, refuse, f"{where}.input")
            for relative in solver.source_files(parsed)
        }
        cases.append(RequestCase(case_id, parsed, sources))
    return Request(path, run_id, model, benchmark_id, benchmark_format, variant, jitter, input_dir, tuple(cases))


def _string(data: Mapping[str, Any], key: str, refuse: Refuse, field: str | None = None) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value:
        raise refuse(field or f"$.{key}", "must be a non-empty string")
    return value


def _read_options(options: Any, solver: ModuleType, refuse: Refuse) -> tuple[str, int | None]:
    """The variant to run and the jitter seed (None: no jitter). Unknown options and variants are refused, never ignored: a typo would
    otherwise silently run a different system than the one the user asked for."""
    if not isinstance(options, dict):
        raise refuse("$.options", "must be an object of string values")
    for key, value in options.items():
        if key not in KNOWN_OPTIONS:
            raise refuse(f"$.options.{key}", f"unknown option {key!r}; known options: {', '.join(KNOWN_OPTIONS)}")
        if not isinstance(value, str):
            raise refuse(f"$.options.{key}", "option values are strings")
    variant = options.get("variant", solver.DEFAULT_VARIANT)
    names = (*solver.VARIANTS, *solver.VARIANT_ALIASES)
    if variant not in names:
        raise refuse("$.options.variant", f"unknown variant {variant!r}; known variants: {', '.join(names)}")
    jitter = options.get("jitter")
    if jitter is not None and not (jitter.isascii() and jitter.isdigit()):
        raise refuse("$.options.jitter", f"jitter must be a non-negative integer seed, not {jitter!r}")
    return variant, None if jitter is None else int(jitter)


def _read_input_dir(value: Any, refuse: Refuse) -> Path:
    if not isinstance(value, str) or not value:
        raise refuse("$.input_dir", "must be a non-empty string")
    input_dir = Path(value)
    if not input_dir.is_absolute():
        raise refuse("$.input_dir", f"must be an absolute path, got {value!r}")
    if not input_dir.is_dir():
        raise refuse("$.input_dir", f"{value!r} is not a directory")
    return input_dir.resolve()


def resolve_source(input_dir: Path, relative: str, refuse: Refuse, field: str) -> Path:
    """The absolute path of a case's source file, which must stay inside the input directory.

    Refused: absolute paths, `..` parts and links that lead out of the directory. The adapter
    must not be steerable into reading anything else (such as a dataset's answers).
    """
    posix, windows = PurePosixPath(relative), PureWindowsPath(relative)
    if posix.is_absolute() or windows.is_absolute() or windows.drive or "\\" in relative:
        raise refuse(field, f"source path {relative!r} must be relative to input_dir, with / separators")
    if ".." in posix.parts:
        raise refuse(field, f"source path {relative!r} must not contain '..'")
    resolved = (input_dir / posix).resolve()
    if not resolved.is_relative_to(input_dir):
        raise refuse(field, f"source path {relative!r} leads outside input_dir")
    return resolved


class ProgressLog:
    """Appends `{"done": n, "total": m}` lines, flushed at once, at most ~MAX_PROGRESS_LINES."""

    def __init__(self, path: Path, total: int) -> None:
        self.path = path
        self.total = total
        self.step = max(1, math.ceil(total / MAX_PROGRESS_LINES))

    def __enter__(self) -> ProgressLog:
        self.handle = self.path.open("a", encoding="utf-8")
        self._write(0)
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.handle.close()

    def update(self, done: int) -> None:
        if done % self.step == 0 or done == self.total:
            self._write(done)

    def _write(self, done: int) -> None:
        self.handle.write(dumps_line({"done": done, "total": self.total}))
        self.handle.flush()


def prepare_output(output_dir: Path) -> Path:
    """Core creates the output directory empty; anything already in it belongs to another run."""
    output_dir = Path(output_dir)
    if output_dir.exists() and not output_dir.is_dir():
        raise EnviroBenchError("output path exists and is not a directory", file=output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)
    leftovers = sorted(p.name for p in output_dir.iterdir())
    if leftovers:
        raise EnviroBenchError(f"output directory is not empty ({', '.join(leftovers[:5])}); refusing to mix runs", file=output_dir)
    return output_dir


def case_jitter(request: Request, case_id: str) -> np.random.Generator | None:
    """A generator seeded by (jitter seed, case ID): reruns with the same seed agree exactly."""
    if request.jitter is None:
        return None
    digest = hashlib.sha256(f"{request.jitter}:{case_id}".encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "big"))


def run(request: Request, output_dir: Path) -> RunSummary:
    """Solve every case of the request and write the adapter's files into `output_dir`."""
    output_dir = prepare_output(output_dir)
    solver = request.solver
    predictions: dict[str, Any] = {}
    failures: dict[str, str] = {}
    timings: dict[str, float] = {}
    with ProgressLog(output_dir / PROGRESS_FILE, len(request.cases)) as progress:
        for done, case in enumerate(request.cases, start=1):
            started = time.perf_counter()
            try:
                predictions[case.id] = solver.solve(case.input, case.sources, request.variant, jitter=case_jitter(request, case.id))
            except Exception as exc:  # one unprocessable case must not sink the others
                failures[case.id] = f"{type(exc).__name__}: {exc}"
                print(f"{NAME}: case {case.id}: {failures[case.id]}", file=sys.stderr)
            timings[case.id] = round(time.perf_counter() - started, 4)
            progress.update(done)

    write_json(output_dir / PREDICTIONS_FILE, predictions)
    write_json(output_dir / TIMINGS_FILE, timings)
    if failures:
        write_json(output_dir / FAILURES_FILE, failures)
    write_json(output_dir / RESULT_FILE, result_document(request, len(failures), timings if getattr(solver, "PER_CASE_USAGE", False) else None))
    return RunSummary(len(request.cases), len(predictions), failures)


def result_document(request: Request, execution_failures: int, timings: Mapping[str, float] | None = None) -> dict[str, Any]:
    """`adapter-result.json`. The reference system calls no priced service: cost is always 0.
    With `timings` (solvers of site-tier types set PER_CASE_USAGE: one case is a whole site),
    each case's cost and wall time are reported too, so core shows them per site, not averaged."""
    document = {
        "id": request.benchmark_id,
        "status": "completed",
        "format": request.benchmark_format,
        "data": PREDICTIONS_FILE,
        "adapter": {"name": NAME, "version": __version__},
        "systems": [
            {
                "role": "candidate",
                "model": request.model,
                "cost_usd": 0.0,
                "execution_failures": execution_failures,
                "unpriced_attempts": 0,
            }
        ],
    }
    if timings is not None:
        document["cases"] = [{"id": case.id, "cost_usd": 0.0, "wall_s": timings[case.id]} for case in request.cases if case.id in timings]
    return document
