"""`envirobench runs list` and `runs clean`: the run directories of results folders, newest first,
and the incomplete runs that interrupted attempts left.

Added to the main `envirobench` group by cli/main.py. Each run is read through `envirobench.rundir`
(run.json, and the headline of metrics.json without its per-case part); a run directory that does
not read is listed with its error, never a traceback. Hidden directories are not runs: they are
runs being made (`.x.incomplete-*`) or rescored (`.x.rescore-*`); a run directory is not searched
further (its adapter/ folder is the adapter's). An incomplete run (`.x.incomplete-*` that no living
run holds: one interrupted, or left by a crash) is listed as such, with the cases its adapter
finished, since `run --resume` continues it; `runs clean` removes them.
"""

from __future__ import annotations

import datetime as _dt
import os
import shutil
from pathlib import Path
from typing import Any

import click

from .. import rundir
from ..converter import unstructure
from ..errors import EnviroBenchError
from ..protocol import CASES_FILE
from ..salvage import incomplete_dirs
from .common import CONTEXT_SETTINGS, echo_json, json_option, user_errors

DEFAULT_DIR = Path("results")
COLUMNS = ("ID", "CREATED", "STATUS", "BENCHMARK", "DATASET", "SYSTEM", "HEADLINE", "GATE", "COST")


@click.group("runs", context_settings=CONTEXT_SETTINGS)
def runs_group() -> None:
    """The runs in results directories."""


@runs_group.command("list", context_settings=CONTEXT_SETTINGS)
@click.argument("dirs", nargs=-1, metavar="[DIR]...", type=click.Path(path_type=Path))
@json_option
@user_errors
def runs_list(dirs: tuple[Path, ...], as_json: bool) -> None:
    """One line per run directory in DIR (default: ./results, searched to any depth), newest
    first: ID, when it was made, status (completed, failed or running; a partial run, a shard
    and a merged run are marked; `--json` also gives a repeat's group),
    benchmark, dataset, system (adapter · model), the primary headline of the default profile
    (from metrics.json), gate and cost. A run directory that does not read is listed with its
    error."""
    found: dict[Path, tuple[Path, str | None]] = {}
    for root in dirs or (DEFAULT_DIR,):
        for path, error in find_runs(root):
            found.setdefault(path.resolve(), (path, error))  # a run named twice is listed once
    entries = sorted((describe_run(path) if error is None else _entry(path, error) for path, error in found.values()), key=_age)
    if as_json:
        echo_json({"runs": entries})
        return
    if not entries:
        click.echo(f"no run directories in {', '.join(str(d) for d in dirs or (DEFAULT_DIR,))}", err=True)
        return
    for line in render_table(entries):
        click.echo(line)


def find_runs(root: Path, *, include_incomplete: bool = True) -> list[tuple[Path, str | None]]:
    """The run directories under `root` (or `root` itself), with the directories that could not
    be searched and why, and (`include_incomplete`) the incomplete runs beside them. Links to
    directories are not followed."""
    if not root.is_dir():
        raise EnviroBenchError("no such directory" if not root.exists() else "not a directory", file=root)
    if rundir.is_run_dir(root):
        return [(root, None)]
    found: list[tuple[Path, str | None]] = []

    def unreadable(exc: OSError) -> None:
        found.append((Path(exc.filename or root), f"cannot be searched for runs: {exc.strerror}"))

    for dirpath, dirnames, filenames in os.walk(root, onerror=unreadable):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        if rundir.RUN_FILE in filenames:
            found.append((Path(dirpath), None))
            dirnames[:] = []
        elif include_incomplete:
            found.extend((path, None) for path in incomplete_dirs(Path(dirpath)))
    return found


def find_incomplete(root: Path) -> list[Path]:
    """The incomplete runs under `root`: hidden `.RUN_ID.incomplete-*` directories no living run
    holds, beside the runs (never inside a run directory)."""
    return [path for path, error in find_runs(root) if error is None and is_incomplete(path)]


def is_incomplete(path: Path) -> bool:
    return path.name.startswith(".") and ".incomplete-" in path.name


def finished_cases(path: Path, run: rundir.RunRecord) -> int | None:
    """How many cases an unfinished run's adapter finished: the complete lines of its cases.jsonl
    (as core copied it; not checked here, `run --resume` checks each) and the cases it had itself
    salvaged from an earlier attempt; None when its adapter wrote no cases.jsonl (it keeps none)."""
    count = run.resumed.salvaged if run.resumed else 0
    entry = run.adapter_output.files.get(CASES_FILE) if run.adapter_output else None
    if entry is None and run.resumed is None:
        return None
    if entry is not None:
        try:
            with open(path / rundir.ADAPTER_DIR / CASES_FILE, "rb") as fh:
                count += sum(chunk.count(b"\n") for chunk in iter(lambda: fh.read(1 << 20), b""))
        except OSError:
            pass
    return count


