"""Leaderboards from run directories written to the run-directory contract.

Every task a test uses is installed as a count-words type under the task's ID (`Counting`), with
a registered dataset of N cases. A fake run is run.json plus the adapter's saved output
(adapter/adapter-result.json and adapter/predictions.json) with predictions made to score a
chosen share on the pinned dataset; the board rescores them, so a fake run has no metrics.json.
The tests that edit what a run says of itself make real runs with the fake adapter.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
from importlib import resources
from pathlib import Path

import jinja2
import pytest
from click.testing import CliRunner

from envirobench import categories as cats
from envirobench import datasets as ds
from envirobench import leaderboard as lb
from envirobench import plugins, rundir
from envirobench.benchmark import CaseScore
from envirobench.cli.leaderboard import leaderboard_command
from envirobench.errors import EnviroBenchError
from envirobench.hookspecs import hookimpl
from envirobench.leaderboard import rendering as lb_render
from envirobench.leaderboard import sources as lb_sources
from envirobench.runs import RunSpec, execute_run
from envirobench.stores import sha256_bytes, sha256_file
from envirobench.stores.file import FileStore
from envirobench.stores.transfer import RESTORE_RECORD, archive_run, restore_run
from envirobench.testing import CountWords, write_count_dataset

EXTRACT = [t.id for t in cats.category_of("table-separators").tasks]
SITE = [t.id for t in cats.category_of("site-timeline").tasks]
INSTALLED = [*EXTRACT, *SITE, "ocr-auto-accept"]
REFERENCE = {"adapter": "reference", "model": "reference/projection-profiles", "options": {"variant": "baseline"}}
N = 20  # cases per test dataset, so a run scores a multiple of 5


# -- installed types ------------------------------------------------------------------------------


class Counting(CountWords):
    """count-words scoring, plus the counts the formula tasks read (a wrong count over the answer
    is a wrong accept / an invented answer)."""

    HEADLINE = ("accuracy", "over")

    def score_case(self, case, answer, prediction):
        diff = prediction.count - answer.count
        right, over = float(diff == 0), float(diff > 0)
        counts = {
            "over": over,
            "correct_accepts": right,
            "wrong_accepts": over,
            "readable_cells": 1.0,
            "questions_right": right,
            "invented_answers": over,
            "questions": 1.0,
        }
        return {p: CaseScore(s.errors, {**s.metrics, **counts}) for p, s in super().score_case(case, answer, prediction).items()}


class Words(Counting):
    """A type whose primary measure is a count, not a share in [0, 1]."""

    HEADLINE = ("words",)

    def score_case(self, case, answer, prediction):
        return {p: CaseScore(s.errors, {"words": float(prediction.count)}) for p, s in super().score_case(case, answer, prediction).items()}


class Plain(CountWords):
    """Accuracy only: none of the counts a formula task reads."""


class Partial(Counting):
    """Its default profile cannot score the first case."""

    def score_case(self, case, answer, prediction):
        scores = super().score_case(case, answer, prediction)
        return {**scores, "exact": None} if case.id == "c000000" else scores


def type_for(task_id, base=Counting):
    task = cats.task(task_id)
    attributes = {
        "ID": task_id,
        "FORMAT": f"envirobench.{task_id}.v1",
        "LABEL": task.label,
        "SCORING_VERSION": f"envirobench.{task_id}.scores.v1",
        "TIER": task.tier,
    }
    return type(f"Fake_{task_id.replace('-', '_')}", (base,), attributes)


def dataset_id(task):
    return f"envirobench/{task}-synthetic-v1"


def write_dataset(root: Path, task: str, *, version=1, name=None, answer_overrides=None) -> Path:
    """A count-words dataset of N cases for `task` (its manifest names the task's benchmark)."""
    name = name or dataset_id(task)
    write_count_dataset(root, N, dataset_id=name, version=version, answer_overrides=answer_overrides)
    ds.write_manifest(root, dataset_id=name, version=version, benchmark=task, title=f"{task} (test)")
    return root


class Bench:
    """Installed types and registered datasets, and fake runs made to score what a test says."""

    def __init__(self, root: Path, types: dict, registered: set[str]):
        self.root = root
        self.data = {task: write_dataset(root / "data" / task, task) for task in registered}
        datasets = {dataset_id(task): path for task, path in self.data.items()}

        class Plugin:
            @hookimpl
            def envirobench_benchmark_types(self, register):
                for cls in types.values():
                    register(cls)

            @hookimpl
            def envirobench_datasets(self, register):
                for name, path in datasets.items():
                    register(name, path)

        self.registry = plugins.build_registry(extra=[("fake-categories", Plugin())])

    def identity(self, dataset_dir: Path) -> dict:
        ident = ds.Dataset(dataset_dir, ds.read_manifest(dataset_dir)).identity
        return {"id": ident.id, "version": ident.version, "digest": ident.digest, "input_digest": ident.input_digest, "answer_digest": ident.answer_digest}

    def run(
        self,
        root: Path,
        run_id: str,
        task: str,
        primary: float = 0.8,
        *,
        over: int = 0,
        dataset: Path | None = None,
        system: dict | None = None,
        status: str = "completed",
        cost: float | None = 0.0,
        wall: float | None = 10.0,
        sites: int | None = None,
        scoring_version: str | None = None,
        partial: rundir.Partial | None = None,
    ) -> Path:
        """A run directory as `envirobench run` writes it, less what is scored: run.json, and (when
        completed) the adapter's saved output, right on a `primary` share of the dataset's cases.
        The wrong ones are one under the answer, except the first `over` (one over)."""
        system = system or REFERENCE
        dataset = dataset or self.data[task]
        run_dir = root / run_id
        run_dir.mkdir(parents=True)
        completed = status == "completed"
        no_cases = {p: () for p in CountWords.PROFILES}
        identity = self.identity(dataset)
        registered = dataset_id(task) if self.data.get(task) == dataset else str(dataset.resolve())
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
                scoring_version=scoring_version or f"envirobench.{task}.scores.v1",
                tier="component",
                profiles=CountWords.PROFILES,
                headline=Counting.HEADLINE,
                categories=cats.categories_of(task),
                viewer="json",
                plugin=rundir.PluginRef("fake-categories", "fake-plugin", "0.1.0"),
            ),
            dataset=rundir.RunDataset(**identity, source=registered),
            adapter=rundir.AdapterRecord(requested=system["adapter"], command=("x",), name=system["adapter"], version="0.1.0"),
            model=system["model"],
            options=system["options"],
            budget_usd=100.0,
            cost_usd=cost,
            systems=(),
            wall_time_s=wall,
            adapter_wall_time_s=wall,
            cases=rundir.CaseCounts(requested=N, scored=N if completed else 0, retired=0, sites=sites),
            pairing=rundir.Pairing(),
            gate=rundir.GateRecord("baseline required", ("exact",), (), {p: "baseline required" for p in CountWords.PROFILES}, no_cases, no_cases) if completed else None,
            require_no_regressions=False,
            partial=partial,
        )
        rundir.write_run(run_dir, record)
        if completed:
            write_predictions(run_dir, task, dataset, primary, over, system)
        return run_dir


