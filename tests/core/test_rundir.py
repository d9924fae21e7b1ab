"""The run directory as a typed format: every file reads back into the record it was written from,
the fast writers give exactly the converter's JSON, and a file that does not match is refused with
the field and the way out."""

from __future__ import annotations

import json

import pytest

from envirobench import rundir, rundir_text
from envirobench.converter import unstructure
from envirobench.errors import EnviroBenchError
from envirobench.jsonio import dumps, stream_document
from envirobench.runs import execute_run


@pytest.fixture
def run_dir(make_run, results):
    make_run("base", off="c000001:1,c000004:-2")
    make_run("ctl", off="c000001:1,c000005:1")
    make_run("cand", off="c000002:1,c000004:-2", baseline=results / "base", controls=(results / "ctl",), gates=("exact", "near"), targets=("c000003",))
    return results / "cand"


def test_every_record_reads_back_to_the_same_json(run_dir):
    for name, read in (
        (rundir.RUN_FILE, rundir.read_run),
        (rundir.METRICS_FILE, rundir.read_metrics),
        (rundir.COMPARISON_FILE, rundir.read_comparison),
        (rundir.REVIEW_BRIEF_FILE, rundir.read_review_brief),
    ):
        on_disk = json.loads((run_dir / name).read_text(encoding="utf-8"))
        assert json.loads(json.dumps(unstructure(read(run_dir)))) == on_disk, name


def test_writers_in_pieces_give_the_converters_text(run_dir):
    metrics = rundir.read_metrics(run_dir)
    assert "".join(rundir_text.metrics_text(metrics)) == dumps(unstructure(metrics), indent=None)
    comparison = rundir.read_comparison(run_dir)
    assert "".join(rundir_text.comparison_text(comparison)) == dumps(unstructure(comparison), indent=None)


@pytest.mark.parametrize("count", [0, 1, 999, 1000, 1001, 2500])
def test_the_request_text_in_pieces_is_the_converters_text(count):
    from envirobench.protocol import AdapterRequest, RequestBenchmark, RequestCase, RequestDataset

    cases = tuple(RequestCase(f"c{i}\u00e9" if i % 7 else f"c{i}", {"text": f"w\u00fcrd {i} \"q\"", "n": i, "z": [None, 1.5]}) for i in range(count))
    request = AdapterRequest(format="envirobench.adapter-request.v1", protocol="envirobench.adapter.v1", run_id="r", model="m", budget_usd=1.5,
                             options={"b": "2", "a": "1"}, benchmark=RequestBenchmark("count-words", "x"), dataset=RequestDataset("d", "1", "sha256:0"),
                             input_dir="/in", cases=cases)
    assert rundir_text.request_text(request) == dumps(unstructure(request), indent=None)


@pytest.mark.parametrize("cache", [1, 2, 50_000])
def test_metrics_text_of_shared_scores_is_the_converters_text_whatever_its_cache(run_dir, make_run, results, monkeypatch, cache):
    """A new run's metrics share score objects (scoring.SharedScores) and metrics_text reuses the
    text of each; that must change no byte, when its bounded caches are cleared too."""
    from envirobench import runs

    captured = {}
    real = runs.build_metrics  # a run builds its metrics in runs.write_scored
    monkeypatch.setattr(runs, "build_metrics", lambda *a, **k: captured.setdefault("m", real(*a, **k)))
    make_run("again", off="c000002:1,c000004:-2", baseline=results / "base", controls=(results / "ctl",))
    metrics = captured["m"]
    monkeypatch.setattr(rundir_text, "_TEXT_CACHE", cache)
    monkeypatch.setattr(rundir_text, "_CASE_CACHE", cache)
    text = "".join(rundir_text.metrics_text(metrics))
    assert text == dumps(unstructure(metrics), indent=None)
    assert text.encode() == (results / "again" / rundir.METRICS_FILE).read_bytes()


def test_a_string_that_looks_like_the_placeholder_is_written_as_it_is():
    document = {"a": "\u0000", "b": ["\x00", {"c": 1}], "z": None}
    pieces = list(stream_document(document, "m", iter(["[1, ", "2]"])))
    assert "".join(pieces) == dumps({**document, "m": [1, 2]}, indent=None)


