"""benchmarks/leaderboard_runs.py: its analysis, and the whole script on a tiny slice (the check
bin/test makes; the full board is made outside it)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "leaderboard_runs.py"


def load_script():
    spec = importlib.util.spec_from_file_location("leaderboard_runs", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("leaderboard_runs", module)
    spec.loader.exec_module(module)
    return module


lr = load_script()


def test_spearman_agrees_with_scipy_and_is_undefined_when_it_cannot_be_told():
    from scipy.stats import spearmanr

    xs, ys = [10.0, 40.0, 20.0, 20.0, 5.0], [1.0, 3.0, 2.0, 4.0, 0.0]
    assert lr.spearman(xs, ys) == pytest.approx(spearmanr(xs, ys).statistic)
    assert lr.spearman([1.0, 2.0], [2.0, 1.0]) is None  # fewer than three systems
    assert lr.spearman([1.0, 2.0, 3.0], [5.0, 5.0, 5.0]) is None  # a constant side


def entry(system, score, kind="tool"):
    return lr.Entry(system, kind, score, None, 10)


def test_analysis_flags_a_task_that_orders_systems_unlike_its_category_and_a_shortcut_above_a_tool():
    entries = {
        "table-records": [
            entry("a", 90),
            entry("b", 50),
            entry("c", 10),
            entry("blind", 5, "shortcut"),
        ],
        "document-extraction": [
            entry("a", 90),
            entry("b", 50),
            entry("c", 10),
            entry("blind", 5, "shortcut"),
        ],
        # Small and reversed: the other two tasks still agree with each other.
        "table-cells": [
            entry("a", 20),
            entry("b", 30),
            entry("c", 40),
            entry("blind", 25, "shortcut"),
            entry("lazy", 5, "shortcut"),
        ],
    }
    by_task = {r.benchmark: r for r in lr.analysis(entries)}
    assert (
        by_task["table-records"].correlation == pytest.approx(1.0)
        and not by_task["table-records"].flags
    )
    cells = by_task["table-cells"]
    assert cells.correlation == pytest.approx(-1.0)
    assert cells.best_shortcut.system == "blind" and cells.outranked == ("a",)
    assert (
        len(cells.flags) == 2
        and "unlike its category" in cells.flags[0]
        and "blind shortcut outranks a" in cells.flags[1]
    )
    assert cells.best_blind.system == "blind" and cells.blind_outranked == ("a",)


def test_a_shortcut_given_the_keys_rows_is_told_apart_from_a_blind_one():
    entries = {
        "table-records": [
            entry("a", 30),
            entry("b", 10),
            entry("rows from the key", 40, "shortcut"),
            entry("empty output", 20, "shortcut"),
        ]
    }
    (result,) = lr.analysis(entries)
    assert result.best_shortcut.system == "rows from the key" and result.outranked == ("a", "b")
    assert result.best_blind.system == "empty output" and result.blind_outranked == ("b",)
    assert result.flags == [
        "a blind shortcut outranks b",
        "a shortcut given the key's rows outranks a",
    ]


def test_a_task_whose_systems_run_nothing_else_has_no_correlation():
    entries = {
        "table-cells": [entry("ocr1", 30), entry("ocr2", 20)],
        "table-records": [entry("pdf1", 10), entry("pdf2", 12)],
    }
    assert all(r.correlation is None and r.compared_with == () for r in lr.analysis(entries))


@pytest.mark.slow
def test_the_script_on_a_tiny_slice_writes_the_board_and_its_analysis(tmp_path):
    completed = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--results",
            str(tmp_path / "results"),
            "--output-dir",
            str(tmp_path / "docs"),
            "--only",
            "pdfplumber",
            "--limit",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=1800,
        cwd=ROOT,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    page = (tmp_path / "docs" / "leaderboard.md").read_text(encoding="utf-8")
    assert "**A check, not the board:** partial runs of the first 1 cases" in page
    for task in ("table-records", "document-extraction"):
        assert f"### `{task}`" in page and f"| `{task}` |" in page
    assert "| pdfplumber | tool |" in page and "| shortcut |" in page
    assert "## Analysis" in page and "**Flagged tasks:**" in page
    # The partial runs are listed as refused by `envirobench leaderboard`, never ranked.
    assert "Refused runs (2)" in page
    assert "<html" in (tmp_path / "docs" / "leaderboard.html").read_text(encoding="utf-8").lower()
