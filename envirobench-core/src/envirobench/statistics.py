"""Intervals and paired tests: how far a run's headline metrics can be trusted.

docs/runs.md, "Statistics", says what the numbers mean; docs/architecture.md, "Pairing and the
gate", where they sit. In short:

- Each headline metric of a run gets a 95 % percentile-bootstrap interval: `RESAMPLES` resamples
  of the run's cases drawn with replacement, or of its clusters where the type groups dependent
  cases (`BenchmarkType.cluster`). The statistic of a resample is the type's own summary of the
  resampled cases' scores, so pooled counts (an F1 over every case) are resampled as counts.
- Against a baseline, each headline difference gets a paired interval (both runs summarised on
  the same resampled cases), and the cases that became error-free or gained errors an exact
  McNemar (binomial) test. These inform; the gate stays per case and never reads them.
- Leaderboards bootstrap each task's component score the same way, the repeats of one system
  on the same resampled cases, and combine the tasks of a category with their weights.

Everything is a pure function of the scores, so rescoring reproduces it: the draws come from
`random.Random` seeded with a string that names `SEED`, the purpose and the profile (or task),
and use only its `random()`, whose sequence Python keeps stable; the binomial sampler is ours.

Speed (docs/performance.md): units whose scores are equal are interchangeable, so units are
first grouped by their scores (equal scores are usually one shared object, `scoring.score_run`
interns them) and a resample is how many times each group was drawn. That is a multinomial draw,
made with one binomial per group when there are few groups, else by drawing units one by one.
When the type's summary is a function of metric sums (it overrides `summarize_totals`, not
`summarize`), a resample's statistic comes from the groups' sums without building the resampled
list of scores; otherwise `summarize` is called on the resampled scores themselves. Where units
are drawn one by one and numpy is installed (it is no dependency of core, and is not even
imported otherwise) it draws units, adds sums and builds resampled lists faster, doing exactly
what the pure-Python code does (the same words drawn, the same floats added in the same order),
so the numbers never depend on it: a test holds the two to equality. Without numpy, a 100,000-case
run whose every case scores differently takes about a minute per profile (docs/performance.md).

Length: the bootstrap (units, groups, draws, sums), its intervals and the paired test are one
method with its fast paths, each of which must give the numbers of the plain one.
"""

from __future__ import annotations

import math
import random
import sys
from array import array
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from functools import reduce
from itertools import repeat
from operator import add, is_, itemgetter, mul
from typing import Any

import attrs

from .benchmark import BenchmarkType, Case, CaseScore
from .identity import distinct
from .rundir import BootstrapSpec, Interval, PairedComparison

METHOD = "percentile"
RESAMPLES = 1000
SEED = 1729
CONFIDENCE = 0.95
# Binomial draws cost about this many times a unit drawn one by one (measured; only speed, never
# the outcome's distribution, depends on it).
BINOMIAL_COST = 10
# Exact integer arithmetic for the McNemar test up to this many changed cases; a sum in floats above.
EXACT_MCNEMAR = 10_000

Headline = dict[str, float]
Statistic = Callable[[Sequence[Headline | None]], Mapping[str, float] | None]


def bootstrap_spec(btype: BenchmarkType, units: Units) -> BootstrapSpec:
    """What metrics.json records of how its intervals were computed: `cluster` names the type's
    unit when some cluster of these cases holds more than one."""
    return BootstrapSpec(METHOD, RESAMPLES, SEED, CONFIDENCE, cluster=btype.CLUSTER_UNIT if units.clusters is not None else None)


def is_clustered(btype: BenchmarkType) -> bool:
    return type(btype).cluster is not BenchmarkType.cluster


def sums_summary(btype: BenchmarkType) -> bool:
    """Is the type's summary a function of metric sums (`summarize` as core defines it)?"""
    return type(btype).summarize is BenchmarkType.summarize


