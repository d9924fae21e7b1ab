"""A baseline's or control's per-case scores are taken from its own metrics.json instead of
rescoring it, only when that gives exactly what rescoring would (compared.saved_scores): the same
bytes recorded in its run.json, the same scoring version and dataset revision. Otherwise it is
rescored, and run.json says why (docs/runs.md, "Pairing and the gate")."""

from __future__ import annotations

import hashlib
import json

import pytest

from envirobench import compared, rundir, scoring
from envirobench.runs import rescore_run
from envirobench.testing import CountWords


@pytest.fixture(autouse=True)
def reusing(monkeypatch):
    """count-words scores faster than it reads scores back, so it opts out of reuse; these
    tests opt it in (one test checks the opt-out)."""
    monkeypatch.setattr(CountWords, "REUSE_SCORES", True)


@pytest.fixture
def scored_runs(monkeypatch):
    """How many cases each compared run rescored had (compared.load_compared_run's calls of
    score_run; a run's own scoring goes through runs.score_and_gate)."""
    seen: list[int] = []
    real = scoring.score_run

    def counting(btype, cases, answers, predictions, **kw):
        seen.append(len(cases))
        return real(btype, cases, answers, predictions, **kw)

    monkeypatch.setattr(compared, "score_run", counting)
    return seen


def outputs(run_dir):
    return {name: (run_dir / name).read_bytes() for name in rundir.SCORED_FILES}


def test_a_compared_runs_scores_are_reused_and_give_the_same_bytes(make_run, results, toy_registry, scored_runs, monkeypatch):
    make_run("base", off="c000001:1,c000004:2")
    make_run("ctl", off="c000001:1,c000007:1")
    make_run("cand", off="c000002:3", baseline=results / "base", controls=(results / "ctl",))
    assert scored_runs == []  # neither the baseline nor the control was scored again
    pairing = rundir.read_run(results / "cand").pairing
    assert pairing.baseline.rescored_because is None and pairing.controls[0].rescored_because is None
    reused = outputs(results / "cand")
    assert rundir.read_run(results / "base").metrics_sha256 is not None

    # Rescored instead: every output the same, byte for byte.
    monkeypatch.setattr(compared, "saved_scores", lambda *a, **k: (None, "forced by the test"))
    scored_runs.clear()
    rescore_run(results / "cand", toy_registry)
    assert scored_runs == [12, 12]  # the baseline and the control, every case
    assert outputs(results / "cand") == reused
    assert rundir.read_run(results / "cand").pairing.baseline.rescored_because == "forced by the test"


def test_a_rescored_run_is_reused_by_the_next(make_run, results, toy_registry, scored_runs):
    """Rescoring a run records the digest of its new metrics.json: runs compared with it later
    reuse the new scores."""
    make_run("base", off="c000001:1")
    before = rundir.read_run(results / "base").metrics_sha256
    rescore_run(results / "base", toy_registry, gates=("near",))
    after = rundir.read_run(results / "base").metrics_sha256
    assert after != before and after == hashlib.sha256((results / "base" / "metrics.json").read_bytes()).hexdigest()
    make_run("cand", off="", baseline=results / "base")
    assert scored_runs == [] and rundir.read_run(results / "cand").pairing.baseline.rescored_because is None


def test_a_type_that_scores_faster_than_it_reads_opts_out(make_run, results, scored_runs, monkeypatch):
    monkeypatch.setattr(CountWords, "REUSE_SCORES", False)
    make_run("base", off="c000001:1")
    make_run("cand", off="", baseline=results / "base")
    assert scored_runs == [12]
    because = rundir.read_run(results / "cand").pairing.baseline.rescored_because
    assert because == "count-words scores a case faster than its score is read back (REUSE_SCORES is False)"


def test_a_changed_metrics_json_is_not_trusted(make_run, results):
    make_run("base", off="c000001:1,c000004:2")
    metrics = results / "base" / "metrics.json"
    data = json.loads(metrics.read_text())
    # Claim the baseline right where it was wrong: a reused score would hide two regressions' worth of errors.
    for cid in ("c000001", "c000004"):
        for profile in ("exact", "near"):
            data["cases"][cid]["runs"]["candidate"][profile] = {"errors": [], "metrics": {"accuracy": 1.0}}
    metrics.write_text(json.dumps(data))
    outcome = make_run("cand", off="c000001:1", baseline=results / "base")
    because = rundir.read_run(results / "cand").pairing.baseline.rescored_because
    assert because == "its metrics.json is not the file its run.json recorded (changed since it was scored)"
    # Scored from its predictions: c000001 was wrong in the baseline too, so no regression.
    assert outcome.gate.status == "passed"


@pytest.mark.parametrize("damage, reason", [
    ("version", "it was scored by count-words scoring version envirobench.count-words.scores.v1, this is 2"),
    ("digest", "its run.json records no digest of its metrics.json (a run scored before core 0.2.0)"),
])
def test_rescored_with_the_reason_when_reuse_would_not_be_exact(make_run, results, monkeypatch, damage, reason):
    make_run("base", off="c000001:1")
    if damage == "version":
        monkeypatch.setattr(CountWords, "SCORING_VERSION", "2")
    else:
        run_json = results / "base" / "run.json"
        data = json.loads(run_json.read_text())
        del data["metrics_sha256"]
        run_json.write_text(json.dumps(data))
    make_run("cand", off="", baseline=results / "base")
    assert rundir.read_run(results / "cand").pairing.baseline.rescored_because == reason
