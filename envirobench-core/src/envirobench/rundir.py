"""The run directory as a typed format: its file names, format IDs and records.

`results/<run-id>/` holds what one run made (see docs/architecture.md, "The run directory"):

    run.json             RunRecord: how the run was made, dataset identity, cost, wall time, gate,
                         the sandbox, and the size and SHA-256 of every file in adapter/
    adapter-request.json the input-only request (envirobench.protocol.AdapterRequest)
    adapter/             the adapter's regular files, copied by core from its private workspace
    adapter.log          the adapter's stdout and stderr, written by core from pipes
    comparison.json      Comparison: answers joined with every compared run's predictions
    metrics.json         Metrics: per-profile headline metrics, pairing, per-case scores
    review-brief.json    ReviewBrief: changed cases grouped for a reviewer
    summary.md           the plain-English verdict
    report.html          the offline report, with report-assets/ beside it
    interpretation.json  a reviewer's reading of the changes (envirobench.review), when one exists
    salvaged.json        a resumed run's: the cases an unfinished attempt finished (salvage.py)

Every reader and writer of run.json, metrics.json, comparison.json and review-brief.json goes
through the classes here and the strict converter, so a file that does not match its format is
refused with a `$.path` message, and the JSON Schemas in docs/schemas come from the same classes.
This module imports nothing of core above the records it is made of.

Compatibility: the `.v1` formats are exactly what envirobench-core 0.1.0 wrote, so its run
directories read as they are. A run directory that does not read (another format, a hand-edited
field) is refused with the command that makes it current: `envirobench score --run DIR` rescores
it from its saved predictions.

Length: one small record class per JSON object of five files, kept together so that one module
says all a run directory is; splitting it would put one format in several places. How the
largest records are written fast, in pieces (write_metrics, write_comparison), is rundir_text.py's.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

import attrs

from .benchmark import CaseScore
from .converter import structure, unstructure
from .errors import EnviroBenchError
from .jsonio import (
    atomic_write_text,
    dumps,
    read_json,
)
from .protocol import SystemUsage

# A run ID names its directory: letters, digits, '.', '_' and '-', not starting with '.' or '-'.
RUN_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")


def check_run_id(run_id: str) -> None:
    if not RUN_ID.match(run_id):
        raise EnviroBenchError(f"run ID {run_id!r} must be letters, digits, '.', '_' or '-' (not starting with '.' or '-')")


# -- file names ----------------------------------------------------------------------------------

RUN_FILE = "run.json"
REQUEST_FILE = "adapter-request.json"
ADAPTER_DIR = "adapter"
ADAPTER_LOG = "adapter.log"
COMPARISON_FILE = "comparison.json"
METRICS_FILE = "metrics.json"
REVIEW_BRIEF_FILE = "review-brief.json"
SUMMARY_FILE = "summary.md"
REPORT_FILE = "report.html"
ASSETS_DIR = "report-assets"
INTERPRETATION_FILE = "interpretation.json"
# A resumed run's predictions of the cases an earlier, unfinished attempt finished (salvage.py).
SALVAGED_FILE = "salvaged.json"

# The files a scored run writes beside run.json; a failed run has none of them.
SCORED_FILES = (METRICS_FILE, COMPARISON_FILE, REVIEW_BRIEF_FILE, REPORT_FILE, SUMMARY_FILE)
# Everything core itself writes into a run directory; a rescore writes these again (the rest of
# the directory, adapter/ and interpretation.json, is carried over as it is).
RESCORED_FILES = (*SCORED_FILES, RUN_FILE)

# The default limit on what core copies from the adapter's output directory (`--max-output-mb`),
# and on a saved predictions file read back from a run that recorded no sizes.
MAX_OUTPUT_MB = 512

# -- format IDs ----------------------------------------------------------------------------------

RUN_FORMAT = "envirobench.run.v1"
METRICS_FORMAT = "envirobench.metrics.v1"
COMPARISON_FORMAT = "envirobench.comparison.v1"
REVIEW_BRIEF_FORMAT = "envirobench.review-brief.v1"
INTERPRETATION_FORMAT = "envirobench.interpretation.v1"

# -- vocabularies --------------------------------------------------------------------------------

# "unscored": a run on a sealed dataset (docs/holdout.md), checked but scored only by the service
# holding its answer key.
RunStatus = Literal["running", "completed", "failed", "unscored"]
GateStatus = Literal["passed", "failed", "baseline required", "unavailable"]
Bucket = Literal["worse", "better", "noisy", "remaining", "unchanged-correct"]
BUCKETS: tuple[str, ...] = ("worse", "better", "noisy", "remaining", "unchanged-correct")
# The buckets a reviewer looks at (unchanged-correct cases need no review).
REVIEW_GROUPS: tuple[str, ...] = ("worse", "better", "noisy", "remaining")

CANDIDATE = "candidate"
BASELINE = "baseline"


def control_label(index: int) -> str:
    """The label of the index-th control run (1-based), as metrics and the report name it."""
    return f"control-{index}"


# -- run.json ------------------------------------------------------------------------------------


@attrs.frozen
class Failure:
    """Why a run did not complete: a technical failure or an interruption. Nothing was scored."""

    message: str


@attrs.frozen
class CoreInfo:
    """The envirobench-core that made or last rescored the run."""

    version: str


@attrs.frozen
class PluginRef:
    """The plugin that registered the run's benchmark type."""

    name: str
    distribution: str
    version: str


