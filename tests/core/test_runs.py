"""`envirobench run` end to end with the count-words test type and scripted adapters."""

from __future__ import annotations

import json
import secrets as secrets_module

import pytest
from click.testing import CliRunner

from envirobench import plugins
from envirobench.cli import main
from envirobench.errors import EnviroBenchError
from envirobench.rundir import Partial
from envirobench.runs import RunSpec, execute_run, rescore_run
from envirobench.testing import toy_plugin, write_count_dataset


def test_completed_run_writes_every_file(make_spec, fake, results, toy_registry):
    outcome = execute_run(make_spec("r1", options={"off": "c000002:1"}), toy_registry)
    assert outcome.status == "completed"
    run_dir = results / "r1"
    for name in ("run.json", "metrics.json", "comparison.json", "summary.md", "review-brief.json", "adapter-request.json", "adapter.log", "adapter/predictions.json", "adapter/adapter-result.json"):
        assert (run_dir / name).is_file(), name
    record = json.loads((run_dir / "run.json").read_text())
    assert record["status"] == "completed" and record["adapter"]["name"] == "fake-adapter"
    assert record["dataset"]["id"] == "test/count-words-v1" and record["cases"]["scored"] == 12
    assert record["benchmark"]["scoring_version"] == "envirobench.count-words.scores.v1"
    assert record["gate"]["status"] == "baseline required"
    metrics = json.loads((run_dir / "metrics.json").read_text())
    assert metrics["profiles"]["exact"]["headline"] == {"accuracy": pytest.approx(11 / 12)}
    assert metrics["profiles"]["near"]["headline"] == {"accuracy": 1.0}
    assert metrics["cases"]["c000002"]["runs"]["candidate"]["exact"]["errors"] == [["wrong-count", "over"]]
    # Nothing is left in the results directory but the run itself.
    assert sorted(p.name for p in results.iterdir()) == ["r1"]


def test_existing_run_directory_is_refused(make_spec, fake, results, toy_registry):
    execute_run(make_spec("r1"), toy_registry)
    before = (results / "r1" / "run.json").read_bytes()
    with pytest.raises(EnviroBenchError, match="already exists"):
        execute_run(make_spec("r1"), toy_registry)
    assert (results / "r1" / "run.json").read_bytes() == before


