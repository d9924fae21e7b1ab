"""docs/reference-scores.md's Research table for `missing-information`: blind baselines and
columns (read by benchmarks/reference_scores.py --research)."""

from _blind import typed_guess
from _spec_parts import by_category, count, formula_score, share

NOT_IN_RECORD = "not in the record"
BENCHMARK = "missing-information"
UNIT = "records (the questions about one record resampled together)"
INTRO = (
    "The reference adapter (`solvers/missing_information.py` reading with `property_records.py`, developed on the dev split only: the text layer or "
    "OCR of scanned pages, wrapped lines joined into sentences, BM25 over lines and pages with dates and "
    "identifiers as anchors, typed extraction by the declared answer type, and 'not in the record' when an anchor "
    "is on no page, the document kind asked about heads no document, the question names no tank, well or invoice "
    "where there are several, a current value is said to have changed without a date, or no line yields a value) "
    "on both splits; the test split's office styles, titles and wordings never occur in dev. Primary: the category "
    "formula, 100 × max(0, (right − 5 × invented) ÷ questions); unclipped beside it. Beside the reference, blind "
    "baselines: always 'not in the record' (scores the unanswerable share), always answer with a plausible value of "
    "the declared type (a fixed date, 30 ft, 4,000 gal, 10 ug/L, $5,000, 'yes', ...). Break-even: an answer pays "
    "only when it is right more than 5/6 of the time."
)


BASELINES = {
    "always 'not in the record'": lambda case_input, answer: {
        "answers": {q.id: NOT_IN_RECORD for q in case_input.questions}
    },
    "always answer (a plausible typed guess)": lambda case_input, answer: {
        "answers": {q.id: typed_guess(q) for q in case_input.questions}
    },
}
COLUMNS = (
    *formula_score("missing_information"),
    count("questions_right", "right"),
    count("invented_answers", "invented"),
    count("questions"),
    share("answerable_accuracy", "answerable right"),
    share("unanswerable_accuracy", "unanswerable right"),
)
GROUP_METRIC = ("questions_right", "questions")
GROUP_TITLE = "Questions the reference adapter answers right, by the record's office style (family)"
groups = by_category
