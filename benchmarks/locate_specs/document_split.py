"""docs/reference-scores.md's Locate table for `document-split`: trivial baselines and columns
(read by benchmarks/reference_scores.py --locate)."""

from _spec_parts import always, by_category, count, f1_precision_recall, share

BENCHMARK = "document-split"
UNIT = "bundles"
INTRO = (
    "The reference adapter (`solvers/document_split.py`, developed on the dev split only: page marks read by OCR of "
    "the top and bottom strips, blank pages, headings and header similarity) on both splits; the test split's office "
    "styles, page numbering and titles never occur in dev. Beside it, trivial baselines that need no reading: every "
    "page a first page, only page 1 (no boundary), and every k-th page. Boundaries are the first pages other than "
    "page 1; F1 is strict (no tolerance), the tolerant F1 matches predicted and true boundaries one to one within "
    "±1 page."
)


def _every(k: int):
    return lambda case_input, answer: {"first_pages": list(range(1, answer.pages + 1, k))}


BASELINES = {
    "every page a first page": _every(1),
    "only page 1": always({"first_pages": [1]}),
    "every 2nd page": _every(2),
    "every 3rd page": _every(3),
}
COLUMNS = (
    *f1_precision_recall("boundary", "boundary F1"),
    share("tolerant_f1", "F1 ±1 page"),
    share("bundles_exact", "bundles exact"),
    count("boundaries"),
)
GROUP_METRIC = ("true_positives", ("true_positives", "false_positives", "false_negatives"))
GROUP_TITLE = (
    "Boundaries right out of (right + false + missed) for the reference adapter, by scenario (the case category)"
)
groups = by_category