def counted_totals(counted: Iterable[tuple[CaseScore, int]]) -> dict[str, float] | None:
    """The sum of each metric over scores given with their number of cases, exactly the floats
    `metric_totals` adds up case by case, when that is sure whatever the order: every score has
    the same metrics, in the same order, every value is a whole number and every partial sum
    stays below 2**53 (so each addition is exact, and the sum is the integers' sum). Otherwise
    None, and the caller adds them case by case."""
    names: tuple[str, ...] | None = None
    totals: dict[str, int] = {}
    bound = 0
    for score, cases in counted:
        metrics = score.metrics
        if names is None:
            names = tuple(metrics)
            totals = dict.fromkeys(names, 0)
        elif tuple(metrics) != names:
            return None
        for name, value in metrics.items():
            if type(value) is float and value.is_integer():
                value = int(value)
            elif type(value) is not int:
                return None
            totals[name] += value * cases
            bound += abs(value) * cases
    if names is None or bound >= 2**53:
        return None
    return {name: float(total) for name, total in totals.items()}


# -- the units a bootstrap resamples ------------------------------------------------------------


@attrs.frozen
class Units:
    """The cases of a run in order, and the clusters a bootstrap resamples (positions into
    `case_ids`); `clusters` is None when every case is a cluster of its own."""

    case_ids: tuple[str, ...]
    clusters: tuple[tuple[int, ...], ...] | None = None

    @classmethod
    def of(cls, btype: BenchmarkType, cases: Mapping[str, Case]) -> Units:
        ids = tuple(cases)
        if not is_clustered(btype):
            return cls(ids)
        found: dict[str, list[int]] = {}
        clusters: list[list[int]] = []
        for i, case in enumerate(cases.values()):
            key = btype.cluster(case)
            if key is None:
                clusters.append([i])
                continue
            members = found.get(key)
            if members is None:
                members = found[key] = []
                clusters.append(members)
            members.append(i)
        if len(clusters) == len(ids):  # every case alone: resampled as cases, the same draws
            return cls(ids)
        return cls(ids, tuple(tuple(c) for c in clusters))

    def __len__(self) -> int:
        return len(self.case_ids) if self.clusters is None else len(self.clusters)

    def members(self) -> Iterable[Sequence[int]]:
        return ((i,) for i in range(len(self.case_ids))) if self.clusters is None else self.clusters


def profile_scores(units: Units, scores: Mapping[str, Mapping[str, CaseScore | None]], profile: str) -> list[CaseScore]:
    """One run's scores in one profile, in the order of `units.case_ids` (the profile must be available)."""
    out = list(map(itemgetter(profile), map(scores.__getitem__, units.case_ids)))
    assert not any(map(is_, out, repeat(None))), "intervals are computed for available profiles only"
    return out  # type: ignore[return-value]


# -- drawing resamples -------------------------------------------------------------------------


def stream(purpose: str, name: str) -> random.Random:
    """The random stream of one purpose ("headline", "paired", "leaderboard") and profile or task."""
    return random.Random(f"envirobench.bootstrap:{SEED}:{purpose}:{name}")


def binomial(rng: random.Random, n: int, p: float) -> int:
    """A Binomial(n, p) draw from `rng.random()` alone: Devroye's waiting-time method for small
    means, Hörmann's BTRS (transformed rejection with squeeze, 1993) otherwise."""
    if n <= 0 or p <= 0.0:
        return 0
    if p >= 1.0:
        return n
    if p > 0.5:
        return n - binomial(rng, n, 1.0 - p)
    random_ = rng.random
    if n * p < 10.0:
        c = math.log1p(-p)
        x = y = 0
        while True:
            y += math.floor(math.log(1.0 - random_()) / c) + 1
            if y > n:
                return x
            x += 1
    spq = math.sqrt(n * p * (1.0 - p))
    b = 1.15 + 2.53 * spq
    a = -0.0873 + 0.0248 * b + 0.01 * p
    c = n * p + 0.5
    vr = 0.92 - 4.2 / b
    alpha = (2.83 + 5.1 / b) * spq
    lpq = math.log(p / (1.0 - p))
    m = math.floor((n + 1) * p)
    h = math.lgamma(m + 1) + math.lgamma(n - m + 1)
    while True:
        u = random_() - 0.5
        v = random_()
        us = 0.5 - abs(u)
        if us <= 0.0:
            continue
        k = math.floor((2.0 * a / us + b) * u + c)
        if k < 0 or k > n:
            continue
        if us >= 0.07 and v <= vr:
            return k
        v *= alpha / (a / (us * us) + b)
        if v <= 0.0 or math.log(v) <= h - math.lgamma(k + 1) - math.lgamma(n - k + 1) + (k - m) * lpq:
            return k


