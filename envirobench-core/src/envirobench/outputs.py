"""The files a scored run writes: metrics.json, comparison.json, review-brief.json, report.html
(with report-assets/, see report.py) and summary.md.

All are pure functions of the scores, the answer key and the saved predictions (no clocks), so
rescoring an unchanged run reproduces them byte for byte.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2

from .benchmark import BenchmarkType, Case
from .converter import unstructure
from .jsonio import atomic_write_text, dumps
from .pairing import summarize_run

if TYPE_CHECKING:
    from .datasets import Dataset
    from .plugins import Registry
    from .runs import ComparedRun, RunScores

METRICS_FORMAT = "envirobench.metrics.v1"
COMPARISON_FORMAT = "envirobench.comparison.v1"
REVIEW_BRIEF_FORMAT = "envirobench.review-brief.v1"
REVIEW_GROUPS = ("worse", "better", "noisy", "remaining")


def _score_json(score: Any, cache: dict[int, Any]) -> Any:
    """JSON of a score; interned scores (see runs._intern) are converted once per build."""
    if score is None:
        return None
    key = id(score)
    if key not in cache:
        cache[key] = score.to_json()
    return cache[key]


def build_metrics(
    record: Mapping[str, Any],
    btype: BenchmarkType,
    cases: Mapping[str, Case],
    scores: RunScores,
    baseline: ComparedRun | None,
    controls: Sequence[ComparedRun],
    gate: Mapping[str, Any],
) -> dict[str, Any]:
    case_ids = list(cases)
    runs = [("candidate", scores)] + ([("baseline", baseline.scores)] if baseline else []) + [(c.label, c.scores) for c in controls]
    headlines = {label: summarize_run(btype, case_ids, run_scores) for label, run_scores in runs}
    bucket_index: dict[str, dict[str, str]] = {}
    profiles: dict[str, Any] = {}
    for profile in btype.PROFILES:
        pairing = gate["by_profile"][profile]
        index = bucket_index.setdefault(profile, {})
        for name, ids in pairing["buckets"].items():
            for cid in ids:
                index[cid] = name
        cand = headlines["candidate"][profile]
        base = headlines["baseline"][profile] if baseline else None
        profiles[profile] = {
            "available": pairing["available"],
            "gated": profile in gate["profiles"],
            "status": pairing["status"],
            "headline": cand,
            "baseline_headline": base,
            "change": {m: cand[m] - base[m] for m in cand if m in base} if cand and base else None,
            "controls_headline": {c.label: headlines[c.label][profile] for c in controls},
            "buckets": {name: len(ids) for name, ids in pairing["buckets"].items()},
            **{k: pairing[k] for k in ("regressions", "unstable_regressions", "improvements", "unstable", "failing_targets")},
        }
    per_case = {}
    score_json: dict[int, Any] = {}
    for cid, case in cases.items():
        per_case[cid] = {
            "category": case.category,
            "bucket": {p: bucket_index[p].get(cid) for p in btype.PROFILES},
            "runs": {label: {p: _score_json(run_scores[cid][p], score_json) for p in btype.PROFILES} for label, run_scores in runs},
        }
    return {
        "format": METRICS_FORMAT,
        "run_id": record["run_id"],
        "benchmark": {"id": btype.ID, "scoring_version": btype.SCORING_VERSION, "profiles": list(btype.PROFILES), "headline": list(btype.HEADLINE)},
        "dataset": {k: record["dataset"][k] for k in ("id", "version", "digest", "input_digest", "answer_digest")},
        "runs": [label for label, _ in runs],
        "gate": {"status": gate["status"], "profiles": gate["profiles"], "targets": gate["targets"]},
        "profiles": profiles,
        "cases": per_case,
    }


def build_comparison(
    record: Mapping[str, Any],
    cases: Mapping[str, Case],
    answers: Mapping[str, Any],
    predictions: Mapping[str, Any],
    baseline: ComparedRun | None,
    controls: Sequence[ComparedRun],
) -> dict[str, Any]:
    runs = [("candidate", record["run_id"], predictions)]
    if baseline:
        runs.append(("baseline", baseline.run_id, baseline.predictions))
    runs += [(c.label, c.run_id, c.predictions) for c in controls]
    return {
        "format": COMPARISON_FORMAT,
        "run_id": record["run_id"],
        "runs": [{"label": label, "run_id": run_id} for label, run_id, _ in runs],
        "cases": [
            {
                "id": cid,
                "category": case.category,
                "input": unstructure(case.input),
                "answer": unstructure(answers[cid]),
                "predictions": {label: unstructure(preds[cid]) if cid in preds else None for label, _, preds in runs},
            }
            for cid, case in cases.items()
        ],
    }


def build_review_brief(record: Mapping[str, Any], cases: Mapping[str, Case], gate: Mapping[str, Any]) -> dict[str, Any]:
    """Changed cases grouped into worse, better, noisy and remaining, by category, per gated profile."""
    profiles = {}
    for profile in gate["profiles"]:
        buckets = gate["by_profile"][profile]["buckets"]
        profiles[profile] = {
            group: _by_category(buckets[group], cases) for group in REVIEW_GROUPS
        }
    return {
        "format": REVIEW_BRIEF_FORMAT,
        "run_id": record["run_id"],
        "gate": gate["status"],
        "baseline": (record["pairing"]["baseline"] or {}).get("run_id"),
        "profiles": profiles,
    }


def _by_category(ids: Sequence[str], cases: Mapping[str, Case]) -> dict[str, list[str]]:
    grouped: dict[str, list[str]] = {}
    for cid in ids:
        grouped.setdefault(cases[cid].category, []).append(cid)
    return dict(sorted(grouped.items()))


_ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("envirobench", "templates"),
    autoescape=False,  # Markdown; untrusted strings are passed through `md` below
    undefined=jinja2.StrictUndefined,
    keep_trailing_newline=True,
    trim_blocks=True,
    lstrip_blocks=True,
)


def _md(value: Any) -> str:
    """Escape text from datasets and adapters so it cannot change the Markdown's structure."""
    text = str(value)
    for char in "\\`*_{}[]<>()#+!|":
        text = text.replace(char, "\\" + char)
    return text.replace("\n", " ")