def write_predictions(run_dir: Path, task: str, dataset: Path, primary: float, over: int = 0, system: dict | None = None) -> None:
    """adapter/: predictions right on a `primary` share of the dataset's answers."""
    answers = [json.loads(line) for line in (dataset / "answers.jsonl").read_text(encoding="utf-8").splitlines()]
    wrong = round((1 - primary) * len(answers))
    assert (len(answers) - wrong) / len(answers) == pytest.approx(primary), f"{primary} is not a share of {len(answers)} cases"
    predictions = {}
    for i, record in enumerate(answers):
        delta = 0 if i >= wrong else (1 if i < over else -1)
        predictions[record["id"]] = {"count": record["answer"]["count"] + delta}
    adapter = run_dir / rundir.ADAPTER_DIR
    adapter.mkdir(exist_ok=True)
    (adapter / "predictions.json").write_text(json.dumps(predictions), encoding="utf-8")
    result = {
        "id": task,
        "status": "completed",
        "format": f"envirobench.{task}.v1",
        "data": "predictions.json",
        "adapter": {"name": (system or REFERENCE)["adapter"], "version": "0.1.0"},
        "systems": [{"role": "candidate", "model": (system or REFERENCE)["model"], "cost_usd": 0.0, "execution_failures": 0, "unpriced_attempts": 0}],
    }
    (adapter / "adapter-result.json").write_text(json.dumps(result), encoding="utf-8")


@pytest.fixture
def make_bench(tmp_path):
    """make_bench(types={task: base class}, uninstalled=(...), registered=tasks) -> the Bench in
    force for the rest of the test (every task in INSTALLED is installed and registered unless
    told otherwise)."""
    with contextlib.ExitStack() as stack:

        def make(types=None, uninstalled=(), registered=None):
            classes = {task: type_for(task) for task in INSTALLED if task not in uninstalled}
            classes.update({task: type_for(task, base) for task, base in (types or {}).items()})
            bench = Bench(tmp_path / "bench", classes, set(classes) if registered is None else set(registered))
            stack.enter_context(plugins.using_registry(bench.registry))
            return bench

        yield make


@pytest.fixture
def bench(make_bench):
    return make_bench()


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


def refusals(data):
    return {Path(r["path"]).name: r["reason"] for r in data["refused"]}


# -- the reference adapter's runs ---------------------------------------------------------------


def test_reference_with_table_separators_only_is_incomplete_everywhere(tmp_path, bench):
    bench.run(tmp_path / "results", "r1", "table-separators", 0.95)
    data, _ = board_json(tmp_path / "results")
    extract = row(data, "Extract")
    assert extract["display"] == "Incomplete (1 of 6 tasks)"
    assert extract["score"] is None and extract["complete"] is False
    assert extract["tasks"]["table-separators"]["score"] == pytest.approx(95.0)
    assert extract["tasks"]["document-extraction"] is None  # missing: never zero, never dropped
    assert set(extract["tasks"]) == set(EXTRACT)


def test_reference_extract_scored_once_its_six_tasks_have_runs(tmp_path, bench):
    results = tmp_path / "results"
    primaries = {"document-extraction": 0.9, "table-separators": 0.95, "table-structure": 0.6, "table-cells": 0.7, "table-records": 0.5, "report-metadata": 0.8}
    for i, (task, value) in enumerate(primaries.items()):
        bench.run(results, f"r{i}", task, value)
    data, result = board_json(results)
    extract = row(data, "Extract")
    expected = (4 * 90 + 95 + 60 + 70 + 50 + 80) / 9
    assert extract["complete"] and extract["score"] == pytest.approx(expected, abs=1e-6)
    assert extract["range"] == [pytest.approx(expected, abs=1e-6)] * 2
    counts = {c.name: len(c.tasks) for c in cats.CATEGORIES}
    for name in ("Verify", "Locate", "Research", "Legal", "Site"):
        assert row(data, name)["display"] == f"Incomplete (0 of {counts[name]} tasks)"
        assert row(data, name)["score"] is None
    assert result.stderr == ""
    md = invoke(results)
    assert md.exit_code == 0
    line = next(ln for ln in md.stdout.splitlines() if ln.startswith("| reference"))
    low, high = extract["interval"]
    assert low < expected < high
    assert f"| {expected:.1f} ({low:.1f}–{high:.1f}) |" in line
    assert "Incomplete (0 of 5 tasks)" in line and "Incomplete (0 of 4 tasks)" in line


def test_repeats_give_weighted_mean_of_task_means_with_range(tmp_path, bench):
    results = tmp_path / "results"
    bench.run(results, "de-1", "document-extraction", 0.80)
    bench.run(results, "de-2", "document-extraction", 0.90)
    bench.run(results, "de-3", "document-extraction", 0.70)
    bench.run(results, "ts-1", "table-separators", 0.50)
    bench.run(results, "ts-2", "table-separators", 1.00)
    for task in EXTRACT[2:]:
        bench.run(results, f"{task}-1", task, 0.60)
    data, _ = board_json(results)
    extract = row(data, "Extract")
    mean = (4 * 80 + 75 + 4 * 60) / 9
    low = (4 * 70 + 50 + 4 * 60) / 9
    high = (4 * 90 + 100 + 4 * 60) / 9
    assert extract["score"] == pytest.approx(mean)
    assert extract["range"] == [pytest.approx(low), pytest.approx(high)]
    assert extract["tasks"]["document-extraction"]["repeats"] == 3
    assert extract["tasks"]["document-extraction"]["range"] == [pytest.approx(70), pytest.approx(90)]
    ci_low, ci_high = extract["interval"]
    assert extract["display"] == f"{mean:.1f} ({ci_low:.1f}–{ci_high:.1f}) [{low:.1f}–{high:.1f}]"
    de_low, de_high = extract["tasks"]["document-extraction"]["interval"]
    md = invoke(results, "--tasks").stdout
    assert f"80.0 ({de_low:.1f}–{de_high:.1f}) [70.0–90.0] ×3" in md


def test_intervals_resample_cases_with_the_repeats_together_and_combine_with_the_weights(tmp_path, bench):
    """docs/runs.md, "Statistics": a task's interval comes from resampling its cases, a system's
    repeats on the same resampled cases; a category's from the weighted mean of its tasks'."""
    results = tmp_path / "results"
    bench.run(results, "de-1", "document-extraction", 0.80)  # weight 4 of 9
    bench.run(results, "de-2", "document-extraction", 0.80)  # the same predictions again
    for task in EXTRACT[1:]:
        bench.run(results, f"{task}-1", task, 1.0)  # every case right: no spread at all
    data, _ = board_json(results)
    extract = row(data, "Extract")
    de = extract["tasks"]["document-extraction"]
    # Two identical repeats resampled together vary together: the task's interval is a single
    # run's (resampled independently, their mean would vary less).
    assert [r["interval"] for r in de["runs"]] == [de["interval"]] * 2
    low, high = de["interval"]
    assert 50.0 < low < 80.0 < high <= 100.0
    assert extract["tasks"]["table-separators"]["interval"] == [100.0, 100.0]
    # The other tasks do not vary, so the category's interval is the weighted mean at each end.
    assert extract["interval"] == [pytest.approx((4 * low + 5 * 100) / 9, abs=1e-5), pytest.approx((4 * high + 5 * 100) / 9, abs=1e-5)]
    assert extract["display"] == f"{extract['score']:.1f} ({extract['interval'][0]:.1f}–{extract['interval'][1]:.1f})"
    assert data["bootstrap"] == {"method": "percentile", "resamples": 1000, "seed": 1729, "confidence": 0.95}
    # The same board again: the same intervals (fixed seed).
    assert board_json(results)[0] == data
    html = invoke(results, "--format", "html").stdout
    assert "95 % interval from resampling each task" in html
    assert f"({extract['interval'][0]:.1f}–{extract['interval'][1]:.1f})" in html


def test_a_resample_without_a_component_score_is_left_out(tmp_path, bench):
    # ocr-auto-accept: 100 x max(0, (correct - 10 x wrong) / readable); one wrong accept in 20
    # costs ten right ones, and resamples drawing it more often hit the floor of 0.
    bench.run(tmp_path / "results", "ocr", "ocr-auto-accept", 0.95, over=1)
    task = row(board_json(tmp_path / "results")[0], "Verify")["tasks"]["ocr-auto-accept"]
    assert task["score"] == pytest.approx(45.0)
    low, high = task["interval"]
    assert low == 0.0 and 45.0 < high <= 100.0


