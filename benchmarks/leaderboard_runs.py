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
    run_id = (
        config.run_id if not done.exists() else f"{config.run_id}-{time.strftime('%Y%m%d%H%M%S')}"
    )
    common = [
        "--adapter",
        config.adapter,
        "--model",
        f"tool/{config.adapter}",
        "--benchmark",
        config.benchmark,
        "--dataset",
        f"{config.benchmark}={DATASET.format(benchmark=config.benchmark)}",
        "--budget",
        "0",
        "--results",
        str(results),
        *(["--limit", str(limit)] if limit else []),
        *(["--repeats", str(config.repeats)] if config.repeats > 1 else []),
    ]
    started = time.monotonic()
    if shards > 1:
        # The shards at once (each its own sandboxed adapter), then joined into one run.
        running = [
            subprocess.Popen(
                [ENVIROBENCH, "run", "--run", run_id, "--shard", f"{index}/{shards}", *common]
            )
            for index in range(shards)
        ]
        for process in running:
            process.wait()
        subprocess.run(
            [ENVIROBENCH, "merge", "--run", run_id, "--results", str(results)], check=False
        )
    else:
        subprocess.run([ENVIROBENCH, "run", "--run", run_id, *common], check=False)
    made = results / run_id
    status = run_status(made)
    print(
        f"{config.run_id}: {status or 'no run'} in {time.monotonic() - started:.0f} s",
        file=sys.stderr,
    )
    return made if status == "completed" else None


# -- The board ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One system's score on one task: 100 x the primary headline (the category's formula)."""

    system: str
    kind: str  # "tool", "reference" or "shortcut"
    score: float
    interval: tuple[float, float] | None
    cases: int
    cost_usd: float | None = None
    wall_time_s: float | None = None

    @property
    def keyed(self) -> bool:
        """A shortcut given the answer key's rows (its spec's name says "from the key")."""
        return self.kind == "shortcut" and "from the key" in self.system


def primary(benchmark: str) -> tuple[str, str]:
    """The type's first profile and first headline metric (what the category score reads)."""
    from envirobench import build_registry

    btype = build_registry().benchmark_type(benchmark)
    return btype.PROFILES[0], btype.HEADLINE[0]


def tool_entry(config: Config, run_dir: Path) -> Entry | None:
    """A tool's run as the board reads it: its metrics.json headline and interval, its run.json's
    cost and the adapter's wall time."""
    try:
        metrics = json.loads((run_dir / "metrics.json").read_text(encoding="utf-8"))
        run = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    profile, metric = primary(config.benchmark)
    score = metrics["profiles"][profile]["headline"][metric]
    interval = metrics["profiles"][profile]["intervals"][metric]  # {"low": ..., "high": ...}
    low, high = interval["low"], interval["high"]
    cost = run.get("cost_usd")
    return Entry(
        config.adapter,
        "tool",
        100 * score,
        (100 * low, 100 * high),
        len(metrics["cases"]),
        cost if cost is not None else 0.0,
        run.get("adapter_wall_time_s"),
    )


REFERENCE_ROW = re.compile(
    r"^\| test \| reference adapter \| (?P<score>[0-9.]+) \[(?P<low>[0-9.]+), (?P<high>[0-9.]+)\]",
    re.MULTILINE,
)
REFERENCE_TIME = re.compile(
    r"Reference adapter wall time: .*?test (?P<seconds>[0-9.]+) s \((?P<cases>[0-9]+) "
)


def reference_entry(benchmark: str) -> Entry | None:
    """The reference adapter's test-split score as benchmarks/reference_scores.py wrote it in
    docs/reference-scores.md (the type's Extract v2 section), or None where it has none."""
    from reference_scores import section_markers

    text = (ROOT / "docs" / "reference-scores.md").read_text(encoding="utf-8")
    begin, end = section_markers(CATEGORY, benchmark)
    if begin not in text:
        return None
    section = text[text.index(begin) : text.index(end)]
    row, timing = REFERENCE_ROW.search(section), REFERENCE_TIME.search(section)
    if row is None:
        return None
    return Entry(
        "reference adapter (docs/reference-scores.md)",
        "reference",
        100 * float(row["score"]),
        (100 * float(row["low"]), 100 * float(row["high"])),
        int(timing["cases"]) if timing else 0,
        0.0,
        float(timing["seconds"]) if timing else None,
    )


