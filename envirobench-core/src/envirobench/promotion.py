"""What is done with a saved profile: plan its run, promote baselines, restore them.

`envirobench bench run NAME --run ID` turns a profile (envirobench.profiles) into the full
`envirobench run` command (`--plan` prints it and writes nothing); `envirobench bench promote
NAME RUN_DIR [--control DIR]` archives runs to the profile's private store and records them as
that adapter's baseline and controls. Baselines are kept per adapter: an adapter without one runs
`--unpaired` until one is promoted. A paired run on another machine first restores the promoted
runs from the store, every file checksum-verified.

Where a promotion is recorded: a checkout's profile (`--plugin PATH`) in its own bench.json; an
installed plugin's profile, which is read-only, in the project's overlay
(`.envirobench/profiles/<plugin>/<NAME>.json`, made with the state directory on the first
promotion). `--store` on promote is saved there too, so the next run restores from the store the
runs went to. The profile's `results` and a relative `file:` store resolve against the project
root (envirobench.state), so any directory of the project plans the same run. A partial run
(`run --case`/`--limit`) is never promoted, as a baseline or as a control.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from pathlib import Path

import attrs

from . import datasets as ds
from .errors import EnviroBenchError
from .plugins import Registry
from .profiles import (
    OVERLAY_FORMAT,
    AdapterProfile,
    Located,
    ProfileOverlay,
    PromotedRun,
    PromotedRuns,
    load_overlay,
    load_profile,
    save_overlay,
    save_profile,
)
from .rundir import RUN_FILE, RunRecord, check_run_id, read_completed_run, refuse_partial
from .stores import PRIVATE, Refused, Store, StoreError
from .stores.config import open_store, rebase_store
from .stores.transfer import Progress, archive_run, check_dataset_store, restore_run

# -- planning a run -----------------------------------------------------------------------------


@attrs.frozen
class Plan:
    """The `envirobench run` a profile stands for."""

    argv: tuple[str, ...]
    adapter: str
    paired: bool
    promoted: tuple[PromotedRun, ...]  # baseline first, then controls; empty when unpaired
    results_dir: Path
    dataset: str

    @property
    def command(self) -> str:
        return shlex.join(self.argv)

    def missing(self) -> list[PromotedRun]:
        """Promoted runs not in the results directory (to be restored from the store)."""
        return [run for run in self.promoted if not (self.results_dir / run.run_id).exists()]


def dataset_ref(located: Located, registry: Registry) -> str:
    """The profile's dataset as `envirobench run --dataset` takes it: a registered ID, or the
    absolute path of a dataset directory relative to bench.json."""
    value = located.profile.dataset
    if value in registry.datasets:
        return value
    candidate = located.path.parent / value
    if (candidate / ds.MANIFEST).is_file():
        return str(candidate.resolve())
    known = ", ".join(sorted(registry.datasets)) or "none"
    raise EnviroBenchError(
        f"dataset {value!r} is neither a registered dataset ({known}) nor a dataset directory relative to {located.path.parent}",
        file=located.path,
        field="$.dataset",
    )


def plan_run(
    located: Located,
    registry: Registry,
    *,
    run_id: str,
    adapter: str | None = None,
    unpaired: bool = False,
    results: str | Path | None = None,
) -> Plan:
    profile = located.profile
    check_run_id(run_id)
    adapter = adapter or profile.adapter
    if adapter not in profile.adapters:
        raise EnviroBenchError(
            f"adapter {adapter!r} has no entry in this profile (adapters: {', '.join(sorted(profile.adapters))}); add it under $.adapters",
            file=located.path,
            field="$.adapters",
        )
    entry = profile.adapters[adapter]
    # --results is a path on the command line (relative to the current directory); the profile's
    # is relative to the project root.
    results_dir = Path(results) if results is not None else located.project.resolve(profile.results)
    if entry.baseline is None and not unpaired:
        raise EnviroBenchError(
            f"adapter {adapter!r} has no promoted baseline yet, so there is nothing to pair with: run it with --unpaired, "
            f"then promote that run: envirobench bench promote {located.name} {shlex.quote(str(results_dir / run_id))} "
            f"--plugin {shlex.quote(located.plugin)}",
            file=located.path,
            field=f"$.adapters[{adapter!r}].baseline",
        )
    dataset = dataset_ref(located, registry)
    argv = ["envirobench", "run", "--adapter", adapter, "--run", run_id, "--model", entry.model,
            "--benchmark", profile.benchmark, "--dataset", f"{profile.benchmark}={dataset}"]
    for key, value in sorted(entry.options.items()):
        argv += ["--adapter-option", f"{key}={value}"]
    argv += ["--budget", repr(float(profile.budget_usd))]
    promoted: tuple[PromotedRun, ...] = ()
    if not unpaired:
        assert entry.baseline is not None
        promoted = (entry.baseline, *entry.controls)
        argv += ["--baseline-run", str(results_dir / entry.baseline.run_id)]
        for control in entry.controls:
            argv += ["--control-run", str(results_dir / control.run_id)]
    for case_id in profile.targets:
        argv += ["--target-case", case_id]
    for gate in profile.gate:
        argv += ["--gate", gate]
    if not unpaired:
        argv.append("--require-no-regressions")
    argv += ["--results", str(results_dir)]
    return Plan(tuple(argv), adapter, not unpaired, promoted, results_dir, dataset)


# -- stores -------------------------------------------------------------------------------------


def open_profile_store(located: Located, registry: Registry, override: str | None = None) -> Store:
    """The store promoted runs live in: --store (a relative `file:` path is relative to the current
    directory), else the profile's `store` (relative to the project root). It must be private."""
    if override:
        store = open_store(override, registry, origin="--store")
        origin = "--store"
    else:
        origin = located.store_origin
        store = open_store(located.profile.store, registry, origin=origin, base=located.project.root)
    if store.visibility != PRIVATE:
        raise Refused(
            f"refused: {origin} names {store.url}, a public store; promoted runs hold answers and predictions "
            "and are kept only in a private store"
        )
    return store


