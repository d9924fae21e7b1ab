"""Pairing a candidate with a baseline and controls, and the regression gate (DESIGN §5).

Per profile, a case *regresses* when the candidate has an error the baseline did not have
(`BenchmarkType.is_worse`). A case is *unstable* when the baseline and any control disagree on
it; its regressions are reported but do not fail the gate. Target cases must be error-free.
Everything here is a pure function of scores, so `envirobench score` reproduces it exactly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .benchmark import BenchmarkType, CaseScore

PASSED = "passed"
FAILED = "failed"
BASELINE_REQUIRED = "baseline required"
UNAVAILABLE = "unavailable"

# Order of precedence when several gated profiles disagree on the overall status.
_OVERALL_ORDER = (FAILED, UNAVAILABLE, BASELINE_REQUIRED, PASSED)

BUCKETS = ("worse", "better", "noisy", "remaining", "unchanged-correct")

RunScores = Mapping[str, Mapping[str, CaseScore | None]]  # case ID -> profile -> score


def profile_available(profile: str, case_ids: Sequence[str], runs: Sequence[RunScores]) -> bool:
    """A profile is available only when it scores every case of every run."""
    return all(run.get(cid, {}).get(profile) is not None for run in runs for cid in case_ids)


def pair_profile(
    btype: BenchmarkType,
    profile: str,
    case_ids: Sequence[str],
    candidate: RunScores,
    baseline: RunScores | None,
    controls: Sequence[RunScores],
    targets: Sequence[str],
) -> dict[str, Any]:
    """Buckets and gate status of one profile."""
    runs = [candidate] + ([baseline] if baseline is not None else []) + list(controls)
    result: dict[str, Any] = {
        "profile": profile,
        "available": profile_available(profile, case_ids, runs),
        "regressions": [],
        "unstable_regressions": [],
        "improvements": [],
        "unstable": [],
        "failing_targets": [],
        "buckets": {name: [] for name in BUCKETS},
    }
    if not result["available"]:
        result["status"] = UNAVAILABLE
        return result
    buckets = result["buckets"]
    for cid in case_ids:
        cand = candidate[cid][profile]
        assert cand is not None  # guaranteed by profile_available
        if baseline is None:
            buckets["remaining" if cand.errors else "unchanged-correct"].append(cid)
            continue
        base = baseline[cid][profile]
        assert base is not None
        unstable = any(btype.disagree(profile, base, ctl[cid][profile]) for ctl in controls)  # type: ignore[arg-type]
        worse = btype.is_worse(profile, base, cand)
        better = btype.is_worse(profile, cand, base)
        if unstable:
            result["unstable"].append(cid)
        if worse:
            result["unstable_regressions" if unstable else "regressions"].append(cid)
        elif better:
            result["improvements"].append(cid)
        if unstable and (worse or better or btype.disagree(profile, base, cand)):
            buckets["noisy"].append(cid)
        elif worse:
            buckets["worse"].append(cid)
        elif better:
            buckets["better"].append(cid)
        elif cand.errors:
            buckets["remaining"].append(cid)
        else:
            buckets["unchanged-correct"].append(cid)
    result["failing_targets"] = [cid for cid in targets if candidate[cid][profile].errors]  # type: ignore[union-attr]
    if baseline is None:
        result["status"] = BASELINE_REQUIRED
    elif result["regressions"] or result["failing_targets"]:
        result["status"] = FAILED
    else:
        result["status"] = PASSED
    return result


def overall_status(statuses: Sequence[str]) -> str:
    for status in _OVERALL_ORDER:
        if status in statuses:
            return status
    return BASELINE_REQUIRED


def summarize_run(btype: BenchmarkType, case_ids: Sequence[str], scores: RunScores) -> dict[str, dict[str, float] | None]:
    """Headline metrics per profile (None where the profile cannot score every case)."""
    out: dict[str, dict[str, float] | None] = {}
    for profile in btype.PROFILES:
        if profile_available(profile, case_ids, [scores]):
            out[profile] = btype.summarize(profile, [scores[cid][profile] for cid in case_ids])  # type: ignore[misc]
        else:
            out[profile] = None
    return out