def test_systems_are_adapter_model_and_options(tmp_path, bench):
    results = tmp_path / "results"
    other = dict(REFERENCE, options={"variant": "tuned"})
    bench.run(results, "a", "table-separators", 0.9)
    bench.run(results, "b", "table-separators", 0.7, system=other)
    bench.run(results, "c", "table-separators", 0.6, system=dict(REFERENCE, model="other/model"))
    data, _ = board_json(results)
    labels = [s["label"] for s in data["systems"]]
    assert len(labels) == 3
    assert row(data, "Extract", "variant=tuned")["tasks"]["table-separators"]["score"] == pytest.approx(70)


def test_no_overall_score_anywhere(tmp_path, bench):
    results = tmp_path / "results"
    for i, task in enumerate(EXTRACT + SITE):
        bench.run(results, f"r{i}", task, 0.5, sites=2)
    data, _ = board_json(results, "--tasks")

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
    assert row(data, "Site")["score"] == pytest.approx(50)
    for fmt in ("md", "html"):
        text = invoke(results, "--format", fmt, "--tasks").stdout
        header = text.replace(str(tmp_path), "").lower()  # the Runs table names each run's directory
        assert "overall" not in header.replace("there is no overall score", "")
    assert not any(hasattr(lb, name) for name in ("overall_score", "overall"))


# -- formulas through the leaderboard ---------------------------------------------------------------


def test_formula_task_reads_counts_from_the_rescored_headline(tmp_path, bench):
    # 19 of 20 right, the wrong one an accept that should not be: 100 x (0.95 - 10 x 0.05).
    bench.run(tmp_path / "results", "ocr", "ocr-auto-accept", 0.95, over=1)
    data, _ = board_json(tmp_path / "results")
    assert row(data, "Verify")["tasks"]["ocr-auto-accept"]["score"] == pytest.approx(45.0)


def test_runs_that_cannot_be_scored_are_refused_with_reasons(tmp_path, make_bench):
    bench = make_bench(types={"table-cells": Words, "ocr-auto-accept": Plain, "table-records": Partial}, uninstalled={"site-timeline"})
    results = tmp_path / "results"
    bench.run(results, "ok", "table-separators", 0.9)
    bench.run(results, "failed", "table-separators", 0.9, status="failed")
    bench.run(results, "running", "table-separators", 0.9, status="running")
    bench.run(results, "big", "table-cells", 0.5)
    bench.run(results, "nocounts", "ocr-auto-accept", 0.5)
    bench.run(results, "unavailable", "table-records", 0.5)
    bench.run(results, "uninstalled", "site-timeline", 0.5, dataset=write_dataset(tmp_path / "timeline", "site-timeline"))
    unknown = bench.run(results, "unknown", "table-structure", 0.5)
    edit_json(unknown / "run.json", lambda run: run["benchmark"].update(id="count-words"))
    (results / "broken").mkdir()
    (results / "broken" / "run.json").write_text("{not json", encoding="utf-8")
    data, result = board_json(results)
    reasons = refusals(data)
    assert set(reasons) == {"failed", "running", "big", "nocounts", "unknown", "unavailable", "uninstalled", "broken"}
    assert "'failed'" in reasons["failed"] and "'running'" in reasons["running"]
    assert "[0, 1]" in reasons["big"]
    assert "wrong_accepts" in reasons["nocounts"]
    assert "not a task" in reasons["unknown"]
    assert "'exact'" in reasons["unavailable"] and "does not score every case" in reasons["unavailable"]
    assert "site-timeline type is not installed" in reasons["uninstalled"] and "envirobench-site" in reasons["uninstalled"]
    assert "not valid JSON" in reasons["broken"]
    assert "refused 8 run(s)" in result.stderr and "Traceback" not in result.stderr
    for name in reasons:
        assert name in result.stderr
    # A refused run is not a zero: its task is missing.
    assert row(data, "Extract")["tasks"]["table-cells"] is None
    assert row(data, "Extract")["display"] == "Incomplete (1 of 6 tasks)"


def test_malformed_run_files_are_refused_naming_file_and_field(tmp_path, bench):
    results = tmp_path / "results"
    bench.run(results, "ok", "table-separators", 0.9)
    version = bench.run(results, "version", "table-separators", 0.9)
    edit_json(version / "run.json", lambda run: run["dataset"].update(version="1"))
    extra = bench.run(results, "extra", "table-separators", 0.9)
    edit_json(extra / "run.json", lambda run: run.update(score=99))
    unnamed = bench.run(results, "unnamed", "table-separators", 0.9)
    edit_json(unnamed / "run.json", lambda run: run["adapter"].update(name=None))
    noresult = bench.run(results, "noresult", "table-separators", 0.9)
    (noresult / "adapter" / "adapter-result.json").unlink()
    nopredictions = bench.run(results, "nopredictions", "table-separators", 0.9)
    (nopredictions / "adapter" / "predictions.json").unlink()
    invalid = bench.run(results, "invalid", "table-separators", 0.9)
    edit_json(invalid / "adapter" / "predictions.json", lambda p: p.update(c000003={"count": "three"}))
    short = bench.run(results, "short", "table-separators", 0.9)
    edit_json(short / "adapter" / "predictions.json", lambda p: p.pop("c000004"))
    data, result = board_json(results)
    refused = {Path(r["path"]).name: r for r in data["refused"]}
    assert set(refused) == {"version", "extra", "unnamed", "noresult", "nopredictions", "invalid", "short"}
    reasons = {name: r["reason"] for name, r in refused.items()}
    assert str(version / "run.json") in reasons["version"] and "$.dataset.version" in reasons["version"]
    assert "expected an integer" in reasons["version"]
    assert "run.json" in reasons["extra"] and "score" in reasons["extra"]
    assert "run.json" in reasons["unnamed"] and "$.adapter.name" in reasons["unnamed"]
    assert "saved predictions" in reasons["noresult"] and "adapter-result.json" in reasons["noresult"]
    assert "saved predictions" in reasons["nopredictions"] and "predictions.json" in reasons["nopredictions"]
    assert "'c000003'" in reasons["invalid"]
    assert "no saved prediction for 1 case(s)" in reasons["short"] and "'c000004'" in reasons["short"]
    # run.json read, so the run ID is known; a run.json that does not read has none.
    assert refused["unnamed"]["run_id"] == "unnamed" and refused["version"]["run_id"] is None
    assert "Traceback" not in result.stderr and "refused 7 run(s)" in result.stderr
    assert row(data, "Extract")["tasks"]["table-separators"]["repeats"] == 1


def test_run_dir_arguments_and_nested_adapter_files(tmp_path, bench):
    run_dir = bench.run(tmp_path / "results" / "inner", "r1", "table-separators", 0.9)
    # A run.json an adapter happened to write inside its own folder is not a run.
    (run_dir / "adapter" / "run.json").write_text("{}", encoding="utf-8")
    data, _ = board_json(run_dir)
    assert len(data["systems"]) == 1 and data["refused"] == []
    data, _ = board_json(tmp_path / "results")  # a results folder of results folders
    assert len(data["systems"]) == 1 and data["refused"] == []


def test_no_runs_found_is_an_error(tmp_path):
    result = invoke(tmp_path)
    assert result.exit_code == 1
    assert "no run directory" in result.output + result.stderr


