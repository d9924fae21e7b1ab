"""The README quickstart, as a user runs it: the envirobench command and the reference adapter."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ENVIROBENCH = str(Path(sys.executable).with_name("envirobench"))
DATASET = "table-separators=envirobench/table-separators-synthetic-v1"


def envirobench(*args: str, results: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [ENVIROBENCH, "run", "--adapter", "reference", "--model", "reference/projection-profiles",
         "--benchmark", "table-separators", "--dataset", DATASET, "--budget", "0", "--no-network", "--results", str(results), *args],
        capture_output=True, text=True, timeout=300,
    )


@pytest.fixture(scope="module")
def quickstart(tmp_path_factory):
    results = tmp_path_factory.mktemp("quickstart") / "results"
    base = envirobench("--run", "ts-baseline", "--adapter-option", "variant=baseline", results=results)
    assert base.returncode == 0, base.stderr
    cand = envirobench("--run", "ts-candidate", "--baseline-run", str(results / "ts-baseline"),
                       "--gate", "logical", "--require-no-regressions", results=results)
    return results, base, cand


def test_second_run_fails_the_gate_and_names_worse_and_better_cases(quickstart):
    results, _, cand = quickstart
    assert cand.returncode == 3, cand.stderr  # some cases got worse: the documented gate exit status
    assert "gate: failed" in cand.stdout
    metrics = json.loads((results / "ts-candidate" / "metrics.json").read_text())
    logical = metrics["profiles"]["logical"]
    assert logical["regressions"] and logical["improvements"]
    summary = (results / "ts-candidate" / "summary.md").read_text()
    assert "Verdict: gate failed" in summary
    for cid in logical["regressions"] + logical["improvements"][:10]:
        assert cid in summary
    # The default variant is better overall than the baseline, and honest: not perfect.
    assert logical["change"]["separator_f1"] > 0
    assert logical["headline"]["separator_f1"] < 1.0


def test_a_control_run_marks_disagreeing_cases_unstable(quickstart):
    results, _, _ = quickstart
    control = envirobench("--run", "ts-control", "--adapter-option", "variant=baseline", "--adapter-option", "jitter=1", results=results)
    assert control.returncode == 0, control.stderr
    third = envirobench("--run", "ts-candidate-2", "--baseline-run", str(results / "ts-baseline"),
                        "--control-run", str(results / "ts-control"), "--gate", "logical", results=results)
    assert third.returncode == 0, third.stderr
    logical = json.loads((results / "ts-candidate-2" / "metrics.json").read_text())["profiles"]["logical"]
    base = json.loads((results / "ts-baseline" / "metrics.json").read_text())["cases"]
    ctl = json.loads((results / "ts-control" / "metrics.json").read_text())["cases"]
    disagreeing = sorted(cid for cid in base if base[cid]["runs"]["candidate"]["logical"]["errors"] != ctl[cid]["runs"]["candidate"]["logical"]["errors"])
    assert disagreeing and logical["unstable"] == disagreeing
    assert not set(logical["regressions"]) & set(disagreeing)
    assert "Unstable (" in (results / "ts-candidate-2" / "summary.md").read_text()


def test_the_reference_adapter_ran_in_the_sandbox_without_network(quickstart):
    results, base, _ = quickstart
    sandbox = json.loads((results / "ts-baseline" / "run.json").read_text())["sandbox"]
    if sandbox["kind"] == "none":  # no bubblewrap here (bin/test installs it): said on stderr
        assert "warning: no sandbox" in base.stderr
        pytest.skip("bubblewrap is not installed: the quickstart ran without the sandbox")
    assert sandbox == {"kind": "bwrap", "network": False, "env": [], "allow": [], "cache": None}


def test_offline_rescore_reproduces_the_quickstart_metrics(quickstart):
    results, _, _ = quickstart
    before = (results / "ts-candidate" / "metrics.json").read_bytes()
    rescored = subprocess.run([ENVIROBENCH, "score", "--run", str(results / "ts-candidate")], capture_output=True, text=True, timeout=300)
    assert rescored.returncode == 0, rescored.stderr
    assert (results / "ts-candidate" / "metrics.json").read_bytes() == before
