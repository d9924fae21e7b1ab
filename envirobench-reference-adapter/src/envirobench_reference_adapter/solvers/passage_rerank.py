"""Reference solver for `passage-rerank`: a question's candidate passages ranked by BM25.

The question is the query; each candidate passage (its text and the name of the document it
comes from) is a document of a corpus made of the question's candidates alone, scored with
Okapi BM25 (rank_bm25's BM25Okapi, k1 = 1.5, b = 0.75: the textbook parameters, not tuned).
Every passage is returned, by score, best first; equal scores keep the order the passages were
offered in, so the ranking is deterministic.

Tokens: lower-cased runs of letters or of digits (a well `MW-3` gives `mw` and `3`, a date
`03/14/2019` gives `03`, `14` and `2019`), without the commonest English function words. No
synonym, stemming or domain list: BM25 sees the words as written, so a passage that names the
well or the date in other words than the question is scored on the words they share.

Variants: `v1` (the default; `default` is its alias).

Weaknesses: lexical only. A passage that states the fact in other words (a quarter for a
month, a well or a unit written another way) loses to a hard negative that repeats the
question's words about another well, date or site; grades are not modelled (a passage that
points to a table scores like one that states the value).
"""

from __future__ import annotations

import re
from typing import Any

from rank_bm25 import BM25Okapi

from ..serves import Jitter, Prediction, Serves, Sources

SERVES = Serves("passage-rerank")

TOKEN = re.compile(r"[a-z]+|[0-9]+")
# The commonest English function words (articles, prepositions, auxiliaries, pronouns).
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "did",
        "do",
        "does",
        "for",
        "from",
        "had",
        "has",
        "have",
        "in",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "that",
        "the",
        "their",
        "this",
        "to",
        "was",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "whom",
        "with",
        "how",
        "much",
    ]
)


def tokens(text: str) -> list[str]:
    return [t for t in TOKEN.findall(text.lower()) if t not in STOPWORDS]


def rank(case_input: Any) -> list[str]:
    """Passage IDs by BM25 score of the question, best first; ties in the offered order."""
    corpus = [tokens(f"{p.text} {p.source}") for p in case_input.passages]
    if not any(corpus):
        return [p.id for p in case_input.passages]
    scores = BM25Okapi(corpus).get_scores(tokens(case_input.question))
    order = sorted(range(len(case_input.passages)), key=lambda i: (-float(scores[i]), i))
    return [case_input.passages[i].id for i in order]


# case_input: the type's Input record (question, passages of id, text, source)
def solve(case_input: Any, sources: Sources, variant: str, jitter: Jitter = None) -> Prediction:
    return {"ranking": rank(case_input)}
