"""Offline rescoring, re-pairing and re-keying with `envirobench score`."""

from __future__ import annotations

import copy
import json
import re
import shutil
from pathlib import Path

import attrs
import pytest
from click.testing import CliRunner

from envirobench import datasets as ds
from envirobench import plugins
from envirobench.cli import main
from envirobench.errors import EnviroBenchError
from envirobench.jsonio import dumps
from envirobench.outputs import render_summary
from envirobench.report import build_page, render_report, report_viewers
from envirobench.rundir import read_comparison, read_metrics, read_run
from envirobench.runs import rescore_run
from envirobench.testing import toy_plugin, write_count_dataset


def load(path):
    return json.loads(path.read_text())


def test_rescore_reproduces_metrics_byte_for_byte(use_registry, make_run, results, toy_registry, monkeypatch):
    make_run("base", off="c000001:1")
    make_run("cand", off="c000002:1", baseline=results / "base")
    files = {name: (results / "cand" / name).read_bytes() for name in ("metrics.json", "comparison.json", "summary.md", "review-brief.json", "run.json")}
    use_registry(toy_registry)
    result = CliRunner().invoke(main, ["score", "--run", str(results / "cand")])
    assert result.exit_code == 0, result.output
    for name, before in files.items():
        assert (results / "cand" / name).read_bytes() == before, name


def test_rescore_never_calls_the_adapter(make_run, results, toy_registry, fake):
    make_run("cand")
    fake.write_text("#!/bin/sh\nexit 99\n")  # the adapter is gone; rescoring must not need it
    assert rescore_run(results / "cand", toy_registry).status == "completed"


def test_repair_with_baseline_and_change_gate(make_run, results, toy_registry):
    make_run("base", off="c000001:1")
    make_run("cand", off="c000002:1")
    assert load(results / "cand" / "run.json")["gate"]["status"] == "baseline required"
    out = rescore_run(results / "cand", toy_registry, baseline=results / "base")
    assert out.gate.status == "failed"
    record = load(results / "cand" / "run.json")
    assert record["pairing"]["baseline"]["run_id"] == "base"
    assert record["history"][-1]["action"] == "rescore"
    assert record["history"][-1]["before"]["gate"]["status"] == "baseline required"
    # Targets and gated profiles can change offline too.
    out = rescore_run(results / "cand", toy_registry, gates=["near"], targets=["c000002"])
    assert out.gate.profiles == ("near",) and out.gate.status == "passed"
    out = rescore_run(results / "cand", toy_registry, gates=["exact"], targets=["c000002"])
    assert out.gate.by_profile["exact"].failing_targets == ("c000002",)


def test_rekey_to_corrected_answer_changes_exactly_that_case(make_run, results, toy_registry, tmp_path, count_dataset):
    make_run("cand")
    before = load(results / "cand" / "metrics.json")
    fixed = write_count_dataset(tmp_path / "count-v2", 12, version=2, answer_overrides={"c000004": 42})
    rescore_run(results / "cand", toy_registry, rekey=str(fixed))
    after = load(results / "cand" / "metrics.json")
    changed = [cid for cid in before["cases"] if before["cases"][cid] != after["cases"][cid]]
    assert changed == ["c000004"]
    assert after["cases"]["c000004"]["runs"]["candidate"]["exact"]["errors"] == [["wrong-count", "under"]]
    record = load(results / "cand" / "run.json")
    assert record["dataset"]["version"] == 2 and record["history"][-1]["action"] == "rekey"
    assert record["history"][-1]["before"]["dataset"]["version"] == 1
    assert after["dataset"]["answer_digest"] != before["dataset"]["answer_digest"]
    assert after["dataset"]["input_digest"] == before["dataset"]["input_digest"]


def test_rekey_with_changed_input_is_refused(make_run, results, toy_registry, tmp_path):
    make_run("cand")
    before = {p.name: p.read_bytes() for p in (results / "cand").iterdir() if p.is_file()}
    changed = write_count_dataset(tmp_path / "count-v2", 12, version=2, text_overrides={"c000004": "a different text"})
    with pytest.raises(EnviroBenchError) as info:
        rescore_run(results / "cand", toy_registry, rekey=str(changed))
    assert "inputs differ" in info.value.message and "changed input files: 'cases.jsonl'" in info.value.message
    assert {p.name: p.read_bytes() for p in (results / "cand").iterdir() if p.is_file()} == before