@attrs.frozen
class BenchmarkInfo:
    """The benchmark type as it was when the run was scored."""

    id: str
    label: str
    format: str
    scoring_version: str
    tier: str
    profiles: tuple[str, ...]
    headline: tuple[str, ...]
    categories: tuple[str, ...]
    viewer: str
    plugin: PluginRef


@attrs.frozen
class RunDataset:
    """The dataset identity a run was scored on, and where it was found (`source`): a registered
    dataset ID, or the absolute path of a dataset directory."""

    id: str
    version: int
    digest: str
    input_digest: str
    answer_digest: str
    source: str


@attrs.frozen
class AdapterRecord:
    """The adapter as requested (`requested`, `command`) and as it described itself (`name`,
    `version`, from its adapter-result.json; null when it wrote none)."""

    requested: str
    command: tuple[str, ...]
    name: str | None = None
    version: str | None = None


@attrs.frozen
class CaseCounts:
    requested: int
    scored: int
    retired: int
    sites: int | None = None


@attrs.frozen
class SiteUsage:
    """Cost and wall time of one site (one case of a site-tier run): the adapter's own figures
    when it gave them per case, else the run's totals divided by its sites (`*_averaged`)."""

    case: str
    cost_usd: float | None
    wall_time_s: float | None
    cost_averaged: bool
    wall_averaged: bool


@attrs.frozen
class RunRef:
    """A compared run: its label (`baseline`, `control-1`, ...), ID and absolute path; and, when
    its per-case scores were computed again rather than taken from its metrics.json, why (null:
    taken from it; absent in runs made before core reused them)."""

    label: str
    run_id: str
    path: str
    rescored_because: str | None = None


@attrs.frozen
class Pairing:
    baseline: RunRef | None = None
    controls: tuple[RunRef, ...] = ()


@attrs.frozen
class GateRecord:
    """The regression gate's verdict: overall and per profile, with the cases behind it."""

    status: GateStatus
    profiles: tuple[str, ...]
    targets: tuple[str, ...]
    by_profile: dict[str, GateStatus]
    regressions: dict[str, tuple[str, ...]]
    failing_targets: dict[str, tuple[str, ...]]


@attrs.frozen
class HistoryState:
    """What a rescore or re-key changed: the dataset, pairing and gate before it."""

    dataset: RunDataset
    pairing: Pairing
    gate: GateRecord | None


@attrs.frozen
class HistoryEntry:
    at: str
    action: Literal["rescore", "rekey"]
    core_version: str
    before: HistoryState


@attrs.frozen
class SandboxRecord:
    """How the adapter ran: `bwrap` (bubblewrap) or `none`, with or without the network, and the
    names of the environment variables passed to it with --adapter-env (never their values), and
    the paths --sandbox-allow showed it besides the allow-list, and its --adapter-cache directory."""

    kind: Literal["bwrap", "none"]
    network: bool
    env: tuple[str, ...] = ()
    allow: tuple[str, ...] = ()
    cache: str | None = None


@attrs.frozen
class OutputFile:
    """A file of adapter/ as core copied it: its size in bytes and SHA-256 (hex)."""

    size: int
    sha256: str


@attrs.frozen
class SkippedOutput:
    """An entry of the adapter's output directory that core did not copy, and why (a link, a FIFO...)."""

    path: str
    reason: str


