"""docs/reference-scores.md's Site table for `recognized-conditions`: blind baselines and columns
(read by benchmarks/reference_scores.py --site)."""

from _spec_parts import always, count, f1_precision_recall, share
from _units import PER_SITE, unit_intervals  # noqa: F401  (the script reads both)

BENCHMARK = "recognized-conditions"
UNIT = "condition kinds of the split (units, not sites; see benchmarks/site_specs/_units.py)"
INTRO = (
    "The reference adapter (`solvers/recognized_conditions.py`, developed on the dev split only) on both splits. "
    "Primary: condition F1 on (kind, class) per ASTM E1527-21 (REC, CREC, HREC, de minimis); evidence pages "
    "pooled beside it. Blind baselines: every kind the input lists called a REC citing page 1 of the first volume, "
    "and no conditions."
)


def every_kind_a_rec(case_input, answer):
    first = {"file": case_input.volume_names[0], "page": 1}
    return {
        "conditions": [
            {"kind": kind, "classification": "REC", "evidence": [first]}
            for kind in case_input.condition_kinds
        ]
    }


BASELINES = {
    "every kind a REC citing page 1": every_kind_a_rec,
    "no conditions": always({"conditions": []}),
}
COLUMNS = (
    *f1_precision_recall("condition", "condition F1"),
    share("evidence_precision", "evidence precision"),
    share("evidence_recall", "evidence recall"),
    count("conditions"),
)
