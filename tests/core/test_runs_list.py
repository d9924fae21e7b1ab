"""`envirobench runs list`: every run directory of results folders, newest first, never a traceback."""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

from envirobench.cli import main
from envirobench.runs import execute_run


def set_created(run_dir, when):
    path = run_dir / "run.json"
    record = json.loads(path.read_text())
    record["created_at"] = when
    path.write_text(json.dumps(record))


@pytest.fixture
def listed(use_registry, toy_registry, make_run, make_spec, results):
    """A results folder with a full run, a partial run paired with it, a failed run, runs that do
    not read, and hidden directories that are not runs."""
    use_registry(toy_registry)
    set_created(make_run("full", off="c000001:1").run_dir, "2025-01-01T10:00:00+00:00")
    set_created(make_run("quick", limit=4, baseline=results / "full").run_dir, "2025-01-03T10:00:00+00:00")
    failed = execute_run(make_spec("broke", options={"mode": "crash"}), toy_registry)
    set_created(failed.run_dir, "2025-01-02T10:00:00+00:00")
    (results / "garbled").mkdir()
    (results / "garbled" / "run.json").write_text("{not json", encoding="utf-8")
    set_created(make_run("nometrics").run_dir, "2024-12-31T10:00:00+00:00")
    (results / "nometrics" / "metrics.json").unlink()
    # A rescore's scratch directory is not a run (an incomplete run is: test_resume.py).
    (results / ".full.rescore-def456").mkdir()
    (results / ".full.rescore-def456" / "run.json").write_text("{}", encoding="utf-8")
    return results


def invoke(*args):
    return CliRunner().invoke(main, ["runs", "list", *map(str, args)])


def test_one_line_per_run_newest_first(listed):
    result = invoke(listed)
    assert result.exit_code == 0, result.output
    header, *lines = result.stdout.splitlines()
    assert header.split() == ["ID", "CREATED", "STATUS", "BENCHMARK", "DATASET", "SYSTEM", "HEADLINE", "GATE", "COST"]
    assert [line.split()[0] for line in lines] == ["quick", "broke", "full", "nometrics", "garbled"]
    quick, broke, full, nometrics, garbled = lines
    assert "completed (partial 4 of 12)" in quick and "passed" in quick and "accuracy 1.0000" in quick
    assert "2025-01-03T10:00:00+00:00" in quick and "test/count-words-v1 v1" in quick and "fake-adapter · test/model" in quick
    assert "completed " in full and "partial" not in full and "accuracy 0.9167" in full and "baseline required" in full and "$0.0000" in full
    assert " failed " in broke and "failed: the adapter exited with status 7" in broke
    assert "fake_adapter-bin · test/model" in broke and "/fake_adapter-bin" not in broke  # the executable's name
    assert "unreadable" in garbled and "error:" in garbled and "not valid JSON" in garbled and "run.json" in garbled
    assert "?" in nometrics.split() and "error:" in nometrics and "no metrics.json" in nometrics
    assert "Traceback" not in result.output and "rescore" not in result.output


def test_json(listed):
    result = invoke(listed, "--json")
    assert result.exit_code == 0, result.output
    runs = {run["path"].rsplit("/", 1)[-1]: run for run in json.loads(result.stdout)["runs"]}
    assert set(runs) == {"quick", "broke", "full", "nometrics", "garbled"}
    quick = runs["quick"]
    assert quick["run_id"] == "quick" and quick["status"] == "completed" and quick["gate"] == "passed"
    assert quick["partial"] == {"cases": 4, "of": 12, "selected_by": "--limit 4"}
    assert quick["headline"] == {"profile": "exact", "measure": "accuracy", "value": 1.0}
    assert quick["dataset"] == {"id": "test/count-words-v1", "version": 1}
    assert quick["system"] == {"adapter": "fake-adapter", "model": "test/model"}
    assert quick["benchmark"] == "count-words" and quick["cost_usd"] == 0.0 and quick["error"] is None
    assert runs["full"]["partial"] is None and runs["full"]["headline"]["value"] == pytest.approx(11 / 12)
    assert runs["broke"]["status"] == "failed" and runs["broke"]["headline"] is None and "status 7" in runs["broke"]["failure"]
    assert runs["garbled"]["run_id"] is None and "not valid JSON" in runs["garbled"]["error"]
    assert runs["nometrics"]["status"] == "completed" and runs["nometrics"]["headline"] is None and "metrics.json" in runs["nometrics"]["error"]


def test_default_directory_several_directories_and_a_run_directory(listed, tmp_path, monkeypatch, make_run, results):
    monkeypatch.chdir(listed.parent)
    assert len(invoke().stdout.splitlines()) == 6  # ./results
    other = tmp_path / "elsewhere" / "nested"
    make_run("far", results_dir=other)
    result = invoke(listed, tmp_path / "elsewhere")
    assert [line.split()[0] for line in result.stdout.splitlines()][1:] == ["far", "quick", "broke", "full", "nometrics", "garbled"]
    result = invoke(listed / "full")
    assert [line.split()[0] for line in result.stdout.splitlines()] == ["ID", "full"]
    assert len(invoke(listed, listed / "full").stdout.splitlines()) == 6  # named twice, listed once
    # A run directory is not searched further: a run.json in the adapter's output is not a run.
    (listed / "full" / "adapter" / "run.json").write_text("{}", encoding="utf-8")
    assert len(invoke(listed).stdout.splitlines()) == 6


def test_empty_and_missing_directories(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke()
    assert result.exit_code == 1 and "results" in result.output and "no such directory" in result.output
    (tmp_path / "results").mkdir()
    result = invoke()
    assert result.exit_code == 0 and result.stdout == "" and "no run directories in results" in result.stderr
    assert json.loads(invoke("--json").stdout) == {"runs": []}


def test_an_unsearchable_directory_is_listed_with_its_error(listed, monkeypatch):
    locked = listed / "locked"
    locked.mkdir()
    scandir = os.scandir

    def refuse(path="."):
        if os.fspath(path) == str(locked):  # as for a directory of mode 000 (root could read it)
            raise PermissionError(13, "Permission denied", str(locked))
        return scandir(path)

    monkeypatch.setattr(os, "scandir", refuse)
    result = invoke(listed)
    line = next(line for line in result.stdout.splitlines() if line.startswith("locked"))
    assert "cannot be searched for runs: Permission denied" in line and "Traceback" not in result.output
    assert len(result.stdout.splitlines()) == 7