def test_duplicate_run_is_refused(tmp_path, bench):
    bench.run(tmp_path / "results" / "a", "r1", "table-separators", 0.9)
    bench.run(tmp_path / "results" / "b", "r1", "table-separators", 0.9)
    data, _ = board_json(tmp_path / "results")
    assert len(data["refused"]) == 1 and "duplicate" in data["refused"][0]["reason"]
    assert row(data, "Extract")["tasks"]["table-separators"]["repeats"] == 1


# -- the board scores what it reads, never what a run claims -------------------------------------------


@pytest.fixture
def real_run(tmp_path, bench, fake):
    """A real run of the fake adapter on table-separators; `off` puts count errors on cases."""

    def make(run_id, off=""):
        spec = RunSpec(
            adapter=str(fake),
            run_id=run_id,
            model="test/model",
            benchmark="table-separators",
            dataset=dataset_id("table-separators"),
            budget_usd=1.0,
            options={"off": off},
            results_dir=tmp_path / "results",
        )
        outcome = execute_run(spec, bench.registry)
        assert outcome.status == "completed", outcome.message
        return outcome.run_dir

    return make


def task_score(results, *options, task="table-separators"):
    """The task's score on the board made with `options` (None when missing) and the refusals."""
    data, _ = board_json(results, *options)
    cell = row(data, "Extract")["tasks"][task] if data["systems"] else None
    return (None if cell is None else cell["score"]), refusals(data)


def test_edited_or_missing_metrics_change_nothing(tmp_path, real_run):
    run_dir = real_run("r", off="c000001:1,c000002:-1")
    results = tmp_path / "results"
    assert task_score(results) == (pytest.approx(90.0), {})
    claimed = rundir.read_metrics(run_dir).profiles["exact"].headline
    assert claimed["accuracy"] == pytest.approx(0.9)  # what the run says, and the board agrees

    def claim_perfect(metrics):
        for profile in metrics["profiles"].values():
            profile["headline"] = {name: 1.0 for name in profile["headline"]}

    edit_json(run_dir / "metrics.json", claim_perfect)
    assert task_score(results) == (pytest.approx(90.0), {})
    edit_json(run_dir / "metrics.json", lambda m: m["profiles"]["exact"].update(headline="high"))
    assert task_score(results) == (pytest.approx(90.0), {})
    (run_dir / "metrics.json").unlink()
    assert task_score(results) == (pytest.approx(90.0), {})


def test_reordered_profiles_or_headline_change_nothing(tmp_path, real_run):
    # Over by one on 5 of 20 cases: accuracy 0.75 in the default profile (exact), 1.0 in
    # "near"; the "over" share is 0.25. Only the installed type says which is the default.
    run_dir = real_run("r", off=",".join(f"c{i:06d}:1" for i in range(5)))
    results = tmp_path / "results"
    assert task_score(results) == (pytest.approx(75.0), {})
    metrics = rundir.read_metrics(run_dir)
    assert metrics.profiles["near"].headline["accuracy"] == pytest.approx(1.0)
    assert metrics.profiles["exact"].headline["over"] == pytest.approx(0.25)
    edit_json(run_dir / "run.json", lambda run: run["benchmark"].update(profiles=["near", "exact"]))
    assert task_score(results) == (pytest.approx(75.0), {})
    edit_json(run_dir / "run.json", lambda run: run["benchmark"].update(headline=["over", "accuracy"]))
    edit_json(run_dir / "metrics.json", lambda m: m["benchmark"].update(profiles=["near", "exact"], headline=["over", "accuracy"]))
    assert task_score(results) == (pytest.approx(75.0), {})


def test_an_edited_prediction_is_never_shown_as_the_claimed_score(tmp_path, real_run):
    run_dir = real_run("r")
    results = tmp_path / "results"
    assert task_score(results) == (pytest.approx(100.0), {})
    assert rundir.read_metrics(run_dir).profiles["exact"].headline["accuracy"] == 1.0
    edit_json(run_dir / "adapter" / "predictions.json", lambda p: p.update(c000000={"count": 99}, c000001={"count": 99}))
    score, reasons = task_score(results)
    if json.loads((run_dir / "run.json").read_text(encoding="utf-8")).get("adapter_output"):
        # run.json recorded the saved output's sizes and SHA-256s: a changed file is refused.
        assert score is None and set(reasons) == {"r"} and "saved predictions" in reasons["r"]
    else:
        assert score == pytest.approx(90.0) and reasons == {}
    # A run that recorded no sizes (made before core did) is rescored from what is there now.
    edit_json(run_dir / "run.json", lambda run: run.pop("adapter_output", None))
    assert task_score(results) == (pytest.approx(90.0), {})


def test_scoring_version_is_the_installed_types(tmp_path, bench):
    # A run made by another scoring version is rescored with the installed one: not refused.
    results = tmp_path / "results"
    bench.run(results, "old", "table-separators", 0.6, scoring_version="envirobench.table-separators.scores.v0")
    assert task_score(results) == (pytest.approx(60), {})
    board = lb.build_leaderboard([results])
    (result,) = [run for cell in board.cells.values() for tc in cell.tasks if tc for run in tc.runs]
    assert result.scoring_version == "envirobench.table-separators.scores.v1"


def test_each_tasks_dataset_is_loaded_once_and_every_run_scored(tmp_path, bench, monkeypatch):
    results = tmp_path / "results"
    for i, primary in enumerate((0.5, 0.6, 0.7, 0.8, 0.9)):
        bench.run(results, f"ts-{i}", "table-separators", primary)
    bench.run(results, "tc", "table-cells", 0.5)
    loads = []
    real = ds.load_contents
    monkeypatch.setattr(ds, "load_contents", lambda name, registry: loads.append(str(name)) or real(name, registry))
    data, _ = board_json(results)
    assert sorted(loads) == [dataset_id("table-cells"), dataset_id("table-separators")]
    runs = row(data, "Extract")["tasks"]["table-separators"]["runs"]
    assert [r["score"] for r in runs] == [pytest.approx(v) for v in (50, 60, 70, 80, 90)]


# -- where a row came from, and what that is worth ------------------------------------------------------

OTHER = dict(REFERENCE, model="other/model")


def record_saved_output(run_dir: Path) -> None:
    """Write into run.json the size and SHA-256 of every file of adapter/, as core records them
    when it makes a run, and as anyone can recompute them."""
    adapter = run_dir / rundir.ADAPTER_DIR
    files = {p.relative_to(adapter).as_posix(): {"size": p.stat().st_size, "sha256": sha256_file(p)} for p in sorted(adapter.rglob("*")) if p.is_file()}
    edit_json(run_dir / "run.json", lambda run: run.update(adapter_output={"files": files, "skipped": []}))


def forge(run_dir: Path, dataset: Path) -> None:
    """Make a run's saved predictions the dataset's answers."""
    answers = [json.loads(line) for line in (dataset / "answers.jsonl").read_text(encoding="utf-8").splitlines()]
    predictions = {a["id"]: a["answer"] for a in answers}
    (run_dir / rundir.ADAPTER_DIR / "predictions.json").write_text(json.dumps(predictions), encoding="utf-8")


def run_line(md: str, run_id: str) -> str:
    """The line of the Markdown board's Runs table for one run."""
    section = md.split("\n## Runs (", 1)[1].split("\n## ", 1)[0]
    (line,) = [ln for ln in section.splitlines() if f" | {run_id} | " in ln]
    return line


