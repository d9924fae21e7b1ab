"""What the Site specs share: a case is a whole site (PER_SITE), the bootstrap over scored units
and the record's page order.

A Site split has three (test) or four (dev) sites, one case each: an interval that resamples
cases means little (the many-sites split, test-sites20, has 20 and is resampled by site: below). The Site types score a case as a sum over its scored units (a result key, an
exceedance key, a condition kind, an event: `SiteType.units`), and their headline is a function
of the summed counts, so these intervals resample the units of the whole split with replacement
(RESAMPLES times, seeded) and take each headline metric's 2.5th and 97.5th percentiles. Units
are not independent either (the results of one sampling round, one laboratory report, share their
fate), so these intervals are narrower than the truth: they say how much the number moves with
the mix of units, not how it would move on other sites.
"""

from __future__ import annotations

import random

PER_SITE = True  # a case is a whole site: docs show each site's score, cost and wall time
# The many small test sites (issue 33, a Site test with power): 20 sites, enough for an interval
# by site. reference_scores.py adds this split to every Site section and scores it with core's
# bootstrap over cases (a case is a whole site: a cluster bootstrap by site, paired intervals
# too); the summary table's Site rows are of this split (SUMMARY_SPLIT), the three public sites
# staying the headline board in each section.
SITES20 = "test-sites20"
CLUSTERED_SPLITS = {SITES20: "envirobench/{benchmark}-synthetic-test-sites20-v1"}
SUMMARY_SPLIT = SITES20
RESAMPLES = 1000
SEED = "envirobench-site-units-1729"
# Counts, not shares: a resample of the units changes them by construction; no interval.
COUNTS = frozenset({"records", "exceedances", "conditions", "events", "superseded_taken", "contested"})


def unit_intervals(btype, profile, cases, answers, predictions) -> dict[str, list[float]]:
    """Headline metric -> [low, high] over resampled units of every case."""
    import numpy as np

    names = list(btype.COUNTS)
    rows = []
    for cid, case in cases.items():
        if predictions.get(cid) is None:
            continue
        for unit in btype.units(case, answers[cid], predictions[cid]):
            rows.append([unit.metrics.get(n, 0.0) for n in names])
    if not rows:
        return {}
    matrix = np.array(rows)
    rng = np.random.default_rng(random.Random(SEED).getrandbits(64))
    counts = rng.multinomial(len(rows), [1 / len(rows)] * len(rows), size=RESAMPLES)
    totals = counts @ matrix
    samples: dict[str, list[float]] = {}
    for row in totals:
        for metric, value in btype.headline(dict(zip(names, row.tolist(), strict=True))).items():
            samples.setdefault(metric, []).append(value)
    out = {}
    for metric, values in samples.items():
        if metric in COUNTS or len(values) < RESAMPLES // 2:  # a count, or mostly undefined
            continue
        low, high = np.percentile(values, [2.5, 97.5])
        out[metric] = [float(low), float(high)]
    return out


def order(case_input, page: tuple[str, int]) -> tuple[int, int]:
    """A (volume file, page)'s place in the record: (volume number, page)."""
    names = case_input.volume_names
    return (names.index(page[0]) if page[0] in names else len(names), page[1])


def latest_block(case_input, pages, gap: int = 5) -> set[tuple[str, int]]:
    """Of `pages` ((volume file, page) pairs), the last run in record order whose neighbours are
    at most `gap` pages apart within one volume: a stand-in for the latest report's tables, which
    no blind system can tell apart without reading."""
    ordered = sorted({(order(case_input, p), p) for p in pages})
    if not ordered:
        return set()
    block = [ordered[-1]]
    for place, key in reversed(ordered[:-1]):
        last = block[-1][0]
        if place[0] != last[0] or last[1] - place[1] > gap:
            break
        block.append((place, key))
    return {key for _, key in block}
