"""The kit in this process (`Adapter.run`, as `ADAPTER run` calls it): the request's checks,
validation, concurrency, retries, the budget stop and the cache, case by case."""

from __future__ import annotations

import asyncio
import json
import subprocess
import threading
import time

import attrs
import pytest
from kit_helpers import (
    MODEL,
    TOY_DISTRIBUTION,
    kit_source,
    read,
    texts,
    write_request,
    write_toy_plugin,
)

from envirobench import BenchmarkType, CaseScore
from envirobench.testing import CountPrediction, CountWords
from envirobench_adapter_kit import Adapter, KitError, RetryableError, Transient
from envirobench_adapter_kit.benchmarks import find_type

PRICES = {MODEL: {"input_per_mtok": 1.0, "output_per_mtok": 2.0}}


def Kit(name: str = "kit-test", version: str = "1.0", **kw) -> Adapter:
    """An adapter made here, given core's test type (no plugin of this process registers it)."""
    kw.setdefault("types", [CountWords])
    return Adapter(name, version, **kw)


def words(case):
    return {"count": len(case.input["text"].split())}


@pytest.fixture
def request_file(tmp_path):
    """request_file(n=12, **kw) -> a count-words request of n cases (write_request's keywords)."""
    made = []

    def make(n: int = 12, **kw):
        path = write_request(tmp_path / f"request-{len(made)}.json", texts(n), input_dir=tmp_path / "input", **kw)
        made.append(path)
        return path

    return make


@pytest.fixture
def out(tmp_path):
    """out() -> a new, absent output directory."""
    counter = iter(range(1000))
    return lambda: tmp_path / f"out-{next(counter)}"


# -- the request ---------------------------------------------------------------------------------


def test_a_type_not_served_another_format_or_an_unknown_option_is_a_failed_result(request_file, out):
    kit = Kit(options={"temperature": "0"})
    kit.predict("count-words")(words)
    for request, expected in [
        (request_file(benchmark=("table-cells", "envirobench.table-cells.v1")), "$.benchmark.id: this adapter does not serve the benchmark type 'table-cells'; it serves count-words"),
        (request_file(benchmark=("count-words", "envirobench.count-words.v9")), "$.benchmark.format: the request's format 'envirobench.count-words.v9' is not"),
        (request_file(options={"temprature": "1"}), "$.options.temprature: unknown option 'temprature'; this adapter knows temperature, max_concurrency"),
        (request_file(options={"max_concurrency": "lots"}), "$.options.max_concurrency: must be a whole number"),
    ]:
        output = out()
        report = kit.run(request, output)
        result = read(output / "adapter-result.json")
        assert report.status == result["status"] == "failed" and result["error"].startswith(expected), result["error"]
        assert result["systems"] == [{"role": "candidate", "model": MODEL, "cost_usd": 0.0, "execution_failures": 0, "unpriced_attempts": 0}]


def test_a_type_served_but_not_installed_where_the_adapter_runs_is_refused(request_file, out):
    kit = Adapter("kit-test", "1.0")  # no plugin of this process registers count-words, and it is not given
    kit.predict("count-words")(words)
    output = out()
    assert kit.run(request_file(), output).status == "failed"
    assert "is not installed where this adapter runs" in read(output / "adapter-result.json")["error"]


def test_an_unreadable_request_or_a_used_output_directory_writes_no_result(make_adapter, tmp_path, request_file, out):
    kit = Kit()
    kit.predict("count-words")(words)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(KitError):
        kit.run(bad, out())
    used = out()
    used.mkdir()
    (used / "old.txt").write_text("x")
    with pytest.raises(KitError, match="not empty"):
        kit.run(request_file(), used)
    # The command line: exit status 1, one line, no traceback.
    adapter = make_adapter("adapter", kit_source("    return {'count': 1}"))
    done = subprocess.run([str(adapter), "run", "--request", str(bad), "--output", str(out())], capture_output=True, text=True)
    assert done.returncode == 1 and "Traceback" not in done.stderr and done.stderr.startswith("Error:")


def test_options_reach_predict_with_their_defaults(request_file, out):
    seen = []
    kit = Kit(options={"temperature": "0", "style": "plain"})

    @kit.predict("count-words")
    def count(case, ctx):
        seen.append(dict(ctx.options))
        return words(case)

    assert kit.run(request_file(1, options={"style": "terse", "max_concurrency": "2"}), out()).status == "completed"
    assert seen == [{"temperature": "0", "style": "terse"}]