def test_rekeyed_baseline_pairs_with_new_revision(make_run, results, toy_registry, tmp_path):
    make_run("base", off="c000001:1")
    fixed = write_count_dataset(tmp_path / "count-v2", 12, version=2, answer_overrides={"c000004": 42})
    registry_v2 = plugins.build_registry(extra=[("toy", toy_plugin(("test/count-words-v1", fixed)))])
    with pytest.raises(EnviroBenchError, match="re-key it first"):
        make_run("cand", registry=registry_v2, baseline=results / "base")
    rescore_run(results / "base", toy_registry, rekey=str(fixed))
    out = make_run("cand", registry=registry_v2, baseline=results / "base")
    assert out.gate.status == "passed"  # c000001 improved; c000004 wrong in both runs


def test_score_of_failed_run_is_refused(use_registry, make_spec, results, toy_registry, monkeypatch):
    from envirobench.runs import execute_run

    execute_run(make_spec("bad", options={"mode": "crash"}), toy_registry)
    use_registry(toy_registry)
    result = CliRunner().invoke(main, ["score", "--run", str(results / "bad")])
    assert result.exit_code == 1 and "did not complete" in result.output


RUNS_0_1_0 = Path(__file__).parent / "data" / "runs-0.1.0"
# What rescoring the 0.1.0 candidate adds to its metrics.json (seed 1729, 1,000 resamples): its
# 12 cases, 9 right in exact and 10 in near; against the baseline 1 case became error-free and 2
# gained errors in exact, 1 gained errors in near.
STATISTICS_0_1_0_CANDIDATE = {
    "bootstrap": {"method": "percentile", "resamples": 1000, "seed": 1729, "confidence": 0.95, "cluster": None},
    "exact": {
        "intervals": {"accuracy": {"low": 0.5, "high": 1.0}},
        "paired": {"better": 1, "worse": 2, "p_value": 1.0, "change": {"accuracy": {"low": -0.33333333333333337, "high": 0.16666666666666674}}},
    },
    "near": {
        "intervals": {"accuracy": {"low": 0.5833333333333334, "high": 1.0}},
        "paired": {"better": 0, "worse": 1, "p_value": 1.0, "change": {"accuracy": {"low": -0.25, "high": 0.0}}},
    },
}


