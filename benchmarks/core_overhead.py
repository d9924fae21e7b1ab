"""Core overhead of one run, per stage, on generated count-words datasets.

    .venv/bin/python benchmarks/core_overhead.py --cases 10000 100000 [--repeat 3] [--json out.json]
        [--detail] [--tracemalloc] [--profile DIR] [--workdir DIR] [--keep]

For each size the script writes a count-words dataset (`envirobench.testing.write_count_dataset`)
into a temporary directory and makes, with a trivial adapter (a tiny Python script that echoes the
correct word counts, plus deliberate off-by-one and off-by-two differences chosen per run), a
baseline, two controls and a candidate paired with all three and gated in both profiles. The
candidate run is measured; the others are set-up.

Measurement goes through the real `envirobench.runs.execute_run`: the stage functions it calls are
module globals looked up at call time, so they are wrapped with timers by monkeypatching inside
this script (core is not modified). Nested calls (`load_compared_run` reading, checking and
scoring a saved run) count towards the outermost stage. Stages:

  dataset load   datasets.load_contents (manifest, SHA-256 of every file, full validation; it keeps
                 the structured cases and answers) or, in older cores, datasets.load + Dataset.cases
                 + Dataset.answers
  view building  build_request + unstructure(request) + serialising it + writing request.json and
                 adapter-request.json
  result checks  read_adapter_result + check_result + load_predictions
  scoring        score_run (candidate only)
  pairing        load_compared_run for the baseline and both controls (read, check, rescore their
                 saved predictions) + pair_and_gate
  writing        build_metrics + write_outputs (metrics.json, review-brief.json, summary.md) + build_comparison and
                 write_comparison (comparison.json) + write_report (report.html) + every run.json write
  adapter output copying adapter/ into the run directory, removing the adapter workspace
  unattributed   everything else inside execute (record assembly, staging directory, publish)

Core overhead = execute wall time - adapter wall time (run_adapter: the adapter process's
lifetime). Each candidate run happens in a fresh subprocess, so peak RSS (getrusage ru_maxrss,
RUSAGE_SELF: the adapter child is excluded) is per size; "RSS before the run" is the high-water
mark after imports and the registry, before execute starts. Also reported: the core process's
CPU time (robust when other jobs share the machine, which inflates wall times), time spent in
cyclic-GC pauses (gc.callbacks) and the 1-minute load average.
The fast library's floor, measured in the same child after the run on the same bytes: orjson
parsing every JSON file the candidate run reads (the dataset's cases.jsonl and answers.jsonl line
by line and its manifest; for the candidate and each compared run, adapter-result.json and
predictions.json, and each compared run's run.json, plus its metrics.json when the type reuses
saved scores) and encoding, keys sorted, every JSON document it writes (metrics.json,
comparison.json, adapter-request.json, review-brief.json, run.json; read back untimed first), with
the cyclic collector paused: CPU seconds. The table shows it beside core's CPU time and their
ratio (issue 38: core within 3× of the floor).
With --tracemalloc a separate candidate pass reports the Python heap peak and, with --detail,
the heap after each top-level call (its timings are not used: tracemalloc slows
allocation-heavy code several times). With --profile DIR a separate pass runs execute under
cProfile and writes DIR/candidate-<n>.prof plus the top 40 functions by own and cumulative time.

Results are measured, never asserted: see docs/performance.md for the recorded numbers.
"""

from __future__ import annotations

import argparse
import functools
import gc
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# Rows of the table, in the order execute_run() reaches them.
STAGES = (
    ("dataset", "dataset load & validation"),
    ("view", "view building"),
    ("checks", "result checks"),
    ("scoring", "scoring"),
    ("pairing", "pairing (baseline + 2 controls)"),
    ("writing", "writing"),
    ("adapter_output", "adapter output copy & cleanup"),
    ("unattributed", "unattributed"),
)

