"""docs/reference-scores.md's Locate table for `page-locate`: positional baselines and columns
(read by benchmarks/reference_scores.py --locate)."""

from collections import Counter
from functools import cache

from _shortcuts import dev_split, file_size
from _spec_parts import always, by_category_and, count, f1_precision_recall, share

BENCHMARK = "page-locate"
UNIT = "documents (questions about one file resampled together)"
INTRO = (
    "The reference adapter (`solvers/page_locate.py`, developed on the dev split only: the text layer, OCR of scanned "
    "pages, dates and identifiers normalised, pages holding every anchor ranked by their share of the question's "
    "words and BM25) on both splits; the test split's office styles and question wordings never occur in dev. Beside "
    "it, positional baselines that never read a page (the first page, the last page) and the empty answer, which "
    "scores 0: a page default earns nothing here. The answer is every page stating the fact (a result is on the "
    "laboratory page, the results table and sometimes the findings text). Near-blind shortcuts read no page either: "
    "the page whose thumbnail PNG is largest in bytes (the densest page), and the page at the dev split's commonest "
    "answer position (as a share of the document's pages)."
)


def largest_thumbnail(case_input, answer):
    sizes = [file_size("page-locate", t) for t in case_input.thumbnails]
    return {"pages": [sizes.index(max(sizes)) + 1] if sizes else [1]}


@cache
def dev_position() -> float:
    """The dev split's commonest answer position, as a tenth of the document (0.0 to 0.9)."""
    tenths = Counter(min(9, 10 * (page - 1) // answer.document_pages) for _, answer in dev_split("page-locate") for page in answer.pages)
    return tenths.most_common(1)[0][0] / 10


def dev_commonest_position(case_input, answer):
    # The page count is the document's metadata (a PDF's page tree), not its content.
    pages = len(case_input.thumbnails) or answer.document_pages
    return {"pages": [min(pages, 1 + int(dev_position() * pages + 0.05 * pages))]}
BASELINES = {
    "the first page": always({"pages": [1]}),
    "the last page": lambda case_input, answer: {"pages": [answer.document_pages]},
    "the empty answer": always({"pages": []}),
    "the page with the largest thumbnail (bytes)": largest_thumbnail,
    "the page at the dev split's commonest answer position": dev_commonest_position,
}
COLUMNS = (
    *f1_precision_recall("page", "page F1"),
    share("questions_exact", "questions exact"),
    count("questions"),
)
GROUP_METRIC = ("exact", None)
GROUP_TITLE = "Questions the reference adapter answers with exactly the right pages, by question kind and copy"
groups = by_category_and("scanned", "an answer page scanned", "text-layer answer pages")
