"""Every tool adapter end to end: `envirobench run --adapter NAME` on the first cases of each test
split it serves, in the default sandbox (bubblewrap: bin/test installs it), scored, and rescored
offline to the same files."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from envirobench_adapters_tools import ADAPTERS

ENVIROBENCH = str(Path(sys.executable).with_name("envirobench"))
# Few cases: the OCR adapters take seconds a crop and a report has several pages (PyMuPDF and
# Camelot take seconds a page) on two shared cores.
LIMIT = {"table-cells": 1, "table-records": 2, "document-extraction": 1}
PAIRS = [(name, benchmark) for name, (_, served) in ADAPTERS.items() for benchmark in served]


@pytest.mark.slow
@pytest.mark.parametrize(("adapter", "benchmark"), PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_tool_adapter_runs_a_test_split_slice_in_the_sandbox(tmp_path, adapter, benchmark):
    if shutil.which("bwrap") is None:
        pytest.skip(
            "bubblewrap is not installed (bin/test installs it): the default sandbox cannot be tested"
        )
    if adapter == "tesseract" and shutil.which("tesseract") is None:
        pytest.fail("Debian's tesseract-ocr is missing: bin/test installs it")
    results = tmp_path / "results"
    completed = subprocess.run(
        [
            ENVIROBENCH,
            "run",
            "--adapter",
            adapter,
            "--run",
            "r1",
            "--model",
            f"tool/{adapter}",
            "--benchmark",
            benchmark,
            "--dataset",
            f"{benchmark}=envirobench/{benchmark}-synthetic-test-v2",
            "--budget",
            "0",
            "--limit",
            str(LIMIT[benchmark]),
            "--results",
            str(results),
        ],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    run_dir = results / "r1"
    run = json.loads((run_dir / "run.json").read_text())
    assert run["status"] == "completed" and run["sandbox"]["kind"] == "bwrap"
    assert run["cost_usd"] == 0
    # Every case predicted (none an execution failure) and valid by the type's schema: core
    # read and checked the predictions to score them.
    predictions = json.loads((run_dir / "adapter" / "predictions.json").read_text())
    metrics = json.loads((run_dir / "metrics.json").read_text())
    assert sorted(predictions) == sorted(metrics["cases"]) and len(predictions) == LIMIT[benchmark]
    kit = json.loads((run_dir / "adapter" / "kit-report.json").read_text())
    assert kit["stopped"] is None
    profile = metrics["benchmark"]["profiles"][0]
    assert all(
        0.0 <= v <= 1.0
        for k, v in metrics["profiles"][profile]["headline"].items()
        if isinstance(v, float)
    )
    # Offline rescoring reproduces the run's files: nothing depended on the adapter's process.
    before = {
        name: (run_dir / name).read_bytes()
        for name in ("metrics.json", "comparison.json", "summary.md")
    }
    rescored = subprocess.run(
        [ENVIROBENCH, "score", "--run", str(run_dir)], capture_output=True, text=True, timeout=600
    )
    assert rescored.returncode == 0, rescored.stdout + rescored.stderr
    assert {name: (run_dir / name).read_bytes() for name in before} == before


@pytest.mark.parametrize("adapter", list(ADAPTERS))
def test_describe_lists_exactly_the_declared_types(adapter):
    described = subprocess.run(
        [sys.executable, "-m", "envirobench_adapters_tools", adapter, "describe", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert described.returncode == 0, described.stderr
    assert sorted(json.loads(described.stdout)["benchmarks"]) == sorted(ADAPTERS[adapter][1])


def test_an_unknown_tool_is_a_usage_error():
    completed = subprocess.run(
        [sys.executable, "-m", "envirobench_adapters_tools", "nope", "run"],
        capture_output=True,
        text=True,
    )
    assert completed.returncode == 2 and "one of tesseract" in completed.stderr