def check_dataset_home(located: Located, registry: Registry) -> None:
    """Refuse a profile whose public dataset is registered with a private store."""
    try:
        check_dataset_store(registry, located.profile.dataset)
    except Refused:
        raise
    except StoreError:
        pass  # the dataset's store is not configured on this machine: nothing to check it against


def restore_missing(
    plan: Plan, located: Located, registry: Registry, store_override: str | None = None, *, on_progress: Progress | None = None
) -> list[Path]:
    """Restore the plan's promoted runs that are not in the results directory."""
    missing = plan.missing()
    if not missing:
        return []
    store = open_profile_store(located, registry, store_override)
    restored = []
    for run in missing:
        if run.sha256 is None:
            raise EnviroBenchError(
                f"run {run.run_id!r} is not in {plan.results_dir} and the profile records no archive checksum for it, "
                "so it cannot be restored; promote it again with envirobench bench promote",
                file=located.promoted_into,
                field=f"$.adapters[{plan.adapter!r}]",
            )
        restored.append(restore_run(run.run_id, run.sha256, store, plan.results_dir, benchmark=located.profile.benchmark, on_progress=on_progress))
    return restored


def dataset_to_pull(plan: Plan, registry: Registry) -> str | None:
    """A registered dataset whose directory is missing but which has a store to pull it from."""
    source = registry.datasets.get(plan.dataset)
    if source is not None and not source.path.exists() and source.store:
        return source.id
    return None


# -- promoting ----------------------------------------------------------------------------------


@attrs.frozen
class Promotion:
    adapter: str
    baseline: PromotedRun
    controls: tuple[PromotedRun, ...]
    uploaded: int
    already_there: int
    store: str  # the store's URL
    previous: AdapterProfile
    written: Path  # the file that records the promotion: bench.json, or the project's overlay
    created_state: Path | None = None  # the project state directory, when this promotion made it
    saved_store: str | None = None  # --store, as the profile now names it


def _check_run(run: RunRecord, run_dir: Path, located: Located, digest: str, label: str) -> None:
    profile = located.profile
    where = run_dir / RUN_FILE
    if run.benchmark.id != profile.benchmark:
        raise EnviroBenchError(f"the {label} is a {run.benchmark.id!r} run; profile {located.name!r} is for {profile.benchmark!r}", file=where, field="$.benchmark.id")
    refuse_partial(run, run_dir, "the" if label == "run" else f"the {label}", "promoted")
    theirs = run.dataset
    if theirs.digest != digest:
        raise EnviroBenchError(
            f"the {label} was scored on {theirs.id} v{theirs.version} ({theirs.digest}), "
            f"not on the profile's dataset {profile.dataset!r} ({digest}); re-key it (envirobench score --run {run_dir} --rekey "
            f"{profile.dataset}) or make the run again",
            file=where,
            field="$.dataset.digest",
        )