def test_the_adapter_is_checked_when_it_is_made():
    for kw in ({"prices": {MODEL: {"input_per_mtok": -1, "output_per_mtok": 1}}}, {"prices": {MODEL: {"input_per_mtok": 1}}},
               {"max_concurrency": 0}, {"options": {"max_concurrency": "3"}}):
        with pytest.raises(ValueError):
            Adapter("kit-test", "1.0", **kw)
    with pytest.raises(ValueError):
        Adapter("../escape", "1.0")
    kit = Kit()
    with pytest.raises(ValueError, match="both"):
        kit.predict("count-words", max_input_tokens=10)


# -- predictions ---------------------------------------------------------------------------------


def test_a_prediction_that_does_not_validate_is_an_execution_failure_and_not_written(request_file, out):
    kit = Kit()

    @kit.predict("count-words")
    def count(case, ctx):
        return {"c000001": {"count": "2"}, "c000002": {"count": 2, "why": "extra"}, "c000003": {"count": float("nan")}}.get(case.id, words(case))

    output = out()
    report = kit.run(request_file(5), output)
    assert report.status == "completed"
    result, predictions = read(output / "adapter-result.json"), read(output / "predictions.json")
    assert result["systems"][0]["execution_failures"] == 3 and sorted(predictions) == ["c000000", "c000004"]
    errors = {cid: case["error"] for cid, case in read(output / "kit-report.json")["cases"].items() if case["error"]}
    assert errors["c000001"] == "not a valid envirobench.count-words.v1 prediction: $.count: expected an integer, got a string"
    assert "why" in errors["c000002"] and errors["c000003"].startswith("the prediction is not JSON")


def test_a_prediction_may_be_the_types_record(request_file, out):
    kit = Kit()
    kit.predict("count-words")(lambda case, ctx: CountPrediction(len(case.input["text"].split())))
    output = out()
    assert kit.run(request_file(3), output).status == "completed"
    assert read(output / "predictions.json") == {"c000000": {"count": 1}, "c000001": {"count": 2}, "c000002": {"count": 3}}


# -- concurrency ---------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["threads", "async"])
@pytest.mark.parametrize(("given", "expected"), [("flag", 3), ("option", 2), ("default", 4), ("one", 1)])
def test_at_most_max_concurrency_cases_run_at_once(request_file, out, kind, given, expected):
    lock, active, peak = threading.Lock(), [0], [0]

    def enter():
        with lock:
            active[0] += 1
            peak[0] = max(peak[0], active[0])

    def leave():
        with lock:
            active[0] -= 1

    kit = Kit()
    if kind == "threads":
        @kit.predict("count-words")
        def count(case, ctx):
            enter()
            time.sleep(0.03)
            leave()
            return words(case)
    else:
        @kit.predict("count-words")
        async def count(case, ctx):
            enter()
            await asyncio.sleep(0.03)
            leave()
            return words(case)

    request = request_file(10, options={"max_concurrency": "2"} if given == "option" else {})
    flag = {"flag": 3, "one": 1}.get(given)
    assert kit.run(request, out(), max_concurrency=flag).status == "completed"
    assert peak[0] == expected


# -- retries -------------------------------------------------------------------------------------


def test_transient_failures_back_off_exponentially_up_to_max_attempts(request_file, out, monkeypatch):
    slept = []
    real_sleep = asyncio.sleep
    monkeypatch.setattr(asyncio, "sleep", lambda s: slept.append(s) or real_sleep(0))
    monkeypatch.setattr("random.uniform", lambda a, b: b)  # no jitter
    kit = Kit(max_attempts=4, backoff_s=0.5, max_backoff_s=3.0)

    @kit.predict("count-words")
    def count(case, ctx):
        if case.id == "c000000":
            raise RetryableError("503")
        if case.id == "c000001" and ctx.attempt == 1:
            raise Transient("429", retry_after=2.5)
        return words(case)

    output = out()
    kit.run(request_file(2, options={"max_concurrency": "1"}), output)
    assert slept == [0.5, 1.0, 2.0, 2.5]  # c000000: 0.5, 1, 2 then no 4th wait; c000001: what the service asked
    cases = read(output / "kit-report.json")["cases"]
    assert [a["attempt"] for a in cases["c000000"]["failed_attempts"]] == [1, 2, 3, 4] and cases["c000000"]["status"] == "failed"
    assert cases["c000001"]["status"] == "predicted" and len(cases["c000001"]["failed_attempts"]) == 1