# Off-by-N rules per run: (modulus, remainder, delta) -> the prediction for case index i is
# off by `delta` when i % modulus == remainder (deltas of overlapping rules add up).
BASE_RULES = [(50, 3, 1), (500, 7, -2)]
RULES = {
    "baseline": BASE_RULES,
    # Controls repeat the baseline and disagree with it on a few cases: those become unstable.
    "control-1": BASE_RULES + [(300, 11, 1)],
    "control-2": BASE_RULES + [(400, 13, -1)],
    # The candidate fixes half of the baseline's exact errors, keeps its near errors, and makes
    # new exact (+1) and near (+2) mistakes: regressions, improvements and noise everywhere.
    "candidate": [(100, 3, 1), (500, 7, -2), (40, 1, 1), (1000, 21, 2), (300, 11, 1)],
}

ADAPTER_SOURCE = '''\
"""Trivial count-words adapter: correct counts, off by `delta` on cases matching the rules."""
import json, os, sys

def main(argv):
    request = json.load(open(argv[argv.index("--request") + 1], encoding="utf-8"))
    out = argv[argv.index("--output") + 1]
    rules = [tuple(int(x) for x in r.split(":")) for r in request["options"].get("rules", "").split(",") if r]
    preds = {}
    for case in request["cases"]:
        i = int(case["id"][1:])
        delta = sum(d for m, r, d in rules if i % m == r)
        preds[case["id"]] = {"count": len(case["input"]["text"].split()) + delta}
    with open(os.path.join(out, "predictions.json"), "w", encoding="utf-8") as fh:
        json.dump(preds, fh)
    result = {
        "id": request["benchmark"]["id"], "status": "completed", "format": request["benchmark"]["format"],
        "data": "predictions.json", "adapter": {"name": "bench-echo", "version": "1"},
        "systems": [{"role": "candidate", "model": request["model"], "cost_usd": 0.0,
                     "execution_failures": 0, "unpriced_attempts": 0}],
    }
    with open(os.path.join(out, "adapter-result.json"), "w", encoding="utf-8") as fh:
        json.dump(result, fh)
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
'''


def dataset_id(n: int) -> str:
    return f"bench/count-words-{n}"


def rules_option(name: str) -> str:
    return ",".join(f"{m}:{r}:{d}" for m, r, d in RULES[name])


# -- child side: everything below runs inside a subprocess per size -----------------------------


def _registry(work: Path, n: int):
    os.environ["ENVIROBENCH_LOAD_PLUGINS"] = ""  # only the toy type, whatever else is installed
    from envirobench import plugins
    from envirobench.testing import toy_plugin

    return plugins.build_registry(extra=[("bench", toy_plugin((dataset_id(n), work / "dataset")))])


def _spec(work: Path, n: int, run_id: str, rules: str, **kw: Any):
    from envirobench.runs import RunSpec

    return RunSpec(
        adapter=str(work / "adapter"),
        run_id=run_id,
        model="bench/echo",
        benchmark="count-words",
        dataset=dataset_id(n),
        budget_usd=1.0,
        options={"rules": rules_option(rules)},
        results_dir=work / "results",
        # The echo adapter is a wrapper beside its script in the work directory (under /tmp, which
        # the sandbox hides whole); the sandbox's start-up is adapter time, outside core overhead.
        sandbox="none",
        **kw,
    )


def child_prepare(work: Path, n: int) -> dict[str, Any]:
    """Dataset, adapter, baseline and two controls (not measured beyond their wall time)."""
    from envirobench.runs import execute_run
    from envirobench.testing import write_count_dataset

    work.mkdir(parents=True, exist_ok=True)
    adapter = work / "adapter"
    script = work / "echo_adapter.py"
    script.write_text(ADAPTER_SOURCE, encoding="utf-8")
    # Relative to the wrapper, so a copied work directory (--profile) still finds the script.
    adapter.write_text(f'#!/bin/sh\nexec {sys.executable} "$(dirname "$0")/{script.name}" "$@"\n', encoding="utf-8")
    adapter.chmod(0o755)
    t0 = time.perf_counter()
    write_count_dataset(work / "dataset", n, dataset_id=dataset_id(n))
    generated = time.perf_counter() - t0
    registry = _registry(work, n)
    runs = {}
    for name in ("baseline", "control-1", "control-2"):
        t0 = time.perf_counter()
        outcome = execute_run(_spec(work, n, name, name), registry)
        if outcome.status != "completed":
            raise SystemExit(f"{name} run failed: {outcome.message}")
        runs[name] = round(time.perf_counter() - t0, 3)
    return {"generate_s": round(generated, 3), "setup_runs_s": runs}


