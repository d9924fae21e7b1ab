"""Every Extract type end to end: `envirobench run --adapter reference` on a few shipped cases."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from envirobench import write_manifest
from envirobench_extract.package import PACKAGE as EXTRACT

ENVIROBENCH = Path(sys.executable).with_name("envirobench")
# A few cheap cases per type (text-layer PDFs and small crops), with the headline they reach.
CASES = {
    "table-structure": (["tsr-0001"], "grits_top", 0.9),
    "table-cells": (["tc-0001"], "cells_right", 0.9),
    "table-records": (["tr-0001"], "record_f1", 0.9),
    "report-metadata": (["rm-0001", "rm-0009"], "fields_right", 0.9),
    "document-extraction": (["de-0001", "de-0006"], "record_f1", 0.9),
}


def subset(benchmark: str, ids: list[str], root: Path) -> Path:
    """A dataset of some cases of the shipped one (with their files and answers)."""
    source = EXTRACT.layout(benchmark).dataset_dir("synthetic-v1")
    cases = [json.loads(line) for line in (source / "cases.jsonl").read_text().splitlines()]
    answers = [json.loads(line) for line in (source / "answers.jsonl").read_text().splitlines()]
    chosen = [c for c in cases if c["id"] in ids]
    root.mkdir(parents=True)
    for case in chosen:
        name = case["input"].get("image") or case["input"].get("document")
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / name, root / name)
    (root / "cases.jsonl").write_text("".join(json.dumps(c) + "\n" for c in chosen))
    (root / "answers.jsonl").write_text("".join(json.dumps(a) + "\n" for a in answers if a["id"] in ids))
    write_manifest(root, dataset_id=f"test/{benchmark}-subset", version=1, benchmark=benchmark, title="subset")
    return root


@pytest.mark.slow
@pytest.mark.parametrize("benchmark", list(CASES))
def test_reference_adapter_runs_the_type_through_core(tmp_path, benchmark):
    ids, headline, floor = CASES[benchmark]
    dataset = subset(benchmark, ids, tmp_path / "dataset")
    completed = subprocess.run(
        [str(ENVIROBENCH), "run", "--adapter", "reference", "--run", "r1", "--model", "reference/text-layer-ocr",
         "--benchmark", benchmark, "--dataset", f"{benchmark}={dataset}", "--budget", "0",
         "--results", str(tmp_path / "results")],
        capture_output=True, text=True, timeout=600,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    run = tmp_path / "results" / "r1"
    metrics = json.loads((run / "metrics.json").read_text())
    profile = metrics["benchmark"]["profiles"][0]
    assert metrics["profiles"][profile]["headline"][headline] >= floor
    # Each case's wall time, in the result the adapter kit writes.
    result = json.loads((run / "adapter" / "adapter-result.json").read_text())
    assert sorted(case["id"] for case in result["cases"]) == sorted(ids)
    assert json.loads((run / "run.json").read_text())["adapter_wall_time_s"] > 0
    # Offline rescoring of the reference run reproduces every output byte for byte.
    outputs = ("run.json", "metrics.json", "comparison.json", "review-brief.json", "summary.md", "report.html")
    before = {name: (run / name).read_bytes() for name in outputs}
    rescored = subprocess.run([str(ENVIROBENCH), "score", "--run", str(run)], capture_output=True, text=True, timeout=600)
    assert rescored.returncode == 0, rescored.stdout + rescored.stderr
    assert {name: (run / name).read_bytes() for name in outputs} == before
