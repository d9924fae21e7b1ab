"""`report.html`: one self-contained file that makes no network request.

The page is rendered with jinja2 (autoescaped) from what a run already wrote: run.json,
metrics.json and comparison.json, plus the review's interpretation.json when there is one. Case
images are copied into `report-assets/` beside it and referenced by relative URLs.

Everything a dataset or an adapter supplied reaches the page in one of two ways only:
- in the static part, through jinja2's autoescaping;
- in the case list, as JSON inside a `<script type="application/json">` block (the case index)
  with `<`, `>`, `&`, U+2028 and U+2029 written as `\\u` escapes, so no string can close the
  block, or as base64 (inputs, answers, predictions), which holds no markup at all; the page's
  script and the viewers put it into the DOM with `textContent`, never as markup.

A Content-Security-Policy meta tag forbids every remote source, so even a viewer bug cannot
make the page fetch anything.

Large runs stay usable: the case index (IDs, categories, buckets, interned errors) is one JSON
block parsed on load, and rows are rendered a page at a time. Each case's input, answer and
predictions are embedded once, in blocks of `CHUNK` cases (JSON, gzip-compressed and base64,
which keeps a 100,000-case report small), decompressed and parsed only when one of their cases
is opened. A compared run's prediction equal to the answer or to an earlier run's prediction is
stored as a reference to it.

Length: the page's data (the case index, the blocks, the headline rows, the candidate's per-case
cost and wall time) is worked out in one pass over the cases, and its parts share that pass.
"""

from __future__ import annotations

import base64
import gzip
import json
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import markupsafe

from . import datasets as ds
from . import statistics
from .benchmark import BenchmarkType, Case
from .converter import structure
from .errors import EnviroBenchError
from .jsonio import atomic_write_chunks, dumps_compact, gc_paused
from .plugins import Registry, Viewer
from .protocol import CaseUsage
from .report_assets import case_assets, copy_assets, is_image, safe_relative
from .report_charts import curve_charts, error_chart, run_colors
from .review import check_interpretation_file
from .rundir import (
    ADAPTER_DIR,
    ASSETS_DIR,
    BUCKETS,
    COMPARISON_FILE,
    INTERPRETATION_FILE,
    METRICS_FILE,
    REPORT_FILE,
    Comparison,
    ComparisonCase,
    Metrics,
    RunRecord,
    read_comparison,
    read_completed_run,
    read_metrics,
)
from .scoring import read_adapter_result
from .sites import SiteRow, site_rows
from .templating import environment, format_interval, format_number, format_signed, metric_is_count

CHUNK = 1000  # cases per lazily parsed block of inputs, answers and predictions

# Nothing remote, ever: images from the report's own directory, inline script and style only.
CSP = (
    "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; "
    "script-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"
)

ANSWER_COLOR = "#2ca02c"

STATUS_TEXT = {
    "passed": "Gate passed",
    "failed": "Gate failed",
    "baseline required": "Baseline required",
    "unavailable": "Gate unavailable",
}


# -- escaping -----------------------------------------------------------------------------------

_SCRIPT_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
_SCRIPT_TABLE = str.maketrans(_SCRIPT_ESCAPES)


def script_json(value: Any) -> str:
    """JSON safe inside `<script type="application/json">`: no `</script>`, `<!--` or line separators.

    `<`, `>` and `&` can only occur inside JSON strings, where `\\u003c` means the same thing.
    """
    return dumps_compact(value).translate(_SCRIPT_TABLE)


DATA_OPEN = '<script type="application/json" id="eb-data">'


def embedded_data(html: str) -> dict[str, Any]:
    """The data block report.html embeds (`eb-data`: the run's profiles, runs, assets and the case
    index, `cases`: one row per case, its ID first), read back from the page."""
    start = html.index(DATA_OPEN) + len(DATA_OPEN)
    return json.loads(html[start:html.index("</script>", start)])


