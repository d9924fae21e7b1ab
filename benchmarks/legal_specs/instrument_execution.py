"""docs/reference-scores.md's Legal table for `instrument-execution`: blind baselines and columns
(read by benchmarks/reference_scores.py --legal)."""

from _spec_parts import always, by_category_and, count, formula_score, share

BENCHMARK = "instrument-execution"
UNIT = "instruments"
INTRO = (
    "The reference adapter (`solvers/instrument_execution.py`, developed on the dev split only) on both splits; "
    "the test split's law-firm templates and recorder stamps never occur in dev. Beside it, blind baselines "
    "that give every instrument one status (evidence page 1). The score is the category's formula, "
    "100 × max(0, (correct − 5 × false executed) ÷ instruments); *unclipped* drops the max(0, ·)."
)


BASELINES = {
    "every instrument executed and recorded": always({"status": "executed-recorded", "evidence_page": 1}),
    "nothing executed": always({"status": "not-executed", "evidence_page": 1}),
    "cannot tell, everywhere": always({"status": "cannot-tell", "evidence_page": 1}),
}
COLUMNS = (
    *formula_score("execution"),
    count("correct_statuses", "correct"),
    count("false_executed", "false executed"),
    count("instruments"),
    share("status_accuracy", "status accuracy"),
    share("evidence_pages_right", "evidence page right"),
)
GROUP_METRIC = ("correct_status", None)
GROUP_TITLE = "Status accuracy of the reference adapter by scenario (the case category) and copy"
groups = by_category_and("scanned", "scanned copies", "born-digital copies")