def test_writing_what_was_read_reproduces_the_bytes(run_dir, tmp_path):
    copy = tmp_path / "copy"
    copy.mkdir()
    rundir_text.write_metrics(copy, rundir.read_metrics(run_dir))
    rundir_text.write_comparison(copy, rundir.read_comparison(run_dir))
    rundir.write_review_brief(copy, rundir.read_review_brief(run_dir))
    rundir.write_run(copy, rundir.read_run(run_dir))
    for name in (rundir.METRICS_FILE, rundir.COMPARISON_FILE, rundir.REVIEW_BRIEF_FILE, rundir.RUN_FILE):
        assert (copy / name).read_bytes() == (run_dir / name).read_bytes(), name


def test_headlines_without_the_cases(run_dir):
    full, head = rundir.read_metrics(run_dir), rundir.read_metrics(run_dir, cases=False)
    assert head.cases == {} and full.cases and head.profiles == full.profiles


@pytest.mark.parametrize(
    ("name", "edit", "field"),
    [
        (rundir.RUN_FILE, lambda d: d["dataset"].update(version="1"), "$.dataset.version"),
        (rundir.RUN_FILE, lambda d: d.update(surprise=1), "$"),
        (rundir.RUN_FILE, lambda d: d["gate"].update(status="maybe"), "$.gate.status"),
        (rundir.METRICS_FILE, lambda d: d["cases"]["c000001"]["runs"]["candidate"]["exact"].update(errors=[[{"nested": 1}]]), "$.cases['c000001'].runs['candidate']['exact']"),
        (rundir.METRICS_FILE, lambda d: d["cases"]["c000002"]["runs"]["candidate"]["exact"]["metrics"].update(accuracy="high"), "$.cases['c000002'].runs['candidate']['exact']"),
        (rundir.REVIEW_BRIEF_FILE, lambda d: d["profiles"]["exact"].pop("worse"), "$.profiles['exact'].worse"),
    ],
)
def test_a_file_that_does_not_match_its_format_is_refused_with_the_field(run_dir, name, edit, field):
    data = json.loads((run_dir / name).read_text(encoding="utf-8"))
    edit(data)
    (run_dir / name).write_text(json.dumps(data), encoding="utf-8")
    reader = {rundir.RUN_FILE: rundir.read_run, rundir.METRICS_FILE: rundir.read_metrics, rundir.REVIEW_BRIEF_FILE: rundir.read_review_brief}[name]
    with pytest.raises(EnviroBenchError) as refused:
        reader(run_dir)
    assert refused.value.file.endswith(name) and refused.value.field == field, str(refused.value)
    if name != rundir.RUN_FILE:  # a scored file is made again by rescoring
        assert f"envirobench score --run {run_dir}" in str(refused.value)


def test_another_format_is_refused_by_name(run_dir):
    data = json.loads((run_dir / rundir.RUN_FILE).read_text(encoding="utf-8"))
    data["format"] = "envirobench.run.v0"
    (run_dir / rundir.RUN_FILE).write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(EnviroBenchError, match="'envirobench.run.v0' is not 'envirobench.run.v1'"):
        rundir.read_run(run_dir)


def test_not_a_run_directory(tmp_path):
    with pytest.raises(EnviroBenchError, match=r"not a run directory \(no run.json\)"):
        rundir.read_run(tmp_path)


def test_a_completed_run_is_required_for_scores(make_spec, toy_registry):
    outcome = execute_run(make_spec("broken", options={"mode": "crash"}), toy_registry)
    assert outcome.status == "failed"
    assert rundir.read_run(outcome.run_dir).status == "failed"
    with pytest.raises(EnviroBenchError, match="did not complete"):
        rundir.read_completed_run(outcome.run_dir)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, 6])
def test_members_written_in_batches_join_into_one_json_text(n):
    items = [f"c{i}" for i in range(n)]
    as_object = "".join(rundir_text._in_batches(items, lambda batch: dumps({cid: {"n": cid} for cid in batch}, indent=None).rstrip("\n"), size=2))
    assert json.loads(as_object) == {cid: {"n": cid} for cid in items}
    as_array = "".join(rundir_text._in_batches(items, lambda batch: dumps(list(batch), indent=None).rstrip("\n"), size=2))
    assert as_array == dumps(items, indent=None).rstrip("\n")
