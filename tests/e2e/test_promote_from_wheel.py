"""A promoted baseline survives a reinstall of the category wheel (docs/profiles.md, The project).

The wheels are built with `bin/dist` and envirobench-extract is installed from them with plain pip
into a fresh virtual environment. In a work directory outside the repository, the shipped
`table-separators` profile runs unpaired and that run is promoted: the promotion goes to the
project's `.envirobench/`, never into site-packages. After `pip install --force-reinstall` of the
Extract wheel, `bench run` still pairs with the promoted baseline, from the work directory and
from a subdirectory of it, and restores the baseline from the project's store when it is gone.

The profile's adapter is `reference`. Instead of installing the reference adapter (OCR models and
their dependencies), a tiny trusted stand-in named `reference` on PATH answers every requested
case from a copy of the dataset's `correct.json` fixture taken from the repository; it runs
outside the sandbox (ENVIROBENCH_SANDBOX=none), which is what lets it read that copy.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow

NAME = "table-separators"
FIXTURE = REPO / "envirobench-extract/src/envirobench_extract/benchmarks" / NAME / "fixtures/synthetic-test-v2/correct.json"  # the profile runs on the v2 test split

STAND_IN = '''#!{python}
"""A stand-in for the reference adapter: the correct fixture's prediction for each requested case."""
import json, os, sys

assert sys.argv[1:2] == ["run"] and sys.argv[2] == "--request" and sys.argv[4] == "--output", sys.argv
with open(sys.argv[3]) as fh:
    request = json.load(fh)
with open({fixture!r}) as fh:
    correct = json.load(fh)
out = sys.argv[5]
with open(os.path.join(out, "predictions.json"), "w") as fh:
    json.dump({{case["id"]: correct[case["id"]] for case in request["cases"]}}, fh)
result = {{
    "id": request["benchmark"]["id"], "status": "completed", "format": request["benchmark"]["format"],
    "data": "predictions.json", "adapter": {{"name": "reference-stand-in", "version": "1"}},
    "systems": [{{"role": "candidate", "model": request["model"], "cost_usd": 0.0, "execution_failures": 0, "unpriced_attempts": 0}}],
}}
with open(os.path.join(out, "adapter-result.json"), "w") as fh:
    json.dump(result, fh)
'''


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_promoted_baseline_survives_a_reinstall_of_the_wheel(dist, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    pip = [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--find-links", str(dist)]
    installed = subprocess.run([*pip, "envirobench-extract"], capture_output=True, text=True, timeout=900)
    assert installed.returncode == 0, installed.stdout + installed.stderr

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fixture = tmp_path / "correct.json"
    shutil.copyfile(FIXTURE, fixture)
    stand_in = bin_dir / "reference"
    stand_in.write_text(STAND_IN.format(python=sys.executable, fixture=str(fixture)))
    stand_in.chmod(0o755)

    work = tmp_path / "work"  # outside the repository
    work.mkdir()
    unset = ("VIRTUAL_ENV", "PYTHONPATH", "ENVIROBENCH_LOAD_PLUGINS", "ENVIROBENCH_STORES", "ENVIROBENCH_STATE")
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env |= {
        "PATH": os.pathsep.join([str(venv / "bin"), str(bin_dir), env.get("PATH", "")]),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "ENVIROBENCH_SANDBOX": "none",  # the trusted stand-in reads its fixture copy
    }

    def envirobench(*args: str, cwd: Path = work) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(["envirobench", *map(str, args)], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, f"envirobench {' '.join(map(str, args))} exited {done.returncode}\n{done.stdout}\n{done.stderr}"
        return done

    listed = json.loads(envirobench("bench", "list", "--json").stdout)
    shipped = Path(next(row["path"] for row in listed if row["name"] == NAME))
    assert "site-packages" in shipped.parts and shipped.is_relative_to(venv)
    shipped_sha = sha256(shipped)

    first = envirobench("bench", "run", NAME, "--run", "first", "--unpaired")
    assert "gate: baseline required" in first.stdout
    promoted = envirobench("bench", "promote", NAME, "results/first")
    overlay = work / ".envirobench" / "profiles" / "extract" / f"{NAME}.json"
    assert f"created the project state {work / '.envirobench'}" in promoted.stderr
    assert f"updated {overlay}" in promoted.stdout
    assert json.loads(overlay.read_text())["adapters"]["reference"]["baseline"]["run_id"] == "first"
    assert (work / ".private/store/runs" / NAME / "first/run.json").is_file()
    assert sha256(shipped) == shipped_sha  # site-packages is never written

    reinstalled = subprocess.run([*pip, "--no-index", "--no-deps", "--force-reinstall", "envirobench-extract"], capture_output=True, text=True, timeout=900)
    assert reinstalled.returncode == 0, reinstalled.stdout + reinstalled.stderr
    assert sha256(shipped) == shipped_sha

    def paired(run_id: str, cwd: Path) -> dict:
        done = envirobench("bench", "run", NAME, "--run", run_id, cwd=cwd)
        assert "gate: passed" in done.stdout
        run = json.loads((work / "results" / run_id / "run.json").read_text())
        assert run["pairing"]["baseline"]["run_id"] == "first" and run["gate"]["status"] == "passed"
        return run

    paired("second", work)
    deeper = work / "analysis" / "deeper"
    deeper.mkdir(parents=True)
    paired("third", deeper)
    assert sorted(p.name for p in deeper.iterdir()) == []  # the project's results, state and store

    # The baseline gone from the results: restored from the project's store, from the subdirectory.
    shutil.rmtree(work / "results" / "first")
    restored = envirobench("bench", "run", NAME, "--run", "fourth", cwd=deeper)
    assert f"restored {work / 'results' / 'first'}" in restored.stderr
    assert json.loads((work / "results/fourth/run.json").read_text())["pairing"]["baseline"]["run_id"] == "first"
