"""The saved profile shipped for table-separators, and its plan pasted into a real shell."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from envirobench import get_registry
from envirobench.profiles import locate
from envirobench.stores.config import resolve
from envirobench_extract.package import PACKAGE


def test_shipped_profile():
    located = locate("table-separators", "extract")
    assert located.path.parent.name == "table-separators"
    assert located.path.parent.parent.parent.name == "envirobench_extract"
    assert located.path == PACKAGE.layout("table-separators").profile
    profile = located.profile
    assert profile.benchmark == "table-separators"
    assert profile.dataset == "envirobench/table-separators-synthetic-test-v2"  # what the leaderboard pins
    assert profile.adapter == "reference" and list(profile.adapters) == ["reference"]
    entry = profile.adapters["reference"]
    assert entry.model == "reference/projection-profiles" and entry.options == {}
    assert entry.baseline is None and entry.controls == ()  # nothing promoted in the repository
    assert profile.gate == ("logical",) and profile.budget_usd == 0.0
    assert resolve(profile.store).visibility == "private"
    registry = get_registry()
    assert profile.dataset in registry.datasets and "reference" in registry.adapters
    assert set(profile.gate) <= set(registry.benchmark_type(profile.benchmark).PROFILES)
    # Found without --plugin too: exactly one installed plugin has it.
    assert locate("table-separators").path == located.path


def envirobench(*args, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(Path(sys.executable).parent / "envirobench"), *map(str, args)], cwd=cwd, capture_output=True, text=True, env=shell_env())


def shell_env() -> dict[str, str]:
    return {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}


@pytest.mark.slow
def test_unpaired_promote_paired_and_the_plan_pasted_into_a_shell(tmp_path):
    """The reference adapter through the shipped profile (copied, so the repository's bench.json
    is never touched): unpaired run, promote, paired run; the paired plan, pasted into a shell,
    makes the same run. The copy runs on the 84-case v1 split instead of the 300-case test split
    it pins (test_shipped_profile checks that pin): what is tested here is the sequence of runs,
    not their size, and three runs of the test split made this the suite's slowest test."""
    shipped = json.loads(locate("table-separators", "extract").path.read_text(encoding="utf-8"))
    assert shipped["dataset"] == "envirobench/table-separators-synthetic-test-v2"
    plugin = tmp_path / "plugin"
    (plugin / "benchmarks" / "table-separators").mkdir(parents=True)
    (plugin / "benchmarks" / "table-separators" / "bench.json").write_text(
        json.dumps({**shipped, "dataset": "envirobench/table-separators-synthetic-v1"}, indent=2), encoding="utf-8")
    work = tmp_path / "work"
    work.mkdir()

    refused = envirobench("bench", "run", "table-separators", "--plugin", plugin, "--run", "first", cwd=work)
    assert refused.returncode == 1 and "--unpaired" in refused.stderr
    made = envirobench("bench", "run", "table-separators", "--plugin", plugin, "--run", "first", "--unpaired", cwd=work)
    assert made.returncode == 0, made.stderr
    promoted = envirobench("bench", "promote", "table-separators", "results/first", "--plugin", plugin, cwd=work)
    assert promoted.returncode == 0, promoted.stderr
    assert (work / ".private/store/runs/table-separators/first/run.json").is_file()
    profile = json.loads((plugin / "benchmarks/table-separators/bench.json").read_text())
    assert profile["adapters"]["reference"]["baseline"]["run_id"] == "first"

    paired = envirobench("bench", "run", "table-separators", "--plugin", plugin, "--run", "second", cwd=work)
    assert paired.returncode == 0, paired.stderr
    plan = envirobench("bench", "run", "table-separators", "--plugin", plugin, "--run", "pasted", "--plan", cwd=work)
    assert plan.returncode == 0 and plan.stderr == ""
    command = plan.stdout.strip()
    assert "--baseline-run results/first" in command and "--require-no-regressions" in command
    pasted = subprocess.run(command, shell=True, cwd=work, capture_output=True, text=True, env=shell_env())
    assert pasted.returncode == 0, pasted.stderr
    second = json.loads((work / "results/second/metrics.json").read_text())
    again = json.loads((work / "results/pasted/metrics.json").read_text())
    assert {**again, "run_id": "second"} == second
    assert second["gate"]["status"] == "passed"
