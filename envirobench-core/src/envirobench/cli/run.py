"""`envirobench run` and `envirobench score`.

`run --repeats N` makes N runs of one configuration, `--shard I/N` one shard of a run spread over
machines, `--store` archives each finished run to a store and `--resume` skips the runs already
made (docs/runs.md, "Repeats, shards and merging"; envirobench.shards)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import attrs
import click

from ..converter import unstructure
from ..errors import EnviroBenchError
from ..pairing import PASSED
from ..plugins import Registry
from ..review import merge_targets, recommendation_cases
from ..rundir import (
    ADAPTER_LOG,
    MAX_OUTPUT_MB,
    REPORT_FILE,
    RUN_FILE,
    SUMMARY_FILE,
    read_completed_run,
    read_run,
)
from ..runs import (
    DEFAULT_TIMEOUT_BASE_S,
    DEFAULT_TIMEOUT_PER_CASE_S,
    Outcome,
    RunSpec,
    check_limits,
    execute_run,
    rescore_run,
)
from ..salvage import UNFINISHED
from ..sandbox import SANDBOX_KINDS, Interrupted
from ..shards import SHARD_COUNT_ENV, parse_shard, repeat_run_ids, shard_run_id
from ..stores import PRIVATE, Refused, Store
from ..stores.config import open_store
from ..stores.transfer import archive_run, run_prefix
from .common import (
    CONTEXT_SETTINGS,
    GATE_FAILED_EXIT,
    ProgressBars,
    completion,
    echo_json,
    key_values,
    registry,
    user_errors,
)

# The default timeout as --help states it: "600 s plus per case 60 s (component), ...".
_DEFAULT_TIMEOUT = f"{DEFAULT_TIMEOUT_BASE_S:g} s plus per case " + ", ".join(f"{s:g} s ({tier})" for tier, s in DEFAULT_TIMEOUT_PER_CASE_S.items())


def _review_targets(from_review: Path | None, recommendation: int | None) -> tuple[str, ...]:
    """The cases behind recommendation N of FROM_REVIEW/interpretation.json (both options or neither)."""
    if (from_review is None) != (recommendation is None):
        raise click.UsageError("--from-review and --recommendation go together")
    if from_review is None:
        return ()
    return tuple(recommendation_cases(from_review, recommendation))  # type: ignore[arg-type]


_from_review_option = click.option(
    "--from-review", "from_review", type=click.Path(path_type=Path, file_okay=False, exists=True), metavar="RUN_DIR",
    help="A reviewed run: with --recommendation N, its recommendation's cases become target cases.",
)
_recommendation_option = click.option(
    "--recommendation", type=click.IntRange(min=1), metavar="N", help="The recommendation of --from-review whose cases to target.",
)


def report_outcome(outcome: Outcome, require_no_regressions: bool, as_json: bool, *, shard: bool = False, extra: dict[str, Any] | None = None) -> None:
    """Print where the run is and its verdict; exit 1 on a technical failure, 3 on a failed gate."""
    code = _show(outcome, require_no_regressions, as_json, shard=shard, extra=extra)
    if code:
        sys.exit(code)


def _verdict(outcome: Outcome, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """A completed run as --json gives it."""
    gate, partial = outcome.gate, outcome.partial
    assert gate is not None  # a completed run has a gate
    return {"run_dir": str(outcome.run_dir), "status": outcome.status, "gate": gate.status, "by_profile": {p: g.status for p, g in gate.by_profile.items()},
            "partial": unstructure(partial) if partial else None, **(extra or {})}


def _show(outcome: Outcome, require_no_regressions: bool, as_json: bool, *, shard: bool = False, extra: dict[str, Any] | None = None, print_json: bool = True) -> int:
    """Print where the run is and its verdict; the exit status it calls for: 1 for a technical
    failure, 3 for a gate not passed under --require-no-regressions (never for a shard: its gate
    covers its own cases, and `envirobench merge` applies the option to the whole run)."""
    if outcome.status == "failed":
        what = f"{outcome.partial.describe()} " if outcome.partial else ""
        click.echo(f"run failed (technical failure, nothing scored): {what}{outcome.message}", err=True)
        click.echo(f"details: {outcome.run_dir / RUN_FILE} and {outcome.run_dir / ADAPTER_LOG}", err=True)
        click.echo("to retry: the same command with --resume (the cases the adapter finished are kept) or --reuse-failed (all again)", err=True)
        return 1
    if outcome.status == "unscored":
        if as_json and print_json:
            echo_json({"run_dir": str(outcome.run_dir), "status": "unscored", **(extra or {})})
        elif not as_json:
            click.echo(f"run directory: {outcome.run_dir}")
            click.echo(f"unscored: the dataset is sealed; submit it: envirobench submit {outcome.run_dir} --to URL")
        return 0
    gate = outcome.gate
    assert gate is not None  # a completed run has a gate
    partial = outcome.partial
    if as_json:
        if print_json:
            echo_json(_verdict(outcome, extra))
    else:
        if shard:
            click.secho(f"shard {partial.selected_by.removeprefix('--shard ')} of a sharded run ({partial.cases} of {partial.of} cases): "  # type: ignore[union-attr]
                        "merge the shards with `envirobench merge` before pairing, promoting or ranking it", bold=True)
        elif partial:
            click.secho(f"{partial.describe()}: never a baseline, a control or on a leaderboard", bold=True)
        click.echo(f"run directory: {outcome.run_dir}")
        click.echo(f"summary:       {outcome.run_dir / SUMMARY_FILE}")
        click.echo(f"report:        {outcome.run_dir / REPORT_FILE}")
        for profile, result in gate.by_profile.items():
            gated = " (gated)" if profile in gate.profiles else ""
            extra = ""
            if result.available and result.status != "baseline required":
                extra = f": {len(result.regressions)} worse, {len(result.improvements)} better, {len(result.unstable)} unstable"
            click.echo(f"  {profile}{gated}: {result.status}{extra}")
        if gate.status == "baseline required":
            click.echo("gate: baseline required — expected for a first run: there is nothing to compare with yet "
                       "(pass this run as --baseline-run to the next)")
        else:
            click.echo(f"gate: {gate.status}")
    if require_no_regressions and gate.status != PASSED and not shard:
        click.echo(f"gate {gate.status} under --require-no-regressions (exit status {GATE_FAILED_EXIT})", err=True)
        return GATE_FAILED_EXIT
    return 0


@click.command("run", context_settings=CONTEXT_SETTINGS)
@click.option("--adapter", required=True, help="A registered adapter name or a path to an executable.", **completion("adapter"))
@click.option("--run", "run_id", required=True, help="Run ID; the run is written to RESULTS/RUN_ID.")
@click.option("--model", required=True, help="The model the adapter should use (recorded in run.json).")
@click.option("--benchmark", required=True, help="Benchmark type ID.", **completion("benchmark"))
@click.option("--dataset", "dataset_spec", required=True, metavar="TYPE=DATASET", help="Dataset for the type: a registered ID or a directory.", **completion("dataset_spec"))
@click.option("--adapter-option", "adapter_options", multiple=True, metavar="K=V", help="Passed to the adapter (repeatable).")
@click.option("--budget", "budget_usd", required=True, type=float, metavar="USD",
              help="Spending limit in US dollars, a finite number, 0 or more; a run over it fails (under --budget 0, any cost at all).")
@click.option("--baseline-run", type=click.Path(path_type=Path, file_okay=False), help="A finished run to compare with.")
@click.option("--control-run", "control_runs", multiple=True, type=click.Path(path_type=Path, file_okay=False), help="A rerun of the baseline system (repeatable): disagreement marks cases unstable.")
@click.option("--target-case", "targets", multiple=True, help="A case that must be error-free (repeatable).")
@click.option("--case", "cases", multiple=True, metavar="ID", help="A partial run: run and score only this case (repeatable).")
@click.option("--limit", type=click.IntRange(min=1), metavar="N", help="A partial run: run and score only the first N cases, in dataset order.")
@click.option("--gate", "gates", multiple=True, help="Profile(s) the gate checks (default: the type's first).")
@click.option("--require-no-regressions", is_flag=True, help=f"Exit with status {GATE_FAILED_EXIT} unless the gate passes.")
@_from_review_option
@_recommendation_option
@click.option("--results", "results_dir", default="results", show_default=True, type=click.Path(path_type=Path, file_okay=False))
@click.option("--timeout", "timeout_s", type=float, metavar="SECONDS",
              help="Stop the adapter, and every process it started, after this long (a technical failure); "
              f"default: {_DEFAULT_TIMEOUT} (recorded in run.json's timeout).")
@click.option("--sandbox", type=click.Choice(SANDBOX_KINDS), default="auto", show_default=True, envvar="ENVIROBENCH_SANDBOX",
              help="Run the adapter in bubblewrap (bwrap), or not (none); auto: bwrap when it is installed, else none with a warning. "
              "Default from ENVIROBENCH_SANDBOX when set.")
@click.option("--no-network", "no_network", is_flag=True, help="The adapter gets no network (needs the sandbox).")
@click.option("--adapter-env", "adapter_env", multiple=True, metavar="NAME", help="Pass this environment variable to the adapter (repeatable); others are not passed.")
@click.option("--sandbox-allow", "sandbox_allow", multiple=True, metavar="PATH",
              help="Show the adapter this file or directory too, read-only (repeatable); answer files, fixtures and .git inside stay hidden.")
@click.option("--adapter-cache", "adapter_cache", type=click.Path(path_type=Path), metavar="DIR",
              help="The adapter's own directory, kept between runs (made if missing): readable and writable in the sandbox, named to it by "
                   "ENVIROBENCH_ADAPTER_CACHE. It may not be or hold the results, a dataset or your home.")
@click.option("--max-output-mb", type=click.FloatRange(min=0, min_open=True), default=MAX_OUTPUT_MB, show_default=True, metavar="MB",
              help="The most core copies from the adapter's output directory; more is a technical failure.")
@click.option("--repeats", type=click.IntRange(min=1), metavar="N", help="Make N runs of this configuration, RUN_ID-1 ... RUN_ID-N, one group (run.json's group: RUN_ID).")
@click.option("--shard", "shard_spec", metavar="I/N|auto",
              help="Make shard I of N (I from 0) of the run, as the run RUN_ID.shard-I-of-N, to be joined by `envirobench merge`; "
              "auto: from JOB_COMPLETION_INDEX (Kubernetes) or SLURM_ARRAY_TASK_ID (Slurm).")
@click.option("--shard-count", type=click.IntRange(min=1), metavar="N",
              help=f"With --shard auto: the number of shards (default: {SHARD_COUNT_ENV}, else SLURM_ARRAY_TASK_COUNT).")
@click.option("--store", "store_spec", metavar="NAME|URL", help="Archive each completed run to this private store (runs/<benchmark>/<run id>/), e.g. shards for `envirobench merge --store`.")
@click.option("--resume", is_flag=True,
              help="Continue the run if it did not complete (interrupted or failed): the cases its adapter finished are kept and only the others "
              "asked for; skip the runs (repeats, a shard) already completed in --results or archived in --store.")
@click.option("--reuse-failed", "reuse_failed", is_flag=True,
              help="Make the run again though a failed run has its ID: the failed one is kept whole, renamed RUN_ID.failed-N.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable verdict on stdout.")
@user_errors
def run_command(adapter, run_id, model, benchmark, dataset_spec, adapter_options, budget_usd, baseline_run, control_runs, targets, cases, limit, gates, require_no_regressions, from_review, recommendation, results_dir, timeout_s, sandbox, no_network, adapter_env, sandbox_allow, adapter_cache, max_output_mb, repeats, shard_spec, shard_count, store_spec, resume, reuse_failed, as_json):
    """Run one system on one benchmark, score it, pair it with a baseline and apply the gate.

    --case and --limit make a quick partial run: only those cases are sent to the adapter and
    scored (and the baseline and controls, which must be runs of every case, are rescored on
    them). A partial run is never a baseline, a control, promoted or on a leaderboard.

    --repeats N makes N runs (RUN_ID-1 ... RUN_ID-N, one group); --shard I/N makes one shard of
    the run (RUN_ID.shard-I-of-N), its share of the cases and of the budget; `envirobench merge`
    joins the shards. --store archives each completed run to a store, --resume skips those made.

    --resume continues a run that did not complete (interrupted, or failed): the cases its adapter
    finished are kept (from its cases.jsonl, each checked) and the adapter is asked only for the
    others; a failed run is kept as RUN_ID.failed-N. An adapter that writes no cases.jsonl is asked
    for every case again (its own cache, if it has one, makes that cheap). See docs/runs.md.

    Exit status: 0 done, 1 technical failure or bad input (nothing scored), 2 usage error,
    3 gate not passed under --require-no-regressions, 128+N interrupted by signal N (SIGINT,
    SIGTERM, SIGHUP: the adapter is stopped and the unfinished run is marked failed).
    """
    # Before anything else (a --store opened, a run archived by --resume): nothing is done with
    # a budget, timeout or output limit that is not a usable number.
    check_limits(budget_usd, timeout_s, max_output_mb)
    type_id, sep, dataset_id = dataset_spec.partition("=")
    if not sep or not dataset_id:
        raise click.BadParameter("expected TYPE=DATASET", param_hint="--dataset")
    if type_id != benchmark:
        raise click.BadParameter(f"the dataset is given for {type_id!r} but --benchmark is {benchmark!r}", param_hint="--dataset")
    targets = merge_targets(targets, _review_targets(from_review, recommendation))
    if cases and limit is not None:
        raise click.UsageError("--case and --limit cannot be combined: name the cases, or say how many of the first to run")
    if shard_count is not None and shard_spec != "auto":
        raise click.UsageError("--shard-count goes with --shard auto (--shard I/N names the count)")
    if shard_spec and (cases or limit is not None):
        raise click.UsageError("--shard cannot be combined with --case or --limit: a shard's cases are chosen by --shard")
    shard = parse_shard(shard_spec, count=shard_count) if shard_spec else None
    reg = registry()
    store = _open_run_store(store_spec, reg) if store_spec else None
    base = RunSpec(
        adapter=adapter,
        run_id=run_id,
        model=model,
        benchmark=benchmark,
        dataset=dataset_id,
        budget_usd=budget_usd,
        options=key_values(adapter_options, "--adapter-option", unique=True),
        baseline=baseline_run,
        controls=tuple(control_runs),
        targets=tuple(targets),
        gates=tuple(gates),
        require_no_regressions=require_no_regressions,
        results_dir=results_dir,
        timeout_s=timeout_s,
        sandbox=sandbox,
        network=not no_network,
        adapter_env=tuple(adapter_env),
        sandbox_allow=tuple(sandbox_allow),
        adapter_cache=adapter_cache,
        max_output_mb=max_output_mb,
        cases=tuple(cases),
        limit=limit,
        shard=shard,
        resume=resume,
        reuse_failed=reuse_failed,
        # A `file:` store's directory holds other runs (answers included): hidden from the adapter.
        hidden=(Path(store.root),) if store is not None and hasattr(store, "root") else (),
    )
    ids = repeat_run_ids(run_id, repeats) if repeats else [run_id]
    specs = [attrs.evolve(base, run_id=shard_run_id(rid, shard) if shard else rid, group=run_id if repeats else None) for rid in ids]
    extra = ({"shard": {"index": shard.index, "count": shard.count}} if shard else {}) | ({"group": run_id} if repeats else {})
    codes, entries = [], []
    for n, spec in enumerate(specs, 1):
        if repeats and not as_json:
            click.secho(f"repeat {n} of {repeats}: {spec.run_id}", bold=True)
        made = _already_made(spec, store, resume)
        if made is not None:
            click.echo(f"{spec.run_id}: already made, {made}; skipped (--resume)", err=True)
            entries.append({"run_id": spec.run_id, "status": "skipped", "where": made, **extra})
            continue
        outcome = _execute(spec, results_dir)
        if store is not None and outcome.status == "completed":
            with ProgressBars() as progress:
                archive_run(outcome.run_dir, store, on_progress=progress)
            click.echo(f"archived {spec.run_id} to {store.url}", err=True)
        if not repeats:
            report_outcome(outcome, require_no_regressions, as_json, shard=shard is not None, extra=extra)
            return
        codes.append(_show(outcome, require_no_regressions, as_json, shard=shard is not None, print_json=False))
        entries.append(_verdict(outcome, {"run_id": spec.run_id, **extra}) if outcome.status == "completed"
                       else {"run_dir": str(outcome.run_dir), "run_id": spec.run_id, "status": outcome.status, **extra}
                       | ({"failure": outcome.message} if outcome.status == "failed" else {}))
    if as_json:
        echo_json({"group": run_id, "runs": entries} if repeats else entries[0])
    # A technical failure of any repeat outranks a gate that did not pass.
    code = 1 if 1 in codes else max(codes, default=0)
    if code:
        sys.exit(code)


def _execute(spec: RunSpec, results_dir: Path) -> Outcome:
    # The adapter's progress, then scoring: a bar on a terminal, else a line every
    # ENVIROBENCH_PROGRESS_INTERVAL seconds, kept coming while the adapter reports nothing.
    bars = ProgressBars().heartbeat(f"run {spec.run_id}")
    try:
        return execute_run(spec, registry(), on_progress=bars, on_warning=lambda text: click.echo(f"warning: {text}", err=True))
    except Interrupted as exc:
        bars.close()
        click.echo(f"run interrupted by {exc.name}: the adapter (if it had started) was stopped with every process it started; "
                   f"an unfinished run stays in a hidden .{spec.run_id}.incomplete-* directory of {results_dir}, marked failed, with the cases "
                   "the adapter finished: the same command with --resume continues it (`envirobench runs clean` removes it)", err=True)
        sys.exit(128 + exc.signum)
    finally:
        bars.close()


def _open_run_store(value: str, reg: Registry) -> Store:
    """The store completed runs are archived to: it must be private (a run holds answers)."""
    store = open_store(value, reg)
    if store.visibility != PRIVATE:
        raise Refused(f"refused: runs are archived only to private stores, and {store.url} is public (a run holds answers and predictions)")
    return store


def _already_made(spec: RunSpec, store: Store | None, resume: bool) -> str | None:
    """Where the run already is, completed, when --resume skips it ("results" or the store);
    None when it is to be made, or continued: with --resume, a run in --results that did not
    complete (execute_run continues it). A run the store holds is refused without --resume (it
    could not be archived)."""
    final = spec.results_dir / spec.run_id
    stored = store is not None and store.exists(f"{run_prefix(spec.run_id, spec.benchmark)}/{RUN_FILE}")
    if resume and (final.exists() or final.is_symlink()):
        run = read_run(final)
        if run.status in UNFINISHED:
            return None  # continued (execute_run: the cases it finished kept, the failed run kept as RUN_ID.failed-N)
        if run.status != "completed":
            raise EnviroBenchError(f"{final} holds a run whose status is {run.status!r}; it is not continued or skipped (runs are never overwritten)")
        if store is not None and not stored:
            with ProgressBars() as progress:
                archive_run(final, store, on_progress=progress)
            click.echo(f"archived {spec.run_id} to {store.url}", err=True)
        return f"in {final}"
    if stored:
        if resume:
            return f"in {store.url}"  # type: ignore[union-attr]
        raise EnviroBenchError(f"{store.url} already holds a {spec.benchmark} run {spec.run_id!r}; choose another --run, or --resume to skip the runs already made")  # type: ignore[union-attr]
    return None


@click.command("score", context_settings=CONTEXT_SETTINGS)
@click.option("--run", "run_dir", required=True, type=click.Path(path_type=Path, file_okay=False, exists=True), help="A finished run directory.")
@click.option("--baseline-run", type=click.Path(path_type=Path, file_okay=False), help="Re-pair with this baseline.")
@click.option("--no-baseline", is_flag=True, help="Drop the baseline pairing.")
@click.option("--control-run", "control_runs", multiple=True, type=click.Path(path_type=Path, file_okay=False), help="Re-pair with these controls (replaces the saved ones).")
@click.option("--no-controls", is_flag=True, help="Drop the controls.")
@click.option("--target-case", "targets", multiple=True, help="Replace the target cases.")
@click.option("--gate", "gates", multiple=True, help="Replace the gated profiles.")
@click.option("--rekey", metavar="DATASET", help="Move the run to a corrected revision (ID or directory) whose inputs are unchanged.")
@click.option("--require-no-regressions", is_flag=True, help=f"Exit with status {GATE_FAILED_EXIT} unless the gate passes.")
@_from_review_option
@_recommendation_option
@click.option("--json", "as_json", is_flag=True)
@user_errors
def score_command(run_dir, baseline_run, no_baseline, control_runs, no_controls, targets, gates, rekey, require_no_regressions, from_review, recommendation, as_json):
    """Rescore a finished run from its saved predictions, without calling the adapter."""
    if baseline_run and no_baseline:
        raise click.UsageError("--baseline-run and --no-baseline contradict each other")
    if control_runs and no_controls:
        raise click.UsageError("--control-run and --no-controls contradict each other")
    kwargs: dict = {}
    if baseline_run or no_baseline:
        kwargs["baseline"] = baseline_run
    if control_runs or no_controls:
        kwargs["controls"] = list(control_runs)
    review_targets = _review_targets(from_review, recommendation)
    if review_targets:  # added to the given targets, or to the run's saved ones
        targets = merge_targets(targets or read_completed_run(run_dir).gate.targets, review_targets)
    with ProgressBars() as bars:
        outcome = rescore_run(run_dir, registry(), gates=list(gates) or None, targets=list(targets) or None, rekey=rekey, on_progress=bars, **kwargs)
    report_outcome(outcome, require_no_regressions, as_json)
