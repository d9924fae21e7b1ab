"""Reading and checking the request core wrote (`adapter-request.json`, core's `AdapterRequest`).

A request the kit cannot read at all (not JSON, no benchmark named) is refused with `Unreadable`:
no result can be written for it. One it can read but will not run (a benchmark type the adapter
does not serve, or that is not installed where it runs, another format, an unknown option, a
case input the type does not accept, a source path leaving the input directory) is refused with
`Refused`, and the kit writes a failed result saying why, which core reports as the run's
technical failure.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from envirobench import (
    PROTOCOL,
    REQUEST_FORMAT,
    AdapterRequest,
    BenchmarkType,
    EnviroBenchError,
    read_json,
    structure,
)

from .benchmarks import find_type

RESERVED_OPTIONS = ("max_concurrency",)  # the kit's own options, never passed to predict nor keyed


class Unreadable(Exception):
    """The request cannot be read well enough to write a result for it."""


class Refused(Exception):
    """The request is read but not run; `benchmark`, `format` and `model` are the request's, for the result."""

    def __init__(self, message: str, benchmark: str, format: str, model: str | None = None) -> None:
        super().__init__(message)
        self.benchmark = benchmark
        self.format = format
        self.model = model


@dataclass(frozen=True)
class Case:
    """One case as `predict` gets it."""

    id: str
    input: Mapping[str, Any]  # the case's input exactly as the request has it (JSON)
    parsed: Any  # the same, structured into the benchmark type's Input record
    sources: Mapping[str, Path]  # each source file the input names (input-directory-relative) -> its checked path


@dataclass(frozen=True)
class Job:
    path: Path
    request: AdapterRequest
    btype: BenchmarkType
    options: Mapping[str, str]  # the adapter's options: declared defaults, then the request's
    kit_options: Mapping[str, str]  # the reserved ones the request gave
    input_dir: Path
    cases: tuple[Case, ...]

    @property
    def benchmark(self) -> str:
        return self.request.benchmark.id


def read_job(path: Path, served: Collection[str], declared_options: Mapping[str, str], types: Iterable[type[BenchmarkType]] = ()) -> Job:
    """Read and check the request at `path` for an adapter serving `served` with `declared_options`
    (`types`: classes of types that are not installed as a plugin)."""
    path = Path(path)
    try:
        raw = read_json(path)
    except EnviroBenchError as exc:
        raise Unreadable(str(exc)) from None
    benchmark, fmt = _benchmark_of(raw)
    if benchmark is None or fmt is None:
        raise Unreadable(f"{path}: $.benchmark: the request names no benchmark id and format")
    model = raw.get("model") if isinstance(raw.get("model"), str) and raw.get("model") else None

    def refuse(message: str, field: str | None = None) -> Refused:
        return Refused(f"{field}: {message}" if field else message, benchmark, fmt, model)

    try:
        request = structure(raw, AdapterRequest, file=str(path))
    except EnviroBenchError as exc:
        raise refuse(exc.message, exc.field) from None
    if request.format != REQUEST_FORMAT or request.protocol != PROTOCOL:
        raise refuse(f"expected the protocol {PROTOCOL!r} and the format {REQUEST_FORMAT!r}", "$.format")
    if not (math.isfinite(request.budget_usd) and request.budget_usd >= 0):
        raise refuse(f"the budget must be a finite number of at least 0, not {request.budget_usd!r}", "$.budget_usd")
    if benchmark not in served:
        raise refuse(f"this adapter does not serve the benchmark type {benchmark!r}; it serves {', '.join(sorted(served))}", "$.benchmark.id")
    btype = find_type(benchmark, types)
    if btype is None:
        raise refuse(f"the benchmark type {benchmark!r} is not installed where this adapter runs: install the category "
                     "package that registers it in the adapter's Python environment", "$.benchmark.id")
    if fmt != btype.FORMAT:
        raise refuse(f"the request's format {fmt!r} is not {btype.FORMAT!r}, the format of {benchmark} installed here", "$.benchmark.format")
    options, kit_options = _options(request.options, declared_options, refuse)
    input_dir = Path(request.input_dir)
    if not input_dir.is_absolute() or not input_dir.is_dir():
        raise refuse(f"{request.input_dir!r} is not an absolute path to a directory", "$.input_dir")
    input_dir = input_dir.resolve()
    cases = []
    seen: set[str] = set()
    for index, rc in enumerate(request.cases):
        where = f"$.cases[{index}]"
        if not rc.id or rc.id in seen:
            raise refuse(f"case ID {rc.id!r} is empty or repeated", f"{where}.id")
        seen.add(rc.id)
        try:
            parsed = structure(rc.input, btype.Input, path=f"{where}.input")
        except EnviroBenchError as exc:
            raise refuse(f"not a valid {benchmark} input: {exc.message}", exc.field) from None
        sources = {}
        for relative in btype.source_files(parsed):
            sources[relative] = _source(input_dir, relative, lambda message, w=where: refuse(message, f"{w}.input"))
        cases.append(Case(rc.id, rc.input, parsed, sources))
    return Job(path, request, btype, options, kit_options, input_dir, tuple(cases))


def _benchmark_of(raw: Any) -> tuple[str | None, str | None]:
    benchmark = raw.get("benchmark") if isinstance(raw, dict) else None
    if not isinstance(benchmark, dict):
        return None, None
    bid, fmt = benchmark.get("id"), benchmark.get("format")
    return (bid if isinstance(bid, str) and bid else None), (fmt if isinstance(fmt, str) and fmt else None)


def _options(given: Mapping[str, str], declared: Mapping[str, str], refuse: Any) -> tuple[dict[str, str], dict[str, str]]:
    """Unknown options are refused, never ignored: a typo would silently run another system."""
    options, kit_options = dict(declared), {}
    for key, value in given.items():
        if key in RESERVED_OPTIONS:
            kit_options[key] = value
        elif key in declared:
            options[key] = value
        else:
            known = ", ".join([*sorted(declared), *RESERVED_OPTIONS])
            raise refuse(f"unknown option {key!r}; this adapter knows {known}", f"$.options.{key}")
    return options, kit_options


def _source(input_dir: Path, relative: str, refuse: Any) -> Path:
    """A case's source file, which must stay inside the input directory (no absolute path, no
    '..', no link leading out): the adapter must not be steered into reading anything else."""
    posix = PurePosixPath(relative)
    if not relative or posix.is_absolute() or "\\" in relative or ".." in posix.parts:
        raise refuse(f"source path {relative!r} must be relative to input_dir, with / separators and no '..'")
    resolved = (input_dir / posix).resolve()
    if not resolved.is_relative_to(input_dir):
        raise refuse(f"source path {relative!r} leads outside input_dir")
    return resolved
