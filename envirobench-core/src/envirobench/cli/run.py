"""`envirobench run` and `envirobench score`."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..converter import unstructure
from ..pairing import PASSED
from ..review import merge_targets, recommendation_cases
from ..rundir import (
    ADAPTER_LOG,
    MAX_OUTPUT_MB,
    REPORT_FILE,
    RUN_FILE,
    SUMMARY_FILE,
    read_completed_run,
)
from ..runs import Outcome, RunSpec, execute_run, rescore_run
from ..sandbox import SANDBOX_KINDS, Interrupted
from .common import (
    CONTEXT_SETTINGS,
    GATE_FAILED_EXIT,
    ProgressBars,
    echo_json,
    registry,
    user_errors,
)


def _parse_options(values: tuple[str, ...]) -> dict[str, str]:
    options: dict[str, str] = {}
    for value in values:
        key, sep, val = value.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{value!r} is not KEY=VALUE", param_hint="--adapter-option")
        if key in options:
            raise click.BadParameter(f"{key!r} given twice", param_hint="--adapter-option")
        options[key] = val
    return options


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


def _report(outcome: Outcome, require_no_regressions: bool, as_json: bool) -> None:
    """Print where the run is and its verdict; exit 1 on a technical failure, 3 on a failed gate."""
    if outcome.status == "failed":
        what = f"{outcome.partial.describe()} " if outcome.partial else ""
        click.echo(f"run failed (technical failure, nothing scored): {what}{outcome.message}", err=True)
        click.echo(f"details: {outcome.run_dir / RUN_FILE} and {outcome.run_dir / ADAPTER_LOG}", err=True)
        sys.exit(1)
    gate = outcome.gate
    assert gate is not None  # a completed run has a gate
    partial = outcome.partial
    if as_json:
        echo_json({"run_dir": str(outcome.run_dir), "status": outcome.status, "gate": gate.status, "by_profile": {p: g.status for p, g in gate.by_profile.items()},
                   "partial": unstructure(partial) if partial else None})
    else:
        if partial:
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
        click.echo(f"gate: {gate.status}")
    if require_no_regressions and gate.status != PASSED:
        click.echo(f"gate {gate.status} under --require-no-regressions (exit status {GATE_FAILED_EXIT})", err=True)
        sys.exit(GATE_FAILED_EXIT)


@click.command("run", context_settings=CONTEXT_SETTINGS)
@click.option("--adapter", required=True, help="A registered adapter name or a path to an executable.")
@click.option("--run", "run_id", required=True, help="Run ID; the run is written to RESULTS/RUN_ID.")
@click.option("--model", required=True, help="The model the adapter should use (recorded in run.json).")
@click.option("--benchmark", required=True, help="Benchmark type ID.")
@click.option("--dataset", "dataset_spec", required=True, metavar="TYPE=DATASET", help="Dataset for the type: a registered ID or a directory.")
@click.option("--adapter-option", "adapter_options", multiple=True, metavar="K=V", help="Passed to the adapter (repeatable).")
@click.option("--budget", "budget_usd", required=True, type=float, metavar="USD", help="Spending limit; a run over it fails.")
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
@click.option("--timeout", "timeout_s", type=float, metavar="SECONDS", help="Stop the adapter, and every process it started, after this long (a technical failure).")
@click.option("--sandbox", type=click.Choice(SANDBOX_KINDS), default="auto", show_default=True, envvar="ENVIROBENCH_SANDBOX",
              help="Run the adapter in bubblewrap (bwrap), or not (none); auto: bwrap when it is installed, else none with a warning. "
              "Default from ENVIROBENCH_SANDBOX when set.")
@click.option("--no-network", "no_network", is_flag=True, help="The adapter gets no network (needs the sandbox).")
@click.option("--adapter-env", "adapter_env", multiple=True, metavar="NAME", help="Pass this environment variable to the adapter (repeatable); others are not passed.")
@click.option("--max-output-mb", type=click.FloatRange(min=0, min_open=True), default=MAX_OUTPUT_MB, show_default=True, metavar="MB",
              help="The most core copies from the adapter's output directory; more is a technical failure.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable verdict on stdout.")
@user_errors
def run_command(adapter, run_id, model, benchmark, dataset_spec, adapter_options, budget_usd, baseline_run, control_runs, targets, cases, limit, gates, require_no_regressions, from_review, recommendation, results_dir, timeout_s, sandbox, no_network, adapter_env, max_output_mb, as_json):
    """Run one system on one benchmark, score it, pair it with a baseline and apply the gate.

    --case and --limit make a quick partial run: only those cases are sent to the adapter and
    scored (and the baseline and controls, which must be runs of every case, are rescored on
    them). A partial run is never a baseline, a control, promoted or on a leaderboard.

    Exit status: 0 done, 1 technical failure or bad input (nothing scored), 2 usage error,
    3 gate not passed under --require-no-regressions, 128+N interrupted by signal N (SIGINT,
    SIGTERM, SIGHUP: the adapter is stopped and the unfinished run is marked failed).
    """
    type_id, sep, dataset_id = dataset_spec.partition("=")
    if not sep or not dataset_id:
        raise click.BadParameter("expected TYPE=DATASET", param_hint="--dataset")
    if type_id != benchmark:
        raise click.BadParameter(f"the dataset is given for {type_id!r} but --benchmark is {benchmark!r}", param_hint="--dataset")
    targets = merge_targets(targets, _review_targets(from_review, recommendation))
    if cases and limit is not None:
        raise click.UsageError("--case and --limit cannot be combined: name the cases, or say how many of the first to run")
    spec = RunSpec(
        adapter=adapter,
        run_id=run_id,
        model=model,
        benchmark=benchmark,
        dataset=dataset_id,
        budget_usd=budget_usd,
        options=_parse_options(adapter_options),
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
        max_output_mb=max_output_mb,
        cases=tuple(cases),
        limit=limit,
    )
    bars = ProgressBars()  # the adapter's progress, then scoring
    try:
        outcome = execute_run(spec, registry(), on_progress=bars, on_warning=lambda text: click.echo(f"warning: {text}", err=True))
    except Interrupted as exc:
        bars.close()
        click.echo(f"run interrupted by {exc.name}: the adapter (if it had started) was stopped with every process it started; "
                   f"an unfinished run stays in a hidden .{run_id}.incomplete-* directory of {results_dir}, marked failed", err=True)
        sys.exit(128 + exc.signum)
    finally:
        bars.close()
    _report(outcome, require_no_regressions, as_json)


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
    _report(outcome, require_no_regressions, as_json)
