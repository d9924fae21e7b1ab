"""Saved profiles: plan, unpaired run, promote, paired run, and restore on another results directory.

Uses the count-words test type with the scripted fake adapter (registered as `fake`) and a
`file` store; tests/stores repeats the restore flow against an S3-compatible server.
"""

from __future__ import annotations

import json
import shlex
import types
from pathlib import Path

import pytest
from click.testing import CliRunner

from envirobench import hookimpl, plugins
from envirobench.cli import main
from envirobench.errors import EnviroBenchError
from envirobench.profiles import BENCH_FORMAT, load_profile, locate
from envirobench.stores.file import FileStore
from envirobench.testing import toy_plugin, write_count_dataset


def adapters_plugin(**commands):
    @hookimpl
    def envirobench_adapters(register):
        for name, command in commands.items():
            register(name, command)

    return types.SimpleNamespace(envirobench_adapters=envirobench_adapters)


def write_profile(plugin_dir: Path, **overrides) -> Path:
    profile = {
        "format": BENCH_FORMAT,
        "benchmark": "count-words",
        "dataset": "test/count-words-v1",
        "adapter": "fake",
        "adapters": {
            "fake": {"model": "test/model", "options": {"off": "c000001:1"}, "baseline": None, "controls": []},
            "other": {"model": "test/other", "options": {}},
        },
        "gate": ["exact"],
        "targets": [],
        "budget_usd": 1.0,
        "results": "results",
        "store": "file:private-store",
    }
    profile.update(overrides)
    path = plugin_dir / "src" / "toy_plugin" / "benchmarks" / "count-words" / "bench.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(profile, indent=2))
    return path


@pytest.fixture
def bench(use_registry, tmp_path, monkeypatch, count_dataset, fake, adapter_bin):
    """A plugin checkout with a count-words profile; the cwd is a fresh working directory."""
    registry = plugins.build_registry(extra=[
        ("toy", toy_plugin(("test/count-words-v1", count_dataset))),
        ("fakes", adapters_plugin(fake=str(fake), other=str(adapter_bin("fake_adapter.py")))),
    ])
    use_registry(registry)
    plugin_dir = tmp_path / "toy-plugin"
    path = write_profile(plugin_dir)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return types.SimpleNamespace(plugin=str(plugin_dir), path=path, work=work, registry=registry)


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def bench_run(bench, run_id, *extra):
    return cli("bench", "run", "count-words", "--plugin", bench.plugin, "--run", run_id, *extra)


def ok(result):
    assert result.exit_code == 0, result.output
    return result


def promote_first_baseline(bench):
    ok(bench_run(bench, "base", "--unpaired"))
    ok(bench_run(bench, "ctl", "--unpaired"))
    return ok(cli("bench", "promote", "count-words", "results/base", "--control", "results/ctl", "--plugin", bench.plugin))


def test_plan_prints_the_run_command_and_writes_nothing(bench):
    before = bench.path.read_bytes()
    result = ok(bench_run(bench, "r1", "--unpaired", "--plan"))
    assert result.stderr == ""
    assert result.stdout.splitlines() == [
        "envirobench run --adapter fake --run r1 --model test/model --benchmark count-words "
        "--dataset count-words=test/count-words-v1 --adapter-option off=c000001:1 --budget 1.0 "
        "--gate exact --results results"
    ]
    assert list(bench.work.iterdir()) == []
    assert bench.path.read_bytes() == before


def test_plan_and_verdict_as_json(bench):
    plan = json.loads(ok(bench_run(bench, "r1", "--unpaired", "--plan", "--json")).stdout)
    assert plan["argv"][:4] == ["envirobench", "run", "--adapter", "fake"] and plan["paired"] is False and plan["notes"] == []
    assert plan["command"].startswith("envirobench run --adapter fake --run r1")
    verdict = json.loads(ok(bench_run(bench, "r1", "--unpaired", "--json")).stdout)
    assert verdict["status"] == "completed" and verdict["gate"] == "baseline required"


def test_an_adapter_without_a_baseline_must_run_unpaired(bench):
    result = bench_run(bench, "r1")
    assert result.exit_code == 1
    assert "adapter 'fake' has no promoted baseline yet" in result.output
    assert "--unpaired" in result.output
    assert f"envirobench bench promote count-words results/r1 --plugin {bench.plugin}" in result.output
    assert "$.adapters['fake'].baseline" in result.output
    assert list(bench.work.iterdir()) == []