@attrs.frozen
class AdapterOutput:
    """adapter/ as core copied it: every file (path relative to adapter/, '/'-separated) with its
    size and SHA-256, checked again whenever the run is rescored or compared with, and the entries
    that were not copied."""

    files: dict[str, OutputFile]
    skipped: tuple[SkippedOutput, ...] = ()


@attrs.frozen
class ShardRecord:
    """One shard of a run spread over machines (`run --shard I/N`): its index (0-based), the
    number of shards, and how many of the dataset's cases it holds (`cases` of `of`). It keeps
    what the whole run was given and the shard holds only a part of: the budget (run.json's
    `budget_usd` is the shard's share) and the target cases (its gate checks those among its
    cases). `envirobench merge` joins the shards into one run (docs/runs.md, "Repeats, shards and
    merging")."""

    index: int
    count: int
    cases: int
    of: int
    budget_usd: float
    targets: tuple[str, ...] = ()


@attrs.frozen
class Partial:
    """A partial run: only some of the dataset's cases were run (`envirobench run --case ID` or
    `--limit N`), for a quick look. A partial run is never a baseline or a control, is never
    promoted and never reaches a leaderboard."""

    cases: int  # the cases run
    of: int  # the dataset's unretired cases
    selected_by: str  # how they were chosen, e.g. "--limit 10" or "--case c1 --case c2"

    def describe(self) -> str:
        """How the summary, the report and every refusal name it: "partial run: 5 of 12 cases (--limit 5)"."""
        return f"partial run: {self.cases} of {self.of} cases ({self.selected_by})"


@attrs.frozen
class TimeoutRecord:
    """The time limit the adapter ran under, in seconds: given with --timeout, or (`default`)
    the default for the type's tier and the run's number of cases (runs.default_timeout_s)."""

    seconds: float
    default: bool


@attrs.frozen
class Resumed:
    """A run that continued an unfinished one (`run --resume`): the run it continued (its ID, and
    its directory: a failed run, first renamed RUN_ID.failed-N, or a hidden `.ID.incomplete-*`),
    how many of its cases were salvaged (their predictions, checked, are in salvaged.json, whose
    size and SHA-256 are here) and what they had cost (included in the run's `cost_usd`)."""

    from_run: str
    from_path: str
    salvaged: int
    salvaged_cost_usd: float
    size: int
    sha256: str


@attrs.frozen
class RunRecord:
    """`run.json`: how a run was made, what it cost, and its gate (null until it is scored)."""

    format: Literal["envirobench.run.v1"]
    run_id: str
    status: RunStatus
    failure: Failure | None
    created_at: str
    finished_at: str | None
    core: CoreInfo
    benchmark: BenchmarkInfo
    dataset: RunDataset
    adapter: AdapterRecord
    model: str
    options: dict[str, str]
    budget_usd: float
    cost_usd: float | None
    systems: tuple[SystemUsage, ...]
    wall_time_s: float | None
    adapter_wall_time_s: float | None
    cases: CaseCounts
    pairing: Pairing
    gate: GateRecord | None
    require_no_regressions: bool
    history: tuple[HistoryEntry, ...] = ()
    # Both null in runs made before core recorded them (they read as they are).
    sandbox: SandboxRecord | None = None
    adapter_output: AdapterOutput | None = None
    # Null for a run of every case; set for a quick run of some (`run --case`, `--limit`).
    partial: Partial | None = None
    # Set for one shard of a sharded run; a merged run lists the shard runs it was made from.
    shard: ShardRecord | None = None
    merged_from: tuple[str, ...] = ()
    # Repeats of one configuration (`run --repeats N`) share a group ID.
    group: str | None = None
    # The SHA-256 of metrics.json as the run's last scoring wrote it: a later run that compares
    # with this one takes its per-case scores from metrics.json only when it still has these bytes.
    metrics_sha256: str | None = None
    # Site-tier runs: each site's cost and wall time (null for other tiers and older runs).
    per_site: tuple[SiteUsage, ...] | None = None
    # The adapter's time limit (null in runs made before it was recorded; a merged run has its
    # shards' longest, `default` when every shard's was).
    timeout: TimeoutRecord | None = None
    # Set for a run that continued an unfinished one (`run --resume`); null otherwise.
    resumed: Resumed | None = None


# -- metrics.json --------------------------------------------------------------------------------


@attrs.frozen
class MetricsBenchmark:
    id: str
    scoring_version: str
    profiles: tuple[str, ...]
    headline: tuple[str, ...]


