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
- `adapter/adapter-result.json`'s `cases`: the adapter's own seconds per case (`wall_s`, as the
  adapter kit measures it), summed per layout and divided by
  the layout's documents and pages (a PNG crop is one page; a PDF counts its pages).

The numbers are whatever the adapter scores: nothing is tuned here. Runs take a while on CPU
(OCR: about 15 minutes for all six); `--benchmark` limits the set, the summaries of benchmarks not
rerun are kept (`--summaries FILE`), and `--no-run` only rewrites the table from them.

A category option (`--legal TYPE`, `--extract TYPE`, `--locate TYPE`, `--verify TYPE`,
`--research TYPE`, `--site TYPE`) instead (re)writes only that type's section of the page (between its markers,
the rest untouched): the reference adapter on the dev and the test split (`synthetic-{dev,test}-v1`;
Extract's `synthetic-{dev,test}-v2`), beside the blind or trivial baselines of
benchmarks/<category>_specs/<type module>.py, each with its bootstrap 95 % interval as core computes it for metrics.json, and the
reference's score per group (scenario, copy, family) where the spec defines groups. One function
(`write_split_section`) serves every category. A spec that defines `unit_intervals(btype,
profile, cases, answers, predictions)` (the Site specs: a split has three or four sites) gets its
intervals from it instead, for the baselines and for the reference run (its predictions read
from the run's comparison.json). A spec with `PER_SITE = True` (a case is a whole site) also gets a
table of every site: each system's primary score on that site alone, and the reference's cost and
wall time per site as core recorded them in run.json (`per_site`).
Every baseline also gets, beside the reference run, the paired bootstrap interval of reference −
baseline (core's `statistics.paired_comparison` on the reference's per-case scores in metrics.json;
none for a spec with `unit_intervals`), and each section carries a hidden summary-row line from
which benchmarks/_summary.py rebuilds the summary table at the top of the page whenever a section is
written: per task the reference on test against the best shortcut (the best baseline that copies no
key), their paired difference and dev → test. A run scored with another scoring version than the
installed one is refused: rescore it first (`envirobench score --run DIR`), which `--made` then reuses.
`--limit N` makes a quick check on each split's first N cases (not numbers for the docs);
`--split NAME=DATASET` replaces the dev and test datasets (a check on another dataset; `{benchmark}`
in DATASET is the type, e.g. `--split v1=envirobench/{benchmark}-synthetic-v1`);
`--no-reference` scores the baselines alone (no adapter run).

    .venv/bin/python benchmarks/reference_scores.py --extract document-extraction --extract table-records \\
        --extract table-separators --extract table-structure --extract table-cells --extract report-metadata
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import _shortcuts  # noqa: E402  (benchmarks/_shortcuts.py: what the shortcut baselines share)
import _summary  # noqa: E402  (benchmarks/_summary.py: the summary table at the top of the page)

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


def reference_run(benchmark: str, dataset_id: str, results: Path, *, what: str, model: str, timeout: int,
                  limit: int | None = None) -> Path:
    """One `envirobench run --adapter reference` through core (no budget, no baseline: the gate
    says "baseline required", as expected here), named after `what` (the benchmark, and the split
    of a split section); its run directory, or exit where the run made no metrics.json."""
    run_id = f"reference-{what.replace(' ', '-')}-{time.strftime('%Y%m%d-%H%M%S')}"
    command = [
        str(Path(sys.executable).with_name("envirobench")), "run", "--adapter", "reference", "--run", run_id,
        "--model", model, "--benchmark", benchmark, "--dataset", f"{benchmark}={dataset_id}",
        "--budget", "0", "--results", str(results), "--timeout", str(timeout), *(["--limit", str(limit)] if limit else []),
    ]
    completed = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    run_dir = results / run_id
    if not (run_dir / "metrics.json").is_file():
        raise SystemExit(f"{what}: the run failed\n{completed.stdout}\n{completed.stderr}")
    return run_dir


def run_one(benchmark: str, results: Path) -> Path:
    return reference_run(benchmark, f"envirobench/{benchmark}-synthetic-v1", results, what=benchmark, model=MODEL, timeout=7200)


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
    result = json.loads((run_dir / "adapter" / "adapter-result.json").read_text(encoding="utf-8"))
    timings = {case["id"]: case["wall_s"] for case in result["cases"]}
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


def _load_note(summaries: list[dict]) -> str:
    """Wall times depend on what else ran: the 1-minute load average at the end of each run."""
    loads = [s["load_average"] for s in summaries if s.get("load_average") is not None]
    if not loads:
        return ""
    return (f" The machine's 1-minute load average at the end of each run: {min(loads):.1f} to {max(loads):.1f}"
            " (above 2, other jobs shared the cores and the times are longer than on a quiet machine).")


def render(summaries: list[dict]) -> str:
    out = [
        "# Reference adapter scores",
        "",
        "What the model-free reference adapter (`envirobench-reference-adapter`, the default variant",
        "of each solver) scores on every shipped Extract dataset, made with",
        "`python benchmarks/reference_scores.py` (which runs each through `envirobench run --adapter",
        "reference` and reads the run's `metrics.json`, `run.json` and `adapter/adapter-result.json`).",
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
        "(`wall_s` of each case in `adapter-result.json`), averaged over the layout's cases and pages; a PNG crop is one page, a PDF",
        "counts all its pages (a table-records PDF case counts the one page it asks for). Measured on",
        "2 CPU cores, no GPU." + _load_note(summaries),
        "",
        "The first tables below are the Extract v1 datasets. After them, one section per type of every",
        "category with dev and test splits (Legal, Locate, Extract v2, Verify, Research, Site), each made with",
        "`python benchmarks/reference_scores.py --<category> TYPE`: the reference adapter on both splits",
        "beside the blind or trivial baselines of `benchmarks/<category>_specs/`, with bootstrap 95 %",
        "intervals. A metric a run lacks (precision where nothing was claimed) shows —.",
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


# -- Dev and test splits, blind baselines, intervals (Legal and Extract v2) ------------------------

HERE = Path(__file__).resolve().parent
# Category -> the title of its sections; each category's specs live in benchmarks/<category>_specs/.
CATEGORY_TITLES = {
    "legal": "Legal",
    "extract": "Extract v2",
    "locate": "Locate",
    "verify": "Verify",
    "research": "Research",
    "site": "Site",
}
SPLIT_CATEGORIES = tuple(CATEGORY_TITLES)
SPECS_DIRS = {category: HERE / f"{category}_specs" for category in SPLIT_CATEGORIES}
SPLITS = ("dev", "test")
# The dataset ID of a split: the first version with dev and test splits, v1 (Legal's and Locate's
# first datasets already had them, as every later category's did) but for Extract's v2.
SPLIT_VERSIONS = {"extract": "v2"}
DATASET_IDS = {
    category: "envirobench/{benchmark}-synthetic-{split}-" + SPLIT_VERSIONS.get(category, "v1")
    for category in SPLIT_CATEGORIES
}


def section_markers(category: str, benchmark: str) -> tuple[str, str]:
    return (f"<!-- {category}-{benchmark}:begin (benchmarks/reference_scores.py --{category} {benchmark}) -->",
            f"<!-- {category}-{benchmark}:end -->")


def split_spec(category: str, benchmark: str):
    """The type's table spec, benchmarks/<category>_specs/<module>.py: BENCHMARK, UNIT (what a
    case is, plural: the bootstrap resamples them), INTRO, BASELINES (name -> function(case input,
    answer) -> prediction); optionally COLUMNS ((metric, title, format), the primary first; by
    default every headline metric of the type's first profile), GROUP_METRIC ((numerator,
    denominator): metric names, a tuple of names to add up, or None to count cases), GROUP_TITLE
    and groups(case_id, category, answer), for a table of the reference per group; KEY_COPIES (the
    baselines that copy part of the key: left out of the summary's best shortcut) and
    SHORTCUT_NOTE (why the task cannot pass the rule yet, on its summary row)."""
    import importlib.util

    folder = SPECS_DIRS[category]
    path = folder / f"{benchmark.replace('-', '_')}.py"
    if not path.is_file():
        known = sorted(p.stem.replace("_", "-") for p in folder.glob("*.py") if not p.stem.startswith("_"))
        raise SystemExit(f"no {CATEGORY_TITLES[category]} table spec for {benchmark!r} ({path}); known: {', '.join(known)}")
    # Specs of one category share helpers (extract_specs/_records.py), every spec benchmarks/_spec_parts.py.
    for shared in (HERE, folder):
        if str(shared) not in sys.path:
            sys.path.insert(0, str(shared))
    loaded = importlib.util.spec_from_file_location(f"{category}_specs.{path.stem}", path)
    module = importlib.util.module_from_spec(loaded)
    loaded.loader.exec_module(module)
    if benchmark != module.BENCHMARK:
        raise SystemExit(f"{path}: BENCHMARK is {module.BENCHMARK!r}, not {benchmark!r}")
    module.CATEGORY = category
    return module


def _case_scores(metrics: dict, cases: dict, profile: str) -> list | None:
    """The run's score of each case in `profile`, in the order of `cases`, as metrics.json
    records them (None when a case has none: a failed case leaves the profile unavailable)."""
    from envirobench import CaseScore

    out = []
    for cid in cases:
        score = (metrics["cases"][cid]["runs"].get("candidate") or {}).get(profile)
        if score is None:
            return None
        out.append(CaseScore(errors=tuple(map(tuple, score["errors"])), metrics=score["metrics"]))
    return out


def _summed(case_metrics: dict, names) -> float:
    if names is None:
        return 1.0
    return sum(case_metrics[n] for n in ((names,) if isinstance(names, str) else names))


def split_rows(spec, split: str, results: Path, limit: int | None, made: Path | None = None, *,
               dataset_id: str | None = None, reference: bool = True) -> dict:
    """One split: the reference run (through core; or `made`, a finished run of the reference
    adapter on this very dataset, checked; none with reference=False) and the blind baselines
    (scored in process with the installed type and core's bootstrap, on the cases the run scored,
    as metrics.json has it, or on the first `limit` cases without a run)."""
    # Internal modules: this script measures; plugins still import the public API only.
    from envirobench import build_registry, load_dataset, structure
    from envirobench import statistics as st

    benchmark = spec.BENCHMARK
    dataset_id = (dataset_id or DATASET_IDS[spec.CATEGORY]).format(benchmark=benchmark, split=split)
    registry = build_registry()
    dataset = load_dataset(dataset_id, registry)
    btype = registry.benchmark_type(benchmark)
    every_case = dataset.cases(btype)
    metrics = run = None
    run_dir = made
    if reference and made is None:
        run_dir = reference_run(benchmark, dataset_id, results, what=f"{benchmark} {split}", model="reference/model-free",
                                timeout=14400, limit=limit)
    if run_dir is not None:
        metrics = json.loads((run_dir / "metrics.json").read_text(encoding="utf-8"))
        run = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    if made is not None:
        problems = [
            what for what, bad in (
                ("not completed", run["status"] != "completed"), ("a partial run", run.get("partial") is not None),
                (f"not a {benchmark} run", run["benchmark"]["id"] != benchmark),
                (f"not on {dataset_id} as installed", run["dataset"]["digest"] != dataset.identity.digest),
                ("not the reference adapter", run["adapter"]["requested"] != "reference"),
            ) if bad
        ]
        if problems:
            raise SystemExit(f"--made {split}={made}: {', '.join(problems)}")
    if metrics and metrics["benchmark"].get("scoring_version") != btype.SCORING_VERSION:
        raise SystemExit(f"{run_dir} was scored with {metrics['benchmark'].get('scoring_version')}, not the installed "
                         f"{btype.SCORING_VERSION}: rescore it first (envirobench score --run {run_dir})")
    profile = metrics["benchmark"]["profiles"][0] if metrics else btype.PROFILES[0]
    reference_row = None
    if metrics:
        reference_row = {"headline": metrics["profiles"][profile]["headline"], "intervals": metrics["profiles"][profile]["intervals"]}
        cases = {cid: case for cid, case in every_case.items() if cid in metrics["cases"]}
    else:
        cases = dict(list(every_case.items())[:limit] if limit else every_case.items())

    answers = dataset.answers(btype)
    units = st.Units.of(btype, cases)
    reference_scores = _case_scores(metrics, cases, profile) if metrics else None
    # A spec's CLUSTERED_SPLITS (Site's many small test sites) are scored by core's bootstrap over
    # cases, a case being a whole site: intervals and paired intervals resample sites.
    by_case = split in getattr(spec, "CLUSTERED_SPLITS", {})
    unit_intervals = None if by_case else getattr(spec, "unit_intervals", None)
    baselines = {}
    case_scores: dict[str, dict[str, Any]] = {}  # system -> case -> its score (the per-site table)
    _shortcuts.scoring_split(dataset.root)
    for name, baseline in spec.BASELINES.items():
        scores = []
        predictions = {}
        for cid, case in cases.items():
            prediction = predictions[cid] = structure(baseline(case.input, answers[cid]), btype.Prediction)
            scores.append(btype.score_case(case, answers[cid], prediction)[profile])
        case_scores[name] = dict(zip(cases, scores, strict=True))
        if unit_intervals is not None:
            baseline_intervals = unit_intervals(btype, profile, cases, answers, predictions)
        else:
            intervals = st.headline_intervals(btype, profile, units, scores)
            baseline_intervals = {m: [i.low, i.high] for m, i in intervals.items()}
        baselines[name] = {"headline": btype.summarize(profile, scores), "intervals": baseline_intervals}
        if reference_scores is not None and unit_intervals is None:
            # Reference − baseline, both summarised on the same resamples of the units (core's paired bootstrap).
            change = st.paired_comparison(btype, profile, units, reference_scores, scores).change
            baselines[name]["paired"] = {m: [i.low, i.high] for m, i in change.items()}
    per_site = getattr(spec, "PER_SITE", False)
    if reference_row is not None and (unit_intervals is not None or per_site):
        comparison = json.loads((run_dir / "comparison.json").read_text(encoding="utf-8"))
        made = {
            c["id"]: structure(c["predictions"]["candidate"], btype.Prediction)
            for c in comparison["cases"]
            if c["id"] in cases and c["predictions"].get("candidate") is not None
        }
        if unit_intervals is not None:
            reference_row["intervals"] = unit_intervals(btype, profile, {cid: cases[cid] for cid in made}, answers, made)
    sites: dict[str, dict] = {}
    if per_site:
        # Each case is a whole site: every system's headline on each site alone (the type's
        # summary of that one case's score), and the reference's cost and wall time per site as
        # core recorded them in run.json (the adapter's own figures, or the totals shared equally).
        usage = {u["case"]: u for u in (run or {}).get("per_site") or ()}
        if reference_row is not None:
            reference_scores = {cid: btype.score_case(cases[cid], answers[cid], p)[profile] for cid, p in made.items()}
            case_scores = {"reference adapter": reference_scores} | case_scores
        for cid in cases:
            headlines = {name: btype.summarize(profile, [by_case[cid]]) for name, by_case in case_scores.items() if cid in by_case}
            sites[cid] = {"headlines": headlines, "usage": usage.get(cid)}
    by_group: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    if metrics and hasattr(spec, "GROUP_METRIC"):
        numerator, denominator = spec.GROUP_METRIC
        for cid, case in metrics["cases"].items():
            case_metrics = case["runs"]["candidate"][profile]["metrics"]
            for group in spec.groups(cid, case.get("category"), answers[cid]):
                by_group[group][0] += _summed(case_metrics, numerator)
                by_group[group][1] += _summed(case_metrics, denominator)
    return {
        "split": split,
        "by_case": by_case,
        "dataset": dataset_id,
        "profile": profile,
        "headline_metrics": list(btype.HEADLINE),
        "cases": len(cases),
        "split_cases": len(every_case),
        "adapter_wall_time_s": run["adapter_wall_time_s"] if run else None,
        "reference": reference_row,
        "baselines": baselines,
        "groups": dict(by_group),
        "sites": sites,
    }


def _cell(value: float, interval, fmt: str) -> str:
    text = format(value, fmt)
    if not interval:
        return text
    low, high = (interval["low"], interval["high"]) if isinstance(interval, dict) else interval
    return f"{text} [{format(low, fmt)}, {format(high, fmt)}]"


def _columns(spec, rows: list[dict]) -> list[tuple[str, str, str]]:
    if hasattr(spec, "COLUMNS"):
        return list(spec.COLUMNS)
    first = rows[0]["reference"] or next(iter(rows[0]["baselines"].values()))
    # The type's headline order (its primary metric first), then any other headline metric.
    ordered = [m for m in rows[0]["headline_metrics"] if m in first["headline"]]
    ordered += [m for m in first["headline"] if m not in ordered and "@" not in m]
    return [(metric, metric.replace("_", " "), ".3f") for metric in ordered]


def render_split_section(spec, rows: list[dict]) -> str:
    begin, end = section_markers(spec.CATEGORY, spec.BENCHMARK)
    columns = _columns(spec, rows)
    profiles = sorted({r["profile"] for r in rows})
    out = [
        begin,
        _summary.row_line(_summary_row(spec, rows, columns[0])),
        f"## {CATEGORY_TITLES[spec.CATEGORY]}: {spec.BENCHMARK}",
        "",
        spec.INTRO,
        f"Profile {', '.join(profiles)} (the type's first). Brackets: the bootstrap 95 % interval over {spec.UNIT} "
        + ("(the spec's bootstrap over scored units, 1,000 resamples; none for counts)" if hasattr(spec, "unit_intervals")
           else "(core's\nbootstrap, 1,000 resamples, as in metrics.json)")
        + "".join(f"; on {r['split']}, core's bootstrap over its cases, i.e. resampling whole sites (paired intervals too)"
                  for r in rows if r.get("by_case") and hasattr(spec, "unit_intervals"))
        + f". Made with `python benchmarks/reference_scores.py --{spec.CATEGORY} {spec.BENCHMARK}`.",
    ]
    sampled = [r for r in rows if r.get("split_cases") is not None and r["cases"] < r["split_cases"]]
    if sampled:
        # A run on part of a split (--limit) is a sample, and says so where its numbers are read.
        out.append(
            "**A sample, not the whole split:** "
            + ", ".join(f"{r['split']} the first {r['cases']} of {r['split_cases']} cases" for r in sampled)
            + f" (`--limit`); run `python benchmarks/reference_scores.py --{spec.CATEGORY} {spec.BENCHMARK}` for every case."
        )
    out += [
        "",
        "| split | system | " + " | ".join(title for _, title, _ in columns) + " |",
        "| --- | --- |" + " --- |" * len(columns),
    ]
    for row in rows:
        systems = ([("reference adapter", row["reference"])] if row["reference"] else []) + list(row["baselines"].items())
        for name, system in systems:
            h, i = system["headline"], system["intervals"]
            cells = [_cell(h[metric], i.get(metric), fmt) if h.get(metric) is not None else "—" for metric, _, fmt in columns]
            out.append(f"| {row['split']} | {name} | " + " | ".join(cells) + " |")
    timed = [r for r in rows if r["adapter_wall_time_s"] is not None]
    if timed:
        out += ["", "Reference adapter wall time: " + ", ".join(
            f"{r['split']} {r['adapter_wall_time_s']:.0f} s ({r['cases']} cases)" for r in timed) + "."]
    out.append("")
    if any(r.get("sites") for r in rows):
        out += render_sites(columns[0], rows)
    if any(r["groups"] for r in rows):
        out += [f"{spec.GROUP_TITLE}:", ""]
        out += ["| group | " + " | ".join(r["split"] for r in rows) + " |", "| --- |" + " --- |" * len(rows)]
        for group in sorted({g for r in rows for g in r["groups"]}):
            cells = []
            for r in rows:
                right, total = r["groups"].get(group, (0, 0))
                cells.append(f"{right:.0f}/{total:.0f}" if total else "—")
            out.append(f"| {group} | " + " | ".join(cells) + " |")
    out.append(end)
    return "\n".join(out) + "\n"


class _BySite:
    """A spec seen through its SUMMARY_SPLIT (Site: the many small test sites): no unit
    bootstrap, so the summary row takes the split's paired interval over sites."""

    unit_intervals = None

    def __init__(self, spec) -> None:
        self._spec = spec
        self.UNIT = f"sites of {spec.SUMMARY_SPLIT} (intervals resample sites)"

    def __getattr__(self, name: str):
        return getattr(self._spec, name)


def _summary_row(spec, rows: list[dict], column) -> dict:
    """The section's summary row: of the test split, or of the spec's SUMMARY_SPLIT where it
    names a split of the rows (its row standing for test, the dev row kept)."""
    chosen = getattr(spec, "SUMMARY_SPLIT", None)
    picked = [r for r in rows if r["split"] == chosen]
    if not picked:
        return _summary.summary_row(spec, rows, column)
    stand_in = [r for r in rows if r["split"] == "dev"] + [{**picked[0], "split": "test"}]
    return _summary.summary_row(_BySite(spec), stand_in, column) | {"split": chosen}


def _usage(usage: dict | None, field: str, averaged: str, fmt: str) -> str:
    if usage is None or usage.get(field) is None:
        return "—"
    return format(usage[field], fmt) + (" (averaged)" if usage[averaged] else "")


def render_sites(column: tuple[str, str, str], rows: list[dict]) -> list[str]:
    """The per-site table: each site's primary metric (`column`: the section's first) for every
    system, the reference's cost and wall time."""
    metric, title, fmt = column
    names = list(dict.fromkeys(name for r in rows for site in r["sites"].values() for name in site["headlines"]))
    out = [
        f"Per site ({title}; cost and wall time are the reference adapter's, per site, as run.json records them):",
        "",
        "| split | site | " + " | ".join(names) + " | cost (USD) | wall time (s) |",
        "| --- | --- |" + " --- |" * (len(names) + 2),
    ]
    for r in rows:
        for cid, site in r["sites"].items():
            values = [site["headlines"].get(n, {}).get(metric) for n in names]
            cells = [format(v, fmt) if v is not None else "—" for v in values]
            usage = site["usage"]
            cells += [_usage(usage, "cost_usd", "cost_averaged", ".2f"), _usage(usage, "wall_time_s", "wall_averaged", ".0f")]
            out.append(f"| {r['split']} | {cid} | " + " | ".join(cells) + " |")
    return out + [""]


def write_split_section(category: str, benchmark: str, output: Path, results: Path, limit: int | None = None,
                        made: dict[str, Path] | None = None, datasets: dict[str, str] | None = None,
                        reference: bool = True) -> None:
    """(Re)write TYPE's section of `output` between its markers, the rest untouched. `datasets`
    (split name -> dataset ID or directory) replaces the default dev and test datasets."""
    spec = split_spec(category, benchmark)
    splits = datasets or {split: None for split in SPLITS} | dict(getattr(spec, "CLUSTERED_SPLITS", {}))
    rows = [split_rows(spec, split, results, limit, (made or {}).get(split), dataset_id=dataset_id, reference=reference)
            for split, dataset_id in splits.items()]
    (results / f"{category}-{benchmark}.json").write_text(json.dumps(rows, indent=2), encoding="utf-8")
    write_section(spec, rows, output)


def write_section(spec, rows: list[dict], output: Path) -> None:
    """Put the section of `rows` (as split_rows made them) into `output` between its markers."""
    section = render_split_section(spec, rows)
    begin, end = section_markers(spec.CATEGORY, spec.BENCHMARK)
    # Several runs of this script (one per type, in parallel) may finish together: the page is
    # read, changed and written under a lock so that no section is lost.
    import fcntl
    import hashlib

    key = hashlib.sha256(str(output.resolve()).encode()).hexdigest()[:16]  # the same in every process
    lock_path = Path(tempfile.gettempdir()) / f"reference-scores-{key}.lock"
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        text = output.read_text(encoding="utf-8") if output.is_file() else ""
        if begin in text and end in text:
            before, _, rest = text.partition(begin)
            _, _, after = rest.partition(end + "\n")
            text = before + section + after
        else:
            text = text.rstrip("\n") + "\n\n" + section
        output.write_text(_summary.place(text, SPLIT_CATEGORIES), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=None, help="where to keep the runs (default: a temporary directory)")
    parser.add_argument("--output", type=Path, default=ROOT / "docs" / "reference-scores.md")
    parser.add_argument("--benchmark", action="append", choices=BENCHMARKS, help="only these (repeatable)")
    parser.add_argument("--summaries", type=Path, default=None, help="also write the summaries as JSON here")
    parser.add_argument("--no-run", action="store_true", help="only rewrite the table from the summaries already saved")
    for category, title in CATEGORY_TITLES.items():
        parser.add_argument(f"--{category}", action="append", default=[], metavar="TYPE",
                            help=f"only (re)write the {title} section of TYPE (repeatable): dev and test, baselines, intervals")
    parser.add_argument("--limit", type=int, default=None, help="with a category option (--legal TYPE, ...): only the first N cases of each split (a quick check, not for the docs)")
    parser.add_argument("--made", action="append", default=[], metavar="SPLIT=RUN_DIR",
                        help="with one category option (--legal TYPE, ...): use this finished reference run of the split (checked: completed, whole, "
                             "on the installed dataset) instead of making one")
    parser.add_argument("--split", action="append", default=[], metavar="NAME=DATASET",
                        help="with a category option: these splits (a dataset ID or directory each) instead of the type's dev and test")
    parser.add_argument("--no-reference", action="store_true", help="with a category option: the baselines only, no reference run")
    parser.add_argument("--rows", type=Path, default=None, metavar="FILE",
                        help="with one category option (--legal TYPE, ...): rewrite its section from the rows a run of this script "
                             "saved (RESULTS/<category>-<type>.json), running nothing")
    args = parser.parse_args()
    chosen = [(category, benchmark) for category in SPLIT_CATEGORIES for benchmark in getattr(args, category)]
    if args.rows:
        if len(chosen) != 1:
            parser.error("--rows FILE goes with exactly one category option (--legal TYPE, --extract TYPE, ...)")
        category, benchmark = chosen[0]
        write_section(split_spec(category, benchmark), json.loads(args.rows.read_text(encoding="utf-8")), args.output)
        return
    if chosen:
        results = args.results or Path(tempfile.mkdtemp(prefix="envirobench-reference-scores-"))
        results.mkdir(parents=True, exist_ok=True)
        made = {split: Path(run_dir) for split, _, run_dir in (item.partition("=") for item in args.made)}
        splits = {name: dataset for name, _, dataset in (item.partition("=") for item in args.split)} or None
        if splits and not all(splits.values()):
            parser.error("--split NAME=DATASET needs both a name and a dataset")
        known = set(splits or SPLITS)
        if not splits and len(chosen) == 1:  # and the spec's own CLUSTERED_SPLITS (Site: test-sites20)
            known |= set(getattr(split_spec(*chosen[0]), "CLUSTERED_SPLITS", {}))
        if made and (len(chosen) != 1 or not set(made) <= known):
            parser.error(f"--made SPLIT=RUN_DIR (SPLIT: {', '.join(sorted(known))}) goes with exactly one category option")
        unfinished = [f"{split}={run_dir}" for split, run_dir in made.items()
                      if not ((run_dir / "run.json").is_file() and (run_dir / "metrics.json").is_file())]
        if unfinished:
            parser.error(f"--made {', '.join(unfinished)}: not a finished run directory (no run.json and metrics.json there)")
        for category, benchmark in chosen:
            write_split_section(category, benchmark, args.output, results, args.limit, made, splits, not args.no_reference)
            print(f"wrote the {CATEGORY_TITLES[category]} section of {benchmark} in {args.output}", file=sys.stderr)
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
        summaries[benchmark]["load_average"] = round(os.getloadavg()[0], 1)
        cache.write_text(json.dumps(summaries, indent=2), encoding="utf-8")
        print(f"{benchmark}: done in {time.perf_counter() - started:.0f} s ({run_dir})", file=sys.stderr)
    ordered = [summaries[b] for b in BENCHMARKS if b in summaries]
    text = render(ordered)
    # The split sections, made by --extract and --legal, follow the v1 tables; rewriting these keeps them.
    previous = args.output.read_text(encoding="utf-8") if args.output.is_file() else ""
    kept = [at for at in (previous.find(f"<!-- {category}-") for category in SPLIT_CATEGORIES) if at >= 0]
    if kept:
        text += "\n" + previous[min(kept):]
    args.output.write_text(_summary.place(text, SPLIT_CATEGORIES), encoding="utf-8")
    print(f"wrote {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
