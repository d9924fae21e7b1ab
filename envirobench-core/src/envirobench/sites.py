"""Per-site rows of a site-tier run: each site's score beside what it cost and how long it took.

A system that is accurate only at a high price per site is a different product from one that is
accurate cheaply, so the summary and the report of a site-tier run show, for every site (one case),
its primary measure in the default profile next to its cost and wall time (run.json's
`per_site`: the adapter's per-case figures, or the run's totals shared equally, marked averaged).
"""

from __future__ import annotations

from typing import Any

import attrs

from .benchmark import BenchmarkType
from .rundir import CANDIDATE, Metrics, RunRecord


@attrs.frozen
class SiteRow:
    case: str
    score: float | None  # the primary measure of the default profile on this site alone
    cost_usd: float | None
    wall_time_s: float | None
    cost_averaged: bool
    wall_averaged: bool


def site_rows(record: RunRecord, btype: BenchmarkType, metrics: Metrics) -> list[SiteRow]:
    """One row per site of a site-tier run, in the run's case order; empty for other runs."""
    if not record.per_site:
        return []
    profile, primary = btype.PROFILES[0], btype.HEADLINE[0]
    rows = []
    for usage in record.per_site:
        case = metrics.cases.get(usage.case)
        score = (case.runs.get(CANDIDATE) or {}).get(profile) if case else None
        value: Any = btype.summarize(profile, [score]).get(primary) if score is not None else None
        rows.append(SiteRow(usage.case, value, usage.cost_usd, usage.wall_time_s, usage.cost_averaged, usage.wall_averaged))
    return rows
