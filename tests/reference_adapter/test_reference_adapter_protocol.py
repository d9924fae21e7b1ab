"""The reference adapter as core runs it: `python -m envirobench_reference_adapter run ...`, on the
adapter kit (which reads the request, validates, runs the cases and writes the output)."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from reference_table_drawing import count_hits, draw_table

from envirobench import plugins
from envirobench_extract.package import PACKAGE as EXTRACT
from envirobench_reference_adapter import plugin as reference_plugin
from envirobench_reference_adapter import protocol
from envirobench_reference_adapter.solvers import table_separators

ADAPTER = [sys.executable, "-m", "envirobench_reference_adapter"]
LAYOUTS = {"ts-ruled": "ruled", "ts-unruled": "unruled", "ts-zebra": "zebra", "ts-multi": "multiline"}


def write_request(tmp_path: Path, *, options=None, benchmark=None, cases=None, **overrides) -> Path:
    """An input view with drawn tables and the request core would write for it."""
    input_dir = tmp_path / "input-view"
    (input_dir / "assets").mkdir(parents=True, exist_ok=True)
    if cases is None:
        cases = []
        for case_id, layout in LAYOUTS.items():
            image = draw_table(layout, seed=len(cases)).image
            image.save(input_dir / "assets" / f"{case_id}.png")
            cases.append({"id": case_id, "input": {"image": f"assets/{case_id}.png", "width": image.width, "height": image.height}})
    request = {
        "format": "envirobench.adapter-request.v1",
        "protocol": "envirobench.adapter.v1",
        "run_id": "r1",
        "model": "reference/projection-profiles",
        "budget_usd": 0.0,
        "options": {"variant": "baseline"} if options is None else options,
        "benchmark": benchmark or {"id": "table-separators", "format": "envirobench.table-separators.v1"},
        "dataset": {"id": "envirobench/table-separators-test", "version": 1, "input_digest": "sha256:" + "0" * 64},
        "input_dir": str(input_dir),
        "cases": cases,
        **overrides,
    }
    path = tmp_path / "adapter-request.json"
    path.write_text(json.dumps(request), encoding="utf-8")
    return path


def run_adapter(request: Path, output: Path, *args: str, prefix=ADAPTER) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*prefix, "run", "--request", str(request), "--output", str(output), *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("variant", ["baseline", "v2", "default", None])
def test_run_writes_result_predictions_and_progress(tmp_path, variant):
    request = write_request(tmp_path, options={} if variant is None else {"variant": variant})
    output = tmp_path / "adapter"
    output.mkdir()  # core creates it, empty
    completed = run_adapter(request, output)
    assert completed.returncode == 0, completed.stderr

    assert {"adapter-result.json", "kit-report.json", "predictions.json", "progress.jsonl"} <= {p.name for p in output.iterdir()}
    result = json.loads((output / "adapter-result.json").read_text())
    # Each case's cost (always 0) and wall time, which core shows per site for the site-tier types.
    cases = result.pop("cases")
    assert [c["id"] for c in cases] == list(LAYOUTS)
    assert all(c["cost_usd"] == 0.0 and c["wall_s"] >= 0 for c in cases)
    assert result == {
        "id": "table-separators",
        "status": "completed",
        "format": "envirobench.table-separators.v1",
        "data": "predictions.json",
        "adapter": {"name": "envirobench-reference-adapter", "version": metadata.version("envirobench-reference-adapter")},
        "systems": [
            {
                "role": "candidate",
                "model": "reference/projection-profiles",
                "cost_usd": 0.0,
                "execution_failures": 0,
                "unpriced_attempts": 0,
            }
        ],
    }
    predictions = json.loads((output / "predictions.json").read_text())
    assert sorted(predictions) == sorted(LAYOUTS)
    for case_id, prediction in predictions.items():
        assert set(prediction) == {"rows", "columns"}
        assert all(isinstance(p, int) for p in prediction["rows"] + prediction["columns"])
        table = draw_table(LAYOUTS[case_id], seed=list(LAYOUTS).index(case_id))
        assert count_hits(prediction["columns"], table.column_bands)[0] == len(table.column_bands)
        assert count_hits(prediction["rows"], table.row_bands)[0] == len(table.row_bands)

    progress = [json.loads(line) for line in (output / "progress.jsonl").read_text().splitlines()]
    assert progress[0] == {"done": 0, "total": 4}
    assert progress[-1] == {"done": 4, "total": 4}
    assert [p["done"] for p in progress] == sorted(p["done"] for p in progress)


def test_variants_genuinely_differ(tmp_path):
    request = write_request(tmp_path / "b", options={"variant": "baseline"})
    run_adapter(request, tmp_path / "b" / "out")
    request = write_request(tmp_path / "d", options={"variant": "v2"})
    run_adapter(request, tmp_path / "d" / "out")
    baseline = json.loads((tmp_path / "b" / "out" / "predictions.json").read_text())
    v2 = json.loads((tmp_path / "d" / "out" / "predictions.json").read_text())
    assert baseline["ts-multi"]["rows"] != v2["ts-multi"]["rows"]


def test_jitter_is_reproducible_per_seed_and_varies_between_seeds():
    """`jitter=SEED` emulates run-to-run variation: same seed, same image; another seed, another."""
    assert protocol.case_jitter("", "a") is None
    first = protocol.case_jitter("7", "a").normal(size=4)
    assert (first == protocol.case_jitter("7", "a").normal(size=4)).all()
    assert not (first == protocol.case_jitter("7", "b").normal(size=4)).all()
    assert not (first == protocol.case_jitter("8", "a").normal(size=4)).all()
    assert table_separators.JITTER_MAX_SHIFT > 0


def test_jitter_changes_some_predictions_on_the_real_scans(tmp_path):
    """Controls are only useful if a jittered rerun disagrees somewhere; on the shipped scans it does."""
    dataset_dir = EXTRACT.layout("table-separators").dataset_dir("synthetic-v1")
    cases = [json.loads(line) for line in (dataset_dir / "cases.jsonl").read_text().splitlines() if '"scanned"' in line]
    request_cases = [{"id": c["id"], "input": c["input"]} for c in cases]

    def predict(options, name):
        request = json.loads(write_request(tmp_path / name, options=options, cases=request_cases).read_text())
        request["input_dir"] = str(dataset_dir)  # read-only use of the images; no answers are involved
        path = tmp_path / name / "request.json"
        path.write_text(json.dumps(request))
        assert run_adapter(path, tmp_path / name / "out").returncode == 0
        return json.loads((tmp_path / name / "out" / "predictions.json").read_text())

    plain = predict({"variant": "baseline"}, "plain")
    again = predict({"variant": "baseline", "jitter": "1"}, "j1")
    assert again == predict({"variant": "baseline", "jitter": "1"}, "j1-again")
    assert any(plain[cid] != again[cid] for cid in plain)


def test_console_script_runs_too(tmp_path):
    script = Path(sys.executable).with_name("envirobench-reference-adapter")
    if not script.exists():
        pytest.skip("console script not installed next to this interpreter")
    request = write_request(tmp_path)
    completed = run_adapter(request, tmp_path / "adapter", prefix=[str(script)])
    assert completed.returncode == 0, completed.stderr
    assert (tmp_path / "adapter" / "adapter-result.json").is_file()


def test_empty_request_completes(tmp_path):
    request = write_request(tmp_path, cases=[])
    completed = run_adapter(request, tmp_path / "adapter")
    assert completed.returncode == 0, completed.stderr
    assert json.loads((tmp_path / "adapter" / "predictions.json").read_text()) == {}


def test_unprocessable_case_is_an_execution_failure_not_a_crash(tmp_path):
    request = write_request(tmp_path)
    data = json.loads(request.read_text())
    input_dir = Path(data["input_dir"])
    (input_dir / "assets" / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    data["cases"] += [
        {"id": "ts-broken", "input": {"image": "assets/broken.png", "width": 100, "height": 50}},
        {"id": "ts-missing", "input": {"image": "assets/missing.png", "width": 100, "height": 50}},
        {"id": "ts-wrong-size", "input": {**data["cases"][0]["input"], "width": 7}},
    ]
    request.write_text(json.dumps(data))
    output = tmp_path / "adapter"
    completed = run_adapter(request, output)
    assert completed.returncode == 0, completed.stderr
    assert "3 failed" in completed.stderr

    result = json.loads((output / "adapter-result.json").read_text())
    assert result["status"] == "completed"
    assert result["systems"][0]["execution_failures"] == 3
    # Failed cases are left out rather than given a made-up (empty) prediction.
    predictions = json.loads((output / "predictions.json").read_text())
    assert sorted(predictions) == sorted(LAYOUTS)
    report = json.loads((output / "kit-report.json").read_text())
    failures = {case_id: case["error"] for case_id, case in report["cases"].items() if case["status"] == "failed"}
    assert sorted(failures) == ["ts-broken", "ts-missing", "ts-wrong-size"]
    assert "request says 7x" in failures["ts-wrong-size"]


REFUSALS = {
    "unknown option": ({"options": {"variant": "v2", "temperature": "0"}}, "$.options.temperature: unknown option 'temperature'"),
    "unknown variant": ({"options": {"variant": "v3"}}, "$.options.variant: unknown variant 'v3'; known variants: baseline, v2, default"),
    "non-string option": ({"options": {"variant": 2}}, "$.options['variant']: expected a string"),
    "unknown benchmark": (
        {"benchmark": {"id": "ocr-fields", "format": "envirobench.ocr-fields.v1"}},
        "this adapter does not serve the benchmark type 'ocr-fields'",
    ),
    "unknown format": (
        {"benchmark": {"id": "table-separators", "format": "envirobench.table-separators.v2"}},
        "$.benchmark.format",
    ),
    "unknown request format": ({"format": "envirobench.adapter-request.v9"}, "$.format"),
    "unknown protocol": ({"protocol": "envirobench.adapter.v2"}, "$.protocol"),
    "negative budget": ({"budget_usd": -1}, "$.budget_usd"),
    "relative input_dir": ({"input_dir": "input-view"}, "$.input_dir"),
    "duplicate case": (
        {"cases": [{"id": "a", "input": {"image": "a.png", "width": 1, "height": 1}}] * 2},
        "$.cases[1].id: case ID 'a' is empty or repeated",
    ),
    "parent path": (
        {"cases": [{"id": "a", "input": {"image": "../adapter-request.json", "width": 1, "height": 1}}]},
        "$.cases[0].input",
    ),
    "absolute path": (
        {"cases": [{"id": "a", "input": {"image": "/etc/passwd", "width": 1, "height": 1}}]},
        "must be relative to input_dir",
    ),
    "jitter not an integer": ({"options": {"variant": "baseline", "jitter": "1.5"}}, "jitter must be a non-negative integer seed"),
    "malformed input": (
        {"cases": [{"id": "a", "input": {"image": "a.png", "width": 1, "height": 1, "rows": [3]}}]},
        "$.cases[0].input",
    ),
}


@pytest.mark.parametrize("change", REFUSALS.values(), ids=REFUSALS.keys())
def test_refusals_are_a_failed_result_naming_the_field_and_predict_nothing(tmp_path, change):
    """The kit refuses a request it cannot honour before any case starts: a failed result whose
    error names the field (core reports it as the run's technical failure), and no predictions."""
    overrides, message = change
    request = write_request(tmp_path, **overrides)
    output = tmp_path / "adapter"
    output.mkdir()
    completed = run_adapter(request, output)
    assert completed.returncode == 0, completed.stderr
    assert "Traceback" not in completed.stderr
    assert [p.name for p in output.iterdir()] == ["adapter-result.json"]
    result = json.loads((output / "adapter-result.json").read_text())
    assert result["status"] == "failed"
    assert message in result["error"]


def test_link_leading_out_of_the_input_dir_is_refused(tmp_path):
    request = write_request(tmp_path)
    data = json.loads(request.read_text())
    secret = tmp_path / "answers.png"
    draw_table("unruled").image.save(secret)
    (Path(data["input_dir"]) / "assets" / "link.png").symlink_to(secret)
    data["cases"][0]["input"]["image"] = "assets/link.png"
    request.write_text(json.dumps(data))
    completed = run_adapter(request, tmp_path / "adapter")
    assert completed.returncode == 0, completed.stderr
    result = json.loads((tmp_path / "adapter" / "adapter-result.json").read_text())
    assert result["status"] == "failed"
    assert "leads outside input_dir" in result["error"]


def test_non_empty_output_is_refused(tmp_path):
    request = write_request(tmp_path)
    output = tmp_path / "adapter"
    output.mkdir()
    (output / "adapter-result.json").write_text("{}")
    completed = run_adapter(request, output)
    assert completed.returncode == 1
    assert "not empty" in completed.stderr
    assert (output / "adapter-result.json").read_text() == "{}"


def test_usage_errors_exit_2(tmp_path):
    completed = subprocess.run([*ADAPTER, "run", "--output", str(tmp_path)], capture_output=True, text=True)
    assert completed.returncode == 2
    assert "--request" in completed.stderr


def test_help_and_version():
    for flag in ("-h", "--help"):
        completed = subprocess.run([*ADAPTER, flag], capture_output=True, text=True)
        assert completed.returncode == 0
        assert "run" in completed.stdout
    completed = subprocess.run([*ADAPTER, "--version"], capture_output=True, text=True)
    assert completed.returncode == 0
    assert metadata.version("envirobench-reference-adapter") in completed.stdout


def test_describe_lists_every_solver_and_the_options():
    completed = subprocess.run([*ADAPTER, "describe", "--json"], capture_output=True, text=True)
    assert completed.returncode == 0, completed.stderr
    described = json.loads(completed.stdout)
    assert described["benchmarks"] == sorted(protocol.SOLVERS)
    assert described["options"] == {"variant": "default", "jitter": ""}
    assert described["priced_models"] == []  # it calls no priced service


def test_variant_aliases_are_resolved_once_for_the_run():
    """The solver gets the variant's name, never an alias: `default` is each solver's default."""
    assert protocol.resolve_options("table-separators", {"variant": "default", "jitter": ""}) == {"variant": "v2", "jitter": ""}
    assert protocol.resolve_options("table-records", {"variant": "default", "jitter": "3"}) == {"variant": "v1", "jitter": "3"}
    assert protocol.resolve_options("table-records", {"variant": "baseline", "jitter": ""})["variant"] == "baseline"
    with pytest.raises(ValueError, match="unknown variant 'v2'"):
        protocol.resolve_options("table-records", {"variant": "v2", "jitter": ""})


def test_plugin_registers_the_reference_adapter(monkeypatch):
    monkeypatch.setenv(plugins.LOAD_PLUGINS_ENV, "")  # only core and the module passed here
    registry = plugins.build_registry(extra=[("reference-adapter", reference_plugin)])
    assert registry.adapters["reference"].command == (sys.executable, "-m", "envirobench_reference_adapter")
    entry_points = {ep.name: ep.value for ep in metadata.entry_points(group=plugins.ENTRY_POINT_GROUP)}
    assert entry_points["reference-adapter"] == "envirobench_reference_adapter.plugin"


AUDITED_RUN = """
import json, sys
from envirobench_reference_adapter.protocol import ADAPTER
import PIL.Image
PIL.Image.init()  # Pillow imports its format plugins lazily; load them before auditing
opened = []
def audit(event, args):
    if event == "open" and isinstance(args[0], (str, bytes)):
        opened.append(str(args[0]))
    elif event in ("os.listdir", "os.scandir") and args and args[0] is not None:
        opened.append(str(args[0]))
sys.addaudithook(audit)
try:
    ADAPTER.run(sys.argv[1], sys.argv[2])
finally:
    sys.stdout.write(json.dumps(opened))
"""


def test_reads_nothing_but_the_request_and_the_input_dir(tmp_path):
    request = write_request(tmp_path)
    # A decoy next to the input view: the adapter must never look at it.
    (tmp_path / "answers.jsonl").write_text('{"id": "ts-ruled", "answer": {"rows": [1]}}\n')
    output = tmp_path / "adapter"
    completed = subprocess.run(
        [sys.executable, "-c", AUDITED_RUN, str(request), str(output)], capture_output=True, text=True, timeout=120
    )
    assert completed.returncode == 0, completed.stderr
    input_dir = (tmp_path / "input-view").resolve()
    code_roots = {Path(p).resolve() for p in (sys.prefix, sys.base_prefix)}
    code_roots |= {Path(m.__file__).resolve().parents[1] for m in (plugins, reference_plugin)}
    touched = set()
    for name in json.loads(completed.stdout):
        path = Path(name).resolve()
        if any(path.is_relative_to(root) for root in code_roots):
            continue  # the interpreter and installed code, loaded lazily
        if path.suffix in (".py", ".pyc") or (path.is_dir() and not path.is_relative_to(input_dir)):
            # The kit imports the served type's category package (its Input and Prediction
            # records): its modules are read and its directories listed, no data file is opened.
            continue
        touched.add(path)
    written = {p.resolve() for p in output.iterdir()}
    allowed_outputs = {output.resolve()}
    for path in touched:
        assert (
            path == request.resolve()
            or path.is_relative_to(input_dir)
            or path.parent in allowed_outputs
            or path in written
            or path == output.resolve()
        ), f"adapter touched {path}"
    read_inputs = {p for p in touched if p.is_relative_to(input_dir) and p.suffix == ".png"}
    assert len(read_inputs) == len(LAYOUTS)
    assert (tmp_path / "answers.jsonl").resolve() not in touched
