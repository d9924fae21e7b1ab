"""Benchmark type `cited-answers`: questions answered from a set of documents, each answer cited to
the passage that states it.

A case is one property's short record (`Input.documents`: 10 to 40 pages in several PDFs: a
transmittal letter, a short monitoring report with its well construction and results tables, the
tank registration form, a tank closure report, an NFA letter, the discharge permit and a renewal
letter, the recorded environmental covenant and a utility easement (both scanned), invoices; which
of them a record holds varies) and a dozen questions about it, every one answerable from the
record. Each question declares its answer type as in `missing-information`
(`envirobench_research.answers`). A system answers each question with text and one to
MAX_CITATIONS citations: the document (a path of `Input.documents`), the 1-based page of that PDF
and a verbatim quote of the passage that states the answer.

The citation rule (quoted text, not character offsets: a quote is checkable without agreeing on a
text extraction, and a scanned page has no text layer to count offsets in). A citation *supports*
the answer when

1. its document and page are those of one of the question's gold evidence passages (every place
   the record states the answer: the sentence, form line or table row as printed), and
2. its quote overlaps that passage: with both folded (Unicode NFKC, case folded, whitespace runs
   made one space), the characters of the passage that difflib's SequenceMatcher(passage, quote,
   autojunk=False) matches in the quote number at least half the passage's length, and the quote
   is at most twice the passage's length plus 40 characters (a quote of a whole page supports
   nothing). The matching blocks, not one exact substring, so that a quote read by OCR from a
   scanned page with a few misread characters still counts.

A *claim* is one answered question; it counts only when its value is right (after the declared
normalisation) *and* at least one of its citations supports it.

Scoring (one profile, `claims`, the default gate). Per record, summed over the run:

    cited_accuracy      claims supported ÷ questions (primary)
    answer_accuracy     answers right ÷ questions, citations ignored
    citation_precision  citations that support their (right) answer ÷ citations given
    questions

Errors: ("wrong-answer", question ID), ("unsupported-citation", question ID) (right value, no
citation supports it) and ("no-answer", question ID).

Traps: the tank registration row and the closure report sentence both state a tank's capacity
(either is gold); a permit's renewal letter (the question asks the current expiration date);
the deed's instrument number beside the covenant's; quotes from a scanned stamp.

Predictions are data: answers and quotes are matched as text, never evaluated, never given to a
model. A prediction ID that is not a question of the case is ignored.

Scoring versions: v2 reads names as `answers` v2 does (a legal entity's suffix spelled one way:
"Co." = "Company") and takes every declared form of an abstention as one (never a right answer
here, where every question is answerable); v1 compared suffixes as spelled.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Mapping
from typing import Any

import attrs

import envirobench
from envirobench import Case, CaseScore

from .answers import (
    GoldAnswer,
    QuestionInput,
    answer_map,
    answerable_items,
    check_answer,
    document_paths,
    paired,
    unique_ids,
)

DATASETS = {
    "synthetic-dev-v1": "envirobench/cited-answers-synthetic-dev-v1",
    "synthetic-test-v1": "envirobench/cited-answers-synthetic-test-v1",
}
MAX_CITATIONS = 3
MAX_QUOTE_CHARS = 1000


def _quote(instance: Any, attribute: attrs.Attribute, value: str) -> None:
    if len(value) > MAX_QUOTE_CHARS:
        raise ValueError(
            f"{attribute.name} has {len(value)} characters, more than {MAX_QUOTE_CHARS}"
        )
    check_answer(attribute.name, value)


@attrs.frozen
class Citation:
    """Where the answer is stated: a document of the case, its 1-based page, a verbatim quote."""

    document: str = attrs.field(validator=attrs.validators.max_len(1000))
    page: int = attrs.field(validator=[attrs.validators.ge(1), attrs.validators.le(100_000)])
    quote: str = attrs.field(validator=_quote)


def _citations(instance: Any, attribute: attrs.Attribute, value: tuple[Citation, ...]) -> None:
    if len(value) > MAX_CITATIONS:
        raise ValueError(f"{attribute.name}: {len(value)} citations, at most {MAX_CITATIONS}")


@attrs.frozen
class CitedAnswer:
    answer: str = attrs.field(validator=lambda i, a, v: check_answer(a.name, v))
    citations: tuple[Citation, ...] = attrs.field(validator=_citations)


@attrs.frozen
class Input:
    """One property's short record (dataset-relative PDF paths) and the questions about it."""

    documents: tuple[str, ...] = attrs.field(validator=document_paths)
    questions: tuple[QuestionInput, ...] = attrs.field(validator=unique_ids)