# -- the budget ----------------------------------------------------------------------------------


@pytest.mark.parametrize("concurrency", [1, 3, 8])
def test_concurrent_cases_never_spend_past_the_budget(request_file, out, concurrency):
    # Each case reserves $0.01 (its declared worst case) and spends $0.004 to $0.01.
    kit = Kit(prices=PRICES)

    @kit.predict("count-words", max_cost_usd=0.01)
    def count(case, ctx):
        time.sleep(0.01)
        ctx.cost(0.004 + 0.001 * (int(case.id[1:]) % 7))
        return words(case)

    output = out()
    report = kit.run(request_file(30, budget_usd=0.05), output, max_concurrency=concurrency)
    result = read(output / "adapter-result.json")
    assert report.status == result["status"] == "failed" and "stopped before the budget was exceeded" in result["error"]
    spent = result["systems"][0]["cost_usd"]
    assert spent == pytest.approx(report.spent_usd) and spent <= 0.05 < spent + 0.01  # stopped only when the next could not fit
    assert sum(c["cost_usd"] for c in result["cases"]) == pytest.approx(spent)
    assert report.count("predicted") == len(read(output / "predictions.json")) and report.count("not-started") > 0


def test_a_worst_case_from_declared_tokens_at_the_models_price(request_file, out):
    kit = Kit(prices=PRICES)

    @kit.predict("count-words", max_input_tokens=lambda case: 1000 * len(case.input["text"].split()), max_output_tokens=500)
    def count(case, ctx):
        ctx.usage(input_tokens=1000 * len(case.input["text"].split()), output_tokens=500)
        return words(case)

    # Cases c000000... cost 0.001 * words + 0.001: 0.002, 0.003, 0.004, 0.005 -> 0.014 of 0.015; the 5th (0.006) does not fit.
    report = kit.run(request_file(12, budget_usd=0.015), out(), max_concurrency=1)
    assert report.count("predicted") == 4 and report.spent_usd == pytest.approx(0.014)
    # A model without a price: its cost could not be bounded, so nothing starts.
    output = out()
    assert kit.run(request_file(3, model="other/model"), output).count("predicted") == 0
    assert "'other/model' has no price in this adapter's price table" in read(output / "adapter-result.json")["error"]


def test_a_budget_of_zero_runs_only_what_declares_no_cost(request_file, out):
    free, paid = Kit("free", prices=PRICES), Kit("paid", prices=PRICES)
    free.predict("count-words")(words)
    paid.predict("count-words", max_cost_usd=0.001)(words)
    assert free.run(request_file(3, budget_usd=0), out()).status == "completed"
    report = paid.run(request_file(3, budget_usd=0), out())
    assert report.status == "failed" and report.count("not-started") == 3 and "$0 spent of $0" in (report.error or "")


@pytest.mark.parametrize("spend", ["over-its-bound", "undeclared", "unpriced"])
def test_spending_the_kit_could_not_bound_stops_the_run(request_file, out, spend):
    kit = Kit(prices=PRICES)
    declared = {"over-its-bound": {"max_cost_usd": 0.001}, "undeclared": {}, "unpriced": {"max_cost_usd": 0.1}}[spend]

    @kit.predict("count-words", **declared)
    def count(case, ctx):
        if spend == "unpriced":
            ctx.usage(input_tokens=10, output_tokens=1, model="judge/unpriced", role="judge")
        else:
            ctx.cost(0.002)
        return words(case)

    output = out()
    report = kit.run(request_file(6, budget_usd=1.0), output, max_concurrency=1)
    result = read(output / "adapter-result.json")
    assert report.status == "failed" and report.count("predicted") == 1 and report.count("not-started") == 5
    if spend == "unpriced":
        assert "no price" in result["error"] and result["systems"][1] == {
            "role": "judge", "model": "judge/unpriced", "cost_usd": 0.0, "execution_failures": 0, "unpriced_attempts": 1}
        assert result["cases"][0]["cost_usd"] is None  # unknown, never 0
    else:
        assert "more than the $" in result["error"] and result["systems"][0]["cost_usd"] == 0.002


# -- the cache -----------------------------------------------------------------------------------