def test_unpaired_promote_then_paired(bench):
    ok(bench_run(bench, "base", "--unpaired"))
    base = json.loads((bench.work / "results/base/run.json").read_text())
    assert base["status"] == "completed" and base["gate"]["status"] == "baseline required"
    ok(bench_run(bench, "ctl", "--unpaired"))
    promoted = ok(cli("bench", "promote", "count-words", "results/base", "--control", "results/ctl", "--plugin", bench.plugin, "--json"))
    report = json.loads(promoted.output)
    profile = load_profile(bench.path)
    entry = profile.adapters["fake"]
    assert entry.baseline.run_id == "base" and entry.baseline.sha256 == report["baseline"]["sha256"]
    assert [c.run_id for c in entry.controls] == ["ctl"]
    assert profile.adapters["other"].baseline is None  # baselines are per adapter
    store = FileStore(bench.work / "private-store", "private")
    assert "runs/base/run.json" in store.list("runs/base/")
    assert "runs/base/.envirobench-archive.json" in store.list("runs/base/")

    plan = ok(bench_run(bench, "cand", "--plan")).stdout.strip()
    assert "--baseline-run results/base --control-run results/ctl" in plan
    assert plan.endswith("--require-no-regressions --results results")
    ok(bench_run(bench, "cand"))
    cand = json.loads((bench.work / "results/cand/run.json").read_text())
    assert cand["gate"]["status"] == "passed"
    assert cand["pairing"]["baseline"]["run_id"] == "base"
    assert [c["run_id"] for c in cand["pairing"]["controls"]] == ["ctl"]

    # The plan pasted as a command makes the same run.
    argv = shlex.split(plan.replace("--run cand", "--run pasted"))
    assert argv[0] == "envirobench"
    ok(cli(*argv[1:]))
    pasted = json.loads((bench.work / "results/pasted/metrics.json").read_text())
    made = json.loads((bench.work / "results/cand/metrics.json").read_text())
    assert {**pasted, "run_id": "cand"} == made


def test_other_adapter_still_runs_unpaired(bench):
    promote_first_baseline(bench)
    refused = cli("bench", "run", "count-words", "--plugin", bench.plugin, "--run", "o1", "--adapter", "other")
    assert refused.exit_code == 1 and "adapter 'other' has no promoted baseline" in refused.output
    ok(cli("bench", "run", "count-words", "--plugin", bench.plugin, "--run", "o1", "--adapter", "other", "--unpaired"))
    unknown = cli("bench", "run", "count-words", "--plugin", bench.plugin, "--run", "o2", "--adapter", "nope", "--unpaired")
    assert unknown.exit_code == 1 and "adapter 'nope' has no entry in this profile" in unknown.output


def test_a_regression_fails_the_gate_with_status_3(bench):
    promote_first_baseline(bench)
    profile = json.loads(bench.path.read_text())
    profile["adapters"]["fake"]["options"]["off"] = "c000001:1,c000004:2"
    bench.path.write_text(json.dumps(profile))
    result = bench_run(bench, "worse")
    assert result.exit_code == 3, result.output


def test_promoted_runs_are_restored_on_a_second_results_directory(bench):
    promote_first_baseline(bench)
    ok(bench_run(bench, "cand"))
    plan = ok(bench_run(bench, "cand", "--results", "elsewhere", "--plan"))
    assert "--baseline-run elsewhere/base" in plan.stdout
    assert len(plan.stdout.splitlines()) == 1  # the command alone; notes go to stderr
    assert "not in elsewhere; first: envirobench bench restore count-words" in plan.stderr
    assert not (bench.work / "elsewhere").exists()
    ok(bench_run(bench, "cand", "--results", "elsewhere"))
    for run_id in ("base", "ctl"):
        here, there = bench.work / "results" / run_id, bench.work / "elsewhere" / run_id
        files = sorted(p.relative_to(here) for p in here.rglob("*") if p.is_file())
        assert files == sorted(p.relative_to(there) for p in there.rglob("*") if p.is_file())
        assert all((here / f).read_bytes() == (there / f).read_bytes() for f in files)
    made_here = (bench.work / "results/cand/metrics.json").read_bytes()
    assert (bench.work / "elsewhere/cand/metrics.json").read_bytes() == made_here
    assert sorted(p.name for p in (bench.work / "elsewhere").iterdir()) == ["base", "cand", "ctl"]