@attrs.define
class Groups:
    """Units grouped by a key (their scores): the first unit of each group, each group's size,
    and the group of each unit."""

    first: list[int]
    sizes: list[int]
    group_of: list[int]

    @classmethod
    def of(cls, keys: Iterable[Hashable]) -> Groups:
        """Groups in order of their first unit, made in C (a 100,000-unit run has few groups)."""
        keys = list(keys)
        index = {key: g for g, key in enumerate(dict.fromkeys(keys))}
        group_of, counted = list(map(index.__getitem__, keys)), Counter(map(index.__getitem__, keys))
        firsts = dict(zip(reversed(keys), range(len(keys) - 1, -1, -1), strict=True))  # a reversed walk leaves the first
        return cls([firsts[key] for key in index], [counted[g] for g in range(len(index))], group_of)

    def one_by_one(self) -> bool:
        """Are units drawn one by one (many groups), rather than one binomial per group?"""
        return len(self.sizes) * BINOMIAL_COST >= len(self.group_of)

    def numpy(self) -> Any:
        """numpy where it pays, else None: for units drawn one by one (with few groups the
        pure-Python draws and sums are as fast, and importing numpy costs more than they do)."""
        return fast_numpy() if self.one_by_one() else None

    def draws(self, rng: random.Random, resamples: int = RESAMPLES) -> Iterator[Counts]:
        """For each resample, how many times each group was drawn (n units with replacement):
        a list, or a numpy array where numpy counted them (the same numbers)."""
        n = len(self.group_of)
        k = len(self.sizes)
        if not self.one_by_one():
            for _ in range(resamples):
                counts = [0] * k
                left, rest = n, n
                for g, size in enumerate(self.sizes):
                    if left == 0:
                        break
                    drawn = left if size == rest else binomial(rng, left, size / rest)
                    counts[g] = drawn
                    left -= drawn
                    rest -= size
                yield counts
            return
        # Unit by unit: n 32-bit words from `getrandbits`, the unit of word w being w * n >> 32.
        np = self.numpy()
        if np is not None:
            group_of = np.asarray(self.group_of, dtype=np.intp)
            for _ in range(resamples):
                words = np.frombuffer(random_words(rng, n), dtype="<u4").astype(np.uint64)
                yield np.bincount(group_of[(words * np.uint64(n)) >> np.uint64(32)], minlength=k)
            return
        groups = self.group_of
        for _ in range(resamples):
            counts = [0] * k
            for word in words_of(random_words(rng, n)):
                counts[groups[(word * n) >> 32]] += 1
            yield counts


Counts = Any  # list[int], or a numpy array of int64 where numpy is installed


def random_words(rng: random.Random, n: int) -> bytes:
    """n uniform 32-bit words, little-endian: the same bytes whoever reads them."""
    return rng.getrandbits(32 * n).to_bytes(4 * n, "little")


def words_of(data: bytes) -> array:
    words = array("I", data)
    assert words.itemsize == 4
    if sys.byteorder == "big":
        words.byteswap()
    return words


_NUMPY: Any = None