def inline_code(source: str, tag: str) -> str:
    """A viewer's script or style (plugin code, trusted) made unable to end its element early."""
    out = source.replace(f"</{tag}", f"<\\/{tag}").replace(f"</{tag.upper()}", f"<\\/{tag.upper()}")
    return out.replace("<!--", "<\\!--")


# -- case data blocks -------------------------------------------------------------------------


def _prediction_refs(answer: Any, predictions: Sequence[Any]) -> list[Any]:
    """null (no prediction), -1 (equal to the answer), j (equal to run j's) or [the value]
    (CaseBlocks.extend gives every run's -1 without asking when every run is right)."""
    out: list[Any] = []
    for i, prediction in enumerate(predictions):
        if prediction is None:
            out.append(None)
        elif prediction == answer:
            out.append(-1)
        else:
            same = next((j for j in range(i) if predictions[j] is not None and predictions[j] == prediction), None)
            out.append(same if same is not None else [prediction])
    return out


class CaseBlocks:
    """The report's embedded case data, encoded a block of CHUNK cases at a time: `extend` with the
    comparison cases in order (or pass them through `encoded`), then `blocks()`. A new run passes
    the batches it writes to comparison.json through `encoded` (runs.write_scored), so each case is
    made once; build_page checks the cases are the run's, in order, and otherwise makes them again
    from the comparison."""

    def __init__(self, runs: Sequence[str]):
        self.runs = list(runs)
        self.ids: list[str] = []
        self._blocks: list[str] = []
        self._chunk: list[Any] = []

    def encoded(self, batches: Iterable[Sequence[ComparisonCase]]) -> Iterator[Sequence[ComparisonCase]]:
        """Each batch, passed on unchanged once it is encoded here."""
        for batch in batches:
            self.extend(batch)
            yield batch

    def extend(self, cases: Iterable[ComparisonCase]) -> None:
        for case in cases:
            answer = case.answer
            predictions = [case.predictions.get(label) for label in self.runs]
            # Most cases are right in every run: -1 for each without the pairwise search below.
            if answer is not None and all(prediction == answer for prediction in predictions):
                refs: list[Any] = [-1] * len(predictions)
            else:
                refs = _prediction_refs(answer, predictions)
            self.ids.append(case.id)
            self._chunk.append([case.input, answer, refs])
            if len(self._chunk) == CHUNK:
                self._blocks.append(encode_chunk(self._chunk))
                self._chunk = []

    def blocks(self) -> list[str]:
        if self._chunk:
            self._blocks.append(encode_chunk(self._chunk))
            self._chunk = []
        return self._blocks


def encode_chunk(cases: Sequence[Any]) -> str:
    """One block of case data: JSON, gzip-compressed (no timestamp: reproducible), base64."""
    return base64.b64encode(gzip.compress(dumps_compact(cases).encode("utf-8"), compresslevel=6, mtime=0)).decode("ascii")


def decode_chunk(block: str) -> list[Any]:
    return json.loads(gzip.decompress(base64.b64decode(block)).decode("utf-8"))


# -- the data the page shows --------------------------------------------------------------------


def _verdict(record: RunRecord, metrics: Metrics) -> dict[str, Any]:
    gate = record.gate
    assert gate is not None  # a scored run
    status = gate.status
    baseline = record.pairing.baseline.run_id if record.pairing.baseline else None
    profiles = gate.profiles
    lines: list[str] = []
    if status == "passed":
        text = f"No stable case got worse than the baseline run {baseline} in {', '.join(profiles)}"
        lines.append(text + (", and every target case is error-free." if gate.targets else "."))
    elif status == "failed":
        for p in profiles:
            m = metrics.profiles[p]
            if m.regressions:
                lines.append(f"{p}: {len(m.regressions)} case(s) got worse than the baseline run {baseline}.")
            if m.failing_targets:
                lines.append(f"{p}: {len(m.failing_targets)} target case(s) still have errors.")
    elif status == "baseline required":
        lines.append("There is no baseline run to compare with, so nothing can be said about regressions.")
    else:
        missing = [p for p in profiles if not metrics.profiles[p].available]
        lines.append(f"Gated profile(s) {', '.join(missing)} cannot score every case of every run, so the gate cannot be decided.")
    return {"status": status, "title": STATUS_TEXT.get(status, status), "lines": lines, "baseline": baseline}


