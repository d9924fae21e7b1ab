"""What the end-to-end tests share: the distributions `bin/dist` builds, once per session (for all
of its xdist workers)."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def build_dist(out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(REPO / "bin" / "dist"), str(out)], capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="session")
def build():
    """build(out): run bin/dist into `out` (the completed process)."""
    return build_dist


@pytest.fixture(scope="session")
def dist(tmp_path_factory) -> Path:
    """A directory holding every wheel and sdist of the workspace, built and checked by bin/dist:
    once per test session, shared by its xdist workers (the first to need it builds it, under a
    lock, while the others wait; a build that failed fails every test that needs it)."""
    if shutil.which("uv") is None:
        pytest.skip("bin/dist builds with uv, which bin/test puts on PATH")
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the session's directory, above each worker's own
    out = base / "dist-shared"
    outcome = base / "dist-shared.outcome.json"
    with (base / "dist-shared.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not outcome.exists():
            shutil.rmtree(out, ignore_errors=True)
            out.mkdir()
            built = build_dist(out)
            outcome.write_text(json.dumps({"returncode": built.returncode, "output": built.stdout + built.stderr, "stdout": built.stdout}))
    built = json.loads(outcome.read_text())
    assert built["returncode"] == 0, built["output"]
    assert "every distribution checked" in built["stdout"]
    return out
