"""The no-op adapters that benchmarks/harness_overhead.py and run_memory.py measure core with: a
process that reads the adapter request, answers every case without reading anything and writes
predictions.json and adapter-result.json as the adapter protocol asks. Only how a case is
answered differs between the scripts; the request reading and the result writing are this file's.
"""

from __future__ import annotations

import sys
from pathlib import Path

_READ_REQUEST = '''\
import json, os, sys
argv = sys.argv[1:]
request = json.load(open(argv[argv.index("--request") + 1], encoding="utf-8"))
out = argv[argv.index("--output") + 1]
'''

_WRITE_RESULT = '''\
with open(os.path.join(out, "predictions.json"), "w", encoding="utf-8") as fh:
    json.dump(predictions, fh)
with open(os.path.join(out, "adapter-result.json"), "w", encoding="utf-8") as fh:
    json.dump({"id": request["benchmark"]["id"], "status": "completed", "format": request["benchmark"]["format"],
               "data": "predictions.json", "adapter": {"name": NAME, "version": "1"},
               "systems": [{"role": "candidate", "model": request["model"], "cost_usd": 0.0,
                            "execution_failures": 0, "unpriced_attempts": 0}]}, fh)
'''


def write_stub_adapter(work: Path, name: str, summary: str, answer: str) -> Path:
    """Write the adapter `work/noop` (a launcher of `work/noop_adapter.py`, in this Python) named
    `name`; `answer` is the code that sets `predictions` (case ID -> prediction) from `request`.
    Returns the launcher's path."""
    source = f'"""{summary}"""\n' + _READ_REQUEST + f"NAME = {name!r}\n" + answer + _WRITE_RESULT
    (work / "noop_adapter.py").write_text(source, encoding="utf-8")
    launcher = work / "noop"
    launcher.write_text(f'#!/bin/sh\nexec {sys.executable} "$(dirname "$0")/noop_adapter.py" "$@"\n', encoding="utf-8")
    launcher.chmod(0o755)
    return launcher