def _metric_row(m: Any, name: str, primary: str, controls: Sequence[str]) -> dict[str, Any]:
    row = {
        "name": name,
        "primary": name == primary,
        "candidate": (m.headline or {}).get(name),
        "baseline": (m.baseline_headline or {}).get(name),
        "change": (m.change or {}).get(name),
        "controls": [(m.controls_headline.get(c) or {}).get(name) for c in controls],
        "interval": (m.intervals or {}).get(name),
        "change_interval": m.paired.change.get(name) if m.paired else None,
    }
    row["count"] = metric_is_count(m, name)
    return row


def _headline_rows(metrics: Metrics, headline: Sequence[str], controls: Sequence[str]) -> list[dict[str, Any]]:
    rows = []
    for profile, m in metrics.profiles.items():
        cand = m.headline or {}
        rows.append({
            "profile": profile,
            "gated": m.gated,
            "status": m.status,
            "available": m.available,
            "buckets": m.buckets,
            "metrics": [_metric_row(m, name, headline[0], controls) for name in headline] if cand else [],
            # The rest of the summary (per-kind F1s, a curve's bins...): folded under the table.
            "others": [_metric_row(m, name, headline[0], controls) for name in sorted(set(cand) - set(headline))],
        })
    return rows


def _index_errors(by_run: Mapping[str, Mapping[str, Any]], runs: Sequence[str], profiles: Sequence[str],
                  error_ids: dict[tuple[Any, ...], int]) -> tuple[Any, tuple[str, ...], tuple[tuple[str, int, int], ...]]:
    """One case's errors for the index (0 when it has none and every profile scored it; new
    errors are numbered in `error_ids`), the profiles some run could not score, and the error
    counts it adds to the charts as (profile, run index, count)."""
    errs: list[list[Any]] = []
    anything = False
    missing: set[str] = set()
    counted: list[tuple[str, int, int]] = []
    for r, label in enumerate(runs):
        by_profile: list[Any] = []
        run_scores = by_run[label]
        for p in profiles:
            score = run_scores[p]
            if score is None:
                by_profile.append(None)
                missing.add(p)
                anything = True
                continue
            errors = score.errors
            if not errors:
                by_profile.append([])
                continue
            ids = []
            for error in errors:
                key = tuple(error)
                eid = error_ids.get(key)
                if eid is None:
                    eid = error_ids[key] = len(error_ids)
                ids.append(eid)
            anything = True
            counted.append((p, r, len(ids)))
            by_profile.append(ids)
        errs.append(by_profile)
    return errs if anything else 0, tuple(missing), tuple(counted)


def _usage_column(ids: Sequence[str], usage: Mapping[str, CaseUsage] | None, name: str) -> list[float | None] | None:
    """One figure of the adapter's per-case usage for each case, or None when it gave it for none."""
    if not usage:
        return None
    column = [getattr(usage[cid], name) if cid in usage else None for cid in ids]
    return column if any(v is not None for v in column) else None


def case_usage(run_dir: Path, record: RunRecord, btype: BenchmarkType) -> dict[str, CaseUsage]:
    """The candidate's per-case cost and wall time, as its adapter reported them (`cases` in
    adapter-result.json, docs/protocol.md; optional): empty when it gave none or the file is not
    at hand (a merged run has no adapter output of its own)."""
    try:
        result = read_adapter_result(run_dir / ADAPTER_DIR, btype, output=record.adapter_output)
    except (EnviroBenchError, OSError):
        return {}
    return {u.id: u for u in result.cases or ()}


