"""Saved profiles: plan, unpaired run, promote, paired run, and restore on another results directory.

Uses the count-words test type with the scripted fake adapter (registered as `fake`) and a
`file` store; tests/stores repeats the restore flow against an S3-compatible server. A profile is
found either in a checkout (`--plugin PATH`, promoted into its bench.json) or in an installed
plugin (a distribution on sys.path, as in site-packages: promoted into the project's overlay).
tests/e2e/test_promote_from_wheel.py does the latter with the Extract wheel and a reinstall.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import types
from pathlib import Path

import pytest
from click.testing import CliRunner

from envirobench import hookimpl, plugins
from envirobench.cli import main
from envirobench.errors import EnviroBenchError
from envirobench.profiles import BENCH_FORMAT, load_profile, locate
from envirobench.state import STATE_ENV
from envirobench.stores import sha256_bytes, sha256_file
from envirobench.stores.file import FileStore
from envirobench.stores.transfer import RESTORE_RECORD, archive_run, restore_run
from envirobench.testing import adapters_plugin, toy_plugin, write_count_dataset


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


@pytest.fixture(autouse=True)
def _no_state_named(monkeypatch):
    # The project state is found from the working directory unless a test names one.
    monkeypatch.delenv(STATE_ENV, raising=False)


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
    assert not (bench.work / ".envirobench").exists()  # a checkout is promoted in place
    store = FileStore(bench.work / "private-store", "private")
    assert "runs/count-words/base/run.json" in store.list("runs/count-words/base/")  # namespaced by benchmark
    assert "runs/count-words/base/.envirobench-archive.json" in store.list("runs/count-words/base/")

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
        # The restored copy holds one file more: where it came from (the leaderboard shows it).
        assert sorted(p.relative_to(there) for p in there.rglob("*") if p.is_file()) == sorted([*files, Path(RESTORE_RECORD)])
        assert all((here / f).read_bytes() == (there / f).read_bytes() for f in files)
        record = json.loads((there / RESTORE_RECORD).read_text())
        assert record["run_id"] == run_id and record["archive"] == f"runs/count-words/{run_id}" and record["promoted"] is True
        assert sorted(f["path"] for f in record["files"]) == sorted(f.as_posix() for f in files)
    made_here = (bench.work / "results/cand/metrics.json").read_bytes()
    assert (bench.work / "elsewhere/cand/metrics.json").read_bytes() == made_here
    assert sorted(p.name for p in (bench.work / "elsewhere").iterdir()) == ["base", "cand", "ctl"]


def test_restore_refuses_a_corrupted_archive(bench):
    promote_first_baseline(bench)
    stored = bench.work / "private-store/runs/count-words/base/adapter/predictions.json"
    stored.chmod(0o644)
    stored.write_text(stored.read_text().replace("1", "2", 1))
    result = bench_run(bench, "cand", "--results", "elsewhere")
    assert result.exit_code == 1
    assert "runs/count-words/base/adapter/predictions.json" in result.output and "corrupted or was altered" in result.output
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
    assert result.exit_code == 1 and "already holds a different count-words run 'base'" in result.output
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


# -- partial runs, store layout, progress -------------------------------------------------------


def test_a_partial_run_is_never_promoted(bench):
    ok(bench_run(bench, "quick", "--unpaired"))
    ok(bench_run(bench, "full", "--unpaired"))
    run_json = bench.work / "results/quick/run.json"
    record = json.loads(run_json.read_text())
    record["partial"] = {"cases": 3, "of": 12, "selected_by": "--limit 3"}
    run_json.write_text(json.dumps(record))
    for args in (["results/quick"], ["results/full", "--control", "results/quick"]):
        result = cli("bench", "promote", "count-words", *args, "--plugin", bench.plugin)
        assert result.exit_code == 1, result.output
        assert "run 'quick' is a partial run: 3 of 12 cases (--limit 3)" in result.output
        assert "never promoted" in result.output and "$.partial" in result.output
    assert load_profile(bench.path).adapters["fake"].baseline is None
    assert not (bench.work / "private-store").exists()


def test_runs_are_namespaced_by_benchmark_and_the_old_layout_still_restores(bench, tmp_path):
    promote_first_baseline(bench)
    store = FileStore(bench.work / "private-store", "private")
    # The same run ID for another benchmark, in the same store: no collision.
    other = tmp_path / "other-results" / "base"
    shutil.copytree(bench.work / "results/base", other)
    record = json.loads((other / "run.json").read_text())
    record["benchmark"]["id"] = "other-type"
    (other / "run.json").write_text(json.dumps(record))
    archive_run(other, store)
    assert store.exists("runs/other-type/base/run.json") and store.exists("runs/count-words/base/run.json")
    # Earlier versions archived runs as runs/<run id>/: a store laid out so still restores.
    old = FileStore(bench.work / "old-store", "private")
    for key in store.list("runs/count-words/"):
        old.put(key.replace("runs/count-words/", "runs/", 1), store.root / key, sha256_file(store.root / key))
    assert old.list("runs/count-words/") == []
    # Another run under the same ID in the new layout (another profile's): passed over by its checksum.
    other_listing = (store.root / "runs/other-type/base/.envirobench-archive.json").read_bytes()
    old.put("runs/count-words/base/.envirobench-archive.json", other_listing, sha256_bytes(other_listing))
    result = ok(bench_run(bench, "cand", "--results", "elsewhere", "--store", "file:old-store"))
    assert "restored elsewhere/base" in result.stderr and "restored elsewhere/ctl" in result.stderr
    for name in ("run.json", "adapter/predictions.json"):
        assert (bench.work / "elsewhere/base" / name).read_bytes() == (bench.work / "results/base" / name).read_bytes()
    # The archive of another benchmark under the same ID is never taken for this one.
    sha = load_profile(bench.path).adapters["fake"].baseline.sha256
    with pytest.raises(EnviroBenchError, match="holds no archive of run 'base'"):
        restore_run("base", sha, store, tmp_path / "restored", benchmark="another")


def test_restore_and_archive_report_progress(bench, tmp_path):
    promote_first_baseline(bench)
    store = FileStore(bench.work / "private-store", "private")
    calls = []
    sha = load_profile(bench.path).adapters["fake"].baseline.sha256
    restore_run("base", sha, store, tmp_path / "restored", benchmark="count-words", on_progress=lambda *a: calls.append(a))
    files = len([p for p in (tmp_path / "restored/base").rglob("*") if p.is_file() and p.name != RESTORE_RECORD])
    assert calls == [("restore base", n, files) for n in range(files + 1)]
    calls.clear()
    archive_run(bench.work / "results/base", store, on_progress=lambda *a: calls.append(a))
    assert calls[0] == ("archive base", 0, files + 1) and calls[-1] == ("archive base", files + 1, files + 1)


# -- an installed plugin's profile: promoted into the project's overlay -------------------------


@pytest.fixture
def installed(bench, tmp_path, monkeypatch):
    """The checkout's profile shipped by an installed plugin: a distribution with an entry point
    on sys.path (as in site-packages), found without --plugin."""
    site = tmp_path / "site"
    package = site / "toy_installed"
    shipped = package / "benchmarks" / "count-words" / "bench.json"
    shipped.parent.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "plugin.py").write_text("")
    shipped.write_bytes(bench.path.read_bytes())
    info = site / "toy_installed-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-installed\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[envirobench]\ntoy-installed = toy_installed.plugin\n")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv(plugins.LOAD_PLUGINS_ENV, "toy-installed")
    return types.SimpleNamespace(shipped=shipped, original=shipped.read_bytes(), package=package)


def package_files(installed) -> dict[str, bytes]:
    return {p.relative_to(installed.package).as_posix(): p.read_bytes() for p in sorted(installed.package.rglob("*")) if p.is_file()}


def overlay_file(project: Path) -> Path:
    return project / ".envirobench" / "profiles" / "toy-installed" / "count-words.json"


def test_an_installed_profile_is_promoted_into_the_project_overlay(installed, bench):
    before = package_files(installed)
    assert locate("count-words").path == installed.shipped
    ok(cli("bench", "run", "count-words", "--run", "base", "--unpaired"))
    ok(cli("bench", "run", "count-words", "--run", "ctl", "--unpaired"))
    promoted = ok(cli("bench", "promote", "count-words", "results/base", "--control", "results/ctl"))
    overlay = overlay_file(bench.work)
    assert f"created the project state {bench.work / '.envirobench'}" in promoted.stderr
    assert f"updated {overlay}" in promoted.stdout
    data = json.loads(overlay.read_text())
    assert (data["format"], data["plugin"], data["profile"], data["store"]) == ("envirobench.bench-overlay.v1", "toy-installed", "count-words", None)
    assert data["adapters"]["fake"]["baseline"]["run_id"] == "base"
    assert [c["run_id"] for c in data["adapters"]["fake"]["controls"]] == ["ctl"]
    assert list(data["adapters"]) == ["fake"]
    assert package_files(installed) == before  # the package is never written
    assert (bench.work / "private-store/runs/count-words/base/run.json").is_file()

    # A reinstall puts the package's files back as shipped; the promotion stays with the project.
    installed.shipped.write_bytes(installed.original)
    located = locate("count-words")
    assert located.overlay == overlay and located.profile.adapters["fake"].baseline.run_id == "base"
    ok(cli("bench", "run", "count-words", "--run", "cand"))
    cand = json.loads((bench.work / "results/cand/run.json").read_text())
    assert cand["gate"]["status"] == "passed" and cand["pairing"]["baseline"]["run_id"] == "base"
    assert [c["run_id"] for c in cand["pairing"]["controls"]] == ["ctl"]

    # Promoting again (a new baseline) updates the overlay; the state is not made twice.
    again = ok(cli("bench", "promote", "count-words", "results/cand", "--plugin", "toy-installed"))
    assert "created the project state" not in again.stderr and "replaces baseline base" in again.stdout
    fake = json.loads(overlay.read_text())["adapters"]["fake"]
    assert fake["baseline"]["run_id"] == "cand" and fake["controls"] == []
    rows = [r for r in json.loads(ok(cli("bench", "list", "--json")).stdout) if r["plugin"] == "toy-installed"]
    assert rows[0]["overlay"] == str(overlay) and rows[0]["adapters"] == {"fake": "cand", "other": None}
    assert package_files(installed) == before


def test_from_a_subdirectory_the_project_is_the_same(installed, bench, monkeypatch):
    ok(cli("bench", "run", "count-words", "--run", "base", "--unpaired"))
    deeper = bench.work / "notes" / "deeper"
    deeper.mkdir(parents=True)
    monkeypatch.chdir(deeper)
    ok(cli("bench", "promote", "count-words", bench.work / "results/base"))  # no project yet: made here
    assert overlay_file(deeper).is_file() and (deeper / "private-store/runs/count-words/base/run.json").is_file()
    shutil.rmtree(deeper / ".envirobench")
    shutil.rmtree(deeper / "private-store")

    monkeypatch.chdir(bench.work)
    ok(cli("bench", "promote", "count-words", "results/base"))
    monkeypatch.chdir(deeper)
    results = bench.work / "results"
    plan = ok(cli("bench", "run", "count-words", "--run", "cand", "--plan")).stdout
    assert f"--baseline-run {results / 'base'}" in plan and plan.strip().endswith(f"--results {results}")
    ok(cli("bench", "run", "count-words", "--run", "cand"))
    cand = json.loads((results / "cand/run.json").read_text())
    assert cand["gate"]["status"] == "passed" and cand["pairing"]["baseline"]["run_id"] == "base"
    assert sorted(p.name for p in deeper.iterdir()) == []
    # The project's store, from the subdirectory.
    shutil.rmtree(results / "base")
    restored = ok(cli("bench", "restore", "count-words"))
    assert f"restored {results / 'base'}" in restored.output
    assert not (deeper / "private-store").exists()


def test_the_store_given_to_promote_is_saved_for_the_next_run(installed, bench, monkeypatch):
    ok(cli("bench", "run", "count-words", "--run", "base", "--unpaired"))
    sub = bench.work / "sub"
    sub.mkdir()
    (bench.work / ".envirobench").mkdir()  # the project
    monkeypatch.chdir(sub)
    promoted = ok(cli("bench", "promote", "count-words", bench.work / "results/base", "--store", "file:team-store", "--json"))
    assert json.loads(promoted.stdout)["saved_store"] == "file:sub/team-store"  # relative to the project root
    assert json.loads(overlay_file(bench.work).read_text())["store"] == "file:sub/team-store"
    assert (sub / "team-store/runs/count-words/base/run.json").is_file()
    assert not (bench.work / "private-store").exists()
    assert locate("count-words").profile.store == "file:sub/team-store"
    monkeypatch.chdir(bench.work)
    result = ok(cli("bench", "run", "count-words", "--run", "cand", "--results", "elsewhere"))
    assert "restored elsewhere/base" in result.stderr


def test_the_store_given_to_promote_is_saved_in_a_checkout(bench, tmp_path, monkeypatch):
    config = tmp_path / "stores.toml"
    config.write_text('[stores.team]\nurl = "file:team-store"\n')
    monkeypatch.setenv("ENVIROBENCH_STORES", str(config))
    ok(bench_run(bench, "base", "--unpaired"))
    promoted = ok(cli("bench", "promote", "count-words", "results/base", "--plugin", bench.plugin, "--store", "team"))
    assert "store of the profile: team" in promoted.stdout
    assert load_profile(bench.path).store == "team"
    assert (tmp_path / "team-store/runs/count-words/base/run.json").is_file()
    assert not (bench.work / "private-store").exists() and not (bench.work / ".envirobench").exists()
    result = ok(bench_run(bench, "cand", "--results", "elsewhere"))  # restored from the saved store
    assert "restored elsewhere/base" in result.stderr


def test_the_state_named_by_the_environment(installed, bench, tmp_path, monkeypatch):
    state = tmp_path / "project" / "state"
    monkeypatch.setenv(STATE_ENV, str(state))
    ok(cli("bench", "run", "count-words", "--run", "base", "--unpaired"))
    results = tmp_path / "project" / "results"  # the directory holding the state is the root
    assert (results / "base/run.json").is_file() and not (bench.work / "results").exists()
    promoted = ok(cli("bench", "promote", "count-words", results / "base"))
    assert f"created the project state {state}" in promoted.stderr
    assert (state / "profiles/toy-installed/count-words.json").is_file()
    assert (tmp_path / "project/private-store/runs/count-words/base/run.json").is_file()
    ok(cli("bench", "run", "count-words", "--run", "cand"))
    assert json.loads((results / "cand/run.json").read_text())["pairing"]["baseline"]["run_id"] == "base"


def test_the_overlay_is_read_strictly(installed, bench):
    ok(cli("bench", "run", "count-words", "--run", "base", "--unpaired"))
    ok(cli("bench", "promote", "count-words", "results/base"))
    overlay = overlay_file(bench.work)
    data = json.loads(overlay.read_text())
    overlay.write_text(json.dumps({**data, "adapters": {**data["adapters"], "gone": data["adapters"]["fake"]}}))
    result = cli("bench", "run", "count-words", "--run", "r", "--plan")
    assert result.exit_code == 1 and "adapter 'gone' is not in the installed profile" in result.output
    assert str(overlay) in result.output and "$.adapters['gone']" in result.output
    overlay.write_text(json.dumps({**data, "colour": "blue"}))
    result = cli("bench", "run", "count-words", "--run", "r", "--plan")
    assert result.exit_code == 1 and "unknown field(s) colour" in result.output
    overlay.write_text(json.dumps({**data, "profile": "other"}))
    result = cli("bench", "run", "count-words", "--run", "r", "--plan")
    assert result.exit_code == 1 and "$.profile" in result.output
    fake = data["adapters"]["fake"]
    overlay.write_text(json.dumps({**data, "adapters": {"fake": {**fake, "baseline": {"run_id": "base", "sha256": None}}}}))
    result = cli("bench", "run", "count-words", "--run", "r", "--plan")
    assert result.exit_code == 1 and "$.adapters['fake'].baseline.sha256" in result.output


def test_bench_run_takes_case_limit_and_adapter_option_as_run_does(bench):
    # --plan shows them; an --adapter-option replaces the profile's option of its key, in place.
    plan = ok(bench_run(bench, "r1", "--unpaired", "--plan", "--limit", "2", "--adapter-option", "off=c000002:1",
                        "--adapter-option", "extra=yes")).stdout.strip()
    assert plan == ("envirobench run --adapter fake --run r1 --model test/model --benchmark count-words "
                    "--dataset count-words=test/count-words-v1 --adapter-option off=c000002:1 --adapter-option extra=yes "
                    "--budget 1.0 --gate exact --results results --limit 2")
    plan = ok(bench_run(bench, "r1", "--unpaired", "--plan", "--case", "c000001", "--case", "c000003")).stdout
    assert plan.split().count("--case") == 2 and "--case c000001 --case c000003" in plan
    # And they mean what they mean to `run`: a partial run of those cases.
    ok(bench_run(bench, "part", "--unpaired", "--case", "c000001"))
    run = json.loads((bench.work / "results" / "part" / "run.json").read_text())
    assert run["partial"]["cases"] == 1
    ok(bench_run(bench, "lim", "--unpaired", "--limit", "2"))
    assert json.loads((bench.work / "results" / "lim" / "run.json").read_text())["partial"]["cases"] == 2
    result = bench_run(bench, "r2", "--unpaired", "--case", "c000001", "--limit", "1")
    assert result.exit_code == 2 and "--case and --limit cannot be combined" in result.output
    result = bench_run(bench, "r2", "--unpaired", "--adapter-option", "novalue")
    assert result.exit_code == 2 and "is not KEY=VALUE" in result.output


def test_bench_run_resume_is_runs(bench):
    plan = ok(bench_run(bench, "r1", "--unpaired", "--plan", "--resume")).stdout.split()
    assert plan[-1] == "--resume"
    ok(bench_run(bench, "done", "--unpaired"))
    again = ok(bench_run(bench, "done", "--unpaired", "--resume"))
    assert "done: already made" in again.output and "skipped (--resume)" in again.output


def test_a_mistyped_profile_name_is_one_line_with_the_close_matches(installed, bench):
    # Issue 36, finding 9: not "any installed plugin has no benchmarks/…".
    result = cli("bench", "run", "count-word", "--run", "r", "--unpaired")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "Error: no saved profile 'count-word' (did you mean 'count-words'?); profiles of the installed plugins: count-words "
        "(pass --plugin PATH for a checkout)"
    ]
    result = cli("bench", "run", "count-word", "--plugin", bench.plugin, "--run", "r", "--unpaired")
    assert result.exit_code == 1 and "bench.json in " in result.stderr and "(did you mean 'count-words'?)" in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_a_profile_whose_adapter_is_not_installed_says_what_to_pip_install(bench, tmp_path, monkeypatch):
    # Issue 36, finding 4: a category installed alone, its saved profile naming the reference adapter.
    plugin_dir = tmp_path / "alone"
    write_profile(plugin_dir, adapter="mine", adapters={
        "mine": {"model": "m", "distribution": "envirobench-adapter-not-here"},
        "reference": {"model": "m"},  # no distribution named: core's table knows this one
    })
    result = cli("bench", "run", "count-words", "--plugin", plugin_dir, "--run", "r", "--unpaired")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "Error: profile count-words uses adapter 'mine' from envirobench-adapter-not-here, which is not installed: "
        "pip install envirobench-adapter-not-here"
    ]
    assert not (bench.work / "results").exists()
    # --plan says it as a note, and still prints the command.
    result = ok(cli("bench", "run", "count-words", "--plugin", plugin_dir, "--run", "r", "--unpaired", "--plan"))
    assert result.stdout.startswith("envirobench run --adapter mine ")
    assert "note: profile count-words uses adapter 'mine' from envirobench-adapter-not-here, which is not installed" in result.stderr
    # Installed (it is, in this workspace) but not loaded: said so, not "pip install".
    result = cli("bench", "run", "count-words", "--plugin", plugin_dir, "--adapter", "reference", "--run", "r", "--unpaired")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "Error: profile count-words uses adapter 'reference' from envirobench-reference-adapter, which is installed but registers "
        "no adapter 'reference': is it left out by ENVIROBENCH_LOAD_PLUGINS, or did it fail to load (envirobench plugins list)?"
    ]
    # An executable of the adapter's name on PATH is what `run` would start: no refusal.
    stand_in = tmp_path / "path-bin" / "mine"
    stand_in.parent.mkdir()
    stand_in.write_text("#!/bin/sh\nexit 0\n")
    stand_in.chmod(0o755)
    monkeypatch.setenv("PATH", f"{stand_in.parent}{os.pathsep}{os.environ['PATH']}")
    write_profile(plugin_dir, adapter="mine", adapters={"mine": {"model": "m", "distribution": "envirobench-adapter-not-here"}})
    result = ok(cli("bench", "run", "count-words", "--plugin", plugin_dir, "--run", "r", "--unpaired", "--plan"))
    assert "not installed" not in result.stderr
    # A registered adapter runs as before; a bad distribution name is refused where it is written.
    write_profile(plugin_dir, adapters={"fake": {"model": "m", "distribution": "pip install x"}})
    result = cli("bench", "run", "count-words", "--plugin", plugin_dir, "--run", "r", "--unpaired", "--plan")
    assert result.exit_code == 1 and "is not a distribution name" in result.stderr and "$.adapters['fake'].distribution" in result.stderr


def test_shipped_profiles_name_the_distribution_of_the_reference_adapter():
    root = Path(__file__).resolve().parents[2]
    shipped = sorted(root.glob("envirobench-*/src/*/benchmarks/*/bench.json"))
    assert len(shipped) >= 20
    for path in shipped:
        for name, entry in load_profile(path).adapters.items():
            if name == "reference":
                assert entry.distribution == "envirobench-reference-adapter", path
