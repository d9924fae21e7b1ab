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
    "Beside it, the blind baseline that reports no discrepancy: F1 0, and right on the pairs without any; and a "
    "dev prior that reads nothing: a temperature discrepancy on every pair (temperature is, with holding times, "
    "dev's commonest kind, and the only one that names no sample or analysis, so it can be claimed unread)."
)
BASELINES = {
    "no discrepancies": always({"discrepancies": []}),
    "a temperature discrepancy on every pair (dev's commonest unread kind)": always(
        {"discrepancies": [{"kind": "temperature", "sample": "", "analysis": ""}]}
    ),
}
COLUMNS = (
    *f1_precision_recall("discrepancy", "discrepancy F1"),
    share("pairs_exact", "pairs exact"),
    count("pairs"),
)
GROUP_METRIC = ("exact", None)
GROUP_TITLE = "Pairs the reference adapter answers exactly, by report family and form"
groups = by_category_and("hand", "hand-filled form (scanned)", "typed form")
