"""The adapter protocol `envirobench.adapter.v1`: request and result records.

The request is the only thing an adapter learns about a run. It is built from case inputs alone:
no answers, no answer-file path, no dataset path, no earlier predictions, no links.
"""

from __future__ import annotations

from typing import Any, Literal

import attrs

PROTOCOL = "envirobench.adapter.v1"
REQUEST_FORMAT = "envirobench.adapter-request.v1"
RESULT_FILE = "adapter-result.json"
PROGRESS_FILE = "progress.jsonl"
# Optional: one line per finished case, appended as the adapter goes (`CaseLine`), so that the
# cases an interrupted or failed run finished are kept and a resumed run does not ask for them
# again (docs/runs.md, "Salvage and resume").
CASES_FILE = "cases.jsonl"


@attrs.frozen
class RequestBenchmark:
    id: str
    format: str


@attrs.frozen
class RequestDataset:
    id: str
    version: int
    input_digest: str


@attrs.frozen
class RequestCase:
    id: str
    input: dict[str, Any]


@attrs.frozen
class AdapterRequest:
    """`adapter-request.json`: what the system under test is asked to do."""

    format: Literal["envirobench.adapter-request.v1"]
    protocol: Literal["envirobench.adapter.v1"]
    run_id: str
    model: str
    budget_usd: float
    options: dict[str, str]
    benchmark: RequestBenchmark
    dataset: RequestDataset
    input_dir: str
    cases: tuple[RequestCase, ...]


@attrs.frozen
class AdapterInfo:
    name: str
    version: str


@attrs.frozen
class SystemUsage:
    """One system the adapter used (the candidate model, a judge, a fallback...)."""

    role: str
    model: str
    cost_usd: float
    execution_failures: int
    unpriced_attempts: int


@attrs.frozen
class CaseUsage:
    """What one case cost and how long it took, as the adapter measured it (either may be left
    out). Site-tier runs show them per site; core checks them against the run's totals."""

    id: str
    cost_usd: float | None = None
    wall_s: float | None = None
    # Optional: a file of the adapter's output (a relative path) holding this case's log lines or
    # trace; the report links it from the case's view.
    trace: str | None = None


@attrs.frozen
class CaseLine:
    """One line of the optional `cases.jsonl`: a finished case, its prediction in the type's
    format, and (optionally) what it cost and how long it took. Core reads it only to salvage an
    unfinished run's finished cases; each line is checked as any adapter output is."""

    id: str
    prediction: Any
    cost_usd: float | None = None
    wall_s: float | None = None


@attrs.frozen
class AdapterResult:
    """`adapter-result.json`: the adapter's account of what it did. `cases` (optional) gives the
    cost and wall time of each case; without it a site-tier run shows the run's totals divided
    by its sites, marked averaged."""

    id: str
    status: Literal["completed", "failed"]
    format: str
    data: str
    adapter: AdapterInfo
    systems: tuple[SystemUsage, ...]
    error: str | None = None
    cases: tuple[CaseUsage, ...] | None = None
