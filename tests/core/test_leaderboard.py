"""Leaderboards from fake run directories written to the run-directory contract."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import jinja2
import pytest
from click.testing import CliRunner

from envirobench import categories as cats
from envirobench import datasets as ds
from envirobench import leaderboard as lb
from envirobench import plugins, rundir
from envirobench.cli.leaderboard import leaderboard_command
from envirobench.hookspecs import hookimpl
from envirobench.leaderboard import rendering as lb_render
from envirobench.testing import CountWords, write_count_dataset

EXTRACT = [t.id for t in cats.category_of("table-separators").tasks]
SITE = [t.id for t in cats.category_of("missing-information").tasks]
REFERENCE = {"adapter": "reference", "model": "reference/projection-profiles", "options": {"variant": "baseline"}}


@pytest.fixture(autouse=True)
def _fresh_registry():
    plugins.reset_registry()
    yield
    plugins.reset_registry()


def dataset_for(task, version=1, digest=None, answer="a"):
    return {
        "id": f"envirobench/{task}-synthetic-v1",
        "version": version,
        "digest": digest or f"sha256:{task}-{version}-{answer}",
        "input_digest": f"sha256:in-{task}-{version}",
        "answer_digest": f"sha256:ans-{task}-{version}-{answer}",
    }


PROFILES = ("logical", "strict")
MEASURES = ("primary_measure", "secondary")


def write_run(
    root: Path,
    run_id: str,
    task: str,
    primary: float = 0.8,
    *,
    headline: dict | None = None,
    system: dict | None = None,
    status: str = "completed",
    dataset: dict | None = None,
    cost: float | None = 0.0,
    wall: float | None = 10.0,
    sites: int | None = None,
    scored: int = 10,
    available: bool = True,
    scoring_version: str | None = None,
) -> Path:
    """A run directory as `envirobench run` writes it: run.json and (when completed) metrics.json."""
    system = system or REFERENCE
    run_dir = root / run_id
    run_dir.mkdir(parents=True)
    scoring_version = scoring_version or f"envirobench.{task}.scores.v1"
    identity = dataset or dataset_for(task)
    completed = status == "completed"
    no_cases = {p: () for p in PROFILES}
    record = rundir.RunRecord(
        format=rundir.RUN_FORMAT,
        run_id=run_id,
        status=status,
        failure=rundir.Failure("the adapter exited with status 1") if status == "failed" else None,
        created_at="2025-01-01T00:00:00+00:00",
        finished_at=None if status == "running" else "2025-01-01T00:10:00+00:00",
        core=rundir.CoreInfo("0.1.0"),
        benchmark=rundir.BenchmarkInfo(
            id=task,
            label=task,
            format=f"envirobench.{task}.v1",
            scoring_version=scoring_version,
            tier="public",
            profiles=PROFILES,
            headline=MEASURES,
            categories=cats.categories_of(task),
            viewer="json",
            plugin=rundir.PluginRef("fake", "fake-plugin", "0.1.0"),
        ),
        dataset=rundir.RunDataset(**identity, source=identity["id"]),
        adapter=rundir.AdapterRecord(requested=system["adapter"], command=("x",), name=system["adapter"], version="0.1.0"),
        model=system["model"],
        options=system["options"],
        budget_usd=100.0,
        cost_usd=cost,
        systems=(),
        wall_time_s=wall,
        adapter_wall_time_s=wall,
        cases=rundir.CaseCounts(requested=scored, scored=scored, retired=0, sites=sites),
        pairing=rundir.Pairing(),
        gate=rundir.GateRecord("passed", PROFILES, MEASURES[:1], {p: "passed" for p in PROFILES}, no_cases, no_cases) if completed else None,
        require_no_regressions=False,
    )
    rundir.write_run(run_dir, record)
    if not completed:
        return run_dir  # a run that did not complete has no metrics.json
    headline = headline if headline is not None else {"primary_measure": primary, "secondary": 0.1}
    metrics = rundir.Metrics(
        format=rundir.METRICS_FORMAT,
        run_id=run_id,
        benchmark=rundir.MetricsBenchmark(task, scoring_version, PROFILES, MEASURES),
        dataset=rundir.MetricsDataset(**identity),
        runs=(rundir.CANDIDATE,),
        gate=rundir.GateSummary("passed", PROFILES, MEASURES[:1]),
        profiles={"logical": profile_metrics(headline if available else None), "strict": profile_metrics({"primary_measure": 0.0})},
        cases={},
    )
    rundir.write_metrics(run_dir, metrics)
    return run_dir


def profile_metrics(headline: dict | None) -> rundir.ProfileMetrics:
    """One profile's metrics; without a headline the profile is unavailable."""
    return rundir.ProfileMetrics(
        available=headline is not None,
        gated=True,
        status="passed" if headline is not None else "unavailable",
        headline=headline,
        baseline_headline=None,
        change=None,
        controls_headline={},
        buckets={},
        regressions=(),
        unstable_regressions=(),
        improvements=(),
        unstable=(),
        failing_targets=(),
    )


