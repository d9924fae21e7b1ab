"""docs/reference-scores.md's Research table for `cited-answers`: baselines and columns (read by
benchmarks/reference_scores.py --research)."""

from _blind import typed_guess
from _spec_parts import by_category, count, share

BENCHMARK = "cited-answers"
UNIT = "records (the questions about one record resampled together)"
INTRO = (
    "The reference adapter (`solvers/cited_answers.py`, the missing-information solver's reading, retrieval and "
    "typed extraction, developed on the dev split only, citing the line each value was read from as its quote) on "
    "both splits; the test split's office styles, titles and wordings never occur in dev. Primary: the share of "
    "questions whose value is right and whose citation overlaps the gold passage (same document and page, the "
    "quote matching at least half the passage and at most twice its length plus 40 characters). Beside it: a "
    "blind baseline (a plausible typed guess cited to the first page) and an oracle contrast that gives the right "
    "value with a citation of the first document's first page quoting the question, which shows that a right value "
    "alone earns nothing."
)


def _first_page(case_input, question):
    return [{"document": case_input.documents[0], "page": 1, "quote": question.text}]


def _truth(gold):
    return "; ".join(gold.items) if gold.items else gold.value


BASELINES = {
    "a typed guess cited to the first page": lambda case_input, answer: {
        "answers": {
            q.id: {"answer": typed_guess(q), "citations": _first_page(case_input, q)}
            for q in case_input.questions
        }
    },
    "the right value cited to the first page (oracle value)": lambda case_input, answer: {
        "answers": {
            q.id: {"answer": _truth(g), "citations": _first_page(case_input, q)}
            for q, g in zip(case_input.questions, answer.questions, strict=True)
        }
    },
}
COLUMNS = (
    share("cited_accuracy", "cited accuracy"),
    share("answer_accuracy", "answer accuracy"),
    share("citation_precision", "citation precision"),
    count("questions"),
)
GROUP_METRIC = ("claims_supported", "questions")
GROUP_TITLE = "Questions the reference adapter answers with a supporting citation, by the record's office style"
groups = by_category