class StageTimer:
    """Wraps functions; records (call path, seconds) so nested calls can be told apart."""

    def __init__(self) -> None:
        self.stack: list[str] = []
        self.calls: list[tuple[tuple[str, ...], float, Any]] = []
        # Called as each top-level call, or each call directly inside write_outputs, returns.
        self.on_exit: Callable[[str], None] | None = None

    def wrap(self, name: str, fn: Callable[..., Any], *, note: Callable[..., Any] | None = None) -> Callable[..., Any]:
        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            self.stack.append(name)
            path = tuple(self.stack)
            started = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.calls.append((path, time.perf_counter() - started, note(*args, **kwargs) if note else None))
                self.stack.pop()
                if self.on_exit and (len(path) == 1 or (len(path) == 2 and path[0] == "write_outputs")):
                    self.on_exit("/".join(path))

        return timed


# Top-level calls that mark a stage; helper calls (write_json, unstructure) are attributed below.
LANDMARKS = {
    "datasets.load": "dataset",
    "datasets.load_contents": "dataset",
    "Dataset.cases": "dataset",
    "Dataset.answers": "dataset",
    "load_compared_run": "pairing",
    "build_request": "view",
    "run_adapter": "adapter",
    "read_adapter_result": "checks",
    "check_result": "checks",
    "load_predictions": "checks",
    "score_run": "scoring",
    "pair_and_gate": "pairing",
    "build_metrics": "writing",
    "write_outputs": "writing",
    "build_comparison": "writing",
    "write_comparison": "writing",
    "write_report": "writing",
    "_move_output": "adapter_output",
    "Workspace.remove": "adapter_output",
}


def instrument(timer: StageTimer) -> None:
    """Monkeypatch the module globals execute_run() looks up at call time."""
    import importlib

    from envirobench import adapters, datasets, outputs, runs

    def patch(owner: Any, attr: str, name: str, **kw: Any) -> None:
        if hasattr(owner, attr):  # core changes; wrap what this version has
            setattr(owner, attr, timer.wrap(name, getattr(owner, attr), **kw))

    for attr in ("build_request", "run_adapter", "read_adapter_result", "check_result", "load_predictions",
                 "score_run", "load_compared_run", "pair_and_gate", "build_metrics", "write_outputs", "build_comparison", "write_comparison", "write_report",
                 "_move_output", "unstructure", "request_text_of"):
        patch(runs, attr, attr)
    patch(runs, "write_json", "write_json", note=lambda path, *a, **k: Path(path).name)
    patch(runs, "write_run", "write_json", note=lambda path, *a, **k: "run.json")
    patch(runs, "atomic_write_text", "atomic_write_text", note=lambda path, *a, **k: Path(path).name)
    patch(datasets, "load", "datasets.load")
    patch(datasets, "load_dataset", "datasets.load")
    patch(datasets, "load_contents", "datasets.load_contents")
    patch(runs, "dumps", "dumps")
    patch(datasets, "validate", "validate")
    patch(datasets, "verify_files", "verify_files")
    patch(datasets.Dataset, "cases", "Dataset.cases")
    patch(datasets.Dataset, "answers", "Dataset.answers")
    patch(adapters.Workspace, "remove", "Workspace.remove")
    # Detail inside write_outputs (called a handful of times each, so the wrappers cost nothing).
    for attr in ("build_metrics", "build_comparison", "build_review_brief", "render_summary", "dumps", "atomic_write_text",
                 "write_metrics", "write_comparison", "write_review_brief"):
        patch(outputs, attr, attr)
    try:  # report.html, written by write_outputs when this core has it
        report = importlib.import_module("envirobench.report")
    except ImportError:
        report = None
    for attr in ("write_report", "case_assets", "copy_assets", "build_page", "render_report"):
        patch(report, attr, f"report.{attr}")


