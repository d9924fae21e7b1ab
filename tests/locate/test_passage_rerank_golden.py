"""The passage-rerank scorer's nDCG@10 is trec_eval's `ndcg_cut.10`, checked against trec_eval
itself (pytrec_eval, its C code) on 1,200 random questions and rankings: equal to 1e-12.

The rankings are drawn to reach every corner of the definition: grades 0-3 with some passages
judged 0 or unjudged, rankings shorter and longer than 10, rankings that hold IDs the question does
not judge, questions with fewer relevant passages than the cutoff and with more. trec_eval is
given the ranking as scores that fall with the rank (no ties), so its tie-breaking by document ID
never comes into play, as it cannot for a system that returns a ranking."""

from __future__ import annotations

import random

import pytest

from envirobench import Case, structure
from envirobench_locate.passage_rerank import Answer, Input, PassageRerank, Prediction, ndcg_cut

pytrec_eval = pytest.importorskip("pytrec_eval")

QUESTIONS = 1200
TYPE = PassageRerank()


def random_question(rng: random.Random, number: int) -> tuple[dict[str, int], list[str]]:
    """(judged passage -> grade, a ranking) of one random question."""
    passages = [f"d{number}-{i}" for i in range(rng.randint(1, 40))]
    grades = {p: rng.choice((0, 0, 1, 2, 3)) for p in passages}
    grades[rng.choice(passages)] = rng.randint(1, 3)  # at least one relevant passage
    offered = passages + [f"u{number}-{i}" for i in range(rng.randint(0, 5))]  # some never judged
    ranking = rng.sample(offered, rng.randint(0, len(offered)))
    return grades, ranking


def trec_eval_ndcg_cut_10(
    questions: dict[str, tuple[dict[str, int], list[str]]],
) -> dict[str, float]:
    qrels = {q: dict(grades) for q, (grades, _) in questions.items()}
    run = {
        q: {p: float(len(ranking) - rank) for rank, p in enumerate(ranking)}
        for q, (_, ranking) in questions.items()
    }
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10"})
    measured = evaluator.evaluate({q: r for q, r in run.items() if r})
    # trec_eval leaves out a query with nothing retrieved; its nDCG is 0 by the same definition.
    return {q: measured[q]["ndcg_cut_10"] if q in measured else 0.0 for q in questions}


def test_ndcg_cut_10_equals_trec_eval_on_random_rankings():
    rng = random.Random(20261201)
    questions = {f"q{n}": random_question(rng, n) for n in range(QUESTIONS)}
    expected = trec_eval_ndcg_cut_10(questions)
    assert len(expected) == QUESTIONS
    differences = {
        q: abs(ndcg_cut(tuple(ranking), grades) - expected[q])
        for q, (grades, ranking) in questions.items()
    }
    worst = max(differences, key=differences.get)
    assert differences[worst] <= 1e-12, (worst, differences[worst])
    # The comparison means something: the rankings reach every part of the range.
    values = sorted(expected.values())
    assert (
        values[0] == 0.0
        and values[-1] == pytest.approx(1.0)
        and 0.2 < values[len(values) // 2] < 0.8
    )


def test_the_type_scores_what_trec_eval_measures():
    """Through score_case (the type's own path: converter, passages offered, metrics)."""
    rng = random.Random(7)
    questions = {f"q{n}": random_question(rng, n) for n in range(200)}
    expected = trec_eval_ndcg_cut_10(questions)
    for q, (grades, ranking) in questions.items():
        offered = sorted(grades) + [p for p in ranking if p not in grades]
        case = Case(
            q,
            "any",
            structure(
                {
                    "question": "?",
                    "passages": [{"id": p, "text": p, "source": "s"} for p in offered],
                },
                Input,
            ),
        )
        relevant = [p for p, g in grades.items() if g >= 2] or [max(grades, key=grades.get)]
        if grades[relevant[0]] < 2:
            grades[relevant[0]] = 2
            expected[q] = trec_eval_ndcg_cut_10({q: (grades, ranking)})[q]
        answer = structure(
            {
                "judgments": [{"passage": p, "grade": g} for p, g in grades.items()],
                "essential": relevant[:1],
                "kind": "k",
            },
            Answer,
        )
        score = TYPE.score_case(case, answer, structure({"ranking": ranking}, Prediction))[
            "ranking"
        ]
        assert abs(score.metrics["ndcg_cut_10"] - expected[q]) <= 1e-12, q