def test_restore_refuses_a_corrupted_archive(bench):
    promote_first_baseline(bench)
    stored = bench.work / "private-store/runs/base/adapter/predictions.json"
    stored.chmod(0o644)
    stored.write_text(stored.read_text().replace("1", "2", 1))
    result = bench_run(bench, "cand", "--results", "elsewhere")
    assert result.exit_code == 1
    assert "runs/base/adapter/predictions.json" in result.output and "corrupted or was altered" in result.output
    assert not (bench.work / "elsewhere/base").exists()
    assert [p.name for p in (bench.work / "elsewhere").iterdir()] == []


def test_restore_command(bench):
    promote_first_baseline(bench)
    result = ok(cli("bench", "restore", "count-words", "--plugin", bench.plugin, "--results", "copy"))
    assert "restored copy/base" in result.output and "restored copy/ctl" in result.output
    again = ok(cli("bench", "restore", "count-words", "--plugin", bench.plugin, "--results", "copy"))
    assert "already in copy" in again.output
    other = ok(cli("bench", "restore", "count-words", "--plugin", bench.plugin, "--adapter", "other"))
    assert "no promoted runs" in other.output


def test_promote_refuses_a_failed_run(bench, make_spec):
    from envirobench.runs import execute_run

    outcome = execute_run(make_spec("broken", options={"mode": "crash"}, results_dir=bench.work / "results"), bench.registry)
    assert outcome.status == "failed"
    result = cli("bench", "promote", "count-words", "results/broken", "--plugin", bench.plugin)
    assert result.exit_code == 1 and "did not complete" in result.output
    assert load_profile(bench.path).adapters["fake"].baseline is None


def test_promote_refuses_another_dataset_or_benchmark(bench, tmp_path, make_spec):
    from envirobench.runs import execute_run

    other = write_count_dataset(tmp_path / "other-data", 12, answer_overrides={"c000002": 5})
    outcome = execute_run(make_spec("elsewhere", dataset=str(other), results_dir=bench.work / "results"), bench.registry)
    assert outcome.status == "completed"
    result = cli("bench", "promote", "count-words", "results/elsewhere", "--plugin", bench.plugin)
    assert result.exit_code == 1 and "not on the profile's dataset" in result.output and "$.dataset.digest" in result.output

    ok(bench_run(bench, "base", "--unpaired"))
    record = json.loads((bench.work / "results/base/run.json").read_text())
    record["benchmark"]["id"] = "another-type"
    (bench.work / "results/base/run.json").write_text(json.dumps(record))
    result = cli("bench", "promote", "count-words", "results/base", "--plugin", bench.plugin)
    assert result.exit_code == 1 and "is a 'another-type' run" in result.output
    assert FileStore(bench.work / "private-store", "private").list() == []


def test_promote_refuses_a_control_of_another_adapter(bench):
    ok(bench_run(bench, "base", "--unpaired"))
    ok(cli("bench", "run", "count-words", "--plugin", bench.plugin, "--run", "o1", "--adapter", "other", "--unpaired"))
    result = cli("bench", "promote", "count-words", "results/base", "--control", "results/o1", "--plugin", bench.plugin)
    assert result.exit_code == 1 and "a control is a rerun of the baseline's system" in result.output
    same = cli("bench", "promote", "count-words", "results/base", "--control", "results/base", "--plugin", bench.plugin)
    assert same.exit_code == 1 and "given twice" in same.output


def test_promote_refuses_a_public_store(bench):
    ok(bench_run(bench, "base", "--unpaired"))
    result = cli("bench", "promote", "count-words", "results/base", "--plugin", bench.plugin, "--store", "file:pub?visibility=public")
    assert result.exit_code == 1 and "public store" in result.output
    assert not (bench.work / "pub").exists()


def test_promoting_again_is_idempotent_and_a_different_run_under_the_same_id_is_refused(bench, tmp_path):
    promote_first_baseline(bench)
    before = bench.path.read_bytes()
    again = ok(cli("bench", "promote", "count-words", "results/base", "--control", "results/ctl", "--plugin", bench.plugin, "--json"))
    assert json.loads(again.output)["uploaded"] == 0
    assert bench.path.read_bytes() == before
    # A run made elsewhere under the same ID has other bytes: the archive is never replaced.
    ok(bench_run(bench, "base", "--unpaired", "--results", "other-results"))
    result = cli("bench", "promote", "count-words", "other-results/base", "--plugin", bench.plugin)
    assert result.exit_code == 1 and "already holds a different run 'base'" in result.output
    assert bench.path.read_bytes() == before


