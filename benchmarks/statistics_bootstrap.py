"""What the intervals and the paired tests cost (envirobench.statistics), per profile of one run.

    .venv/bin/python benchmarks/statistics_bootstrap.py --cases 10000 100000 [--no-numpy] [--json out.json]

For each size the script makes the case scores of a candidate and a baseline directly (no adapter,
no dataset: only the statistics are measured) and times, in CPU seconds of this process:

  sums, 2 scores        count-words' default summary (means from metric sums): a right/wrong
                        score per case, the common case of a type whose metrics are shares
  sums, paired          the same, the candidate against a baseline (paired intervals + McNemar)
  sums, many scores     table-separators' summary (pooled F1 from tp/fp/fn counts drawn at
                        random, so nearly every case is a distinct score)
  summarize, 2 scores   a type overriding `summarize` itself (the general path: the resampled
                        list of scores is built and summarised 1,000 times)
  summarize, distinct   the same with a distinct score per case (the worst case)
  clustered, 10/doc     count-words clustered by document, 10 cases a document

`--no-numpy` measures the pure-Python path (numpy is no dependency of core; it only makes the
same numbers faster). Results are measured, never asserted: docs/performance.md records them.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import resource
import sys
import time
from collections.abc import Callable, Sequence

from envirobench import statistics as st
from envirobench.benchmark import Case, CaseScore
from envirobench.testing import CountWords
from envirobench_extract.table_separators import TableSeparators

RIGHT = CaseScore((), {"accuracy": 1.0})
WRONG = CaseScore((("wrong",),), {"accuracy": 0.0})


class OwnSummary(CountWords):
    """A type whose `summarize` is its own: intervals go through the general path."""

    def summarize(self, profile: str, scores: Sequence[CaseScore]) -> dict[str, float]:
        return {"accuracy": sum(s.metrics["accuracy"] for s in scores) / len(scores)} if scores else {}


class ByDocument(CountWords):
    CLUSTER_UNIT = "document"

    def cluster(self, case: Case) -> str:
        return case.id.split("-")[0]


def cpu(work: Callable[[], object]) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


def measure(n: int) -> dict[str, float]:
    rng = random.Random(n)
    cases = {f"c{i:07d}": Case(f"c{i:07d}", "x", None) for i in range(n)}
    units = st.Units.of(CountWords(), cases)
    cand = [RIGHT if rng.random() < 0.9 else WRONG for _ in range(n)]
    base = [RIGHT if rng.random() < 0.88 else WRONG for _ in range(n)]
    counts = [
        CaseScore((), {"tp": float(rng.randint(0, 20)), "fp": float(rng.randint(0, 3)), "fn": float(rng.randint(0, 3)), "exact": float(rng.random() < 0.5)})
        for _ in range(n)
    ]
    distinct = [CaseScore((), {"accuracy": rng.random()}) for _ in range(n)]
    documents = {f"d{i // 10:06d}-p{i % 10}": Case(f"d{i // 10:06d}-p{i % 10}", "x", None) for i in range(n)}
    clustered = st.Units.of(ByDocument(), documents)
    return {
        "sums, 2 scores": cpu(lambda: st.headline_intervals(CountWords(), "exact", units, cand)),
        "sums, paired": cpu(lambda: st.paired_comparison(CountWords(), "exact", units, cand, base)),
        "sums, many scores": cpu(lambda: st.headline_intervals(TableSeparators(), "logical", units, counts)),
        "summarize, 2 scores": cpu(lambda: st.headline_intervals(OwnSummary(), "exact", units, cand)),
        "summarize, distinct": cpu(lambda: st.headline_intervals(OwnSummary(), "exact", units, distinct)),
        "clustered, 10/doc": cpu(lambda: st.headline_intervals(ByDocument(), "exact", clustered, cand)),
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--no-numpy", action="store_true", help="the pure-Python path")
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args(argv)
    if args.no_numpy:
        st._NUMPY = False  # what fast_numpy() keeps when numpy cannot be imported
    numpy = st.fast_numpy() is not None
    results = {n: measure(n) for n in args.cases}
    rows = list(next(iter(results.values())))
    print(f"CPU seconds per profile, {st.RESAMPLES:,} resamples, numpy {'used' if numpy else 'not used'}")
    print("| path | " + " | ".join(f"{n:,} cases" for n in args.cases) + " |")
    print("| --- |" + " ---: |" * len(args.cases))
    for row in rows:
        print(f"| {row} | " + " | ".join(f"{results[n][row]:.2f} s" for n in args.cases) + " |")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS {peak:.0f} MiB; Python {platform.python_version()} on {platform.machine()}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"numpy": numpy, "peak_rss_mib": peak, "cpu_s": {str(n): r for n, r in results.items()}}, out, indent=2)


if __name__ == "__main__":
    sys.exit(main())
