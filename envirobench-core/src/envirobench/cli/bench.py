"""`envirobench bench`: saved profiles (run, promote, restore, list).

An installed plugin's profile is promoted into the project's overlay, a checkout's (`--plugin
PATH`) into its own bench.json (envirobench.promotion); store transfers show progress bars on a
terminal (`ProgressBars`)."""

from __future__ import annotations

import shlex
from pathlib import Path

import attrs
import click

from ..errors import EnviroBenchError
from ..profiles import installed_profiles, locate, locate_installed, missing_adapter
from ..promotion import check_dataset_home, dataset_to_pull, plan_run, promote, restore_missing
from ..state import find_project
from ..stores.config import open_store
from ..stores.transfer import pull_dataset
from .common import (
    CONTEXT_SETTINGS,
    ProgressBars,
    completion,
    echo_json,
    key_values,
    registry,
    rows_as_text,
    user_errors,
)
from .run import run_command

_plugin_option = click.option(
    "--plugin", metavar="PATH|NAME",
    help="A plugin checkout or package directory, or an installed plugin's name; "
    "default: the one installed plugin with benchmarks/NAME/bench.json.",
)
_store_option = click.option(
    "--store", "store", metavar="NAME|URL", help="Use this store instead of the profile's (it must be private).",
)
_results_option = click.option(
    "--results", "results", type=click.Path(path_type=Path, file_okay=False), metavar="DIR",
    help="Results directory (default: the profile's `results`, relative to the project root).",
)


@click.group("bench", context_settings=CONTEXT_SETTINGS)
def bench_group() -> None:
    """Saved profiles: how a plugin runs a benchmark (benchmarks/NAME/bench.json)."""


@bench_group.command("run", context_settings=CONTEXT_SETTINGS)
@click.argument("name", **completion("profile"))
@_plugin_option
@click.option("--run", "run_id", required=True, help="Run ID; the run is written to RESULTS/RUN_ID.")
@click.option("--adapter", help="An adapter of the profile (default: the profile's `adapter`).", **completion("adapter"))
@click.option("--unpaired", is_flag=True, help="Run without the promoted baseline (required while the adapter has none).")
@click.option("--plan", is_flag=True, help="Print the full `envirobench run` command and write nothing.")
@click.option("--repeats", type=click.IntRange(min=1), metavar="N", help="Make N runs, RUN_ID-1 ... RUN_ID-N, one group (as `envirobench run --repeats`).")
@click.option("--case", "cases", multiple=True, metavar="ID", help="A partial run: run and score only this case (repeatable; as `envirobench run --case`).")
@click.option("--limit", type=click.IntRange(min=1), metavar="N", help="A partial run: only the first N cases, in dataset order (as `envirobench run --limit`).")
@click.option("--adapter-option", "adapter_options", multiple=True, metavar="K=V",
              help="Passed to the adapter (repeatable), replacing the profile's option of that key.")
