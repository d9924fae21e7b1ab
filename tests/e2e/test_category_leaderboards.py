"""Each category with dev and test splits end to end on a leaderboard: a system with a run of every
task of the category on its test split gets a category score (not Incomplete), pinned to the test
splits; one task short, it is Incomplete. Runs are whole `envirobench run` processes of core's
fixture adapter (each answering from a shipped fixture), so this needs no OCR and takes seconds a
run."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from envirobench import categories
from envirobench.conformance.harness import write_fixture_adapter

ENVIROBENCH = Path(sys.executable).with_name("envirobench")
# Category name -> the package listing its types; every one ships `synthetic-test-v1`.
PACKAGES = {
    "Legal": "envirobench_legal",
    "Locate": "envirobench_locate",
    "Verify": "envirobench_verify",
    "Research": "envirobench_research",
    "Site": "envirobench_site",
}
TEST_SPLIT = "synthetic-test-v1"
pytestmark = pytest.mark.slow


def run(tmp_path: Path, package, type_id: str, fixture: str, results: Path) -> None:
    predictions = package.layout(type_id).fixtures_dir(TEST_SPLIT) / fixture
    adapter = write_fixture_adapter(tmp_path / "adapters" / type_id / fixture.replace(".json", ""), predictions)
    done = subprocess.run(
        [str(ENVIROBENCH), "run", "--adapter", str(adapter), "--run", f"{type_id}-{fixture[:-5]}", "--model", f"fixture/{fixture[:-5]}",
         "--benchmark", type_id, "--dataset", f"{type_id}=envirobench/{type_id}-synthetic-test-v1", "--budget", "0",
         "--results", str(results), "--sandbox", "none"],
        capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def board(results: Path) -> dict:
    done = subprocess.run([str(ENVIROBENCH), "leaderboard", str(results), "--json"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)


def row(data: dict, category: str, model: str) -> dict:
    rows = next(c for c in data["categories"] if c["name"] == category)["rows"]
    return next(r for r in rows if r["system"]["model"] == model)


@pytest.mark.parametrize("category", sorted(PACKAGES))
def test_every_task_run_gives_a_category_score_pinned_to_the_test_splits(tmp_path, category):
    package = importlib.import_module(f"{PACKAGES[category]}.package").PACKAGE
    types = [cls.ID for cls in package.types]
    # The package registers exactly the category's tasks.
    assert sorted(types) == sorted(t.id for t in next(c for c in categories.CATEGORIES if c.name == category).tasks)
    results = tmp_path / "results"
    for type_id in types:
        run(tmp_path, package, type_id, "correct.json", results)
        run(tmp_path, package, type_id, "wrong.json", results)
    data = board(results)
    correct, wrong = row(data, category, "fixture/correct"), row(data, category, "fixture/wrong")
    assert not correct["display"].startswith("Incomplete") and not wrong["display"].startswith("Incomplete")
    assert set(correct["tasks"]) == set(types)
    for type_id in types:
        ceiling = 100.0
        if type_id == "ocr-auto-accept":
            # Even a perfect judge accepts only the cells the OCR read right: the formula's
            # denominator is every readable cell, so its ceiling is the share read right.
            metrics = json.loads((results / f"{type_id}-correct" / "metrics.json").read_text())
            headline = next(iter(metrics["profiles"].values()))["headline"]
            assert headline["wrong_accepts"] == 0
            ceiling = 100.0 * headline["correct_accepts"] / headline["readable_cells"]
            assert 50.0 < ceiling < 100.0
        assert correct["tasks"][type_id]["score"] == pytest.approx(ceiling), type_id
        assert wrong["tasks"][type_id]["score"] < correct["tasks"][type_id]["score"], type_id
    if category == "Site":
        # Site boards show cost and wall time per site beside every score: the fixture adapter
        # costs nothing and reports no per-case figures, so each site's share is averaged.
        assert correct["cost_per_site_usd"] == 0.0 and correct["wall_time_per_site_s"] > 0
        run_json = json.loads((results / f"{types[0]}-correct" / "run.json").read_text())
        assert run_json["cases"]["sites"] == 3 and all(u["wall_averaged"] for u in run_json["per_site"])
    for type_id in types:
        assert data["pins"][type_id]["dataset"]["id"] == f"envirobench/{type_id}-synthetic-test-v1"

    # One task short, the system is Incomplete: a missing task never counts as zero.
    (results / f"{types[-1]}-wrong" / "run.json").unlink()
    assert row(board(results), category, "fixture/wrong")["display"] == f"Incomplete ({len(types) - 1} of {len(types)} tasks)"
