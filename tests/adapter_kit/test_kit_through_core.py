"""Kit adapters run as core runs them (`envirobench.runs.execute_run`), and the documented example
interrupted by SIGINT and resumed from its cache."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from kit_helpers import (
    MODEL,
    TOY_DISTRIBUTION,
    documented_example,
    kit_source,
    read,
    texts,
    write_request,
)

from envirobench.runs import execute_run
from envirobench.sandbox import find_bwrap


def test_the_documented_example_is_thirty_lines_or_fewer():
    assert len(documented_example().strip().splitlines()) <= 30


@pytest.mark.parametrize("sandbox", ["none", "bwrap"])
def test_the_documented_example_makes_a_scored_run(tmp_path, toy_registry, make_spec, make_adapter, sandbox):
    if sandbox == "bwrap" and find_bwrap()[0] is None:
        pytest.skip("bubblewrap is not installed (bin/test installs it)")
    adapter = make_adapter("count-words-example", documented_example())
    outcome = execute_run(make_spec("example", adapter, sandbox=sandbox, network=sandbox == "none"), toy_registry)
    assert outcome.status == "completed", outcome.message
    run = read(outcome.run_dir / "run.json")
    metrics = read(outcome.run_dir / "metrics.json")
    assert metrics["profiles"]["exact"]["headline"]["accuracy"] == 1.0
    # Each case: its words plus 20 input tokens at $1/Mtok, 2 output tokens at $2/Mtok.
    expected = sum((len(t.split()) + 20) * 1.0 + 2 * 2.0 for t in texts(12).values()) / 1e6
    assert run["cost_usd"] == pytest.approx(expected)
    assert run["systems"] == [{"role": "candidate", "model": MODEL, "cost_usd": pytest.approx(expected), "execution_failures": 0, "unpriced_attempts": 0}]
    assert run["adapter"]["name"] == "count-words-example"
    report = read(outcome.run_dir / "adapter" / "kit-report.json")
    assert report["counts"] == {"predicted": 12, "cached": 0, "failed": 0, "not-started": 0} and report["cache"] is None
    progress = (outcome.run_dir / "adapter" / "progress.jsonl").read_text().splitlines()
    assert progress[0] == '{"done":0,"total":12}' and progress[-1] == '{"done":12,"total":12}'


@pytest.mark.parametrize("sandbox", ["none", "bwrap"])
def test_a_second_run_with_the_adapter_cache_pays_for_nothing(tmp_path, toy_registry, make_spec, make_adapter, sandbox):
    if sandbox == "bwrap" and find_bwrap()[0] is None:
        pytest.skip("bubblewrap is not installed (bin/test installs it)")
    adapter = make_adapter("count-words-example", documented_example())
    cache = tmp_path / "adapter-cache"
    first = execute_run(make_spec("first", adapter, sandbox=sandbox, adapter_cache=cache), toy_registry)
    assert first.status == "completed", first.message
    assert len(list((cache / "count-words-example").rglob("*.json"))) == 12
    again = execute_run(make_spec("again", adapter, sandbox=sandbox, adapter_cache=cache), toy_registry)
    assert again.status == "completed", again.message
    assert read(again.run_dir / "run.json")["cost_usd"] == 0.0
    assert read(again.run_dir / "adapter" / "kit-report.json")["counts"]["cached"] == 12
    assert read(again.run_dir / "adapter" / "predictions.json") == read(first.run_dir / "adapter" / "predictions.json")


def test_a_type_the_adapter_does_not_serve_fails_the_run_saying_so(tmp_path, toy_registry, make_spec, make_adapter):
    adapter = make_adapter("other", documented_example().replace('kit.predict("count-words"', 'kit.predict("table-separators"'))
    outcome = execute_run(make_spec("unserved", adapter), toy_registry)
    assert outcome.status == "failed"
    assert "reported status 'failed'" in outcome.message and "does not serve the benchmark type 'count-words'" in outcome.message
    assert not (outcome.run_dir / "metrics.json").exists()


def test_transient_failures_are_retried_recorded_and_the_run_scored(tmp_path, toy_registry, make_spec, make_adapter):
    # Every third case fails its first attempt (a rate limit), c000004 its first two (a dropped connection).
    body = """    if ctx.attempt == 1 and int(case.id[1:]) % 3 == 0:
        raise Transient("429: slow down")
    if case.id == "c000004" and ctx.attempt < 3:
        raise ConnectionError("connection reset by peer")
    return {"count": len(case.input["text"].split())}"""
    adapter = make_adapter("flaky", kit_source(body, adapter="backoff_s=0.01"))
    outcome = execute_run(make_spec("flaky", adapter), toy_registry)
    assert outcome.status == "completed", outcome.message
    report = read(outcome.run_dir / "adapter" / "kit-report.json")
    failed = {cid: case["failed_attempts"] for cid, case in report["cases"].items() if case["failed_attempts"]}
    assert set(failed) == {"c000000", "c000003", "c000006", "c000009", "c000004"}
    assert failed["c000003"] == [{"attempt": 1, "error": "Transient: 429: slow down", "transient": True}]
    assert [a["error"] for a in failed["c000004"]] == ["ConnectionError: connection reset by peer"] * 2
    # Failures a retry made good are not execution failures: the run is scored.
    assert read(outcome.run_dir / "run.json")["systems"][0]["execution_failures"] == 0
    assert read(outcome.run_dir / "metrics.json")["profiles"]["exact"]["headline"]["accuracy"] == 1.0


def test_a_case_that_keeps_failing_is_a_technical_failure_and_nothing_is_scored(tmp_path, toy_registry, make_spec, make_adapter):
    body = """    if case.id == "c000005":
        raise ValueError("the model's reply could not be parsed")
    if case.id == "c000007":
        raise TimeoutError("read timed out")
    return {"count": len(case.input["text"].split())}"""
    adapter = make_adapter("broken", kit_source(body, adapter="backoff_s=0.001, max_attempts=3"))
    outcome = execute_run(make_spec("broken", adapter), toy_registry)
    assert outcome.status == "failed" and "2 unresolved execution failure(s)" in outcome.message
    assert not (outcome.run_dir / "metrics.json").exists()
    output = outcome.run_dir / "adapter"
    assert "c000005" not in read(output / "predictions.json") and len(read(output / "predictions.json")) == 10
    cases = read(output / "kit-report.json")["cases"]
    assert cases["c000005"]["error"] == "ValueError: the model's reply could not be parsed" and len(cases["c000005"]["failed_attempts"]) == 1
    assert len(cases["c000007"]["failed_attempts"]) == 3 and cases["c000007"]["error"].endswith("(after 3 attempts)")


def test_the_budget_stops_the_run_before_it_is_exceeded(tmp_path, toy_registry, make_spec, make_adapter):
    # Each case costs $0.01 and says so; the budget allows 4 of the 12, with 3 running at once.
    body = """    time.sleep(0.05)
    ctx.cost(0.01)
    return {"count": len(case.input["text"].split())}"""
    adapter = make_adapter("spender", kit_source(body, predict="max_cost_usd=0.01", adapter="max_concurrency=3"))
    outcome = execute_run(make_spec("budget", adapter, budget_usd=0.045), toy_registry)
    assert outcome.status == "failed" and "stopped before the budget was exceeded" in outcome.message, outcome.message
    assert not (outcome.run_dir / "metrics.json").exists()
    run = read(outcome.run_dir / "run.json")
    assert run["systems"][0]["cost_usd"] == pytest.approx(0.04) and run["systems"][0]["cost_usd"] <= 0.045
    report = read(outcome.run_dir / "adapter" / "kit-report.json")
    assert report["counts"] == {"predicted": 4, "cached": 0, "failed": 0, "not-started": 8}


def counted_example(make_adapter):
    """The documented example, with a line that notes each call of count() in $KIT_CALLS and
    takes $KIT_SLEEP seconds."""
    example = documented_example()
    counted = example.replace("def count(case, ctx):\n", "def count(case, ctx):\n    _called(case.id)\n", 1)
    assert counted != example
    prelude = """import os as _os, time as _time
