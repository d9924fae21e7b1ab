"""Benchmark types, datasets and paired runs made to order for the report, review and browser tests.

`ImageSeparators` ("test-separators", viewer image-overlay) has a PNG per case and predictions
with row and column separators plus a free-text `note`; `TableCells` ("test-grid", viewer
table-grid) has a grid of cell texts. `make_separator_runs` makes a baseline, a control and a
candidate paired with both, through the real `execute` and the fixture adapter, with one case in
every bucket and hostile strings in a category and in a prediction.
"""

from __future__ import annotations

import json
import struct
import types
import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
from scripted_adapters import adapter_executable

from envirobench import BenchmarkType, Case, CaseScore, f1, hookimpl, plugins, report
from envirobench.authoring import write_manifest
from envirobench.jsonio import dumps_line
from envirobench.runs import RunSpec, execute_run

ADAPTERS = Path(__file__).parent / "adapters"
INJECTED_NOTE = "</script><script>window.__pwned=1</script><img src=x onerror=\"window.__pwned=3\">"
INJECTED_CATEGORY = "<img src=x onerror=\"window.__pwned=2\">"
CATEGORIES = ("ruled", "whitespace", INJECTED_CATEGORY)
SEPARATORS_DATASET = "test/separators-v1"
GRID_DATASET = "test/grid-v1"


# -- an image type ------------------------------------------------------------------------------


@attrs.frozen
class SepInput:
    image: str
    width: int
    height: int
    sidecar: str = ""


@attrs.frozen
class SepAnswer:
    rows: tuple[int, ...]
    columns: tuple[int, ...]


@attrs.frozen
class SepPrediction:
    rows: tuple[int, ...]
    columns: tuple[int, ...]
    note: str = ""


def _match(axis: str, gold: Sequence[int], predicted: Sequence[int], tolerance: int) -> tuple[list[tuple[Any, ...]], int, int, int]:
    unused = sorted(predicted)
    errors: list[tuple[Any, ...]] = []
    tp = 0
    for i, g in enumerate(gold):
        near = [p for p in unused if abs(p - g) <= tolerance]
        if near:
            unused.remove(min(near, key=lambda p: (abs(p - g), p)))
            tp += 1
        else:
            errors.append(("missing-separator", axis, i))
    if unused:
        errors.append(("extra-separator", axis, len(unused)))
    return errors, tp, len(unused), len(gold) - tp


class ImageSeparators(BenchmarkType):
    ID = "test-separators"
    FORMAT = "envirobench.test-separators.v1"
    LABEL = "Separators over an image (test type)"
    SCORING_VERSION = "envirobench.test-separators.scores.v1"
    TIER = "component"
    PROFILES = ("logical", "strict")
    HEADLINE = ("separator_f1", "tables_exact")
    VIEWER = "image-overlay"
    Input = SepInput
    Answer = SepAnswer
    Prediction = SepPrediction

    def source_files(self, case_input: SepInput) -> tuple[str, ...]:
        return (case_input.image,) + ((case_input.sidecar,) if case_input.sidecar else ())

    def score_case(self, case: Case, answer: SepAnswer, prediction: SepPrediction) -> dict[str, CaseScore]:
        out = {}
        for profile, tolerance in (("logical", 4), ("strict", 1)):
            errors: list[tuple[Any, ...]] = []
            tp = fp = fn = 0
            for axis, gold, pred in (("row", answer.rows, prediction.rows), ("column", answer.columns, prediction.columns)):
                e, t, p, n = _match(axis, gold, pred, tolerance)
                errors += e
                tp, fp, fn = tp + t, fp + p, fn + n
            if prediction.note:
                errors.append(("unexpected-note", prediction.note))
            out[profile] = CaseScore(tuple(errors), {"tp": tp, "fp": fp, "fn": fn, "exact": float(not errors)})
        return out

    def summarize(self, profile: str, scores: Sequence[CaseScore]) -> dict[str, float]:
        tp = sum(s.metrics["tp"] for s in scores)
        fp = sum(s.metrics["fp"] for s in scores)
        fn = sum(s.metrics["fn"] for s in scores)
        return {"separator_f1": f1(tp, fp, fn), "tables_exact": sum(s.metrics["exact"] for s in scores) / len(scores)}


# -- a grid type ----------------------------------------------------------------------------------


@attrs.frozen
class GridInput:
    title: str


@attrs.frozen
class GridCells:
    cells: tuple[tuple[str, ...], ...]


