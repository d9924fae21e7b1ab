"""Start-up of the listing commands with every installed plugin: CPU and wall time per command.

    .venv/bin/python benchmarks/startup.py [--repeat 15] [--json out.json] [-- COMMAND ...]

Runs each command (by default `envirobench --help`, `plugins list` and `datasets`) `--repeat`
times, alternating between the commands, each time in a fresh process measured from outside
(benchmarks/_measured.py: CPU user+sys of the command from RUSAGE_CHILDREN, wall time), after
one unmeasured warm-up run of each (which writes the bytecode caches, as a user's first run
does). Prints the median and the range of each, the goal the command is held to (issue 38:
`--help` ≤ 0.15 s CPU and `datasets` ≤ 0.3 s CPU with every category installed), the installed
plugins, and the load average (/proc/loadavg) before and after. Results are measured, never
asserted: see docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from importlib import metadata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _measured import measure, measured_child  # noqa: E402

ENVIROBENCH = str(Path(sys.executable).with_name("envirobench"))
COMMANDS = ("--help", "plugins list", "datasets")
GOALS = {"--help": 0.15, "datasets": 0.3}  # CPU seconds (issue 38)


def loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def installed_plugins() -> list[str]:
    return sorted(f"{ep.name} ({ep.dist.name if ep.dist else '?'})" for ep in metadata.entry_points(group="envirobench"))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--measure"]:
        return measured_child(argv[1:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--json", type=Path, help="Also write the results to this file.")
    parser.add_argument("commands", nargs="*", default=list(COMMANDS), help="envirobench arguments, each one quoted string")
    args = parser.parse_args(argv)
    script = str(Path(__file__).resolve())
    before = loadavg()
    for command in args.commands:  # warm-up: bytecode written, page cache filled
        measure(script, [ENVIROBENCH, *command.split()], what=f"envirobench {command}")
    samples: dict[str, list[dict[str, float]]] = {c: [] for c in args.commands}
    for _ in range(args.repeat):
        for command in args.commands:
            samples[command].append(measure(script, [ENVIROBENCH, *command.split()], what=f"envirobench {command}"))
    after = loadavg()
    plugins = installed_plugins()
    print(f"installed plugins ({len(plugins)}): {', '.join(plugins)}")
    print(f"load average before: {before}; after: {after}; {args.repeat} runs of each, alternating")
    results = {}
    for command, runs in samples.items():
        cpu = sorted(r["cpu_s"] for r in runs)
        wall = sorted(r["wall_s"] for r in runs)
        goal = GOALS.get(command)
        results[command] = {"cpu_median_s": statistics.median(cpu), "cpu_min_s": cpu[0], "cpu_max_s": cpu[-1],
                            "wall_median_s": statistics.median(wall), "goal_cpu_s": goal}
        verdict = "" if goal is None else f"  goal ≤ {goal:.2f} s: {'met' if statistics.median(cpu) <= goal else 'NOT met'}"
        print(f"envirobench {command:<14} CPU median {statistics.median(cpu):.3f} s (range {cpu[0]:.3f}–{cpu[-1]:.3f}), "
              f"wall median {statistics.median(wall):.3f} s{verdict}")
    if args.json:
        args.json.write_text(json.dumps({"plugins": plugins, "loadavg_before": before, "loadavg_after": after,
                                         "repeat": args.repeat, "results": results}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
