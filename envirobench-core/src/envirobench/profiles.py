"""Saved profiles: `benchmarks/NAME/bench.json` says how a plugin runs a benchmark.

This module is the profile format (`BenchProfile`, read and written through the strict
converter), the project's overlay of an installed profile (`ProfileOverlay`), and where profiles
are found: in a plugin checkout (`--plugin PATH`), or beside an installed plugin's module. What
is done with a profile (planning the run, promoting and restoring baselines) is in
`envirobench.promotion`; docs/profiles.md is the user's guide.

A profile an installed package ships is read-only: a reinstall would lose anything written into
it. Its promotions live in the project (`envirobench.state`), in an overlay file
`.envirobench/profiles/<plugin>/<NAME>.json` holding each adapter's promoted baseline and controls
and the store `--store` named; `locate` applies the overlay over the shipped bench.json. A profile
found with `--plugin PATH` is a checkout the user owns, and is promoted into its own bench.json.
Either way, relative paths in a profile (`results`, a `file:` store) resolve against the project
root, never against the current directory (docs/profiles.md, The project).
"""

from __future__ import annotations

import difflib
import importlib.util
import math
import os
import re
import shutil
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path
from typing import Literal

import attrs

from .converter import structure, unstructure
from .errors import EnviroBenchError
from .jsonio import dumps, read_json, write_json
from .plugins import allowed_distributions, distribution_of, installed_entry_points, is_allowed
from .rundir import RUN_ID
from .state import Project, find_project, overlay_path

BENCH_FORMAT = "envirobench.bench.v1"
OVERLAY_FORMAT = "envirobench.bench-overlay.v1"
BENCH_FILE = "bench.json"
BENCHMARKS_DIR = "benchmarks"
_SHA256_HEX = frozenset("0123456789abcdef")
# The distributions of the adapters EnviroBench's own profiles use, for a profile that does not
# name its adapter's distribution ($.adapters[A].distribution).
ADAPTER_DISTRIBUTIONS = {"reference": "envirobench-reference-adapter"}
_DISTRIBUTION_NAME = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$")  # PEP 508's name


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
    # The distribution that registers the adapter (`pip install` it when the adapter is missing);
    # None: core's table of known adapters (ADAPTER_DISTRIBUTIONS), if it names one.
    distribution: str | None = None


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
class PromotedRuns:
    """One adapter's promoted baseline and controls, in a project's overlay."""

    baseline: PromotedRun
    controls: tuple[PromotedRun, ...] = ()


@attrs.frozen
class ProfileOverlay:
    """`.envirobench/profiles/<plugin>/<NAME>.json`: a project's promotions over the profile an
    installed plugin ships. Each adapter listed replaces that adapter's baseline and controls;
    `store`, when set, replaces the profile's store (a relative `file:` path is relative to the
    project root)."""

    format: Literal["envirobench.bench-overlay.v1"]
    plugin: str
    profile: str
    adapters: dict[str, PromotedRuns] = attrs.field(factory=dict)
    store: str | None = None


