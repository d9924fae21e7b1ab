"""The first public leaderboard: run every real tool adapter on every test split it can serve, then
write docs/leaderboard.md (and docs/leaderboard.html) with `envirobench leaderboard`, beside the
reference adapter and the best shortcut baseline, and an analysis section.

    nice -n 19 .venv/bin/python benchmarks/leaderboard_runs.py --results RESULTS [--only NAME ...]
    .venv/bin/python benchmarks/leaderboard_runs.py --results RESULTS --no-run   # rewrite the docs only
    .venv/bin/python benchmarks/leaderboard_runs.py --results DIR --limit 2 --output-dir DIR  # a check

Runs. One `envirobench run` per (adapter, type) of `RUNS` on the type's test split (Extract's
`synthetic-test-v2`), in the default sandbox, budget 0 (the tools cost nothing), one case at a
time. Every tool here is deterministic (no sampling, a fixed model, one thread of work per case),
so each configuration is run once; a configuration that was not would be given `repeats` > 1
(`envirobench run --repeats`). A run already completed in RESULTS is kept (the script resumes);
a failed one is made again under a new run ID. `--shards N` splits each run into N shards
(`envirobench run --shard`), made at once and joined by `envirobench merge`.

Board. `envirobench leaderboard RESULTS --tasks` (Markdown and HTML): every completed full run,
rescored against the pinned test split, with intervals, cost and wall time. The reference
adapter's and the shortcuts' test-split scores come from the committed numbers that
benchmarks/reference_scores.py made (docs/reference-scores.md, between each type's markers) and
from the same script's shortcut baselines, scored here in process (`split_rows(...,
reference=False)`): the best shortcut per task is the one with the highest task score.

Analysis (made by `analysis()`, written under the board): for each task, Spearman's rank
correlation between the real systems' scores on it and their mean score on the other tasks of
its category that they ran (undefined with fewer than three systems in common, or when either
side is constant); a task is flagged when the correlation is below 0.5 (it orders the systems
unlike its category) or when the best shortcut scores above any real system on it.

`--limit N` makes partial runs of the first N cases (the check bin/test makes through
tests/adapters_tools): partial runs are never on a leaderboard, so the board then lists them as
refused, and the analysis reads the partial runs' metrics.json instead (said in its header).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

ENVIROBENCH = str(Path(sys.executable).with_name("envirobench"))
DATASET = "envirobench/{benchmark}-synthetic-test-v2"
CATEGORY = "extract"
FLAG_BELOW = 0.5  # a task's rank correlation with its category under this is flagged


@dataclass(frozen=True)
class Config:
    adapter: str
    benchmark: str
    repeats: int = 1  # every tool here is deterministic

    @property
    def run_id(self) -> str:
        return f"{self.adapter}-{self.benchmark}-test"


# Every (adapter, type) with a test split it can serve: envirobench_adapters_tools.ADAPTERS.
def configs(only: set[str] | None = None) -> list[Config]:
    from envirobench_adapters_tools import ADAPTERS

    return [
        Config(name, benchmark)
        for name, (_, served) in ADAPTERS.items()
        for benchmark in served
        if not only or name in only
    ]


def run_status(run_dir: Path) -> str | None:
    try:
        return json.loads((run_dir / "run.json").read_text(encoding="utf-8"))["status"]
    except (OSError, ValueError, KeyError):
        return None


def make_run(config: Config, results: Path, limit: int | None, shards: int) -> Path | None:
    """The run of `config` in `results`: kept when completed, else made. None when it failed."""
    done = results / config.run_id
    if run_status(done) == "completed":
        return done
    run_id = config.run_id if not done.exists() else f"{config.run_id}-{time.strftime('%Y%m%d%H%M%S')}"
    common = [
        "--adapter", config.adapter, "--model", f"tool/{config.adapter}", "--benchmark", config.benchmark,
        "--dataset", f"{config.benchmark}={DATASET.format(benchmark=config.benchmark)}", "--budget", "0",
        "--results", str(results), *(["--limit", str(limit)] if limit else []),
        *(["--repeats", str(config.repeats)] if config.repeats > 1 else []),
    ]
    started = time.monotonic()
    if shards > 1:
        # The shards at once (each its own sandboxed adapter), then joined into one run.
        running = [
            subprocess.Popen([ENVIROBENCH, "run", "--run", run_id, "--shard", f"{index}/{shards}", *common])
            for index in range(shards)
        ]
        for process in running:
            process.wait()
        subprocess.run([ENVIROBENCH, "merge", "--run", run_id, "--results", str(results)], check=False)
    else:
        subprocess.run([ENVIROBENCH, "run", "--run", run_id, *common], check=False)
    made = results / run_id
    status = run_status(made)
    print(f"{config.run_id}: {status or 'no run'} in {time.monotonic() - started:.0f} s", file=sys.stderr)
    return made if status == "completed" else None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", type=Path, required=True, help="where the runs are made and kept")
    parser.add_argument("--output-dir", type=Path, default=ROOT / "docs", help="where leaderboard.md and .html go")
    parser.add_argument("--only", action="append", help="only this adapter's runs (repeatable)")
    parser.add_argument("--limit", type=int, help="partial runs of the first N cases (a check, not the board)")
    parser.add_argument("--shards", type=int, default=1, help="split each run into N shards made at once")
    parser.add_argument("--no-run", action="store_true", help="make no run: rewrite the board from RESULTS")
    args = parser.parse_args(argv)
    args.results.mkdir(parents=True, exist_ok=True)
    made: dict[Config, Path | None] = {}
    for config in configs(set(args.only) if args.only else None):
        made[config] = args.results / config.run_id if args.no_run else make_run(config, args.results, args.limit, args.shards)
    write_board(made, args.results, args.output_dir, args.limit)


if __name__ == "__main__":
    main()
