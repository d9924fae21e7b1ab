"""What the end-to-end tests share: the distributions `bin/dist` builds, once per session."""

from __future__ import annotations

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
    """A directory holding every wheel and sdist of the workspace, built and checked by bin/dist."""
    if shutil.which("uv") is None:
        pytest.skip("bin/dist builds with uv, which bin/test puts on PATH")
    out = tmp_path_factory.mktemp("dist")
    built = build_dist(out)
    assert built.returncode == 0, built.stdout + built.stderr
    assert "every distribution checked" in built.stdout
    return out
