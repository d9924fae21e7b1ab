"""The adapter boundary, attacked (docs/runs.md, "What happens" and "The sandbox").

Each test reproduces one way an adapter could get at the results tree, change what is published
after it is scored, outlive its run or crash core, with the hostile test adapter
(tests/core/adapters/hostile_adapter.py), and shows it handled. These run without the sandbox
(the Python API's default), where the attacks are possible at all; tests/core/test_sandbox.py
repeats the ones the sandbox changes.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from envirobench import adapters
from envirobench.adapters import ProgressReader, Workspace, remove_stale_workspaces
from envirobench.cli import main
from envirobench.errors import EnviroBenchError
from envirobench.runs import execute_run, rescore_run


def run_json(run_dir: Path) -> dict:
    return json.loads((run_dir / "run.json").read_text())


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def processes_with(token: str) -> list[int]:
    """Living processes (not zombies) whose command line holds `token`."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes()
            state = Path(f"/proc/{name}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if token.encode() in cmdline and state != b"Z":
            found.append(int(name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
    except OSError:
        return False
    return state != b"Z"


@pytest.fixture
def private_tmp(tmp_path, monkeypatch):
    """TMPDIR for this test alone: where workspaces go, so a test sees every one it leaves."""
    path = tmp_path / "tmpdir"
    path.mkdir()
    monkeypatch.setenv("TMPDIR", str(path))
    monkeypatch.setattr("tempfile.tempdir", None)
    return path


# -- the adapter sees only its workspace ---------------------------------------------------------


def test_stdout_and_stderr_are_pipes_that_name_nothing(make_spec, hostile, results, toy_registry):
    outcome = execute_run(make_spec("fds", adapter=hostile, options={"mode": "fds"}), toy_registry)
    assert outcome.status == "completed", outcome.message
    fds = json.loads((outcome.run_dir / "adapter" / "fds.json").read_text())
    assert all(target.startswith("pipe:") for target in fds.values()), fds
    assert str(results) not in json.dumps(fds)
    assert (outcome.run_dir / "adapter.log").is_file()


def test_an_adapter_dir_made_in_staging_changes_nothing_published(make_spec, hostile, results, toy_registry):
    outcome = execute_run(make_spec("pre", adapter=hostile, options={"mode": "preempt", "results": str(results)}), toy_registry)
    assert outcome.status == "failed"
    assert "not core" in outcome.message or "core did not write" in outcome.message
    run_dir = outcome.run_dir
    assert not (run_dir / "evil.txt").exists() and not (run_dir / "report-assets").exists()
    # adapter/ holds what the adapter wrote in its own output directory (right counts), copied by core.
    published = json.loads((run_dir / "adapter" / "predictions.json").read_text())
    assert all(p["count"] > 0 for p in published.values())
    record = run_json(run_dir)
    assert record["adapter_output"]["files"]["predictions.json"]["sha256"] == sha256(run_dir / "adapter" / "predictions.json")
    assert not (run_dir / "metrics.json").exists()


def test_output_replaced_by_a_link_is_not_followed(make_spec, hostile, tmp_path, toy_registry):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("not the adapter's to publish")
    outcome = execute_run(make_spec("link", adapter=hostile, options={"mode": "output-link", "target": str(outside)}), toy_registry)
    assert outcome.status == "failed" and "a link or not a directory" in outcome.message
    assert list((outcome.run_dir / "adapter").iterdir()) == []


@pytest.mark.parametrize(("mode", "kind"), [("predictions-dir", "a directory"), ("predictions-fifo", "a FIFO"), ("predictions-socket", "a socket")])
def test_predictions_that_are_not_a_file_fail_without_blocking(make_spec, hostile, toy_registry, mode, kind):
    started = time.monotonic()
    outcome = execute_run(make_spec(mode, adapter=hostile, options={"mode": mode}, timeout_s=20), toy_registry)
    assert time.monotonic() - started < 15
    assert outcome.status == "failed" and kind in outcome.message, outcome.message
    assert "predictions.json" in outcome.message


def test_stray_entries_are_skipped_and_said(make_spec, hostile, toy_registry):
    outcome = execute_run(make_spec("stray", adapter=hostile, options={"mode": "stray"}), toy_registry)
    assert outcome.status == "completed", outcome.message
    run_dir = outcome.run_dir
    record = run_json(run_dir)
    skipped = {s["path"]: s["reason"] for s in record["adapter_output"]["skipped"]}
    assert skipped == {"debug.pipe": "a FIFO (named pipe)", "debug.sock": "a socket", "link-to-request": "a symbolic link"}
    assert set(record["adapter_output"]["files"]) == {"adapter-result.json", "predictions.json", "notes/trace.txt"}
    assert (run_dir / "adapter" / "notes" / "trace.txt").read_text() == "a trace"
    assert sorted(p.name for p in (run_dir / "adapter").iterdir()) == ["adapter-result.json", "notes", "predictions.json"]
    log = (run_dir / "adapter.log").read_text()
    assert "output/debug.pipe was not copied: a FIFO" in log and "output/link-to-request was not copied: a symbolic link" in log


def test_a_fifo_for_progress_never_blocks(make_spec, hostile, toy_registry):
    seen = []
    started = time.monotonic()
    outcome = execute_run(make_spec("pfifo", adapter=hostile, options={"mode": "progress-fifo"}, timeout_s=20), toy_registry, on_progress=lambda *a: seen.append(a))
    assert time.monotonic() - started < 15
    assert outcome.status == "completed", outcome.message
    assert [stage for stage, _, _ in seen] == ["scoring", "scoring"]  # the FIFO gave no adapter progress
    assert {"path": "progress.jsonl", "reason": "a FIFO (named pipe)"} in run_json(outcome.run_dir)["adapter_output"]["skipped"]


def test_progress_reader_ignores_what_is_not_a_regular_file(tmp_path):
    fifo = tmp_path / "progress.jsonl"
    os.mkfifo(fifo)
    reader = ProgressReader(fifo)
    assert reader.poll() is False  # returns at once: opened non-blocking, then refused
    fifo.unlink()
    fifo.write_text('{"done": 1, "total": 4}\n' + "x" * 100_000)
    assert reader.poll() is True and (reader.done, reader.total) == (1, 4)


def test_output_over_the_limit_is_refused_before_it_is_read(make_spec, hostile, toy_registry):
    started = time.monotonic()
    outcome = execute_run(make_spec("huge", adapter=hostile, options={"mode": "huge", "size": str(1 << 30)}), toy_registry)
    assert time.monotonic() - started < 10  # a sparse 1 GiB file: refused by its size, never read
    assert outcome.status == "failed" and "over the limit of 512 MiB" in outcome.message and "--max-output-mb" in outcome.message
    assert not (outcome.run_dir / "adapter" / "predictions.json").exists()
    small = execute_run(make_spec("huge2", adapter=hostile, options={"mode": "huge", "size": str(2 << 20)}, max_output_mb=1), toy_registry)
    assert small.status == "failed" and "over the limit of 1 MiB" in small.message


@pytest.mark.parametrize(
    ("mode", "fragment"),
    [
        ("deep", "nested deeper than 64 levels"),
        ("deep-result", "nested deeper than 64 levels"),
        ("deep-moderate", "nested deeper than 64 levels"),
        ("surrogate-id", "cannot be encoded as UTF-8"),
        ("surrogate-name", "cannot be encoded as UTF-8"),
        ("surrogate-role", "cannot be encoded as UTF-8"),
    ],
)
def test_json_that_would_crash_core_is_a_technical_failure(use_registry, hostile, results, toy_registry, mode, fragment):
    use_registry(toy_registry)
    args = ["run", "--adapter", str(hostile), "--run", mode, "--model", "m", "--benchmark", "count-words",
            "--dataset", "count-words=test/count-words-v1", "--budget", "0", "--adapter-option", f"mode={mode}",
            "--results", str(results), "--sandbox", "none"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and fragment in result.output
    assert "warning: --sandbox none" in result.output
    record = run_json(results / mode)
    assert record["status"] == "failed" and fragment in record["failure"]["message"]
    assert "\n" not in record["failure"]["message"]


# -- the bytes scored are the bytes published -----------------------------------------------------


def test_each_output_file_is_recorded_and_checked_when_used(make_run, make_spec, hostile, results, toy_registry):
    make_run("base", off="c000001:1")
    record = run_json(results / "base")
    files = record["adapter_output"]["files"]
    for name, entry in files.items():
        assert entry == {"size": (results / "base" / "adapter" / name).stat().st_size, "sha256": sha256(results / "base" / "adapter" / name)}
    # An adapter (without the sandbox) overwrites the finished run's saved predictions...
    target = results / "base" / "adapter" / "predictions.json"
    outcome = execute_run(make_spec("vandal", adapter=hostile, options={"mode": "overwrite", "target": str(target)}), toy_registry)
    assert outcome.status == "completed"
    # ... so the run is refused as a baseline, and for rescoring: its saved output changed.
    with pytest.raises(EnviroBenchError, match="does not match the SHA-256 recorded in run.json"):
        execute_run(make_spec("cand", baseline=results / "base"), toy_registry)
    with pytest.raises(EnviroBenchError, match="changed since; refusing"):
        rescore_run(results / "base", toy_registry)


def test_any_changed_saved_file_refuses_the_run(make_run, results, toy_registry):
    make_run("base")
    with (results / "base" / "adapter" / "progress.jsonl").open("a") as fh:
        fh.write('{"done": 0, "total": 1}\n')
    with pytest.raises(EnviroBenchError, match=r"progress.jsonl: does not match the size and SHA-256"):
        rescore_run(results / "base", toy_registry)


def test_a_saved_predictions_link_is_refused(make_run, results, toy_registry, tmp_path):
    make_run("base")
    real = results / "base" / "adapter" / "predictions.json"
    moved = tmp_path / "elsewhere.json"
    real.rename(moved)
    real.symlink_to(moved)
    with pytest.raises(EnviroBenchError, match="symbolic link"):
        rescore_run(results / "base", toy_registry)


# -- process lifetime ----------------------------------------------------------------------------


@pytest.mark.slow
def test_a_detached_child_dies_with_the_adapter(make_spec, hostile, results, tmp_path, toy_registry):
    pids = tmp_path / "pids"
    published = results / "det" / "adapter" / "predictions.json"
    options = {"mode": "detach", "delay": "1.5", "target": str(published), "pids": str(pids)}
    outcome = execute_run(make_spec("det", adapter=hostile, options=options), toy_registry)
    assert outcome.status == "completed", outcome.message
    before = published.read_bytes()
    time.sleep(2.5)  # past the child's delay: it would have rewritten the published predictions
    assert published.read_bytes() == before
    assert run_json(results / "det")["adapter_output"]["files"]["predictions.json"]["sha256"] == sha256(published)
    recorded = [int(p) for p in pids.read_text().split()]
    assert len(recorded) == 2 and not any(alive(p) for p in recorded)


def test_a_detached_child_dies_on_timeout(make_spec, hostile, tmp_path, toy_registry):
    pids = tmp_path / "pids"
    started = time.monotonic()
    outcome = execute_run(make_spec("slow", adapter=hostile, options={"mode": "detach", "sleep": "30", "pids": str(pids)}, timeout_s=1), toy_registry)
    assert time.monotonic() - started < 1 + 5  # the timeout plus a small grace
    assert outcome.status == "failed" and "timeout of 1 s" in outcome.message
    recorded = [int(p) for p in pids.read_text().split()]
    assert len(recorded) == 2 and not any(alive(p) for p in recorded)


def test_workspaces_are_removed_on_every_path(make_spec, hostile, private_tmp, toy_registry):
    execute_run(make_spec("ok", adapter=hostile), toy_registry)
    execute_run(make_spec("bad", options={"mode": "crash"}), toy_registry)
    execute_run(make_spec("late", adapter=hostile, options={"mode": "sleep", "sleep": "30"}, timeout_s=0.5), toy_registry)
    assert list(private_tmp.iterdir()) == []


def test_a_workspace_left_by_a_killed_run_is_removed_by_the_next(private_tmp):
    stale = private_tmp / "envirobench-adapter-stale"
    (stale / "work").mkdir(parents=True)
    os.utime(stale, (time.time() - 3600, time.time() - 3600))
    held = Workspace.create()  # a living run's: locked, kept
    os.utime(held.root, (time.time() - 3600, time.time() - 3600))
    remove_stale_workspaces()
    assert not stale.exists() and held.root.exists()
    held.remove()


def wait_for(predicate, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def start_detached_run(toy_cli, hostile, results, tmp_path, run_id):
    """`envirobench run` of the hostile adapter in detach mode (it leaves a child in a session of
    its own, both sleeping 30 s), started in its own process and returned once both have written
    their PIDs: (the process, the file of the two PIDs, the TMPDIR the workspace is made in)."""
    tmpdir = tmp_path / "tmpdir"
    tmpdir.mkdir()
    pids = tmp_path / "pids"
    proc = toy_cli("run", "--adapter", str(hostile), "--run", run_id, "--model", "m", "--benchmark", "count-words",
                   "--dataset", "count-words=test/count-words-v1", "--budget", "0", "--results", str(results), "--sandbox", "none",
                   "--adapter-option", "mode=detach", "--adapter-option", "sleep=30", "--adapter-option", f"pids={pids}",
                   env={"TMPDIR": str(tmpdir)})
    assert wait_for(lambda: pids.exists() and len(pids.read_text().split()) == 2)
    return proc, pids, tmpdir


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signal_stops_the_adapter_and_marks_the_run_failed(toy_cli, hostile, results, tmp_path, signum):
    proc, pids, tmpdir = start_detached_run(toy_cli, hostile, results, tmp_path, "sig")
    proc.send_signal(signum)
    _, stderr = proc.communicate(timeout=20)
    name = signal.Signals(signum).name
    assert proc.returncode == 128 + signum, stderr
    assert f"run interrupted by {name}" in stderr and "Traceback" not in stderr
    (staging,) = results.iterdir()
    assert staging.name.startswith(".sig.incomplete-")
    record = run_json(staging)
    assert record["status"] == "failed" and record["failure"]["message"] == f"interrupted by {name}"
    assert not any(alive(int(p)) for p in pids.read_text().split())
    assert list(tmpdir.iterdir()) == []


@pytest.mark.slow
def test_sigkill_of_envirobench_still_ends_the_adapter(toy_cli, hostile, results, tmp_path):
    proc, pids, tmpdir = start_detached_run(toy_cli, hostile, results, tmp_path, "k")
    proc.kill()
    proc.communicate(timeout=10)
    recorded = [int(p) for p in pids.read_text().split()]
    # The supervisor (its parent-death signal) kills the adapter's tree and removes the workspace.
    assert wait_for(lambda: not any(alive(p) for p in recorded), timeout=10)
    # Removing the workspace follows the kill; on two cores at a load near 10 it took longer than 10 s
    # once. Nothing else removes it, so a longer wait still fails when the supervisor does not.
    assert wait_for(lambda: list(tmpdir.iterdir()) == [], timeout=60)


@pytest.mark.parametrize(
    ("options", "fragment"),
    [({"files": "60"}, "more than 50 files and directories; nothing was copied"),
     ({"depth": "40"}, "nests directories deeper than 32 levels (nest" + "/d" * 32 + "); nothing was copied")],
)
def test_output_over_the_entry_or_depth_limit_is_refused_before_anything_is_copied(make_spec, hostile, toy_registry, monkeypatch, options, fragment):
    # The limit is 100,000 entries; lowered here so the test writes 60 files, not 100,050.
    monkeypatch.setattr(adapters, "MAX_OUTPUT_ENTRIES", 50)
    copied = []
    real_file = adapters._Copier.file
    monkeypatch.setattr(adapters._Copier, "file", lambda self, *a: (copied.append(a[-1]), real_file(self, *a)))
    outcome = execute_run(make_spec("sprawl", adapter=hostile, options={"mode": "sprawl", **options}), toy_registry)
    assert outcome.status == "failed"
    assert copied == []  # not one file opened for copying
    assert list((outcome.run_dir / "adapter").iterdir()) == []
    assert run_json(outcome.run_dir)["adapter_output"] == {"files": {}, "skipped": []}
    assert fragment in outcome.message, outcome.message
    assert sorted(p.name for p in outcome.run_dir.parent.iterdir()) == ["sprawl"]  # no staging directory left


def test_output_at_the_entry_limit_is_copied_whole(make_spec, hostile, toy_registry, monkeypatch):
    # adapter-result.json, predictions.json, sprawl/ and 47 files in it: 50 entries.
    monkeypatch.setattr(adapters, "MAX_OUTPUT_ENTRIES", 50)
    outcome = execute_run(make_spec("sprawl", adapter=hostile, options={"mode": "sprawl", "files": "47"}), toy_registry)
    assert outcome.status == "completed", outcome.message
    assert len(run_json(outcome.run_dir)["adapter_output"]["files"]) == 49