@attrs.frozen
class MetricsDataset:
    id: str
    version: int
    digest: str
    input_digest: str
    answer_digest: str


@attrs.frozen
class GateSummary:
    status: GateStatus
    profiles: tuple[str, ...]
    targets: tuple[str, ...]


Headline = dict[str, float]


@attrs.frozen
class Interval:
    """A 95 % interval of a number: its low and high ends."""

    low: float
    high: float


@attrs.frozen
class BootstrapSpec:
    """How a run's intervals were computed, so anyone can recompute them: a percentile bootstrap
    over `resamples` resamples drawn with `seed`, of cases, or of clusters of cases (`cluster`:
    the type's cluster key, e.g. the document a page belongs to)."""

    method: Literal["percentile"]
    resamples: int
    seed: int
    confidence: float
    cluster: str | None = None


@attrs.frozen
class PairedComparison:
    """The candidate against its baseline in one profile. `change` holds the paired bootstrap
    interval of each headline difference; `better` and `worse` count the cases that went from
    having errors to error-free and back; `p_value` is the exact two-sided McNemar (binomial) test
    on them. They inform; the gate stays per case."""

    change: dict[str, Interval]
    better: int
    worse: int
    p_value: float


@attrs.frozen
class ProfileMetrics:
    """One profile of a run: its headline metrics beside the compared runs', and its pairing.

    `available` is false when the profile cannot score every case of every run; its headlines
    are then null and its status `unavailable`."""

    available: bool
    gated: bool
    status: GateStatus
    headline: Headline | None
    baseline_headline: Headline | None
    change: Headline | None
    controls_headline: dict[str, Headline | None]
    buckets: dict[str, int]
    regressions: tuple[str, ...]
    unstable_regressions: tuple[str, ...]
    improvements: tuple[str, ...]
    unstable: tuple[str, ...]
    failing_targets: tuple[str, ...]
    # The 95 % interval of each headline metric, and the paired comparison with the baseline;
    # null in metrics written before core computed them.
    intervals: dict[str, Interval] | None = None
    paired: PairedComparison | None = None


@attrs.frozen
class CaseMetrics:
    """One case: its category, its bucket per profile (null where the profile is unavailable),
    and every compared run's score per profile (null where the profile could not score it)."""

    category: str
    bucket: dict[str, Bucket | None]
    runs: dict[str, dict[str, CaseScore | None]]


@attrs.frozen
class Metrics:
    """`metrics.json`: everything scored, per profile and per case. `runs` lists the labels of
    the scored runs: `candidate`, then `baseline` and `control-N` when they were compared."""

    format: Literal["envirobench.metrics.v1"]
    run_id: str
    benchmark: MetricsBenchmark
    dataset: MetricsDataset
    runs: tuple[str, ...]
    gate: GateSummary
    profiles: dict[str, ProfileMetrics]
    cases: dict[str, CaseMetrics]
    bootstrap: BootstrapSpec | None = None


# -- comparison.json -----------------------------------------------------------------------------


@attrs.frozen
class ComparedRunLabel:
    label: str
    run_id: str


@attrs.frozen
class ComparisonCase:
    """One case with its input, its answer and each compared run's prediction (null: none)."""

    id: str
    category: str
    input: Any
    answer: Any
    predictions: dict[str, Any]


@attrs.frozen
class Comparison:
    """`comparison.json`: the answer key joined with every compared run's predictions."""

    format: Literal["envirobench.comparison.v1"]
    run_id: str
    runs: tuple[ComparedRunLabel, ...]
    cases: tuple[ComparisonCase, ...]


# -- review-brief.json ---------------------------------------------------------------------------

CasesByCategory = dict[str, tuple[str, ...]]


@attrs.frozen
class BriefGroups:
    """The changed cases of one profile, each group by category."""

    worse: CasesByCategory
    better: CasesByCategory
    noisy: CasesByCategory
    remaining: CasesByCategory

    def group(self, name: str) -> CasesByCategory:
        if name not in REVIEW_GROUPS:
            raise KeyError(name)
        return getattr(self, name)


@attrs.frozen
class ReviewBrief:
    """`review-brief.json`: per gated profile, the changed cases a reviewer should look at."""

    format: Literal["envirobench.review-brief.v1"]
    run_id: str
    gate: GateStatus
    baseline: str | None
    profiles: dict[str, BriefGroups]


# -- reading and writing -------------------------------------------------------------------------

