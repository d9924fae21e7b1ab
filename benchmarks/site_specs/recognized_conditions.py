"""docs/reference-scores.md's Site table for `recognized-conditions`: blind baselines and columns
(read by benchmarks/reference_scores.py --site)."""

from _units import unit_intervals  # noqa: F401  (the script reads unit_intervals)

BENCHMARK = "recognized-conditions"
PER_SITE = True  # a case is a whole site: docs show each site's score, cost and wall time
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
    "no conditions": lambda case_input, answer: {"conditions": []},
}
COLUMNS = (
    ("condition_f1", "condition F1", ".3f"),
    ("condition_precision", "precision", ".3f"),
    ("condition_recall", "recall", ".3f"),
    ("evidence_precision", "evidence precision", ".3f"),
    ("evidence_recall", "evidence recall", ".3f"),
    ("conditions", "conditions", ".0f"),
)
