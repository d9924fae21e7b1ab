"""docs/reference-scores.md's Legal table for `instrument-execution`: blind baselines and columns
(read by benchmarks/reference_scores.py --legal)."""

BENCHMARK = "instrument-execution"
UNIT = "instruments"
INTRO = (
    "The reference adapter (`solvers/instrument_execution.py`, developed on the dev split only) on both splits; "
    "the test split's law-firm templates and recorder stamps never occur in dev. Beside it, blind baselines "
    "that give every instrument one status (evidence page 1). The score is the category's formula, "
    "100 × max(0, (correct − 5 × false executed) ÷ instruments); *unclipped* drops the max(0, ·)."
)


def _every(status: str):
    return lambda case_input, answer: {"status": status, "evidence_page": 1}


BASELINES = {
    "every instrument executed and recorded": _every("executed-recorded"),
    "nothing executed": _every("not-executed"),
    "cannot tell, everywhere": _every("cannot-tell"),
}
COLUMNS = (
    ("execution_score", "score", ".1f"),
    ("execution_score_unclipped", "unclipped", ".1f"),
    ("correct_statuses", "correct", ".0f"),
    ("false_executed", "false executed", ".0f"),
    ("instruments", "instruments", ".0f"),
    ("status_accuracy", "status accuracy", ".3f"),
    ("evidence_pages_right", "evidence page right", ".3f"),
)
GROUP_METRIC = ("correct_status", None)
GROUP_TITLE = "Status accuracy of the reference adapter by scenario (the case category) and copy"


def groups(case_id, category, answer):
    return [category or "-", "scanned copies" if answer.scanned else "born-digital copies"]