class TableCells(BenchmarkType):
    ID = "test-grid"
    FORMAT = "envirobench.test-grid.v1"
    LABEL = "Table cells (test type)"
    SCORING_VERSION = "envirobench.test-grid.scores.v1"
    TIER = "component"
    PROFILES = ("cells",)
    HEADLINE = ("cells_exact",)
    VIEWER = "table-grid"
    Input = GridInput
    Answer = GridCells
    Prediction = GridCells

    def score_case(self, case: Case, answer: GridCells, prediction: GridCells) -> dict[str, CaseScore]:
        errors: list[tuple[Any, ...]] = []
        for r in range(max(len(answer.cells), len(prediction.cells))):
            gold = answer.cells[r] if r < len(answer.cells) else ()
            mine = prediction.cells[r] if r < len(prediction.cells) else ()
            for c in range(max(len(gold), len(mine))):
                if c >= len(gold) or c >= len(mine) or gold[c] != mine[c]:
                    errors.append(("wrong-cell", r, c))
        return {"cells": CaseScore(tuple(errors), {"cells_exact": float(not errors)})}


# -- datasets -------------------------------------------------------------------------------------


def png_bytes(width: int, height: int, rows: Sequence[int] = (), columns: Sequence[int] = ()) -> bytes:
    """A grayscale PNG: white, with black lines at the given rows (y) and columns (x)."""
    raw = bytearray()
    row_set = set(rows)
    for y in range(height):
        raw.append(0)
        line = bytearray([0] * width) if y in row_set else bytearray([255] * width)
        for x in columns:
            if 0 <= x < width:
                line[x] = 0
        raw += line

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b"")


def gold_separators(i: int) -> dict[str, list[int]]:
    return {"rows": [30 + i % 5, 70, 110 + i % 3], "columns": [60 + i % 7, 150]}


def write_separator_dataset(root: Path, n: int = 8, *, dataset_id: str = SEPARATORS_DATASET) -> Path:
    (root / "assets").mkdir(parents=True, exist_ok=True)
    with (root / "cases.jsonl").open("w") as cases, (root / "answers.jsonl").open("w") as answers:
        for i in range(n):
            gold = gold_separators(i)
            image = f"assets/t{i:03d}.png"
            (root / image).write_bytes(png_bytes(240, 160, gold["rows"], gold["columns"]))
            case_input: dict[str, Any] = {"image": image, "width": 240, "height": 160}
            if i == 0:  # a source file that is not an image: never copied into report-assets/
                (root / "assets" / "t000.txt").write_text("scan notes\n")
                case_input["sidecar"] = "assets/t000.txt"
            cases.write(dumps_line({"id": f"t{i:03d}", "category": CATEGORIES[i % len(CATEGORIES)], "input": case_input}))
            answers.write(dumps_line({"id": f"t{i:03d}", "answer": gold}))
    write_manifest(root, dataset_id=dataset_id, version=1, benchmark=ImageSeparators.ID, title="Separators (generated for tests)")
    return root


GRID_ANSWERS = {
    "g000": [["Analyte", "Result"], ["Lead", "12"], ["Zinc", "40"]],
    "g001": [["Analyte", "Result", "Unit"], ["PFOS", "0.4", "ng/L"]],
    "g002": [["A", "B"], ["1", "2"]],
}


def write_grid_dataset(root: Path, *, dataset_id: str = GRID_DATASET) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    with (root / "cases.jsonl").open("w") as cases, (root / "answers.jsonl").open("w") as answers:
        for cid, cells in GRID_ANSWERS.items():
            cases.write(dumps_line({"id": cid, "category": "results", "input": {"title": f"table {cid}"}}))
            answers.write(dumps_line({"id": cid, "answer": {"cells": cells}}))
    write_manifest(root, dataset_id=dataset_id, version=1, benchmark=TableCells.ID, title="Grids (generated for tests)")
    return root


def registry_for(datasets: Mapping[str, Path]) -> plugins.Registry:
    @hookimpl
    def envirobench_benchmark_types(register):
        register(ImageSeparators)
        register(TableCells)

    @hookimpl
    def envirobench_datasets(register):
        for dataset_id, directory in datasets.items():
            register(dataset_id, directory)

    plugin = types.SimpleNamespace(envirobench_benchmark_types=envirobench_benchmark_types, envirobench_datasets=envirobench_datasets)
    return plugins.build_registry(extra=[("reportkit", plugin)])


# -- runs -----------------------------------------------------------------------------------------


def fixture_adapter(tmp_path: Path) -> Path:
    path = tmp_path / "fixture-adapter-bin"
    if not path.exists():
        adapter_executable(path, "fixture_adapter.py")
    return path


