"""The OpenAI-compatible adapter against a loopback server answering in the API's format: right,
malformed, refused, rate-limited, slow, failing and unmetered answers, the budget stop (counted
in the requests the server received), and the key kept out of every output."""

from __future__ import annotations

import base64
import json
import math
import subprocess
import sys

import pytest
from loopback import (
    Loopback,
    error,
    malformed,
    no_usage,
    rate_limited,
    refused,
    right,
    server_error,
    slow,
)
from openai_helpers import KEY, MODEL, PRICE, options, read

from envirobench import get_registry, schema_for
from envirobench_adapter_kit import Case
from envirobench_adapters_openai.adapter import input_bound, make_adapter
from envirobench_adapters_openai.options import DEFAULTS
from envirobench_adapters_openai.sources import pdf_pages
from envirobench_extract.table_separators import Prediction

SEPARATORS = {"rows": [12], "columns": [20, 31]}


def cost(input_tokens: int, output_tokens: int) -> float:
    return (input_tokens * PRICE["input_per_mtok"] + output_tokens * PRICE["output_per_mtok"]) / 1e6


def outputs_text(directory) -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(directory.rglob("*")) if p.is_file())


def test_right_answers_become_predictions_priced_from_the_usage_field(make_request, out, capfd):
    with Loopback([right(SEPARATORS, usage=(1234, 56))]) as server:
        request = make_request(3, options(server.url))
        output = out()
        report = make_adapter().run(request, output)
    assert report.status == "completed" and report.count("predicted") == 3
    assert read(output / "predictions.json") == {f"t{i:03d}": SEPARATORS for i in range(3)}
    result = read(output / "adapter-result.json")
    assert result["adapter"]["name"] == "openai-compatible" and "+prompts." in result["adapter"]["version"]
    [candidate] = result["systems"]
    assert candidate["model"] == MODEL and candidate["execution_failures"] == 0
    assert candidate["cost_usd"] == pytest.approx(3 * cost(1234, 56))
    # What the server was sent: the API's request format, the served model name, the key as a bearer token.
    assert len(server.received) == 3
    sent = server.received[0]
    assert sent.path == "/v1/chat/completions" and sent.headers["authorization"] == f"Bearer {KEY}"
    body = sent.body
    assert body["model"] == "served-name" and body["max_tokens"] == 200 and body["temperature"] == 0
    assert body["response_format"]["type"] == "json_schema"
    schema = body["response_format"]["json_schema"]
    assert schema["strict"] is True and schema["schema"]["properties"] == schema_for(Prediction)["properties"]
    system, user = body["messages"]
    assert system["role"] == "system" and user["role"] == "user"
    images = [part["image_url"]["url"] for part in user["content"] if part["type"] == "image_url"]
    sent_images = {base64.b64decode(url.split(",", 1)[1]) for r in server.received for part in r.body["messages"][1]["content"]
                   if part["type"] == "image_url" for url in [part["image_url"]["url"]]}
    assert len(images) == 1 and images[0].startswith("data:image/png;base64,")
    assert sent_images == {(request.parent / "input" / "assets" / f"t{i}.png").read_bytes() for i in range(3)}
    assert '"image": "assets/t' in user["content"][0]["text"]
    # The prompt's identity is in the run's log; the key is nowhere but the Authorization header.
    log = capfd.readouterr().err
    assert "prompt table-separators v1 sha256:" in log and "prompt system v1 sha256:" in log
    assert KEY not in log and KEY not in outputs_text(output)


@pytest.mark.parametrize("answer, reason", [(malformed(), "the reply is not JSON"), (refused(), "the model refused: I'm sorry")])
def test_a_malformed_or_refused_answer_is_an_execution_failure_not_retried(make_request, out, answer, reason):
    with Loopback([answer]) as server:
        output = out()
        report = make_adapter().run(make_request(2, options(server.url)), output)
    assert len(server.received) == 2  # one call per case: neither is retried
    assert report.count("failed") == 2 and read(output / "predictions.json") == {}
    record = read(output / "kit-report.json")["cases"]["t000"]
    assert record["status"] == "failed" and reason in record["error"] and record["failed_attempts"][0]["transient"] is False
    [candidate] = read(output / "adapter-result.json")["systems"]
    # Never a score: core fails a run with execution failures; the tokens spent are still paid for.
    assert candidate["execution_failures"] == 2
    assert candidate["cost_usd"] == pytest.approx(2 * cost(*answer.usage))


def test_a_prediction_the_type_refuses_is_an_execution_failure(make_request, out):
    with Loopback([right({"rows": ["twelve"], "columns": []})]) as server:
        output = out()
        report = make_adapter().run(make_request(1, options(server.url)), output)
    assert report.count("failed") == 1 and len(server.received) == 1
    assert "not a valid envirobench.table-separators.v1 prediction" in read(output / "kit-report.json")["cases"]["t000"]["error"]


