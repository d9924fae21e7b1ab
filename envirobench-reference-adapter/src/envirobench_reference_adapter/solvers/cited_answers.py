"""Reference solver for `cited-answers`: each question answered with a citation of the line the
answer was read from.

The reading, retrieval and typed extraction are the `missing-information` solver's
(`solvers.missing_information`: text layer or OCR per page, wrapped lines joined into sentences,
BM25 over lines and pages, extraction by the declared answer type). The type states that every
question is answerable from its record, so where the strict rules find nothing the solver asks
again with the abstention rules off (`always-answer`) rather than saying "not in the record".

The citation is the document and 1-based page of the line the value was read from, and the
line itself (a sentence joined across its wrapped lines, a form line or a table row, as the text
layer or OCR gives it) as the quote, cut to MAX_QUOTE characters. A value found by a rule that
reads no single line (a guess) is given without a citation, which the type scores as
unsupported.

Variants: `v1` (the default; `default` is its alias) as above; `first-page` cites the first page
of the first document with the question's own text as the quote (the contrast: the right value
with a citation that supports nothing).

Weaknesses: those of the missing-information solver (OCR misreads on the scanned instruments,
values in table cells); a quote of OCR text keeps its misreadings (the type's overlap rule
tolerates a few); a joined paragraph longer than twice its sentence plus 40 characters is too
long to support anything.
"""

from __future__ import annotations

from typing import Any

from .. import property_records as engine
from ..serves import Jitter, Prediction, Serves, Sources

SERVES = Serves("cited-answers", variants=("first-page", "v1"))
MAX_QUOTE = 400


def cited(question: Any, record: engine.Record, variant: str) -> dict[str, Any]:
    value, line = engine.find_answer(question, record, "v1")
    if value == engine.NOT_IN_RECORD:
        value, line = engine.find_answer(question, record, "always-answer")
    if variant == "first-page":
        first = record.lines[0].document if record.lines else ""
        quote = question.text
        return {"answer": value, "citations": [{"document": first, "page": 1, "quote": quote}]}
    if line is None:
        return {"answer": value, "citations": []}
    source = record.lines[line]
    return {
        "answer": value,
        "citations": [
            {"document": source.document, "page": source.page, "quote": source.text[:MAX_QUOTE]}
        ],
    }


# case_input: the type's Input record (documents, questions)
def solve(case_input: Any, sources: Sources, variant: str, jitter: Jitter = None) -> Prediction:
    record = engine.read_record(case_input, sources, jitter)
    return {"answers": {q.id: cited(q, record, variant) for q in case_input.questions}}