def promote(
    located: Located,
    registry: Registry,
    run_dir: Path,
    controls: Sequence[Path] = (),
    *,
    store_override: str | None = None,
    on_progress: Progress | None = None,
) -> Promotion:
    """Archive a completed run (and controls) to the private store; record them (and --store) in
    bench.json, or in the project's overlay for an installed plugin's profile."""
    profile = located.profile
    check_dataset_home(located, registry)
    dataset = ds.load_dataset(dataset_ref(located, registry), registry)
    digest = dataset.identity.digest
    run = read_completed_run(run_dir)
    _check_run(run, run_dir, located, digest, "run")
    adapter = run.adapter.requested
    if adapter not in profile.adapters:
        raise EnviroBenchError(
            f"run {run.run_id!r} was made with adapter {adapter!r}, which the profile does not list "
            f"(adapters: {', '.join(sorted(profile.adapters))}); add it under $.adapters first",
            file=located.path,
            field="$.adapters",
        )
    seen = {run.run_id: run_dir}
    for control_dir in controls:
        control = read_completed_run(control_dir)
        _check_run(control, control_dir, located, digest, "control")
        if control.adapter.requested != adapter:
            raise EnviroBenchError(
                f"control {control.run_id!r} was made with adapter {control.adapter.requested!r}, the baseline with {adapter!r}; "
                "a control is a rerun of the baseline's system",
                file=control_dir / RUN_FILE,
                field="$.adapter.requested",
            )
        if control.run_id in seen:
            raise EnviroBenchError(f"run {control.run_id!r} is given twice ({seen[control.run_id]} and {control_dir})")
        seen[control.run_id] = control_dir
    store = open_profile_store(located, registry, store_override)
    # --store is saved as the profile reads it: a relative file: path, given relative to the
    # current directory, is rewritten relative to the project root.
    saved_store = rebase_store(store_override, located.project) if store_override else None
    archived = [archive_run(Path(d), store, on_progress=on_progress) for d in [run_dir, *controls]]
    baseline = PromotedRun(archived[0].run_id, archived[0].sha256)
    control_runs = tuple(PromotedRun(a.run_id, a.sha256) for a in archived[1:])
    previous = profile.adapters[adapter]
    created = None
    if located.overlay is None:
        _record_in_bench_json(located, adapter, baseline, control_runs, saved_store)
    else:
        created = _record_in_overlay(located, adapter, baseline, control_runs, saved_store)
    return Promotion(
        adapter,
        baseline,
        control_runs,
        sum(a.uploaded for a in archived),
        sum(a.already_there for a in archived),
        store.url,
        previous,
        located.promoted_into,
        created,
        saved_store,
    )


def _record_in_bench_json(located: Located, adapter: str, baseline: PromotedRun, controls: tuple[PromotedRun, ...], store: str | None) -> None:
    """A checkout's profile: bench.json itself, rewritten atomically."""
    profile = located.profile
    entry = attrs.evolve(profile.adapters[adapter], baseline=baseline, controls=controls)
    updated = attrs.evolve(profile, adapters={**profile.adapters, adapter: entry}, store=store or profile.store)
    # Re-read just before writing: refuse to lose an edit made to bench.json meanwhile.
    if load_profile(located.path) != profile:
        raise EnviroBenchError("bench.json changed while the runs were being archived; promote again", file=located.path)
    save_profile(located.path, updated)


def _record_in_overlay(located: Located, adapter: str, baseline: PromotedRun, controls: tuple[PromotedRun, ...], store: str | None) -> Path | None:
    """An installed plugin's profile: the project's overlay, never the package's files. Returns
    the state directory when this made it."""
    overlay = located.overlay
    assert overlay is not None
    plugin = overlay.parent.name
    current = located.promotions
    # Re-read just before writing: refuse to lose a promotion made meanwhile.
    if overlay.exists() or overlay.is_symlink():
        again = load_overlay(overlay, load_profile(located.path), plugin=plugin, name=located.name, bench=located.path)
    else:
        again = None
    if again != current:
        raise EnviroBenchError("the overlay changed while the runs were being archived; promote again", file=overlay)
    base = current or ProfileOverlay(OVERLAY_FORMAT, plugin, located.name)
    updated = attrs.evolve(
        base,
        adapters={**base.adapters, adapter: PromotedRuns(baseline, controls)},
        store=store if store is not None else base.store,
    )
    created = located.project.ensure_state()
    save_overlay(located, updated)
    return located.project.state if created else None