def test_a_rate_limit_is_retried_after_the_time_retry_after_asks(make_request, out):
    with Loopback([rate_limited(retry_after_s=1), right(SEPARATORS)]) as server:
        output = out()
        report = make_adapter(backoff_s=0.01, max_backoff_s=5).run(make_request(1, options(server.url)), output)
    assert report.count("predicted") == 1
    first, second = server.received
    assert first.answer.status == 429 and second.answer.status == 200
    assert second.at - first.at >= 1.0  # Retry-After: 1 honoured, though the backoff alone would be 0.01 s
    [failed] = read(output / "kit-report.json")["cases"]["t000"]["failed_attempts"]
    assert failed["transient"] is True and "HTTP 429" in failed["error"]


def test_a_slow_server_times_out_and_is_retried(make_request, out):
    with Loopback([slow(right(SEPARATORS), 2.0), right(SEPARATORS)]) as server:
        output = out()
        report = make_adapter(backoff_s=0.01, max_backoff_s=0.05).run(make_request(1, options(server.url, timeout_s="0.3")), output)
    assert report.count("predicted") == 1 and len(server.received) == 2
    [failed] = read(output / "kit-report.json")["cases"]["t000"]["failed_attempts"]
    assert failed["transient"] is True and "did not answer in time" in failed["error"]


@pytest.mark.parametrize("answer, reason", [(server_error(), "HTTP 500"), (slow(right(SEPARATORS), 1.0), "did not answer in time")])
def test_a_case_that_fails_every_attempt_is_an_execution_failure(make_request, out, answer, reason):
    with Loopback([answer]) as server:
        output = out()
        report = make_adapter(backoff_s=0.01, max_backoff_s=0.05).run(make_request(1, options(server.url, timeout_s="0.2")), output)
    assert len(server.received) == 4  # the adapter's max_attempts
    record = read(output / "kit-report.json")["cases"]["t000"]
    assert report.count("failed") == 1 and "(after 4 attempts)" in record["error"] and reason in record["error"]
    assert read(output / "adapter-result.json")["systems"][0]["execution_failures"] == 1
    assert read(output / "predictions.json") == {}


def test_a_request_the_server_refuses_is_not_retried_and_names_the_key_variable(make_request, out):
    with Loopback([error(401, f"Incorrect API key provided: {KEY}")]) as server:
        output = out()
        report = make_adapter().run(make_request(1, options(server.url)), output)
    error_text = read(output / "kit-report.json")["cases"]["t000"]["error"]
    assert len(server.received) == 1 and report.count("failed") == 1
    assert "HTTP 401" in error_text and "api_key_env" in error_text
    assert KEY not in error_text and "[key]" in error_text  # a server echoing the key is not repeated


def test_a_reply_without_usage_is_charged_its_worst_case(make_request, out):
    with Loopback([no_usage(SEPARATORS)]) as server:
        output = out()
        request = make_request(1, options(server.url))
        report = make_adapter().run(request, output)
    assert report.count("predicted") == 1
    spent = read(output / "adapter-result.json")["systems"][0]["cost_usd"]
    assert spent > cost(1000, 200) and spent == pytest.approx(read(output / "kit-report.json")["cases"]["t000"]["cost_usd"])


