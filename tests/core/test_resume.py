"""Salvage and resume (docs/runs.md, "Salvage and resume"): the cases an interrupted or failed run
finished are kept, `run --resume` asks the adapter only for the others and scores the run as an
uninterrupted one; incomplete runs are listed and cleaned; a failed run's ID is used again only
when asked; every line of the adapter's cases.jsonl is checked as untrusted output."""

from __future__ import annotations

import json
import os
import signal

import pytest
from click.testing import CliRunner
from reportkit import embedded_data
from test_adapter_boundary import wait_for

from envirobench import EnviroBenchError, salvage, system
from envirobench.cli import main
from envirobench.runs import execute_run

OFF = "c000002:1,c000007:-1"  # two wrong counts: the scores are not all alike


@pytest.fixture
def resumable(adapter_bin):
    return adapter_bin("resumable_adapter.py")


@pytest.fixture
def spec_of(make_spec, resumable, tmp_path):
    """spec_of(run_id, calls, **options) -> a RunSpec of the resumable adapter, its calls counted in `calls`."""

    def make(run_id, calls, *, resume=False, reuse_failed=False, fail_after=None, bad=None, trace=None, **options):
        control = calls.with_name(calls.name + ".control")  # what the adapter varies between attempts (resumable_adapter.py)
        control.unlink(missing_ok=True)
        if fail_after is not None or trace is not None:
            control.write_text(json.dumps({"fail_after": -1 if fail_after is None else fail_after, "bad": bad, "trace": trace}))
        return make_spec(run_id, adapter=resumable, options={"calls": str(calls), "off": OFF, **options}, resume=resume, reuse_failed=reuse_failed)

    return make


def called(path):
    return path.read_text().split() if path.exists() else []


def run_args(run_id, adapter, calls, results, *more):
    return ["run", "--adapter", str(adapter), "--run", run_id, "--model", "test/model", "--benchmark", "count-words",
            "--dataset", "count-words=test/count-words-v1", "--budget", "1", "--results", str(results), "--sandbox", "none",
            "--adapter-option", f"calls={calls}", "--adapter-option", f"off={OFF}", *more]


def without_identity(path, run_id):
    return path.read_bytes().replace(f'"{run_id}"'.encode(), b'"RUN"')


@pytest.mark.slow
def test_sigint_after_k_cases_then_resume_asks_only_for_the_rest_and_scores_as_an_uninterrupted_run(toy_cli, toy_registry, resumable, results, tmp_path, use_registry):
    use_registry(toy_registry)
    calls, whole_calls = tmp_path / "calls", tmp_path / "whole"
    proc = toy_cli(*run_args("cut", resumable, calls, results, "--adapter-option", "step=0.3"))
    assert wait_for(lambda: len(called(calls)) >= 4 or proc.poll() is not None, timeout=60), proc.communicate()  # at least 3 cases finished
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "--resume" in stderr and "Traceback" not in stderr
    (staging,) = results.iterdir()
    kept = [json.loads(line)["id"] for line in (staging / "adapter" / "cases.jsonl").read_text().splitlines()]
    assert 3 <= len(kept) < 12
    listed = CliRunner().invoke(main, ["runs", "list", str(results)])
    assert "incomplete" in listed.output and f"{len(kept)} cases finished" in listed.output and str(staging) in listed.output

    calls.unlink()
    resumed = CliRunner().invoke(main, run_args("cut", resumable, calls, results, "--adapter-option", "step=0.3", "--resume"))
    assert resumed.exit_code == 0, resumed.output
    assert f"{len(kept)} of 12 case(s) kept" in resumed.output
    # The adapter was asked only for the cases not finished, each once.
    all_ids = [f"c{i:06d}" for i in range(12)]
    assert called(calls) == [cid for cid in all_ids if cid not in kept]
    run = json.loads((results / "cut" / "run.json").read_text())
    assert run["status"] == "completed"
    assert run["resumed"]["from_run"] == "cut" and run["resumed"]["from_path"] == str(staging) and run["resumed"]["salvaged"] == len(kept)
    assert run["resumed"]["salvaged_cost_usd"] == pytest.approx(0.001 * len(kept)) and run["cost_usd"] == pytest.approx(0.012)

    whole = CliRunner().invoke(main, run_args("whole", resumable, whole_calls, results))
    assert whole.exit_code == 0, whole.output
    for name in ("metrics.json", "comparison.json"):
        assert without_identity(results / "cut" / name, "cut") == without_identity(results / "whole" / name, "whole"), name
    # Rescoring reads the salvaged cases back (checked against run.json's digest) and changes nothing.
    before = (results / "cut" / "metrics.json").read_bytes()
    rescored = CliRunner().invoke(main, ["score", "--run", str(results / "cut")])
    assert rescored.exit_code == 0, rescored.output
    assert (results / "cut" / "metrics.json").read_bytes() == before

    cleaned = CliRunner().invoke(main, ["runs", "clean", str(results)])
    assert cleaned.exit_code == 0 and f"removed {staging}" in cleaned.output
    assert sorted(p.name for p in results.iterdir()) == ["cut", "whole"]  # the runs themselves untouched