def attribute(calls: list[tuple[tuple[str, ...], float, Any]]) -> tuple[dict[str, float], dict[str, float]]:
    """Stage totals from top-level calls, and inclusive totals of every call path (detail)."""
    stages = {key: 0.0 for key, _ in STAGES} | {"adapter": 0.0}
    detail: dict[str, float] = {}
    current = None
    for path, seconds, note in calls:
        key = "/".join(path)
        detail[key] = detail.get(key, 0.0) + seconds
        if len(path) != 1:
            continue
        name = path[0]
        if name in LANDMARKS:
            current = LANDMARKS[name]
            stages[current] += seconds
        elif name in ("write_json", "atomic_write_text"):
            stages["writing" if note == "run.json" else "view"] += seconds
        elif name in ("dumps", "request_text_of"):  # serialising the request once, for request.json and adapter-request.json
            stages["view"] += seconds
        elif name == "unstructure":  # the request (view), the systems (checks), small record bits
            stages[current if current in ("view", "checks") else "unattributed"] += seconds
        else:
            stages["unattributed"] += seconds
    return stages, detail


class GcPauses:
    """gc.callbacks hook: time spent in the cyclic garbage collector, per generation."""

    def __init__(self, timer: StageTimer) -> None:
        self.timer = timer
        self.seconds = 0.0
        self.collections = [0, 0, 0]
        self.by_call: dict[str, float] = {}  # pauses inside each top-level wrapped call
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            pause = time.perf_counter() - self._started
            self.seconds += pause
            self.collections[info["generation"]] += 1
            where = self.timer.stack[0] if self.timer.stack else "(between calls)"
            self.by_call[where] = self.by_call.get(where, 0.0) + pause


def child_candidate(work: Path, n: int, run_id: str, mode: str) -> dict[str, Any]:
    """One candidate run, paired with the baseline and both controls, in this fresh process."""
    from envirobench.runs import execute_run

    registry = _registry(work, n)
    spec = _spec(
        work, n, run_id, "candidate",
        baseline=work / "results" / "baseline",
        controls=(work / "results" / "control-1", work / "results" / "control-2"),
        gates=("exact", "near"),
        targets=("c000000", "c000001", "c000003"),
    )
    timer = StageTimer()
    instrument(timer)
    gc_pauses = GcPauses(timer)
    gc.callbacks.append(gc_pauses)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    out: dict[str, Any] = {}
    if mode == "tracemalloc":
        import tracemalloc

        tracemalloc.start()
        timeline: list[dict[str, Any]] = []

        def memory_after(name: str) -> None:
            current, peak = tracemalloc.get_traced_memory()
            timeline.append({"call": name, "peak_mib": round(peak / 2**20, 1), "after_mib": round(current / 2**20, 1)})
            tracemalloc.reset_peak()

        timer.on_exit = memory_after
    if mode == "profile":
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        profiler.enable()
    cpu_started = time.process_time()
    started = time.perf_counter()
    outcome = execute_run(spec, registry)
    total = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    gc.callbacks.remove(gc_pauses)
    if mode == "profile":
        profiler.disable()
        prof = work.parent / f"candidate-{n}.prof"
        profiler.dump_stats(prof)
        out["profile_file"] = str(prof)
        for order in ("tottime", "cumulative"):
            text = _stats_text(pstats, profiler, order)
            (work.parent / f"candidate-{n}.{order}.txt").write_text(text, encoding="utf-8")
    if mode == "tracemalloc":
        out["tracemalloc_peak_mib"] = max(t["peak_mib"] for t in timeline)
        out["tracemalloc_timeline"] = timeline  # Python heap per top-level call: its peak, what it left
        tracemalloc.stop()
    if outcome.status != "completed":
        raise SystemExit(f"candidate run failed: {outcome.message}")
    stages, detail = attribute(timer.calls)
    overhead = total - stages["adapter"]
    stages["unattributed"] += overhead - sum(stages[k] for k, _ in STAGES)
    gate = json.loads((outcome.run_dir / "run.json").read_text(encoding="utf-8"))["gate"]
    peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # before the floor's parsing, which holds more
    floor = fast_library_floor(work, outcome.run_dir, reuses_scores=_count_words_reuses_scores())
    sizes = {p.name: p.stat().st_size for p in outcome.run_dir.iterdir() if p.is_file()}
    return {
        **out,
        "total_s": total,
        "adapter_s": stages.pop("adapter"),
        "overhead_s": overhead,
        "stages_s": stages,
        "detail_s": dict(sorted(detail.items())),
        "cpu_s": cpu,
        "load_average_1min": os.getloadavg()[0],  # other work on the machine inflates wall times
        "gc_s": gc_pauses.seconds,
        "floor_s": floor,
        "gc_collections": gc_pauses.collections,
        "gc_by_call_s": gc_pauses.by_call,
        "rss_before_mib": rss_before / 1024,
        "peak_rss_mib": peak_rss / 1024,
        "gate": {"status": gate["status"], "regressions": {p: len(v) for p, v in gate["regressions"].items()}},
        "output_bytes": sizes,
    }