def build_page(
    record: RunRecord,
    metrics: Metrics,
    comparison: Comparison,
    *,
    viewer_name: str,
    assets: Mapping[str, Sequence[str]],
    retired: Mapping[str, str] | None = None,
    interpretation: Mapping[str, Any] | None = None,
    interpretation_problem: str | None = None,
    case_blocks: CaseBlocks | None = None,
    curves: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
    sites: Sequence[SiteRow] = (),
    usage: Mapping[str, CaseUsage] | None = None,
) -> dict[str, Any]:
    """Everything report.html.j2 renders: the static summary and the embedded case data
    (`case_blocks` when the comparison cases were encoded as they were written, see CaseBlocks;
    `usage`, the candidate's cost and wall time per case where its adapter reported them)."""
    assert record.gate is not None  # a scored run
    profiles = list(metrics.benchmark.profiles)
    runs = list(metrics.runs)
    run_ids = {r.label: r.run_id for r in comparison.runs}
    colors = run_colors(metrics)
    bucket_index = {name: i for i, name in enumerate(BUCKETS)}
    gated = list(record.gate.profiles)

    error_ids: dict[tuple[Any, ...], int] = {}
    category_names = sorted({c.category for c in metrics.cases.values()})  # the same cases, read once
    category_ids = {c: i for i, c in enumerate(category_names)}
    asset_names = sorted({p for paths in assets.values() for p in paths})
    asset_ids = {p: i for i, p in enumerate(asset_names)}
    unavailable = dict.fromkeys(profiles, 0)
    chart_counts = {p: {c: [0] * len(runs) for c in category_names} for p in profiles}

    # The page holds inputs, answers and predictions as compressed blocks, never as objects; its
    # cases are in the comparison's order (the dataset's; metrics.json's are sorted by ID).
    made = (case_blocks is not None and case_blocks.runs == runs and len(case_blocks.ids) == len(metrics.cases)
            and metrics.cases.keys() == set(case_blocks.ids))
    blocks = case_blocks if made else CaseBlocks(runs)
    if not made:
        blocks.extend(comparison.cases)
        if len(blocks.ids) != len(metrics.cases) or metrics.cases.keys() != set(blocks.ids):
            raise EnviroBenchError(f"{COMPARISON_FILE} and {METRICS_FILE} of run {record.run_id} hold different cases")
    encoded = blocks.blocks()
    # Cases share their mapping of runs' scores and of buckets (outputs.build_metrics interns
    # them), so a case's errors and buckets are worked out once per distinct mapping, keyed by its
    # id() (the mappings stay alive in `metrics`), in order of its first case: errors are numbered
    # where they first occur, as case by case would number them. The charts' counts are added once
    # per (mapping, category), times its number of cases. This is what keeps 100,000 cases fast.
    ids = blocks.ids
    case_metrics = [metrics.cases[case_id] for case_id in ids]
    case_errors: dict[int, tuple[Any, Any, Any]] = {}
    case_buckets: dict[int, list[int]] = {}
    for case in case_metrics:
        if id(case.runs) not in case_errors:
            case_errors[id(case.runs)] = _index_errors(case.runs, runs, profiles, error_ids)
        if id(case.bucket) not in case_buckets:
            case_buckets[id(case.bucket)] = [-1 if case.bucket[p] is None else bucket_index[case.bucket[p]] for p in profiles]
    for (key, category), number in Counter((id(case.runs), case.category) for case in case_metrics).items():
        _, missing, counted = case_errors[key]
        for p, r, count in counted:
            chart_counts[p][category][r] += count * number
        for p in missing:
            unavailable[p] += number
    index = [[case_id, category_ids[case.category], case_buckets[id(case.bucket)], case_errors[id(case.runs)][0],
              [asset_ids[a] for a in assets.get(case_id, ())] if assets else []]
             for case_id, case in zip(ids, case_metrics, strict=True)]
    del case_metrics

    data = {
        "format": "envirobench.report-data.v1",
        "run_id": record.run_id,
        "viewer": viewer_name,
        "profiles": profiles,
        "gated": gated,
        "runs": runs,
        "run_ids": [run_ids.get(label) for label in runs],
        "colors": {"answer": ANSWER_COLOR, **colors},
        "buckets": list(BUCKETS),
        "categories": category_names,
        "errors": [list(e) for e in error_ids],
        "assets": asset_names,
        "assets_dir": ASSETS_DIR,
        "chunk": CHUNK,
        "chunks": len(encoded),
        "cases": index,
    }
    # The candidate's cost and wall time per case, in the index's order (null where not
    # reported), when its adapter reported them for any case.
    for key, name in (("cost", "cost_usd"), ("wall", "wall_s")):
        column = _usage_column(ids, usage, name)
        if column is not None:
            data[key] = column
    # Each case's log or trace file in adapter/, linked from its row, when the adapter named one
    # (`cases[].trace`) and core copied it (only files run.json records are ever linked).
    copied = record.adapter_output.files if record.adapter_output else {}
    traces = [usage[cid].trace if usage and cid in usage and usage[cid].trace in copied else None for cid in ids]
    if any(traces):
        data["trace"] = traces
    controls = [label for label in runs if label not in ("candidate", "baseline")]
    headline = list(metrics.benchmark.headline)
    counts = record.cases
    return {
        "data": data,
        "chunk_blocks": encoded,
        "run": record,
        "verdict": _verdict(record, metrics),
        "profiles": profiles,
        "runs": runs,
        "run_ids": run_ids,
        "colors": colors,
        "answer_color": ANSWER_COLOR,
        "controls": controls,
        "headline_rows": _headline_rows(metrics, headline, controls),
        "sites": list(sites),
        "sites_primary": headline[0] if headline else None,
        # Metrics written before core computed intervals have none, and their report reads as it did.
        "bootstrap": metrics.bootstrap if any(m.intervals for m in metrics.profiles.values()) else None,
        "paired": [(p, metrics.profiles[p].paired) for p in profiles if metrics.profiles[p].paired],
        "coverage": {
            "requested": counts.requested,
            "scored": counts.scored,
            "retired": counts.retired,
            "retired_cases": sorted((retired or {}).items()),
            "unavailable": unavailable,
            "images": len(asset_names),
        },
        "charts": {p: error_chart(category_names, chart_counts[p], runs, colors) for p in profiles},
        "curves": {p: list((curves or {}).get(p, ())) for p in profiles},
        "default_profile": gated[0] if gated else profiles[0],
        "bucket_totals": {p: metrics.profiles[p].buckets for p in profiles},
        "buckets": BUCKETS,
        "interpretation": interpretation,
        "interpretation_problem": interpretation_problem,
    }