def test_runs_written_by_0_1_0_read_and_rescore_to_the_same_bytes(tmp_path, toy_registry):
    # toy_registry registers the same 12-case count-words dataset under the ID these runs name.
    # 0.1.0 gave it a digest over its files only; today's covers the whole manifest
    # (docs/datasets.md, Identity), so the runs are re-keyed to it: their inputs are unchanged.
    runs = tmp_path / "runs"
    shutil.copytree(RUNS_0_1_0, runs)
    for name in ("baseline", "control", "candidate"):
        assert read_run(runs / name).format == "envirobench.run.v1"
    old = read_run(runs / "candidate").dataset
    new = ds.load_dataset("test/count-words-v1", toy_registry).identity
    assert new.digest != old.digest and (new.input_digest, new.answer_digest) == (old.input_digest, old.answer_digest)
    untouched = {p.name: p.read_bytes() for p in (runs / "candidate").iterdir() if p.is_file()}

    # Without --rekey, rescoring is refused, saying to re-key; nothing is written.
    with pytest.raises(EnviroBenchError) as refused:
        rescore_run(runs / "candidate", toy_registry, baseline=runs / "baseline", controls=[runs / "control"])
    assert refused.value.field == "$.dataset.digest"
    assert f"move the run to it: envirobench score --run {runs / 'candidate'} --rekey test/count-words-v1" in refused.value.message
    assert old.digest in refused.value.message and new.digest in refused.value.message
    # Re-keyed, but paired with runs still on the old digest: refused, naming the command for each.
    with pytest.raises(EnviroBenchError) as refused:
        rescore_run(runs / "candidate", toy_registry, rekey="test/count-words-v1", baseline=runs / "baseline", controls=[runs / "control"])
    assert f"re-key it first: envirobench score --run {runs / 'baseline'} --rekey test/count-words-v1" in refused.value.message
    assert {p.name: p.read_bytes() for p in (runs / "candidate").iterdir() if p.is_file()} == untouched

    for name in ("baseline", "control"):
        rescore_run(runs / name, toy_registry, rekey="test/count-words-v1")
    outcome = rescore_run(runs / "candidate", toy_registry, rekey="test/count-words-v1", baseline=runs / "baseline", controls=[runs / "control"])
    assert outcome.gate.status == "failed"
    # Every output is what 0.1.0 wrote, but for the dataset digest in metrics.json and the
    # statistics 0.1.0 did not compute (docs/runs.md, Statistics): exactly these differ.
    for name in ("comparison.json", "review-brief.json"):
        assert (runs / "candidate" / name).read_bytes() == (RUNS_0_1_0 / "candidate" / name).read_bytes(), name
    expected = (RUNS_0_1_0 / "candidate" / "metrics.json").read_bytes()
    assert expected.count(old.digest.encode()) == 1
    expected = expected.replace(old.digest.encode(), new.digest.encode())
    written = (runs / "candidate" / "metrics.json").read_bytes()
    metrics = json.loads(written)
    assert dumps(metrics, indent=None).encode() == written  # canonical, so nothing hides in the layout
    statistics = {"bootstrap": metrics.pop("bootstrap")}
    for profile, entry in metrics["profiles"].items():
        statistics[profile] = {"intervals": entry.pop("intervals"), "paired": entry.pop("paired")}
    assert dumps(metrics, indent=None).encode() == expected  # the rest, byte for byte
    assert statistics == STATISTICS_0_1_0_CANDIDATE
    # summary.md and report.html: rendered from the same metrics without the statistics, the bytes
    # 0.1.0 wrote; with them, the intervals and the McNemar test besides.
    record = read_run(runs / "candidate")
    btype = toy_registry.benchmark_type("count-words")
    read = read_metrics(runs / "candidate")
    bare = attrs.evolve(read, bootstrap=None, profiles={p: attrs.evolve(m, intervals=None, paired=None) for p, m in read.profiles.items()})
    cases = ds.load_dataset("test/count-words-v1", toy_registry).cases(btype)
    assert render_summary(record, btype, bare, cases).encode() == (RUNS_0_1_0 / "candidate" / "summary.md").read_bytes()
    page = build_page(record, bare, read_comparison(runs / "candidate"), viewer_name=btype.VIEWER, assets={}, retired={})
    html = render_report(page, report_viewers(toy_registry, btype.VIEWER))
    # report.html: the same page, but for one change of presentation since 0.1.0: the headline
    # table holds the type's HEADLINE metrics and folds the rest of the summary under it.
    written = (RUNS_0_1_0 / "candidate" / "report.html").read_text()

    def headline_section(text: str) -> tuple[str, str]:
        before, rest = text.split('<section id="headline">', 1)
        section, after = rest.split("</section>", 1)
        # Every style and every untyped script (the page's own, and each viewer's) is core's
        # code, not the run's: rescoring renders the page with today's code (issue 36 changed the
        # page's, issue 37 the viewers'). The run's part is the markup and the typed data scripts;
        # the copy under data/ keeps a one-line note in place of each code block (its README.md).
        page = re.sub(r"<style>.*?</style>", "<style>CODE</style>", before + after, flags=re.S)
        page = re.sub(r"<script>.*?</script>", "<script>CODE</script>", page, flags=re.S)
        # ... and the case list's Sort control (issue 36) is new beside the filters.
        page = page.replace('    <label>Sort <select id="eb-sort" name="sort"></select></label>\n', "")
        return page, section

    (rest_now, headline_now), (rest_then, headline_then) = headline_section(html), headline_section(written)
    assert rest_now == rest_then
    cells = re.compile(r"<td>([a-z_@0-9 ]+)</td>")
    assert sorted(cells.findall(headline_now)) == sorted(cells.findall(headline_then)) != []
    summary = (runs / "candidate" / "summary.md").read_text()
    assert "| exact (gated) | accuracy | 0.7500 [0.5000, 1.0000] | 0.8333 | -0.0833 [-0.3333, +0.1667] |" in summary
    assert "Cases that became error-free or gained errors: 1 better, 2 worse, p = 1 (exact McNemar test)." in summary
    report = (runs / "candidate" / "report.html").read_text()
    assert "[0.5000, 1.0000]" in report and "1 better, 2 worse, p = 1 (exact McNemar test)" in report
    assert load(runs / "candidate" / "metrics.json")["dataset"]["digest"] == new.digest
    record = read_run(runs / "candidate")
    assert record.dataset.digest == new.digest and record.dataset.input_digest == old.input_digest
    assert record.history[-1].action == "rekey" and record.history[-1].before.dataset.digest == old.digest
    assert record.history[-1].before.pairing.baseline.path.endswith("/baseline")
    # Rescored again, now with nothing changed: the same bytes.
    again = {p.name: p.read_bytes() for p in (runs / "candidate").iterdir() if p.is_file()}
    rescore_run(runs / "candidate", toy_registry)
    assert {p.name: p.read_bytes() for p in (runs / "candidate").iterdir() if p.is_file()} == again


