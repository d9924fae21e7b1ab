"""What the Legal reference tests share: a sample of a dev split that exercises every rule, and a
partial run of the reference adapter on it through core (`envirobench run --case`)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from envirobench_legal.package import PACKAGE

ENVIROBENCH = Path(sys.executable).with_name("envirobench")


def dev_sample(type_id: str, *, scanned: bool) -> list[str]:
    """One born-digital case of every category of the type's dev split, in dataset order, and
    (with `scanned`) its first scanned copy after them."""
    dev = PACKAGE.layout(type_id).dataset_dir("synthetic-dev-v1")
    cases = [json.loads(line) for line in (dev / "cases.jsonl").read_text().splitlines()]
    copies = {a["id"]: a["answer"]["scanned"] for a in map(json.loads, (dev / "answers.jsonl").read_text().splitlines())}
    ids, seen = [], set()
    for case in cases:
        if case["category"] not in seen and not copies[case["id"]]:
            seen.add(case["category"])
            ids.append(case["id"])
    if scanned:
        ids.append(next(c["id"] for c in cases if copies[c["id"]]))
    return ids


def reference_run(tmp_path: Path, type_id: str, ids: list[str]) -> dict[str, Any]:
    """metrics.json of the reference adapter's partial run on those dev cases."""
    completed = subprocess.run(
        [str(ENVIROBENCH), "run", "--adapter", "reference", "--run", "r1", "--model", "reference/model-free",
         "--benchmark", type_id, "--dataset", f"{type_id}=envirobench/{type_id}-synthetic-dev-v1", "--budget", "0",
         "--results", str(tmp_path / "results"), *(arg for case_id in ids for arg in ("--case", case_id))],
        capture_output=True, text=True, timeout=900,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    return json.loads((tmp_path / "results" / "r1" / "metrics.json").read_text())


def shipped_datasets(btype: Any) -> dict[str, tuple[Any, Any, dict[str, Any], dict[str, Any]]]:
    """Folder -> (registry, dataset, cases, answers) of each shipped dataset of the type, loaded
    through the registry the installed plugins make (whatever the test environment allows)."""
    import pytest

    from envirobench import build_registry, load_dataset

    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("ENVIROBENCH_LOAD_PLUGINS", raising=False)
        registry = build_registry()
    layout = PACKAGE.layout(btype.ID)
    out = {}
    for folder in layout.datasets:
        dataset = load_dataset(layout.dataset_dir(folder), registry)
        out[folder] = (registry, dataset, dataset.cases(btype), dataset.answers(btype))
    return out