# -- rendering ----------------------------------------------------------------------------------

_ENV = environment(html=True)
_ENV.filters["script_json"] = lambda v: markupsafe.Markup(script_json(v))
_ENV.filters["fmt"] = format_number
_ENV.filters["signed"] = format_signed
_ENV.filters["interval"] = format_interval
_ENV.filters["p_value"] = statistics.format_p


def _static(name: str) -> str:
    return resources.files("envirobench.templates").joinpath(name).read_text(encoding="utf-8")


def render_report(page: Mapping[str, Any], viewers: Sequence[Viewer]) -> str:
    """The HTML of report.html for `build_page`'s result; `viewers` are embedded in that order."""
    return "".join(report_pieces(page, viewers))


def report_pieces(page: Mapping[str, Any], viewers: Sequence[Viewer]) -> Iterator[str]:
    """render_report's HTML in the pieces the template yields: written as they come, a large
    report is never one string (and never two, its pieces and their join)."""
    return _ENV.get_template("report.html.j2").generate(
        **page,
        csp=CSP,
        app_script=markupsafe.Markup(inline_code(_static("report.js"), "script")),
        app_style=markupsafe.Markup(inline_code(_static("report.css"), "style")),
        viewer_scripts=[markupsafe.Markup(inline_code(v.script, "script")) for v in viewers],
        viewer_styles=[markupsafe.Markup(inline_code(v.style, "style")) for v in viewers],
    )


def report_viewers(registry: Registry, viewer_name: str) -> list[Viewer]:
    """The type's viewer, plus core's `json` viewer (every case can also be seen as raw JSON)."""
    viewers = [registry.viewer(viewer_name)]
    if viewer_name != "json" and "json" in registry.viewers:
        viewers.append(registry.viewers["json"])
    return viewers