def fast_numpy() -> Any:
    """numpy when it is installed, else None. It only makes the same numbers faster: draws unit
    by unit, sums (added one after another, as `reduce` adds them) and resampled lists (docs/performance.md)."""
    global _NUMPY
    if _NUMPY is None:
        try:
            # numpy is no dependency of core: used when present, as an optional fast path.
            import numpy
        except ImportError:
            numpy = False
        _NUMPY = numpy
    return _NUMPY or None


# -- resampled headlines ------------------------------------------------------------------------


def resampled_headlines(
    btype: BenchmarkType,
    profile: str,
    units: Units,
    runs: Sequence[Sequence[CaseScore]],
    rng: random.Random,
    resamples: int = RESAMPLES,
) -> Iterator[list[Headline | None]]:
    """For each resample of the units, each run's headline over the resampled cases (None where
    the type's summary fails on it). Every run is summarised on the same resampled cases: `runs`
    are one score per case of `units.case_ids` each."""
    if not len(units):
        return
    if sums_summary(btype):
        yield from _from_sums(btype, profile, units, runs, rng, resamples)
    else:
        yield from _from_scores(btype, profile, units, runs, rng, resamples)


def _from_scores(btype: BenchmarkType, profile: str, units: Units, runs: Sequence[Sequence[CaseScore]], rng: random.Random, resamples: int) -> Iterator[list[Headline | None]]:
    """The general path: `summarize` over each resample's scores, the units of each group one
    after another (so a summary must not depend on the order of the scores)."""
    members = list(units.members())
    groups = Groups.of(tuple(id(run[i]) for run in runs for i in unit) for unit in members)
    contents = [[[run[i] for i in members[u]] for u in groups.first] for run in runs]
    np = groups.numpy()
    singles = None
    if np is not None and units.clusters is None:
        singles = []
        for scores in contents:
            column = np.empty(len(scores), dtype=object)
            column[:] = [unit[0] for unit in scores]
            singles.append(column)
    for counts in groups.draws(rng, resamples):
        out: list[Headline | None] = []
        for r, scores in enumerate(contents):
            if singles is not None and not isinstance(counts, list):
                resample = np.repeat(singles[r], counts).tolist()
            else:
                resample = []
                for g, drawn in enumerate(counts):
                    if drawn:
                        resample += scores[g] * int(drawn)
            out.append(_safely(btype.summarize, profile, resample))
        yield out


def _from_sums(btype: BenchmarkType, profile: str, units: Units, runs: Sequence[Sequence[CaseScore]], rng: random.Random, resamples: int) -> Iterator[list[Headline | None]]:
    """The fast path: `summarize_totals` over each resample's metric sums, each the groups' sums
    times their counts added one after another, in group order."""
    if units.clusters is None:
        groups = case_groups(runs)
        sizes = [1] * len(groups.first)
        firsts_by_run = [[dict(run[u].metrics) for u in groups.first] for run in runs]
    else:
        members = list(units.members())
        per_run = [_unit_sums(run, members) for run in runs]
        groups = Groups.of(zip(*map(_codes, per_run), strict=True))
        sizes = [len(members[u]) for u in groups.first]
        firsts_by_run = [[dict(sums[u][1]) for u in groups.first] for sums in per_run]
    np = groups.numpy()
    columns = []
    for firsts in firsts_by_run:
        names = list(dict.fromkeys(name for totals in firsts for name in totals))
        run_columns = []
        for name in names:
            values = [t.get(name, 0.0) for t in firsts]
            present = None if all(name in t for t in firsts) else [int(name in t) for t in firsts]
            if np is not None:
                run_columns.append((name, values, present, np.asarray(values, dtype=np.float64), None if present is None else np.asarray(present, dtype=np.int64)))
            else:
                run_columns.append((name, values, present, None, None))
        columns.append(run_columns)
    same_size = len(set(sizes)) == 1
    for counts in groups.draws(rng, resamples):
        in_numpy = not isinstance(counts, list)
        if in_numpy:
            as_floats = counts.astype(np.float64)
        cases = len(units) * sizes[0] if same_size else int(sum(map(mul, counts, sizes)))
        out: list[Headline | None] = []
        for run_columns in columns:
            totals = {}
            for name, values, present, np_values, np_present in run_columns:
                if in_numpy:
                    if np_present is None or (counts * np_present).any():
                        # add.accumulate adds one after another, as reduce does below: the same float.
                        totals[name] = float(np.add.accumulate(as_floats * np_values)[-1])
                elif present is None or any(map(mul, counts, present)):
                    totals[name] = reduce(add, map(mul, counts, values))
            out.append(_safely(btype.summarize_totals, profile, totals, cases) if cases else {})
        yield out


