"""OCR once per page, ever (issue 38, point 4): the Site board made cold and then one type again
warm, with the reference adapter's OCR page cache (envirobench_reference_adapter/ocr_cache.py).

    nice -n 19 .venv/bin/python benchmarks/site_ocr_cache.py --results DIR            # the board
    nice -n 19 .venv/bin/python benchmarks/site_ocr_cache.py --results DIR --split dev --case dev-auto-repair \\
        --types site-timeline --uncached                                              # the check

Each run is one `envirobench run --adapter reference --adapter-cache CACHE` of a Site type on the
split's public dataset (`envirobench/<type>-synthetic-<split>-v1`, every site or the `--case`
sites), in the default sandbox, budget 0, measured from outside (`_measured`: wall time and the CPU
seconds of every process the run waited for: core, the adapter and its OCR workers), with
/proc/loadavg read before and after (the machine is shared: CPU seconds are the number that does
not depend on the load).

1. cold: a new, empty cache directory (`--cache`, else one under RESULTS); every type of
   `--types` (the four Site types) in turn, as a board is made: the first reads every scan by OCR
   and keeps its words, the others read them from the cache.
2. warm: the adapter kit's case entries are removed from the cache (its OCR entries kept), and
   `--warm-type` (default: the first of `--types`) is run again: a rerun whose solver works on
   every site again (after a change to it, say) but OCRs no page. Without removing them, the
   kit would return its whole cached prediction (`warm (case cache)`, reported too).
3. checks: the warm run's predictions.json is byte for byte the cold run's of its type, and with
   `--uncached` also that of a first run of the type made with no cache at all (or of such a run
   made before, `--compare RUN_DIR`); metrics.json's scores are then identical (checked as well).
   Any difference exits with status 1.

Output: a Markdown table (run, wall, CPU, load before/after, cache entries) and one JSON line
with every number, the aims (cold board <= 15 min, warm rerun of one type <= 60 s) checked.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from _measured import measure, measured_child  # noqa: E402

ENVIROBENCH = str(Path(sys.executable).with_name("envirobench"))
SITE_TYPES = ("site-results", "exceedance-summary", "recognized-conditions", "site-timeline")
DATASET = "envirobench/{benchmark}-synthetic-{split}-v1"
ADAPTER_NAME = "envirobench-reference-adapter"  # the cache's folder (the kit's case entries, ocr/)
COLD_AIM_S = 15 * 60
WARM_AIM_S = 60


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def run(benchmark: str, run_id: str, args: argparse.Namespace, cache: Path | None) -> dict:
    """One measured `envirobench run`; its numbers and run directory."""
    command = [
        ENVIROBENCH, "run", "--adapter", "reference", "--run", run_id, "--model", "reference/model-free",
        "--benchmark", benchmark, "--dataset", f"{benchmark}={DATASET.format(benchmark=benchmark, split=args.split)}",
        "--budget", "0", "--results", str(args.results), "--timeout", "7200",
        *[f"--case={case}" for case in args.case], *(["--adapter-cache", str(cache)] if cache is not None else []),
    ]  # fmt: skip
    before = loadavg()
    numbers = measure(__file__, command, what=f"{run_id} ({benchmark})", cwd=ROOT)
    row = {"run": run_id, "type": benchmark, "wall_s": round(numbers["wall_s"], 1), "cpu_s": round(numbers["cpu_s"], 1),
           "peak_mib": round(numbers["peak_mib"]), "load_before": before, "load_after": loadavg(),
           "ocr_entries": ocr_entries(cache), "dir": str(args.results / run_id)}
    print(json.dumps(row), file=sys.stderr, flush=True)
    return row


def ocr_entries(cache: Path | None) -> int | None:
    return None if cache is None else len(list((cache / ADAPTER_NAME / "ocr").rglob("*.json")))


def drop_case_entries(cache: Path) -> int:
    """Remove the adapter kit's case entries (the 2-hex folders beside ocr/): a rerun then solves
    every case again, reading its scans from the OCR entries, which stay."""
    dropped = 0
    for folder in (cache / ADAPTER_NAME).iterdir():
        if folder.name != "ocr" and folder.is_dir():
            dropped += len(list(folder.glob("*.json")))
            shutil.rmtree(folder)
    return dropped


def same_outputs(a: dict, b: dict) -> list[str]:
    """What differs between two runs' predictions (bytes) and scores (metrics.json: profiles and cases)."""
    differences = []
    pa, pb = Path(a["dir"]) / "adapter" / "predictions.json", Path(b["dir"]) / "adapter" / "predictions.json"
    if pa.read_bytes() != pb.read_bytes():
        differences.append(f"predictions.json of {a['run']} and {b['run']} differ")
    ma, mb = (json.loads((Path(r["dir"]) / "metrics.json").read_text(encoding="utf-8")) for r in (a, b))
    for key in ("profiles", "cases"):
        if ma.get(key) != mb.get(key):
            differences.append(f"metrics.json {key} of {a['run']} and {b['run']} differ")
    return differences


