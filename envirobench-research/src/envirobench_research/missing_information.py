"""Benchmark type `missing-information`: questions about a property answered from its record, and
the ones the record cannot answer answered as missing.

A case is one property's record (`Input.documents`: a site-record excerpt of 50 to 150 pages in
several PDFs: a transmittal letter, the monitoring report with its tables, boring logs and
laboratory reports, the tank registration form, a tank closure report, an agency's no further
action (NFA) letter, the discharge permit and a letter about its renewal, the recorded
environmental covenant, deed and a utility easement (the recorded instruments are black-and-white
scans), invoices; which of them a record holds varies) and about twenty questions about it
(`Input.questions`). Each question declares the type its answer is read as (date, quantity with
its unit, name, instrument number, yes-no, list; see `envirobench_research.answers` for the exact
normalisation) and a system answers each with text: a value, or an abstention ("not in the
record" or another declared form of it: empty text, "Unknown", "N/A", "The record does not state
this.", ...; `answers.ABSTENTIONS`).

At least 30 % of the questions are not answerable from the record, and "not in the record" is
their right answer:

- never stated: the record does not hold the fact (the easement's recording number where the
  record has no easement; the depth of MW-9 in a record of seven wells; a result for an analyte
  the laboratory did not test; whether the NFA letter covers a contaminant group where the
  record has no NFA letter). Where it has one, a group the letter neither lists nor excludes is
  answerable, "no": an NFA determination covers only what it names (evidence: its
  determination sentence);
- underspecified: the question does not say which of several things it means ("the capacity of
  the tank" where the record has two tanks of different capacities, "the benzene concentration
  in MW-3" without a day where MW-3 was sampled on several);
- stale: the record holds only a superseded value. The rule: a later-dated document supersedes an
  earlier one about the same fact; a question about the current value is answered with the
  latest value the record states, and where the latest document says the value changed without
  stating the new one (the permit "renewed for a further term", the easement "amended to change
  its width"), the current value is not in the record. The superseded value is then an invented
  answer. (Where the renewal letter does state the renewed date, the question is answerable and
  the right answer is the renewed date, not the permit's own.)

Scoring (one profile, `answers`, the default gate). Per question:

    right      the answer equals the truth after normalisation, or the record does not answer
               the question and the answer is an abstention
    invented   an answer given to a question the record does not answer (any text but an
               abstention to a never-stated, underspecified or stale question, the superseded
               value included): what the task is named for
    wrong      a question the record answers, answered with a value that is not the truth (an
               OCR misread, another well's depth, text that is no value of the declared type) or
               with an abstention: wrong, not right and not invented
    no-answer  a question the prediction leaves out: wrong, not invented

Per case the counts are summed; the run's headline:

    missing_information_score            100 × max(0, (questions_right − 5 × invented_answers)
                                          ÷ questions), the category formula (categories.py)
    missing_information_score_unclipped  the same without the floor at 0 (how far below zero a
                                          system that invents freely falls)
    questions_right, invented_answers, questions   the counts the formula reads
    wrong_answers                        answerable questions answered with a wrong value or an
                                          abstention
    answerable_accuracy                  share of answerable questions answered right
    unanswerable_accuracy                share of unanswerable questions answered "not in the record"
    invented_rate                        invented_answers ÷ questions

Break-even: an invented answer costs five right ones, and only a question the record does not
answer can be answered with an invention. A system that believes a question answerable with
probability a, and would then answer it right with probability q, gains a·q − 5(1 − a) by
answering and (1 − a) by abstaining: answering pays only when a·q > 6(1 − a) (with q = 1, when
a > 6/7). Where the record does answer, a wrong value costs no more than an abstention.
Baselines: "always not in the record" scores 100 × (unanswerable share), "always answer" with a
plausible typed guess scores near 0 unclipped far below.

Traps: the superseded permit date; a second tank, well or invoice that makes "the" ambiguous;
results on other days; the deed's recording number beside the covenant's; scanned recorded
instruments (their numbers read by OCR). The errors the gate uses are ("invented", question ID),
("wrong", question ID) and ("no-answer", question ID).

Scoring versions: v1 counted a wrong value to an answerable question as invented (five times
the cost of a miss) and knew four spellings of "not in the record"; v2 counts it wrong, declares
the forms of an abstention (ABSTENTIONS, empty text included) and spells legal-entity suffixes
one way in names (Co./Company, Inc./Incorporated, Corp./Corporation, Ltd./Limited, L.L.C./LLC).

Predictions are data: `Prediction.answers` maps question IDs to text, each read only against
the patterns of `answers`; no text is evaluated, none is sent to a model. A prediction's ID that
is not a question of the case is ignored (it answers nothing).
"""