def separator_predictions(n: int = 8) -> dict[str, dict[str, Any]]:
    """Fixtures for baseline, control and candidate; buckets in profile logical:
    t000 worse (the injected note), t001 better, t002 worse (extra column), t003 noisy,
    t004 remaining, the rest unchanged-correct."""
    def correct(i: int) -> dict[str, Any]:
        return {**gold_separators(i), "note": ""}

    baseline = {f"t{i:03d}": correct(i) for i in range(n)}
    baseline["t001"]["rows"] = baseline["t001"]["rows"][:1] + baseline["t001"]["rows"][2:]
    baseline["t004"]["rows"] = baseline["t004"]["rows"][1:]
    control = json.loads(json.dumps(baseline))
    control["t003"]["columns"] = control["t003"]["columns"][:1]
    candidate = {f"t{i:03d}": correct(i) for i in range(n)}
    candidate["t000"]["note"] = INJECTED_NOTE
    candidate["t002"]["columns"] = sorted(candidate["t002"]["columns"] + [200])
    candidate["t003"]["columns"] = sorted(candidate["t003"]["columns"] + [210])
    candidate["t004"]["rows"] = candidate["t004"]["rows"][1:]
    return {"baseline": baseline, "control": control, "candidate": candidate}


def make_run(tmp_path: Path, registry: plugins.Registry, run_id: str, predictions: Mapping[str, Any], *, benchmark: str, dataset: str, results: Path, **kw: Any) -> Path:
    fixture = tmp_path / f"{run_id}-predictions.json"
    fixture.write_text(json.dumps(predictions))
    spec = RunSpec(adapter=str(fixture_adapter(tmp_path)), run_id=run_id, model="test/model", benchmark=benchmark, dataset=dataset,
                   budget_usd=1.0, options={"predictions": str(fixture)}, results_dir=results,
                   sandbox="none",  # a trusted test adapter replaying a fixture from /tmp, which the sandbox hides
                   **kw)
    outcome = execute_run(spec, registry)
    assert outcome.status == "completed", outcome.message
    return outcome.run_dir


def make_separator_runs(tmp_path: Path, n: int = 8) -> dict[str, Any]:
    dataset = write_separator_dataset(tmp_path / "separators-v1", n)
    registry = registry_for({SEPARATORS_DATASET: dataset})
    results = tmp_path / "results"
    preds = separator_predictions(n)
    common = {"benchmark": ImageSeparators.ID, "dataset": SEPARATORS_DATASET, "results": results}
    base = make_run(tmp_path, registry, "base", preds["baseline"], **common)
    control = make_run(tmp_path, registry, "control", preds["control"], **common)
    cand = make_run(tmp_path, registry, "cand", preds["candidate"], baseline=base, controls=(control,), gates=("logical",), **common)
    return {"registry": registry, "dataset": dataset, "results": results, "base": base, "control": control, "cand": cand, "predictions": preds}


def make_grid_runs(tmp_path: Path) -> dict[str, Any]:
    dataset = write_grid_dataset(tmp_path / "grid-v1")
    registry = registry_for({GRID_DATASET: dataset})
    results = tmp_path / "results"
    baseline = {cid: {"cells": cells} for cid, cells in GRID_ANSWERS.items()}
    candidate = json.loads(json.dumps(baseline))
    candidate["g000"]["cells"][1][1] = "21"  # one wrong cell
    candidate["g001"]["cells"][1] = ["PFOS", "0.4"]  # one missing cell
    common = {"benchmark": TableCells.ID, "dataset": GRID_DATASET, "results": results}
    base = make_run(tmp_path, registry, "grid-base", baseline, **common)
    cand = make_run(tmp_path, registry, "grid-cand", candidate, baseline=base, **common)
    return {"registry": registry, "results": results, "base": base, "cand": cand}


embedded_data = report.embedded_data  # the report's case index (the eb-data JSON block)


def make_count_run(tmp_path: Path, n: int) -> Path:
    """An unpaired count-words run of n cases (core's test type and scripted fake adapter)."""
    from envirobench.testing import toy_plugin, write_count_dataset

    dataset = write_count_dataset(tmp_path / f"count-{n}", n)
    registry = plugins.build_registry(extra=[("toy", toy_plugin(("test/count-words-v1", dataset)))])
    adapter = tmp_path / "fake-adapter-bin"
    adapter_executable(adapter, "fake_adapter.py")
    off = ",".join(f"c{i:06d}:1" for i in range(0, n, 3))
    spec = RunSpec(adapter=str(adapter), run_id=f"count-{n}", model="test/model", benchmark="count-words", dataset="test/count-words-v1",
                   budget_usd=1.0, options={"off": off}, results_dir=tmp_path / "results", sandbox="none")
    outcome = execute_run(spec, registry)
    assert outcome.status == "completed", outcome.message
    return outcome.run_dir