def edit_json(path: Path, change) -> None:
    """Hand-edit a JSON file of a run directory (`change` edits the parsed value in place)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def invoke(*args):
    result = CliRunner().invoke(leaderboard_command, [str(a) for a in args])
    return result


def board_json(*args):
    result = invoke(*args, "--format", "json")
    assert result.exit_code == 0, result.output + result.stderr
    return json.loads(result.stdout), result


def row(data, category, label_part=""):
    cat = next(c for c in data["categories"] if c["name"] == category)
    rows = [r for r in cat["rows"] if label_part in r["system"]["label"]]
    assert len(rows) == 1, rows
    return rows[0]


# -- the reference adapter's runs ---------------------------------------------------------------


def test_reference_with_table_separators_only_is_incomplete_everywhere(tmp_path):
    write_run(tmp_path, "r1", "table-separators", 0.93)
    data, _ = board_json(tmp_path)
    extract = row(data, "Extract")
    assert extract["display"] == "Incomplete (1 of 6 tasks)"
    assert extract["score"] is None and extract["complete"] is False
    assert extract["tasks"]["table-separators"]["score"] == pytest.approx(93.0)
    assert extract["tasks"]["document-extraction"] is None  # missing: never zero, never dropped
    assert set(extract["tasks"]) == set(EXTRACT)


def test_reference_extract_scored_once_its_six_tasks_have_runs(tmp_path):
    primaries = {"document-extraction": 0.9, "table-separators": 0.93, "table-structure": 0.6, "table-cells": 0.7, "table-records": 0.5, "report-metadata": 0.8}
    for i, (task, value) in enumerate(primaries.items()):
        write_run(tmp_path, f"r{i}", task, value)
    data, result = board_json(tmp_path)
    extract = row(data, "Extract")
    expected = (4 * 90 + 93 + 60 + 70 + 50 + 80) / 9
    assert extract["complete"] and extract["score"] == pytest.approx(expected, abs=1e-6)
    assert extract["range"] == [pytest.approx(expected, abs=1e-6)] * 2
    counts = {c.name: len(c.tasks) for c in cats.CATEGORIES}
    for name in ("Verify", "Locate", "Research", "Legal", "Site"):
        assert row(data, name)["display"] == f"Incomplete (0 of {counts[name]} tasks)"
        assert row(data, name)["score"] is None
    assert result.stderr == ""
    md = invoke(tmp_path)
    assert md.exit_code == 0
    line = next(ln for ln in md.stdout.splitlines() if ln.startswith("| reference"))
    assert f"| {expected:.1f} |" in line
    assert "Incomplete (0 of 5 tasks)" in line and "Incomplete (0 of 4 tasks)" in line


def test_repeats_give_weighted_mean_of_task_means_with_range(tmp_path):
    write_run(tmp_path, "de-1", "document-extraction", 0.80)
    write_run(tmp_path, "de-2", "document-extraction", 0.90)
    write_run(tmp_path, "de-3", "document-extraction", 0.70)
    write_run(tmp_path, "ts-1", "table-separators", 0.50)
    write_run(tmp_path, "ts-2", "table-separators", 1.00)
    for task in EXTRACT[2:]:
        write_run(tmp_path, f"{task}-1", task, 0.60)
    data, _ = board_json(tmp_path)
    extract = row(data, "Extract")
    mean = (4 * 80 + 75 + 4 * 60) / 9
    low = (4 * 70 + 50 + 4 * 60) / 9
    high = (4 * 90 + 100 + 4 * 60) / 9
    assert extract["score"] == pytest.approx(mean)
    assert extract["range"] == [pytest.approx(low), pytest.approx(high)]
    assert extract["tasks"]["document-extraction"]["repeats"] == 3
    assert extract["tasks"]["document-extraction"]["range"] == [pytest.approx(70), pytest.approx(90)]
    assert extract["display"] == f"{mean:.1f} [{low:.1f}–{high:.1f}]"
    md = invoke(tmp_path, "--tasks").stdout
    assert "80.0 [70.0–90.0] ×3" in md


def test_systems_are_adapter_model_and_options(tmp_path):
    other = dict(REFERENCE, options={"variant": "tuned"})
    write_run(tmp_path, "a", "table-separators", 0.9)
    write_run(tmp_path, "b", "table-separators", 0.7, system=other)
    write_run(tmp_path, "c", "table-separators", 0.6, system=dict(REFERENCE, model="other/model"))
    data, _ = board_json(tmp_path)
    labels = [s["label"] for s in data["systems"]]
    assert len(labels) == 3
    assert row(data, "Extract", "variant=tuned")["tasks"]["table-separators"]["score"] == pytest.approx(70)


def test_no_overall_score_anywhere(tmp_path):
    for i, task in enumerate(EXTRACT + SITE):
        write_run(tmp_path, f"r{i}", task, 0.5, headline={"primary_measure": 0.5, "questions_right": 5, "invented_answers": 0, "questions": 10}, sites=2)
    data, _ = board_json(tmp_path, "--tasks")

    def keys(value):
        if isinstance(value, dict):
            for k, v in value.items():
                yield k
                yield from keys(v)
        elif isinstance(value, list):
            for v in value:
                yield from keys(v)

    assert not {k for k in keys(data) if re.search(r"overall|total_score|average|^rank$", k)}
    assert {c["name"] for c in data["categories"]} == {c.name for c in cats.CATEGORIES}
    for fmt in ("md", "html"):
        text = invoke(tmp_path, "--format", fmt, "--tasks").stdout
        header = text.lower()
        assert "overall" not in header.replace("there is no overall score", "")
    assert not any(hasattr(lb, name) for name in ("overall_score", "overall"))


# -- formulas through the leaderboard ---------------------------------------------------------------


def test_formula_task_reads_counts_from_headline(tmp_path):
    write_run(tmp_path, "ocr", "ocr-auto-accept", headline={"primary_measure": 0.99, "correct_accepts": 90, "wrong_accepts": 1, "readable_cells": 100})
    data, _ = board_json(tmp_path)
    assert row(data, "Verify")["tasks"]["ocr-auto-accept"]["score"] == pytest.approx(80.0)


def test_runs_that_cannot_be_scored_are_refused_with_reasons(tmp_path):
    write_run(tmp_path, "ok", "table-separators", 0.9)
    write_run(tmp_path, "failed", "table-separators", 0.9, status="failed")
    write_run(tmp_path, "running", "table-separators", 0.9, status="running")
    write_run(tmp_path, "big", "table-cells", 3.5)
    write_run(tmp_path, "nocounts", "ocr-auto-accept", headline={"primary_measure": 0.5})
    write_run(tmp_path, "unknown", "count-words", 0.5)
    write_run(tmp_path, "unavailable", "table-records", 0.5, available=False)
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "run.json").write_text("{not json", encoding="utf-8")
    data, result = board_json(tmp_path)
    reasons = {Path(r["path"]).name: r["reason"] for r in data["refused"]}
    assert set(reasons) == {"failed", "running", "big", "nocounts", "unknown", "unavailable", "broken"}
    assert "'failed'" in reasons["failed"] and "'running'" in reasons["running"]
    assert "[0, 1]" in reasons["big"]
    assert "wrong_accepts" in reasons["nocounts"]
    assert "not a task" in reasons["unknown"]
    assert "unavailable" in reasons["unavailable"]
    assert "not valid JSON" in reasons["broken"]
    assert "refused 7 run(s)" in result.stderr
    for name in reasons:
        assert name in result.stderr
    # A refused run is not a zero: its task is missing.
    assert row(data, "Extract")["tasks"]["table-cells"] is None
    assert row(data, "Extract")["display"] == "Incomplete (1 of 6 tasks)"


def test_malformed_run_files_are_refused_naming_file_and_field(tmp_path):
    write_run(tmp_path, "ok", "table-separators", 0.9)
    version = write_run(tmp_path, "version", "table-separators", 0.9)
    edit_json(version / "run.json", lambda run: run["dataset"].update(version="1"))
    headline = write_run(tmp_path, "headline", "table-separators", 0.9)
    edit_json(headline / "metrics.json", lambda m: m["profiles"]["logical"].update(headline="high"))
    extra = write_run(tmp_path, "extra", "table-separators", 0.9)
    edit_json(extra / "run.json", lambda run: run.update(score=99))
    nometrics = write_run(tmp_path, "nometrics", "table-separators", 0.9)
    (nometrics / "metrics.json").unlink()
    unnamed = write_run(tmp_path, "unnamed", "table-separators", 0.9)
    edit_json(unnamed / "run.json", lambda run: run["adapter"].update(name=None))
    data, result = board_json(tmp_path)
    refused = {Path(r["path"]).name: r for r in data["refused"]}
    assert set(refused) == {"version", "headline", "extra", "nometrics", "unnamed"}
    reasons = {name: r["reason"] for name, r in refused.items()}
    assert str(version / "run.json") in reasons["version"] and "$.dataset.version" in reasons["version"]
    assert "expected an integer" in reasons["version"]
    assert str(headline / "metrics.json") in reasons["headline"] and "$.profiles['logical'].headline" in reasons["headline"]
    assert "run.json" in reasons["extra"] and "score" in reasons["extra"]
    assert "metrics.json" in reasons["nometrics"]
    assert "run.json" in reasons["unnamed"] and "$.adapter.name" in reasons["unnamed"]
    # run.json read, so the run ID is known; a run.json that does not read has none.
    assert refused["headline"]["run_id"] == "headline" and refused["version"]["run_id"] is None
    assert "Traceback" not in result.stderr and "refused 5 run(s)" in result.stderr
    assert row(data, "Extract")["tasks"]["table-separators"]["repeats"] == 1


def test_run_dir_arguments_and_nested_adapter_files(tmp_path):
    run_dir = write_run(tmp_path / "results", "r1", "table-separators", 0.9)
    # A run.json an adapter happened to write inside its own folder is not a run.
    (run_dir / "adapter").mkdir()
    (run_dir / "adapter" / "run.json").write_text("{}", encoding="utf-8")
    data, _ = board_json(run_dir)
    assert len(data["systems"]) == 1 and data["refused"] == []
    data, _ = board_json(tmp_path)  # a results folder of results folders
    assert len(data["systems"]) == 1 and data["refused"] == []


def test_no_runs_found_is_an_error(tmp_path):
    result = invoke(tmp_path)
    assert result.exit_code == 1
    assert "no run directory" in result.output + result.stderr


def test_duplicate_run_is_refused(tmp_path):
    write_run(tmp_path / "a", "r1", "table-separators", 0.9)
    write_run(tmp_path / "b", "r1", "table-separators", 0.9)
    data, _ = board_json(tmp_path)
    assert len(data["refused"]) == 1 and "duplicate" in data["refused"][0]["reason"]
    assert row(data, "Extract")["tasks"]["table-separators"]["repeats"] == 1


# -- pinning ------------------------------------------------------------------------------------------


def test_pin_from_runs_takes_the_highest_revision(tmp_path):
    write_run(tmp_path, "old", "table-separators", 0.9, dataset=dataset_for("table-separators", 1))
    write_run(tmp_path, "new", "table-separators", 0.7, dataset=dataset_for("table-separators", 2))
    data, result = board_json(tmp_path)
    assert data["pins"]["table-separators"]["dataset"]["version"] == 2
    assert [Path(r["path"]).name for r in data["refused"]] == ["old"]
    assert "another revision" in data["refused"][0]["reason"]
    assert "old" in result.stderr
    assert row(data, "Extract")["tasks"]["table-separators"]["score"] == pytest.approx(70)


def test_rekeyed_answer_is_explained(tmp_path):
    write_run(tmp_path, "a", "table-separators", 0.9, dataset=dataset_for("table-separators", 1, answer="a"))
    write_run(tmp_path, "b", "table-separators", 0.9, dataset=dataset_for("table-separators", 1, answer="b"))
    result = invoke(tmp_path)
    assert result.exit_code == 1 and "--pin table-separators=" in result.output + result.stderr
    digest = dataset_for("table-separators", 1, answer="b")["digest"]
    data, _ = board_json(tmp_path, "--pin", f"table-separators={digest}")
    assert [Path(r["path"]).name for r in data["refused"]] == ["a"]
    assert "differs from the version pinned" in data["refused"][0]["reason"]


def test_ambiguous_datasets_need_a_pin(tmp_path):
    write_run(tmp_path, "a", "table-separators", 0.9, dataset=dict(dataset_for("table-separators"), id="one"))
    write_run(tmp_path, "b", "table-separators", 0.9, dataset=dict(dataset_for("table-separators"), id="two"))
    result = invoke(tmp_path)
    assert result.exit_code == 1
    assert "--pin" in result.output + result.stderr


@pytest.mark.parametrize("pin", ["nonsense", "no-such-task=sha256:x", "table-separators="])
def test_bad_pin_is_a_usage_error(tmp_path, pin):
    write_run(tmp_path, "a", "table-separators", 0.9)
    assert invoke(tmp_path, "--pin", pin).exit_code == 2


class Separators(CountWords):
    ID = "table-separators"
    SCORING_VERSION = "envirobench.table-separators.scores.v1"


@pytest.fixture
def registered(tmp_path):
    """Pretend the extract plugin is installed: a table-separators type and its registered dataset."""
    root = write_count_dataset(tmp_path / "data" / "synthetic-v1", 4, dataset_id="envirobench/table-separators-synthetic-v1")
    ds.write_manifest(root, dataset_id="envirobench/table-separators-synthetic-v1", version=1, benchmark="table-separators", title="t")

    class Plugin:
        @hookimpl
        def envirobench_benchmark_types(self, register):
            register(Separators)

        @hookimpl
        def envirobench_datasets(self, register):
            register("envirobench/table-separators-synthetic-v1", root)

    registry = plugins.build_registry(extra=[("fake-extract", Plugin())])
    identity = ds.load_dataset("envirobench/table-separators-synthetic-v1", registry).identity
    with plugins.using_registry(registry):
        yield {
            "id": identity.id,
            "version": identity.version,
            "digest": identity.digest,
            "input_digest": identity.input_digest,
            "answer_digest": identity.answer_digest,
        }


def test_registered_dataset_is_pinned(tmp_path, registered):
    results = tmp_path / "results"
    write_run(results, "pinned", "table-separators", 0.9, dataset=registered)
    write_run(results, "other", "table-separators", 0.5, dataset=dict(registered, digest="sha256:other", answer_digest="sha256:ans-other"))
    write_run(results, "oldscoring", "table-separators", 0.5, dataset=registered, scoring_version="envirobench.table-separators.scores.v0")
    data, result = board_json(results)
    pin = data["pins"]["table-separators"]
    assert pin["dataset"]["digest"] == registered["digest"] and "registered" in pin["source"]
    reasons = {Path(r["path"]).name: r["reason"] for r in data["refused"]}
    assert set(reasons) == {"other", "oldscoring"}
    assert "re-key" in reasons["other"]  # same inputs, another answer key
    assert "rescore" in reasons["oldscoring"]
    assert row(data, "Extract")["tasks"]["table-separators"]["score"] == pytest.approx(90)


def test_pin_by_dataset_id(tmp_path, registered):
    results = tmp_path / "results"
    write_run(results, "pinned", "table-separators", 0.9, dataset=registered)
    data, _ = board_json(results, "--pin", "table-separators=envirobench/table-separators-synthetic-v1")
    assert data["pins"]["table-separators"]["source"].startswith("--pin")
    assert data["refused"] == []


# -- the Site board -------------------------------------------------------------------------------------


def site_runs(root, name, primary, cost, wall=100.0, sites=4, model=None):
    system = dict(REFERENCE, model=model or name)
    for task in SITE:
        headline = {"primary_measure": primary}
        if task == "missing-information":
            headline = {"primary_measure": 0.1, "questions_right": primary * 10, "invented_answers": 0, "questions": 10}
        write_run(root, f"{name}-{task}", task, primary, headline=headline, system=system, cost=cost, wall=wall, sites=sites)


def test_site_board_costs_sorting_and_pareto(tmp_path):
    site_runs(tmp_path, "cheap", 0.6, cost=0.4)  # 0.1 per site per task -> 0.4 per site
    site_runs(tmp_path, "best", 0.9, cost=4.0)  # 1.0 per site per task -> 4.0 per site
    site_runs(tmp_path, "dominated", 0.6, cost=2.0)  # same score as cheap, dearer
    site_runs(tmp_path, "tie-dear", 0.9, cost=8.0)  # same score as best, dearer
    write_run(tmp_path, "partial", "recognized-conditions", 0.99, system=dict(REFERENCE, model="partial"), cost=0.0, sites=4)
    data, _ = board_json(tmp_path)
    site = next(c for c in data["categories"] if c["name"] == "Site")
    order = [r["system"]["model"] for r in site["rows"]]
    assert order == ["best", "tie-dear", "cheap", "dominated", "partial"]
    by_model = {r["system"]["model"]: r for r in site["rows"]}
    assert by_model["cheap"]["cost_per_site_usd"] == pytest.approx(0.4)
    assert by_model["cheap"]["wall_time_per_site_s"] == pytest.approx(4 * 100 / 4)
    assert by_model["cheap"]["tasks"]["site-timeline"]["cost_per_site_usd"] == pytest.approx(0.1)
    assert {m for m, r in by_model.items() if r["pareto"]} == {"best", "cheap"}
    assert by_model["partial"]["display"] == "Incomplete (1 of 4 tasks)" and by_model["partial"]["pareto"] is False

    md = invoke(tmp_path, "--tasks").stdout
    section = md.split("## Site board", 1)[1].split("\n## ", 1)[0]
    lines = [ln for ln in section.splitlines() if ln.startswith("| ") and not ln.startswith("| #") and not ln.startswith("| ---")]
    assert [ln.split(" | ")[1].split(" · ")[1] for ln in lines] == order
    assert "$0.4000" in lines[2] and "◆" in lines[2] and "◆" not in lines[3]
    assert "Cost per site" in section and "Wall time per site" in section


def test_site_cost_per_site_falls_back_to_scored_cases(tmp_path):
    write_run(tmp_path, "r", "recognized-conditions", 0.5, cost=3.0, wall=30.0, sites=None, scored=6)
    data, _ = board_json(tmp_path)
    tc = row(data, "Site")["tasks"]["recognized-conditions"]
    assert tc["cost_per_site_usd"] == pytest.approx(0.5) and tc["wall_time_per_site_s"] == pytest.approx(5.0)


# -- output ---------------------------------------------------------------------------------------------


def test_html_is_offline_escaped_and_has_the_scatter(tmp_path):
    site_runs(tmp_path, "<script>alert(1)</script>", 0.7, cost=1.0)
    site_runs(tmp_path, "plain", 0.8, cost=2.0)
    result = invoke(tmp_path, "--format", "html", "--tasks")
    assert result.exit_code == 0, result.output
    html = result.stdout
    assert "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">" in html
    assert "<script" not in html and "&lt;script&gt;" in html
    assert "<svg" in html and html.count("<circle") == 2 and "<polyline" in html
    # No request of any kind: the SVG namespace is the only URL.
    assert re.findall(r"https?://[^\s\"']+", html) == ["http://www.w3.org/2000/svg"]
    assert not re.search(r"\b(src|href)=|@import|url\(", html)


def test_html_comes_from_the_template_file(tmp_path, monkeypatch):
    template = resources.files("envirobench") / "templates" / "leaderboard.html.j2"
    text = template.read_text(encoding="utf-8")
    assert "Content-Security-Policy" in text
    assert lb_render._ENV.get_template(lb_render.HTML_TEMPLATE).filename == str(template)
    # No page is kept in Python: the leaderboard modules hold no HTML document.
    for module in (resources.files("envirobench") / "leaderboard").iterdir():
        if module.name.endswith(".py"):
            assert "<!DOCTYPE" not in module.read_text(encoding="utf-8"), module.name
    # The page is that file rendered: change the file and the page changes with it.
    write_run(tmp_path / "results", "r", "table-separators", 0.5)
    board = lb.build_leaderboard([tmp_path / "results"])
    assert "<h1>EnviroBench leaderboard</h1>" in lb.render(board, "html")
    custom = tmp_path / "templates"
    custom.mkdir()
    (custom / lb_render.HTML_TEMPLATE).write_text(text.replace("<h1>EnviroBench leaderboard</h1>", "<h1>Edited</h1>"), encoding="utf-8")
    monkeypatch.setattr(lb_render._ENV, "loader", jinja2.FileSystemLoader(custom))
    html = lb.render(board, "html")
    assert "<h1>Edited</h1>" in html and "<h1>EnviroBench leaderboard</h1>" not in html


def test_html_without_site_results(tmp_path):
    write_run(tmp_path, "r", "table-separators", 0.5)
    html = invoke(tmp_path, "--format", "html").stdout
    assert "No system has a complete Site score" in html and "<circle" not in html


def test_markdown_escapes_labels(tmp_path):
    write_run(tmp_path, "r", "table-separators", 0.5, system=dict(REFERENCE, model="a|b<i>"))
    md = invoke(tmp_path).stdout
    assert "a\\|b&lt;i&gt;" in md


def test_output_is_written_atomically(tmp_path):
    results = tmp_path / "results"
    write_run(results, "r", "table-separators", 0.5)
    out = tmp_path / "out" / "board.json"
    result = invoke(results, "--format", "json", "--output", out)
    assert result.exit_code == 0, result.output
    assert result.stdout == "" and "wrote" in result.stderr
    assert json.loads(out.read_text())["format"] == lb.LEADERBOARD_FORMAT
    assert [p.name for p in out.parent.iterdir()] == ["board.json"]  # no temporary left behind


def test_main_cli_has_the_command(tmp_path):
    from envirobench.cli import main

    write_run(tmp_path, "r", "table-separators", 0.5)
    result = CliRunner().invoke(main, ["leaderboard", str(tmp_path), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["scoring_version"] == cats.SCORING_VERSION
