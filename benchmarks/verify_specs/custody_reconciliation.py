"""docs/reference-scores.md's Verify table for `custody-reconciliation`: the blind baseline and
columns (read by benchmarks/reference_scores.py --verify)."""

from _spec_parts import always, by_category_and, count, f1_precision_recall, share

BENCHMARK = "custody-reconciliation"
UNIT = "pairs (a form with its report)"
INTRO = (
    "The reference adapter (`solvers/custody_reconciliation.py`, developed on the dev split only: OCR of the form, "
    "the report's text layer, rows found by their dates and times, analyses named by method numbers and common names, "
    "day-first dates detected per document, the pinned holding times of 40 CFR 136.3 and SW-846, the task's matching "
    "rules) on both splits; the test split's report families, form wordings and date styles never occur in dev. "
    "Beside it, the blind baseline that reports no discrepancy: F1 0, and right on the pairs without any."
)
BASELINES = {
    "no discrepancies": always({"discrepancies": []}),
}
COLUMNS = (
    *f1_precision_recall("discrepancy", "discrepancy F1"),
    share("pairs_exact", "pairs exact"),
    count("pairs"),
)
GROUP_METRIC = ("exact", None)
GROUP_TITLE = "Pairs the reference adapter answers exactly, by report family and form"
groups = by_category_and("hand", "hand-filled form (scanned)", "typed form")
