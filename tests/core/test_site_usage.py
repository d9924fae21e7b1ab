"""Site-tier runs show each site's score beside its cost and wall time (issue 15): the adapter may
report them per case (`cases` in adapter-result.json), checked against the run's totals; without
them core shares the totals equally and says so."""

from __future__ import annotations

import json
import types
from pathlib import Path

import pytest
from reportkit import (
    ImageSeparators,
    fixture_adapter,
    make_separator_runs,
    separator_predictions,
    write_separator_dataset,
)

from envirobench import hookimpl, plugins
from envirobench.authoring import write_manifest
from envirobench.rundir import read_run
from envirobench.runs import RunSpec, execute_run

DATASET = "test/site-separators-v1"


class SiteSeparators(ImageSeparators):
    """The report kit's separators type, as a site-tier type (each case one "site")."""

    ID = "test-site-separators"
    FORMAT = "envirobench.test-site-separators.v1"
    SCORING_VERSION = "envirobench.test-site-separators.scores.v1"
    TIER = "site"


@pytest.fixture
def site_setup(tmp_path: Path):
    root = write_separator_dataset(tmp_path / "sites", 5)
    write_manifest(root, dataset_id=DATASET, version=1, benchmark=SiteSeparators.ID, title="Sites (generated for tests)")

    @hookimpl
    def envirobench_benchmark_types(register):
        register(ImageSeparators)
        register(SiteSeparators)

    @hookimpl
    def envirobench_datasets(register):
        register(DATASET, root)

    registry = plugins.build_registry(extra=[("sitekit", types.SimpleNamespace(envirobench_benchmark_types=envirobench_benchmark_types, envirobench_datasets=envirobench_datasets))])
    predictions = tmp_path / "predictions.json"
    predictions.write_text(json.dumps(separator_predictions(5)["candidate"]))
    return tmp_path, registry, predictions


def run(tmp_path: Path, registry, predictions: Path, run_id: str, *, cost: float = 0.0, usage=None):
    options = {"predictions": str(predictions), "cost": str(cost)}
    if usage is not None:
        path = tmp_path / f"{run_id}-usage.json"
        path.write_text(json.dumps(usage))
        options["usage"] = str(path)
    spec = RunSpec(adapter=str(fixture_adapter(tmp_path)), run_id=run_id, model="test/model", benchmark=SiteSeparators.ID, dataset=DATASET,
                   budget_usd=10.0, options=options, results_dir=tmp_path / "results", sandbox="none")
    return execute_run(spec, registry)


def test_without_per_case_figures_the_totals_are_shared_and_marked_averaged(site_setup):
    tmp_path, registry, predictions = site_setup
    outcome = run(tmp_path, registry, predictions, "shared", cost=2.0)
    assert outcome.status == "completed", outcome.message
    record = read_run(outcome.run_dir)
    assert record.cases.sites == 5
    assert [u.case for u in record.per_site] == ["t000", "t001", "t002", "t003", "t004"]
    assert all(u.cost_usd == 0.4 and u.cost_averaged and u.wall_averaged for u in record.per_site)
    assert sum(u.wall_time_s for u in record.per_site) == pytest.approx(record.adapter_wall_time_s, abs=1e-5)
    summary = (outcome.run_dir / "summary.md").read_text()
    assert "## Per site" in summary and "| t002 | " in summary and "$0.4000 (averaged)" in summary
    assert "did not report them per case" in summary
    report = (outcome.run_dir / "report.html").read_text()
    assert 'id="sites"' in report and "averaged" in report


def test_per_case_figures_are_shown_as_the_adapter_gave_them(site_setup):
    tmp_path, registry, predictions = site_setup
    usage = [{"id": f"t{i:03d}", "cost_usd": 0.25 * i, "wall_s": 10.0 + i} for i in range(5)]
    outcome = run(tmp_path, registry, predictions, "given", cost=2.5, usage=usage)
    assert outcome.status == "completed", outcome.message
    record = read_run(outcome.run_dir)
    assert [(u.cost_usd, u.wall_time_s, u.cost_averaged, u.wall_averaged) for u in record.per_site] == [
        (0.0, 10.0, False, False), (0.25, 11.0, False, False), (0.5, 12.0, False, False), (0.75, 13.0, False, False), (1.0, 14.0, False, False)]
    summary = (outcome.run_dir / "summary.md").read_text()
    assert "| t003 | " in summary and "$0.7500 | 13.0 s |" in summary and "averaged" not in summary.split("## Per site")[1].split("##")[0]


def test_wall_times_alone_leave_the_cost_averaged(site_setup):
    tmp_path, registry, predictions = site_setup
    usage = [{"id": f"t{i:03d}", "wall_s": 5.0} for i in range(5)]
    record = read_run(run(tmp_path, registry, predictions, "walls", cost=1.0, usage=usage).run_dir)
    assert all(u.cost_averaged and not u.wall_averaged and u.wall_time_s == 5.0 and u.cost_usd == 0.2 for u in record.per_site)


@pytest.mark.parametrize(("usage", "field", "words"), [
    ([{"id": "nope", "cost_usd": 0.1}], "$.cases[0].id", "not requested"),
    ([{"id": "t000", "wall_s": 1.0}, {"id": "t000", "wall_s": 2.0}], "$.cases[1].id", "twice"),
    ([{"id": "t001", "wall_s": -1.0}], "$.cases[0].wall_s", "at least 0"),
    ([{"id": "t001", "cost_usd": 1.5}, {"id": "t002", "cost_usd": 1.0}], "$.cases", "more than"),
    ([{"id": "t001", "cost_usd": "1"}], "$.cases[0].cost_usd", ""),
])
def test_bad_per_case_figures_fail_the_run_and_name_the_field(site_setup, usage, field, words):
    tmp_path, registry, predictions = site_setup
    outcome = run(tmp_path, registry, predictions, "bad", cost=2.0, usage=usage)
    assert outcome.status == "failed"
    assert field in outcome.message and words in outcome.message and "adapter-result.json" in outcome.message
    assert not (outcome.run_dir / "metrics.json").exists()  # nothing scored


def test_other_tiers_have_no_per_site_figures(tmp_path):
    runs = make_separator_runs(tmp_path, 5)
    record = read_run(runs["cand"])
    assert record.per_site is None and record.cases.sites is None
    assert "## Per site" not in (runs["cand"] / "summary.md").read_text()
    assert 'id="sites"' not in (runs["cand"] / "report.html").read_text()
