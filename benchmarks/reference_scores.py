"""Run the reference adapter on every Extract dataset through core and write docs/reference-scores.md.

    .venv/bin/python benchmarks/reference_scores.py [--results DIR] [--output docs/reference-scores.md]
        [--benchmark TYPE ...]

For each benchmark it makes one `envirobench run --adapter reference` on the shipped synthetic
dataset (no baseline: the gate says "baseline required", which is expected here), then reads:

- `metrics.json`: the headline metrics of the default profile, and per case the category
  (layout) and metrics, from which the per-layout score is pooled the way the headline is
  (F1 over pooled tp/fp/fn for separators and records, cells right over cells for table-cells,
  the mean of grits_top or fields_right otherwise);
- `run.json`: the adapter's wall time for the whole run (process start, model loading, every
  case);
- `adapter/timings.json`: the adapter's own seconds per case, summed per layout and divided by
  the layout's documents and pages (a PNG crop is one page; a PDF counts its pages).

The numbers are whatever the adapter scores: nothing is tuned here. Runs take a while on CPU
(OCR: about 15 minutes for all six); `--benchmark` limits the set, the summaries of benchmarks not
rerun are kept (`--summaries FILE`), and `--no-run` only rewrites the table from them.

`--legal` instead (re)writes only the Legal section of the page (between its markers, the rest
untouched): the reference adapter on the dev and the test split of instrument-execution, beside
blind baselines (one status for every instrument), each with its bootstrap 95 % interval as
core computes it for metrics.json, and the reference's status accuracy per scenario and copy.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATASETS_DIR = ROOT / "envirobench-extract" / "src" / "envirobench_extract" / "benchmarks"
BENCHMARKS = ("table-separators", "table-structure", "table-cells", "table-records", "report-metadata", "document-extraction")
MODEL = "reference/text-layer-ocr"
# The per-case quantity that the per-layout column reports, per benchmark: ("f1", None) pools
# tp/fp/fn; ("ratio", (num, den)) pools a share; ("mean", name) averages a per-case metric.
PER_LAYOUT = {
    "table-separators": ("f1", None, "separator F1"),
    "table-structure": ("mean", "grits_top", "GriTS_Top"),
    "table-cells": ("ratio", ("right", "cells"), "cells right"),
    "table-records": ("f1", None, "record F1"),
    "report-metadata": ("mean", "fields_right", "fields right"),
    "document-extraction": ("f1", None, "record F1"),
}


def page_count(path: Path) -> int:
    if path.suffix.lower() != ".pdf":
        return 1
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    try:
        return len(document)
    finally:
        document.close()


def case_pages(dataset: Path) -> dict[str, int]:
    """Pages each case reads: 1 per image, every page of a PDF (a table-records PDF case reads
    its page and the pages before it, but only its page's words matter: counted as 1)."""
    pages = {}
    for line in (dataset / "cases.jsonl").read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        source = case["input"].get("image") or case["input"].get("document")
        pages[case["id"]] = 1 if case["input"].get("page") else page_count(dataset / source)
    return pages


def run_one(benchmark: str, results: Path) -> Path:
    run_id = f"reference-{benchmark}-{time.strftime('%Y%m%d-%H%M%S')}"
    command = [
        str(Path(sys.executable).with_name("envirobench")), "run", "--adapter", "reference", "--run", run_id,
        "--model", MODEL, "--benchmark", benchmark,
        "--dataset", f"{benchmark}=envirobench/{benchmark}-synthetic-v1", "--budget", "0",
        "--results", str(results), "--timeout", "7200",
    ]
    completed = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    run_dir = results / run_id
    if not (run_dir / "metrics.json").is_file():
        raise SystemExit(f"{benchmark}: the run failed\n{completed.stdout}\n{completed.stderr}")
    return run_dir


def pooled(kind: str, spec, cases: list[dict]) -> float:
    if kind == "f1":
        tp = sum(c["tp"] for c in cases)
        fp = sum(c["fp"] for c in cases)
        fn = sum(c["fn"] for c in cases)
        return 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else 1.0
    if kind == "ratio":
        numerator, denominator = spec
        total = sum(c[denominator] for c in cases)
        return sum(c[numerator] for c in cases) / total if total else 1.0
    return sum(c[spec] for c in cases) / len(cases)


def summarise(benchmark: str, run_dir: Path) -> dict:
    metrics = json.loads((run_dir / "metrics.json").read_text(encoding="utf-8"))
    run = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    timings = json.loads((run_dir / "adapter" / "timings.json").read_text(encoding="utf-8"))
    profile = metrics["benchmark"]["profiles"][0]
    headline = metrics["profiles"][profile]["headline"]
    pages = case_pages(DATASETS_DIR / benchmark / "datasets" / "synthetic-v1")
    kind, spec, label = PER_LAYOUT[benchmark]
    by_layout: dict[str, list[str]] = defaultdict(list)
    for case_id, case in metrics["cases"].items():
        by_layout[case.get("category") or "-"].append(case_id)
    layouts = []
    for layout, ids in by_layout.items():
        per_case = [metrics["cases"][i]["runs"]["candidate"][profile]["metrics"] for i in ids]
        seconds = sum(timings.get(i, 0.0) for i in ids)
        page_total = sum(pages[i] for i in ids)
        layouts.append(
            {
                "layout": layout,
                "cases": len(ids),
                "pages": page_total,
                "score": pooled(kind, spec, per_case),
                "exact": sum(c.get("exact", 0.0) for c in per_case) / len(per_case),
                "seconds_per_document": seconds / len(ids),
                "seconds_per_page": seconds / page_total if page_total else 0.0,
            }
        )
    return {
        "benchmark": benchmark,
        "profile": profile,
        "headline": headline,
        "score_label": label,
        "cases": len(metrics["cases"]),
        "pages": sum(pages.values()),
        "adapter_wall_time_s": run["adapter_wall_time_s"],
        "solve_time_s": sum(timings.values()),
        "layouts": layouts,
    }


def render(summaries: list[dict]) -> str:
    out = [
        "# Reference adapter scores",
        "",
        "What the model-free reference adapter (`envirobench-reference-adapter`, the default variant",
        "of each solver) scores on every shipped Extract dataset, made with",
        "`python benchmarks/reference_scores.py` (which runs each through `envirobench run --adapter",
        "reference` and reads the run's `metrics.json`, `run.json` and `adapter/timings.json`).",
        "",
        "The adapter reads PDFs through their text layer (pdfplumber) and everything else, scanned",
        "pages and table crops, with RapidOCR (PP-OCRv6 small ONNX models from the `rapidocr` wheel,",
        "one CPU thread). Its scores are honest: nothing is tuned on the answer keys. It is near",
        "perfect where a text layer gives the words exactly, and below it where its methods are weak",
        "(OCR of scans, crops and sideways tables; spanning headers). Each solver's module docstring",
        "lists its weaknesses.",
        "",
        "Timing: *adapter wall time* is the whole adapter process as core measured it (start, model",
        "loading, every case). *Per document* and *per page* are the adapter's own seconds per case",
        "(`timings.json`), averaged over the layout's cases and pages; a PNG crop is one page, a PDF",
        "counts all its pages (a table-records PDF case counts the one page it asks for). Measured on",
        "2 CPU cores, no GPU.",
        "",
        "## Headline",
        "",
        "| benchmark | profile | headline metrics | cases | pages | adapter wall time (s) |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for s in summaries:
        # Per-category headline entries (`metric@layout`) are in the per-layout tables below.
        metrics = ", ".join(f"{k} {v:.3f}" for k, v in s["headline"].items() if "@" not in k)
        out.append(f"| {s['benchmark']} | {s['profile']} | {metrics} | {s['cases']} | {s['pages']} | {s['adapter_wall_time_s']:.1f} |")
    out += [
        "",
        "Notes:",
        "",
        "- table-separators is solved by its `v2` variant (image analysis, no OCR); every other",
        "  Extract type uses OCR somewhere (table-structure only to find the header rows).",
        "- report-metadata reads at most the first three pages of a report; its *per page* column",
        "  still divides by every page of the PDF.",
        "- In document-extraction's `scanned` layout only the results pages are image-only scans;",
        "  its per-page time averages them with the text-layer pages, and the per-document time is",
        "  dominated by OCR (several seconds a scanned page).",
        "- Where the adapter falls short is where its methods are weak, by design of a model-free",
        "  reference: OCR on scans and crops (a dropped qualifier letter, a misread digit or",
        "  superscript marker, a dropped space), tables printed sideways (read after turning the",
        "  crop), and spanning or multi-row headers in table-structure.",
    ]
    for s in summaries:
        out += [
            "",
            f"## {s['benchmark']}",
            "",
            f"| layout | cases | pages | {s['score_label']} | share exact | s / document | s / page |",
            "| --- | --- | --- | --- | --- | --- | --- |",
        ]
        for row in s["layouts"]:
            out.append(
                f"| {row['layout']} | {row['cases']} | {row['pages']} | {row['score']:.3f} | {row['exact']:.3f} | "
                f"{row['seconds_per_document']:.2f} | {row['seconds_per_page']:.2f} |"
            )
    return "\n".join(out) + "\n"


# -- Legal: dev and test splits, blind baselines, intervals ----------------------------------------

LEGAL_BEGIN, LEGAL_END = "<!-- legal:begin (benchmarks/reference_scores.py --legal) -->", "<!-- legal:end -->"
LEGAL_SPLITS = {
    "dev": "envirobench/instrument-execution-synthetic-dev-v1",
    "test": "envirobench/instrument-execution-synthetic-test-v1",
}
LEGAL_BASELINES = {  # name -> the one status predicted for every instrument (evidence page 1)
    "every instrument executed and recorded": "executed-recorded",
    "nothing executed": "not-executed",
    "cannot tell, everywhere": "cannot-tell",
}
LEGAL_METRICS = ("execution_score", "execution_score_unclipped", "status_accuracy", "evidence_pages_right")


def legal_rows(split: str, dataset_id: str, results: Path) -> dict:
    """The reference run on one split (through core) and the blind baselines (scored in process
    with the installed type and core's bootstrap, as metrics.json has it)."""
    # Internal modules: this script measures; plugins still import the public API only.
    from envirobench import build_registry, load_dataset, structure
    from envirobench import statistics as st

    benchmark = "instrument-execution"
    run_id = f"reference-{benchmark}-{split}-{time.strftime('%Y%m%d-%H%M%S')}"
    command = [
        str(Path(sys.executable).with_name("envirobench")), "run", "--adapter", "reference", "--run", run_id,
        "--model", "reference/model-free", "--benchmark", benchmark, "--dataset", f"{benchmark}={dataset_id}",
        "--budget", "0", "--results", str(results), "--timeout", "7200",
    ]
    completed = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    run_dir = results / run_id
    if not (run_dir / "metrics.json").is_file():
        raise SystemExit(f"{benchmark} {split}: the run failed\n{completed.stdout}\n{completed.stderr}")
    metrics = json.loads((run_dir / "metrics.json").read_text(encoding="utf-8"))
    run = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    profile = metrics["benchmark"]["profiles"][0]
    reference = {"headline": metrics["profiles"][profile]["headline"], "intervals": metrics["profiles"][profile]["intervals"]}

    registry = build_registry()
    dataset = load_dataset(dataset_id, registry)
    btype = registry.benchmark_type(benchmark)
    cases, answers = dataset.cases(btype), dataset.answers(btype)
    units = st.Units.of(btype, cases)
    baselines = {}
    for name, status in LEGAL_BASELINES.items():
        prediction = structure({"status": status, "evidence_page": 1}, btype.Prediction)
        scores = [btype.score_case(case, answers[cid], prediction)[profile] for cid, case in cases.items()]
        intervals = st.headline_intervals(btype, profile, units, scores)
        baselines[name] = {
            "headline": btype.summarize(profile, scores),
            "intervals": {m: [i.low, i.high] for m, i in intervals.items()},
        }
    by_group: dict[str, list[float]] = defaultdict(list)
    for cid, case in metrics["cases"].items():
        right = case["runs"]["candidate"][profile]["metrics"]["correct_status"]
        by_group[case.get("category") or "-"].append(right)
        by_group["scanned copies" if answers[cid].scanned else "born-digital copies"].append(right)
    return {
        "split": split,
        "dataset": dataset_id,
        "cases": len(cases),
        "adapter_wall_time_s": run["adapter_wall_time_s"],
        "reference": reference,
        "baselines": baselines,
        "groups": {k: [sum(v), len(v)] for k, v in by_group.items()},
    }


def _interval(intervals: dict, metric: str) -> str:
    found = intervals.get(metric)
    if not found:
        return ""
    low, high = (found["low"], found["high"]) if isinstance(found, dict) else found
    return f" [{low:.3g}, {high:.3g}]" if metric.startswith("execution") else f" [{low:.3f}, {high:.3f}]"


def render_legal(rows: list[dict]) -> str:
    out = [
        LEGAL_BEGIN,
        "## Legal: instrument-execution",
        "",
        "The reference adapter (`solvers/instrument_execution.py`, developed on the dev split only) on",
        "both splits of `instrument-execution`; the test split's law-firm templates and recorder stamps",
        "never occur in dev. Beside it, blind baselines that give every instrument one status. The",
        "score is the category's formula, 100 × max(0, (correct − 5 × false executed) ÷ instruments);",
        "*unclipped* drops the max(0, ·). Brackets: the bootstrap 95 % interval over instruments (core's",
        "bootstrap, 1,000 resamples, as in metrics.json). Made with",
        "`python benchmarks/reference_scores.py --legal`.",
        "",
        "| split | system | score | unclipped | correct | false executed | instruments | status accuracy | evidence page right |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        systems = [("reference adapter", row["reference"])] + list(row["baselines"].items())
        for name, system in systems:
            h, i = system["headline"], system["intervals"]
            out.append(
                f"| {row['split']} | {name} | {h['execution_score']:.1f}{_interval(i, 'execution_score')} | "
                f"{h['execution_score_unclipped']:.1f}{_interval(i, 'execution_score_unclipped')} | "
                f"{h['correct_statuses']:.0f} | {h['false_executed']:.0f} | {h['instruments']:.0f} | "
                f"{h['status_accuracy']:.3f}{_interval(i, 'status_accuracy')} | {h['evidence_pages_right']:.3f} |"
            )
    out += ["", "Reference adapter wall time: " + ", ".join(f"{r['split']} {r['adapter_wall_time_s']:.0f} s ({r['cases']} instruments)" for r in rows) + ".", ""]
    out += ["Status accuracy of the reference adapter by scenario (the case category) and copy:", ""]
    out += ["| group | " + " | ".join(r["split"] for r in rows) + " |", "| --- |" + " --- |" * len(rows)]
    groups = sorted({g for r in rows for g in r["groups"]})
    for group in groups:
        cells = []
        for r in rows:
            right, total = r["groups"].get(group, (0, 0))
            cells.append(f"{right:.0f}/{total}" if total else "—")
        out.append(f"| {group} | " + " | ".join(cells) + " |")
    out.append(LEGAL_END)
    return "\n".join(out) + "\n"


def write_legal(output: Path, results: Path) -> None:
    rows = [legal_rows(split, dataset_id, results) for split, dataset_id in LEGAL_SPLITS.items()]
    (results / "legal.json").write_text(json.dumps(rows, indent=2), encoding="utf-8")
    text = output.read_text(encoding="utf-8") if output.is_file() else ""
    section = render_legal(rows)
    if LEGAL_BEGIN in text and LEGAL_END in text:
        before, _, rest = text.partition(LEGAL_BEGIN)
        _, _, after = rest.partition(LEGAL_END + "\n")
        text = before + section + after
    else:
        text = text.rstrip("\n") + "\n\n" + section
    output.write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=None, help="where to keep the runs (default: a temporary directory)")
    parser.add_argument("--output", type=Path, default=ROOT / "docs" / "reference-scores.md")
    parser.add_argument("--benchmark", action="append", choices=BENCHMARKS, help="only these (repeatable)")
    parser.add_argument("--summaries", type=Path, default=None, help="also write the summaries as JSON here")
    parser.add_argument("--no-run", action="store_true", help="only rewrite the table from the summaries already saved")
    parser.add_argument("--legal", action="store_true", help="only (re)write the Legal section: instrument-execution dev and test, baselines, intervals")
    args = parser.parse_args()
    if args.legal:
        results = args.results or Path(tempfile.mkdtemp(prefix="envirobench-reference-scores-"))
        results.mkdir(parents=True, exist_ok=True)
        write_legal(args.output, results)
        print(f"wrote the Legal section of {args.output}", file=sys.stderr)
        return
    wanted = args.benchmark or list(BENCHMARKS)
    results = args.results or Path(tempfile.mkdtemp(prefix="envirobench-reference-scores-"))
    results.mkdir(parents=True, exist_ok=True)
    cache = args.summaries or results / "summaries.json"
    summaries = json.loads(cache.read_text(encoding="utf-8")) if cache.is_file() else {}
    for benchmark in [] if args.no_run else wanted:
        started = time.perf_counter()
        run_dir = run_one(benchmark, results)
        summaries[benchmark] = summarise(benchmark, run_dir)
        cache.write_text(json.dumps(summaries, indent=2), encoding="utf-8")
        print(f"{benchmark}: done in {time.perf_counter() - started:.0f} s ({run_dir})", file=sys.stderr)
    ordered = [summaries[b] for b in BENCHMARKS if b in summaries]
    text = render(ordered)
    # The Legal section is made by --legal; rewriting the Extract tables keeps it.
    previous = args.output.read_text(encoding="utf-8") if args.output.is_file() else ""
    if LEGAL_BEGIN in previous and LEGAL_END in previous:
        text += "\n" + LEGAL_BEGIN + previous.split(LEGAL_BEGIN, 1)[1].split(LEGAL_END, 1)[0] + LEGAL_END + "\n"
    args.output.write_text(text, encoding="utf-8")
    print(f"wrote {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