def test_a_local_run_says_it_is_a_local_directory(tmp_path, bench):
    run_dir = bench.run(tmp_path / "results", "r", "table-separators", 0.8)
    data, _ = board_json(tmp_path / "results")
    extract = row(data, "Extract")
    assert extract["source"] == {"kind": "local-directory", "runs": {"local-directory": 1, "store-archive": 0}}
    (run,) = extract["tasks"]["table-separators"]["runs"]
    assert run["source"] == {
        "kind": "local-directory", "path": str(run_dir), "store": None, "archive": None, "listing_sha256": None,
        "promoted": None, "verified": False, "note": None,
    }
    # A category the system has no run in has no source.
    assert row(data, "Site")["source"] == {"kind": None, "runs": {"local-directory": 0, "store-archive": 0}}
    assert data["systems"][0]["source"] == extract["source"]
    assert data["trust"] == lb.TRUST_NOTE
    md = invoke(tmp_path / "results").stdout
    assert md.splitlines()[4].startswith("**Trust.** ") and lb.TRUST_NOTE in md
    header = next(ln for ln in md.splitlines() if ln.startswith("| System | Extract"))
    assert header.endswith("| Source |")
    assert next(ln for ln in md.splitlines() if ln.startswith("| reference")).endswith("| local directory |")
    assert run_line(md, "r").endswith(f"| local directory | {run_dir} |")
    html = invoke(tmp_path / "results", "--format", "html", "--tasks").stdout
    assert '<p class="trust"><strong>Trust.</strong>' in html and "<h2>Runs (1)</h2>" in html
    assert html.count('<td class="source">local directory</td>') == 3  # Categories, Extract tasks, Runs (none on Site: "—")


def test_a_forged_run_is_ranked_but_named_a_local_directory_under_the_trust_statement(tmp_path, bench):
    """The attack the board cannot see: predictions copied from the answers, sizes and SHA-256s
    recomputed in run.json. It is ranked first; all the board can do is say where it came from
    (a local directory) and that such a row is worth no more than its directory."""
    results = tmp_path / "results"
    for task in (t for t in EXTRACT if t != "table-separators"):  # both complete Extract honestly, but for one task
        bench.run(results, f"honest-{task}", task, 0.6)
        bench.run(results, f"other-{task}", task, 0.6, system=OTHER)
    honest = bench.run(results, "honest", "table-separators", 0.6)
    record_saved_output(honest)
    forged = bench.run(results, "forged", "table-separators", 0.6, system=OTHER)
    record_saved_output(forged)
    forge(forged, bench.data["table-separators"])
    # Changed after run.json recorded it, the predictions are refused...
    data, _ = board_json(results)
    assert set(refusals(data)) == {"forged"} and "saved predictions" in refusals(data)["forged"]
    # ... until the forger recomputes the sizes and SHA-256s: then nothing tells it apart.
    record_saved_output(forged)
    data, result = board_json(results)
    assert data["refused"] == [] and result.stderr == ""
    cat = next(c for c in data["categories"] if c["name"] == "Extract")
    ranked = [(r["system"]["model"], r["tasks"]["table-separators"]["score"], r["score"]) for r in cat["rows"]]
    assert ranked == [("other/model", pytest.approx(100.0), pytest.approx((8 * 60 + 100) / 9)), ("reference/projection-profiles", pytest.approx(60.0), pytest.approx(60.0))]
    forged_row = row(data, "Extract", "other/model")
    assert forged_row["source"] == {"kind": "local-directory", "runs": {"local-directory": 6, "store-archive": 0}}
    (run,) = forged_row["tasks"]["table-separators"]["runs"]
    assert run["source"]["kind"] == "local-directory" and run["source"]["path"] == str(forged) and run["source"]["verified"] is False
    assert "predictions are the answers" in data["trust"] and "recompute" in data["trust"] and "sealed holdout" in data["trust"]
    md = invoke(results, "--tasks").stdout
    assert lb.TRUST_NOTE in md
    assert run_line(md, "forged").endswith(f"| 100.0 (100.0–100.0) | local directory | {forged} |")
    html = invoke(results, "--format", "html").stdout
    assert "anyone can write a run directory whose predictions are the answers" in html
    assert "whose scores are on its own page, never on this board" in html
    assert "<td>forged</td>" in html and f"<td class=\"path\">{forged}</td>" in html


@pytest.fixture
def restored(tmp_path, bench):
    """restored(run_id, primary=0.8, system=None): a run archived to a private file store and
    restored from it into tmp_path/results, as `bench run` restores a promoted run."""
    store = FileStore(tmp_path / "store", "private")
    (tmp_path / "store").mkdir()

    def make(run_id, primary=0.8, system=None):
        made = bench.run(tmp_path / "made", run_id, "table-separators", primary, system=system)
        record_saved_output(made)
        archived = archive_run(made, store)
        run_dir = restore_run(run_id, archived.sha256, store, tmp_path / "results", benchmark="table-separators")
        return run_dir, archived, store

    return make


def test_a_run_restored_from_a_store_says_so_until_it_changes(tmp_path, bench, restored):
    run_dir, archived, store = restored("base")
    results = tmp_path / "results"
    data, _ = board_json(results)
    extract = row(data, "Extract")
    assert extract["source"] == {"kind": "store-archive", "runs": {"local-directory": 0, "store-archive": 1}}
    (run,) = extract["tasks"]["table-separators"]["runs"]
    assert run["score"] == pytest.approx(80.0)
    assert run["source"] == {
        "kind": "store-archive", "path": str(run_dir), "store": store.url, "archive": "runs/table-separators/base",
        "listing_sha256": archived.sha256, "promoted": True, "verified": True, "note": None,
    }
    md = invoke(results).stdout
    assert next(ln for ln in md.splitlines() if ln.startswith("| reference")).endswith("| store archive, verified |")
    assert f"| store archive {store.url} runs/table-separators/base, verified (listing SHA-256 {archived.sha256}) | {run_dir} |" in run_line(md, "base")
    assert "store archive, verified" in invoke(results, "--format", "html").stdout
    # The record is not part of the run: archived again, the run has the very same listing.
    again = archive_run(run_dir, store)
    assert again.sha256 == archived.sha256 and again.uploaded == 0
    # An archive may not bring a record of its own.
    listing = json.loads((store.root / "runs/table-separators/base/.envirobench-archive.json").read_text())
    listing.update(run_id="evil", files=[*listing["files"], {"path": RESTORE_RECORD, "size": 2, "sha256": "0" * 64}])
    data = json.dumps(listing).encode()
    store.put("runs/table-separators/evil/.envirobench-archive.json", data, sha256_bytes(data))
    store.put("runs/table-separators/evil/run.json", run_dir / "run.json", sha256_file(run_dir / "run.json"))
    with pytest.raises(EnviroBenchError, match="a name a restore reserves"):
        restore_run("evil", None, store, tmp_path / "elsewhere", benchmark="table-separators")

    def source():
        data, _ = board_json(results)
        return row(data, "Extract")["tasks"]["table-separators"]["runs"][0]["source"]

    # Any change after the restore makes it a local directory (still ranked), saying why.
    (run_dir / "notes.txt").write_text("mine", encoding="utf-8")
    changed = source()
    assert changed["kind"] == "local-directory" and changed["verified"] is False and changed["store"] == store.url
    assert changed["note"] == f"restored from {store.url} runs/table-separators/base, but notes.txt was added since"
    (run_dir / "notes.txt").unlink()
    assert source()["kind"] == "store-archive"
    edit_json(run_dir / "run.json", lambda r: r.update(cost_usd=0.5))
    assert source()["note"].endswith("but run.json was changed since")
    assert "local directory (restored from" in run_line(invoke(results).stdout, "base")


