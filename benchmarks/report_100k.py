"""report.html for a large paired run: its size, the time to write it, and the time until it is
interactive in headless Chromium.

    .venv/bin/python benchmarks/report_100k.py [--cases 100000] [--type table-separators|count-words|both]
        [--images distinct|shared] [--repeat 3] [--json out.json] [--keep DIR]

For each type the script builds, in memory and with core's own functions, a candidate paired with
a baseline and one control: cases, answers and predictions are generated (seeded), scored with
the type's `score_case`, paired and gated (`runs.pair_and_gate`), and turned into metrics.json and
comparison.json data (`outputs.build_metrics`, `outputs.build_comparison`). What is timed is
`report.write_report`: copying the case images into report-assets/, building the embedded data
and rendering report.html, exactly what `write_outputs` calls in a run; then its two halves
apart (images: `case_assets` + `copy_assets` into an empty report-assets/; page: `build_page` +
`render_report` + writing the file without fsync). Each timing starts after os.sync(), so writes
made before it (the generated dataset, the previous report) are not flushed on its clock.

- count-words: core's test type (`envirobench.testing.CountWords`), the same as
  benchmarks/core_overhead.py; tiny inputs and predictions, no images.
- table-separators: the real type from envirobench-extract, with answers shaped like the
  synthetic dataset's (8-16 rows and 3-8 columns with their content bands) and one PNG per case
  (`--images distinct`, the default) or 200 PNGs shared by all cases (`--images shared`).
  The candidate is off by a pixel or two here and there, misses or adds a separator on a few
  per cent of cases; the baseline does likewise with other seeds; the control repeats the
  baseline and disagrees with it on 1 % of cases.

Then headless Chromium (Debian's /usr/bin/chromium, through Playwright, flags as in the browser
tests) opens the report from file:// with every non-file request aborted, and the script reads:
  ready      performance.now() when the page's script has rendered the first page of rows and
             attached its controls (the case list works from here)
  parsed     DOMContentLoaded end: the whole file, including every case's data block, is parsed
  filter     time to apply a bucket filter (select "worse") and render its first page
  open case  time to open the first case of the list (parses its block, renders the viewer)
  heap       JS heap in use after loading (performance.memory)
Time to interactive = max(ready, parsed): from then on every control and every case answers.

Results are measured, never asserted: see docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import struct
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

os.environ.setdefault("ENVIROBENCH_LOAD_PLUGINS", "")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


# -- generated runs ---------------------------------------------------------------------------


def _png(width: int, height: int, seed: int) -> bytes:
    """A small grayscale PNG (a few hundred bytes): white with a few dark lines."""
    rng = random.Random(seed)
    lines = {rng.randrange(height) for _ in range(6)}
    raw = bytearray()
    for y in range(height):
        raw.append(0)
        raw += bytes([0] * width) if y in lines else bytes([255] * width)
    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b""))


def _bands(rng: random.Random, count: int, start: int, size: int) -> tuple[list[dict[str, int]], list[int]]:
    bands, seps, pos = [], [], start
    for i in range(count):
        end = pos + rng.randint(size // 2, size)
        bands.append({"start": pos, "end": end})
        gap = rng.randint(6, 14)
        if i < count - 1:
            seps.append(end + gap // 2)
        pos = end + gap
    return bands, seps


def _jitter(rng: random.Random, values: list[int], p_off: float, p_drop: float, p_add: float, limit: int) -> list[int]:
    out = [v + (rng.choice((-2, -1, 1, 2)) if rng.random() < p_off else 0) for v in values]
    if out and rng.random() < p_drop:
        out.pop(rng.randrange(len(out)))
    if rng.random() < p_add:
        out.append(rng.randrange(limit))
    return sorted(out)


def separators_run(n: int, work: Path, images: str) -> dict[str, Any]:
    from envirobench import Case
    from envirobench.converter import structure
    from envirobench_extract.table_separators import Answer, Input, Prediction, TableSeparators

    btype = TableSeparators()
    root = work / "dataset"
    (root / "assets").mkdir(parents=True)
    distinct = n if images == "distinct" else min(n, 200)
    for k in range(distinct):
        (root / "assets" / f"table-{k:06d}.png").write_bytes(_png(96, 64, k))
    rng = random.Random(20260101)
    cases, answers, preds = {}, {}, {"candidate": {}, "baseline": {}, "control-1": {}}
    categories = ("lab-results", "field-log", "invoice", "chain-of-custody", "qc-summary")
    for i in range(n):
        cid = f"ts-{i:06d}"
        row_bands, rows = _bands(rng, rng.randint(8, 16), 20, 40)
        col_bands, cols = _bands(rng, rng.randint(3, 8), 15, 160)
        width, height = col_bands[-1]["end"] + 20, row_bands[-1]["end"] + 20
        image = f"assets/table-{i % distinct:06d}.png"
        cases[cid] = Case(cid, categories[i % len(categories)], structure({"image": image, "width": width, "height": height}, Input))
        answers[cid] = structure({"rows": rows, "columns": cols, "row_bands": row_bands, "column_bands": col_bands}, Answer)
        cand = {"rows": _jitter(rng, rows, 0.05, 0.03, 0.02, height), "columns": _jitter(rng, cols, 0.05, 0.03, 0.02, width)}
        base = {"rows": _jitter(rng, rows, 0.05, 0.04, 0.02, height), "columns": _jitter(rng, cols, 0.05, 0.04, 0.02, width)}
        ctl = base if rng.random() > 0.01 else {"rows": _jitter(rng, rows, 0.3, 0.3, 0.3, height), "columns": base["columns"]}
        for label, value in (("candidate", cand), ("baseline", base), ("control-1", ctl)):
            preds[label][cid] = structure(value, Prediction)
    return {"btype": btype, "root": root, "cases": cases, "answers": answers, "predictions": preds}


def count_words_run(n: int, work: Path) -> dict[str, Any]:
    from envirobench import Case
    from envirobench.testing import CountAnswer, CountInput, CountPrediction, CountWords

    root = work / "dataset"
    root.mkdir(parents=True)
    cases, answers, preds = {}, {}, {"candidate": {}, "baseline": {}, "control-1": {}}
    offsets = {"candidate": [(100, 3, 1), (500, 7, -2), (40, 1, 1), (1000, 21, 2)], "baseline": [(50, 3, 1), (500, 7, -2)],
               "control-1": [(50, 3, 1), (500, 7, -2), (300, 11, 1)]}
    for i in range(n):
        cid = f"c{i:06d}"
        text = " ".join(["word"] * (1 + i % 7))
        cases[cid] = Case(cid, ("short", "long")[i % 2], CountInput(text))
        answers[cid] = CountAnswer(1 + i % 7)
        for label, rules in offsets.items():
            preds[label][cid] = CountPrediction(1 + i % 7 + sum(d for m, r, d in rules if i % m == r))
    return {"btype": CountWords(), "root": root, "cases": cases, "answers": answers, "predictions": preds}


def assemble(run: dict[str, Any]) -> dict[str, Any]:
    """Score, pair and gate; the record, metrics and comparison a real run would have."""
    from envirobench.compared import ComparedRun
    from envirobench.outputs import build_comparison, build_metrics
    from envirobench.pairing import pair_and_gate
    from envirobench.rundir import (
        AdapterRecord,
        BenchmarkInfo,
        CaseCounts,
        CoreInfo,
        PluginRef,
        RunDataset,
        RunRecord,
    )
    from envirobench.runs import pairing_record
    from envirobench.scoring import score_run

    btype, cases, answers, preds = run["btype"], run["cases"], run["answers"], run["predictions"]
    scores = {label: score_run(btype, cases, answers, p) for label, p in preds.items()}
    baseline = ComparedRun("baseline", "bench-baseline", Path("/bench/baseline"), preds["baseline"], scores["baseline"])
    controls = [ComparedRun("control-1", "bench-control", Path("/bench/control"), preds["control-1"], scores["control-1"])]
    gate = pair_and_gate(btype, list(cases), scores["candidate"], baseline.scores, [c.scores for c in controls], (btype.PROFILES[0],), ())
    record = RunRecord(
        format="envirobench.run.v1", run_id="bench-candidate", status="completed", failure=None,
        created_at="2026-01-01T00:00:00+00:00", finished_at="2026-01-01T00:00:00+00:00", core=CoreInfo("bench"),
        benchmark=BenchmarkInfo(btype.ID, btype.LABEL, btype.FORMAT, btype.SCORING_VERSION, btype.TIER, tuple(btype.PROFILES),
                                tuple(btype.HEADLINE), (), btype.VIEWER, PluginRef("bench", "bench", "1")),
        dataset=RunDataset(f"bench/{btype.ID}", 1, "sha256:0", "sha256:1", "sha256:2", str(run["root"])),
        adapter=AdapterRecord("bench", ("bench",), "bench", "1"), model="bench/model", options={}, budget_usd=0.0, cost_usd=0.0,
        systems=(), wall_time_s=0.0, adapter_wall_time_s=0.0, cases=CaseCounts(len(cases), len(cases), 0),
        pairing=pairing_record(baseline, controls), gate=gate.record(), require_no_regressions=False,
    )
    metrics = build_metrics(record, btype, cases, scores["candidate"], baseline, controls, gate)
    comparison = build_comparison(record, cases, answers, preds["candidate"], baseline, controls)
    return {"record": record, "metrics": metrics, "comparison": comparison}


def time_write(run: dict[str, Any], parts: dict[str, Any], out_dir: Path) -> dict[str, float]:
    """write_report into a fresh directory, timed whole; then its two halves timed apart."""
    from envirobench.jsonio import gc_paused
    from envirobench.plugins import build_registry
    from envirobench.report import build_page, render_report, report_viewers, write_report
    from envirobench.report_assets import case_assets, copy_assets

    registry = build_registry()
    btype = run["btype"]
    if out_dir.exists():
        shutil.rmtree(out_dir)
    out_dir.mkdir(parents=True)
    os.sync()  # earlier writes (the generated dataset, the last report) must not be flushed on our clock
    started = time.perf_counter()
    write_report(out_dir, parts["record"], btype, run["root"], run["cases"], parts["metrics"], parts["comparison"], registry)
    total = time.perf_counter() - started
    shutil.rmtree(out_dir / "report-assets", ignore_errors=True)
    os.sync()
    started = time.perf_counter()
    assets = case_assets(btype, run["cases"])
    copy_assets(out_dir, run["root"], [p for paths in assets.values() for p in paths])
    images = time.perf_counter() - started
    started = time.perf_counter()
    with gc_paused():  # as write_report does
        page = build_page(parts["record"], parts["metrics"], parts["comparison"], viewer_name=btype.VIEWER, assets=assets)
        html = render_report(page, report_viewers(registry, btype.VIEWER))
    (out_dir / "report-copy.html").write_text(html, encoding="utf-8")
    page_s = time.perf_counter() - started
    (out_dir / "report-copy.html").unlink()
    return {"total": total, "images": images, "html": page_s}


# -- the browser side --------------------------------------------------------------------------


def measure_browser(report: Path) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        refused: list[str] = []

        def route(r):
            if r.request.url.startswith("file:"):
                r.continue_()
            else:
                refused.append(r.request.url)
                r.abort()

        context.route("**/*", route)
        page = context.new_page()
        started = time.perf_counter()
        page.goto(report.resolve().as_uri(), wait_until="domcontentloaded", timeout=120000)
        page.wait_for_function("() => document.body.dataset.ready === '1'", timeout=120000)
        wall = time.perf_counter() - started
        nav = page.evaluate("() => { const n = performance.getEntriesByType('navigation')[0]; return {ready: window.EnviroBench.readyAt, parsed: n.domContentLoadedEventEnd, load: n.loadEventEnd}; }")
        t0 = page.evaluate("() => performance.now()")
        page.select_option("#eb-bucket", "worse")
        filter_ms = page.evaluate("() => performance.now()") - t0
        t0 = page.evaluate("() => performance.now()")
        page.evaluate("() => { const d = document.querySelector('#eb-list details.eb-case'); d.open = true; }")
        page.wait_for_function("() => document.querySelector('#eb-list details.eb-case .eb-viewer') !== null")
        open_ms = page.evaluate("() => performance.now()") - t0
        heap = page.evaluate("() => performance.memory ? performance.memory.usedJSHeapSize : null")
        rows = page.evaluate("() => document.querySelectorAll('#eb-list details.eb-case').length")
        browser.close()
    return {"ready_ms": nav["ready"], "parsed_ms": nav["parsed"], "tti_ms": max(nav["ready"], nav["parsed"]),
            "wall_to_ready_s": wall, "filter_ms": filter_ms, "open_case_ms": open_ms, "heap_mb": heap / 1e6 if heap else None,
            "rows_after_filter": rows, "non_file_requests": refused}


# -- main ------------------------------------------------------------------------------------------


def main() -> int:
    from envirobench import rundir_text

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--type", choices=("table-separators", "count-words", "both"), default="both")
    parser.add_argument("--images", choices=("distinct", "shared"), default="distinct")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path, help="Write the results here as JSON.")
    parser.add_argument("--keep", type=Path, help="Keep the reports in this directory.")
    args = parser.parse_args()

    types_ = ("table-separators", "count-words") if args.type == "both" else (args.type,)
    results = []
    for type_id in types_:
        work = Path(tempfile.mkdtemp(prefix=f"report-bench-{type_id}-"))
        try:
            t0 = time.perf_counter()
            run = separators_run(args.cases, work, args.images) if type_id == "table-separators" else count_words_run(args.cases, work)
            parts = assemble(run)
            setup = time.perf_counter() - t0
            out_dir = (args.keep or work) / f"{type_id}-run"
            timings = [time_write(run, parts, out_dir) for _ in range(max(1, args.repeat))]
            writes = [t["total"] for t in timings]
            report = out_dir / "report.html"
            browser = [measure_browser(report) for _ in range(max(1, args.repeat))]
            assets = sum(1 for p in (out_dir / "report-assets").rglob("*") if p.is_file()) if (out_dir / "report-assets").exists() else 0
            row = {
                "type": type_id, "cases": args.cases, "images": args.images if type_id == "table-separators" else "none",
                "report_bytes": report.stat().st_size, "report_mb": report.stat().st_size / 1e6,
                "comparison_json_mb": sum(len(piece.encode()) for piece in rundir_text.comparison_text(parts["comparison"])) / 1e6,
                "asset_files": assets, "setup_s": setup,
                "write_s": writes, "write_s_median": statistics.median(writes),
                "images_s_median": statistics.median(t["images"] for t in timings),
                "html_s_median": statistics.median(t["html"] for t in timings),
                "browser": browser,
                "tti_ms_median": statistics.median(b["tti_ms"] for b in browser),
                "ready_ms_median": statistics.median(b["ready_ms"] for b in browser),
                "parsed_ms_median": statistics.median(b["parsed_ms"] for b in browser),
                "filter_ms_median": statistics.median(b["filter_ms"] for b in browser),
                "open_case_ms_median": statistics.median(b["open_case_ms"] for b in browser),
            }
            results.append(row)
            print(f"{type_id}: {args.cases} cases, report.html {row['report_mb']:.1f} MB (comparison.json {row['comparison_json_mb']:.1f} MB), "
                  f"{assets} asset file(s); write {row['write_s_median']:.2f} s (median of {len(writes)}; "
                  f"images {row['images_s_median']:.2f} s, page {row['html_s_median']:.2f} s); "
                  f"ready {row['ready_ms_median']:.0f} ms, parsed {row['parsed_ms_median']:.0f} ms, "
                  f"interactive {row['tti_ms_median']:.0f} ms; filter {row['filter_ms_median']:.0f} ms, open case {row['open_case_ms_median']:.0f} ms; "
                  f"heap {browser[0]['heap_mb'] or 0:.0f} MB; non-file requests: {sum(len(b['non_file_requests']) for b in browser)}", flush=True)
        finally:
            if not args.keep:
                shutil.rmtree(work, ignore_errors=True)
    env = {"python": platform.python_version(), "machine": platform.machine(), "cpus": os.cpu_count(), "platform": platform.platform()}
    if args.json:
        args.json.write_text(json.dumps({"environment": env, "results": results}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