def case_groups(runs: Sequence[Sequence[CaseScore]]) -> Groups:
    """Cases (each a unit of its own) grouped by their metrics in every run, in order of their
    first case: grouped first by their score objects (equal scores are mostly one object:
    scoring.SharedScores), in C by Groups.of, and only then those groups merged by the objects'
    metrics, so a 100,000-case run takes a few passes in C and a Python step per distinct
    combination of objects, not per case."""
    by_objects = Groups.of(zip(*[map(id, run) for run in runs], strict=True))  # the objects stay alive in `runs`
    merged: dict[tuple[Any, ...], int] = {}
    first: list[int] = []
    sizes: list[int] = []
    group_of_objects: list[int] = []
    for unit, size in zip(by_objects.first, by_objects.sizes, strict=True):
        group = merged.setdefault(tuple(tuple(run[unit].metrics.items()) for run in runs), len(first))
        if group == len(first):
            first.append(unit)
            sizes.append(0)
        sizes[group] += size
        group_of_objects.append(group)
    return Groups(first, sizes, list(map(group_of_objects.__getitem__, by_objects.group_of)))


def _unit_sums(scores: Sequence[CaseScore], members: Sequence[Sequence[int]]) -> list[tuple[int, tuple[tuple[str, float], ...]]]:
    """Each unit's number of cases and metric sums (in order of first appearance), as a key."""
    cache: dict[int, tuple[tuple[str, float], ...]] = {}
    out = []
    for unit in members:
        if len(unit) == 1:
            score = scores[unit[0]]
            key = cache.get(id(score))
            if key is None:
                key = cache[id(score)] = tuple(score.metrics.items())
            out.append((1, key))
            continue
        values: dict[str, list[float]] = {}
        for i in unit:
            for name, value in scores[i].metrics.items():
                values.setdefault(name, []).append(value)
        out.append((len(unit), tuple((name, math.fsum(v)) for name, v in values.items())))
    return out


def _codes(keys: list[Any]) -> list[int]:
    """Each key as a small number, equal keys alike; each distinct object hashed once (see _unit_sums)."""
    canonical: dict[Any, int] = {}
    code_of = {i: canonical.setdefault(k, len(canonical)) for i, k in distinct(keys).items()}
    return list(map(code_of.__getitem__, map(id, keys)))


def _safely(summary: Callable[..., Headline], *args: Any) -> Headline | None:
    try:
        return summary(*args)
    except ArithmeticError:  # a summary undefined on this resample (a zero denominator, say)
        return None


# -- intervals ------------------------------------------------------------------------------------


def quantile(ordered: Sequence[float], q: float) -> float:
    """The q-quantile of sorted values, interpolated linearly (numpy.percentile's default)."""
    h = (len(ordered) - 1) * q
    below = math.floor(h)
    if below + 1 >= len(ordered):
        return ordered[-1]
    a, b, t = ordered[below], ordered[below + 1], h - below
    diff = b - a
    return b - diff * (1.0 - t) if t >= 0.5 else a + diff * t


def percentile_interval(values: Iterable[float], confidence: float = CONFIDENCE) -> Interval | None:
    """The percentile interval of resampled statistics (None when there are none)."""
    ordered = sorted(values)
    if not ordered:
        return None
    alpha = (1.0 - confidence) / 2.0
    # + 0.0 turns a -0.0 (a difference of equal numbers) into 0.0, which prints without a sign.
    return Interval(quantile(ordered, alpha) + 0.0, quantile(ordered, 1.0 - alpha) + 0.0)