@pytest.mark.parametrize("reported", ["at-the-bound", "half-the-bound"])
def test_the_budget_stop_never_spends_past_the_budget(make_request, out, tmp_path, reported):
    """Each call's worst case is reserved before it is sent: whatever the server reports (up to
    that bound), the calls it received never cost together more than --budget."""
    opts = {**DEFAULTS, **options("http://127.0.0.1:9/v1")}  # only for the bound, a function of the case and the options
    probe = make_request(1, opts)
    probe_case = json.loads(probe.read_text())["cases"][0]
    image = probe.parent / "input" / probe_case["input"]["image"]
    bound_in = input_bound("table-separators")(Case(probe_case["id"], probe_case["input"], None, {probe_case["input"]["image"]: image}), opts)
    worst = cost(bound_in, 200)
    usage = (bound_in, 200) if reported == "at-the-bound" else (bound_in // 2, 100)
    budget = 3.5 * worst
    with Loopback(lambda body: right(SEPARATORS, usage=usage)) as server:
        output = out()
        report = make_adapter().run(make_request(12, options(server.url), budget_usd=budget), output, max_concurrency=4)
        received = list(server.received)
    charged = math.fsum(cost(*r.answer.usage) for r in received)
    assert charged <= budget and report.spent_usd == pytest.approx(charged)
    result = read(output / "adapter-result.json")
    assert result["status"] == "failed" and "stopped before the budget was exceeded" in result["error"]
    assert report.count("not-started") == 12 - len(received) > 0
    # Reserving the worst case lets 3 calls through when each spends it; more when each spends half.
    assert len(received) == 3 if reported == "at-the-bound" else len(received) > 3


def test_options_that_cannot_run_or_would_leak_are_refused_before_any_call(make_request, out):
    with Loopback([right(SEPARATORS)]) as server:
        cases = [
            (options(""), "$.options.base_url: give the server's API root"),
            (options(server.url.replace("http://", "http://user:pw@")), "$.options.base_url: must not hold a user name or password"),
            (options(server.url, prices=""), "$.model: 'loopback/model' has no price"),
            (options(server.url, prices="{not json"), "$.options.prices: not JSON"),
            (options(server.url, max_tokens="lots"), "$.options.max_tokens: must be a whole number"),
            (options(server.url, price_table="/nonexistent/prices.json", prices=""), "$.options.price_table: /nonexistent/prices.json: cannot be read"),
        ]
        for opts, expected in cases:
            output = out()
            report = make_adapter().run(make_request(1, opts), output)
            result = read(output / "adapter-result.json")
            assert report.status == result["status"] == "failed" and expected in result["error"], result["error"]
        assert server.received == []


def test_a_price_table_file_prices_the_model(make_request, out, tmp_path):
    table = tmp_path / "prices.json"
    table.write_text(json.dumps({MODEL: {"input_per_mtok": 1.0, "output_per_mtok": 1.0}}), encoding="utf-8")
    with Loopback([right(SEPARATORS, usage=(1000, 1000))]) as server:
        output = out()
        make_adapter().run(make_request(1, options(server.url, prices="", price_table=str(table))), output)
    assert read(output / "adapter-result.json")["systems"][0]["cost_usd"] == pytest.approx(0.002)


def test_a_server_reporting_more_than_the_call_reserved_stops_the_run(make_request, out):
    # An image dearer than max_image_tokens, say: the guarantee no longer holds, so nothing more is sent.
    with Loopback([right(SEPARATORS, usage=(10_000_000, 10))]) as server:
        output = out()
        report = make_adapter().run(make_request(3, options(server.url), budget_usd=1000), output, max_concurrency=1)
    assert len(server.received) == 1 and report.count("not-started") == 2
    result = read(output / "adapter-result.json")
    assert result["status"] == "failed" and "more than the" in result["error"] and "its worst case" in result["error"]


def test_describe_lists_the_types_that_have_a_prompt_and_the_options():
    done = subprocess.run([sys.executable, "-m", "envirobench_adapters_openai", "describe", "--json"], capture_output=True, text=True,
                          timeout=300, check=True)
    described = json.loads(done.stdout)
    assert described["adapter"] == "openai-compatible" and "table-separators" in described["benchmarks"]
    assert len(described["benchmarks"]) == 25 and "site-results" not in described["benchmarks"]
    assert described["options"]["api_key_env"] == "OPENAI_API_KEY" and described["options"]["base_url"] == ""


def test_a_pdf_type_sends_each_page_as_an_image(tmp_path, out):
    """document-type on its dev dataset's first cases: every page of the PDF (up to max_pages) is an image of the call."""
    dataset = get_registry().datasets["envirobench/document-type-synthetic-dev-v1"].path
    cases = [json.loads(line) for line in (dataset / "cases.jsonl").read_text(encoding="utf-8").splitlines()[:2]]
    with Loopback([right({"kind": "letter"})]) as server:
        opts = options(server.url, max_pages="2")
        request = tmp_path / "request.json"
        request.write_text(json.dumps({
            "format": "envirobench.adapter-request.v1", "protocol": "envirobench.adapter.v1", "run_id": "pdf", "model": MODEL,
            "budget_usd": 1.0, "options": opts, "benchmark": {"id": "document-type", "format": "envirobench.document-type.v1"},
            "dataset": {"id": "envirobench/document-type-synthetic-dev-v1", "version": 1, "input_digest": "0" * 64},
            "input_dir": str(dataset), "cases": [{"id": c["id"], "input": c["input"]} for c in cases]}), encoding="utf-8")
        output = out()
        report = make_adapter().run(request, output)
        received = sorted(server.received, key=lambda r: r.body["messages"][1]["content"][0]["text"])
    assert report.count("predicted") == 2 and len(received) == 2
    for case, call in zip(cases, received, strict=True):
        pages = pdf_pages(dataset / case["input"]["document"])
        content = call.body["messages"][1]["content"]
        assert case["input"]["document"] in content[0]["text"]
        assert sum(part["type"] == "image_url" for part in content) == min(pages, 2)
        labels = [part["text"] for part in content if part["type"] == "text" and part["text"].startswith("Image: ")]
        assert labels[0] == f"Image: {case['input']['document']}, page 1 of {pages}"