def counting_adapter(version="1.0", **kw):
    calls = []
    kit = Kit(version=version, prices=PRICES, **kw)

    @kit.predict("count-words", max_input_tokens=100, max_output_tokens=10)
    def count(case, ctx):
        calls.append(case.id)
        ctx.usage(input_tokens=50, output_tokens=5)
        return words(case)

    return kit, calls


def test_a_repeated_run_takes_finished_cases_from_the_cache(request_file, out, tmp_path):
    cache = tmp_path / "cache"
    kit, calls = counting_adapter()
    assert kit.run(request_file(4), out(), cache_dir=cache).status == "completed" and len(calls) == 4
    calls.clear()
    output = out()
    report = kit.run(request_file(4), output, cache_dir=cache)
    assert calls == [] and report.count("cached") == 4 and report.spent_usd == 0
    result, kit_report = read(output / "adapter-result.json"), read(output / "kit-report.json")
    assert result["status"] == "completed" and result["systems"][0]["cost_usd"] == 0
    assert all(c == {"id": c["id"], "cost_usd": 0.0, "wall_s": None} for c in result["cases"])
    assert all(c["cached_cost_usd"] == pytest.approx(60e-6) and c["cached_at"] for c in kit_report["cases"].values())
    # Another version, model or option, or a changed input: predicted again.
    other, other_calls = counting_adapter("1.1")
    other.run(request_file(4), out(), cache_dir=cache)
    assert len(other_calls) == 4
    optioned, optioned_calls = counting_adapter(options={"temperature": "0"})
    optioned.run(request_file(4, options={"temperature": "0.7"}), out(), cache_dir=cache)
    assert len(optioned_calls) == 4
    changed = write_request(tmp_path / "changed.json", {**texts(4), "c000002": "a different text"}, input_dir=tmp_path / "input")
    kit.run(changed, out(), cache_dir=cache)
    assert calls == ["c000002"]


def test_an_entry_that_is_broken_or_no_longer_valid_is_ignored_and_replaced(request_file, out, tmp_path):
    cache = tmp_path / "cache"
    kit, calls = counting_adapter()
    kit.run(request_file(3), out(), cache_dir=cache)
    entries = sorted((cache / "kit-test").rglob("*.json"))
    assert len(entries) == 3
    entries[0].write_text(entries[0].read_text()[:40])  # half an entry
    stale = read(entries[1])
    stale["prediction"] = {"count": "three"}  # what a changed Prediction class would refuse
    entries[1].write_text(json.dumps(stale))
    calls.clear()
    output = out()
    report = kit.run(request_file(3), output, cache_dir=cache)
    assert len(calls) == 2 and report.count("cached") == 1
    assert read(output / "kit-report.json")["cache"] == {"hits": 1, "ignored_entries": 2}
    calls.clear()
    assert kit.run(request_file(3), out(), cache_dir=cache).count("cached") == 3 and calls == []


def test_failed_and_unpriced_cases_are_not_cached(request_file, out, tmp_path):
    cache = tmp_path / "cache"
    kit = Kit(prices=PRICES)

    @kit.predict("count-words", max_cost_usd=0.1)
    def count(case, ctx):
        if case.id == "c000000":
            raise ValueError("no")
        ctx.usage(input_tokens=1, output_tokens=1, model="unpriced/model")
        return words(case)

    kit.run(request_file(2), out(), cache_dir=cache, max_concurrency=1)
    assert list(cache.rglob("*.json")) == []


def test_the_cache_comes_from_the_environment(request_file, out, tmp_path, monkeypatch):
    kit, calls = counting_adapter()
    monkeypatch.setenv("ENVIROBENCH_ADAPTER_CACHE", str(tmp_path / "env-cache"))
    kit.run(request_file(2), out())
    assert len(list((tmp_path / "env-cache" / "kit-test").rglob("*.json"))) == 2
    monkeypatch.delenv("ENVIROBENCH_ADAPTER_CACHE")
    calls.clear()
    assert kit.run(request_file(2), out()).count("cached") == 0 and len(calls) == 2


@attrs.frozen
class FileInput:
    path: str


@attrs.frozen
class FileSize:
    size: int