def read_interpretation_for_report(run_dir: Path, record: RunRecord, case_ids: Sequence[str]) -> tuple[dict[str, Any] | None, str | None]:
    """(interpretation, None) when interpretation.json is present and valid; (None, why) when invalid."""
    path = run_dir / INTERPRETATION_FILE
    if not path.is_file():
        return None, None
    data, problems = check_interpretation_file(path, case_ids, run_id=record.run_id, profiles=record.benchmark.profiles)
    if problems:
        return None, f"{INTERPRETATION_FILE} is present but not valid ({len(problems)} problem(s); run `envirobench review check`): {problems[0]}"
    return data, None


def write_report(
    run_dir: Path,
    record: RunRecord,
    btype: BenchmarkType,
    dataset_root: Path,
    cases: Mapping[str, Case],
    metrics: Metrics,
    comparison: Comparison,
    registry: Registry,
    retired: Mapping[str, str] | None = None,
    source_dir: Path | None = None,
    case_blocks: CaseBlocks | None = None,
) -> None:
    """Copy the case images into report-assets/ and write report.html (both atomically).

    `source_dir` is the run directory whose interpretation.json is shown, when the report is
    written elsewhere (a rescore writes into a staged copy of the run: see outputs.staged_outputs)."""
    viewers = report_viewers(registry, btype.VIEWER)
    assets = case_assets(btype, cases)
    copy_assets(run_dir, dataset_root, [p for paths in assets.values() for p in paths])
    interpretation, problem = read_interpretation_for_report(source_dir or run_dir, record, list(cases))
    usage = case_usage(run_dir, record, btype) or (case_usage(source_dir, record, btype) if source_dir else {})
    with gc_paused():
        page = build_page(record, metrics, comparison, viewer_name=btype.VIEWER, assets=assets, retired=retired, usage=usage,
                          interpretation=interpretation, interpretation_problem=problem, case_blocks=case_blocks,
                          curves=curve_charts(btype, metrics, list(metrics.runs), run_colors(metrics)), sites=site_rows(record, btype, metrics))
        atomic_write_chunks(run_dir / REPORT_FILE, report_pieces(page, viewers))
        del page


def rewrite_report(run_dir: Path, registry: Registry) -> Path:
    """Render report.html again from the files of a finished run (e.g. after a review).

    Needs no dataset: images already in report-assets/ are used as they are.
    """
    record = read_completed_run(run_dir)
    btype = registry.benchmark_type(record.benchmark.id)
    metrics = read_metrics(run_dir)
    comparison = read_comparison(run_dir)
    assets: dict[str, list[str]] = {}
    for case in comparison.cases:
        images = [p for p in btype.source_files(structure(case.input, btype.Input)) if is_image(p) and safe_relative(p)]
        present = [p for p in dict.fromkeys(images) if (run_dir / ASSETS_DIR / p).is_file()]
        if present:
            assets[case.id] = present
    interpretation, problem = read_interpretation_for_report(run_dir, record, list(metrics.cases))
    with gc_paused():
        page = build_page(record, metrics, comparison, viewer_name=btype.VIEWER, assets=assets,
                          retired=_retired_reasons(record, registry), interpretation=interpretation, interpretation_problem=problem,
                          usage=case_usage(run_dir, record, btype),
                          curves=curve_charts(btype, metrics, list(metrics.runs), run_colors(metrics)), sites=site_rows(record, btype, metrics))
        atomic_write_chunks(run_dir / REPORT_FILE, report_pieces(page, report_viewers(registry, btype.VIEWER)))
        del page
    return run_dir / REPORT_FILE


def _retired_reasons(record: RunRecord, registry: Registry) -> dict[str, str] | None:
    """Retirement reasons from the dataset's manifest when it is still at hand (None otherwise)."""
    try:
        manifest = ds.read_manifest(ds.resolve(record.dataset.source, registry)[0])
    except EnviroBenchError:
        return None
    if manifest.input_digest != record.dataset.input_digest:
        return None
    return {r.case: r.reason for r in manifest.retired}
