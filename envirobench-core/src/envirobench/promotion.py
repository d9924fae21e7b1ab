"""What is done with a saved profile: plan its run, promote baselines, restore them.

`envirobench bench run NAME --run ID` turns a profile (envirobench.profiles) into the full
`envirobench run` command (`--plan` prints it and writes nothing); `envirobench bench promote
NAME RUN_DIR [--control DIR]` archives runs to the profile's private store and records them as
that adapter's baseline and controls. Baselines are kept per adapter: an adapter without one runs
`--unpaired` until one is promoted. A paired run on another machine first restores the promoted
runs from the store, every file checksum-verified.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from pathlib import Path

import attrs

from . import datasets as ds
from .errors import EnviroBenchError
from .plugins import Registry
from .profiles import AdapterProfile, Located, PromotedRun, load_profile, save_profile
from .rundir import RUN_FILE, RunRecord, check_run_id, read_completed_run
from .stores import PRIVATE, Refused, Store, StoreError
from .stores.config import open_store
from .stores.transfer import archive_run, check_dataset_store, restore_run

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
    results_dir = Path(results) if results is not None else Path(profile.results)
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
    """The store promoted runs live in: --store, else bench.json's `store`. It must be private."""
    value = override or located.profile.store
    origin = "--store" if override else f"{located.path} $.store"
    store = open_store(value, registry, origin=origin)
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


def restore_missing(plan: Plan, located: Located, registry: Registry, store_override: str | None = None) -> list[Path]:
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
                file=located.path,
                field=f"$.adapters[{plan.adapter!r}]",
            )
        restored.append(restore_run(run.run_id, run.sha256, store, plan.results_dir))
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
    store: str
    previous: AdapterProfile


def _check_run(run: RunRecord, run_dir: Path, located: Located, digest: str, label: str) -> None:
    profile = located.profile
    where = run_dir / RUN_FILE
    if run.benchmark.id != profile.benchmark:
        raise EnviroBenchError(f"the {label} is a {run.benchmark.id!r} run; profile {located.name!r} is for {profile.benchmark!r}", file=where, field="$.benchmark.id")
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
) -> Promotion:
    """Archive a completed run (and controls) to the private store; record them in bench.json."""
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
    archived = [archive_run(Path(d), store) for d in [run_dir, *controls]]
    baseline = PromotedRun(archived[0].run_id, archived[0].sha256)
    control_runs = tuple(PromotedRun(a.run_id, a.sha256) for a in archived[1:])
    previous = profile.adapters[adapter]
    entry = attrs.evolve(previous, baseline=baseline, controls=control_runs)
    updated = attrs.evolve(profile, adapters={**profile.adapters, adapter: entry})
    # Re-read just before writing: refuse to lose an edit made to bench.json meanwhile.
    if load_profile(located.path) != profile:
        raise EnviroBenchError("bench.json changed while the runs were being archived; promote again", file=located.path)
    save_profile(located.path, updated)
    return Promotion(
        adapter,
        baseline,
        control_runs,
        sum(a.uploaded for a in archived),
        sum(a.already_there for a in archived),
        store.url,
        previous,
    )
