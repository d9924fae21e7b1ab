"""`envirobench run` end to end with the count-words test type and scripted adapters."""

from __future__ import annotations

import json
import secrets as secrets_module

import pytest
from click.testing import CliRunner

from envirobench import plugins
from envirobench.cli import main
from envirobench.errors import EnviroBenchError
from envirobench.runs import RunSpec, execute_run


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