@attrs.frozen
class Located:
    """A profile, where it was found, and where its promotions go."""

    name: str
    path: Path  # the bench.json
    plugin: str  # what to pass as --plugin to find it again
    profile: BenchProfile  # the overlay applied, when there is one
    project: Project
    # An installed plugin's profile: the project's overlay file (which may not exist yet) and
    # what it held when the profile was located. None for a checkout (--plugin PATH), which is
    # promoted into its own bench.json.
    overlay: Path | None = None
    promotions: ProfileOverlay | None = None

    @property
    def promoted_into(self) -> Path:
        """The file a promotion writes."""
        return self.overlay if self.overlay is not None else self.path

    @property
    def store_origin(self) -> str:
        """Where the profile's store is named, for messages."""
        if self.promotions is not None and self.promotions.store is not None:
            return f"{self.overlay} $.store"
        return f"{self.path} $.store"


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
    if not (math.isfinite(profile.budget_usd) and profile.budget_usd >= 0):  # JSON's 1e400 reads as infinity
        refuse(f"the budget must be a finite number of US dollars, 0 or more, not {profile.budget_usd!r}", "$.budget_usd")
    if not profile.results.strip():
        refuse("the results directory must not be empty", "$.results")
    if not profile.store.strip():
        refuse("the store must not be empty", "$.store")
    for name, entry in profile.adapters.items():
        field = f"$.adapters[{name!r}]"
        if not entry.model.strip():
            refuse("the model must not be empty", field + ".model")
        if entry.distribution is not None and not _DISTRIBUTION_NAME.match(entry.distribution):
            refuse(f"{entry.distribution!r} is not a distribution name (what `pip install` takes, e.g. envirobench-reference-adapter)", field + ".distribution")
        if entry.controls and entry.baseline is None:
            refuse("controls without a baseline: promote a baseline with them", field + ".controls")
        _check_promoted(entry.baseline, entry.controls, path, field, need_sha=False)


def _check_promoted(baseline: PromotedRun | None, controls: tuple[PromotedRun, ...], path: Path, field: str, *, need_sha: bool) -> None:
    seen: set[str] = set()
    promoted = [("baseline", baseline)] + [(f"controls[{i}]", c) for i, c in enumerate(controls)]
    for label, run in promoted:
        if run is None:
            continue
        where = f"{field}.{label}"
        if not RUN_ID.match(run.run_id):
            raise EnviroBenchError(f"{run.run_id!r} is not a run ID", file=path, field=where + ".run_id")
        if run.run_id in seen:
            raise EnviroBenchError(f"run {run.run_id!r} is promoted twice for this adapter", file=path, field=where + ".run_id")
        seen.add(run.run_id)
        if run.sha256 is None and need_sha:
            raise EnviroBenchError("a promoted run records the SHA-256 of its archive listing", file=path, field=where + ".sha256")
        if run.sha256 is not None and (len(run.sha256) != 64 or not set(run.sha256) <= _SHA256_HEX):
            raise EnviroBenchError("expected a SHA-256 as 64 lowercase hex digits", file=path, field=where + ".sha256")


def save_profile(path: Path, profile: BenchProfile) -> None:
    """Atomically (a temporary file, then rename): a reader never sees half a profile."""
    check_profile(profile, path)
    write_json(path, unstructure(profile))


def profile_json(profile: BenchProfile) -> str:
    return dumps(unstructure(profile))


# -- the project's overlay of an installed profile ----------------------------------------------


def load_overlay(path: Path, shipped: BenchProfile, *, plugin: str, name: str, bench: Path) -> ProfileOverlay:
    overlay = structure(read_json(path), ProfileOverlay, file=str(path))
    check_overlay(overlay, path, shipped, plugin=plugin, name=name, bench=bench)
    return overlay


def check_overlay(overlay: ProfileOverlay, path: Path, shipped: BenchProfile, *, plugin: str, name: str, bench: Path) -> None:
    """An overlay belongs where it is, and promotes only adapters the shipped profile has."""
    if overlay.plugin != plugin:
        raise EnviroBenchError(f"the overlay is for plugin {overlay.plugin!r}, but it is kept for plugin {plugin!r}", file=path, field="$.plugin")
    if overlay.profile != name:
        raise EnviroBenchError(f"the overlay is for profile {overlay.profile!r}, but it is kept for profile {name!r}", file=path, field="$.profile")
    if overlay.store is not None and not overlay.store.strip():
        raise EnviroBenchError("the store must not be empty (null keeps the profile's)", file=path, field="$.store")
    for adapter, runs in overlay.adapters.items():
        field = f"$.adapters[{adapter!r}]"
        if adapter not in shipped.adapters:
            raise EnviroBenchError(
                f"adapter {adapter!r} is not in the installed profile {bench} (adapters: {', '.join(sorted(shipped.adapters))}); "
                "remove its promotions from this file, or install the plugin version that has it",
                file=path,
                field=field,
            )
        _check_promoted(runs.baseline, runs.controls, path, field, need_sha=True)