def test_a_restore_record_is_a_claim_checked_against_the_files(tmp_path, bench, restored):
    run_dir, _, _ = restored("base")
    results = tmp_path / "results"
    # The record copied beside another run: its files are not the listing's.
    local = bench.run(results, "copied", "table-separators", 0.5, system=OTHER)
    shutil.copy(run_dir / RESTORE_RECORD, local / RESTORE_RECORD)
    data, _ = board_json(results)
    source = row(data, "Extract", "other/model")["tasks"]["table-separators"]["runs"][0]["source"]
    assert source["kind"] == "local-directory" and source["note"].endswith("adapter/adapter-result.json was changed since")
    # A record that does not read.
    (local / RESTORE_RECORD).write_text("{", encoding="utf-8")
    data, _ = board_json(results)
    source = row(data, "Extract", "other/model")["tasks"]["table-separators"]["runs"][0]["source"]
    assert source["kind"] == "local-directory" and source["note"].startswith("its restore record does not read") and "not valid JSON" in source["note"]
    assert row(data, "Extract", "projection-profiles")["source"]["kind"] == "store-archive"


def test_a_row_of_runs_from_both_sources_is_mixed(tmp_path, bench, restored):
    restored("base")
    bench.run(tmp_path / "results", "local", "table-cells", 0.5)
    data, _ = board_json(tmp_path / "results")
    assert row(data, "Extract")["source"] == {"kind": "mixed", "runs": {"local-directory": 1, "store-archive": 1}}
    md = invoke(tmp_path / "results").stdout
    assert next(ln for ln in md.splitlines() if ln.startswith("| reference")).endswith("| mixed: 1 local directory, 1 store archive |")
    assert lb_sources.describe_summary(row(data, "Extract")["source"]) == "mixed: 1 local directory, 1 store archive"


# -- pinning ------------------------------------------------------------------------------------------


@pytest.fixture
def unregistered(make_bench):
    """Every type installed, no dataset registered: pins come from the runs."""
    return make_bench(registered=())


def test_pin_from_runs_takes_the_highest_revision(tmp_path, unregistered):
    v1 = write_dataset(tmp_path / "ts-v1", "table-separators", version=1)
    v2 = write_dataset(tmp_path / "ts-v2", "table-separators", version=2)
    results = tmp_path / "results"
    unregistered.run(results, "old", "table-separators", 0.9, dataset=v1)
    unregistered.run(results, "new", "table-separators", 0.7, dataset=v2)
    data, result = board_json(results)
    assert data["pins"]["table-separators"]["dataset"]["version"] == 2
    assert [Path(r["path"]).name for r in data["refused"]] == ["old"]
    assert "another revision" in data["refused"][0]["reason"]
    assert "old" in result.stderr
    assert row(data, "Extract")["tasks"]["table-separators"]["score"] == pytest.approx(70)


def test_rekeyed_answer_is_explained(tmp_path, unregistered):
    a = write_dataset(tmp_path / "ts-a", "table-separators")
    b = write_dataset(tmp_path / "ts-b", "table-separators", answer_overrides={"c000019": 40})
    results = tmp_path / "results"
    unregistered.run(results, "a", "table-separators", 0.9, dataset=a)
    unregistered.run(results, "b", "table-separators", 0.9, dataset=b)
    result = invoke(results)
    assert result.exit_code == 1 and "--pin table-separators=" in result.output + result.stderr
    digest = unregistered.identity(b)["digest"]
    data, _ = board_json(results, "--pin", f"table-separators={digest}")
    assert [Path(r["path"]).name for r in data["refused"]] == ["a"]
    assert "differs from the version pinned" in data["refused"][0]["reason"]
    # The digest pin's dataset was found where run b says it was.
    assert row(data, "Extract")["tasks"]["table-separators"]["score"] == pytest.approx(90)


def test_ambiguous_datasets_need_a_pin(tmp_path, unregistered):
    results = tmp_path / "results"
    unregistered.run(results, "a", "table-separators", 0.9, dataset=write_dataset(tmp_path / "one", "table-separators", name="one"))
    unregistered.run(results, "b", "table-separators", 0.9, dataset=write_dataset(tmp_path / "two", "table-separators", name="two"))
    result = invoke(results)
    assert result.exit_code == 1
    assert "--pin" in result.output + result.stderr


def test_runs_are_refused_when_the_pinned_dataset_is_not_here(tmp_path, unregistered):
    gone = write_dataset(tmp_path / "gone", "table-separators")
    digest = unregistered.identity(gone)["digest"]
    results = tmp_path / "results"
    unregistered.run(results, "a", "table-separators", 0.9, dataset=gone)
    unregistered.run(results, "b", "table-separators", 0.8, dataset=gone)
    assert task_score(results)[0] == pytest.approx(85)
    shutil.rmtree(gone)
    for pin in ([], ["--pin", f"table-separators={digest}"]):
        data, result = board_json(results, *pin)
        reasons = refusals(data)
        assert set(reasons) == {"a", "b"} and data["systems"] == []
        assert "is not on this machine" in reasons["a"] and str(gone.resolve()) in reasons["a"]
        assert "--pin table-separators=DIR" in reasons["a"] and "Traceback" not in result.stderr
    assert "a digest pin names no dataset" in reasons["a"]
    # Given where it is now (a copy), the runs are scored again.
    write_dataset(tmp_path / "moved", "table-separators")
    assert task_score(results, "--pin", f"table-separators={tmp_path / 'moved'}") == (pytest.approx(85), {})


def test_a_digest_pin_is_found_among_the_registered_datasets(tmp_path, bench):
    # The run's dataset directory is gone, but a registered dataset is that very dataset.
    copy = write_dataset(tmp_path / "copy", "table-separators")
    results = tmp_path / "results"
    bench.run(results, "a", "table-separators", 0.85, dataset=copy)
    shutil.rmtree(copy)
    digest = bench.identity(bench.data["table-separators"])["digest"]
    assert task_score(results, "--pin", f"table-separators={digest}") == (pytest.approx(85), {})


def test_a_recorded_source_holding_another_dataset_is_not_used(tmp_path, unregistered):
    source = write_dataset(tmp_path / "ts", "table-separators")
    results = tmp_path / "results"
    unregistered.run(results, "a", "table-separators", 0.9, dataset=source)
    # The directory now holds another answer key: scoring against it would not be the pinned data.
    write_dataset(source, "table-separators", answer_overrides={"c000000": 40})
    data, _ = board_json(results)
    reasons = refusals(data)
    assert set(reasons) == {"a"} and "is not on this machine" in reasons["a"] and "holds" in reasons["a"]


@pytest.mark.parametrize("pin", ["nonsense", "no-such-task=sha256:x", "table-separators="])
def test_bad_pin_is_a_usage_error(tmp_path, bench, pin):
    bench.run(tmp_path / "results", "a", "table-separators", 0.9)
    assert invoke(tmp_path / "results", "--pin", pin).exit_code == 2


def test_registered_dataset_is_pinned(tmp_path, bench):
    results = tmp_path / "results"
    other = write_dataset(tmp_path / "other", "table-separators", answer_overrides={"c000000": 40})
    bench.run(results, "pinned", "table-separators", 0.9)
    bench.run(results, "other", "table-separators", 0.5, dataset=other)
    data, _ = board_json(results)
    pin = data["pins"]["table-separators"]
    assert pin["dataset"]["digest"] == bench.identity(bench.data["table-separators"])["digest"] and "registered" in pin["source"]
    reasons = refusals(data)
    assert set(reasons) == {"other"}
    assert "re-key" in reasons["other"]  # same inputs, another answer key
    assert row(data, "Extract")["tasks"]["table-separators"]["score"] == pytest.approx(90)


def test_pin_by_dataset_id(tmp_path, bench):
    results = tmp_path / "results"
    bench.run(results, "pinned", "table-separators", 0.9)
    data, _ = board_json(results, "--pin", f"table-separators={dataset_id('table-separators')}")
    assert data["pins"]["table-separators"]["source"].startswith("--pin")
    assert data["refused"] == []


# -- the Site board -------------------------------------------------------------------------------------


