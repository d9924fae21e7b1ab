"""Saved profiles: `benchmarks/NAME/bench.json` says how a plugin runs a benchmark.

This module is the profile format (`BenchProfile`, read and written through the strict
converter) and where profiles are found: in a plugin checkout, or beside an installed plugin's
module. What is done with a profile (planning the run, promoting and restoring baselines) is in
`envirobench.promotion`; docs/profiles.md is the user's guide.
"""

from __future__ import annotations

import importlib.util
import os
from importlib import metadata
from pathlib import Path
from typing import Literal

import attrs

from .converter import structure, unstructure
from .errors import EnviroBenchError
from .jsonio import dumps, read_json, write_json
from .plugins import ENTRY_POINT_GROUP, allowed_distributions
from .rundir import RUN_ID

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
            if not RUN_ID.match(run.run_id):
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