def _called(case_id):
    with open(_os.environ["KIT_CALLS"], "a") as f:
        f.write(case_id + "\\n")
    _time.sleep(float(_os.environ["KIT_SLEEP"]))
"""
    return make_adapter("count-words-example", counted, prelude=prelude)


def cached_cases(cache):
    return {read(p)["key"]["case"] for p in cache.rglob("*.json") if not p.name.startswith(".")}


def interrupt_once_cached(process, cache, cases=3):
    """SIGINT to `process` once `cases` cases are in the cache; its exit status and stderr."""
    deadline = time.monotonic() + 60
    while len(cached_cases(cache)) < cases and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.02)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    return process.returncode, err


def test_an_interrupted_run_resumes_from_its_cache_without_predicting_finished_cases_again(tmp_path, make_adapter):
    adapter = counted_example(make_adapter)
    request = write_request(tmp_path / "request.json", texts(12), input_dir=tmp_path / "input")
    cache, calls = tmp_path / "cache", tmp_path / "calls.txt"
    env = {**os.environ, "ENVIROBENCH_ADAPTER_CACHE": str(cache), "KIT_CALLS": str(calls), "KIT_SLEEP": "0.25",
           "ENVIROBENCH_LOAD_PLUGINS": TOY_DISTRIBUTION}

    def start(output: str) -> subprocess.Popen[str]:
        return subprocess.Popen([str(adapter), "run", "--request", str(request), "--output", str(tmp_path / output), "--max-concurrency", "2"],
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # as a terminal's Ctrl-C finds it

    code, err = interrupt_once_cached(start("out-1"), cache)
    assert code == 130, err
    assert not (tmp_path / "out-1" / "adapter-result.json").exists()
    finished = cached_cases(cache)
    assert 3 <= len(finished) < 12
    assert set(calls.read_text().split()) >= finished

    calls.unlink()
    env["KIT_SLEEP"] = "0"
    second = start("out-2")
    _, err = second.communicate(timeout=60)
    assert second.returncode == 0, err
    called_again = set(calls.read_text().split())
    assert called_again.isdisjoint(finished) and called_again == set(texts(12)) - finished
    output = tmp_path / "out-2"
    assert read(output / "adapter-result.json")["status"] == "completed"
    assert read(output / "predictions.json") == {cid: {"count": len(t.split())} for cid, t in texts(12).items()}
    report = read(output / "kit-report.json")
    assert report["counts"]["cached"] == len(finished) and report["cache"]["hits"] == len(finished)
    for cid in finished:  # counted as nothing spent now, what it cost then recorded
        assert report["cases"][cid]["cost_usd"] == 0.0 and report["cases"][cid]["cached_cost_usd"] > 0


TOY_CLI = Path(__file__).resolve().parents[1] / "core" / "adapters" / "toy_cli.py"


def test_the_documented_example_resumes_a_run_interrupted_by_sigint_without_predicting_finished_cases(tmp_path, count_dataset, make_adapter):
    # Issue 34's and 36's done-when, through `envirobench run` and `run --resume`: the kit appends
    # each finished case to cases.jsonl, core keeps it when the run is interrupted and asks only
    # for the other cases; a case finished but not yet in cases.jsonl comes from the cache.
    adapter = counted_example(make_adapter)
    results, cache, calls = tmp_path / "results", tmp_path / "cache", tmp_path / "calls.txt"

    def run(sleep: str, *more: str) -> subprocess.Popen[str]:
        env = {**os.environ, "KIT_CALLS": str(calls), "KIT_SLEEP": sleep, "ENVIROBENCH_LOAD_PLUGINS": ""}
        return subprocess.Popen([sys.executable, str(TOY_CLI), str(count_dataset), "run", "--adapter", str(adapter), "--run", "ex", "--model", MODEL,
                                 "--benchmark", "count-words", "--dataset", "count-words=test/count-words-v1", "--budget", "1",
                                 "--results", str(results), "--sandbox", "none", "--adapter-cache", str(cache), "--adapter-env", "KIT_CALLS",
                                 "--adapter-env", "KIT_SLEEP", "--adapter-option", "max_concurrency=2", *more],
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    code, err = interrupt_once_cached(run("0.25"), cache)
    assert code == 130, err
    (staging,) = results.iterdir()
    kept = {json.loads(line)["id"] for line in (staging / "adapter" / "cases.jsonl").read_text().splitlines()}
    finished = cached_cases(cache)
    assert kept and kept <= finished and len(finished) < 12
    assert set(calls.read_text().split()) >= finished

    calls.unlink()
    second = run("0", "--resume")
    out, err = second.communicate(timeout=120)
    assert second.returncode == 0, err
    called_again = set(calls.read_text().split()) if calls.exists() else set()
    assert called_again.isdisjoint(finished) and called_again == set(texts(12)) - finished
    run_record = read(results / "ex" / "run.json")
    assert run_record["resumed"]["salvaged"] == len(kept)
    report = read(results / "ex" / "adapter" / "kit-report.json")
    assert len(report["cases"]) == 12 - len(kept)  # only the others were asked for
    assert read(results / "ex" / "metrics.json")["profiles"]["exact"]["headline"]["accuracy"] == 1.0


def test_predict_reports_progress_inside_a_case_and_core_passes_it_on(tmp_path, toy_registry, make_spec, make_adapter):
    body = "    for page in range(1, 4):\n        ctx.progress(page, 3, 'pages')\n        time.sleep(0.6)\n    return {'count': len(case.input['text'].split())}"
    adapter = make_adapter("paged", kit_source(body, adapter="max_concurrency=1"))
    seen = []
    outcome = execute_run(make_spec("paged", adapter, cases=("c000000", "c000001")), toy_registry, on_progress=lambda stage, done, total: seen.append((stage, done, total)))
    assert outcome.status == "completed", outcome.message
    parts = [json.loads(line)["part"] for line in (outcome.run_dir / "adapter" / "progress.jsonl").read_text().splitlines() if "part" in line]
    assert {"done": 3, "total": 3, "unit": "pages"} in parts and all(p["unit"] == "pages" for p in parts)
    assert ("adapter:pages", 3, 3) in seen


def test_ctx_log_lines_are_each_cases_log_linked_from_the_report(tmp_path, toy_registry, make_spec, make_adapter):
    body = "    ctx.log(f'reading {case.id}')\n    ctx.log('done')\n    return {'count': len(case.input['text'].split())}"
    adapter = make_adapter("logged", kit_source(body))
    outcome = execute_run(make_spec("logged", adapter), toy_registry)
    assert outcome.status == "completed", outcome.message
    result = read(outcome.run_dir / "adapter" / "adapter-result.json")
    traces = {c["id"]: c["trace"] for c in result["cases"]}
    assert traces == {cid: f"logs/{cid}.log" for cid in texts(12)}
    assert (outcome.run_dir / "adapter" / "logs" / "c000003.log").read_text() == "reading c000003\ndone\n"
    html = (outcome.run_dir / "report.html").read_text()
    start = html.index('id="eb-data">') + len('id="eb-data">')
    data = json.loads(html[start:html.index("</script>", start)])
    assert data["trace"] == [traces[row[0]] for row in data["cases"]]
    assert "c000003: reading c000003" in (outcome.run_dir / "adapter.log").read_text()  # still in the adapter's log too


def test_a_run_failed_by_an_execution_failure_is_resumed_asking_only_for_the_failed_case(tmp_path, toy_registry, make_spec, make_adapter, monkeypatch):
    # Issue 36: "one unresolved execution failure fails the whole run with nothing kept". Now the
    # cases predicted are kept, and --resume asks only for the one that failed.
    calls, broken = tmp_path / "calls", tmp_path / "broken"
    body = ("    with open(os.environ['KIT_CALLS'], 'a') as f:\n        f.write(case.id + '\\n')\n"
            "    if case.id == 'c000003' and os.path.exists(os.environ['KIT_BROKEN']):\n        raise ValueError('the parser broke')\n"
            "    return {'count': len(case.input['text'].split())}")
    adapter = make_adapter("breaks", kit_source(body))
    monkeypatch.setenv("KIT_CALLS", str(calls))
    monkeypatch.setenv("KIT_BROKEN", str(broken))
    broken.write_text("")
    failed = execute_run(make_spec("b", adapter, adapter_env=("KIT_CALLS", "KIT_BROKEN")), toy_registry)
    assert failed.status == "failed" and "execution failure" in failed.message
    assert len(calls.read_text().split()) == 12
    broken.unlink()
    calls.unlink()
    outcome = execute_run(make_spec("b", adapter, adapter_env=("KIT_CALLS", "KIT_BROKEN"), resume=True), toy_registry)
    assert outcome.status == "completed", outcome.message
    assert calls.read_text().split() == ["c000003"]
    assert read(outcome.run_dir / "run.json")["resumed"]["salvaged"] == 11
    assert read(outcome.run_dir / "metrics.json")["profiles"]["exact"]["headline"]["accuracy"] == 1.0
    assert read(tmp_path / "results" / "b.failed-1" / "run.json")["status"] == "failed"
