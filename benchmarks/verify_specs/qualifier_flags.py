"""docs/reference-scores.md's Verify table for `qualifier-flags`: blind baselines and columns
(read by benchmarks/reference_scores.py --verify)."""

from _spec_parts import count, share, trap_groups

from envirobench_reference_adapter.solvers.qualifier_flags import meanings_of
from envirobench_verify.qualifier_flags import MEANINGS

BENCHMARK = "qualifier-flags"
UNIT = "reports"
INTRO = (
    "The reference adapter (`solvers/qualifier_flags.py`: the EPA National Functional Guidelines meanings of U, J, "
    "J+, J-, UJ, R, N, NJ/JN, B, E and D, overridden by the report's own legend, whose definitions are read clause "
    "by clause by the words laboratories and validators use, a standard flag whose definition reads as saying "
    "nothing keeping its NFG meaning; developed on the dev split only) on both splits; the test split's report families, legend "
    "wordings and footnote symbols never occur in dev. A case is one report's result rows (9 to 14) with its legend; "
    "the score is per result. Traps: footnote-defined laboratory flags, a legend written to the CLP inorganic "
    "convention (B = between the IDL and the CRDL, not a blank detection; E = estimated for interference, not over "
    "range; N = spike recovery outside limits, not tentative), flags combined (J with D, D with B, a footnote flag "
    "with B), validator flags over laboratory flags "
    "(UJ, J+, J-, R, NJ, U on a blank-contaminated detection), flags printed inside the result cell, non-detects "
    "printed as ND or <RL with other flags. Beside it, blind baselines that never read a flag: every result detected "
    "and nothing flagged; every result not detected and nothing else flagged; and the audit's shortcut (issue 32): "
    "read every flag with its NFG meaning and ignore the report's own legend (the reference adapter's reading with "
    "the legend left out, so the paired difference is what reading the legend is worth)."
)


def _ignoring_the_legend(case_input, answer):
    """The flags read with their NFG meanings only: the reference's own reading, no legend."""
    return {"results": [meanings_of(row, {}) for row in case_input.results]}


def _plain(case_input, detected):
    """Every result `detected` (or not) and nothing else flagged: each other meaning False, no bias."""
    unflagged = {**dict.fromkeys(MEANINGS, False), "detected": detected, "estimate_bias": "none"}
    return {"results": [{"result": row.id, **unflagged} for row in case_input.results]}


BASELINES = {
    "the flags' NFG meanings, the report's legend ignored": _ignoring_the_legend,
    "every result detected, nothing flagged": lambda case_input, answer: _plain(case_input, True),
    "every result not detected, nothing else flagged": lambda case_input, answer: _plain(
        case_input, False
    ),
}
COLUMNS = (
    share("results_exact", "results exact"),
    share("meaning_accuracy", "meaning accuracy"),
    share("detected_accuracy", "detected"),
    share("estimated_accuracy", "estimated"),
    share("estimate_bias_accuracy", "bias"),
    share("blank_contamination_accuracy", "blank"),
    share("tentatively_identified_accuracy", "tentative"),
    count("results"),
)
GROUP_METRIC = ("exact", "result")
GROUP_TITLE = "Results whose every meaning the reference adapter gets right, by report trap (a report has several)"


def groups(case_id, category, answer):
    return trap_groups(sorted({t.trap for t in answer.traps})) + [f"family: {category}"]