def test_missing_run_without_a_checksum_cannot_be_restored(bench):
    profile = json.loads(bench.path.read_text())
    profile["adapters"]["fake"]["baseline"] = {"run_id": "hand-made"}
    bench.path.write_text(json.dumps(profile))
    result = bench_run(bench, "cand")
    assert result.exit_code == 1 and "records no archive checksum" in result.output


def test_profile_is_read_strictly(bench):
    profile = json.loads(bench.path.read_text())
    bench.path.write_text(json.dumps({**profile, "colour": "blue"}))
    result = bench_run(bench, "r", "--unpaired", "--plan")
    assert result.exit_code == 1 and "unknown field(s) colour" in result.output and "bench.json" in result.output
    bench.path.write_text(json.dumps({**profile, "adapter": "missing"}))
    result = bench_run(bench, "r", "--unpaired", "--plan")
    assert result.exit_code == 1 and "$.adapter" in result.output
    bench.path.write_text(json.dumps({**profile, "budget_usd": "0"}))
    result = bench_run(bench, "r", "--unpaired", "--plan")
    assert result.exit_code == 1 and "$.budget_usd" in result.output


def test_locating_profiles(bench, tmp_path):
    assert locate("count-words", bench.plugin).path == bench.path
    with pytest.raises(EnviroBenchError, match="no benchmarks/missing/bench.json"):
        locate("missing", bench.plugin)
    with pytest.raises(EnviroBenchError, match="neither a directory nor an installed plugin"):
        locate("count-words", "no-such-plugin")
    with pytest.raises(EnviroBenchError, match="no saved profile 'count-words'"):
        locate("count-words")  # no installed plugin has one (the core suite loads none)
    with pytest.raises(EnviroBenchError, match="not a benchmark profile name"):
        locate("../x", bench.plugin)


def test_public_dataset_pointing_at_a_private_store_is_refused_at_bench_time(use_registry, tmp_path, monkeypatch, count_dataset, fake):
    @hookimpl
    def envirobench_datasets(register):
        register("test/count-words-v1", count_dataset, visibility="public", store="file:dataset-home")

    toy = toy_plugin()
    toy.envirobench_datasets = envirobench_datasets
    registry = plugins.build_registry(extra=[("toy", toy), ("fakes", adapters_plugin(fake=str(fake), other=str(fake)))])
    use_registry(registry)
    write_profile(tmp_path / "plugin")
    monkeypatch.chdir(tmp_path)
    result = cli("bench", "run", "count-words", "--plugin", tmp_path / "plugin", "--run", "r", "--unpaired", "--plan")
    assert result.exit_code == 1
    assert "public dataset 'test/count-words-v1'" in result.output and "a public dataset must point at a public store" in result.output


def test_bench_json_is_rewritten_atomically_and_canonically(bench):
    promote_first_baseline(bench)
    siblings = sorted(p.name for p in bench.path.parent.iterdir())
    assert siblings == ["bench.json"]
    text = bench.path.read_text()
    assert text == json.dumps(json.loads(text), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def test_bench_run_pulls_a_registered_dataset_that_is_missing(use_registry, tmp_path, monkeypatch, count_dataset, fake):
    from envirobench.stores.transfer import push_dataset

    home = FileStore(tmp_path / "home", "public")
    installed = tmp_path / "installed" / "count-words-v1"

    @hookimpl
    def envirobench_datasets(register):
        register("test/count-words-v1", installed, visibility="public", store=home.url + "?visibility=public")

    toy = toy_plugin()
    toy.envirobench_datasets = envirobench_datasets
    registry = plugins.build_registry(extra=[("toy", toy), ("fakes", adapters_plugin(fake=str(fake), other=str(fake)))])
    push_dataset(str(count_dataset), home, registry)
    use_registry(registry)
    write_profile(tmp_path / "plugin")
    monkeypatch.chdir(tmp_path)
    plan = ok(cli("bench", "run", "count-words", "--plugin", tmp_path / "plugin", "--run", "r", "--unpaired", "--plan"))
    assert "first: envirobench datasets pull test/count-words-v1" in plan.stderr
    assert not installed.exists()
    run = ok(cli("bench", "run", "count-words", "--plugin", tmp_path / "plugin", "--run", "r", "--unpaired"))
    assert f"pulled test/count-words-v1 v1 into {installed}" in run.stderr
    assert (installed / "manifest.json").read_bytes() == (count_dataset / "manifest.json").read_bytes()
    assert json.loads((tmp_path / "results/r/run.json").read_text())["status"] == "completed"