def _count_words_reuses_scores() -> bool:
    from envirobench.testing import CountWords

    return bool(CountWords.REUSE_SCORES)


COMPARED = ("baseline", "control-1", "control-2")
WRITTEN = ("metrics.json", "comparison.json", "adapter-request.json", "review-brief.json", "run.json")


def fast_library_floor(work: Path, run_dir: Path, *, reuses_scores: bool) -> dict[str, float]:
    """CPU seconds orjson takes to parse what the run read and to encode what it wrote (module
    docstring), the collector paused; the bytes are read (and the written values parsed) first."""
    import orjson

    results = work / "results"
    read_whole = [work / "dataset" / "manifest.json"]
    for run in (run_dir, *(results / name for name in COMPARED)):
        read_whole += [run / "adapter" / "adapter-result.json", run / "adapter" / "predictions.json"]
    for name in COMPARED:
        read_whole += [results / name / "run.json"] + ([results / name / "metrics.json"] if reuses_scores else [])
    documents = [p.read_bytes() for p in read_whole]
    lines = [line for name in ("cases.jsonl", "answers.jsonl") for line in (work / "dataset" / name).read_bytes().splitlines()]
    written = [orjson.loads((run_dir / name).read_bytes()) for name in WRITTEN]
    enabled = gc.isenabled()
    gc.disable()
    try:
        started = time.process_time()
        for line in lines:
            orjson.loads(line)
        for data in documents:
            orjson.loads(data)
        parse = time.process_time() - started
        started = time.process_time()
        for value in written:
            orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
        encode = time.process_time() - started
    finally:
        if enabled:
            gc.enable()
    return {"parse_s": parse, "encode_s": encode, "total_s": parse + encode,
            "parsed_mb": (sum(map(len, documents)) + sum(map(len, lines))) / 1e6,
            "encoded_mb": sum((run_dir / name).stat().st_size for name in WRITTEN) / 1e6}


def _stats_text(pstats: Any, profiler: Any, order: str, limit: int = 40) -> str:
    import io

    buffer = io.StringIO()
    pstats.Stats(profiler, stream=buffer).strip_dirs().sort_stats(order).print_stats(limit)
    return buffer.getvalue()


# -- parent side -------------------------------------------------------------------------------