def apply_overlay(shipped: BenchProfile, overlay: ProfileOverlay | None) -> BenchProfile:
    if overlay is None:
        return shipped
    adapters = dict(shipped.adapters)
    for adapter, runs in overlay.adapters.items():
        adapters[adapter] = attrs.evolve(adapters[adapter], baseline=runs.baseline, controls=runs.controls)
    return attrs.evolve(shipped, adapters=adapters, store=overlay.store if overlay.store is not None else shipped.store)


def save_overlay(located: Located, overlay: ProfileOverlay) -> None:
    """Atomically, like bench.json; the directories are made when missing."""
    assert located.overlay is not None
    shipped = load_profile(located.path)
    check_overlay(overlay, located.overlay, shipped, plugin=overlay.plugin, name=located.name, bench=located.path)
    located.overlay.parent.mkdir(parents=True, exist_ok=True)
    write_json(located.overlay, unstructure(overlay))


# -- finding a profile --------------------------------------------------------------------------


def _check_name(name: str) -> None:
    if not name or name in (".", "..") or "/" in name or "\\" in name:
        raise EnviroBenchError(f"{name!r} is not a benchmark profile name (the NAME of benchmarks/NAME/bench.json)")


def _plugin_dirs(ep: metadata.EntryPoint) -> list[Path]:
    """The package directories of an entry point's module: where benchmarks/ sits beside it (package.py)."""
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


def _in_directory(root: Path, name: str) -> list[Path]:
    candidates = [root / BENCHMARKS_DIR / name / BENCH_FILE]
    candidates += sorted(root.glob(f"src/*/{BENCHMARKS_DIR}/{name}/{BENCH_FILE}"))
    candidates += sorted(root.glob(f"*/{BENCHMARKS_DIR}/{name}/{BENCH_FILE}"))
    return list(dict.fromkeys(p for p in candidates if p.is_file()))


def _did_you_mean(name: str, known: list[str]) -> str:
    matches = difflib.get_close_matches(name, sorted(set(known)), n=3, cutoff=0.6)
    return f" (did you mean {' or '.join(repr(m) for m in matches)}?)" if matches else ""


def _describe(ep: metadata.EntryPoint) -> str:
    return f"{ep.name} ({distribution_of(ep)})"


def locate(name: str, plugin: str | None = None, *, project: Project | None = None) -> Located:
    """Find benchmarks/NAME/bench.json in a plugin directory, a named installed plugin, or (no
    --plugin) the one loaded plugin that has it; an installed plugin's profile comes with the
    project's overlay applied."""
    _check_name(name)
    project = project or find_project()
    if plugin is not None and (Path(plugin).is_dir() or os.sep in plugin or plugin.startswith(".")):
        root = Path(plugin)
        if not root.is_dir():
            raise EnviroBenchError(f"--plugin {plugin!r} is not a directory")
        found = _in_directory(root, name)
        if not found:
            hint = _did_you_mean(name, [p.parent.name for p in _in_directory(root, "*")])
            raise EnviroBenchError(
                f"no {BENCHMARKS_DIR}/{name}/{BENCH_FILE} in {root}{hint} (looked in {BENCHMARKS_DIR}/, src/*/{BENCHMARKS_DIR}/ and */{BENCHMARKS_DIR}/)"
            )
        if len(found) > 1:
            raise EnviroBenchError(f"several profiles named {name!r} in {root}: {', '.join(map(str, found))}; pass the package directory itself")
        path = found[0]
        return Located(name, path, plugin, load_profile(path), project)
    if plugin is None:
        allowed = allowed_distributions()
        entry_points = [ep for ep in installed_entry_points() if is_allowed(ep, allowed)]
    else:  # a plugin asked for by name is looked at even when ENVIROBENCH_LOAD_PLUGINS leaves it out
        wanted = {plugin.strip().lower().replace("_", "-")}
        entry_points = [ep for ep in installed_entry_points() if is_allowed(ep, wanted)]
        if not entry_points:
            installed = ", ".join(sorted({_describe(ep) for ep in installed_entry_points()})) or "none"
            raise EnviroBenchError(f"--plugin {plugin!r} is neither a directory nor an installed plugin (installed: {installed})")
    matches: list[tuple[str, Path]] = []
    for ep in entry_points:
        for directory in _plugin_dirs(ep):
            path = directory / BENCHMARKS_DIR / name / BENCH_FILE
            if path.is_file():
                matches.append((ep.name, path))
    matches = list(dict.fromkeys(matches))
    if not matches:
        known = sorted({found.parent.name for ep in entry_points for d in _plugin_dirs(ep) for found in (d / BENCHMARKS_DIR).glob(f"*/{BENCH_FILE}")})
        where = f"plugin {plugin!r}" if plugin else "the installed plugins"
        listed = f"; profiles of {where}: {', '.join(known)}" if known else f"; no profile in {where}"
        raise EnviroBenchError(f"no saved profile {name!r}{_did_you_mean(name, known)}{listed} (pass --plugin PATH for a checkout)")
    if len(matches) > 1:
        raise EnviroBenchError(f"several plugins have a profile {name!r} ({', '.join(p for p, _ in matches)}); choose one with --plugin")
    plugin_name, path = matches[0]
    return locate_installed(plugin_name, path, project, given=plugin)