@click.option("--resume", is_flag=True, help="Continue the run if it did not complete, keeping the cases its adapter finished (as `envirobench run --resume`).")
@_results_option
@_store_option
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output: the plan (with --plan) or the run's verdict.")
@user_errors
def bench_run(name, plugin, run_id, adapter, unpaired, plan, repeats, cases, limit, adapter_options, resume, results, store, as_json):
    """Run profile NAME: the `envirobench run` its bench.json stands for.

    Paired with the adapter's promoted baseline and controls, restored from the profile's store
    (checksum-verified) when they are not in the results directory. --case, --limit,
    --adapter-option and --resume mean what they mean to `envirobench run` (an --adapter-option replaces the
    profile's option of the same key); --plan shows them in the command. Exit status as for
    `envirobench run` (3: the gate did not pass).
    """
    located = locate(name, plugin)
    reg = registry()
    check_dataset_home(located, reg)
    the_plan = plan_run(located, reg, run_id=run_id, adapter=adapter, unpaired=unpaired, results=results)
    if cases and limit is not None:
        raise click.UsageError("--case and --limit cannot be combined: name the cases, or say how many of the first to run")
    options = key_values(adapter_options, "--adapter-option", unique=True)
    if repeats or cases or limit is not None or options or resume:
        the_plan = attrs.evolve(the_plan, argv=_with_run_options(the_plan.argv, repeats=repeats, cases=cases, limit=limit, options=options, resume=resume))
    pull = dataset_to_pull(the_plan, reg)
    no_adapter = missing_adapter(located, the_plan.adapter, reg.adapters)
    if plan:
        notes = [no_adapter] if no_adapter else []
        if pull:
            notes.append(f"dataset {pull!r} is not here yet; first: envirobench datasets pull {pull}")
        missing = the_plan.missing()
        if missing:
            ids = ", ".join(r.run_id for r in missing)
            restore = ["envirobench", "bench", "restore", name, "--plugin", located.plugin, "--adapter", the_plan.adapter]
            if results is not None:
                restore += ["--results", str(results)]
            if store:
                restore += ["--store", store]
            notes.append(f"the promoted run(s) {ids} are not in {the_plan.results_dir}; first: {shlex.join(restore)}")
        if as_json:
            echo_json({"command": the_plan.command, "argv": list(the_plan.argv), "adapter": the_plan.adapter, "paired": the_plan.paired, "notes": notes})
            return
        click.echo(the_plan.command)
        for note in notes:
            click.echo(f"note: {note}", err=True)
        return
    if no_adapter:
        raise EnviroBenchError(no_adapter)
    if pull:
        _pull_dataset(pull, reg)
    with ProgressBars() as progress:
        restored = restore_missing(the_plan, located, reg, store, on_progress=progress)
    for path in restored:
        click.echo(f"restored {path} from the store (every file checksum-verified)", err=True)
    click.echo(f"running: {the_plan.command}", err=True)
    # The very command --plan prints, parsed by the same code: the two cannot differ.
    run_command.main(args=[*the_plan.argv[2:], *(["--json"] if as_json else [])], prog_name="envirobench run", standalone_mode=False)


def _with_run_options(argv: tuple[str, ...], *, repeats: int | None, cases: tuple[str, ...], limit: int | None, options: dict[str, str],
                      resume: bool = False) -> tuple[str, ...]:
    """The plan's `envirobench run` command with bench run's own options: an --adapter-option
    replaces the profile's option of its key (in place, so the command reads as the profile's)."""
    out: list[str] = []
    given = dict(options)
    args = iter(argv)
    for arg in args:
        if arg == "--adapter-option":
            value = next(args)
            key = value.partition("=")[0]
            if key in given:
                value = f"{key}={given.pop(key)}"
            out += [arg, value]
        elif arg == "--budget":
            # The options the profile does not have go with the others, before --budget.
            for key, value in given.items():
                out += ["--adapter-option", f"{key}={value}"]
            given = {}
            out += [arg, next(args)]
        else:
            out.append(arg)
    for case_id in cases:
        out += ["--case", case_id]
    if limit is not None:
        out += ["--limit", str(limit)]
    if repeats:
        out += ["--repeats", str(repeats)]
    if resume:
        out.append("--resume")
    return tuple(out)


def _pull_dataset(dataset_id: str, reg) -> None:
    source = reg.datasets[dataset_id]
    store = open_store(source.store, reg, origin=f"dataset {dataset_id!r} of plugin {source.plugin!r}")
    with ProgressBars() as progress:
        result = pull_dataset(dataset_id, store, reg, on_progress=progress)
    click.echo(f"pulled {dataset_id} v{result.version} into {result.path} (every file checksum-verified)", err=True)