def site_runs(bench, root, name, primary, cost, wall=100.0, sites=4, model=None):
    system = dict(REFERENCE, model=model or name)
    for task in SITE:
        bench.run(root, f"{name}-{task}", task, primary, system=system, cost=cost, wall=wall, sites=sites)


def test_site_board_costs_sorting_and_pareto(tmp_path, bench):
    results = tmp_path / "results"
    site_runs(bench, results, "cheap", 0.6, cost=0.4)  # 0.1 per site per task -> 0.1 × tasks per site
    site_runs(bench, results, "best", 0.9, cost=4.0)  # 1.0 per site per task
    site_runs(bench, results, "dominated", 0.6, cost=2.0)  # same score as cheap, dearer
    site_runs(bench, results, "tie-dear", 0.9, cost=8.0)  # same score as best, dearer
    bench.run(results, "partial", "recognized-conditions", 0.95, system=dict(REFERENCE, model="partial"), cost=0.0, sites=4)
    data, _ = board_json(results)
    site = next(c for c in data["categories"] if c["name"] == "Site")
    order = [r["system"]["model"] for r in site["rows"]]
    assert order == ["best", "tie-dear", "cheap", "dominated", "partial"]
    by_model = {r["system"]["model"]: r for r in site["rows"]}
    assert by_model["best"]["score"] == pytest.approx(90) and by_model["cheap"]["score"] == pytest.approx(60)
    assert by_model["cheap"]["cost_per_site_usd"] == pytest.approx(0.1 * len(SITE))
    assert by_model["cheap"]["wall_time_per_site_s"] == pytest.approx(len(SITE) * 100 / 4)
    assert by_model["cheap"]["tasks"]["site-timeline"]["cost_per_site_usd"] == pytest.approx(0.1)
    assert {m for m, r in by_model.items() if r["pareto"]} == {"best", "cheap"}
    assert by_model["partial"]["display"] == f"Incomplete (1 of {len(SITE)} tasks)" and by_model["partial"]["pareto"] is False

    md = invoke(results, "--tasks").stdout
    section = md.split("## Site board", 1)[1].split("\n## ", 1)[0]
    lines = [ln for ln in section.splitlines() if ln.startswith("| ") and not ln.startswith("| #") and not ln.startswith("| ---")]
    assert [ln.split(" | ")[1].split(" · ")[1] for ln in lines] == order
    assert f"${0.1 * len(SITE):.4f}" in lines[2] and "◆" in lines[2] and "◆" not in lines[3]
    assert "Cost per site" in section and "Wall time per site" in section


def test_site_cost_per_site_falls_back_to_the_cases_scored(tmp_path, bench):
    # No site count in run.json: the cases rescored (N) are the sites.
    bench.run(tmp_path / "results", "r", "recognized-conditions", 0.5, cost=3.0, wall=30.0, sites=None)
    data, _ = board_json(tmp_path / "results")
    tc = row(data, "Site")["tasks"]["recognized-conditions"]
    assert tc["cost_per_site_usd"] == pytest.approx(3.0 / N) and tc["wall_time_per_site_s"] == pytest.approx(30.0 / N)


# -- output ---------------------------------------------------------------------------------------------


def test_html_is_offline_escaped_and_has_the_scatter(tmp_path, bench):
    results = tmp_path / "results"
    site_runs(bench, results, "<script>alert(1)</script>", 0.7, cost=1.0)
    site_runs(bench, results, "plain", 0.8, cost=2.0)
    result = invoke(results, "--format", "html", "--tasks")
    assert result.exit_code == 0, result.output
    html = result.stdout
    assert "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">" in html
    assert "<script" not in html and "&lt;script&gt;" in html
    assert "<svg" in html and html.count("<circle") == 2 and "<polyline" in html
    # No request of any kind: the SVG namespace is the only URL.
    assert re.findall(r"https?://[^\s\"']+", html) == ["http://www.w3.org/2000/svg"]
    assert not re.search(r"\b(src|href)=|@import|url\(", html)


def test_html_comes_from_the_template_file(tmp_path, bench, monkeypatch):
    template = resources.files("envirobench") / "templates" / "leaderboard.html.j2"
    text = template.read_text(encoding="utf-8")
    assert "Content-Security-Policy" in text
    assert lb_render._ENV.get_template(lb_render.HTML_TEMPLATE).filename == str(template)
    # No page is kept in Python: the leaderboard modules hold no HTML document.
    for module in (resources.files("envirobench") / "leaderboard").iterdir():
        if module.name.endswith(".py"):
            assert "<!DOCTYPE" not in module.read_text(encoding="utf-8"), module.name
    # The page is that file rendered: change the file and the page changes with it.
    bench.run(tmp_path / "results", "r", "table-separators", 0.5)
    board = lb.build_leaderboard([tmp_path / "results"])  # the registry in force
    assert board.refused == () and len(board.systems) == 1
    assert "<h1>EnviroBench leaderboard</h1>" in lb.render(board, "html")
    custom = tmp_path / "templates"
    custom.mkdir()
    (custom / lb_render.HTML_TEMPLATE).write_text(text.replace("<h1>EnviroBench leaderboard</h1>", "<h1>Edited</h1>"), encoding="utf-8")
    monkeypatch.setattr(lb_render._ENV, "loader", jinja2.FileSystemLoader(custom))
    html = lb.render(board, "html")
    assert "<h1>Edited</h1>" in html and "<h1>EnviroBench leaderboard</h1>" not in html


def test_html_without_site_results(tmp_path, bench):
    bench.run(tmp_path / "results", "r", "table-separators", 0.5)
    html = invoke(tmp_path / "results", "--format", "html").stdout
    assert "No system has a complete Site score" in html and "<circle" not in html


def test_an_incomplete_category_shows_the_scores_of_the_tasks_run(tmp_path, bench):
    """Issue 36, point 5: the category score stays withheld, but the tasks run so far are on the
    board without --tasks (Markdown and HTML), and the chart says what it waits for."""
    results = tmp_path / "results"
    bench.run(results, "r1", "table-separators", 0.95)
    data, _ = board_json(results)
    extract = row(data, "Extract")
    assert extract["display"] == "Incomplete (1 of 6 tasks)" and extract["score"] is None
    low, high = extract["tasks"]["table-separators"]["interval"]
    task = f"95.0 ({low:.1f}–{high:.1f})"
    line = next(ln for ln in invoke(results).stdout.splitlines() if ln.startswith("| reference"))
    assert f"| Incomplete (1 of 6 tasks): `table-separators` {task} |" in line
    assert "| Incomplete (0 of 5 tasks) |" in line  # nothing run, nothing listed
    md = invoke(results).stdout
    assert "Not on the cost–score chart yet" in md and f"0 of {len(SITE)} Site tasks run" in md
    html = invoke(results, "--format", "html").stdout
    assert f'<ul class="done-tasks" title="the tasks run so far; the category score waits for all of them"><li><code>table-separators</code> {task}</li></ul>' in html
    waiting = html.split('id="plot-waiting"', 1)[1].split("</ul>", 1)[0]
    assert "empty until a system has run every Site task" in waiting and f"0 of {len(SITE)} Site tasks run" in waiting
    assert "Waiting for: 1 system(s), listed above." in html


def test_html_tables_and_chart_sit_in_boxes_that_scroll(tmp_path, bench):
    bench.run(tmp_path / "results", "r", "table-separators", 0.5)
    html = invoke(tmp_path / "results", "--format", "html", "--tasks").stdout
    assert html.count("<table>") == html.count('<div class="table-box"><table>') > 0
    assert ".table-box { max-width: 100%; overflow-x: auto;" in html and '<div class="chart-box">' in html


def test_markdown_escapes_labels(tmp_path, bench):
    bench.run(tmp_path / "results", "r", "table-separators", 0.5, system=dict(REFERENCE, model="a|b<i>"))
    md = invoke(tmp_path / "results").stdout
    assert "a\\|b&lt;i&gt;" in md


