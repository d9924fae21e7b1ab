"""A command measured from outside, for benchmarks/harness_overhead.py and run_memory.py: the
script runs itself again as `SCRIPT --measure -- COMMAND...`, a fresh process whose only child is
the command, so that its RUSAGE_CHILDREN is the command's alone (CPU of every process the command
waited for, peak RSS of its largest); that process prints them with the wall time as one JSON line.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from typing import Any

# The measured commands may keep compiled bytecode (.pyc, jinja2's template cache) as they would
# on a user's machine: a PYTHONDONTWRITEBYTECODE of the caller's would make each run compile its
# code again, which is start-up no harness has for its users. The scripts make one unmeasured
# warm-up run where it matters, which writes those caches first.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def measure(script: str, command: list[str], *, what: str, cwd=None) -> dict[str, Any]:
    """Run `command` under a fresh measuring process (`script --measure -- command`): its CPU
    time, wall time and peak RSS (cpu_s, wall_s, peak_mib). A failure exits, naming `what`."""
    done = subprocess.run([sys.executable, script, "--measure", "--", *command], cwd=cwd, capture_output=True, text=True, env=ENV)
    if done.returncode != 0:
        raise SystemExit(f"{what} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def measured_child(argv: list[str]) -> int:
    """`--measure [--] COMMAND...` (argv after --measure): run the command, print its usage as one
    JSON line; the exit code (the command's, its stderr's tail written, where it fails)."""
    command = argv[1:] if argv[:1] == ["--"] else argv
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        sys.stderr.write(done.stderr[-3000:])
        return done.returncode
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(json.dumps({"cpu_s": usage.ru_utime + usage.ru_stime, "wall_s": wall, "peak_mib": usage.ru_maxrss / 1024}))
    return 0
