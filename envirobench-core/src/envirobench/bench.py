"""Saved profiles (DESIGN §7): `benchmarks/NAME/bench.json` says how a plugin runs a benchmark.

`envirobench bench run NAME --run ID` turns a profile into the full `envirobench run` command
(`--plan` prints it and writes nothing); `envirobench bench promote NAME RUN_DIR [--control DIR]`
archives runs to the profile's private store and records them as that adapter's baseline and
controls. Baselines are kept per adapter: an adapter without one runs `--unpaired` until one is
promoted. A paired run on another machine first restores the promoted runs from the store,
every file checksum-verified.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any, Literal

import attrs

from . import datasets as ds
from .converter import structure, unstructure
from .errors import EnviroBenchError
from .jsonio import dumps, read_json, write_json
from .plugins import ENTRY_POINT_GROUP, Registry, allowed_distributions
from .runs import _RUN_ID, read_completed_run

BENCH_FORMAT = "envirobench.bench.v1"
BENCH_FILE = "bench.json"
BENCHMARKS_DIR = "benchmarks"
_SHA256_HEX = frozenset("0123456789abcdef")


@attrs.frozen
class PromotedRun:
    """A promoted run: its ID, and the SHA-256 of its archive listing in the profile's store."""

    run_id: str
    sha256: str | None = None


@attrs.frozen
class AdapterProfile:
    """How one adapter runs the benchmark, and the runs promoted for it."""

    model: str
    options: dict[str, str] = attrs.field(factory=dict)
    baseline: PromotedRun | None = None
    controls: tuple[PromotedRun, ...] = ()


@attrs.frozen
class BenchProfile:
    """`benchmarks/NAME/bench.json`: dataset, adapters, gate, budget, promoted runs and run store."""

    format: Literal["envirobench.bench.v1"]
    benchmark: str
    dataset: str
    adapter: str
    adapters: dict[str, AdapterProfile]
    store: str
    gate: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    budget_usd: float = 0.0
    results: str = "results"
    description: str = ""


@attrs.frozen
class Located:
    """A profile and where it was found."""

    name: str
    path: Path
    plugin: str  # what to pass as --plugin to find it again
    profile: BenchProfile


# -- reading and writing ------------------------------------------------------------------------


def load_profile(path: Path) -> BenchProfile:
    profile = structure(read_json(path), BenchProfile, file=str(path))
    check_profile(profile, path)
    return profile


def check_profile(profile: BenchProfile, path: Path) -> None:
    def refuse(message: str, field: str) -> None:
        raise EnviroBenchError(message, file=path, field=field)

    if not profile.adapters:
        refuse("a profile lists at least one adapter", "$.adapters")
    if profile.adapter not in profile.adapters:
        refuse(f"the default adapter {profile.adapter!r} is not under $.adapters ({', '.join(sorted(profile.adapters))})", "$.adapter")
    if profile.budget_usd < 0:
        refuse("the budget must not be negative", "$.budget_usd")
    if not profile.results.strip():
        refuse("the results directory must not be empty", "$.results")
    for name, entry in profile.adapters.items():
        field = f"$.adapters[{name!r}]"
        if not entry.model.strip():
            refuse("the model must not be empty", field + ".model")
        if entry.controls and entry.baseline is None:
            refuse("controls without a baseline: promote a baseline with them", field + ".controls")
        seen: set[str] = set()
        promoted = [("baseline", entry.baseline)] + [(f"controls[{i}]", c) for i, c in enumerate(entry.controls)]
        for label, run in promoted:
            if run is None:
                continue
            if not _RUN_ID.match(run.run_id):
                refuse(f"{run.run_id!r} is not a run ID", f"{field}.{label}.run_id")
            if run.run_id in seen:
                refuse(f"run {run.run_id!r} is promoted twice for this adapter", f"{field}.{label}.run_id")
            seen.add(run.run_id)
            if run.sha256 is not None and (len(run.sha256) != 64 or not set(run.sha256) <= _SHA256_HEX):
                refuse("expected a SHA-256 as 64 lowercase hex digits", f"{field}.{label}.sha256")