def table(rows: list[dict]) -> str:
    lines = ["| run | type | wall | CPU s | peak MiB | load before | load after | OCR entries |", "|---|---|---:|---:|---:|---|---|---:|"]
    for r in rows:
        minutes = f"{int(r['wall_s'] // 60)} min {r['wall_s'] % 60:04.1f} s" if r["wall_s"] >= 60 else f"{r['wall_s']:.1f} s"
        lines.append(f"| {r['phase']} | {r['type']} | {minutes} | {r['cpu_s']:.1f} | {r['peak_mib']} | {r['load_before']} | {r['load_after']} "
                     f"| {'' if r['ocr_entries'] is None else r['ocr_entries']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--measure"]:
        return measured_child(argv[1:])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", type=Path, required=True, help="results directory (the runs are kept there)")
    parser.add_argument("--split", default="test", choices=("dev", "test"))
    parser.add_argument("--case", action="append", default=[], metavar="ID", help="only this site (repeatable): a partial run")
    parser.add_argument("--types", nargs="+", default=list(SITE_TYPES), choices=SITE_TYPES)
    parser.add_argument("--warm-type", choices=SITE_TYPES, help="the type rerun warm (default: the first of --types)")
    parser.add_argument("--cache", type=Path, help="the adapter cache directory (emptied first; default RESULTS/../ocr-bench-cache-STAMP)")
    parser.add_argument("--uncached", action="store_true", help="first run --warm-type with no cache at all, and compare")
    parser.add_argument("--compare", type=Path, metavar="RUN_DIR", help="a run of --warm-type made without a cache (already made): compare")
    args = parser.parse_args(argv)
    args.results = args.results.resolve()
    warm_type = args.warm_type or args.types[0]
    stamp = time.strftime("%Y%m%d-%H%M%S")
    # Beside the results, never inside them: core refuses a cache that holds or lies inside them.
    cache = (args.cache or args.results.parent / f"ocr-bench-cache-{stamp}").resolve()
    if cache.exists():
        shutil.rmtree(cache)
    rows: list[dict] = []
    uncached = None
    if args.uncached:
        uncached = run(warm_type, f"ocr-uncached-{warm_type}-{stamp}", args, None) | {"phase": "uncached"}
        rows.append(uncached)
    cold_started = time.monotonic()
    cold = {}
    for benchmark in args.types:
        cold[benchmark] = run(benchmark, f"ocr-cold-{benchmark}-{stamp}", args, cache) | {"phase": "cold"}
        rows.append(cold[benchmark])
    cold_wall = time.monotonic() - cold_started
    dropped = drop_case_entries(cache)
    warm = run(warm_type, f"ocr-warm-{warm_type}-{stamp}", args, cache) | {"phase": "warm (OCR cache)"}
    rows.append(warm)
    case_cached = run(warm_type, f"ocr-warm-cases-{warm_type}-{stamp}", args, cache) | {"phase": "warm (case cache)"}
    rows.append(case_cached)
    differences = same_outputs(cold[warm_type], warm) + same_outputs(cold[warm_type], case_cached)
    if args.compare is not None:
        uncached = {"run": args.compare.name, "dir": str(args.compare.resolve())}
    if uncached is not None:
        differences += same_outputs(uncached, cold[warm_type]) + same_outputs(uncached, warm)
    print(table(rows))
    cold_cpu = sum(r["cpu_s"] for r in cold.values())
    print(f"\ncold board ({len(args.types)} types, {args.split}{' ' + ','.join(args.case) if args.case else ''}): "
          f"{cold_wall / 60:.1f} min wall, {cold_cpu:.0f} s CPU; warm rerun of {warm_type}: {warm['wall_s']:.1f} s wall, "
          f"{warm['cpu_s']:.1f} s CPU ({dropped} case entries dropped first); predictions and scores identical: {not differences}")
    summary = {"cold_wall_s": round(cold_wall, 1), "cold_cpu_s": round(cold_cpu, 1), "warm_wall_s": warm["wall_s"], "warm_cpu_s": warm["cpu_s"],
               "cold_aim_met": cold_wall <= COLD_AIM_S, "warm_aim_met": warm["wall_s"] <= WARM_AIM_S, "identical": not differences,
               "differences": differences, "cache": str(cache), "rows": rows}
    print(json.dumps(summary))
    return 1 if differences else 0


if __name__ == "__main__":
    raise SystemExit(main())