def test_a_revision_that_only_retires_cases_is_a_new_identity(make_run, results, toy_registry, tmp_path):
    """Re-keying to a revision that retires cases is allowed (its inputs are unchanged), but the
    retirements are part of the digest: the run shows it moved, and plain rescoring refuses."""
    make_run("base", off="c000001:1")
    make_run("cand", off="c000002:1,c000005:1", baseline=results / "base")
    assert load(results / "cand" / "run.json")["gate"]["status"] == "failed"
    before = load(results / "cand" / "metrics.json")["dataset"]
    retiring = write_count_dataset(tmp_path / "count-v1-retired", 12, retired={"c000002": "ambiguous", "c000005": "ambiguous"})
    registry = plugins.build_registry(extra=[("toy", toy_plugin(("test/count-words-v1", retiring)))])
    identity = ds.load_dataset("test/count-words-v1", registry).identity
    assert identity.version == before["version"] and identity.input_digest == before["input_digest"]
    assert identity.answer_digest == before["answer_digest"] and identity.digest != before["digest"]
    with pytest.raises(EnviroBenchError) as refused:
        rescore_run(results / "cand", registry)
    assert refused.value.field == "$.dataset.digest" and f"envirobench score --run {results / 'cand'} --rekey" in refused.value.message
    rescore_run(results / "base", registry, rekey=str(retiring))
    out = rescore_run(results / "cand", registry, rekey=str(retiring))
    assert out.gate.status == "passed"  # allowed, and visible:
    record = load(results / "cand" / "run.json")
    assert record["dataset"]["digest"] == identity.digest != before["digest"]
    assert record["history"][-1]["action"] == "rekey" and record["history"][-1]["before"]["dataset"]["digest"] == before["digest"]
    assert record["history"][-1]["before"]["gate"]["status"] == "failed"
    assert load(results / "cand" / "metrics.json")["dataset"]["digest"] == identity.digest


def test_a_run_directory_that_does_not_read_says_how_to_rescore_it(tmp_path, toy_registry):
    run = tmp_path / "candidate"
    shutil.copytree(RUNS_0_1_0 / "candidate", run)
    metrics = json.loads((run / "metrics.json").read_text())
    metrics["profiles"]["exact"]["regressions"] = "c000002"
    (run / "metrics.json").write_text(json.dumps(metrics))
    with pytest.raises(EnviroBenchError) as refused:
        read_metrics(run)
    message = str(refused.value)
    assert "metrics.json" in message and "$.profiles['exact'].regressions" in message
    assert f"envirobench score --run {run}" in message


def test_a_headline_metric_left_out_as_undefined_reads_n_a_in_the_summary(make_run, results, toy_registry):
    # A type leaves a metric out of its headline where it is undefined (precision when nothing was
    # predicted); the summary says n/a there instead of failing to be written.
    make_run("base", off="c000001:1")
    make_run("cand", off="c000002:1")
    rescore_run(results / "cand", toy_registry, baseline=results / "base")
    record, read = read_run(results / "cand"), read_metrics(results / "cand")
    counted = toy_registry.benchmark_type("count-words")
    btype = copy.copy(counted)  # the same type, its headline naming one more metric
    btype.HEADLINE = (*counted.HEADLINE, "precision")
    assert all("precision" not in m.headline for m in read.profiles.values())
    cases = ds.load_dataset(record.dataset.id, toy_registry).cases(btype)
    summary = render_summary(record, btype, read, cases)
    assert "| exact (gated) | precision | n/a | n/a | n/a |" in summary
    assert "| exact (gated) | accuracy | 0.9167 [" in summary
