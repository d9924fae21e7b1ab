"""The Legal category end to end on a leaderboard: a system with a run of every Legal task on its
test split gets a Legal category score (not Incomplete), pinned to the test splits; one task
short, it is Incomplete. Runs are whole `envirobench run` processes of core's fixture adapter
(each answering from a shipped fixture), so this needs no OCR and takes seconds."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from envirobench.conformance.harness import write_fixture_adapter
from envirobench_legal.package import PACKAGE

ENVIROBENCH = Path(sys.executable).with_name("envirobench")
TYPES = [cls.ID for cls in PACKAGE.types]
pytestmark = pytest.mark.slow


def run(tmp_path: Path, type_id: str, fixture: str, results: Path) -> None:
    predictions = PACKAGE.layout(type_id).fixtures_dir("synthetic-test-v1") / fixture
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


def legal_row(data: dict, model: str) -> dict:
    legal = next(c for c in data["categories"] if c["name"] == "Legal")
    return next(r for r in legal["rows"] if r["system"]["model"] == model)


def test_every_legal_task_run_gives_a_legal_score_pinned_to_the_test_splits(tmp_path):
    assert sorted(TYPES) == ["chain-of-title", "indemnity-terms", "instrument-execution", "party-roles", "use-limitations"]
    results = tmp_path / "results"
    for type_id in TYPES:
        run(tmp_path, type_id, "correct.json", results)
        run(tmp_path, type_id, "wrong.json", results)
    data = board(results)
    correct, wrong = legal_row(data, "fixture/correct"), legal_row(data, "fixture/wrong")
    assert correct["score"] == pytest.approx(100.0) and not correct["display"].startswith("Incomplete")
    assert wrong["score"] < 100.0 and not wrong["display"].startswith("Incomplete")
    assert set(correct["tasks"]) == set(TYPES)
    for type_id in TYPES:
        assert data["pins"][type_id]["dataset"]["id"] == f"envirobench/{type_id}-synthetic-test-v1"

    # One task short, the system is Incomplete: a missing task never counts as zero.
    (results / "party-roles-wrong" / "run.json").unlink()
    assert legal_row(board(results), "fixture/wrong")["display"] == "Incomplete (4 of 5 tasks)"
