"""The files a scored run writes, but the report: metrics.json, comparison.json,
review-brief.json and summary.md (report.py writes report.html from the first two).

All are pure functions of the scores, the answer key and the saved predictions (no clocks), so
rescoring an unchanged run reproduces them byte for byte.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .benchmark import BenchmarkType, Case
from .converter import unstructure
from .jsonio import atomic_write_text
from .pairing import Gate, summarize_run
from .rundir import (
    BASELINE,
    CANDIDATE,
    COMPARISON_FORMAT,
    METRICS_FORMAT,
    REVIEW_BRIEF_FORMAT,
    REVIEW_GROUPS,
    SUMMARY_FILE,
    BriefGroups,
    CaseMetrics,
    ComparedRunLabel,
    Comparison,
    ComparisonCase,
    GateSummary,
    Metrics,
    MetricsBenchmark,
    MetricsDataset,
    ProfileMetrics,
    ReviewBrief,
    RunRecord,
    write_comparison,
    write_metrics,
    write_review_brief,
)
from .scoring import ComparedRun, RunScores
from .templating import environment


def build_metrics(
    record: RunRecord,
    btype: BenchmarkType,
    cases: Mapping[str, Case],
    scores: RunScores,
    baseline: ComparedRun | None,
    controls: Sequence[ComparedRun],
    gate: Gate,
) -> Metrics:
    case_ids = list(cases)
    runs = [(CANDIDATE, scores)] + ([(BASELINE, baseline.scores)] if baseline else []) + [(c.label, c.scores) for c in controls]
    headlines = {label: summarize_run(btype, case_ids, run_scores) for label, run_scores in runs}
    bucket_index: dict[str, dict[str, str]] = {}
    profiles: dict[str, ProfileMetrics] = {}
    for profile in btype.PROFILES:
        pairing = gate.by_profile[profile]
        bucket_index[profile] = pairing.bucket_of()
        cand = headlines[CANDIDATE][profile]
        base = headlines[BASELINE][profile] if baseline else None
        profiles[profile] = ProfileMetrics(
            available=pairing.available,
            gated=profile in gate.profiles,
            status=pairing.status,
            headline=cand,
            baseline_headline=base,
            change={m: cand[m] - base[m] for m in cand if m in base} if cand and base else None,
            controls_headline={c.label: headlines[c.label][profile] for c in controls},
            buckets={name: len(ids) for name, ids in pairing.buckets.items()},
            regressions=pairing.regressions,
            unstable_regressions=pairing.unstable_regressions,
            improvements=pairing.improvements,
            unstable=pairing.unstable,
            failing_targets=pairing.failing_targets,
        )
    per_case = {
        cid: CaseMetrics(
            category=case.category,
            bucket={p: bucket_index[p].get(cid) for p in btype.PROFILES},  # type: ignore[misc]
            runs={label: {p: run_scores[cid][p] for p in btype.PROFILES} for label, run_scores in runs},
        )
        for cid, case in cases.items()
    }
    identity = record.dataset
    return Metrics(
        format=METRICS_FORMAT,
        run_id=record.run_id,
        benchmark=MetricsBenchmark(btype.ID, btype.SCORING_VERSION, tuple(btype.PROFILES), tuple(btype.HEADLINE)),
        dataset=MetricsDataset(identity.id, identity.version, identity.digest, identity.input_digest, identity.answer_digest),
        runs=tuple(label for label, _ in runs),
        gate=GateSummary(gate.status, gate.profiles, gate.targets),
        profiles=profiles,
        cases=per_case,
    )


def build_comparison(
    record: RunRecord,
    cases: Mapping[str, Case],
    answers: Mapping[str, Any],
    predictions: Mapping[str, Any],
    baseline: ComparedRun | None,
    controls: Sequence[ComparedRun],
) -> Comparison:
    runs = [(CANDIDATE, record.run_id, predictions)]
    if baseline:
        runs.append((BASELINE, baseline.run_id, baseline.predictions))
    runs += [(c.label, c.run_id, c.predictions) for c in controls]
    return Comparison(
        format=COMPARISON_FORMAT,
        run_id=record.run_id,
        runs=tuple(ComparedRunLabel(label, run_id) for label, run_id, _ in runs),
        cases=tuple(
            ComparisonCase(
                id=cid,
                category=case.category,
                input=unstructure(case.input),
                answer=unstructure(answers[cid]),
                predictions={label: unstructure(preds[cid]) if cid in preds else None for label, _, preds in runs},
            )
            for cid, case in cases.items()
        ),
    )


def build_review_brief(record: RunRecord, cases: Mapping[str, Case], gate: Gate) -> ReviewBrief:
    """Changed cases grouped into worse, better, noisy and remaining, by category, per gated profile."""
    profiles = {}
    for profile in gate.profiles:
        buckets = gate.by_profile[profile].buckets
        profiles[profile] = BriefGroups(**{group: _by_category(buckets[group], cases) for group in REVIEW_GROUPS})
    return ReviewBrief(
        format=REVIEW_BRIEF_FORMAT,
        run_id=record.run_id,
        gate=gate.status,
        baseline=record.pairing.baseline.run_id if record.pairing.baseline else None,
        profiles=profiles,
    )


def _by_category(ids: Sequence[str], cases: Mapping[str, Case]) -> dict[str, tuple[str, ...]]:
    grouped: dict[str, list[str]] = {}
    for cid in ids:
        grouped.setdefault(cases[cid].category, []).append(cid)
    return {category: tuple(grouped[category]) for category in sorted(grouped)}


_ENV = environment(html=False)


def _md(value: Any) -> str:
    """Escape text from datasets and adapters so it cannot change the Markdown's structure."""
    text = str(value)
    for char in "\\`*_{}[]<>()#+!|":
        text = text.replace(char, "\\" + char)
    return text.replace("\n", " ")


_ENV.filters["md"] = _md
_ENV.filters["signed"] = lambda v: "n/a" if v is None else f"{v:+.4f}"


def render_summary(record: RunRecord, btype: BenchmarkType, metrics: Metrics, cases: Mapping[str, Case], limit: int = 25) -> str:
    def error_sets(cid: str, profile: str) -> tuple[set[tuple[Any, ...]], set[tuple[Any, ...]]]:
        runs = metrics.cases[cid].runs
        cand = runs[CANDIDATE][profile]
        base = (runs.get(BASELINE) or {}).get(profile)
        return set(cand.errors if cand else ()), set(base.errors if base else ())

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
    record: RunRecord,
    btype: BenchmarkType,
    cases: Mapping[str, Case],
    answers: Mapping[str, Any],
    predictions: Mapping[str, Any],
    scores: RunScores,
    baseline: ComparedRun | None,
    controls: Sequence[ComparedRun],
    gate: Gate,
) -> tuple[Metrics, Comparison]:
    """Write metrics.json, comparison.json, review-brief.json and summary.md; return the first two
    (the report is built from them)."""
    metrics = build_metrics(record, btype, cases, scores, baseline, controls, gate)
    comparison = build_comparison(record, cases, answers, predictions, baseline, controls)
    write_metrics(run_dir, metrics)
    write_comparison(run_dir, comparison)
    write_review_brief(run_dir, build_review_brief(record, cases, gate))
    atomic_write_text(run_dir / SUMMARY_FILE, render_summary(record, btype, metrics, cases))
    return metrics, comparison
