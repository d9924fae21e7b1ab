"""End to end: `envirobench run --adapter openai-compatible` in the default sandbox (bubblewrap,
the network as the machine has it) against the loopback server on 127.0.0.1, on two cases of
table-separators' dev dataset: a scored run whose cost is the server's usage at the given prices,
the key passed with --adapter-env and found in no file of the run, and a second run from
--adapter-cache that sends the server nothing; and a model refusing every case, which fails the
run as a technical failure with nothing scored."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from loopback import Loopback, refused, right
from openai_helpers import KEY, KEY_ENV, MODEL, PRICE

from envirobench.sandbox import find_bwrap

ENVIROBENCH = Path(sys.executable).with_name("envirobench")
DATASET = "table-separators=envirobench/table-separators-synthetic-dev-v2"


def run(results: Path, run_id: str, server: Loopback, cache: Path) -> subprocess.CompletedProcess[str]:
    argv = [str(ENVIROBENCH), "run", "--adapter", "openai-compatible", "--run", run_id, "--model", MODEL,
            "--benchmark", "table-separators", "--dataset", DATASET, "--limit", "2", "--budget", "1",
            "--results", str(results), "--adapter-cache", str(cache), "--adapter-env", KEY_ENV,
            "--adapter-option", f"base_url={server.url}", "--adapter-option", "model=served-name",
            "--adapter-option", f"api_key_env={KEY_ENV}",
            "--adapter-option", "prices=" + json.dumps({MODEL: PRICE})]
    env = {**os.environ, KEY_ENV: KEY, "ENVIROBENCH_SANDBOX": "auto", "ENVIROBENCH_PROGRESS_INTERVAL": "0"}
    return subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600, check=False)


@pytest.mark.slow
def test_a_run_through_core_in_the_sandbox_against_the_loopback_server(tmp_path):
    if find_bwrap()[0] is None:
        pytest.skip("bubblewrap is not installed (bin/test installs it)")
    results, cache = tmp_path / "results", tmp_path / "cache"
    with Loopback([right({"rows": [10], "columns": [40]}, usage=(2000, 30))]) as server:
        done = run(results, "openai-1", server, cache)
        assert done.returncode == 0, done.stderr[-3000:]
        first = len(server.received)
        again = run(results, "openai-2", server, cache)
        assert again.returncode == 0, again.stderr[-3000:]
        calls = list(server.received)
    assert first == 2 and len(calls) == 2  # the second run's cases came from the cache
    assert all(c.headers["authorization"] == f"Bearer {KEY}" for c in calls)
    record = json.loads((results / "openai-1" / "run.json").read_text(encoding="utf-8"))
    assert record["status"] == "completed" and record["gate"] is not None and record["sandbox"]["kind"] == "bwrap" and record["sandbox"]["network"] is True
    assert record["sandbox"]["env"] == [KEY_ENV]
    assert record["adapter"]["name"] == "openai-compatible" and "+prompts." in record["adapter"]["version"]
    assert record["cost_usd"] == pytest.approx(2 * (2000 * PRICE["input_per_mtok"] + 30 * PRICE["output_per_mtok"]) / 1e6)
    assert json.loads((results / "openai-2" / "run.json").read_text(encoding="utf-8"))["cost_usd"] == 0
    log = (results / "openai-1" / "adapter.log").read_text(encoding="utf-8")
    assert "prompt table-separators v1 sha256:" in log
    for path in [*results.rglob("*"), *cache.rglob("*")]:
        if path.is_file():
            assert KEY.encode() not in path.read_bytes(), f"the key is in {path}"
    assert KEY not in done.stdout + done.stderr + again.stdout + again.stderr


@pytest.mark.slow
def test_a_refusal_fails_the_run_through_core_and_nothing_is_scored(tmp_path):
    if find_bwrap()[0] is None:
        pytest.skip("bubblewrap is not installed (bin/test installs it)")
    results = tmp_path / "results"
    with Loopback([refused()]) as server:
        done = run(results, "openai-refused", server, tmp_path / "cache")
    assert done.returncode == 1 and "technical failure" in done.stderr
    record = json.loads((results / "openai-refused" / "run.json").read_text(encoding="utf-8"))
    assert record["status"] == "failed" and "execution failure" in json.dumps(record["failure"])
    assert record["gate"] is None and not (results / "openai-refused" / "metrics.json").exists()
    report = json.loads((results / "openai-refused" / "adapter" / "kit-report.json").read_text(encoding="utf-8"))
    assert all("the model refused" in case["error"] for case in report["cases"].values())