def save_profile(path: Path, profile: BenchProfile) -> None:
    """Atomically (a temporary file, then rename): a reader never sees half a profile."""
    check_profile(profile, path)
    write_json(path, unstructure(profile))


def profile_json(profile: BenchProfile) -> str:
    return dumps(unstructure(profile))


# -- finding a profile --------------------------------------------------------------------------


def _check_name(name: str) -> None:
    if not name or name in (".", "..") or "/" in name or "\\" in name:
        raise EnviroBenchError(f"{name!r} is not a benchmark profile name (the NAME of benchmarks/NAME/bench.json)")


def _plugin_dirs(ep: metadata.EntryPoint) -> list[Path]:
    """The package directories of an entry point's module: where benchmarks/ sits beside plugin.py."""
    module = ep.module
    dirs: list[Path] = []
    names = [module.rpartition(".")[0], module.split(".")[0]] if "." in module else [module]
    for name in names:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            continue
        if spec is None:
            continue
        if spec.submodule_search_locations:
            dirs.extend(Path(p) for p in spec.submodule_search_locations)
        elif spec.origin:
            dirs.append(Path(spec.origin).parent)
    return list(dict.fromkeys(dirs))


def _entry_points(*, only_allowed: bool) -> list[metadata.EntryPoint]:
    allowed = allowed_distributions() if only_allowed else None
    out = []
    for ep in sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        dist = ep.dist.name if ep.dist else ep.name
        if allowed is not None and _normal(dist) not in allowed:
            continue
        out.append(ep)
    return out


def _normal(name: str) -> str:
    return name.strip().lower().replace("_", "-")


def _in_directory(root: Path, name: str) -> list[Path]:
    candidates = [root / BENCHMARKS_DIR / name / BENCH_FILE]
    candidates += sorted(root.glob(f"src/*/{BENCHMARKS_DIR}/{name}/{BENCH_FILE}"))
    candidates += sorted(root.glob(f"*/{BENCHMARKS_DIR}/{name}/{BENCH_FILE}"))
    return list(dict.fromkeys(p for p in candidates if p.is_file()))


def locate(name: str, plugin: str | None = None) -> Located:
    """Find benchmarks/NAME/bench.json in a plugin directory, a named installed plugin, or (no
    --plugin) the one installed plugin that has it."""
    _check_name(name)
    if plugin is not None and (Path(plugin).is_dir() or os.sep in plugin or plugin.startswith(".")):
        root = Path(plugin)
        if not root.is_dir():
            raise EnviroBenchError(f"--plugin {plugin!r} is not a directory")
        found = _in_directory(root, name)
        if not found:
            raise EnviroBenchError(
                f"no {BENCHMARKS_DIR}/{name}/{BENCH_FILE} in {root} (looked in {BENCHMARKS_DIR}/, src/*/{BENCHMARKS_DIR}/ and */{BENCHMARKS_DIR}/)"
            )
        if len(found) > 1:
            raise EnviroBenchError(f"several profiles named {name!r} in {root}: {', '.join(map(str, found))}; pass the package directory itself")
        path = found[0]
        return Located(name, path, plugin, load_profile(path))
    matches: list[tuple[str, Path]] = []
    entry_points = _entry_points(only_allowed=plugin is None)
    if plugin is not None:
        wanted = _normal(plugin)
        entry_points = [ep for ep in entry_points if wanted in (_normal(ep.name), _normal(ep.dist.name if ep.dist else ep.name))]
        if not entry_points:
            installed = ", ".join(sorted({f"{ep.name} ({ep.dist.name if ep.dist else '?'})" for ep in _entry_points(only_allowed=False)})) or "none"
            raise EnviroBenchError(f"--plugin {plugin!r} is neither a directory nor an installed plugin (installed: {installed})")
    for ep in entry_points:
        for directory in _plugin_dirs(ep):
            path = directory / BENCHMARKS_DIR / name / BENCH_FILE
            if path.is_file():
                matches.append((ep.name, path))
    matches = list(dict.fromkeys(matches))
    if not matches:
        where = f"plugin {plugin!r}" if plugin else "any installed plugin"
        raise EnviroBenchError(f"no saved profile {name!r}: {where} has no {BENCHMARKS_DIR}/{name}/{BENCH_FILE} (pass --plugin PATH for a checkout)")
    if len(matches) > 1:
        raise EnviroBenchError(f"several plugins have a profile {name!r} ({', '.join(p for p, _ in matches)}); choose one with --plugin")
    plugin_name, path = matches[0]
    return Located(name, path, plugin or plugin_name, load_profile(path))


