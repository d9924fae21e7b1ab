"""Reference solver for `page-locate`: the pages of a long PDF that state a requested fact.

Every page is read once per PDF (several questions share a file, so the pages are cached by the
file's path, size and modification time): the text layer with pypdfium2 where the page has one,
OCR (`ocr.recognize`) of the rendered page where it is a scan. Page and question are turned
into the same terms:

- *anchors*: dates in any common form (2019-05-14, 05/14/2019, May 14, 2019, 14 May 2019,
  14 May. 2019) become one ISO term; identifiers (letters and digits, "MW-03", "MW3", "GW-1719-80",
  invoice numbers) become their letters and digits with leading zeros dropped per digit run, so
  "MW-03" and "MW-3" are one term;
- *words*: the remaining words, lower-cased and cut to their first STEM letters ("recorded" and
  "recording" meet), less the words every question has (page, which, stated, ...).

The answer is every page that holds all of the question's anchors and, among those, the words
best: the pages whose share of the question's words is within WORD_SLACK of the best page's
(BM25 over the words, rank_bm25's Okapi, orders them and breaks nothing: the set is returned). A
question without anchors takes the pages within the slack of the best share among all pages; when
no page holds every anchor, the single page BM25 ranks first over anchors and words together.
The page thumbnails (the input's `thumbnails`, for the report) are never read: the PDF holds more
than a 120-pixel image of a page.

Variants: `v1` (the default; `default` is its alias) as above; `bm25-top` returns BM25's single
best page (one page, where many questions have two or three answers).

Weaknesses: OCR misreads a digit of an identifier or a date on a low-resolution scan, and the
page then lacks an anchor; a question's words that a page expresses differently (a synonym) lower
its share; a date the question and page write in forms not listed here is read as words.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from rank_bm25 import BM25Okapi

from .. import pdftext
from ..serves import Jitter, Prediction, Serves, Sources
from ..terms import FUNCTION_WORDS
from ..terms import terms as text_terms

SERVES = Serves("page-locate", variants=("bm25-top", "v1"))

STEM = 6
WORD_SLACK = 0.34  # a page within this share of the best page's word share is also an answer
MAX_PAGES = 6
# the words every question has: function words, and those that ask for a page
QUESTION_WORDS = FUNCTION_WORDS | {
    "find", "give", "given", "gives", "giving", "page", "pages", "report", "reports", "says",
    "show", "showing", "shows", "state", "stated", "states", "stating",
}  # fmt: skip


# -- terms ---------------------------------------------------------------------------------------


def terms(text: str) -> tuple[set[str], list[str]]:
    """(anchors, words) of a page or a question (envirobench_reference_adapter.terms)."""
    return text_terms(text, STEM)


# -- reading pages -------------------------------------------------------------------------------

_CACHE: dict[tuple[str, int, int], list[str]] = {}


def page_texts(path: Path, jitter: np.random.Generator | None = None) -> list[str]:
    """The text of every page: the text layer, or OCR of a scanned page (cached per file)."""
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    if jitter is None and key in _CACHE:
        return _CACHE[key]

    texts: list[str] = []
    for index, page, text in pdftext.text_layers(path):
        if len(text.strip()) < pdftext.MIN_TEXT_CHARS:
            width, height = page.get_width(), page.get_height()
            scanned = pdftext.ocr_page(path, index, width, height, pdftext.image_dpi(page), jitter)
            text = " ".join(word.text for word in scanned.words)
        texts.append(text)
    if jitter is None:
        _CACHE.clear()  # one file at a time: questions come grouped by file
        _CACHE[key] = texts
    return texts


# -- choosing pages --------------------------------------------------------------------------------


def choose(question: str, texts: list[str], variant: str) -> list[int]:
    """The 1-based pages that answer `question`, from the pages' texts."""
    q_anchors, q_words = terms(question)
    q_words = [w for w in dict.fromkeys(q_words) if w not in QUESTION_WORDS]
    page_terms = [terms(text) for text in texts]
    corpus = [[*sorted(a), *w] or ["-"] for a, w in page_terms]
    bm25 = BM25Okapi(corpus)
    scores = bm25.get_scores([*sorted(q_anchors), *q_words])
    if variant == "bm25-top":
        return [int(np.argmax(scores)) + 1]
    candidates = [i for i, (anchors, _) in enumerate(page_terms) if q_anchors <= anchors]
    if not candidates:
        return [int(np.argmax(scores)) + 1]
    shares = {}
    for i in candidates:
        words = set(page_terms[i][1])
        shares[i] = sum(w in words for w in q_words) / len(q_words) if q_words else 1.0
    best = max(shares.values())
    chosen = [
        i for i in candidates if shares[i] >= best - WORD_SLACK and (best == 0 or shares[i] > 0)
    ]
    chosen.sort(key=lambda i: (-shares[i], -scores[i], i))
    return sorted(i + 1 for i in chosen[:MAX_PAGES])


def solve(case_input: Any, sources: Sources, variant: str, jitter: Jitter = None) -> Prediction:
    texts = page_texts(sources[case_input.document], jitter)
    if not texts:
        return {"pages": []}
    return {"pages": choose(case_input.question, texts, variant)}