def shortcut_entries(benchmark: str, results: Path, limit: int | None) -> list[Entry]:
    """benchmarks/extract_specs' shortcut baselines on the test split, scored in process (the
    same function that makes docs/reference-scores.md's rows), on the first `limit` cases with
    --limit."""
    from reference_scores import split_rows, split_spec

    row = split_rows(split_spec(CATEGORY, benchmark), "test", results, limit, reference=False)
    metric = primary(benchmark)[1]
    return [
        Entry(
            name,
            "shortcut",
            100 * baseline["headline"][metric],
            tuple(100 * v for v in baseline["intervals"][metric]),
            row["cases"],
        )
        for name, baseline in row["baselines"].items()
    ]


def spearman(xs: list[float], ys: list[float]) -> float | None:
    """Spearman's rank correlation (average ranks for ties); None when either side is constant
    or there are fewer than three pairs."""
    if len(xs) < 3:
        return None

    def ranks(values: list[float]) -> list[float]:
        order = sorted(range(len(values)), key=lambda i: values[i])
        out = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                out[order[k]] = (i + j) / 2 + 1
            i = j + 1
        return out

    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    if sxx == 0 or syy == 0:
        return None
    return sxy / (sxx * syy) ** 0.5


@dataclass(frozen=True)
class TaskAnalysis:
    benchmark: str
    systems: int  # real systems that ran it
    correlation: float | None
    compared_with: tuple[str, ...]  # the other tasks whose mean the correlation is with
    best_shortcut: Entry | None
    outranked: tuple[str, ...]  # real systems the best shortcut scores above
    best_blind: Entry | None = None  # the best shortcut that reads nothing from the answer key
    blind_outranked: tuple[str, ...] = ()

    @property
    def flags(self) -> list[str]:
        flags = []
        if self.correlation is not None and self.correlation < FLAG_BELOW:
            flags.append(
                f"orders the real systems unlike its category (ρ = {self.correlation:.2f})"
            )
        if self.blind_outranked:
            flags.append(f"a blind shortcut outranks {', '.join(self.blind_outranked)}")
        keyed = tuple(s for s in self.outranked if s not in self.blind_outranked)
        if keyed:
            flags.append(f"a shortcut given the key's rows outranks {', '.join(keyed)}")
        return flags


def below(shortcut: Entry | None, systems: dict[str, float]) -> tuple[str, ...]:
    """The real systems `shortcut` scores above."""
    return tuple(
        sorted(s for s, v in systems.items() if shortcut is not None and shortcut.score > v)
    )


def analysis(entries: dict[str, list[Entry]]) -> list[TaskAnalysis]:
    """Per task: the rank correlation of the real systems (tools and the reference) on it with
    their mean over the category's other tasks they ran, and the real systems its best shortcut
    outranks."""
    real = {
        task: {e.system: e.score for e in rows if e.kind != "shortcut"}
        for task, rows in entries.items()
    }
    out = []
    for task, rows in entries.items():
        systems = real[task]
        others = [t for t in entries if t != task]
        means, used = [], set()
        names = []
        for system in systems:
            elsewhere = [real[t][system] for t in others if system in real[t]]
            if elsewhere:
                names.append(system)
                means.append(sum(elsewhere) / len(elsewhere))
                used.update(t for t in others if system in real[t])
        correlation = spearman([systems[n] for n in names], means)
        shortcuts = [e for e in rows if e.kind == "shortcut"]
        best = max(shortcuts, key=lambda e: e.score, default=None)
        blind = max((e for e in shortcuts if not e.keyed), key=lambda e: e.score, default=None)

        out.append(
            TaskAnalysis(
                task,
                len(systems),
                correlation,
                tuple(sorted(used)),
                best,
                below(best, systems),
                blind,
                below(blind, systems),
            )
        )
    return out


