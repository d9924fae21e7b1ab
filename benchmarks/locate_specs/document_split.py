"""docs/reference-scores.md's Locate table for `document-split`: trivial baselines and columns
(read by benchmarks/reference_scores.py --locate)."""

from functools import cache

from _shortcuts import best_threshold, dev_split, file_size
from _spec_parts import always, by_category, count, f1_precision_recall, share

BENCHMARK = "document-split"
UNIT = "bundles"
INTRO = (
    "The reference adapter (`solvers/document_split.py`, developed on the dev split only: page marks read by OCR of "
    "the top and bottom strips, blank pages, headings and header similarity) on both splits; the test split's office "
    "styles, page numbering and titles never occur in dev. Beside it, trivial baselines that need no reading: every "
    "page a first page, only page 1 (no boundary), and every k-th page. Boundaries are the first pages other than "
    "page 1; F1 is strict (no tolerance), the tolerant F1 matches predicted and true boundaries one to one within "
    "±1 page. The near-blind shortcut (issue 32's audit) reads no page, only the byte sizes of the thumbnail PNGs: a "
    "boundary wherever a page's thumbnail size differs from the page before by more than a share fitted on the dev "
    "split (the best boundary F1 there)."
)


def _jumps(case_input) -> list[float]:
    """Per page from the second, how much its thumbnail's byte size differs from the page before's
    (|a − b| / max(a, b))."""
    sizes = [file_size("document-split", t) for t in case_input.thumbnails]
    return [abs(b - a) / max(a, b, 1) for a, b in zip(sizes, sizes[1:], strict=False)]


def _boundaries(jumps: list[float], threshold: float) -> list[int]:
    return [1] + [page for page, jump in enumerate(jumps, start=2) if jump >= threshold]


@cache
def dev_threshold() -> float:
    """The jump threshold with the best pooled boundary F1 on the dev split."""
    cases = [(_jumps(case_input), set(answer.first_pages) - {1}) for case_input, answer in dev_split("document-split")]

    def f1(threshold):
        tp = fp = fn = 0
        for jumps, truth in cases:
            predicted = set(_boundaries(jumps, threshold)) - {1}
            tp, fp, fn = tp + len(predicted & truth), fp + len(predicted - truth), fn + len(truth - predicted)
        return 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else 0.0

    return best_threshold(sorted({round(j, 3) for jumps, _ in cases for j in jumps}), f1)


def thumbnail_size_jumps(case_input, answer):
    return {"first_pages": _boundaries(_jumps(case_input), dev_threshold())}


def _every(k: int):
    return lambda case_input, answer: {"first_pages": list(range(1, answer.pages + 1, k))}


BASELINES = {
    "a boundary where the thumbnail's byte size jumps (threshold fitted on dev)": thumbnail_size_jumps,
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