def describe_run(path: Path) -> dict[str, Any]:
    """One run as `runs list --json` gives it; `error` says what did not read."""
    entry = _entry(path, None)
    try:
        run = rundir.read_run(path)
    except (EnviroBenchError, OSError) as exc:
        entry["error"] = _message(exc)
        return entry
    entry.update(
        run_id=run.run_id,
        created_at=run.created_at,
        status=run.status,
        failure=run.failure.message if run.failure else None,
        partial=unstructure(run.partial) if run.partial else None,
        shard={"index": run.shard.index, "count": run.shard.count} if run.shard else None,
        group=run.group,
        merged_from=list(run.merged_from) or None,
        benchmark=run.benchmark.id,
        dataset={"id": run.dataset.id, "version": run.dataset.version},
        system={"adapter": run.adapter.name or run.adapter.requested, "model": run.model},
        gate=run.gate.status if run.gate else None,
        cost_usd=run.cost_usd,
        incomplete=is_incomplete(path),
        finished_cases=None if run.status == "completed" else finished_cases(path, run),
        resumed={"from_run": run.resumed.from_run, "salvaged": run.resumed.salvaged} if run.resumed else None,
    )
    if run.status == "completed":
        try:
            metrics = rundir.read_metrics(path, cases=False)
            profile, measure = metrics.benchmark.profiles[0], metrics.benchmark.headline[0]
            headline = metrics.profiles[profile].headline
            entry["headline"] = {"profile": profile, "measure": measure, "value": None if headline is None else headline.get(measure)}
        except (EnviroBenchError, OSError) as exc:
            entry["error"] = _message(exc)
        except (IndexError, KeyError):
            entry["error"] = f"{path / rundir.METRICS_FILE}: names no headline of its default profile"
    return entry


def _entry(path: Path, error: str | None) -> dict[str, Any]:
    keys = ("run_id", "created_at", "status", "failure", "partial", "shard", "group", "merged_from", "benchmark", "dataset", "system", "headline", "gate", "cost_usd",
            "incomplete", "finished_cases", "resumed")
    return {"path": str(path), **dict.fromkeys(keys), "error": error}


def _message(exc: Exception) -> str:
    if isinstance(exc, OSError):
        return f"{exc.filename}: {exc.strerror}"
    return str(exc)


def _age(entry: dict[str, Any]) -> tuple[int, float, str]:
    """Newest first; runs whose time is unknown (unreadable) last, by path."""
    try:
        created = _dt.datetime.fromisoformat(entry["created_at"])
    except (TypeError, ValueError):
        return (1, 0.0, entry["path"])
    if created.tzinfo is None:
        created = created.replace(tzinfo=_dt.UTC)
    return (0, -created.timestamp(), entry["path"])


def _cells(entry: dict[str, Any]) -> list[str]:
    if entry["run_id"] is None:  # run.json did not read
        return [Path(entry["path"]).name, "-", "unreadable", "", "", "", "", "", ""]
    status = "incomplete" if entry["incomplete"] else entry["status"]
    if entry["finished_cases"] is not None and entry["status"] != "completed":
        status += f" ({entry['finished_cases']} cases finished)"
    elif entry["resumed"]:
        status += f" (resumed, {entry['resumed']['salvaged']} cases salvaged)"
    partial, shard = entry["partial"], entry["shard"]
    if shard:
        status += f" (shard {shard['index']}/{shard['count']}: {partial['cases']} of {partial['of']})"
    elif partial:
        status += f" (partial {partial['cases']} of {partial['of']})"
    elif entry["merged_from"]:
        status += f" (merged from {len(entry['merged_from'])} shards)"
    headline = entry["headline"]
    if headline is None:
        shown = "?" if entry["error"] else "-"
    elif headline["value"] is None:
        shown = f"{headline['measure']} unavailable"
    else:
        shown = f"{headline['measure']} {headline['value']:.4f}"
    dataset, system = entry["dataset"], entry["system"]
    cost = "-" if entry["cost_usd"] is None else f"${entry['cost_usd']:.4f}"
    adapter = system["adapter"]  # as it named itself, or as requested: a name or an executable's path
    adapter = Path(adapter).name if "/" in adapter else adapter
    return [entry["run_id"], entry["created_at"], status, entry["benchmark"], f"{dataset['id']} v{dataset['version']}",
            f"{adapter} · {system['model']}", shown, entry["gate"] or "-", cost]


def render_table(entries: list[dict[str, Any]]) -> list[str]:
    """The listing as aligned columns under a header; a failed run's reason and a run's error
    follow its line."""
    rows = [list(COLUMNS), *(_cells(e) for e in entries)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS))]
    lines = []
    for n, row in enumerate(rows):
        line = "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        entry = entries[n - 1] if n else {}
        notes = [f"{label}: {entry[key]}" for key, label in (("failure", "failed"), ("error", "error")) if entry.get(key)]
        if entry.get("incomplete"):
            notes.append(f"in {entry['path']} (continue: the same run command with --resume; remove: envirobench runs clean)")
        lines.append("  ".join([line, *notes]))
    return lines


@runs_group.command("clean", context_settings=CONTEXT_SETTINGS)
@click.argument("dirs", nargs=-1, metavar="[DIR]...", type=click.Path(path_type=Path))
@click.option("--dry-run", is_flag=True, help="Say what would be removed and remove nothing.")
@json_option
@user_errors
def runs_clean(dirs: tuple[Path, ...], dry_run: bool, as_json: bool) -> None:
    """Remove the incomplete runs in DIR (default: ./results, searched to any depth): the hidden
    .RUN_ID.incomplete-* directories that an interrupted run or a crash left, each with the cases
    its adapter finished (which `run --resume` would have kept). Each is named as it is removed.
    Never removed: a run directory (completed or failed), a run being made (its directory is
    locked), anything in a store."""
    removed = []
    for root in dirs or (DEFAULT_DIR,):
        for path in find_incomplete(root):
            entry = describe_run(path)
            removed.append(entry)
            if not as_json:
                what = f"run {entry['run_id']!r}, {entry['failure'] or entry['status']}, {entry['finished_cases']} cases finished" if entry["run_id"] else "unreadable"
                click.echo(f"{'would remove' if dry_run else 'removed'} {path} ({what})")
            if not dry_run:
                shutil.rmtree(path)
    if as_json:
        echo_json({"removed": [] if dry_run else removed, "would_remove": removed if dry_run else []})
    elif not removed:
        click.echo(f"no incomplete runs in {', '.join(str(d) for d in dirs or (DEFAULT_DIR,))}", err=True)
