"""Pairing a candidate with a baseline and controls, and the regression gate.

Per profile, a case *regresses* when the candidate has an error the baseline did not have
(`BenchmarkType.is_worse`). A case is *unstable* when the baseline and any control disagree on
it; its regressions are reported but do not fail the gate. Target cases must be error-free.
Everything here is a pure function of scores, so `envirobench score` reproduces it exactly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs

from .benchmark import BenchmarkType, Case, CaseScore
from .errors import EnviroBenchError
from .rundir import BUCKETS, GateRecord, GateStatus

PASSED = "passed"
FAILED = "failed"
BASELINE_REQUIRED = "baseline required"
UNAVAILABLE = "unavailable"

# Order of precedence when several gated profiles disagree on the overall status.
_OVERALL_ORDER = (FAILED, UNAVAILABLE, BASELINE_REQUIRED, PASSED)

RunScores = Mapping[str, Mapping[str, CaseScore | None]]  # case ID -> profile -> score


@attrs.frozen
class ProfilePairing:
    """One profile of a candidate paired with its baseline and controls.

    `buckets` sorts every case (when the profile is available): worse, better, noisy (changed
    but unstable), remaining (errors shared with the baseline, or any errors without one) and
    unchanged-correct."""

    profile: str
    available: bool
    status: GateStatus
    regressions: tuple[str, ...] = ()
    unstable_regressions: tuple[str, ...] = ()
    improvements: tuple[str, ...] = ()
    unstable: tuple[str, ...] = ()
    failing_targets: tuple[str, ...] = ()
    buckets: Mapping[str, tuple[str, ...]] = attrs.field(factory=lambda: {name: () for name in BUCKETS})

    def bucket_of(self) -> dict[str, str]:
        """Case ID -> its bucket."""
        return {cid: name for name, ids in self.buckets.items() for cid in ids}


@attrs.frozen
class Gate:
    """The regression gate over the gated profiles; `by_profile` pairs every profile."""

    status: GateStatus
    profiles: tuple[str, ...]
    targets: tuple[str, ...]
    by_profile: Mapping[str, ProfilePairing]

    def record(self) -> GateRecord:
        """What run.json keeps of the gate."""
        return GateRecord(
            status=self.status,
            profiles=self.profiles,
            targets=self.targets,
            by_profile={p: g.status for p, g in self.by_profile.items()},
            regressions={p: self.by_profile[p].regressions for p in self.profiles},
            failing_targets={p: self.by_profile[p].failing_targets for p in self.profiles},
        )


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
) -> ProfilePairing:
    """Buckets and gate status of one profile."""
    runs = [candidate] + ([baseline] if baseline is not None else []) + list(controls)
    if not profile_available(profile, case_ids, runs):
        return ProfilePairing(profile, False, UNAVAILABLE)
    regressions: list[str] = []
    unstable_regressions: list[str] = []
    improvements: list[str] = []
    unstable_cases: list[str] = []
    buckets: dict[str, list[str]] = {name: [] for name in BUCKETS}
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
            unstable_cases.append(cid)
        if worse:
            (unstable_regressions if unstable else regressions).append(cid)
        elif better:
            improvements.append(cid)
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
    failing_targets = [cid for cid in targets if candidate[cid][profile].errors]  # type: ignore[union-attr]
    if baseline is None:
        status = BASELINE_REQUIRED
    elif regressions or failing_targets:
        status = FAILED
    else:
        status = PASSED
    return ProfilePairing(
        profile,
        True,
        status,  # type: ignore[arg-type]
        tuple(regressions),
        tuple(unstable_regressions),
        tuple(improvements),
        tuple(unstable_cases),
        tuple(failing_targets),
        {name: tuple(ids) for name, ids in buckets.items()},
    )


def pair_and_gate(
    btype: BenchmarkType,
    case_ids: Sequence[str],
    candidate: RunScores,
    baseline: RunScores | None,
    controls: Sequence[RunScores],
    gates: Sequence[str],
    targets: Sequence[str],
) -> Gate:
    """Pair every profile; the gate's status comes from the gated ones."""
    by_profile = {
        profile: pair_profile(btype, profile, case_ids, candidate, baseline, controls, targets)
        for profile in btype.PROFILES
    }
    status = overall_status([by_profile[p].status for p in gates])
    return Gate(status, tuple(gates), tuple(targets), by_profile)  # type: ignore[arg-type]


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


def check_gates_and_targets(btype: BenchmarkType, gates: Sequence[str], targets: Sequence[str], cases: Mapping[str, Case], retired: Mapping[str, str], partial: Mapping[str, Case] | None = None) -> tuple[str, ...]:
    """The gated profiles (default: the type's first); every gate and target checked to exist (and,
    in a partial run, to be among its `partial` cases)."""
    for profile in gates:
        if profile not in btype.PROFILES:
            raise EnviroBenchError(f"--gate {profile!r} is not a profile of {btype.ID} ({', '.join(btype.PROFILES)})")
    for cid in targets:
        if cid in retired:
            raise EnviroBenchError(f"--target-case {cid!r} is retired from the dataset ({retired[cid]})")
        if cid not in cases:
            raise EnviroBenchError(f"--target-case {cid!r} is not a case of the dataset")
        if partial is not None and cid not in partial:
            raise EnviroBenchError(f"--target-case {cid!r} is not one of the cases of this partial run")
    return tuple(gates) or (btype.PROFILES[0],)