def installed_profiles() -> list[tuple[str, Path]]:
    """(plugin, bench.json) for every profile of the loaded plugins."""
    out = []
    for ep in _entry_points(only_allowed=True):
        for directory in _plugin_dirs(ep):
            for path in sorted((directory / BENCHMARKS_DIR).glob(f"*/{BENCH_FILE}")):
                out.append((ep.name, path))
    return list(dict.fromkeys(out))


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
    if not _RUN_ID.match(run_id):
        raise EnviroBenchError(f"run ID {run_id!r} must be letters, digits, '.', '_' or '-' (not starting with '.' or '-')")
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


def open_profile_store(located: Located, registry: Registry, override: str | None = None) -> Any:
    """The store promoted runs live in: --store, else bench.json's `store`. It must be private."""
    from .stores import PRIVATE, Refused
    from .stores.config import open_store

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
    from .stores import Refused, StoreError
    from .stores.transfer import check_dataset_store

    try:
        check_dataset_store(registry, located.profile.dataset)
    except Refused:
        raise
    except StoreError:
        pass  # the dataset's store is not configured on this machine: nothing to check it against


def restore_missing(plan: Plan, located: Located, registry: Registry, store_override: str | None = None) -> list[Path]:
    """Restore the plan's promoted runs that are not in the results directory."""
    from .stores.transfer import restore_run

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


def _check_run(run: dict[str, Any], run_dir: Path, located: Located, digest: str, label: str) -> None:
    profile = located.profile
    where = run_dir / "run.json"
    if run["benchmark"]["id"] != profile.benchmark:
        raise EnviroBenchError(f"the {label} is a {run['benchmark']['id']!r} run; profile {located.name!r} is for {profile.benchmark!r}", file=where, field="$.benchmark.id")
    theirs = run["dataset"]
    if theirs.get("digest") != digest:
        raise EnviroBenchError(
            f"the {label} was scored on {theirs.get('id')} v{theirs.get('version')} ({theirs.get('digest')}), "
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
    from .stores.transfer import archive_run

    profile = located.profile
    check_dataset_home(located, registry)
    dataset = ds.load(dataset_ref(located, registry), registry)
    digest = dataset.identity.digest
    run = read_completed_run(run_dir)
    _check_run(run, run_dir, located, digest, "run")
    adapter = run["adapter"]["requested"]
    if adapter not in profile.adapters:
        raise EnviroBenchError(
            f"run {run['run_id']!r} was made with adapter {adapter!r}, which the profile does not list "
            f"(adapters: {', '.join(sorted(profile.adapters))}); add it under $.adapters first",
            file=located.path,
            field="$.adapters",
        )
    seen = {run["run_id"]: run_dir}
    for control_dir in controls:
        control = read_completed_run(control_dir)
        _check_run(control, control_dir, located, digest, "control")
        if control["adapter"]["requested"] != adapter:
            raise EnviroBenchError(
                f"control {control['run_id']!r} was made with adapter {control['adapter']['requested']!r}, the baseline with {adapter!r}; "
                "a control is a rerun of the baseline's system",
                file=control_dir / "run.json",
                field="$.adapter.requested",
            )
        if control["run_id"] in seen:
            raise EnviroBenchError(f"run {control['run_id']!r} is given twice ({seen[control['run_id']]} and {control_dir})")
        seen[control["run_id"]] = control_dir
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