def run_child(*args: str) -> dict[str, Any]:
    proc = subprocess.run([sys.executable, __file__, "--child", *args], capture_output=True, text=True)
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout + proc.stderr)
        raise SystemExit(f"benchmark child {args} failed with status {proc.returncode}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def measure(root: Path, n: int, repeat: int, profile: Path | None, trace: bool) -> dict[str, Any]:
    work = root / f"n{n}"
    print(f"[{n} cases] generating the dataset, baseline and two controls ...", file=sys.stderr, flush=True)
    prep = run_child("prepare", str(work), str(n))
    samples = []
    for k in range(1, repeat + 1):
        print(f"[{n} cases] candidate run {k}/{repeat} ...", file=sys.stderr, flush=True)
        samples.append(run_child("candidate", str(work), str(n), f"candidate-{k}", "plain"))
    result: dict[str, Any] = {"cases": n, "prepare": prep, "samples": samples, "median": _median(samples)}
    if trace:
        print(f"[{n} cases] candidate run under tracemalloc ...", file=sys.stderr, flush=True)
        traced = run_child("candidate", str(work), str(n), "candidate-trace", "tracemalloc")
        result["tracemalloc_peak_mib"] = traced["tracemalloc_peak_mib"]
        result["tracemalloc_timeline"] = traced["tracemalloc_timeline"]
    if profile is not None:
        print(f"[{n} cases] candidate run under cProfile ...", file=sys.stderr, flush=True)
        profile.mkdir(parents=True, exist_ok=True)
        pwork = profile / f"n{n}"
        if pwork.exists():
            shutil.rmtree(pwork)
        shutil.copytree(work, pwork, symlinks=True, ignore=shutil.ignore_patterns("candidate-*"))
        try:
            result["profile"] = run_child("candidate", str(pwork), str(n), "candidate-profile", "profile")["profile_file"]
        finally:
            shutil.rmtree(pwork, ignore_errors=True)  # keep only the .prof and .txt files
    return result


def _median(samples: list[dict[str, Any]]) -> dict[str, Any]:
    def med(get: Callable[[dict[str, Any]], float]) -> float:
        return statistics.median(get(s) for s in samples)

    return {
        "total_s": med(lambda s: s["total_s"]),
        "adapter_s": med(lambda s: s["adapter_s"]),
        "overhead_s": med(lambda s: s["overhead_s"]),
        "overhead_range_s": [min(s["overhead_s"] for s in samples), max(s["overhead_s"] for s in samples)],
        "gc_s": med(lambda s: s["gc_s"]),
        "cpu_s": med(lambda s: s["cpu_s"]),
        "floor_s": med(lambda s: s["floor_s"]["total_s"]),
        "floor_parse_s": med(lambda s: s["floor_s"]["parse_s"]),
        "floor_encode_s": med(lambda s: s["floor_s"]["encode_s"]),
        "floor_mb": [samples[0]["floor_s"]["parsed_mb"], samples[0]["floor_s"]["encoded_mb"]],
        "cpu_over_floor": med(lambda s: s["cpu_s"] / s["floor_s"]["total_s"]),
        "load_average_1min": med(lambda s: s["load_average_1min"]),
        "gc_collections": samples[0]["gc_collections"],
        "stages_s": {k: med(lambda s, k=k: s["stages_s"][k]) for k, _ in STAGES},
        "detail_s": {k: med(lambda s, k=k: s["detail_s"].get(k, 0.0)) for k in samples[0]["detail_s"]},
        "rss_before_mib": med(lambda s: s["rss_before_mib"]),
        "peak_rss_mib": med(lambda s: s["peak_rss_mib"]),
        "gate": samples[0]["gate"],
        "output_bytes": samples[0]["output_bytes"],
    }


def machine() -> dict[str, Any]:
    mem_kib = next((int(line.split()[1]) for line in Path("/proc/meminfo").read_text().splitlines() if line.startswith("MemTotal:")), 0)
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("model name")), platform.processor())
    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "memory_gib": round(mem_kib / 2**20, 1),
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def table(results: list[dict[str, Any]]) -> str:
    head = "| stage | " + " | ".join(f"{r['cases']:,} cases" for r in results) + " |"
    rule = "| --- |" + " ---: |" * len(results)
    rows = [head, rule]

    def row(label: str, cells: list[str]) -> None:
        rows.append(f"| {label} | " + " | ".join(cells) + " |")

    for key, label in STAGES:
        row(label, [f"{r['median']['stages_s'][key]:.2f} s" for r in results])
    row("**core overhead** (total − adapter)", [f"**{r['median']['overhead_s']:.2f} s**" for r in results])
    if any(len(r["samples"]) > 1 for r in results):
        row("overhead, fastest–slowest run", [f"{r['median']['overhead_range_s'][0]:.2f}–{r['median']['overhead_range_s'][1]:.2f} s" for r in results])
    row("core CPU time (this process, user+system)", [f"{r['median']['cpu_s']:.2f} s" for r in results])
    row("fast library floor (orjson, CPU: parse what the run reads + encode what it writes)",
        [f"{r['median']['floor_s']:.2f} s ({r['median']['floor_parse_s']:.2f} + {r['median']['floor_encode_s']:.2f}; "
         f"{r['median']['floor_mb'][0]:.0f} + {r['median']['floor_mb'][1]:.0f} MB)" for r in results])
    row("**core CPU ÷ floor**", [f"**{r['median']['cpu_over_floor']:.1f}×**" for r in results])
    row("per case", [f"{r['median']['overhead_s'] / r['cases'] * 1e6:.0f} µs" for r in results])
    row("of which cyclic GC pauses (all stages)", [f"{r['median']['gc_s']:.2f} s ({sum(r['median']['gc_collections'])}, {r['median']['gc_collections'][2]} full)" for r in results])
    row("adapter (excluded)", [f"{r['median']['adapter_s']:.2f} s" for r in results])
    row("total execute", [f"{r['median']['total_s']:.2f} s" for r in results])
    row("1-min load average during the runs", [f"{r['median']['load_average_1min']:.1f}" for r in results])
    row("**peak RSS**", [f"**{r['median']['peak_rss_mib']:.0f} MiB**" for r in results])
    row("RSS before the run", [f"{r['median']['rss_before_mib']:.0f} MiB" for r in results])
    if all("tracemalloc_peak_mib" in r for r in results):
        row("tracemalloc peak (Python heap)", [f"{r['tracemalloc_peak_mib']:.0f} MiB" for r in results])
    return "\n".join(rows)