def locate_installed(plugin: str, path: Path, project: Project, *, given: str | None = None) -> Located:
    """The profile at `path` of installed plugin `plugin` (its entry-point name), with the
    project's overlay applied when there is one."""
    name = path.parent.name
    if not plugin or plugin in (".", "..") or "/" in plugin or "\\" in plugin:
        raise EnviroBenchError(f"plugin name {plugin!r} cannot name a directory of the project state", file=path)
    shipped = load_profile(path)
    overlay = overlay_path(project, plugin, name)
    promotions = None
    if overlay.exists() or overlay.is_symlink():
        promotions = load_overlay(overlay, shipped, plugin=plugin, name=name, bench=path)
    return Located(name, path, given or plugin, apply_overlay(shipped, promotions), project, overlay, promotions)


def installed_profiles() -> list[tuple[str, Path]]:
    """(plugin, bench.json) for every profile of the loaded plugins."""
    allowed = allowed_distributions()
    out = []
    for ep in installed_entry_points():
        if not is_allowed(ep, allowed):
            continue
        for directory in _plugin_dirs(ep):
            for path in sorted((directory / BENCHMARKS_DIR).glob(f"*/{BENCH_FILE}")):
                out.append((ep.name, path))
    return list(dict.fromkeys(out))


def missing_adapter(located: Located, adapter: str, registered: Iterable[str]) -> str | None:
    """One line saying how to get the profile's adapter when no plugin registers it, no executable
    of that name is on PATH, and its distribution is known (the profile's `distribution`, else ADAPTER_DISTRIBUTIONS); None when it
    is registered, or when nothing is known of where it comes from (core's message then says
    what is registered)."""
    if adapter in registered or os.sep in adapter or shutil.which(adapter):
        return None  # registered, or an executable core resolves by its path or on PATH, as `run` does
    entry = located.profile.adapters.get(adapter)
    distribution = (entry.distribution if entry else None) or ADAPTER_DISTRIBUTIONS.get(adapter)
    if distribution is None:
        return None
    try:
        metadata.distribution(distribution)
    except metadata.PackageNotFoundError:
        return f"profile {located.name} uses adapter {adapter!r} from {distribution}, which is not installed: pip install {distribution}"
    return (f"profile {located.name} uses adapter {adapter!r} from {distribution}, which is installed but registers no adapter {adapter!r}: "
            "is it left out by ENVIROBENCH_LOAD_PLUGINS, or did it fail to load (envirobench plugins list)?")
