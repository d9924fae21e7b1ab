"""Every script in benchmarks/ runs, at a tiny size: measurements are made by these scripts and
recorded in docs/performance.md and docs/reference-scores.md, so a script that no longer runs
(after an API change, say) must fail here, not on the day someone needs a number. Only that each
runs and reports is checked, never how fast (performance is never asserted in tests)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BENCHMARKS = REPO / "benchmarks"
pytestmark = pytest.mark.slow


def run(script: str, *args: str, cwd: Path) -> str:
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), *args], cwd=cwd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


def test_every_script_is_covered_here():
    covered = {"core_overhead.py", "dataset_verification.py", "document_extraction_scoring.py", "report_100k.py", "reference_scores.py", "statistics_bootstrap.py", "harness_overhead.py", "run_memory.py", "startup.py",
               "leaderboard_runs.py",  # its tiny run is tests/adapters_tools/test_leaderboard_script.py (it needs the tool adapters)
               # No tiny run: its smallest run OCRs a whole site (35 scans, ~130 s CPU), too long for the suite.
               # What it measures is tested in tests/reference_adapter/test_reference_ocr_cache.py (entries
               # written, reused, broken ones replaced, cached and uncached readings identical).
               "site_ocr_cache.py"}
    # _spec_parts.py and the like are helpers the scripts import, not scripts.
    scripts = {p.name for p in BENCHMARKS.glob("*.py") if not p.name.startswith("_")}
    assert scripts == covered, "a new benchmark script needs its tiny run here"


def test_core_overhead(tmp_path):
    out = run("core_overhead.py", "--cases", "200", "--json", str(tmp_path / "out.json"), cwd=tmp_path)
    assert "core overhead" in out and "peak RSS" in out
    assert json.loads((tmp_path / "out.json").read_text())


def test_dataset_verification(tmp_path):
    out = run("dataset_verification.py", "--size-mb", "4", "--files", "4", "--repeat", "1", "--json", str(tmp_path / "out.json"), cwd=tmp_path)
    assert "of hashlib" in out and json.loads((tmp_path / "out.json").read_text())["validate_mb_s"] > 0


def test_startup(tmp_path):
    out = run("startup.py", "--repeat", "1", "--json", str(tmp_path / "out.json"), "--", "--help", "datasets", cwd=tmp_path)
    assert "installed plugins" in out and "load average" in out and "goal" in out
    assert set(json.loads((tmp_path / "out.json").read_text())["results"]) == {"--help", "datasets"}


def test_document_extraction_scoring(tmp_path):
    out = run("document_extraction_scoring.py", "--documents", "3", "--records", "20", "--repeat", "1", "--json", str(tmp_path / "out.json"), cwd=tmp_path)
    assert out.strip() and json.loads((tmp_path / "out.json").read_text())


def test_report_100k(tmp_path):
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("report_100k.py opens the report in Debian's chromium (bin/test installs it)")
    out = run("report_100k.py", "--cases", "100", "--type", "both", "--repeat", "1", cwd=tmp_path)
    assert "table-separators: 100 cases" in out and "count-words: 100 cases" in out and "non-file requests: 0" in out


def test_reference_scores(tmp_path):
    output = tmp_path / "reference-scores.md"
    out = run("reference_scores.py", "--benchmark", "table-separators", "--output", str(output), "--summaries", str(tmp_path / "s.json"), cwd=tmp_path)
    assert f"wrote {output}" in out
    assert "table-separators" in output.read_text() and json.loads((tmp_path / "s.json").read_text())


def test_reference_scores_legal_section_is_rewritten_between_its_markers(tmp_path):
    output = tmp_path / "reference-scores.md"
    output.write_text("# Reference scores\n\nExtract tables.\n", encoding="utf-8")
    out = run("reference_scores.py", "--legal", "instrument-execution", "--limit", "2", "--output", str(output), "--results", str(tmp_path / "r"), cwd=tmp_path)
    assert "wrote the Legal section of instrument-execution" in out
    first = output.read_text()
    # The title, the summary table the script rebuilds, then what the page held.
    assert first.startswith("# Reference scores\n\n<!-- summary:begin")
    assert first.partition("<!-- summary:end -->\n")[2].startswith("\nExtract tables.\n")
    assert "| legal: instrument-execution | " in first
    assert "| dev | reference adapter |" in first and "| test | nothing executed |" in first
    # A second run replaces the section instead of appending another.
    run("reference_scores.py", "--legal", "instrument-execution", "--limit", "2", "--output", str(output), "--results", str(tmp_path / "r"), cwd=tmp_path)
    assert output.read_text().count("<!-- legal-instrument-execution:begin") == 1


@pytest.mark.parametrize("numpy", [True, False])
def test_statistics_bootstrap(tmp_path, numpy):
    out = run("statistics_bootstrap.py", "--cases", "300", *([] if numpy else ["--no-numpy"]), "--json", str(tmp_path / "out.json"), cwd=tmp_path)
    assert "| sums, paired |" in out and "| clustered, 10/doc |" in out
    assert json.loads((tmp_path / "out.json").read_text())["numpy"] is numpy


def test_harness_overhead(tmp_path):
    # inspect_ai is never a dependency of this project: the tiny run measures EnviroBench alone.
    out = run("harness_overhead.py", "--cases", "50", "--repeat", "1", "--json", str(tmp_path / "out.json"), cwd=tmp_path)
    assert "| 50 | envirobench |" in out
    assert json.loads((tmp_path / "out.json").read_text())["results"]["50"]["envirobench"][0]["output_bytes"] > 0


def test_run_memory(tmp_path):
    out = run("run_memory.py", "--cases", "100", "--json", str(tmp_path / "out.json"), cwd=tmp_path)
    assert "| candidate (paired with both) |" in out
    assert json.loads((tmp_path / "out.json").read_text())["results"]["candidate (paired with both)"]["peak_mib"] > 0
