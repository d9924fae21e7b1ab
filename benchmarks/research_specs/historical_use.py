"""docs/reference-scores.md's Research table for `historical-use`: blind baselines and columns
(read by benchmarks/reference_scores.py --research)."""

from _spec_parts import always, count, f1_precision_recall, share, trap_groups

BENCHMARK = "historical-use"
UNIT = "histories"
INTRO = (
    "The reference adapter (`solvers/historical_use.py`, developed on the dev split only: each line of the sources "
    "dated by its year or its block's, directory entries kept only at the property's own number, a use read by a "
    "lexicon of the dev split's trade descriptors, map legends and photograph wordings, periods split where a year "
    "shows the property's uses without it) on both splits; the test split's layouts and source wordings never occur "
    "in dev. A predicted period matches a documented one with the same use and both years within 5 (one to one). "
    "Beside it, blind baselines: one use for all years (residential, 1930-2020), vacant throughout, and the empty "
    "answer."
)
BASELINES = {
    "one use for all years (residential 1930-2020)": always(
        {"periods": [{"use": "residential", "from_year": 1930, "to_year": 2020}]}
    ),
    "vacant throughout (1930-2020)": always({"periods": [{"use": "vacant", "from_year": 1930, "to_year": 2020}]}),
    "the empty answer": always({"periods": []}),
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
