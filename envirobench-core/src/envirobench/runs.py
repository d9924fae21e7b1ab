"""One run: one benchmark, one system; and offline rescoring of a finished run.

A run is assembled in a hidden staging directory next to its final place and renamed into
place at the end, so `results/<run-id>/` only ever appears whole: `completed` with scores, or
`failed` with the reason and nothing scored. An existing run directory is never overwritten.
SIGINT, SIGTERM and SIGHUP while a run is made stop the adapter and everything it started, and
leave the staging directory marked failed, "interrupted by SIGTERM". The lifecycle is described in
docs/architecture.md ("One run").

Rescoring replaces a run's outputs as one step (`outputs.staged_outputs`): a kill at any moment
leaves either the old consistent set or the new one.

A partial run (`RunSpec.cases`, `limit`: docs/runs.md, "Partial runs") runs and scores only the
selected cases, a baseline and controls rescored on them too; rescoring keeps it partial. A shard
(`RunSpec.shard`: shards.py) is a partial run of its share of the cases, joined by merge.py.

A new run, a rescore and a merge end in the same two steps, `score_and_gate` and `write_scored`,
so the same predictions give the same bytes whichever way they were scored.

Length: one run's lifecycle, from the request to publication with its failure handling, and
rescoring beside it, since both share the scoring sequence and the record helpers above.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import math
import os
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import attrs

from . import __version__
from . import datasets as ds
from . import sandbox as sb
from .adapters import (
    AdapterLog,
    Workspace,
    build_request,
    copy_output,
    remove_foreign_entries,
    run_adapter,
)
from .benchmark import BenchmarkType, Case
from .categories import categories_of
from .compared import ComparedRun, load_compared_run, read_saved_predictions
from .errors import EnviroBenchError, TechnicalFailure
from .jsonio import atomic_write_text, dir_mode, gc_paused
from .outputs import build_comparison, build_metrics, staged_outputs, swap_into_place, write_outputs
from .pairing import Gate, check_gates_and_targets, pair_and_gate
from .plugins import Registry, resolve_adapter
from .protocol import RESULT_FILE, AdapterResult, CaseUsage
from .report import CaseBlocks, write_report
from .rundir import (
    ADAPTER_DIR,
    ADAPTER_LOG,
    MAX_OUTPUT_MB,
    REQUEST_FILE,
    RUN_FILE,
    RUN_FORMAT,
    SALVAGED_FILE,
    AdapterOutput,
    AdapterRecord,
    BenchmarkInfo,
    CaseCounts,
    CoreInfo,
    Failure,
    HistoryEntry,
    HistoryState,
    Pairing,
    Partial,
    PluginRef,
    RunDataset,
    RunRecord,
    RunRef,
    SiteUsage,
    TimeoutRecord,
    check_run_id,
    control_label,
    read_completed_run,
    read_run,
    write_run,
)
from .rundir_text import comparison_batches, write_comparison
from .rundir_text import request_text as request_text_of
from .salvage import UNFINISHED, keep_failed, resumable, salvage, write_salvaged
from .scoring import (
    RunScores,
    check_case_usage,
    check_result,
    load_predictions,
    read_adapter_result,
    score_run,
    some,
)
from .shards import Shard, select_run_cases
from .system import lock_directory

# What core has written into a staging directory when the adapter is gone (adapter/ is made by
# copy_output, which refuses one that exists): anything else found there then is not core's.
_CORE_NAMES = frozenset({RUN_FILE, REQUEST_FILE, ADAPTER_LOG, ADAPTER_DIR, SALVAGED_FILE})


# The adapter's time limit when --timeout is not given (`default_timeout_s`). A hung adapter must
# not hold a run, and its machine, forever; an honest slow one must never meet the limit. So it is
# generous: a fixed allowance for starting (loading a model, warming a cache, a slow first call)
# plus an allowance per case several times the slowest seen per case of the tier. The reference
# adapter's slowest (docs/reference-scores.md, on a loaded machine) are about 13 s a component case
# (one table, page or passage: table-records), 44 s a document (document-extraction) and 500 s a
# site (the dev sites); a model called over the network page by page is slower still: 60 s a
# component, 300 s a document of some twenty pages, 7,200 s (2 hours) a site record of hundreds of
# pages (9 s a page of the largest public site, 806 pages). --timeout SECONDS overrides it.
DEFAULT_TIMEOUT_BASE_S = 600.0
DEFAULT_TIMEOUT_PER_CASE_S = {"component": 60.0, "document": 300.0, "site": 7_200.0}


def default_timeout_s(tier: str, cases: int) -> float:
    """The adapter's default time limit for `cases` cases of a type of this tier (see above); an
    unknown tier is given the largest allowance."""
    per_case = DEFAULT_TIMEOUT_PER_CASE_S.get(tier, max(DEFAULT_TIMEOUT_PER_CASE_S.values()))
    return DEFAULT_TIMEOUT_BASE_S + per_case * cases


def now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


@attrs.frozen
class RunSpec:
    """Everything `envirobench run` was asked to do."""

    adapter: str
    run_id: str
    model: str
    benchmark: str
    dataset: str
    budget_usd: float
    options: Mapping[str, str] = attrs.field(factory=dict)
    baseline: Path | None = None
    controls: tuple[Path, ...] = ()
    targets: tuple[str, ...] = ()
    gates: tuple[str, ...] = ()
    require_no_regressions: bool = False
    results_dir: Path = Path("results")
    timeout_s: float | None = None  # None: default_timeout_s for the type's tier and the run's cases
    # The adapter's sandbox (docs/runs.md, "The sandbox"): "auto" (bubblewrap where installed),
    # "bwrap" or "none", as on the command line.
    sandbox: str = "auto"
    network: bool = True
    adapter_env: tuple[str, ...] = ()
    sandbox_allow: tuple[str, ...] = ()  # more paths the sandbox shows, read-only (--sandbox-allow)
    adapter_cache: Path | None = None  # the adapter's own directory, kept between runs (--adapter-cache)
    max_output_mb: float = MAX_OUTPUT_MB
    # A partial run: only these cases (`--case`), or the first `limit` in dataset order (`--limit`).
    cases: tuple[str, ...] = ()
    limit: int | None = None
    shard: Shard | None = None  # one shard of a sharded run (`--shard I/N`: shards.py)
    group: str | None = None  # the group of repeats the run is one of (`--repeats`)
    hidden: tuple[Path, ...] = ()  # more places the sandbox hides (the local directory of a --store)
    # Continue the unfinished attempt at this run, asking the adapter only for the cases it did not
    # finish (`--resume`: salvage.py); a fresh run when there is none.
    resume: bool = False
    # A failed run at RESULTS/RUN_ID is kept as RUN_ID.failed-N and the ID used again (`--reuse-failed`).
    reuse_failed: bool = False


@attrs.frozen
class Outcome:
    """What became of a run: `completed` with its gate, or `failed` with the reason."""

    run_dir: Path
    status: str  # "completed", "failed", or "unscored" (a sealed dataset's run: see docs/holdout.md)
    gate: Gate | None
    message: str = ""
    partial: Partial | None = None  # set for a partial run


# -- one run -----------------------------------------------------------------------------------


def benchmark_info(btype: BenchmarkType, registry: Registry) -> BenchmarkInfo:
    """The type as run.json records it, with the plugin that registered it."""
    from_plugin = registry.benchmark_types[btype.ID][1]
    info = next((p for p in registry.plugins if p.name == from_plugin), None)
    return BenchmarkInfo(
        id=btype.ID,
        label=btype.LABEL,
        format=btype.FORMAT,
        scoring_version=btype.SCORING_VERSION,
        tier=btype.TIER,
        profiles=tuple(btype.PROFILES),
        headline=tuple(btype.HEADLINE),
        categories=categories_of(btype.ID),
        viewer=btype.VIEWER,
        plugin=PluginRef(from_plugin, info.distribution if info else from_plugin, info.version if info else "unknown"),
    )


def run_dataset(dataset: ds.Dataset, source: str) -> RunDataset:
    i = dataset.identity
    return RunDataset(i.id, i.version, i.digest, i.input_digest, i.answer_digest, source)


def _staging_dir(final: Path) -> Path:
    final.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{final.name}.incomplete-", dir=final.parent))
    os.chmod(staging, dir_mode())  # mkdtemp makes it 0700; a run is for others to read too
    return staging


def _publish(staging: Path, final: Path) -> None:
    """Rename the finished staging directory into place, never over an existing run."""
    try:
        staging.rename(final)  # an existing non-empty directory makes rename fail: never replaced
    except OSError:
        raise EnviroBenchError(f"run directory {final} appeared while this run was working; the run is kept in {staging}") from None


Progress = Callable[[str, int, int], None]  # (stage, done, total)


def _stage(on_progress: Progress | None, stage: str) -> Callable[[int, int], None] | None:
    return None if on_progress is None else lambda done, total: on_progress(stage, done, total)


def check_limits(budget_usd: float, timeout_s: float | None, max_output_mb: float = MAX_OUTPUT_MB) -> None:
    """Refuse a budget, timeout or output limit that is not a usable number, before anything is
    made: a budget must be finite and at least 0, a timeout (None: the default, `default_timeout_s`)
    and the output limit finite and greater than 0. NaN fails every comparison, so a check such as
    `budget < 0` lets it through, and infinity is no limit; neither can be written to run.json."""

    def usable(value: object, *, above_zero: bool) -> bool:
        return isinstance(value, int | float) and math.isfinite(value) and (value > 0 if above_zero else value >= 0)

    def shown(value: object) -> str:
        return f"{value:g}" if isinstance(value, int | float) else repr(value)

    if not usable(budget_usd, above_zero=False):
        raise EnviroBenchError(f"--budget must be a finite number of US dollars, 0 or more, not {shown(budget_usd)}")
    if timeout_s is not None and not usable(timeout_s, above_zero=True):
        raise EnviroBenchError(f"--timeout must be a finite number of seconds greater than 0, not {shown(timeout_s)}")
    if not usable(max_output_mb, above_zero=True):
        raise EnviroBenchError(f"--max-output-mb must be a finite number greater than 0, not {shown(max_output_mb)}")


def execute_run(
    spec: RunSpec,
    registry: Registry,
    *,
    on_progress: Progress | None = None,
    on_warning: Callable[[str], None] | None = None,
) -> Outcome:
    """Make one run. Raises EnviroBenchError for a bad request (nothing written); a technical
    failure of the adapter gives Outcome(status="failed") with nothing scored. `on_progress`
    receives (stage, done, total) for the stages "adapter" (its progress.jsonl), "adapter:UNIT" (a
    progress line's optional part: pages read of the case under way, say) and "scoring";
    `on_warning` what the user should know before the adapter starts (no sandbox, say).

    SIGINT, SIGTERM and SIGHUP (in the main thread) raise `sandbox.Interrupted` once the adapter
    is stopped and the staging directory is marked failed. Scores and outputs form no reference
    cycles, so the cyclic collector is paused meanwhile (see jsonio.gc_paused)."""
    with gc_paused(), sb.interrupting_signals():
        return _execute(spec, registry, on_progress, on_warning)


def _execute(spec: RunSpec, registry: Registry, on_progress: Progress | None, on_warning: Callable[[str], None] | None) -> Outcome:
    check_limits(spec.budget_usd, spec.timeout_s, spec.max_output_mb)
    check_run_id(spec.run_id)
    final = spec.results_dir / spec.run_id
    if (final.exists() or final.is_symlink()) and not _may_follow(final, spec):
        raise EnviroBenchError(f"run directory {final} already exists; choose another --run (runs are never overwritten; "
                               "a failed one's ID is used again with --reuse-failed, its run continued with --resume)")
    sandbox = sb.resolve_sandbox(spec.sandbox, network=spec.network, env=spec.adapter_env, allow=spec.sandbox_allow)
    btype = registry.benchmark_type(spec.benchmark)
    argv = resolve_adapter(registry, spec.adapter)
    contents = ds.load_contents(spec.dataset, registry)
    dataset, answers = contents.dataset, contents.answers
    if dataset.manifest.benchmark != btype.ID:
        raise EnviroBenchError(f"dataset {dataset.id!r} is for benchmark {dataset.manifest.benchmark!r}, not {btype.ID!r}")
    if contents.sealed and (spec.baseline or spec.controls or spec.targets):
        raise EnviroBenchError(f"dataset {dataset.id!r} is sealed (its answer key is held by a scoring service): a run on it is unscored, "
                               "so it takes no baseline, control or target; submit it with `envirobench submit RUN_DIR --to URL`")
    selection = select_run_cases(contents.cases, dataset.retired, ids=spec.cases, limit=spec.limit, shard=spec.shard, targets=spec.targets, budget_usd=spec.budget_usd)
    cases, partial, budget = selection.cases, selection.partial, selection.budget_usd
    # Per run: a shard's or a partial run's own cases, each repeat its own.
    timeout = TimeoutRecord(float(spec.timeout_s), False) if spec.timeout_s is not None else TimeoutRecord(default_timeout_s(btype.TIER, len(cases)), True)
    gates = check_gates_and_targets(btype, spec.gates, spec.targets, contents.cases, dataset.retired, selection.target_scope)
    # Baselines and controls are checked before the adapter spends anything.
    source = dataset_source(spec.dataset, registry)
    baseline = load_compared_run(spec.baseline, "baseline", btype, dataset, cases, answers, source) if spec.baseline else None
    controls = [load_compared_run(p, control_label(i), btype, dataset, cases, answers, source, like=baseline) for i, p in enumerate(spec.controls, 1)]
    if spec.adapter_cache is not None:
        holding = [spec.results_dir, dataset.root, *(s.path for s in registry.datasets.values()), *([spec.baseline] if spec.baseline else []), *spec.controls]
        sandbox = attrs.evolve(sandbox, cache=sb.check_cache(spec.adapter_cache, holds_answers=holding))
    warnings = list(sandbox.warnings)
    if (spec.cases or spec.limit is not None) and partial is None:
        warnings.append("--case/--limit select every case of the dataset: this is a run of every case, not a partial run")
    for warning in warnings if on_warning else ():
        on_warning(warning)  # type: ignore[misc]

    started = time.monotonic()
    record = RunRecord(
        format=RUN_FORMAT,
        run_id=spec.run_id,
        status="running",
        failure=None,
        created_at=now(),
        finished_at=None,
        core=CoreInfo(__version__),
        benchmark=benchmark_info(btype, registry),
        dataset=run_dataset(dataset, source),
        adapter=AdapterRecord(requested=spec.adapter, command=tuple(argv)),
        model=spec.model,
        options=dict(spec.options),
        budget_usd=budget,
        cost_usd=None,
        systems=(),
        wall_time_s=None,
        adapter_wall_time_s=None,
        cases=CaseCounts(requested=len(cases), scored=0, retired=len(dataset.retired)),
        pairing=pairing_record(baseline, controls),
        gate=None,
        require_no_regressions=spec.require_no_regressions,
        sandbox=sandbox.record(),
        partial=partial,
        shard=selection.shard,
        group=spec.group,
        timeout=timeout,
    )
    # --resume: the cases an unfinished attempt finished are kept and not asked for again.
    unfinished = resumable(spec.results_dir, spec.run_id) if spec.resume else None
    found = salvage(unfinished, record, btype, list(cases), max_bytes=int(spec.max_output_mb * (1 << 20))) if unfinished else None
    asked = cases if found is None else {cid: case for cid, case in cases.items() if cid not in found.lines}
    asked_budget = budget if found is None else max(0.0, budget - found.cost_usd)
    if found is not None and spec.timeout_s is None:
        record = attrs.evolve(record, timeout=TimeoutRecord(default_timeout_s(btype.TIER, len(asked)), True))
    if final.exists() or final.is_symlink():  # a failed run (_may_follow): kept whole under a new name
        kept = keep_failed(final)
        found = found if found is None or found.from_path != final else attrs.evolve(found, from_path=kept)
        if on_warning:
            on_warning(f"the failed run {final} is kept as {kept}")
    if found is not None and on_warning:
        on_warning(f"resuming {spec.run_id} from {found.from_path}: {len(found.lines)} of {len(cases)} case(s) kept, the adapter is asked for the other {len(asked)}")
    staging = _staging_dir(final)
    staging_lock = lock_directory(staging)  # held while the run is made: `runs clean` leaves it alone
    failure: TechnicalFailure | None = None
    workspace: Workspace | None = None
    log: AdapterLog | None = None
    published = False
    try:
        try:
            if found is not None:
                record = attrs.evolve(record, resumed=write_salvaged(staging, found))
            write_run(staging, record)
            workspace = Workspace.create()
            # Serialised once, compact (a 100,000-case request is megabytes); the run's copy is
            # written once the adapter is gone, so nothing the adapter does can change it.
            request_text = request_text_of(build_request(btype, contents, asked, workspace, run_id=spec.run_id, model=spec.model, budget_usd=asked_budget, options=spec.options))
            # The inputs as cases.jsonl has them are in the request now: not held to the end of the run.
            contents = attrs.evolve(contents, raw_inputs={})
            atomic_write_text(workspace.request, request_text)
            log = AdapterLog(staging / ADAPTER_LOG)
            secrets = sb.secret_paths(registry, results_dir=spec.results_dir, dataset_root=dataset.root, compared=[*([spec.baseline] if spec.baseline else []), *spec.controls, *spec.hidden])
            interrupted: BaseException | None = None
            try:
                wall = run_adapter(argv, workspace, log, timeout=record.timeout.seconds, on_progress=_stage(on_progress, "adapter"),
                                   on_part=None if on_progress is None else lambda d, t, unit: on_progress(f"adapter:{unit}", d, t), sandbox=sandbox, secrets=secrets)
                record = attrs.evolve(record, adapter_wall_time_s=wall)
            except TechnicalFailure as exc:
                failure = exc
            except BaseException as exc:  # a signal or a bug: the adapter is stopped; what it finished is kept below
                interrupted = exc
            # The adapter and everything it started are gone: take its output, trusting nothing
            # in the staging directory that core did not write. After an interruption too, so
            # that the cases it finished (its cases.jsonl) can be resumed (salvage.py).
            with sb.signals_deferred() if interrupted is not None else contextlib.nullcontext():
                atomic_write_text(staging / REQUEST_FILE, request_text)
                del request_text
                foreign = remove_foreign_entries(staging, _CORE_NAMES)
                copied = copy_output(workspace, staging, max_bytes=int(spec.max_output_mb * (1 << 20)))
                record = attrs.evolve(record, adapter_output=copied.record)
                for skipped in copied.record.skipped:
                    log.note(f"output/{skipped.path} was not copied: {skipped.reason}")
            if interrupted is not None:
                raise interrupted
            log.check_in_place()
            if failure is not None:
                raise failure
            if foreign:
                raise TechnicalFailure(f"the staging directory held entries core did not write ({some(foreign)}); they were removed and nothing is scored")
            if copied.problem:
                raise TechnicalFailure(copied.problem)
            output_dir = staging / ADAPTER_DIR
            result = read_adapter_result(output_dir, btype, output=copied.record)
            record = attrs.evolve(
                record,
                adapter=attrs.evolve(record.adapter, name=result.adapter.name, version=result.adapter.version),
                systems=result.systems,
            )
            spent = check_result(result, btype, asked_budget)
            record = attrs.evolve(record, cost_usd=spent + (found.cost_usd if found else 0.0))  # a resumed run's: with what the salvaged cases cost
            predictions = load_predictions(output_dir, result, btype, list(asked), output=copied.record, cases=cases)
            check_case_usage(result, list(asked), spent)
            _check_traces(result, copied.record)
            if found is not None:
                predictions = found.joined(btype, cases, predictions)
            if btype.TIER == "site":
                salvaged_usage = [CaseUsage(line.id, line.cost_usd, line.wall_s) for line in found.lines.values()] if found else []
                record = attrs.evolve(record, per_site=site_usage(list(cases), result, record.cost_usd, record.adapter_wall_time_s, salvaged_usage),
                                      cases=attrs.evolve(record.cases, sites=len(cases)))
        except TechnicalFailure as exc:
            failure = _relative_to(exc, staging)
            if log is not None:
                log.note(f"the run failed (nothing scored): {exc}")
        finally:
            with sb.signals_deferred():
                if log is not None:
                    log.close()
                if workspace is not None:
                    workspace.remove()
        if failure is not None:
            record = attrs.evolve(record, status="failed", failure=Failure(str(failure)), finished_at=now(), wall_time_s=round(time.monotonic() - started, 3))
            write_run(staging, record)
            _publish(staging, final)
            published = True
            return Outcome(final, "failed", None, str(failure), partial)
        if contents.sealed:
            # The answer key is held by a scoring service: the run is checked like any other and
            # kept, unscored, for `envirobench submit` (docs/holdout.md).
            record = attrs.evolve(record, status="unscored", finished_at=now(), wall_time_s=round(time.monotonic() - started, 3))
            write_run(staging, record)
            _publish(staging, final)
            published = True
            return Outcome(final, "unscored", None, partial=partial)

        scored = score_and_gate(btype, cases, answers, predictions, baseline, controls, gates, selection.targets, _stage(on_progress, "scoring"))
        gate = scored[1]
        record = attrs.evolve(
            record,
            status="completed",
            finished_at=now(),
            wall_time_s=round(time.monotonic() - started, 3),
            gate=gate.record(),
            cases=attrs.evolve(record.cases, scored=len(cases)),
        )
        write_scored(staging, record, btype, dataset, cases, answers, predictions, scored, baseline, controls, registry)
        _publish(staging, final)
        published = True
        return Outcome(final, "completed", gate, partial=partial)
    except BaseException as exc:
        if not published and not isinstance(exc, EnviroBenchError):
            # Interrupted (a signal) or a bug: the adapter is stopped; what there is stays in the
            # staging directory, marked failed, never mistaken for a run.
            signal_name = exc.name if isinstance(exc, sb.Interrupted) else "SIGINT" if isinstance(exc, KeyboardInterrupt) else None
            why = f"interrupted by {signal_name}" if signal_name else f"interrupted: {type(exc).__name__}: {exc}"
            with contextlib.suppress(Exception):
                write_run(staging, attrs.evolve(record, status="failed", failure=Failure(why), gate=None, finished_at=now()))
        raise
    finally:
        os.close(staging_lock)


def _check_traces(result: AdapterResult, output: AdapterOutput) -> None:
    """Each case's trace (optional) names a regular file of the adapter's output that core copied."""
    for index, usage in enumerate(result.cases or ()):
        if usage.trace is not None and usage.trace not in output.files:
            raise TechnicalFailure(f"the trace of case {usage.id!r}, {usage.trace!r}, is not a file of the adapter's output that core copied "
                                   "(a path relative to the output directory, '/'-separated)", file=RESULT_FILE, field=f"$.cases[{index}].trace")


def _may_follow(final: Path, spec: RunSpec) -> bool:
    """Whether the run may be made though RESULTS/RUN_ID exists: it holds a run that did not
    complete (failed, or left `running` by a crash) and the run continues it (--resume) or takes
    its ID (--reuse-failed); the failed run is then kept whole as RUN_ID.failed-N
    (salvage.keep_failed). A completed or unscored run is never moved."""
    if not (spec.resume or spec.reuse_failed) or final.is_symlink():
        return False
    try:
        return read_run(final).status in UNFINISHED
    except EnviroBenchError:
        return False


def site_usage(case_ids: Sequence[str], result: AdapterResult, cost_usd: float | None, wall_time_s: float | None,
               salvaged: Sequence[CaseUsage] = ()) -> tuple[SiteUsage, ...]:
    """Each site's cost and wall time: the adapter's per-case figures where it gave them for every
    site (a resumed run's `salvaged` sites: as their cases.jsonl lines gave them), otherwise the
    run's total (cost, the adapter's wall time) shared equally and marked averaged."""
    given = {usage.id: usage for usage in [*salvaged, *(result.cases or ())]}
    sites = len(case_ids)

    def per_site(name: str, total: float | None) -> tuple[dict[str, float | None], bool]:
        values = {cid: getattr(given[cid], name) if cid in given else None for cid in case_ids}
        if sites and all(v is not None for v in values.values()):
            return values, False
        share = None if total is None or not sites else round(total / sites, 6)
        return dict.fromkeys(case_ids, share), True

    costs, cost_averaged = per_site("cost_usd", cost_usd)
    walls, wall_averaged = per_site("wall_s", wall_time_s)
    return tuple(SiteUsage(cid, costs[cid], walls[cid], cost_averaged, wall_averaged) for cid in case_ids)


def _relative_to(failure: TechnicalFailure, staging: Path) -> TechnicalFailure:
    """The failure naming a file of the run by its path in the run (the staging directory is renamed)."""
    prefix = str(staging) + os.sep
    if failure.file and failure.file.startswith(prefix):
        return TechnicalFailure(failure.message, file=failure.file[len(prefix) :], line=failure.line, field=failure.field)
    return failure


def dataset_source(spec_dataset: str, registry: Registry) -> str:
    """How run.json names a dataset: its registered ID, or its directory's absolute path."""
    return spec_dataset if spec_dataset in registry.datasets else str(Path(spec_dataset).resolve())


def pairing_record(baseline: ComparedRun | None, controls: Sequence[ComparedRun]) -> Pairing:
    def ref(run: ComparedRun) -> RunRef:
        return RunRef(run.label, run.run_id, str(run.path), run.rescored_because)

    return Pairing(ref(baseline) if baseline else None, tuple(ref(c) for c in controls))


# -- offline rescoring -------------------------------------------------------------------------

def score_and_gate(
    btype: BenchmarkType, cases: Mapping[str, Case], answers: Mapping[str, object], predictions: Mapping[str, object],
    baseline: ComparedRun | None, controls: Sequence[ComparedRun], gates: Sequence[str], targets: Sequence[str],
    on_scoring: Callable[[int, int], None] | None,
) -> tuple[RunScores, Gate]:
    """Score a run's predictions and pair them with the compared runs: one sequence for a new run,
    a rescore and a merge, so the three give the same bytes for the same predictions."""
    # A case whose prediction is unchanged from the baseline's takes its score (unchanged.py).
    scores = score_run(btype, cases, answers, predictions, on_progress=on_scoring, like=(baseline.predictions, baseline.scores) if baseline else None)
    return scores, pair_and_gate(btype, list(cases), scores, baseline.scores if baseline else None, [c.scores for c in controls], gates, targets)


def write_scored(
    directory: Path, record: RunRecord, btype: BenchmarkType, dataset: ds.Dataset, cases: Mapping[str, Case], answers: Mapping[str, object],
    predictions: Mapping[str, object], scored: tuple[RunScores, Gate], baseline: ComparedRun | None, controls: Sequence[ComparedRun],
    registry: Registry, source_dir: Path | None = None,
) -> None:
    """Every output of a scored run into `directory`, run.json last (with it, the set is complete),
    recording the digest of metrics.json (`compared.saved_scores` reuses its scores by it)."""
    scores, gate = scored
    metrics = build_metrics(record, btype, cases, scores, baseline, controls, gate)
    metrics_sha256 = write_outputs(directory, record, btype, cases, metrics, gate)
    # One pass makes each comparison case once: every batch is encoded into the report's case data
    # and written to comparison.json (a 100,000-case run never makes them twice).
    comparison = build_comparison(record, cases, answers, predictions, baseline, controls)
    case_blocks = CaseBlocks([run.label for run in comparison.runs])
    write_comparison(directory, comparison, case_blocks.encoded(comparison_batches(comparison)))
    write_report(directory, record, btype, dataset.root, cases, metrics, comparison, registry, retired=dataset.retired, source_dir=source_dir,
                 case_blocks=case_blocks)
    write_run(directory, attrs.evolve(record, metrics_sha256=metrics_sha256))


KEEP = object()  # rescore_run(): keep the run's saved baseline or controls


def rescore_run(
    run_dir: Path,
    registry: Registry,
    *,
    baseline: Path | None | object = KEEP,
    controls: Sequence[Path] | object = KEEP,
    gates: Sequence[str] | None = None,
    targets: Sequence[str] | None = None,
    rekey: str | None = None,
    on_progress: Progress | None = None,
) -> Outcome:
    """Rescore a finished run from its saved predictions; the adapter is never called.

    `baseline` and `controls` replace the saved pairing (None / [] drop it), `gates` and
    `targets` the saved gate; `rekey` moves the run to another revision of its dataset whose
    inputs are unchanged; `on_progress` receives ("scoring", done, total). History is kept in
    run.json. The cyclic collector is paused meanwhile."""
    with gc_paused():
        return _rescore(run_dir, registry, baseline, controls, gates, targets, rekey, _stage(on_progress, "scoring"))


def _rescore(
    run_dir: Path,
    registry: Registry,
    baseline: Path | None | object,
    controls: Sequence[Path] | object,
    gates: Sequence[str] | None,
    targets: Sequence[str] | None,
    rekey: str | None,
    on_scoring: Callable[[int, int], None] | None,
) -> Outcome:
    record = read_completed_run(run_dir)
    assert record.gate is not None  # read_completed_run checks it
    btype = registry.benchmark_type(record.benchmark.id)
    if rekey is not None:
        contents = ds.load_contents(rekey, registry)
        dataset = contents.dataset
        _check_rekey(record, dataset, btype, run_dir, registry)
        source = dataset_source(rekey, registry)
    else:
        source = record.dataset.source
        contents = ds.load_contents(source, registry)
        dataset = contents.dataset
        if dataset.identity.digest != record.dataset.digest:
            raise EnviroBenchError(
                f"dataset {source!r} is now {dataset.id} v{dataset.identity.version} ({dataset.identity.digest}), "
                f"not the revision this run was scored on ({record.dataset.digest}); move the run to it: envirobench score --run {run_dir} --rekey {source}",
                file=run_dir / RUN_FILE,
                field="$.dataset.digest",
            )
    answers = contents.answers
    predictions = read_saved_predictions(run_dir, btype, contents.cases, "this run's")
    cases, partial = _saved_selection(record, contents, predictions, run_dir)
    targets = tuple(targets) if targets is not None else record.gate.targets
    gates = check_gates_and_targets(btype, gates if gates is not None else record.gate.profiles, targets, contents.cases, dataset.retired, cases if partial else None)
    pairing = record.pairing
    baseline_path = (Path(pairing.baseline.path) if pairing.baseline else None) if baseline is KEEP else baseline
    control_paths = [Path(c.path) for c in pairing.controls] if controls is KEEP else list(controls)  # type: ignore[call-overload]
    base_run = load_compared_run(baseline_path, "baseline", btype, dataset, cases, answers, source) if baseline_path else None  # type: ignore[arg-type]
    control_runs = [load_compared_run(p, control_label(i), btype, dataset, cases, answers, source, like=base_run) for i, p in enumerate(control_paths, 1)]
    scored = score_and_gate(btype, cases, answers, predictions, base_run, control_runs, gates, targets, on_scoring)
    gate = scored[1]
    before = HistoryState(record.dataset, record.pairing, record.gate)
    updated = attrs.evolve(
        record,
        dataset=run_dataset(dataset, source),
        pairing=pairing_record(base_run, control_runs),
        gate=gate.record(),
        cases=attrs.evolve(record.cases, requested=len(cases), scored=len(cases), retired=len(dataset.retired)),
        partial=partial,
    )
    if HistoryState(updated.dataset, updated.pairing, updated.gate) != before:
        entry = HistoryEntry(at=now(), action="rekey" if rekey else "rescore", core_version=__version__, before=before)
        updated = attrs.evolve(updated, history=(*record.history, entry))
    with staged_outputs(run_dir) as staged:
        write_scored(staged, updated, btype, dataset, cases, answers, predictions, scored, base_run, control_runs, registry, source_dir=run_dir)
        swap_into_place(staged, run_dir)
    return Outcome(run_dir, "completed", gate, partial=partial)


def _saved_selection(record: RunRecord, contents: ds.Contents, predictions: Mapping[str, object], run_dir: Path) -> tuple[Mapping[str, Case], Partial | None]:
    """The cases a rescore scores: every case, each with a prediction; or, for a partial run, the
    cases it has predictions for (exactly those it was run on), so that it stays partial."""
    cases, version = contents.cases, f"{contents.dataset.id} v{contents.dataset.identity.version}"
    if record.partial is None:
        missing = [cid for cid in cases if cid not in predictions]
        if missing:
            raise EnviroBenchError(f"the run has no prediction for {len(missing)} case(s) of {version}: {some(missing)}; it cannot be rescored on this revision", file=run_dir / RUN_FILE)
        return cases, None
    selected = {cid: case for cid, case in cases.items() if cid in predictions}
    if not selected:
        raise EnviroBenchError(f"the partial run has a prediction for none of the cases of {version}; it cannot be rescored on this revision", file=run_dir / RUN_FILE)
    return selected, attrs.evolve(record.partial, cases=len(selected), of=len(cases))


def _check_rekey(record: RunRecord, dataset: ds.Dataset, btype: BenchmarkType, run_dir: Path, registry: Registry) -> None:
    old = record.dataset
    if dataset.manifest.benchmark != btype.ID:
        raise EnviroBenchError(f"cannot re-key: dataset {dataset.id!r} is for benchmark {dataset.manifest.benchmark!r}, the run is {btype.ID!r}")
    if dataset.identity.input_digest != old.input_digest:
        changed = _changed_inputs(old, dataset, registry)
        raise EnviroBenchError(
            f"cannot re-key to {dataset.id} v{dataset.identity.version}: its inputs differ from the ones this run saw "
            f"(input digest {dataset.identity.input_digest}, the run's {old.input_digest}){changed}. "
            "Re-keying only moves a run to a corrected answer key; changed inputs need a new run.",
            file=run_dir / RUN_FILE,
            field="$.dataset.input_digest",
        )


def _changed_inputs(old: RunDataset, dataset: ds.Dataset, registry: Registry) -> str:
    """Name the input files that differ, when the revision the run saw is still at hand."""
    try:
        old_manifest = ds.read_manifest(ds.resolve(old.source, registry)[0])
    except EnviroBenchError:
        return ""
    if old_manifest.input_digest != old.input_digest:
        return ""
    old_files = {e.path: e.sha256 for e in old_manifest.files if e.role != "answers"}
    new_files = {e.path: e.sha256 for e in dataset.manifest.files if e.role != "answers"}
    differing = sorted(p for p in old_files.keys() | new_files.keys() if old_files.get(p) != new_files.get(p))
    return f"; changed input files: {some(differing)}" if differing else ""
