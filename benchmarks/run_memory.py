"""Peak memory and output size of whole `envirobench run` processes on a large table-separators
dataset, unpaired and paired.

    .venv/bin/python benchmarks/run_memory.py --cases 100000 [--json out.json] [--workdir DIR] [--rescore N]

The dataset is the shipped table-separators dataset (envirobench-extract) grown to N cases: case
k is a copy of shipped case k mod 84 under a new ID, pointing at the same PNG (so the dataset
holds 84 images, and report-assets/ too), with its answer; it is pinned like any dataset
(`write_manifest`). The system under test is a no-op adapter (a Python script) that predicts
the separators a fixed few pixels off on every case, or none on every seventh: every case has
errors, which is the heaviest case for metrics.json and comparison.json.

Three processes, each `envirobench run ... --sandbox none`, measured from outside by a fresh
measuring process (peak RSS of the largest process, CPU of every process waited for):
  baseline   unpaired (the no-op adapter with one offset)
  control    unpaired (another offset)
  candidate  paired with the baseline and the control, gated
With --rescore N the candidate is then rescored N times (`envirobench score --run`, measured
the same way): core alone, paired with both, no adapter. With --workdir holding the three runs of
an earlier call (--workdir DIR, kept), only the rescores are made, so the core of two checkouts
can be compared on the same runs, alternating (PYTHONPATH=OTHER/envirobench-core/src for one side).
With --steps (and --workdir holding the runs) it reports instead, in this process, the RSS after
loading the dataset and after reading each compared run as the candidate's run does, and how long
a look-up of an answer and of a baseline prediction takes (CPU µs, over the first 20,000 cases).
Results are measured, never asserted: docs/performance.md records them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import _measured
from _stub_adapter import write_stub_adapter

import envirobench_extract

SHIPPED = Path(envirobench_extract.__file__).parent / "benchmarks" / "table-separators" / "datasets" / "synthetic-v1"

# How the no-op system (_stub_adapter.py) answers: every separator OFFSET pixels off; none on
# every seventh case.
ANSWER = '''\
offset = int(request["options"].get("offset", "2"))
predictions = {}
for n, case in enumerate(request["cases"]):
    w, h = case["input"]["width"], case["input"]["height"]
    if n % 7 == 0:
        predictions[case["id"]] = {"rows": [], "columns": []}
    else:
        predictions[case["id"]] = {"rows": [y for y in range(20 + offset, h - 10, 23)], "columns": [x for x in range(60 + offset, w - 10, 90)]}
'''


def grow_dataset(target: Path, n: int) -> None:
    from envirobench import write_manifest
    from envirobench.jsonio import dumps_line

    manifest = json.loads((SHIPPED / "manifest.json").read_text(encoding="utf-8"))
    cases = [json.loads(line) for line in (SHIPPED / "cases.jsonl").read_text(encoding="utf-8").splitlines()]
    answers = {a["id"]: a["answer"] for a in map(json.loads, (SHIPPED / "answers.jsonl").read_text(encoding="utf-8").splitlines())}
    target.mkdir(parents=True)
    shutil.copytree(SHIPPED / "assets", target / "assets")
    with open(target / "cases.jsonl", "w", encoding="utf-8") as c, open(target / "answers.jsonl", "w", encoding="utf-8") as a:
        for k in range(n):
            case = cases[k % len(cases)]
            cid = f"big-{k:07d}"
            c.write(dumps_line({"id": cid, "category": case["category"], "input": case["input"]}))
            a.write(dumps_line({"id": cid, "answer": answers[case["id"]]}))
    write_manifest(target, dataset_id=f"bench/table-separators-{n}", version=1, benchmark="table-separators",
                   title=f"table-separators grown to {n} cases (benchmarks/run_memory.py)", license=manifest.get("license"))


def run(work: Path, run_id: str, offset: int, *extra: str) -> dict[str, Any]:
    command = [str(Path(sys.executable).parent / "envirobench"), "run", "--adapter", str(work / "noop"), "--run", run_id,
               "--model", "noop/separators", "--benchmark", "table-separators", "--dataset", f"table-separators={work / 'dataset'}",
               "--budget", "0", "--sandbox", "none", "--results", str(work / "results"), "--adapter-option", f"offset={offset}", *extra]
    out = _measured.measure(__file__, command, what=run_id)
    run_dir = work / "results" / run_id
    out["files_mb"] = {p.name: round(p.stat().st_size / 1e6, 1) for p in sorted(run_dir.iterdir()) if p.is_file()}
    out["run_dir_mb"] = round(sum(p.stat().st_size for p in run_dir.rglob("*") if p.is_file()) / 1e6, 1)
    return out


def rescore(work: Path) -> dict[str, Any]:
    """`envirobench score --run` of the candidate (its pairing kept), measured; with the SHA-256 of
    the files it wrote, which must be the same every time and on every checkout."""
    run_dir = work / "results" / "candidate"
    out = _measured.measure(__file__, [str(Path(sys.executable).parent / "envirobench"), "score", "--run", str(run_dir)], what="rescore")
    digest = hashlib.sha256()
    for name in ("metrics.json", "comparison.json", "report.html", "summary.md", "review-brief.json"):
        digest.update((run_dir / name).read_bytes())
    out["files_mb"] = {p.name: round(p.stat().st_size / 1e6, 1) for p in sorted(run_dir.iterdir()) if p.is_file()}
    out["run_dir_mb"] = round(sum(p.stat().st_size for p in run_dir.rglob("*") if p.is_file()) / 1e6, 1)
    out["outputs_sha256"] = digest.hexdigest()
    return out


def steps(work: Path) -> dict[str, Any]:
    """RSS after each step of reading what a paired run holds to its end (see the docstring)."""
    import time

    from envirobench import datasets, plugins
    from envirobench.compared import load_compared_run

    def rss() -> int:
        fields = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
        return int(fields["VmRSS"].split()[0]) // 1024

    out = {"after imports (MiB)": rss()}
    registry = plugins.build_registry()
    btype = registry.benchmark_type("table-separators")
    contents = datasets.load_contents(str(work / "dataset"), registry)
    out["after the dataset (MiB)"] = rss()
    source = str((work / "dataset").resolve())
    baseline = load_compared_run(work / "results" / "baseline", "baseline", btype, contents.dataset, contents.cases, contents.answers, source)
    out["after the baseline (MiB)"] = rss()
    load_compared_run(work / "results" / "control", "control-1", btype, contents.dataset, contents.cases, contents.answers, source, like=baseline)
    out["after the control (MiB)"] = rss()
    ids = list(contents.cases)[:20_000]
    for name, values in (("answer", contents.answers), ("baseline prediction", baseline.predictions)):
        start = time.process_time()
        for cid in ids:
            values[cid]
        out[f"a look-up of an {name} (µs)" if name == "answer" else f"a look-up of a {name} (µs)"] = round((time.process_time() - start) / len(ids) * 1e6, 1)
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--measure"]:
        return _measured.measured_child(argv[1:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--workdir", type=Path, help="work here (default: a temporary directory, removed)")
    parser.add_argument("--rescore", type=int, default=0, metavar="N", help="then rescore the candidate N times")
    parser.add_argument("--steps", action="store_true", help="RSS after each step of reading the dataset and compared runs (needs --workdir's runs)")
    args = parser.parse_args(argv)
    if args.steps:
        if args.workdir is None:
            parser.error("--steps needs --workdir with the runs of an earlier call")
        for name, value in steps(args.workdir).items():
            print(f"{name}: {value}")
        return 0
    work = args.workdir or Path(tempfile.mkdtemp(prefix="eb-memory-"))
    results: dict[str, Any] = {}
    try:
        if not (work / "results" / "candidate" / "run.json").is_file():
            grow_dataset(work / "dataset", args.cases)
            write_stub_adapter(work, "noop-separators",
                               "No-op table-separators system: every separator OFFSET pixels off; none on every seventh case.", ANSWER)
            results = {
                "baseline (unpaired)": run(work, "baseline", 2),
                "control (unpaired)": run(work, "control", 3),
                "candidate (paired with both)": run(work, "candidate", 1, "--baseline-run", str(work / "results" / "baseline"),
                                                    "--control-run", str(work / "results" / "control")),
            }
        for n in range(1, args.rescore + 1):
            results[f"candidate rescored ({n})"] = rescore(work)
    finally:
        if args.workdir is None:
            shutil.rmtree(work, ignore_errors=True)
    for name, r in results.items():
        if "outputs_sha256" in r:
            print(f"{name}: outputs {r['outputs_sha256'][:16]}")
    print(f"table-separators, {args.cases:,} cases; {os.cpu_count()} CPU, Python {platform.python_version()}, 1-min load average {os.getloadavg()[0]:.1f}")
    print("| run | peak RSS | CPU | wall | run directory | metrics.json | comparison.json | report.html |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, r in results.items():
        f = r["files_mb"]
        print(f"| {name} | {r['peak_mib']:.0f} MiB | {r['cpu_s']:.1f} s | {r['wall_s']:.1f} s | {r['run_dir_mb']} MB | "
              f"{f.get('metrics.json', 0)} MB | {f.get('comparison.json', 0)} MB | {f.get('report.html', 0)} MB |")
    if args.json:
        Path(args.json).write_text(json.dumps({"cases": args.cases, "results": results}, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
