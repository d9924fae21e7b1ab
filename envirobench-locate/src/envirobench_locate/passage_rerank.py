"""Benchmark type `passage-rerank`: candidate passages of a site file ranked for a question.

A case is one question about a site (`Input.question`) with its candidate passages
(`Input.passages`: an ID, the passage's text and the document it comes from), as a first-stage
retriever would hand them over: every passage shares words with the question, most do not answer
it. A system returns a *ranking*: passage IDs, best first (`Prediction.ranking`). A ranking, not
scores, so that there are no ties to break: trec_eval breaks score ties by document ID, which
lets a renaming of the documents move nDCG from 1.0 to 0.63.

The answer judges every candidate passage (`Answer.judgments`) with a grade:

    3  states the fact asked for
    2  states part of it, or leads straight to it (the table it is in, the same fact restated)
    1  on the topic (the same well, analyte, parcel or tank), without the fact
    0  not relevant (a hard negative: the same words about another well, date, parcel or site)

and names the *essential* passages (`Answer.essential`): the ones an answer cannot be given
without (one for most questions, two when the question joins two facts, e.g. a result and the
standard it is compared with). Essential passages are graded 2 or 3.

Scoring (the one profile, `ranking`, is the default gate). Per question:

    ndcg_cut_10      exactly trec_eval's `ndcg_cut.10`: DCG = sum over ranks i = 1..10 of
                     grade(passage at i) / log2(i + 1) (linear gain = the grade, so grade 0
                     adds nothing); the ideal DCG is the same sum over all judged passages sorted
                     by grade, best first, cut at 10; nDCG@10 = DCG / ideal DCG. A passage the
                     question does not offer (an unknown ID) is unjudged: gain 0, as in trec_eval.
    essential        the number of essential passages (1 or 2)
    essential_found  how many of them are in the top 10
    all_essential    1 when every essential passage is in the top 10
    question         1 (the case's weight)

Errors: ("essential-not-in-top-10", passage ID) for each essential passage ranked below 10 or
not ranked; ("unknown-passage", passage ID) for each ranked ID the question does not offer;
("ndcg-below-ideal",) when nDCG@10 is below 1 (by more than 1e-9).

Headline: `ndcg_cut_10` (primary; the mean over questions), `essential_at_10` (the share of all
essential passages that are in their question's top 10, pooled), `all_essential_at_10` (the
share of questions with every essential passage in the top 10), `questions`.

Pairing (`is_worse`, `disagree`). The error set does not say whether a reordering made a case
worse: once nDCG@10 is below 1 the error ("ndcg-below-ideal",) stays the same whatever the order.
So a case is *worse* in the candidate when its nDCG@10 dropped by more than NDCG_EPSILON (0.01)
from the baseline's, or when it has an error the baseline lacks other than "ndcg-below-ideal"
(an essential passage left the top 10, an unknown passage appeared). Two runs *disagree* on a case
when their nDCG@10 differ by more than NDCG_EPSILON or their essential passages in the top 10
(or unknown passages) differ.

Predictions are data: the strict converter reads them into `Prediction` (a list of distinct,
non-blank passage IDs); a ranking that names a passage twice is refused as invalid (trec_eval
would count it twice and reach nDCG above 1). Nothing a system returns is ever evaluated.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import attrs

import envirobench
from envirobench import Case, CaseScore, not_blank

# Each dataset folder under benchmarks/<type ID>/datasets/ -> its dataset ID.
DATASETS = {
    "synthetic-dev-v1": "envirobench/passage-rerank-synthetic-dev-v1",
    "synthetic-test-v1": "envirobench/passage-rerank-synthetic-test-v1",
}

CUTOFF = 10  # nDCG@10, essential passages in the top 10
GRADES = (0, 1, 2, 3)
NDCG_EPSILON = 0.01  # a drop in nDCG@10 larger than this makes a case worse (is_worse)
IDEAL_TOLERANCE = 1e-9  # nDCG@10 below 1 by more than this is the error ("ndcg-below-ideal",)
BELOW_IDEAL = "ndcg-below-ideal"
ESSENTIAL_MISSED = "essential-not-in-top-10"
UNKNOWN_PASSAGE = "unknown-passage"


def _distinct(what: str):
    def check(instance: Any, attribute: attrs.Attribute, value: tuple[str, ...]) -> None:
        seen: set[str] = set()
        for item in value:
            if not item.strip():
                raise ValueError(f"{attribute.name} holds an empty {what}")
            if item in seen:
                raise ValueError(f"{attribute.name} names {what} {item!r} twice")
            seen.add(item)

    return check


@attrs.frozen
class Passage:
    """One candidate passage: its ID, its text and the document it was taken from."""

    id: str = attrs.field(validator=not_blank)
    text: str = attrs.field(validator=not_blank)
    source: str = attrs.field(validator=not_blank)


def _passages(instance: Any, attribute: attrs.Attribute, value: tuple[Passage, ...]) -> None:
    if not value:
        raise ValueError(f"{attribute.name} is empty: a question needs candidate passages")
    _distinct("passage ID")(instance, attribute, tuple(p.id for p in value))


@attrs.frozen
class Input:
    """One question and its candidate passages (in the first-stage retriever's order)."""

    question: str = attrs.field(validator=not_blank)
    passages: tuple[Passage, ...] = attrs.field(validator=_passages)


def _grade(instance: Any, attribute: attrs.Attribute, value: int) -> None:
    if value not in GRADES:
        raise ValueError(f"{attribute.name} is a relevance grade 0-3, got {value}")


@attrs.frozen
class Judgment:
    """One passage judged: its grade, 0 (not relevant) to 3 (states the fact)."""

    passage: str = attrs.field(validator=not_blank)
    grade: int = attrs.field(validator=_grade)


def _judgments(instance: Any, attribute: attrs.Attribute, value: tuple[Judgment, ...]) -> None:
    _distinct("passage")(instance, attribute, tuple(j.passage for j in value))
    if not any(j.grade > 0 for j in value):
        raise ValueError(
            f"{attribute.name} grades no passage above 0: nDCG is undefined without a relevant passage"
        )


@attrs.frozen
class Answer:
    """The truth: every candidate passage judged, and the essential ones (graded 2 or 3).
    `kind` names the question's kind (for breakdowns; not scored)."""

    judgments: tuple[Judgment, ...] = attrs.field(validator=_judgments)
    essential: tuple[str, ...] = attrs.field(validator=_distinct("passage"))
    kind: str = attrs.field(validator=not_blank)

    def __attrs_post_init__(self) -> None:
        if not self.essential:
            raise ValueError(
                "essential is empty: every question has a passage it cannot be answered without"
            )
        grades = {j.passage: j.grade for j in self.judgments}
        for passage in self.essential:
            if grades.get(passage, 0) < 2:
                raise ValueError(
                    f"essential passage {passage!r} must be judged with grade 2 or 3, not {grades.get(passage)}"
                )


@attrs.frozen
class Prediction:
    """A system's ranking: passage IDs, best first, each at most once."""

    ranking: tuple[str, ...] = attrs.field(validator=_distinct("passage"))


def discount(rank: int) -> float:
    """trec_eval's discount of the 1-based rank: log2(rank + 1)."""
    return math.log2(rank + 1)


def dcg(gains: list[int] | tuple[int, ...], cutoff: int = CUTOFF) -> float:
    """Sum of gain / log2(rank + 1) over the first `cutoff` ranks, summed in rank order."""
    total = 0.0
    for index, gain in enumerate(gains[:cutoff]):
        total += gain / discount(index + 1)
    return total


def ndcg_cut(ranking: tuple[str, ...], grades: Mapping[str, int], cutoff: int = CUTOFF) -> float:
    """trec_eval's ndcg_cut at `cutoff`: linear gain, log2(rank + 1) discount, the ideal from all
    judged passages; an ID without a judgment gains 0. 0.0 when no passage is relevant."""
    ideal = dcg(sorted((g for g in grades.values() if g > 0), reverse=True), cutoff)
    if ideal == 0.0:
        return 0.0
    return dcg([grades.get(passage, 0) for passage in ranking], cutoff) / ideal


class PassageRerank(envirobench.BenchmarkType):
    ID = "passage-rerank"
    FORMAT = "envirobench.passage-rerank.v1"
    LABEL = "Passage rerank"
    SCORING_VERSION = "envirobench.passage-rerank.scores.v1"
    TIER = "component"
    PROFILES = ("ranking",)
    HEADLINE = ("ndcg_cut_10", "essential_at_10", "all_essential_at_10", "questions")
    VIEWER = "ranked-list"
    # Scoring a question is a few dozen additions, cheaper than reading its score back.
    REUSE_SCORES = False

    def score_case(
        self, case: Case, answer: Answer, prediction: Prediction
    ) -> dict[str, CaseScore]:
        offered = {p.id for p in case.input.passages}
        grades = {j.passage: j.grade for j in answer.judgments}
        ndcg = ndcg_cut(prediction.ranking, grades)
        top = set(prediction.ranking[:CUTOFF])
        missed = [p for p in answer.essential if p not in top]
        errors: list[tuple[str, ...]] = [(ESSENTIAL_MISSED, p) for p in missed]
        errors += [(UNKNOWN_PASSAGE, p) for p in prediction.ranking if p not in offered]
        if ndcg < 1.0 - IDEAL_TOLERANCE:
            errors.append((BELOW_IDEAL,))
        found = len(answer.essential) - len(missed)
        metrics = {
            "ndcg_cut_10": ndcg,
            "essential": float(len(answer.essential)),
            "essential_found": float(found),
            "all_essential": 1.0 if not missed else 0.0,
            "question": 1.0,
        }
        return {"ranking": CaseScore(errors=tuple(errors), metrics=metrics)}

    def summarize_totals(
        self, profile: str, totals: Mapping[str, float], cases: int
    ) -> dict[str, float]:
        return {
            "ndcg_cut_10": totals["ndcg_cut_10"] / cases,
            "essential_at_10": totals["essential_found"] / totals["essential"],
            "all_essential_at_10": totals["all_essential"] / cases,
            "questions": totals["question"],
        }

    def is_worse(self, profile: str, baseline: CaseScore, candidate: CaseScore) -> bool:
        """nDCG@10 dropped by more than NDCG_EPSILON, or an error the baseline lacks other than
        ("ndcg-below-ideal",): an essential passage left the top 10, an unknown passage came in."""
        if baseline.metrics["ndcg_cut_10"] - candidate.metrics["ndcg_cut_10"] > NDCG_EPSILON:
            return True
        return bool(_ranked_errors(candidate) - _ranked_errors(baseline))

    def disagree(self, profile: str, a: CaseScore, b: CaseScore) -> bool:
        """nDCG@10 differ by more than NDCG_EPSILON, or the essential or unknown passages differ."""
        if abs(a.metrics["ndcg_cut_10"] - b.metrics["ndcg_cut_10"]) > NDCG_EPSILON:
            return True
        return _ranked_errors(a) != _ranked_errors(b)


def _ranked_errors(score: CaseScore) -> set[tuple]:
    """The errors that name passages (essential missed, unknown), not the nDCG one."""
    return {e for e in score.errors if e[0] != BELOW_IDEAL}