@pytest.mark.parametrize(
    ("mode", "fragment"),
    [
        ("crash", "exited with status 7"),
        ("no-result", "wrote no adapter-result.json"),
        ("bad-json", "not valid JSON"),
        ("wrong-format", "is not 'envirobench.count-words.v1'"),
        ("missing", "have no prediction: 'c000000'"),
        ("duplicate", "'c000000' appears more than once"),
        ("extra", "not requested: 'not-a-case'"),
        ("invalid-prediction", "prediction for case 'c000001' is not a valid"),
        ("failures", "2 unresolved execution failure(s)"),
        ("unpriced", "1 unpriced attempt(s)"),
        ("overspend", "over the budget"),
        ("failed-status", "model endpoint unavailable"),
        ("data-escape", "'..'"),
    ],
)
def test_technical_failures_are_never_scored(use_registry, make_spec, fake, results, toy_registry, monkeypatch, mode, fragment):
    use_registry(toy_registry)
    args = ["run", "--adapter", str(fake), "--run", f"bad-{mode}", "--model", "m", "--benchmark", "count-words",
            "--dataset", "count-words=test/count-words-v1", "--budget", "1", "--adapter-option", f"mode={mode}",
            "--results", str(results)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1, result.output
    assert fragment in result.output
    assert "Traceback" not in result.output
    run_dir = results / f"bad-{mode}"
    record = json.loads((run_dir / "run.json").read_text())
    assert record["status"] == "failed" and fragment in record["failure"]["message"]
    assert not (run_dir / "metrics.json").exists() and not (run_dir / "summary.md").exists()
    assert record["gate"] is None
    assert (run_dir / "adapter.log").is_file() and (run_dir / "adapter").is_dir()


def test_timeout_is_a_technical_failure(make_spec, fake, results, toy_registry):
    outcome = execute_run(make_spec("slow", options={"mode": "sleep"}, timeout_s=1), toy_registry)
    assert outcome.status == "failed" and "timeout of 1 s" in outcome.message
    assert not (results / "slow" / "metrics.json").exists()


def test_stdout_and_stderr_go_to_the_log(make_spec, fake, results, toy_registry):
    execute_run(make_spec("crash", options={"mode": "crash"}), toy_registry)
    assert "something broke inside the adapter" in (results / "crash" / "adapter.log").read_text()


def test_bad_requests_write_nothing(make_spec, fake, results, toy_registry):
    with pytest.raises(EnviroBenchError, match="not a profile"):
        execute_run(make_spec("x", gates=("nope",)), toy_registry)
    with pytest.raises(EnviroBenchError, match="not a case"):
        execute_run(make_spec("x", targets=("ghost",)), toy_registry)
    with pytest.raises(EnviroBenchError, match="must be letters"):
        execute_run(make_spec("../x"), toy_registry)
    with pytest.raises(EnviroBenchError, match="unknown adapter"):
        execute_run(make_spec("x", adapter="no-such-adapter-anywhere"), toy_registry)
    assert not results.exists() or list(results.iterdir()) == []


def test_interrupted_run_is_not_mistaken_for_a_run(make_spec, fake, results, toy_registry, monkeypatch):
    from envirobench import runs

    def interrupt(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(runs, "run_adapter", interrupt)
    with pytest.raises(KeyboardInterrupt):
        execute_run(make_spec("cut"), toy_registry)
    assert not (results / "cut").exists()
    (staged,) = results.iterdir()
    assert staged.name.startswith(".cut.incomplete-")
    assert json.loads((staged / "run.json").read_text())["status"] == "failed"


def test_adapter_finds_no_answer_anywhere(tmp_path, results, adapter_bin):
    from envirobench.testing import write_count_dataset

    # Distinctive answers, fresh on every test run (so no stale file anywhere can hold them),
    # that never occur in inputs: finding one means a leak.
    base = 10**11 + secrets_module.randbelow(10**11)
    secrets = {f"c{i:06d}": base + i * 13 for i in range(6)}
    dataset = write_count_dataset(tmp_path / "secret-v1", 6, dataset_id="test/secret-v1", answer_overrides=secrets)
    registry = plugins.build_registry(extra=[("toy", __import__("envirobench.testing", fromlist=["toy_plugin"]).toy_plugin(("test/secret-v1", dataset)))])
    snoop = adapter_bin("snoop_adapter.py")
    fake = adapter_bin("fake_adapter.py")
    # A finished run with answers in its comparison.json sits in the same results directory.
    execute_run(RunSpec(adapter=str(fake), run_id="base", model="m", benchmark="count-words", dataset="test/secret-v1", budget_usd=0, results_dir=results), registry)
    assert str(base) in (results / "base" / "comparison.json").read_text()
    outcome = execute_run(RunSpec(adapter=str(snoop), run_id="snoop", model="m", benchmark="count-words", dataset="test/secret-v1", budget_usd=0, results_dir=results, baseline=results / "base"), registry)
    assert outcome.status == "completed"
    seen = (results / "snoop" / "adapter" / "seen.txt").read_text()
    assert "cases" in seen and "word" in seen  # it did read its request
    for value in secrets.values():
        assert str(value) not in seen
    # Neither the dataset nor the results tree (which holds the baseline's comparison.json) is named.
    assert str(dataset) not in seen and str(results) not in seen
    request = json.loads((results / "snoop" / "adapter-request.json").read_text())
    assert set(request) == {"format", "protocol", "run_id", "model", "budget_usd", "options", "benchmark", "dataset", "input_dir", "cases"}
    assert set(request["cases"][0]) == {"id", "input"}


# -- partial runs (--case, --limit) ------------------------------------------------------------


def _run_json(run_dir):
    return json.loads((run_dir / "run.json").read_text())


def test_limit_runs_and_scores_the_first_cases_only(make_spec, results, toy_registry):
    outcome = execute_run(make_spec("p", limit=3, options={"off": "c000001:1,c000007:1"}), toy_registry)
    assert outcome.status == "completed" and outcome.partial == Partial(3, 12, "--limit 3")
    run_dir = results / "p"
    request = json.loads((run_dir / "adapter-request.json").read_text())
    assert [c["id"] for c in request["cases"]] == ["c000000", "c000001", "c000002"]  # only these went to the adapter
    record = _run_json(run_dir)
    assert record["partial"] == {"cases": 3, "of": 12, "selected_by": "--limit 3"}
    assert record["cases"]["requested"] == 3 and record["cases"]["scored"] == 3
    metrics = json.loads((run_dir / "metrics.json").read_text())
    assert sorted(metrics["cases"]) == ["c000000", "c000001", "c000002"]
    assert metrics["profiles"]["exact"]["headline"] == {"accuracy": pytest.approx(2 / 3)}
    assert [c["id"] for c in json.loads((run_dir / "comparison.json").read_text())["cases"]] == ["c000000", "c000001", "c000002"]
    summary = (run_dir / "summary.md").read_text()
    assert summary.index("**Partial run: 3 of 12 cases** (--limit 3)") < summary.index("Verdict")
    report = (run_dir / "report.html").read_text()
    assert "Partial run: 3 of 12 cases</strong> (--limit 3)" in report
    assert report.index('id="partial"') < report.index('id="verdict"')


def test_case_selects_cases_in_dataset_order(make_spec, results, toy_registry):
    outcome = execute_run(make_spec("p", cases=("c000005", "c000001", "c000005")), toy_registry)
    assert outcome.partial == Partial(2, 12, "--case c000005 --case c000001")
    request = json.loads((results / "p" / "adapter-request.json").read_text())
    assert [c["id"] for c in request["cases"]] == ["c000001", "c000005"]
    many = execute_run(make_spec("many", cases=tuple(f"c{i:06d}" for i in range(7))), toy_registry)
    assert many.partial.selected_by == "--case c000000 --case c000001 --case c000002 --case c000003 --case c000004 and 2 more"


def test_a_selection_of_every_case_is_a_full_run(make_spec, results, toy_registry):
    warnings = []
    outcome = execute_run(make_spec("all", limit=50), toy_registry, on_warning=warnings.append)
    assert outcome.partial is None and _run_json(results / "all")["partial"] is None
    assert any("every case" in w for w in warnings)
    assert "Partial run" not in (results / "all" / "summary.md").read_text()


def test_bad_selections_write_nothing(tmp_path, make_spec, results):
    dataset = write_count_dataset(tmp_path / "retiring", 6, retired={"c000003": "illegible"})
    registry = plugins.build_registry(extra=[("toy", toy_plugin(("test/count-words-v1", dataset)))])
    with pytest.raises(EnviroBenchError, match="--case 'ghost' is not a case of the dataset"):
        execute_run(make_spec("x", cases=("ghost",)), registry)
    with pytest.raises(EnviroBenchError, match="--case 'c000003' is retired from the dataset \\(illegible\\)"):
        execute_run(make_spec("x", cases=("c000003",)), registry)
    with pytest.raises(EnviroBenchError, match="--limit must be at least 1"):
        execute_run(make_spec("x", limit=0), registry)
    with pytest.raises(EnviroBenchError, match="cannot be combined"):
        execute_run(make_spec("x", cases=("c000001",), limit=2), registry)
    with pytest.raises(EnviroBenchError, match="--target-case 'c000004' is not one of the cases of this partial run"):
        execute_run(make_spec("x", limit=2, targets=("c000004",)), registry)
    assert not results.exists() or list(results.iterdir()) == []


def test_a_failed_partial_run_says_it_was_partial(make_spec, results, toy_registry):
    outcome = execute_run(make_spec("pf", limit=2, options={"mode": "crash"}), toy_registry)
    assert outcome.status == "failed" and outcome.partial == Partial(2, 12, "--limit 2")
    assert _run_json(results / "pf")["partial"]["cases"] == 2


def test_a_partial_candidate_is_paired_with_a_full_baseline_on_its_cases(make_run, results):
    make_run("base", off="c000001:1,c000009:1")
    make_run("ctl", off="c000001:1,c000002:1")
    outcome = make_run("p", off="c000003:1,c000009:1", limit=4, baseline=results / "base", controls=(results / "ctl",))
    metrics = json.loads((results / "p" / "metrics.json").read_text())
    assert metrics["runs"] == ["candidate", "baseline", "control-1"]
    assert sorted(metrics["cases"]) == [f"c{i:06d}" for i in range(4)]  # the baseline's c000009 is not compared
    exact = metrics["profiles"]["exact"]
    assert exact["regressions"] == ["c000003"] and exact["improvements"] == ["c000001"] and exact["unstable"] == ["c000002"]
    assert exact["baseline_headline"] == {"accuracy": pytest.approx(3 / 4)}
    assert outcome.gate.status == "failed" and outcome.partial == Partial(4, 12, "--limit 4")
    assert "the compared runs were rescored on the same cases" in (results / "p" / "summary.md").read_text()


def test_a_partial_run_is_never_a_baseline_or_a_control(make_run, make_spec, results, toy_registry):
    make_run("full")
    make_run("part", limit=3)
    with pytest.raises(EnviroBenchError, match="the baseline run 'part' is a partial run: 3 of 12 cases \\(--limit 3\\); a partial run is never a baseline or a control") as caught:
        execute_run(make_spec("c1", baseline=results / "part"), toy_registry)
    assert caught.value.field == "$.partial" and str(results / "part" / "run.json") in str(caught.value)
    with pytest.raises(EnviroBenchError, match="the control-1 run 'part' is a partial run"):
        execute_run(make_spec("c2", baseline=results / "full", controls=(results / "part",)), toy_registry)
    assert sorted(p.name for p in results.iterdir()) == ["full", "part"]  # refused before the adapter ran
    with pytest.raises(EnviroBenchError, match="the baseline run 'part' is a partial run"):
        rescore_run(results / "full", toy_registry, baseline=results / "part")
    with pytest.raises(EnviroBenchError, match="the control-1 run 'part' is a partial run"):
        rescore_run(results / "part", toy_registry, baseline=results / "full", controls=[results / "part"])


def test_rescoring_a_partial_run_keeps_it_partial(make_run, results, toy_registry):
    make_run("base", off="c000000:1")
    make_run("p", off="c000002:1", cases=("c000000", "c000002", "c000006"))
    run_dir = results / "p"
    before = {name: (run_dir / name).read_bytes() for name in ("metrics.json", "comparison.json", "summary.md", "report.html")}
    outcome = rescore_run(run_dir, toy_registry)  # nothing changed: the same bytes
    assert outcome.partial == Partial(3, 12, "--case c000000 --case c000002 --case c000006")
    assert {name: (run_dir / name).read_bytes() for name in before} == before
    outcome = rescore_run(run_dir, toy_registry, baseline=results / "base")
    record = _run_json(run_dir)
    assert record["partial"] == {"cases": 3, "of": 12, "selected_by": "--case c000000 --case c000002 --case c000006"}
    assert record["history"][-1]["action"] == "rescore" and record["pairing"]["baseline"]["run_id"] == "base"
    metrics = json.loads((run_dir / "metrics.json").read_text())
    assert sorted(metrics["cases"]) == ["c000000", "c000002", "c000006"]
    assert metrics["profiles"]["exact"]["improvements"] == ["c000000"] and metrics["profiles"]["exact"]["regressions"] == ["c000002"]
    assert "**Partial run: 3 of 12 cases**" in (run_dir / "summary.md").read_text()
    with pytest.raises(EnviroBenchError, match="--target-case 'c000004' is not one of the cases of this partial run"):
        rescore_run(run_dir, toy_registry, targets=["c000004"])


def test_cli_case_and_limit(use_registry, fake, results, toy_registry):
    use_registry(toy_registry)
    base = ["run", "--adapter", str(fake), "--model", "m", "--benchmark", "count-words", "--dataset", "count-words=test/count-words-v1",
            "--budget", "1", "--results", str(results), "--sandbox", "none"]
    result = CliRunner().invoke(main, [*base, "--run", "p", "--limit", "2"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "partial run: 2 of 12 cases (--limit 2): never a baseline, a control or on a leaderboard"
    result = CliRunner().invoke(main, [*base, "--run", "q", "--case", "c000004", "--case", "c000008", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["partial"] == {"cases": 2, "of": 12, "selected_by": "--case c000004 --case c000008"}
    result = CliRunner().invoke(main, [*base, "--run", "full", "--json"])
    assert json.loads(result.stdout)["partial"] is None
    result = CliRunner().invoke(main, [*base, "--run", "x", "--case", "c000001", "--limit", "2"])
    assert result.exit_code == 2 and "cannot be combined" in result.output
    result = CliRunner().invoke(main, [*base, "--run", "x", "--limit", "0"])
    assert result.exit_code == 2
    result = CliRunner().invoke(main, [*base, "--run", "x", "--baseline-run", str(results / "p")])
    assert result.exit_code == 1 and "is a partial run" in result.output and "Traceback" not in result.output
    result = CliRunner().invoke(main, ["score", "--run", str(results / "p"), "--json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["partial"]["cases"] == 2


def test_progress_is_reported_for_the_adapter_and_for_scoring(make_spec, toy_registry):
    seen = []
    outcome = execute_run(make_spec("progress"), toy_registry, on_progress=lambda *a: seen.append(a))
    assert outcome.status == "completed"
    adapter = [(d, t) for stage, d, t in seen if stage == "adapter"]
    assert adapter and adapter[-1] == (12, 12)  # the fake adapter writes progress.jsonl
    assert [(d, t) for stage, d, t in seen if stage == "scoring"] == [(0, 12), (12, 12)]
    rescored = []
    rescore_run(outcome.run_dir, toy_registry, on_progress=lambda *a: rescored.append(a))
    assert rescored == [("scoring", 0, 12), ("scoring", 12, 12)]
