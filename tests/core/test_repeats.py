"""Repeats: `run --repeats N` makes N runs of one configuration sharing a group; they are repeats
on a leaderboard, and the baseline system's repeats make its controls (docs/runs.md, "Repeats,
shards and merging")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from scripted_adapters import adapter_executable

from envirobench import categories as cats
from envirobench import datasets as ds
from envirobench import hookimpl, plugins, rundir
from envirobench.cli import main
from envirobench.leaderboard import build_leaderboard
from envirobench.profiles import BENCH_FORMAT
from envirobench.testing import CountWords, adapters_plugin, toy_plugin, write_count_dataset

FAKE_ADAPTER = Path(__file__).parent / "adapters" / "fake_adapter.py"


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def ok(result):
    assert result.exit_code == 0, result.output
    return result


def run_args(adapter, results, run_id, *extra, benchmark="count-words", dataset="test/count-words-v1"):
    return ["run", "--adapter", adapter, "--run", run_id, "--model", "test/model", "--benchmark", benchmark,
            "--dataset", f"{benchmark}={dataset}", "--budget", "1", "--sandbox", "none", "--results", results, *extra]


@pytest.fixture
def toy(use_registry, toy_registry):
    use_registry(toy_registry)


def test_repeats_are_runs_of_one_group(toy, fake, tmp_path):
    results = tmp_path / "results"
    out = json.loads(ok(cli(*run_args(fake, results, "r", "--repeats", "3", "--json"))).stdout)
    assert out["group"] == "r" and [e["run_dir"] for e in out["runs"]] == [str(results / f"r-{k}") for k in (1, 2, 3)]
    assert all(e["status"] == "completed" and e["group"] == "r" and e["run_id"] == f"r-{k}" for k, e in enumerate(out["runs"], 1))
    runs = [rundir.read_run(results / f"r-{k}") for k in (1, 2, 3)]
    assert [r.run_id for r in runs] == ["r-1", "r-2", "r-3"] and {r.group for r in runs} == {"r"}
    assert all(r.partial is None and r.shard is None for r in runs)
    # One run without --repeats has no group, and its --json is as it always was.
    single = json.loads(ok(cli(*run_args(fake, results, "alone", "--json"))).stdout)
    assert set(single) == {"run_dir", "status", "gate", "by_profile", "partial"}
    assert rundir.read_run(results / "alone").group is None
    text = ok(cli(*run_args(fake, results, "t", "--repeats", "2"))).stdout
    assert "repeat 1 of 2: t-1" in text and "repeat 2 of 2: t-2" in text


def test_controls_from_repeats_of_the_baseline(toy, fake, tmp_path):
    results = tmp_path / "results"
    ok(cli(*run_args(fake, results, "base", "--repeats", "3", "--adapter-option", "off=c000001:1")))
    ok(cli(*run_args(fake, results, "cand", "--baseline-run", results / "base-1", "--control-run", results / "base-2",
                     "--control-run", results / "base-3", "--adapter-option", "off=c000002:1")))
    metrics = json.loads((results / "cand" / "metrics.json").read_text())
    assert metrics["runs"] == ["candidate", "baseline", "control-1", "control-2"]
    assert metrics["profiles"]["exact"]["regressions"] == ["c000002"] and metrics["profiles"]["exact"]["improvements"] == ["c000001"]
    run = rundir.read_run(results / "cand")
    assert [c.run_id for c in run.pairing.controls] == ["base-2", "base-3"]


def test_every_repeat_is_made_and_the_worst_status_is_the_exit_status(toy, tmp_path):
    """A repeat that fails (here the second: its adapter crashes) leaves the others made."""
    results = tmp_path / "results"
    flaky = tmp_path / "flaky"
    adapter_executable(flaky, "fake_adapter.py", prelude=(
        'import json as _json, sys as _sys\n'
        'if _json.load(open(_sys.argv[3]))["run_id"] == "f-2":\n'
        '    print("crashed", file=_sys.stderr)\n'
        '    _sys.exit(3)'))
    result = cli(*run_args(flaky, results, "f", "--repeats", "3"))
    assert result.exit_code == 1
    assert [rundir.read_run(results / f"f-{k}").status for k in (1, 2, 3)] == ["completed", "failed", "completed"]
    assert "run failed (technical failure, nothing scored)" in result.stderr


def test_resume_skips_the_repeats_already_made(toy, fake, tmp_path):
    results = tmp_path / "results"
    ok(cli(*run_args(fake, results, "r", "--repeats", "2")))
    first = (results / "r-1" / "run.json").read_bytes()
    refused = cli(*run_args(fake, results, "r", "--repeats", "3"))
    assert refused.exit_code == 1 and "already exists" in refused.output
    result = ok(cli(*run_args(fake, results, "r", "--repeats", "3", "--resume", "--json")))
    out = json.loads(result.stdout)
    assert [e["status"] for e in out["runs"]] == ["skipped", "skipped", "completed"]
    assert "r-1: already made, in " in result.stderr
    assert (results / "r-1" / "run.json").read_bytes() == first and rundir.read_run(results / "r-3").group == "r"


def test_grouped_repeats_are_repeats_on_the_leaderboard(use_registry, fake, tmp_path):
    task = cats.task("table-separators")
    Separators = type("Separators", (CountWords,), {"ID": task.id, "FORMAT": f"envirobench.{task.id}.v1", "LABEL": task.label,
                                                    "SCORING_VERSION": "test.scores.v1", "TIER": task.tier, "HEADLINE": ("accuracy",)})
    data = write_count_dataset(tmp_path / "data", 12, dataset_id="test/separators-v1")
    ds.write_manifest(data, dataset_id="test/separators-v1", version=1, benchmark=task.id, title="separators (test)")

    class Plugin:
        @hookimpl
        def envirobench_benchmark_types(self, register):
            register(Separators)

        @hookimpl
        def envirobench_datasets(self, register):
            register("test/separators-v1", data)

    registry = plugins.build_registry(extra=[("separators", Plugin())])
    use_registry(registry)
    results = tmp_path / "results"
    ok(cli(*run_args(fake, results, "ts", "--repeats", "3", benchmark=task.id, dataset="test/separators-v1")))
    for i in range(2):
        ok(cli(*run_args(fake, results, "sh", "--shard", f"{i}/2", benchmark=task.id, dataset="test/separators-v1")))
    board = build_leaderboard([results], registry=registry)
    category = cats.category_of(task.id)
    (system,) = board.systems
    cell = board.cell(category, system).tasks[[t.id for t in category.tasks].index(task.id)]
    assert sorted(r.run_id for r in cell.runs) == ["ts-1", "ts-2", "ts-3"]
    refused = {r.run_id: r.reason for r in board.refused}
    assert set(refused) == {"sh.shard-0-of-2", "sh.shard-1-of-2"} and all("merge the shards" in r for r in refused.values())
    # Merged, the shards are one more run of the system.
    ok(cli("merge", "--run", "sh", "--results", results))
    board = build_leaderboard([results / name for name in ("ts-1", "ts-2", "ts-3", "sh")], registry=registry)
    cell = board.cell(category, system).tasks[[t.id for t in category.tasks].index(task.id)]
    assert sorted(r.run_id for r in cell.runs) == ["sh", "ts-1", "ts-2", "ts-3"]


def test_bench_run_repeats(use_registry, tmp_path, monkeypatch, count_dataset, fake):
    registry = plugins.build_registry(extra=[("toy", toy_plugin(("test/count-words-v1", count_dataset))), ("fakes", adapters_plugin(fake=str(fake)))])
    use_registry(registry)
    profile = {"format": BENCH_FORMAT, "benchmark": "count-words", "dataset": "test/count-words-v1", "adapter": "fake",
               "adapters": {"fake": {"model": "test/model", "options": {}, "baseline": None, "controls": []}},
               "gate": ["exact"], "targets": [], "budget_usd": 1.0, "results": "results", "store": "file:private-store"}
    path = tmp_path / "plugin" / "benchmarks" / "count-words" / "bench.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(profile))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    bench = ["bench", "run", "count-words", "--plugin", tmp_path / "plugin", "--run", "b", "--unpaired", "--repeats", "2"]
    assert ok(cli(*bench, "--plan")).stdout.strip().endswith("--results results --repeats 2")
    ok(cli(*bench))
    assert [rundir.read_run(work / "results" / f"b-{k}").group for k in (1, 2)] == ["b", "b"]