def test_output_is_written_atomically(tmp_path, bench):
    results = tmp_path / "results"
    bench.run(results, "r", "table-separators", 0.5)
    out = tmp_path / "out" / "board.json"
    result = invoke(results, "--format", "json", "--output", out)
    assert result.exit_code == 0, result.output
    assert result.stdout == "" and "wrote" in result.stderr
    assert json.loads(out.read_text())["format"] == lb.LEADERBOARD_FORMAT
    assert [p.name for p in out.parent.iterdir()] == ["board.json"]  # no temporary left behind


def test_partial_runs_are_refused(tmp_path, bench):
    results = tmp_path / "results"
    bench.run(results, "full", "table-separators", 0.9)
    # Every case has a prediction, yet the run says it is partial: refused all the same.
    bench.run(results, "said-partial", "table-separators", 0.9, partial=rundir.Partial(5, N, "--limit 5"))
    data, result = board_json(results)
    reasons = refusals(data)
    assert set(reasons) == {"said-partial"}
    assert "partial run: 5 of 20 cases (--limit 5)" in reasons["said-partial"] and "never on a leaderboard" in reasons["said-partial"]
    assert "said-partial" in result.stderr
    assert row(data, "Extract")["tasks"]["table-separators"]["repeats"] == 1


def test_a_real_partial_run_is_refused(tmp_path, bench, fake):
    spec = RunSpec(adapter=str(fake), run_id="quick", model="test/model", benchmark="table-separators", dataset=dataset_id("table-separators"),
                   budget_usd=1.0, results_dir=tmp_path / "results", limit=3, sandbox="none")
    assert execute_run(spec, bench.registry).partial == rundir.Partial(3, N, "--limit 3")
    data, _ = board_json(tmp_path / "results")
    assert "partial run: 3 of 20 cases" in refusals(data)["quick"] and data["systems"] == []


def test_json_is_format_json(tmp_path, bench):
    results = tmp_path / "results"
    bench.run(results, "r", "table-separators", 0.5)
    assert invoke(results, "--json").stdout == invoke(results, "--format", "json").stdout
    assert invoke(results, "--json", "--format", "json").exit_code == 0
    result = invoke(results, "--json", "--format", "md")
    assert result.exit_code == 2 and "contradict" in result.output
    assert invoke(results).stdout == invoke(results, "--format", "md").stdout  # Markdown by default


def test_main_cli_has_the_command(tmp_path, bench):
    from envirobench.cli import main

    bench.run(tmp_path / "results", "r", "table-separators", 0.5)
    result = CliRunner().invoke(main, ["leaderboard", str(tmp_path / "results"), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["scoring_version"] == cats.SCORING_VERSION


def registry_of(unregistered, plugin, *datasets):
    """The registry a plugin named `plugin` makes that registers `unregistered`'s types and
    `datasets`, each (ID, directory, split or None)."""
    types = [cls for cls, _ in unregistered.registry.benchmark_types.values()]

    class Plugin:
        @hookimpl
        def envirobench_benchmark_types(self, register):
            for cls in types:
                register(cls)

        @hookimpl
        def envirobench_datasets(self, register):
            for dataset_id, directory, split in datasets:
                register(dataset_id, directory, split=split)

    return plugins.build_registry(extra=[(plugin, Plugin())])


def board_of_splits(tmp_path, unregistered, splits, runs):
    """The board of `runs` (run ID, NAME, score) made on table-separators datasets
    `envirobench/table-separators-synthetic-NAME`, one per (NAME, split or None) of `splits`; with
    the datasets' directories by NAME and the registry that registers them."""
    entries = []
    for name, split in splits:
        dataset_id = f"envirobench/table-separators-synthetic-{name}"
        entries.append((dataset_id, write_dataset(tmp_path / name, "table-separators", name=dataset_id), split))
    paths = {name: directory for (name, _), (_, directory, _) in zip(splits, entries, strict=True)}
    for run_id, name, score in runs:
        unregistered.run(tmp_path / "results", run_id, "table-separators", score, dataset=paths[name])
    registry = registry_of(unregistered, "splits", *entries)
    with plugins.using_registry(registry):
        data, _ = board_json(tmp_path / "results")
    return data, paths, registry


def test_of_a_tasks_dev_and_test_splits_the_test_split_is_pinned(tmp_path, unregistered):
    """Systems are developed on dev and measured on test: a board pins test (docs/datasets.md)."""
    dev = write_dataset(tmp_path / "dev", "table-separators", name="envirobench/table-separators-synthetic-dev-v1")
    test = write_dataset(tmp_path / "test", "table-separators", name="envirobench/table-separators-synthetic-test-v1")

    def registry(dev_split, test_split):
        return registry_of(unregistered, "splits", ("envirobench/table-separators-synthetic-dev-v1", dev, dev_split),
                           ("envirobench/table-separators-synthetic-test-v1", test, test_split))

    results = tmp_path / "results"
    unregistered.run(results, "on-test", "table-separators", 0.9, dataset=test)
    unregistered.run(results, "on-dev", "table-separators", 0.7, dataset=dev)
    with plugins.using_registry(registry("dev", "test")):
        data, _ = board_json(results)
    assert data["pins"]["table-separators"]["source"].endswith("synthetic-test-v1 (test split)")
    assert [Path(r["path"]).name for r in data["refused"]] == ["on-dev"]
    assert row(data, "Extract")["tasks"]["table-separators"]["score"] == pytest.approx(90)
    # Without splits, two registered datasets are ambiguous, as before.
    with plugins.using_registry(registry(None, None)):
        result = invoke(results)
    assert result.exit_code == 1 and "--pin table-separators=DATASET" in result.output + result.stderr
    with pytest.raises(EnviroBenchError, match="split must be one of dev, test"):
        registry("dev", "final")


def test_an_earlier_dataset_without_a_split_beside_dev_and_test_leaves_the_test_split_pinned(tmp_path, unregistered):
    """Extract keeps its v1 datasets (no split) beside the v2 dev and test splits: still test."""
    data, _, _ = board_of_splits(tmp_path, unregistered, [("v1", None), ("dev-v2", "dev"), ("test-v2", "test")],
                                 [("on-v1", "v1", 0.95), ("on-test", "test-v2", 0.6)])
    assert data["pins"]["table-separators"]["source"].endswith("synthetic-test-v2 (test split)")
    assert [Path(r["path"]).name for r in data["refused"]] == ["on-v1"]
    assert row(data, "Extract")["tasks"]["table-separators"]["score"] == pytest.approx(60)


def test_of_several_test_splits_the_one_every_run_was_made_on_is_pinned(tmp_path, unregistered):
    """Site ships two test splits (the three public sites, and 20 small sites): runs that all used
    one of them are pinned to it; runs on both need --pin, naming the choices."""
    data, paths, registry = board_of_splits(tmp_path, unregistered, [("dev-v1", "dev"), ("test-v1", "test"), ("test-many-v1", "test")],
                                            [("on-many", "test-many-v1", 0.8), ("on-dev", "dev-v1", 0.7)])
    assert data["pins"]["table-separators"]["source"].endswith("synthetic-test-many-v1 (test split)")
    assert [Path(r["path"]).name for r in data["refused"]] == ["on-dev"]
    assert row(data, "Extract")["tasks"]["table-separators"]["score"] == pytest.approx(80)
    unregistered.run(tmp_path / "results", "on-test", "table-separators", 0.6, dataset=paths["test-v1"])
    with plugins.using_registry(registry):
        result = invoke(tmp_path / "results")
    assert result.exit_code == 1 and "--pin table-separators=DATASET" in result.output + result.stderr