def detail_table(results: list[dict[str, Any]]) -> str:
    keys = [k for k in results[0]["median"]["detail_s"] if k != "run_adapter"]
    head = "| call path (inclusive, summed over calls) | " + " | ".join(f"{r['cases']:,}" for r in results) + " |"
    rows = [head, "| --- |" + " ---: |" * len(results)]
    for key in keys:
        rows.append(f"| `{key}` | " + " | ".join(f"{r['median']['detail_s'].get(key, 0.0):.3f}" for r in results) + " |")
    return "\n".join(rows)


def memory_table(result: dict[str, Any]) -> str:
    rows = [
        f"| top-level call ({result['cases']:,} cases, in order) | Python heap peak during | heap after |",
        "| --- | ---: | ---: |",
    ]
    for entry in result["tracemalloc_timeline"]:
        if entry["call"] not in ("unstructure", "check_result", "read_adapter_result", "run_adapter"):
            rows.append(f"| `{entry['call']}` | {entry['peak_mib']:.0f} MiB | {entry['after_mib']:.0f} MiB |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--child":
        kind, work, n = argv[1], Path(argv[2]), int(argv[3])
        data = child_prepare(work, n) if kind == "prepare" else child_candidate(work, n, argv[4], argv[5])
        print(json.dumps(data))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, nargs="+", default=[10_000, 100_000], help="dataset sizes (default 10000 100000)")
    parser.add_argument("--repeat", type=int, default=1, help="candidate runs per size, each in a fresh process; the table shows medians")
    parser.add_argument("--json", metavar="PATH", help="also write all measurements as JSON ('-' for stdout)")
    parser.add_argument("--detail", action="store_true", help="also print inclusive time per wrapped call path")
    parser.add_argument("--tracemalloc", action="store_true", help="one extra candidate pass per size under tracemalloc (Python heap peak)")
    parser.add_argument("--profile", metavar="DIR", type=Path, help="one extra candidate pass per size under cProfile; .prof and top-40 text in DIR")
    parser.add_argument("--workdir", type=Path, help="where to generate datasets and runs (default: a temporary directory, removed)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = parser.parse_args(argv)

    tmp = None
    if args.workdir:
        root = args.workdir
        root.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="envirobench-bench-")
        root = Path(tmp.name)
    try:
        results = [measure(root, n, args.repeat, args.profile, args.tracemalloc) for n in args.cases]
    finally:
        if tmp is not None:
            if args.keep:
                print(f"kept {root}", file=sys.stderr)
            else:
                tmp.cleanup()
    info = machine()
    print(f"Machine: {info['nproc']} CPU ({info['cpu']}), {info['memory_gib']} GiB RAM, Python {info['python']}, {info['platform']}")
    print(f"Median of {args.repeat} candidate run(s) per size; each paired with a baseline and two controls, gated in both profiles.\n")
    print(table(results))
    if args.detail:
        print()
        print(detail_table(results))
        if "tracemalloc_timeline" in results[-1]:
            print()
            print(memory_table(results[-1]))
    if args.json:
        payload = json.dumps({"machine": info, "command": sys.argv, "results": results}, indent=2)
        if args.json == "-":
            print(payload)
        else:
            Path(args.json).write_text(payload + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