@bench_group.command("promote", context_settings=CONTEXT_SETTINGS)
@click.argument("name", **completion("profile"))
@click.argument("run_dir", type=click.Path(path_type=Path, file_okay=False, exists=True))
@click.option("--control", "controls", multiple=True, type=click.Path(path_type=Path, file_okay=False, exists=True), metavar="DIR", help="A rerun of the baseline's system (repeatable).")
@_plugin_option
@click.option("--store", "store", metavar="NAME|URL", help="Archive to this store (it must be private) and save it as the profile's store.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@user_errors
def bench_promote(name, run_dir, controls, plugin, store, as_json):
    """Promote RUN_DIR (and --control runs) for profile NAME.

    The runs must be completed runs of every case of the profile's benchmark on its dataset
    (same digest), made with one of its adapters. They are archived to the profile's private
    store (every file checksum-verified; nothing there is ever replaced), then recorded, with
    the archive checksums, as that adapter's baseline and controls: in bench.json for a checkout
    (--plugin PATH), in the project's .envirobench/ for an installed plugin's profile (its files
    are never written). --store is saved there too.
    """
    located = locate(name, plugin)
    with ProgressBars() as progress:
        result = promote(located, registry(), run_dir, controls, store_override=store, on_progress=progress)
    if result.created_state is not None:
        click.echo(f"created the project state {result.created_state} (promotions of installed profiles are kept there)", err=True)
    if as_json:
        echo_json({
            "profile": str(located.path),
            "recorded_in": str(result.written),
            "adapter": result.adapter,
            "baseline": {"run_id": result.baseline.run_id, "sha256": result.baseline.sha256},
            "controls": [{"run_id": c.run_id, "sha256": c.sha256} for c in result.controls],
            "store": result.store,
            "saved_store": result.saved_store,
            "uploaded": result.uploaded,
            "already_there": result.already_there,
        })
        return
    click.echo(f"archived to {result.store}: {result.uploaded} file(s) uploaded, {result.already_there} already there")
    click.echo(f"baseline of adapter {result.adapter!r}: {result.baseline.run_id} (archive sha256 {result.baseline.sha256})")
    for control in result.controls:
        click.echo(f"control: {control.run_id} (archive sha256 {control.sha256})")
    if result.previous.baseline and result.previous.baseline.run_id != result.baseline.run_id:
        click.echo(f"replaces baseline {result.previous.baseline.run_id} (its archive stays in the store)")
    if result.saved_store is not None:
        click.echo(f"store of the profile: {result.saved_store}")
    click.echo(f"updated {result.written}")


@bench_group.command("restore", context_settings=CONTEXT_SETTINGS)
@click.argument("name", **completion("profile"))
@_plugin_option
@click.option("--adapter", help="An adapter of the profile (default: the profile's `adapter`).", **completion("adapter"))
@_results_option
@_store_option
@user_errors
def bench_restore(name, plugin, adapter, results, store):
    """Restore the promoted runs of profile NAME's adapter into the results directory."""
    located = locate(name, plugin)
    reg = registry()
    adapter = adapter or located.profile.adapter
    entry = located.profile.adapters.get(adapter)
    if entry is not None and entry.baseline is None:
        click.echo(f"adapter {adapter!r} has no promoted runs in {located.promoted_into}; nothing to restore")
        return
    the_plan = plan_run(located, reg, run_id="restore", adapter=adapter, results=results)
    with ProgressBars() as progress:
        restored = restore_missing(the_plan, located, reg, store, on_progress=progress)
    for path in restored:
        click.echo(f"restored {path} (every file checksum-verified)")
    if not restored:
        click.echo(f"every promoted run of adapter {the_plan.adapter!r} is already in {the_plan.results_dir}")


@bench_group.command("list", context_settings=CONTEXT_SETTINGS)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@user_errors
def bench_list(as_json):
    """Profiles of the installed plugins, with each adapter's promoted baseline (the project's
    promotions applied)."""
    rows = []
    project = find_project()
    for plugin, path in installed_profiles():
        row = {"name": path.parent.name, "plugin": plugin, "path": str(path), "overlay": None}
        try:
            located = locate_installed(plugin, path, project)
            profile = located.profile
            row.update(
                overlay=str(located.overlay) if located.promotions is not None else None,
                benchmark=profile.benchmark,
                dataset=profile.dataset,
                store=profile.store,
                adapters={a: (e.baseline.run_id if e.baseline else None) for a, e in sorted(profile.adapters.items())},
            )
        except EnviroBenchError as exc:
            row["error"] = str(exc)
        rows.append(row)
    for row in rows_as_text(rows, as_json, empty="no installed plugin has a saved profile (benchmarks/NAME/bench.json)"):
        click.echo(f"{row['name']}  ({row['plugin']})  {row['path']}")
        if row["overlay"]:
            click.echo(f"  promotions: {row['overlay']}")
        if "error" in row:
            click.echo(f"  error: {row['error']}")
            continue
        click.echo(f"  {row['benchmark']} on {row['dataset']}; store {row['store']}")
        for adapter, baseline in row["adapters"].items():
            click.echo(f"  adapter {adapter}: " + (f"baseline {baseline}" if baseline else "no baseline yet (run --unpaired, then promote)"))