def intervals(statistics: Iterable[Mapping[str, float] | None]) -> dict[str, Interval]:
    """Per metric, the percentile interval of its resampled values. A resample in which a metric
    is undefined (left out, or not finite) is left out of that metric's interval."""
    values: dict[str, list[float]] = {}
    for stat in statistics:
        if stat is None:
            continue
        for name, value in stat.items():
            if math.isfinite(value):
                values.setdefault(name, []).append(value)
    out = {}
    for name, found in values.items():
        interval = percentile_interval(found)
        if interval is not None:
            out[name] = interval
    return out


def headline_intervals(btype: BenchmarkType, profile: str, units: Units, scores: Sequence[CaseScore]) -> dict[str, Interval]:
    """The interval of each headline metric of one run in one profile."""
    return intervals(run[0] for run in resampled_headlines(btype, profile, units, [scores], stream("headline", profile)))


def paired_comparison(btype: BenchmarkType, profile: str, units: Units, candidate: Sequence[CaseScore], baseline: Sequence[CaseScore]) -> PairedComparison:
    """The candidate against its baseline: paired intervals of the headline differences and the
    exact McNemar test on the cases that became error-free (better) or gained errors (worse)."""

    def change(pair: Sequence[Headline | None]) -> Headline | None:
        cand, base = pair
        return None if cand is None or base is None else {m: cand[m] - base[m] for m in cand if m in base}

    resampled = resampled_headlines(btype, profile, units, [candidate, baseline], stream("paired", profile))
    pairs = Counter(zip(map(id, candidate), map(id, baseline), strict=True))  # each pair of score objects once
    objects = distinct(candidate) | distinct(baseline)
    better = sum(n for (c, b), n in pairs.items() if objects[b].errors and not objects[c].errors)
    worse = sum(n for (c, b), n in pairs.items() if objects[c].errors and not objects[b].errors)
    return PairedComparison(change=intervals(map(change, resampled)), better=better, worse=worse, p_value=mcnemar(better, worse))


# -- the exact McNemar test ------------------------------------------------------------------------


def mcnemar(better: int, worse: int) -> float:
    """Two-sided exact McNemar test: the probability, were better and worse equally likely, of a
    split of the `better + worse` changed cases at least as uneven (a binomial test with p = 1/2)."""
    m, k = better + worse, min(better, worse)
    if better == worse:
        return 1.0
    if m <= EXACT_MCNEMAR:
        tail, term = 0, 1
        for i in range(k + 1):
            tail += term
            term = term * (m - i) // (i + 1)
        return min(1.0, 2 * tail / (1 << m))  # int / int is correctly rounded
    # Above that, the tail in floats relative to its largest term, P(X = k).
    log_pk = math.lgamma(m + 1) - math.lgamma(k + 1) - math.lgamma(m - k + 1) - m * math.log(2.0)
    total, term = 0.0, 1.0
    for i in range(k, -1, -1):
        total += term
        term *= i / (m - i + 1)
        if term < total * 1e-17:
            break
    return min(1.0, 2.0 * math.exp(log_pk) * total)


def format_interval(interval: Interval | None, signed: bool = False) -> str:
    """An interval after its number, as the summary and the report show it: " [0.7100, 0.8300]"
    (signed, for a change: " [-0.0400, +0.0200]"); nothing for none."""
    if interval is None:
        return ""
    spec = "+.4f" if signed else ".4f"
    return f" [{interval.low:{spec}}, {interval.high:{spec}}]"


def format_p(p: float) -> str:
    """A p-value as the summary and the report show it: "p = 0.0002", "p < 0.0001", "p = 1"."""
    if p < 0.0001:
        return "p < 0.0001"
    return "p = 1" if p >= 0.99995 else f"p = {p:.4f}"