from __future__ import annotations

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
    is_not_in_record,
    paired,
    unique_ids,
)

DATASETS = {
    "synthetic-dev-v1": "envirobench/missing-information-synthetic-dev-v1",
    "synthetic-test-v1": "envirobench/missing-information-synthetic-test-v1",
}
PENALTY = 5


def _texts(instance: Any, attribute: attrs.Attribute, value: dict[str, str]) -> None:
    answer_map(instance, attribute, value)
    for key, text in value.items():
        check_answer(f"{attribute.name}[{key[:40]!r}]", text, empty_abstains=True)


@attrs.frozen
class Input:
    """One property's record (dataset-relative PDF paths) and the questions about it."""

    documents: tuple[str, ...] = attrs.field(validator=document_paths)
    questions: tuple[QuestionInput, ...] = attrs.field(validator=unique_ids)


@attrs.frozen
class Answer:
    """The truth of every question of the case, in the order of Input.questions."""

    questions: tuple[GoldAnswer, ...] = attrs.field(validator=answerable_items)


@attrs.frozen
class Prediction:
    """A system's answers: question ID -> text: a value, or an abstention ("not in the record",
    or another declared form: empty text, "Unknown", "N/A", "The record does not state this.")."""

    answers: dict[str, str] = attrs.field(validator=_texts)


def judge(question: QuestionInput, gold: GoldAnswer, text: str | None) -> str:
    """The verdict on one answer: "right", "invented" (an answer to a question the record does
    not answer), "wrong" (a wrong value, or an abstention, where the record answers) or
    "no-answer"."""
    if text is None:
        return "no-answer"
    if gold.accepts(question, text):
        return "right"
    if gold.answerable or is_not_in_record(text):
        return "wrong"
    return "invented"


class MissingInformation(envirobench.BenchmarkType):
    ID = "missing-information"
    FORMAT = "envirobench.missing-information.v1"
    LABEL = "Missing information"
    SCORING_VERSION = "envirobench.missing-information.scores.v2"
    TIER = "document"
    PROFILES = ("answers",)
    HEADLINE = (
        "missing_information_score",
        "missing_information_score_unclipped",
        "questions_right",
        "invented_answers",
        "questions",
        "wrong_answers",
        "answerable_accuracy",
        "unanswerable_accuracy",
        "invented_rate",
    )
    SOURCE_FIELDS = ("documents",)

    def score_case(
        self, case: Case, answer: Answer, prediction: Prediction
    ) -> dict[str, CaseScore]:
        counts = dict.fromkeys(
            (
                "right",
                "invented",
                "wrong",
                "no-answer",
                "answerable",
                "answerable_right",
                "unanswerable",
                "unanswerable_right",
            ),
            0,
        )
        errors: list[tuple[str, str]] = []
        for question, gold in paired(case.input.questions, answer.questions):
            verdict = judge(question, gold, prediction.answers.get(question.id))
            counts[verdict] += 1
            side = "answerable" if gold.answerable else "unanswerable"
            counts[side] += 1
            if verdict == "right":
                counts[f"{side}_right"] += 1
            else:
                errors.append((verdict, question.id))
        metrics = {
            "questions_right": float(counts["right"]),
            "invented_answers": float(counts["invented"]),
            "questions": float(len(answer.questions)),
            "wrong_answers": float(counts["wrong"]),
            "answerable": float(counts["answerable"]),
            "answerable_right": float(counts["answerable_right"]),
            "unanswerable": float(counts["unanswerable"]),
            "unanswerable_right": float(counts["unanswerable_right"]),
        }
        return {"answers": CaseScore(errors=tuple(errors), metrics=metrics)}

    def summarize_totals(
        self, profile: str, totals: Mapping[str, float], cases: int
    ) -> dict[str, float]:
        right, invented, questions = (
            totals["questions_right"],
            totals["invented_answers"],
            totals["questions"],
        )
        unclipped = 100.0 * (right - PENALTY * invented) / questions
        return {
            "missing_information_score": max(0.0, unclipped),
            "missing_information_score_unclipped": unclipped,
            "questions_right": right,
            "invented_answers": invented,
            "questions": questions,
            "wrong_answers": totals["wrong_answers"],
            "answerable_accuracy": totals["answerable_right"] / totals["answerable"]
            if totals["answerable"]
            else 1.0,
            "unanswerable_accuracy": totals["unanswerable_right"] / totals["unanswerable"]
            if totals["unanswerable"]
            else 1.0,
            "invented_rate": invented / questions,
        }
