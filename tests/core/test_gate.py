"""Pairing and the gate, through real runs of the count-words type."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from envirobench import plugins
from envirobench.cli import GATE_FAILED_EXIT, main
from envirobench.errors import EnviroBenchError
from envirobench.runs import execute_run
from envirobench.testing import toy_plugin, write_count_dataset


def statuses(outcome):
    return {p: g.status for p, g in outcome.gate.by_profile.items()}


def test_regression_fails_the_gate(make_run, results):
    make_run("base", off="c000001:1")
    out = make_run("cand", off="c000002:3", baseline=results / "base")
    gate = out.gate.by_profile["exact"]
    assert gate.regressions == ("c000002",) and gate.improvements == ("c000001",)
    assert out.gate.status == "failed"
    # near tolerates ±1 so c000001 was never an error there; c000002 (+3) is worse
    assert out.gate.by_profile["near"].regressions == ("c000002",)
    summary = (results / "cand" / "summary.md").read_text()
    assert "Worse (1)" in summary and "c000002" in summary and "Better (1)" in summary and "c000001" in summary


def test_the_statistics_inform_and_the_gate_stays_per_case(make_run, results, monkeypatch):
    """docs/runs.md, "Statistics": one regression fails the gate though the paired interval of the
    change spans 0 and the McNemar test finds nothing; the gate never reads them."""
    make_run("base", off="c000001:1,c000004:2")
    out = make_run("cand", off="c000002:3", baseline=results / "base")
    assert out.gate.status == "failed" and out.gate.by_profile["exact"].regressions == ("c000002",)
    metrics = json.loads((results / "cand" / "metrics.json").read_text())
    exact = metrics["profiles"]["exact"]
    assert exact["paired"]["better"] == 2 and exact["paired"]["worse"] == 1 and exact["paired"]["p_value"] == 1.0
    change = exact["paired"]["change"]["accuracy"]
    assert change["low"] < 0 < change["high"]
    interval = exact["intervals"]["accuracy"]
    assert interval["low"] <= exact["headline"]["accuracy"] <= interval["high"]
    assert metrics["bootstrap"] == {"method": "percentile", "resamples": 1000, "seed": 1729, "confidence": 0.95, "cluster": None}
    assert "paired" not in json.dumps(json.loads((results / "cand" / "run.json").read_text())["gate"])
    summary = (results / "cand" / "summary.md").read_text()
    assert "2 better, 1 worse, p = 1 (exact McNemar test)" in summary
    assert "the gate is decided per case and does not use them" in summary and "bootstrap of the run's cases (1,000 resamples, seed 1729)" in summary

    # Statistics that say the opposite change nothing of the gate.
    from envirobench import statistics

    monkeypatch.setattr(statistics, "mcnemar", lambda better, worse: 0.0)
    again = make_run("again", off="c000002:3", baseline=results / "base")
    assert again.gate.record() == out.gate.record()
    assert json.loads((results / "again" / "metrics.json").read_text())["profiles"]["exact"]["paired"]["p_value"] == 0.0


def test_without_a_baseline_there_is_an_interval_and_no_paired_test(make_run, results):
    make_run("solo", off="c000001:1")
    exact = json.loads((results / "solo" / "metrics.json").read_text())["profiles"]["exact"]
    assert exact["paired"] is None and exact["intervals"]["accuracy"]["high"] == 1.0
    assert "McNemar" not in (results / "solo" / "summary.md").read_text()


def test_improvement_only_passes(make_run, results):
    make_run("base", off="c000001:1,c000004:2")
    out = make_run("cand", off="", baseline=results / "base")
    assert out.gate.status == "passed"
    assert out.gate.by_profile["exact"].improvements == ("c000001", "c000004",)
    brief = json.loads((results / "cand" / "review-brief.json").read_text())
    assert brief["profiles"]["exact"]["better"] == {"long": ["c000001"], "short": ["c000004"]}


def test_unstable_regression_does_not_fail(make_run, results):
    make_run("base", off="")
    make_run("control", off="c000003:1")  # the baseline system disagrees with itself on c000003
    out = make_run("cand", off="c000003:2", baseline=results / "base", controls=(results / "control",))
    gate = out.gate.by_profile["exact"]
    assert gate.unstable == ("c000003",) and gate.unstable_regressions == ("c000003",)
    assert gate.regressions == () and out.gate.status == "passed"
    assert gate.buckets["noisy"] == ("c000003",)


def test_failing_target_fails_even_without_regression(make_run, results):
    make_run("base", off="c000005:1")
    out = make_run("cand", off="c000005:1", baseline=results / "base", targets=("c000005",))
    assert out.gate.by_profile["exact"].regressions == ()
    assert out.gate.by_profile["exact"].failing_targets == ("c000005",)
    assert out.gate.status == "failed"


def test_no_baseline(make_run, results):
    out = make_run("solo", off="c000001:1")
    assert out.gate.status == "baseline required"
    assert "no baseline run" in (results / "solo" / "summary.md").read_text()


def test_unavailable_profile(results, make_spec, count_dataset):
    from envirobench.testing import CountWords

    class Partial(CountWords):
        ID = "count-words"

        def score_case(self, case, answer, prediction):
            scores = dict(super().score_case(case, answer, prediction))
            if case.category == "long":
                scores["near"] = None  # this profile cannot score long texts
            return scores

    import types

    from envirobench import hookimpl

    @hookimpl
    def envirobench_benchmark_types(register):
        register(Partial)

    @hookimpl
    def envirobench_datasets(register):
        register("test/count-words-v1", count_dataset)

    registry = plugins.build_registry(extra=[("partial", types.SimpleNamespace(envirobench_benchmark_types=envirobench_benchmark_types, envirobench_datasets=envirobench_datasets))])
    execute_run(make_spec("base"), registry)
    out = execute_run(make_spec("cand", baseline=results / "base", gates=("exact", "near")), registry)
    assert statuses(out) == {"exact": "passed", "near": "unavailable"}
    assert out.gate.status == "unavailable"
    metrics = json.loads((results / "cand" / "metrics.json").read_text())
    assert metrics["profiles"]["near"]["headline"] is None


def test_baseline_from_another_revision_is_refused(make_run, results, tmp_path, toy_registry, count_dataset):
    make_run("base")
    fixed = write_count_dataset(tmp_path / "v2", 12, version=2, answer_overrides={"c000003": 99})
    registry_v2 = plugins.build_registry(extra=[("toy", toy_plugin(("test/count-words-v1", fixed)))])
    with pytest.raises(EnviroBenchError, match="re-key it first"):
        make_run("cand", registry=registry_v2, baseline=results / "base")
    assert not (results / "cand").exists()


def test_failed_baseline_is_refused(make_run, make_spec, results, toy_registry):
    execute_run(make_spec("broken", options={"mode": "crash"}), toy_registry)
    with pytest.raises(EnviroBenchError, match="did not complete"):
        make_run("cand", baseline=results / "broken")


def test_require_no_regressions_exit_status(use_registry, make_run, results, fake, monkeypatch, toy_registry):
    use_registry(toy_registry)
    make_run("base")
    common = ["run", "--adapter", str(fake), "--model", "m", "--benchmark", "count-words", "--dataset",
              "count-words=test/count-words-v1", "--budget", "0", "--results", str(results),
              "--baseline-run", str(results / "base"), "--gate", "exact", "--require-no-regressions"]
    bad = CliRunner().invoke(main, [*common, "--run", "worse", "--adapter-option", "off=c000001:1"])
    assert bad.exit_code == GATE_FAILED_EXIT and "gate: failed" in bad.output
    good = CliRunner().invoke(main, [*common, "--run", "same"])
    assert good.exit_code == 0 and "gate: passed" in good.output
