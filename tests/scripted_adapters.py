"""The scripted test adapters of tests/core/adapters/ as executables an adapter sandbox can run.

The sandbox shows an adapter its executable and the interpreter its `#!` line names (with that
interpreter's Python environment), not the directory the executable sits in nor the test tree.
So a scripted adapter is written out whole as one file run by this Python, never as a shell
wrapper that runs a script from the test tree.
"""

from __future__ import annotations

import sys
from pathlib import Path

ADAPTERS = Path(__file__).parent / "core" / "adapters"


def adapter_executable(path: Path, script: str, *, prelude: str = "", interpreter: str = sys.executable) -> Path:
    """Write tests/core/adapters/SCRIPT to `path` as an executable run by `interpreter` (its `#!`
    line; this Python unless given); `prelude` (Python) runs first (the scripts import nothing from
    __future__, so it may come first)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!{interpreter}\n{prelude}\n" + (ADAPTERS / script).read_text())
    path.chmod(0o755)
    return path
