"""docs/reference-scores.md's Research table for `historical-use`: blind baselines and columns
(read by benchmarks/reference_scores.py --research)."""

from functools import cache

from _shortcuts import dev_split
from _spec_parts import always, count, f1_precision_recall, share, trap_groups

from envirobench_research.historical_use import Period, match

BENCHMARK = "historical-use"
UNIT = "histories"
INTRO = (
    "The reference adapter (`solvers/historical_use.py`, developed on the dev split only: each line of the sources "
    "dated by its year or its block's, directory entries kept only at the property's own number, a use read by a "
    "lexicon of the dev split's trade descriptors, map legends and photograph wordings, periods split where a year "
    "shows the property's uses without it) on both splits; the test split's layouts and source wordings never occur "
    "in dev. A predicted period matches a documented one with the same use and both years within 5 (one to one). "
    "Beside it, blind baselines: one use for all years (residential, 1930-2020), vacant throughout, the empty "
    "answer, and a prior fitted on dev: the periods that, given to every dev history, score the highest period F1 "
    "there (chosen greedily from the dev split's true periods), given to every history."
)
BASELINES = {
    "one use for all years (residential 1930-2020)": always(
        {"periods": [{"use": "residential", "from_year": 1930, "to_year": 2020}]}
    ),
    "vacant throughout (1930-2020)": always(
        {"periods": [{"use": "vacant", "from_year": 1930, "to_year": 2020}]}
    ),
    "the empty answer": always({"periods": []}),
}
DEV_PRIOR = "the dev split's commonest periods (fitted on dev)"


@cache
def dev_prior() -> tuple[Period, ...]:
    """The periods that, given to every dev history, score the highest pooled period F1 there:
    chosen greedily from the dev split's true periods (each added while it raises the F1). A
    prior that reads no source: what a history's years and uses look like on average."""
    truths = [answer.periods for _, answer in dev_split(BENCHMARK)]
    candidates = sorted({(p.use, p.from_year, p.to_year) for periods in truths for p in periods})
    chosen: list[Period] = []

    def f1(periods):
        tp = sum(len(match(truth, periods)) for truth in truths)
        predicted = len(periods) * len(truths)
        true = sum(len(truth) for truth in truths)
        return 2 * tp / (predicted + true) if predicted + true else 0.0

    best = f1(())
    while True:
        scored = [(f1((*chosen, Period(*c))), c) for c in candidates]
        score, pick = max(scored, key=lambda item: item[0])  # the first of equals
        if score <= best:
            return tuple(chosen)
        chosen.append(Period(*pick))
        best = score


BASELINES[DEV_PRIOR] = lambda case_input, answer: {
    "periods": [{"use": p.use, "from_year": p.from_year, "to_year": p.to_year} for p in dev_prior()]
}
COLUMNS = (
    *f1_precision_recall("period", "period F1"),
    share("use_f1", "use F1 (dates ignored)"),
    count("periods"),
    count("histories"),
)
GROUP_METRIC = ("true_positives", "period")
GROUP_TITLE = "Share of documented periods the reference adapter finds (recall), by layout and by trap present"


def groups(case_id, category, answer):
    return [category or "-", *trap_groups(answer.traps)]
