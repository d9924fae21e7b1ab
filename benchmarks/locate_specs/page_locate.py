"""docs/reference-scores.md's Locate table for `page-locate`: positional baselines and columns
(read by benchmarks/reference_scores.py --locate)."""

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
    "the first page": lambda case_input, answer: {"pages": [1]},
    "the last page": lambda case_input, answer: {"pages": [answer.document_pages]},
    "the empty answer": lambda case_input, answer: {"pages": []},
}
COLUMNS = (
    ("page_f1", "page F1", ".3f"),
    ("page_precision", "precision", ".3f"),
    ("page_recall", "recall", ".3f"),
    ("questions_exact", "questions exact", ".3f"),
    ("questions", "questions", ".0f"),
)
GROUP_METRIC = ("exact", None)
GROUP_TITLE = "Questions the reference adapter answers with exactly the right pages, by question kind and copy"


def groups(case_id, category, answer):
    return [category or "-", "an answer page scanned" if answer.scanned else "text-layer answer pages"]
