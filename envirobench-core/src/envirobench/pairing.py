"""Pairing a candidate with a baseline and controls, and the regression gate.

Per profile, a case *regresses* when the candidate has an error the baseline did not have
(`BenchmarkType.is_worse`). A case is *unstable* when the baseline and any control disagree on
it; its regressions are reported but do not fail the gate. Target cases must be error-free.
Everything here is a pure function of scores, so `envirobench score` reproduces it exactly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import compress
from operator import itemgetter
from typing import Any

import attrs

from .benchmark import BenchmarkType, Case, CaseScore
from .errors import EnviroBenchError
from .identity import distinct
from .rundir import BUCKETS, GateRecord, GateStatus
from .statistics import counted_totals, sums_summary

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
    return _scores_every_case(profile, (list(map(run.get, case_ids)) for run in runs))


def _scores_every_case(profile: str, columns: Iterable[Sequence[Mapping[str, CaseScore | None] | None]]) -> bool:
    """Whether every run's column of {profile: score} mappings (None: the run lacks the case) has
    a score of `profile` for every case; each distinct mapping looked at once (runs share them:
    scoring.SharedScores)."""
    for column in columns:
        for scores in distinct(column).values():
            if scores is None or scores.get(profile) is None:
                return False
    return True


def _default_comparisons(btype: BenchmarkType) -> bool:
    """Does the type compare scores as core does (by their errors alone)? Then the verdict on
    a case is a function of its score objects, and is worked out once per combination of them."""
    return type(btype).is_worse is BenchmarkType.is_worse and type(btype).disagree is BenchmarkType.disagree


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
    return _Cases(case_ids, candidate, baseline, controls).pair(btype, profile, targets)


class _Cases:
    """The cases of a candidate and its compared runs, by combination of their {profile: score}
    mappings. Runs share equal mappings (scoring.SharedScores), so a 100,000-case run has a few
    combinations: each is judged once per profile, and every list of cases is then taken, in
    case order, from the judgements in C (itertools.compress), never case by case in Python."""

    def __init__(self, case_ids: Sequence[str], candidate: RunScores, baseline: RunScores | None, controls: Sequence[RunScores]):
        self.ids = list(case_ids)
        self.candidate = candidate
        self.has_baseline = baseline is not None
        runs = [candidate] + ([baseline] if baseline is not None else []) + list(controls)
        self.columns = [list(map(run.get, self.ids)) for run in runs]  # None: the run lacks the case
        self.keys = list(zip(*[map(id, column) for column in self.columns], strict=True))  # the mappings stay alive in the runs
        self.first = dict(zip(self.keys, range(len(self.ids)), strict=True))  # each combination, at a case that has it

    def pair(self, btype: BenchmarkType, profile: str, targets: Sequence[str]) -> ProfilePairing:
        # Each combination's mappings stand for every case that has it.
        if not _scores_every_case(profile, ([column[i] for i in self.first.values()] for column in self.columns)):
            return ProfilePairing(profile, False, UNAVAILABLE)
        compared = self.columns if self.has_baseline else self.columns[:1]  # without a baseline, controls change nothing
        if _default_comparisons(btype):
            found = {key: _flags(btype, profile, *(column[i][profile] for column in compared)) for key, i in self.first.items()}
            flags = list(map(found.__getitem__, self.keys))
            kinds = set(found.values())
        else:
            flags = [_flags(btype, profile, *(m[profile] for m in mappings)) for mappings in zip(*compared, strict=True)]
            kinds = set(flags)
        # A list no kind of case is on (most are) is empty, one every kind is on holds every case:
        # only the others are taken case by case.
        lists = [() if not any(kind[j] for kind in kinds) else tuple(self.ids) if all(kind[j] for kind in kinds)
                 else tuple(compress(self.ids, map(itemgetter(j), flags))) for j in range(len(_FLAGS))]
        unstable, regressions, unstable_regressions, improvements = lists[:4]
        failing_targets = tuple(cid for cid in targets if self.candidate[cid][profile].errors)  # type: ignore[union-attr]
        if not self.has_baseline:
            status = BASELINE_REQUIRED
        elif regressions or failing_targets:
            status = FAILED
        else:
            status = PASSED
        return ProfilePairing(profile, True, status, regressions, unstable_regressions, improvements, unstable,  # type: ignore[arg-type]
                              failing_targets, dict(zip(BUCKETS, lists[4:], strict=True)))


# What a case's flags say, in order: the four lists of ProfilePairing, then its bucket.
_FLAGS = ("unstable", "regression", "unstable regression", "improvement", *BUCKETS)


def _flags(btype: BenchmarkType, profile: str, cand: CaseScore, base: CaseScore | None = None, *controls: CaseScore) -> tuple[bool, ...]:
    """One case against its baseline (None: there is none) and controls, as _FLAGS."""
    if base is None:
        bucket = "remaining" if cand.errors else "unchanged-correct"
        return (False, False, False, False, *(name == bucket for name in BUCKETS))
    unstable = any(btype.disagree(profile, base, ctl) for ctl in controls)
    worse = btype.is_worse(profile, base, cand)
    better = btype.is_worse(profile, cand, base)
    if unstable and (worse or better or btype.disagree(profile, base, cand)):
        bucket = "noisy"
    elif worse:
        bucket = "worse"
    elif better:
        bucket = "better"
    elif cand.errors:
        bucket = "remaining"
    else:
        bucket = "unchanged-correct"
    return (unstable, worse and not unstable, worse and unstable, better and not worse, *(name == bucket for name in BUCKETS))


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
    cases = _Cases(case_ids, candidate, baseline, controls)
    by_profile = {profile: cases.pair(btype, profile, targets) for profile in btype.PROFILES}
    status = overall_status([by_profile[p].status for p in gates])
    return Gate(status, tuple(gates), tuple(targets), by_profile)  # type: ignore[arg-type]


def overall_status(statuses: Sequence[str]) -> str:
    for status in _OVERALL_ORDER:
        if status in statuses:
            return status
    return BASELINE_REQUIRED


def summarize_run(btype: BenchmarkType, case_ids: Sequence[str], scores: RunScores) -> dict[str, dict[str, float] | None]:
    """Headline metrics per profile (None where the profile cannot score every case).

    A type summarised from metric sums (`summarize` as core defines it) whose sums are exact in
    any order (statistics.counted_totals) is summarised from each distinct score's number of
    cases, counted in C: the same floats as adding the run case by case, without doing it."""
    column = list(map(scores.get, case_ids))
    cases_of = Counter(map(id, column))  # each distinct {profile: score} mapping's cases (runs share them)
    mappings = distinct(column)
    out: dict[str, dict[str, float] | None] = {}
    for profile in btype.PROFILES:
        if not _scores_every_case(profile, [list(mappings.values())]):
            out[profile] = None
            continue
        totals = None
        if column and sums_summary(btype):
            counted: dict[int, list[Any]] = {}  # each score object once, in order of its first case
            for key, mapping in mappings.items():
                score = mapping[profile]
                entry = counted.get(id(score))
                if entry is None:
                    counted[id(score)] = [score, cases_of[key]]
                else:
                    entry[1] += cases_of[key]
            totals = counted_totals(map(tuple, counted.values()))
        if totals is not None:
            out[profile] = btype.summarize_totals(profile, totals, len(column)) if column else {}
        else:
            out[profile] = btype.summarize(profile, list(map(itemgetter(profile), column)))
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