def test_a_failed_run_is_resumed_kept_under_a_new_name(spec_of, toy_registry, results, tmp_path):
    calls = tmp_path / "calls"
    failed = execute_run(spec_of("r", calls, fail_after=5), toy_registry)
    assert failed.status == "failed"
    assert called(calls) == [f"c{i:06d}" for i in range(5)]
    calls.unlink()
    warnings = []
    outcome = execute_run(spec_of("r", calls, resume=True), toy_registry, on_warning=warnings.append)
    assert outcome.status == "completed", outcome.message
    assert called(calls) == [f"c{i:06d}" for i in range(5, 12)]
    assert any("kept as" in w and "r.failed-1" in w for w in warnings)
    kept = json.loads((results / "r.failed-1" / "run.json").read_text())
    assert kept["status"] == "failed" and kept["run_id"] == "r"
    run = json.loads((results / "r" / "run.json").read_text())
    assert run["resumed"]["from_path"] == str(results / "r.failed-1") and run["resumed"]["salvaged"] == 5


def test_a_resumed_run_that_fails_again_is_resumed_from_both_attempts(spec_of, toy_registry, results, tmp_path):
    calls = tmp_path / "calls"
    assert execute_run(spec_of("r", calls, fail_after=3), toy_registry).status == "failed"
    assert execute_run(spec_of("r", calls, resume=True, fail_after=4), toy_registry).status == "failed"
    calls.unlink()
    outcome = execute_run(spec_of("r", calls, resume=True), toy_registry)
    assert outcome.status == "completed", outcome.message
    assert called(calls) == [f"c{i:06d}" for i in range(7, 12)]  # 3 + 4 kept
    assert json.loads((results / "r" / "run.json").read_text())["resumed"]["salvaged"] == 7


def test_a_run_that_failed_after_finishing_every_case_is_resumed_without_asking_for_any(spec_of, toy_registry, results, tmp_path):
    calls = tmp_path / "calls"
    assert execute_run(spec_of("r", calls, fail_after=12), toy_registry).status == "failed"
    calls.unlink()
    outcome = execute_run(spec_of("r", calls, resume=True), toy_registry)
    assert outcome.status == "completed", outcome.message
    assert called(calls) == []  # the adapter got a request of no cases
    assert json.loads((results / "r" / "adapter-request.json").read_text())["cases"] == []
    assert json.loads((results / "r" / "run.json").read_text())["resumed"]["salvaged"] == 12


def test_a_failed_runs_id_is_used_again_only_when_asked(spec_of, toy_registry, results, tmp_path):
    calls = tmp_path / "calls"
    assert execute_run(spec_of("r", calls, fail_after=2), toy_registry).status == "failed"
    with pytest.raises(EnviroBenchError, match="already exists.*--reuse-failed"):
        execute_run(spec_of("r", calls), toy_registry)
    calls.unlink()
    outcome = execute_run(spec_of("r", calls, reuse_failed=True), toy_registry)
    assert outcome.status == "completed"
    assert len(called(calls)) == 12  # all again: --reuse-failed keeps nothing
    assert json.loads((results / "r.failed-1" / "run.json").read_text())["status"] == "failed"
    # A completed run is never moved or continued.
    with pytest.raises(EnviroBenchError, match="already exists"):
        execute_run(spec_of("r", calls, reuse_failed=True), toy_registry)


def test_resume_with_nothing_to_resume_is_a_run_and_a_different_configuration_is_refused(spec_of, make_spec, resumable, toy_registry, results, tmp_path):
    calls = tmp_path / "calls"
    outcome = execute_run(spec_of("fresh", calls, resume=True), toy_registry)
    assert outcome.status == "completed" and len(called(calls)) == 12
    assert json.loads((results / "fresh" / "run.json").read_text())["resumed"] is None
    assert execute_run(spec_of("r", calls, fail_after=2), toy_registry).status == "failed"
    other = spec_of("r", calls, resume=True, step="0.01")
    with pytest.raises(EnviroBenchError, match="cannot resume 'r'.*adapter options"):
        execute_run(other, toy_registry)