_RESCORE_HINT = "rescore the run from its saved predictions with `envirobench score --run {run_dir}`"


def _read_record(run_dir: Path, name: str, cls: type, fmt: str, what: str, *, drop: str | None = None) -> Any:
    path = Path(run_dir) / name
    if not path.is_file():
        raise EnviroBenchError(f"not {what} (no {name})", file=run_dir)
    data = read_json(path)
    if drop is not None and isinstance(data, dict) and isinstance(data.get(drop), dict):
        data[drop] = {}
    if not isinstance(data, dict) or data.get("format") != fmt:
        got = data.get("format") if isinstance(data, dict) else None
        hint = "" if name == RUN_FILE else "; " + _RESCORE_HINT.format(run_dir=run_dir)
        raise EnviroBenchError(f"format {got!r} is not {fmt!r}{hint}", file=path, field="$.format")
    try:
        return structure(data, cls, file=str(path))
    except EnviroBenchError as exc:
        hint = "" if name == RUN_FILE else f" ({_RESCORE_HINT.format(run_dir=run_dir)})"
        raise EnviroBenchError(exc.message + hint, file=exc.file, line=exc.line, field=exc.field) from None


def is_run_dir(path: Path) -> bool:
    return (Path(path) / RUN_FILE).is_file()


def read_run(run_dir: Path) -> RunRecord:
    """run.json of any run, completed or not."""
    if not Path(run_dir).is_dir():
        raise EnviroBenchError("not a run directory", file=run_dir)
    return _read_record(run_dir, RUN_FILE, RunRecord, RUN_FORMAT, "a run directory")


def read_completed_run(run_dir: Path) -> RunRecord:
    """run.json of a completed run; a failed or unfinished run is refused with its reason."""
    run = read_run(run_dir)
    if run.status != "completed":
        reason = f": {run.failure.message}" if run.failure else ""
        raise EnviroBenchError(
            f"run {run.run_id!r} did not complete (status {run.status!r}{reason}); it has no scores",
            file=Path(run_dir) / RUN_FILE,
            field="$.status",
        )
    if run.gate is None:
        raise EnviroBenchError("a completed run must have a gate", file=Path(run_dir) / RUN_FILE, field="$.gate")
    return run


def refuse_partial(run: RunRecord, run_dir: Path, role: str, never: str) -> None:
    """Refuse a partial run where only a run of every case will do (a baseline or a control, a
    promotion, a leaderboard), naming the run: e.g. role="the baseline", never="a baseline or a control".
    A shard of a sharded run is a partial run too: it is refused until the shards are merged."""
    if run.shard is not None:
        raise EnviroBenchError(
            f"{role} run {run.run_id!r} is shard {run.shard.index}/{run.shard.count} of a sharded run "
            f"({run.shard.cases} of {run.shard.of} cases); a shard is never {never}: "
            "merge the shards into a run of every case first (envirobench merge)",
            file=Path(run_dir) / RUN_FILE,
            field="$.shard",
        )
    if run.partial is not None:
        raise EnviroBenchError(
            f"{role} run {run.run_id!r} is a {run.partial.describe()}; a partial run is never {never}: "
            "use a run of every case (made without --case or --limit)",
            file=Path(run_dir) / RUN_FILE,
            field="$.partial",
        )


def write_run(run_dir: Path, record: RunRecord) -> None:
    """run.json, indented for people, written atomically."""
    atomic_write_text(Path(run_dir) / RUN_FILE, dumps(unstructure(record)))


def read_metrics(run_dir: Path, *, cases: bool = True) -> Metrics:
    """metrics.json; with cases=False its per-case part is left out (`cases` is empty), which
    saves structuring hundreds of thousands of scores when only the headlines are wanted."""
    return _read_record(run_dir, METRICS_FILE, Metrics, METRICS_FORMAT, "a completed run", drop=None if cases else "cases")


def read_comparison(run_dir: Path) -> Comparison:
    return _read_record(run_dir, COMPARISON_FILE, Comparison, COMPARISON_FORMAT, "a completed run")


def read_review_brief(run_dir: Path) -> ReviewBrief:
    return _read_record(run_dir, REVIEW_BRIEF_FILE, ReviewBrief, REVIEW_BRIEF_FORMAT, "a completed run")


def write_review_brief(run_dir: Path, brief: ReviewBrief) -> None:
    atomic_write_text(Path(run_dir) / REVIEW_BRIEF_FILE, dumps(unstructure(brief)))
