"""Intervals and paired tests (envirobench.statistics, docs/runs.md "Statistics"), checked against
numpy and scipy: the percentile of the same resampled statistics, the case bootstrap's
distribution, the binomial sampler's, and the exact binomial test. The golden numbers at the end
pin the draws of the fixed seed: a change to them changes every run's metrics.json."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys

import numpy as np
import pytest
import scipy.stats

from envirobench import statistics as stats
from envirobench.benchmark import BenchmarkType, Case, CaseScore, check_type_class, f1
from envirobench.rundir import Interval
from envirobench.testing import CountWords

RIGHT = CaseScore((), {"accuracy": 1.0})
WRONG = CaseScore((("wrong-count", "over"),), {"accuracy": 0.0})


def units(n: int) -> stats.Units:
    return stats.Units(tuple(f"c{i:04d}" for i in range(n)))


class PooledF1(CountWords):
    """F1 over the pooled counts of every case: not a mean of per-case numbers (the general path:
    `summarize` is overridden)."""

    def summarize(self, profile, scores):
        tp = sum(s.metrics["tp"] for s in scores)
        fp = sum(s.metrics["fp"] for s in scores)
        fn = sum(s.metrics["fn"] for s in scores)
        return {"f1": f1(tp, fp, fn), "exact": sum(s.metrics["exact"] for s in scores) / len(scores)}


class PooledF1FromSums(CountWords):
    """The same headline, declared as a function of the metric sums (the fast path)."""

    def summarize_totals(self, profile, totals, cases):
        return {"f1": f1(totals["tp"], totals["fp"], totals["fn"]), "exact": totals["exact"] / cases}


def counts_score(tp: int, fp: int, fn: int) -> CaseScore:
    errors = (("miss",),) * (fp + fn > 0)
    return CaseScore(errors, {"tp": float(tp), "fp": float(fp), "fn": float(fn), "exact": float(fp + fn == 0)})


def pooled_cases(n: int, seed: int = 7) -> list[CaseScore]:
    """n cases of tables with a few separators each; equal counts share one score, as in a run."""
    rng = random.Random(seed)
    shared: dict[tuple[int, int, int], CaseScore] = {}
    out = []
    for _ in range(n):
        key = (rng.randint(2, 9), rng.choice((0, 0, 0, 1, 2)), rng.choice((0, 0, 1, 3)))
        out.append(shared.setdefault(key, counts_score(*key)))
    return out


# -- the percentile --------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 10, 39, 40, 41, 1000, 1001])
def test_the_percentile_interval_is_numpys(n):
    rng = random.Random(n)
    values = [rng.choice((rng.random(), round(rng.random(), 1))) for _ in range(n)]  # ties too
    interval = stats.percentile_interval(values)
    expected = np.percentile(values, [2.5, 97.5])
    assert interval.low == pytest.approx(expected[0], rel=1e-12, abs=1e-15)
    assert interval.high == pytest.approx(expected[1], rel=1e-12, abs=1e-15)
    assert stats.percentile_interval([]) is None


def test_the_interval_of_resampled_statistics_is_numpys_percentile_of_them():
    scores = pooled_cases(300)
    resampled = [h[0] for h in stats.resampled_headlines(PooledF1(), "exact", units(300), [scores], stats.stream("headline", "exact"))]
    assert len(resampled) == stats.RESAMPLES
    got = stats.headline_intervals(PooledF1(), "exact", units(300), scores)
    for name in ("f1", "exact"):
        low, high = np.percentile([h[name] for h in resampled], [2.5, 97.5])
        assert got[name].low == pytest.approx(low, rel=1e-12) and got[name].high == pytest.approx(high, rel=1e-12)


# -- the case bootstrap, against references -------------------------------------------------------


def test_a_resampled_mean_has_the_case_bootstraps_distribution():
    """Drawing groups of equal cases (a multinomial) is drawing cases: the resampled mean has the
    bootstrap distribution's mean and variance, and its interval is scipy's."""
    n = 200
    values = [1.0, 0.0, 0.5, 0.25]
    scores = [CaseScore((), {"accuracy": values[i % 7 % 4]}) for i in range(n)]
    data = np.array([s.metrics["accuracy"] for s in scores])
    rng = random.Random("test")
    means = [h[0]["accuracy"] for h in stats.resampled_headlines(CountWords(), "exact", units(n), [scores], rng, resamples=20_000)]
    assert np.mean(means) == pytest.approx(data.mean(), abs=3 * data.std() / math.sqrt(n) / math.sqrt(20_000) + 1e-9)
    assert np.var(means) == pytest.approx(data.var() / n, rel=0.05)  # the plug-in variance of a mean
    reference = scipy.stats.bootstrap((data,), np.mean, method="percentile", n_resamples=20_000, random_state=np.random.default_rng(1))
    low, high = np.percentile(means, [2.5, 97.5])
    assert low == pytest.approx(reference.confidence_interval.low, abs=0.01)
    assert high == pytest.approx(reference.confidence_interval.high, abs=0.01)


def test_a_pooled_f1_is_resampled_as_counts_like_scipy_resamples_cases():
    scores = pooled_cases(400)
    tp, fp, fn = (np.array([s.metrics[k] for s in scores]) for k in ("tp", "fp", "fn"))

    def pooled(t, p, n, axis=-1):
        t, p, n = t.sum(axis=axis), p.sum(axis=axis), n.sum(axis=axis)
        return 2 * t / (2 * t + p + n)

    reference = scipy.stats.bootstrap((tp, fp, fn), pooled, paired=True, vectorized=True, method="percentile", n_resamples=20_000, random_state=np.random.default_rng(2))
    # Summarised from the sums, which is summarize on the resampled cases (the next test).
    ours = [h[0]["f1"] for h in stats.resampled_headlines(PooledF1FromSums(), "exact", units(400), [scores], random.Random("f1"), resamples=20_000)]
    low, high = np.percentile(ours, [2.5, 97.5])
    assert low == pytest.approx(reference.confidence_interval.low, abs=0.004)
    assert high == pytest.approx(reference.confidence_interval.high, abs=0.004)
    assert scipy.stats.ks_2samp(ours, reference.bootstrap_distribution).pvalue > 1e-4


def test_the_sums_path_is_summarize_on_the_resampled_cases():
    """A summary from metric sums (`summarize_totals`) takes the fast path; declared through
    `summarize` it takes the general one. Each distinct score is one object, so both group the
    cases alike, draw alike and must agree on every resample."""
    scores = pooled_cases(500)
    assert stats.sums_summary(PooledF1FromSums()) and not stats.sums_summary(PooledF1())
    assert PooledF1FromSums().summarize("exact", scores) == pytest.approx(PooledF1().summarize("exact", scores), rel=1e-12)
    fast = list(stats.resampled_headlines(PooledF1FromSums(), "exact", units(500), [scores], random.Random(3), resamples=200))
    general = list(stats.resampled_headlines(PooledF1(), "exact", units(500), [scores], random.Random(3), resamples=200))
    for (a,), (b,) in zip(fast, general, strict=True):
        assert a == pytest.approx(b, rel=1e-12)


def test_cases_are_grouped_by_their_metrics_as_per_case_keys_group_them():
    """case_groups (each case a unit) groups cases by their score objects first, then the
    objects' combinations by metrics: the same groups, in the same order, as grouping every
    case by the tuple of its runs' metric items. Equal metrics in distinct objects (another
    error, the same numbers) are one group; a NaN is equal only to itself, as in a dict."""
    nan = float("nan")
    rng = random.Random(11)
    pool = [RIGHT, WRONG, CaseScore((("other",),), {"accuracy": 0.0}), CaseScore((), {"accuracy": 1}),
            CaseScore((("nan",),), {"accuracy": nan}), CaseScore((("nan",),), {"accuracy": nan}),
            CaseScore((), {"accuracy": 1.0, "extra": 2.0})]
    for n, k in [(1, 1), (5, 2), (300, 1), (300, 3)]:
        runs = [[rng.choice(pool) if rng.random() < 0.9 else CaseScore((), {"accuracy": float(rng.randint(0, 1))}) for _ in range(n)]
                for _ in range(k)]
        expected = stats.Groups.of(tuple(tuple(run[i].metrics.items()) for run in runs) for i in range(n))
        assert stats.case_groups(runs) == expected


def test_the_default_summary_is_the_mean_as_before():
    scores = [RIGHT, WRONG, CaseScore((), {"accuracy": 1.0, "rare": 2.0})]
    assert CountWords().summarize("exact", scores) == {"accuracy": 2 / 3, "rare": 2 / 3}
    assert stats.sums_summary(CountWords())


def test_a_metric_missing_from_a_resample_is_left_out_of_its_interval():
    # "rare" is a metric of one case in 50: many resamples do not draw it and have no "rare".
    scores = [CaseScore((), {"accuracy": 1.0, "rare": 1.0})] + [RIGHT] * 49
    resampled = [h[0] for h in stats.resampled_headlines(CountWords(), "exact", units(50), [scores], random.Random(4))]
    assert 0 < sum("rare" not in h for h in resampled) < len(resampled)
    got = stats.headline_intervals(CountWords(), "exact", units(50), scores)
    assert got["accuracy"] == Interval(1.0, 1.0) and got["rare"].low > 0


def test_a_summary_undefined_on_a_resample_is_left_out():
    class Ratio(CountWords):
        def summarize(self, profile, scores):
            return {"ratio": sum(s.metrics["accuracy"] for s in scores) / sum(s.metrics["rare"] for s in scores)}

    scores = [CaseScore((), {"accuracy": 1.0, "rare": 1.0})] + [CaseScore((), {"accuracy": 1.0, "rare": 0.0})] * 29
    resampled = [h[0] for h in stats.resampled_headlines(Ratio(), "exact", units(30), [scores], random.Random(5))]
    assert None in resampled  # a resample without the one case divides by zero
    assert set(stats.headline_intervals(Ratio(), "exact", units(30), scores)) == {"ratio"}


# -- clusters ------------------------------------------------------------------------------------


class ByDocument(CountWords):
    """Pages of documents: a case `dNN-pM` belongs to document dNN."""

    CLUSTER_UNIT = "document"

    def cluster(self, case):
        return case.id.split("-")[0]


def document_cases(documents: int, pages: int) -> dict[str, Case]:
    return {f"d{d:02d}-p{p}": Case(f"d{d:02d}-p{p}", "page", None) for d in range(documents) for p in range(pages)}


def test_a_clustered_type_resamples_whole_clusters():
    cases = document_cases(20, 10)
    clustered = stats.Units.of(ByDocument(), cases)
    assert len(clustered) == 20 and clustered.clusters[0] == tuple(range(10))
    assert len(stats.Units.of(CountWords(), cases)) == 200
    assert stats.bootstrap_spec(ByDocument(), clustered).cluster == "document"
    assert stats.bootstrap_spec(CountWords(), stats.Units.of(CountWords(), cases)).cluster is None
    # One page per document: every cluster a case of its own, drawn as unclustered cases are.
    single = stats.Units.of(ByDocument(), document_cases(20, 1))
    assert single.clusters is None and stats.bootstrap_spec(ByDocument(), single).cluster is None
    # Every page of a document right or every page wrong: the pages are not 200 independent cases.
    scores = [RIGHT if int(cid[1:3]) % 3 else WRONG for cid in cases]
    wide = stats.headline_intervals(ByDocument(), "exact", clustered, scores)["accuracy"]
    narrow = stats.headline_intervals(CountWords(), "exact", stats.Units.of(CountWords(), cases), scores)["accuracy"]
    assert wide.high - wide.low > 2.5 * (narrow.high - narrow.low)

    class Checked(ByDocument):
        def summarize(self, profile, scores):
            assert len(scores) % 10 == 0  # whole documents only
            return super().summarize(profile, scores)

    assert stats.headline_intervals(Checked(), "exact", clustered, scores)["accuracy"] == wide


def test_a_type_that_clusters_names_its_unit():
    class Unnamed(CountWords):
        def cluster(self, case):
            return case.id[:3]

    assert any("CLUSTER_UNIT" in p for p in check_type_class(Unnamed))
    assert check_type_class(ByDocument) == []
    assert BenchmarkType.cluster(CountWords(), Case("c1", "x", None)) is None


# -- the samplers ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "p"), [(30, 0.1), (1000, 0.004), (60, 0.5), (1000, 0.3), (100_000, 0.02), (40, 0.85), (5, 1.0), (7, 0.0)])
def test_binomial_draws_follow_the_binomial_distribution(n, p):
    rng = random.Random(f"{n}/{p}")
    draws = [stats.binomial(rng, n, p) for _ in range(20_000)]
    assert all(0 <= d <= n for d in draws)
    if p in (0.0, 1.0):
        assert set(draws) == {round(n * p)}
        return
    # Chi-square against scipy's pmf, outcomes binned so that each expects at least 20 draws.
    lo, hi = int(scipy.stats.binom.ppf(1e-3, n, p)), int(scipy.stats.binom.ppf(1 - 1e-3, n, p))
    edges = list(range(lo, hi + 2))
    observed, expected = [], []
    cdf = lambda k: scipy.stats.binom.cdf(k, n, p)  # noqa: E731
    counts = np.bincount(np.clip(draws, lo - 1, hi + 1) - (lo - 1), minlength=hi - lo + 3)
    bins = [(-1, lo - 1, counts[0])] + [(k - 1, k, counts[k - lo + 1]) for k in edges[:-1]] + [(hi, n, counts[-1])]
    acc_o = acc_e = 0.0
    for a, b, c in bins:
        acc_o += c
        acc_e += 20_000 * (cdf(b) - cdf(a))
        if acc_e >= 20:
            observed.append(acc_o)
            expected.append(acc_e)
            acc_o = acc_e = 0.0
    observed[-1] += acc_o
    expected[-1] += acc_e
    assert scipy.stats.chisquare(observed, np.array(expected) * sum(observed) / sum(expected)).pvalue > 1e-4


def test_grouped_draws_are_multinomial_either_way(monkeypatch):
    for cost in (stats.BINOMIAL_COST, 10**9):  # by binomials, and unit by unit
        monkeypatch.setattr(stats, "BINOMIAL_COST", cost)
        groups = stats.Groups.of(["a"] * 50 + ["b"] * 30 + ["c"] * 20)
        assert groups.sizes == [50, 30, 20] and groups.first == [0, 50, 80]
        draws = list(groups.draws(random.Random(cost), 20_000))
        assert all(sum(d) == 100 for d in draws)
        for g, size in enumerate(groups.sizes):
            column = [d[g] for d in draws]
            assert np.mean(column) == pytest.approx(size, abs=0.2)
            assert np.var(column) == pytest.approx(100 * size / 100 * (1 - size / 100), rel=0.05)


def distinct_scores(n: int, seed: int) -> list[CaseScore]:
    rng = random.Random(seed)
    return [CaseScore((), {"accuracy": rng.random(), **({"rare": rng.random()} if rng.random() < 0.01 else {})}) for _ in range(n)]


@pytest.mark.parametrize(
    ("btype", "make", "clustered"),
    [
        (CountWords(), distinct_scores, False),  # every score its own group: drawn unit by unit
        (PooledF1FromSums(), pooled_cases, False),  # few groups: binomials (paired: unit by unit)
        (PooledF1(), pooled_cases, False),  # summarize on resampled lists
        (PooledF1(), pooled_cases, True),  # whole clusters, lists built in Python either way
        (PooledF1FromSums(), pooled_cases, True),
    ],
)
def test_numpy_makes_the_same_numbers_as_pure_python(monkeypatch, btype, make, clustered):
    """numpy is an optional fast path (not a dependency of core): with it or without it, every
    resampled headline is the same float, so metrics.json is too."""
    assert stats.fast_numpy() is not None  # the dev environment has it
    n = 3000
    cases = document_cases(n // 6, 6)
    unit = stats.Units.of(ByDocument(), cases) if clustered else stats.Units(tuple(cases))
    runs = [make(n, 1), make(n, 2)]

    def resampled():
        return list(stats.resampled_headlines(btype, "exact", unit, runs, random.Random(9), resamples=60))

    with_numpy = resampled()
    monkeypatch.setattr(stats, "_NUMPY", False)
    assert stats.fast_numpy() is None
    assert resampled() == with_numpy


# -- the exact McNemar test ---------------------------------------------------------------------------


@pytest.mark.parametrize(("better", "worse"), [(26, 5), (5, 26), (0, 1), (1, 0), (3, 3), (0, 0), (10, 0), (40, 60), (500, 430), (6000, 5800), (1, 12_000)])
def test_mcnemar_is_scipys_exact_binomial_test(better, worse):
    expected = 1.0 if better + worse == 0 else scipy.stats.binomtest(better, better + worse, 0.5).pvalue
    assert stats.mcnemar(better, worse) == pytest.approx(expected, rel=1e-9, abs=1e-300)


def test_mcnemar_golden_and_as_shown():
    assert stats.mcnemar(26, 5) == 0.00019219517707824707
    assert stats.format_p(stats.mcnemar(26, 5)) == "p = 0.0002"
    assert stats.format_p(stats.mcnemar(60, 5)) == "p < 0.0001"
    assert stats.format_p(stats.mcnemar(4, 4)) == "p = 1"
    assert stats.format_p(stats.mcnemar(12, 5)) == "p = 0.1435"


def test_the_paired_comparison_counts_cases_that_became_error_free_or_gained_errors():
    cand = [RIGHT, RIGHT, WRONG, WRONG, RIGHT, CaseScore((("other",),), {"accuracy": 0.0})]
    base = [WRONG, RIGHT, RIGHT, WRONG, WRONG, WRONG]  # the last changed its errors, not its state
    paired = stats.paired_comparison(CountWords(), "exact", units(6), cand, base)
    assert (paired.better, paired.worse) == (2, 1)
    assert paired.p_value == stats.mcnemar(2, 1) == 1.0


def test_paired_differences_use_the_same_resampled_cases():
    # The candidate is the baseline with one more case right: on the same resampled cases the
    # difference is never below 0, though each run's own interval is wide.
    base = [RIGHT if i % 2 else WRONG for i in range(40)]
    cand = [RIGHT] + base[1:]
    paired = stats.paired_comparison(CountWords(), "exact", units(40), cand, base)
    assert paired.change["accuracy"].low >= 0.0 and paired.change["accuracy"].high <= 3 / 40 + 1e-12
    own = stats.headline_intervals(CountWords(), "exact", units(40), cand)["accuracy"]
    assert own.high - own.low > 0.2


# -- golden numbers of the fixed seed ----------------------------------------------------------------


def test_golden_intervals_of_the_fixed_seed():
    cand = [RIGHT if i % 4 else WRONG for i in range(40)]  # 30 of 40 right
    base = [RIGHT if i % 5 else WRONG for i in range(40)]  # 32 of 40 right
    assert (stats.SEED, stats.RESAMPLES, stats.CONFIDENCE) == (1729, 1000, 0.95)
    assert stats.headline_intervals(CountWords(), "exact", units(40), cand) == {"accuracy": Interval(0.625, 0.875)}
    paired = stats.paired_comparison(CountWords(), "exact", units(40), cand, base)
    assert paired.change == {"accuracy": Interval(-0.22499999999999998, 0.125)}
    assert (paired.better, paired.worse, paired.p_value) == (6, 8, 0.79052734375)
    # Computed again: the same numbers (nothing but the seed drives the draws).
    assert stats.paired_comparison(CountWords(), "exact", units(40), cand, base) == paired
    assert stats.format_interval(paired.change["accuracy"], signed=True) == " [-0.2250, +0.1250]"


def test_numpy_is_not_imported_where_it_does_not_pay():
    """With few distinct scores the draws are binomial per group, in pure Python: a small run
    pays nothing for numpy (its import costs more than the draws)."""
    code = (
        "import json, sys\n"
        "from envirobench import statistics as st\n"
        "from envirobench.benchmark import Case, CaseScore\n"
        "from envirobench.testing import CountWords\n"
        "cases = {f'c{i}': Case(f'c{i}', 'x', None) for i in range(2000)}\n"
        "scores = [CaseScore((), {'accuracy': float(i % 3 > 0)}) for i in range(2000)]\n"
        "st.headline_intervals(CountWords(), 'exact', st.Units.of(CountWords(), cases), scores)\n"
        "print(json.dumps('numpy' in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) is False