_ENV.filters["md"] = _md
_ENV.filters["fmt"] = lambda v: "n/a" if v is None else (f"{v:.4f}" if isinstance(v, float) else str(v))
_ENV.filters["signed"] = lambda v: "n/a" if v is None else f"{v:+.4f}"


def render_summary(record: Mapping[str, Any], btype: BenchmarkType, metrics: Mapping[str, Any], cases: Mapping[str, Case], limit: int = 25) -> str:
    def error_sets(cid: str, profile: str) -> tuple[set[tuple[Any, ...]], set[tuple[Any, ...]]]:
        runs = metrics["cases"][cid]["runs"]
        cand = {tuple(e) for e in (runs["candidate"][profile] or {"errors": []})["errors"]}
        base = {tuple(e) for e in ((runs.get("baseline") or {}).get(profile) or {"errors": []})["errors"]}
        return cand, base

    def listed(errors: set[tuple[Any, ...]], shown: int = 3) -> list[str]:
        """A few errors in natural order (row 2 before row 10), then how many more."""
        ordered = sorted(errors, key=lambda e: [(0, x, "") if isinstance(x, (int, float)) else (1, 0, str(x)) for x in e])
        words = [" ".join(str(x) for x in e) for e in ordered[:shown]]
        if len(ordered) > shown:
            words.append(f"and {len(ordered) - shown} more")
        return words

    def new_errors(cid: str, profile: str) -> list[str]:
        cand, base = error_sets(cid, profile)
        return listed(cand - base)

    def fixed_errors(cid: str, profile: str) -> list[str]:
        cand, base = error_sets(cid, profile)
        return listed(base - cand)

    return _ENV.get_template("summary.md.j2").render(
        run=record,
        btype=btype,
        metrics=metrics,
        cases=cases,
        limit=limit,
        new_errors=new_errors,
        fixed_errors=fixed_errors,
    )


def write_outputs(
    run_dir: Path,
    record: dict[str, Any],
    btype: BenchmarkType,
    dataset: Dataset,
    cases: Mapping[str, Case],
    answers: Mapping[str, Any],
    predictions: Mapping[str, Any],
    scores: RunScores,
    baseline: ComparedRun | None,
    controls: Sequence[ComparedRun],
    gate: Mapping[str, Any],
    registry: Registry | None = None,
) -> None:
    from .report import write_report

    metrics = build_metrics(record, btype, cases, scores, baseline, controls, gate)
    comparison = build_comparison(record, cases, answers, predictions, baseline, controls)
    # Large runs: compact JSON for the per-case files; run.json stays indented for people.
    atomic_write_text(run_dir / "metrics.json", dumps(metrics, indent=None))
    atomic_write_text(run_dir / "comparison.json", dumps(comparison, indent=None))
    atomic_write_text(run_dir / "review-brief.json", dumps(build_review_brief(record, cases, gate)))
    if registry is None:  # the viewer comes from the registry that registered the type
        from .plugins import get_registry

        registry = get_registry()
    write_report(run_dir, record, btype, dataset.root, cases, metrics, comparison, registry, retired=dataset.retired)
    atomic_write_text(run_dir / "summary.md", render_summary(record, btype, metrics, cases))