def test_an_unfinished_last_line_is_not_a_case(spec_of, toy_registry, results, tmp_path):
    calls = tmp_path / "calls"
    assert execute_run(spec_of("r", calls, fail_after=3, bad="unfinished"), toy_registry).status == "failed"
    calls.unlink()
    assert execute_run(spec_of("r", calls, resume=True), toy_registry).status == "completed"
    assert called(calls)[0] == "c000003"


@pytest.mark.parametrize(("bad", "expected"), [
    ("malformed", "not valid JSON"),
    ("oversized", "over the limit of 1000 bytes"),
    ("unknown", "names case 'no-such-case', which is not a case of this run"),
    ("duplicate", "gives case 'c000000' a second time"),
    ("invalid", "the prediction for case 'c000004' is not a valid"),
])
def test_a_bad_line_of_cases_jsonl_refuses_the_resume_naming_file_and_line(spec_of, toy_registry, results, tmp_path, monkeypatch, bad, expected):
    monkeypatch.setattr(salvage, "MAX_LINE_BYTES", 1000)
    calls = tmp_path / "calls"
    assert execute_run(spec_of("r", calls, fail_after=3, bad=bad), toy_registry).status == "failed"
    calls.unlink()
    with pytest.raises(EnviroBenchError) as refused:
        execute_run(spec_of("r", calls, resume=True), toy_registry)
    message = str(refused.value)
    assert expected in message and "adapter/cases.jsonl:4" in message, message
    assert not calls.exists()  # the adapter was never started
    assert json.loads((results / "r" / "run.json").read_text())["status"] == "failed"  # nothing moved


def test_cases_jsonl_changed_since_core_copied_it_refuses_the_resume(spec_of, toy_registry, results, tmp_path):
    calls = tmp_path / "calls"
    assert execute_run(spec_of("r", calls, fail_after=2), toy_registry).status == "failed"
    record = json.loads((results / "r" / "run.json").read_text())
    lines = results / "r" / "adapter" / "cases.jsonl"
    assert record["adapter_output"]["files"]["cases.jsonl"]["size"] == lines.stat().st_size
    lines.write_text(lines.read_text() + '{"id": "c000003", "prediction": {"count": "many"}}\n')
    with pytest.raises(EnviroBenchError, match="it was changed since; refusing to use it"):
        execute_run(spec_of("r", calls, resume=True), toy_registry)  # changed since core copied it: refused


def test_runs_clean_leaves_a_run_being_made_and_says_when_there_is_nothing(results, tmp_path):
    results.mkdir()
    busy = results / ".busy.incomplete-abc"
    busy.mkdir()
    (busy / "run.json").write_text("{}")
    fd = system.lock_directory(busy)
    try:
        cleaned = CliRunner().invoke(main, ["runs", "clean", str(results)])
        assert cleaned.exit_code == 0 and "no incomplete runs" in cleaned.output and busy.exists()
    finally:
        os.close(fd)
    dry = CliRunner().invoke(main, ["runs", "clean", "--dry-run", str(results)])
    assert f"would remove {busy}" in dry.output and busy.exists()
    assert f"removed {busy}" in CliRunner().invoke(main, ["runs", "clean", str(results)]).output and not busy.exists()


def test_a_cases_log_file_named_in_the_result_is_linked_from_the_report(spec_of, toy_registry, results, tmp_path):
    outcome = execute_run(spec_of("traced", tmp_path / "calls", trace="traces/ID.log"), toy_registry)
    assert outcome.status == "completed", outcome.message
    data = embedded_data((outcome.run_dir / "report.html").read_text())
    index = [row[0] for row in data["cases"]]
    assert data["trace"] == [f"traces/{cid}.log" for cid in index]
    assert (outcome.run_dir / "adapter" / data["trace"][0]).read_text() == f"counted the words of {index[0]}\n"


@pytest.mark.parametrize("trace", ["traces/missing-ID.log", "../run.json", "/etc/passwd"])
def test_a_trace_that_is_not_a_copied_file_of_the_output_fails_the_run(spec_of, toy_registry, results, tmp_path, trace):
    outcome = execute_run(spec_of("traced", tmp_path / "calls", trace=trace), toy_registry)
    assert outcome.status == "failed" and "is not a file of the adapter's output that core copied" in outcome.message
    assert "$.cases[0].trace" in outcome.message