def _fmt(value: float | None, spec: str, unit: str = "") -> str:
    return "—" if value is None else f"{value:{spec}}{unit}"


def render_companion(
    entries: dict[str, list[Entry]], results: list[TaskAnalysis], limit: int | None
) -> str:
    lines = [
        "## Beside the reference and the best shortcut",
        "",
        "Each task's score is the category's formula, 100 × the type's primary headline measure (its first "
        "profile), on the task's test split; brackets are the bootstrap 95 % interval (core's, as in "
        "metrics.json). Cost is what the run spent (these tools call no paid service: $0); wall time is the "
        "adapter process's, as core measured it, and per case that divided by the cases. The reference "
        "adapter's row is copied from docs/reference-scores.md (made by `benchmarks/reference_scores.py "
        "--extract TYPE`); the shortcut rows are that script's blind or answer-key baselines "
        "(`benchmarks/extract_specs/`), scored here on the same cases; only the best shortcut per task is shown.",
        "",
        "A tool's row is the tool through the one shared mapper of its type (docs/tool-adapters.md): a record "
        "score is bounded by that generic mapper as much as by the tool's tables, while the reference adapter "
        "has a table reader of its own and OCRs image-only pages, which these PDF tools cannot read.",
        "",
    ]
    if limit:
        lines += [
            f"**A check, not the board:** partial runs of the first {limit} cases of each split (`--limit`).",
            "",
        ]
    for task, rows in entries.items():
        lines += [
            f"### `{task}`",
            "",
            "| system | kind | score | 95 % interval | cases | cost (USD) | wall time (s) | s / case |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |",
        ]
        shortcuts = [e for e in rows if e.kind == "shortcut"]
        best = max(shortcuts, key=lambda e: e.score, default=None)
        shown = sorted(
            (e for e in rows if e.kind != "shortcut" or e is best), key=lambda e: -e.score
        )
        for e in shown:
            interval = "—" if e.interval is None else f"[{e.interval[0]:.1f}, {e.interval[1]:.1f}]"
            per_case = None if e.wall_time_s is None or not e.cases else e.wall_time_s / e.cases
            cost = "—" if e.kind == "shortcut" else _fmt(e.cost_usd, ".2f")
            lines.append(
                f"| {e.system} | {e.kind} | {e.score:.1f} | {interval} | {e.cases} | {cost} | "
                f"{_fmt(e.wall_time_s, '.0f')} | {_fmt(per_case, '.2f')} |"
            )
        lines.append("")
    lines += [
        "## Analysis",
        "",
        "Made by `benchmarks/leaderboard_runs.py` (`analysis()`). For each task: Spearman's rank correlation ρ "
        "between the real systems' scores on it (the tools and the reference adapter) and their mean score on "
        f"the other tasks of its category that they ran; a task with ρ below {FLAG_BELOW} orders the systems "
        "unlike its category. ρ is undefined (—) with fewer than three systems in common or a constant side. "
        "Then whether the task's best shortcut scores above any real system, told apart: a *blind* shortcut "
        "reads nothing of the answer key (a constant or empty answer), while the specs' other baselines are "
        "given the key's rows (samples, analytes, units, limits), which no blind system could know. Each flag "
        "names the task.",
        "",
        "| task | real systems | ρ with the category | compared with | best shortcut | its score | best blind shortcut | its score | flags |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in results:
        lines.append(
            f"| `{r.benchmark}` | {r.systems} | {_fmt(r.correlation, '.2f')} | {', '.join(f'`{t}`' for t in r.compared_with) or '—'} | "
            f"{r.best_shortcut.system if r.best_shortcut else '—'} | {_fmt(r.best_shortcut and r.best_shortcut.score, '.1f')} | "
            f"{r.best_blind.system if r.best_blind else '—'} | {_fmt(r.best_blind and r.best_blind.score, '.1f')} | "
            f"{'; '.join(r.flags) or 'none'} |"
        )
    flagged = [r for r in results if r.flags]
    lines += [
        "",
        "**Flagged tasks:** "
        + (
            "; ".join(f"`{r.benchmark}`: {', '.join(r.flags)}" for r in flagged)
            if flagged
            else "none"
        )
        + ".",
        "",
    ]
    return "\n".join(lines)


def write_board(
    made: dict[Config, Path | None], results: Path, output_dir: Path, limit: int | None
) -> None:
    """docs/leaderboard.md: `envirobench leaderboard --tasks` of RESULTS, then the companion table
    and the analysis; docs/leaderboard.html: the board's HTML."""
    output_dir.mkdir(parents=True, exist_ok=True)
    # Run from RESULTS' parent with its name, so the board names each run directory relative to
    # it (`board/<run>`), never by a path of the machine that made it.
    results = results.resolve()
    board = subprocess.run(
        [ENVIROBENCH, "leaderboard", results.name, "--tasks"],
        capture_output=True,
        text=True,
        check=True,
        cwd=results.parent,
    )
    subprocess.run(
        [
            ENVIROBENCH,
            "leaderboard",
            results.name,
            "--tasks",
            "--format",
            "html",
            "-o",
            str((output_dir / "leaderboard.html").resolve()),
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=results.parent,
    )
    entries: dict[str, list[Entry]] = {}
    missing = []
    for config, run_dir in made.items():
        entry = tool_entry(config, run_dir) if run_dir is not None else None
        if entry is None:
            missing.append(config.run_id)
            continue
        entries.setdefault(config.benchmark, []).append(entry)
    for benchmark in list(entries):
        reference = reference_entry(benchmark)
        entries[benchmark] += ([reference] if reference and not limit else []) + shortcut_entries(
            benchmark, results, limit
        )
    results_ = analysis(entries)
    board_text = re.sub(r"^# ", "## ", board.stdout, flags=re.MULTILINE)
    header = [
        "# Leaderboard: real open-source document tools",
        "",
        "<!-- generated by benchmarks/leaderboard_runs.py; do not edit by hand -->",
        "",
        "Generated by `nice -n 19 .venv/bin/python benchmarks/leaderboard_runs.py --results RESULTS` "
        "(see docs/tool-adapters.md for the adapters, what they serve and what is not on this board).",
        "",
    ]
    if missing:
        header += [
            "**Runs missing from this board** (not completed when it was made): "
            + ", ".join(f"`{m}`" for m in missing)
            + ".",
            "",
        ]
    text = "\n".join(header) + "\n" + render_companion(entries, results_, limit) + "\n" + board_text
    path = output_dir / "leaderboard.md"
    temporary = path.with_suffix(".md.tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(path)
    print(f"wrote {path} and {output_dir / 'leaderboard.html'}", file=sys.stderr)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--results", type=Path, required=True, help="where the runs are made and kept"
    )
    parser.add_argument(
        "--output-dir", type=Path, default=ROOT / "docs", help="where leaderboard.md and .html go"
    )
    parser.add_argument("--only", action="append", help="only this adapter's runs (repeatable)")
    parser.add_argument(
        "--limit", type=int, help="partial runs of the first N cases (a check, not the board)"
    )
    parser.add_argument(
        "--shards", type=int, default=1, help="split each run into N shards made at once"
    )
    parser.add_argument(
        "--no-run", action="store_true", help="make no run: rewrite the board from RESULTS"
    )
    args = parser.parse_args(argv)
    args.results.mkdir(parents=True, exist_ok=True)
    made: dict[Config, Path | None] = {}
    for config in configs(set(args.only) if args.only else None):
        made[config] = (
            args.results / config.run_id
            if args.no_run
            else make_run(config, args.results, args.limit, args.shards)
        )
    write_board(made, args.results, args.output_dir, args.limit)


if __name__ == "__main__":
    main()
