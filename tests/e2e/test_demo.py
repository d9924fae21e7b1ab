"""bin/demo as a new user reads it (issue 36, finding 6): a short, calm first screen — what will
run, then the runs — a first run's "baseline required" said as the expected state, and the gate's
and McNemar's counts of "worse" told apart in one line."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_the_demo_first_screen_fits_in_40_lines(tmp_path):
    # bin/demo's bootstrap runs `uv sync --frozen`: the workspace is installed already (this
    # interpreter's), so a `uv` that does nothing stands in for it.
    fake_uv = tmp_path / "bin" / "uv"
    fake_uv.parent.mkdir()
    fake_uv.write_text("#!/bin/sh\nexit 0\n")
    fake_uv.chmod(0o755)
    env = {**os.environ, "PATH": f"{fake_uv.parent}:{os.environ['PATH']}", "RESULTS": str(tmp_path / "results")}
    env.pop("ENVIROBENCH_LOAD_PLUGINS", None)
    done = subprocess.run([str(REPO / "bin" / "demo")], capture_output=False, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stdout
    lines = done.stdout.splitlines()
    run2 = next(i for i, line in enumerate(lines) if line.startswith("== run 2"))
    first_screen = lines[:run2]
    assert len(first_screen) <= 40, "\n".join(first_screen)
    assert any(line.startswith("== run 1") for line in first_screen)
    assert "gate: baseline required — expected for a first run: there is nothing to compare with yet" in done.stdout
    assert not any(line.startswith("== plugins") or line.startswith("== benchmark types") for line in lines)
    # The gate's "worse" and McNemar's, told apart before the summary that shows both.
    explained = next(i for i, line in enumerate(lines) if line.startswith('Two counts of "worse"'))
    assert "errors changed but stayed non-empty is worse for the gate, not for McNemar" in lines[explained]
    assert explained < next(i for i, line in enumerate(lines) if "exact McNemar test" in line)