class FileSizes(BenchmarkType):
    """A type whose cases name a source file: the size of a file."""

    ID = "file-size"
    FORMAT = "test.file-size.v1"
    LABEL = "File size (test type)"
    SCORING_VERSION = "test.file-size.scores.v1"
    TIER = "component"
    PROFILES = ("exact",)
    HEADLINE = ("accuracy",)
    Input, Answer, Prediction = FileInput, FileSize, FileSize
    SOURCE_FIELDS = ("path",)

    def score_case(self, case, answer, prediction):
        return {"exact": CaseScore((), {"accuracy": float(answer == prediction)})}


def test_a_changed_source_file_is_predicted_again(tmp_path, out):
    calls = []
    kit = Kit(types=[FileSizes])

    @kit.predict("file-size")
    def size(case, ctx):
        calls.append(case.id)
        return {"size": case.sources[case.input["path"]].stat().st_size}

    input_dir = tmp_path / "input"
    (input_dir / "docs").mkdir(parents=True)
    (input_dir / "docs" / "a.txt").write_text("aaa")
    (input_dir / "docs" / "b.txt").write_text("bb")
    request = tmp_path / "request.json"
    request.write_text(json.dumps({
        "format": "envirobench.adapter-request.v1", "protocol": "envirobench.adapter.v1", "run_id": "r", "model": "m", "budget_usd": 0,
        "options": {}, "benchmark": {"id": "file-size", "format": "test.file-size.v1"},
        "dataset": {"id": "d", "version": 1, "input_digest": "0" * 64}, "input_dir": str(input_dir),
        "cases": [{"id": "a", "input": {"path": "docs/a.txt"}}, {"id": "b", "input": {"path": "docs/b.txt"}}]}))
    cache = tmp_path / "cache"
    kit.run(request, out(), cache_dir=cache)
    (input_dir / "docs" / "b.txt").write_text("bbbb")  # same input, another file
    calls.clear()
    output = out()
    kit.run(request, output, cache_dir=cache)
    assert calls == ["b"] and read(output / "predictions.json") == {"a": {"size": 3}, "b": {"size": 4}}
    # A source path leaving the input directory is refused before anything runs.
    escaping = tmp_path / "escaping.json"
    escaping.write_text(request.read_text().replace("docs/a.txt", "../request.json"))
    output = out()
    assert kit.run(escaping, output).status == "failed" and "'..'" in read(output / "adapter-result.json")["error"]


def test_describe_lists_what_the_adapter_serves(make_adapter):
    adapter = make_adapter("adapter", kit_source("    return {'count': 1}"))
    done = subprocess.run([str(adapter), "describe", "--json"], capture_output=True, text=True, check=True)
    described = json.loads(done.stdout)
    assert described["benchmarks"] == ["count-words"] and described["priced_models"] == [MODEL]


def test_a_type_is_found_among_the_installed_plugins_without_loading_their_datasets(tmp_path, monkeypatch):
    # The installed categories: their types' classes, and no Site dataset materialised on the way.
    monkeypatch.delenv("ENVIROBENCH_LOAD_PLUGINS")
    monkeypatch.setenv("ENVIROBENCH_SITE_DATA", str(tmp_path / "site-data"))
    found = find_type("site-results")
    if found is None:
        pytest.skip("envirobench-site is not installed")
    assert found.FORMAT == "envirobench.site-results.v1" and not (tmp_path / "site-data").exists()
    assert find_type("no-such-type") is None
    # A plugin found on sys.path like any installed distribution; ENVIROBENCH_LOAD_PLUGINS restricts them as core does.
    monkeypatch.syspath_prepend(str(write_toy_plugin(tmp_path / "toy")))
    assert type(find_type("count-words")) is CountWords
    monkeypatch.setenv("ENVIROBENCH_LOAD_PLUGINS", "envirobench-extract")
    assert find_type("count-words") is None and find_type("table-cells") is not None
    monkeypatch.setenv("ENVIROBENCH_LOAD_PLUGINS", TOY_DISTRIBUTION)
    assert type(find_type("count-words")) is CountWords and find_type("table-cells") is None


def test_the_budget_sums_what_is_spent_exactly():
    import math
    import random

    from envirobench_adapter_kit.budget import ExactSum

    draw = random.Random(34)
    costs = [draw.uniform(0, 1e-3) for _ in range(20_000)] + [0.1, 0.2, 1e-12, 1e3, -1e3]
    total = ExactSum()
    for cost in costs:
        total.add(cost)
    assert total.value == math.fsum(costs) and len(total.partials) < 10
