"""docs/reference-scores.md's Locate table for `page-locate`: positional baselines and columns
(read by benchmarks/reference_scores.py --locate)."""

from _spec_parts import always, by_category_and, count, f1_precision_recall, share

BENCHMARK = "page-locate"
UNIT = "documents (questions about one file resampled together)"
INTRO = (
    "The reference adapter (`solvers/page_locate.py`, developed on the dev split only: the text layer, OCR of scanned "
    "pages, dates and identifiers normalised, pages holding every anchor ranked by their share of the question's "
    "words and BM25) on both splits; the test split's office styles and question wordings never occur in dev. Beside "
    "it, positional baselines that never read a page (the first page, the last page) and the empty answer, which "
    "scores 0: a page default earns nothing here. The answer is every page stating the fact (a result is on the "
    "laboratory page, the results table and sometimes the findings text)."
)
BASELINES = {
    "the first page": always({"pages": [1]}),
    "the last page": lambda case_input, answer: {"pages": [answer.document_pages]},
    "the empty answer": always({"pages": []}),
}
COLUMNS = (
    *f1_precision_recall("page", "page F1"),
    share("questions_exact", "questions exact"),
    count("questions"),
)
GROUP_METRIC = ("exact", None)
GROUP_TITLE = "Questions the reference adapter answers with exactly the right pages, by question kind and copy"
groups = by_category_and("scanned", "an answer page scanned", "text-layer answer pages")
