"""Rescoring is one step (envirobench.outputs, docs/architecture.md "One run"): a rescore killed
at any moment leaves either the run's old consistent set of outputs or the new one, and the next
rescore cleans up after it and reproduces the same bytes."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from envirobench import outputs, plugins, runs
from envirobench.runs import rescore_run

ADAPTERS = Path(__file__).parent / "adapters"
SCORED = ("metrics.json", "comparison.json", "review-brief.json", "summary.md", "report.html")


class Crash(BaseException):
    """A kill, as far as the code being killed can tell."""


def boom(*args, **kwargs):
    raise Crash


def snapshot(run_dir: Path) -> dict[str, bytes]:
    """Every file of the run directory (relative path -> bytes)."""
    return {str(p.relative_to(run_dir)): p.read_bytes() for p in sorted(run_dir.rglob("*")) if p.is_file()}


def outputs_of(run_dir: Path) -> dict[str, bytes]:
    return {name: (run_dir / name).read_bytes() for name in SCORED}


def gate_of(run_dir: Path) -> tuple:
    record = json.loads((run_dir / "run.json").read_text())
    return record["gate"]["status"], record["pairing"]["baseline"] is not None


def assert_consistent(run_dir: Path) -> None:
    """run.json, metrics.json, review-brief.json and comparison.json describe the same scoring."""
    record = json.loads((run_dir / "run.json").read_text())
    metrics = json.loads((run_dir / "metrics.json").read_text())
    brief = json.loads((run_dir / "review-brief.json").read_text())
    comparison = json.loads((run_dir / "comparison.json").read_text())
    gate = record["gate"]
    assert metrics["gate"] == {"status": gate["status"], "profiles": gate["profiles"], "targets": gate["targets"]}
    assert brief["gate"] == gate["status"]
    labels = ["candidate"] + (["baseline"] if record["pairing"]["baseline"] else [])
    assert metrics["runs"] == labels and [r["label"] for r in comparison["runs"]] == labels
    assert f"Verdict: gate {gate['status']}".lower() in (run_dir / "summary.md").read_text().lower()


def leftovers(results: Path) -> list[str]:
    return sorted(p.name for p in results.iterdir() if p.name.startswith("."))


@pytest.fixture
def paired(make_run, results, toy_registry, tmp_path):
    """A candidate paired with a baseline, and the outputs rescoring it without the baseline gives
    (made in place, then the run is put back as it was)."""
    make_run("base", off="c000001:1")
    run_dir = make_run("cand", off="c000002:1", baseline=results / "base").run_dir
    # Not core's (and not valid: the report names it, by its path): carried over as it is.
    (run_dir / "interpretation.json").write_text('{"kept": "as it is"}\n')
    backup = tmp_path / "backup"
    shutil.copytree(run_dir, backup)
    rescore_run(run_dir, toy_registry, baseline=None)
    new = outputs_of(run_dir)
    shutil.rmtree(run_dir)
    shutil.copytree(backup, run_dir)
    return run_dir, new


def crash_after_exchange(mp):
    real = outputs.exchange_paths

    def exchange_then_die(a, b):
        assert real(a, b)
        raise Crash

    mp.setattr(outputs, "exchange_paths", exchange_then_die)


def crash_removing_the_old_set(mp):
    real = outputs._remove_run_copy

    def remove(path):
        os.unlink(path / "run.json")
        raise Crash  # killed after run.json, in the middle of removing the rest

    mp.setattr(outputs, "_remove_run_copy", lambda path: remove(path) if (path / "run.json").exists() else real(path))


POINTS = {
    "copying the run": lambda mp: mp.setattr(outputs, "_link_entry", boom),
    "writing comparison.json": lambda mp: mp.setattr(runs, "write_comparison", boom),
    "writing the report": lambda mp: mp.setattr(runs, "write_report", boom),
    "writing run.json": lambda mp: mp.setattr(runs, "write_run", boom),
    "before the swap": lambda mp: mp.setattr(runs, "swap_into_place", boom),
    "right after the swap": crash_after_exchange,
    "removing the old set": crash_removing_the_old_set,
}


@pytest.mark.parametrize("point", list(POINTS))
def test_a_rescore_killed_anywhere_leaves_one_consistent_set(paired, results, toy_registry, monkeypatch, point):
    run_dir, new = paired
    before = snapshot(run_dir)
    with monkeypatch.context() as mp:
        POINTS[point](mp)
        with pytest.raises(Crash):
            rescore_run(run_dir, toy_registry, baseline=None)
    assert_consistent(run_dir)
    got = outputs_of(run_dir)
    if got == outputs_of_snapshot(before):
        assert snapshot(run_dir) == before  # the old set, untouched, every file
    else:
        assert got == new and gate_of(run_dir) == ("baseline required", False)
    assert json.loads((run_dir / "interpretation.json").read_text()) == {"kept": "as it is"}
    # The next rescore removes what the killed one left and gives the same bytes as an uninterrupted one.
    rescore_run(run_dir, toy_registry, baseline=None)
    assert outputs_of(run_dir) == new and leftovers(results) == []
    again = snapshot(run_dir)
    rescore_run(run_dir, toy_registry)
    assert snapshot(run_dir) == again


def outputs_of_snapshot(files: dict[str, bytes]) -> dict[str, bytes]:
    return {name: files[name] for name in SCORED}


def test_a_leftover_of_a_killed_rescore_is_removed_by_the_next(paired, results, toy_registry, monkeypatch):
    run_dir, new = paired
    with monkeypatch.context() as mp:
        crash_after_exchange(mp)
        mp.setattr(outputs, "_remove_run_copy", lambda path: None)  # killed: nothing cleans up
        with pytest.raises(Crash):
            rescore_run(run_dir, toy_registry, baseline=None)
    assert outputs_of(run_dir) == new
    (leftover,) = leftovers(results)
    assert (results / leftover / "run.json").is_file()  # the old set, whole
    rescore_run(run_dir, toy_registry)
    assert leftovers(results) == [] and outputs_of(run_dir) == new


def test_a_rescore_in_progress_is_not_taken_for_a_leftover(paired, results, toy_registry):
    run_dir, _ = paired
    with outputs.staged_outputs(run_dir) as staged:
        assert staged.name.startswith(".cand.rescore-")
        outputs._remove_stale_rescores(run_dir)  # what another rescore does first
        assert staged.is_dir()
    assert leftovers(results) == []


def test_a_failed_rescore_changes_nothing_and_leaves_nothing(paired, results, toy_registry, tmp_path):
    run_dir, _ = paired
    before = snapshot(run_dir)
    with pytest.raises(Exception, match="not a profile"):
        rescore_run(run_dir, toy_registry, gates=["nope"])
    assert snapshot(run_dir) == before and leftovers(results) == []


def test_the_rescored_run_keeps_its_mode_and_files(paired, toy_registry):
    run_dir, _ = paired
    mode = os.stat(run_dir).st_mode
    adapter_files = {p: (run_dir / "adapter" / p).read_bytes() for p in os.listdir(run_dir / "adapter")}
    rescore_run(run_dir, toy_registry, baseline=None)
    assert os.stat(run_dir).st_mode == mode
    assert {p: (run_dir / "adapter" / p).read_bytes() for p in os.listdir(run_dir / "adapter")} == adapter_files


@pytest.mark.slow
def test_kill_9_during_rescores(paired, results, count_dataset, toy_registry, tmp_path):
    run_dir, without_baseline = paired
    rescore_run(run_dir, toy_registry)
    with_baseline = outputs_of(run_dir)
    rng = random.Random(20240601)
    env = {**os.environ, plugins.LOAD_PLUGINS_ENV: ""}
    for _ in range(6):
        proc = subprocess.Popen([sys.executable, str(ADAPTERS / "rescore_loop.py"), str(count_dataset), str(run_dir), str(results / "base")],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        assert proc.stdout.readline().strip() == "ready", proc.stderr.read()
        time.sleep(rng.uniform(0.05, 1.2))
        proc.kill()
        proc.communicate(timeout=30)
        assert_consistent(run_dir)
        assert outputs_of(run_dir) in (with_baseline, without_baseline)
    rescore_run(run_dir, toy_registry, baseline=results / "base")
    assert outputs_of(run_dir) == with_baseline and leftovers(results) == []