def _answerable(instance: Any, attribute: attrs.Attribute, value: tuple[GoldAnswer, ...]) -> None:
    answerable_items(instance, attribute, value)
    for number, gold in enumerate(value, 1):
        if not gold.answerable or not gold.evidence or not all(e.passage for e in gold.evidence):
            raise ValueError(
                f"{attribute.name}[{number - 1}] needs an answer and evidence passages"
            )


@attrs.frozen
class Answer:
    """Every question's truth with its gold evidence passages."""

    questions: tuple[GoldAnswer, ...] = attrs.field(validator=_answerable)


@attrs.frozen
class Prediction:
    """A system's answers: question ID -> {answer, citations}."""

    answers: dict[str, CitedAnswer] = attrs.field(validator=answer_map)


def fold(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def supports(citation: Citation, gold: GoldAnswer) -> bool:
    """The citation rule of the module docstring."""
    for evidence in gold.evidence:
        if citation.document != evidence.document or citation.page != evidence.page:
            continue
        passage, quote = fold(evidence.passage), fold(citation.quote)
        if len(quote) > 2 * len(passage) + 40:
            continue
        matcher = difflib.SequenceMatcher(None, passage, quote, autojunk=False)
        if 2 * sum(block.size for block in matcher.get_matching_blocks()) >= len(passage):
            return True
    return False


class CitedAnswers(envirobench.BenchmarkType):
    ID = "cited-answers"
    FORMAT = "envirobench.cited-answers.v1"
    LABEL = "Cited answers"
    SCORING_VERSION = "envirobench.cited-answers.scores.v2"
    TIER = "document"
    PROFILES = ("claims",)
    HEADLINE = ("cited_accuracy", "answer_accuracy", "citation_precision", "questions")
    SOURCE_FIELDS = ("documents",)

    def score_case(
        self, case: Case, answer: Answer, prediction: Prediction
    ) -> dict[str, CaseScore]:
        supported = right = citations = supporting = 0
        errors: list[tuple[str, str]] = []
        for question, gold in paired(case.input.questions, answer.questions):
            given = prediction.answers.get(question.id)
            if given is None:
                errors.append(("no-answer", question.id))
                continue
            citations += len(given.citations)
            if not gold.accepts(question, given.answer):
                errors.append(("wrong-answer", question.id))
                continue
            right += 1
            good = sum(supports(c, gold) for c in given.citations)
            supporting += good
            if good:
                supported += 1
            else:
                errors.append(("unsupported-citation", question.id))
        metrics = {
            "claims_supported": float(supported),
            "answers_right": float(right),
            "citations": float(citations),
            "citations_supporting": float(supporting),
            "questions": float(len(answer.questions)),
        }
        return {"claims": CaseScore(errors=tuple(errors), metrics=metrics)}

    def summarize_totals(
        self, profile: str, totals: Mapping[str, float], cases: int
    ) -> dict[str, float]:
        questions = totals["questions"]
        return {
            "cited_accuracy": totals["claims_supported"] / questions,
            "answer_accuracy": totals["answers_right"] / questions,
            "citation_precision": totals["citations_supporting"] / totals["citations"]
            if totals["citations"]
            else 0.0,
            "questions": questions,
        }
