"""`passage-rerank`: scoring (nDCG@10, essential passages, unknown passages), the pairing rules
(`is_worse`, `disagree`), strict refusals, the question generator, the shipped datasets and
their fixtures, and the reference adapter on part of the dev split."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from category_kit import assert_is_the_categories_task
from locate_kit import reference_run

from envirobench import Case, CaseScore, EnviroBenchError, read_json, structure
from envirobench_locate.generate.passage_rerank import MISTAKES, SIZES, ideal_ranking, planted
from envirobench_locate.package import PACKAGE
from envirobench_locate.passage_rerank import NDCG_EPSILON, Answer, Input, PassageRerank, Prediction
from envirobench_synth.locate.passages import CANDIDATES, QUESTION_KINDS, sample_question
from envirobench_synth.rng import make_random

TYPE = PassageRerank()
LAYOUT = PACKAGE.layout(TYPE.ID)
IDS = [f"p{i:02d}" for i in range(1, 13)]
GRADES = {"p01": 3, "p02": 2, "p03": 1, "p04": 1}  # the other eight judged 0
CASE = Case(
    "pr-1",
    "result",
    structure(
        {
            "question": "q?",
            "passages": [{"id": p, "text": f"text {p}", "source": "s"} for p in IDS],
        },
        Input,
    ),
)


def answer(grades=GRADES, essential=("p01",)):
    judged = [{"passage": p, "grade": grades.get(p, 0)} for p in IDS]
    return structure({"judgments": judged, "essential": list(essential), "kind": "result"}, Answer)


def score(ranking, truth=None):
    return TYPE.score_case(
        CASE, truth or answer(), structure({"ranking": list(ranking)}, Prediction)
    )["ranking"]


def test_the_type_is_well_formed_and_is_the_categories_task():
    assert_is_the_categories_task(TYPE)
    assert TYPE.HEADLINE[:2] == ("ndcg_cut_10", "essential_at_10")


def test_the_ideal_ranking_is_error_free_and_scores_one():
    result = score(["p01", "p02", "p03", "p04"])
    assert result.errors == ()
    assert result.metrics == {
        "ndcg_cut_10": 1.0,
        "essential": 1.0,
        "essential_found": 1.0,
        "all_essential": 1.0,
        "question": 1.0,
    }
    # Passages of equal grade may come in either order: nDCG is the same.
    assert score(["p01", "p02", "p04", "p03", "p05"]).errors == ()


def test_ndcg_is_linear_gain_over_log2_rank_plus_one_against_all_judged_passages():
    ideal = 3 + 2 / math.log2(3) + 1 / math.log2(4) + 1 / math.log2(5)
    got = 2 / math.log2(2) + 3 / math.log2(3) + 0 / math.log2(4) + 1 / math.log2(5)
    result = score(["p02", "p01", "p05", "p03"])  # p04 never ranked: still in the ideal
    assert result.metrics["ndcg_cut_10"] == pytest.approx(got / ideal, abs=1e-15)
    assert result.errors == (("ndcg-below-ideal",),)


def test_only_the_top_ten_count():
    filler = [p for p in IDS if p not in GRADES]
    assert len(filler) == 8
    result = score(filler + ["p02", "p03", "p01"])  # the essential passage at rank 11
    ideal = 3 + 2 / math.log2(3) + 1 / math.log2(4) + 1 / math.log2(5)
    assert result.metrics["ndcg_cut_10"] == pytest.approx(
        (2 / math.log2(10) + 1 / math.log2(11)) / ideal
    )
    assert ("essential-not-in-top-10", "p01") in result.errors
    assert result.metrics["essential_found"] == 0.0 and result.metrics["all_essential"] == 0.0


def test_a_passage_the_question_does_not_offer_is_an_unjudged_error():
    result = score(["x99", "p01", "p02", "p03", "p04"])
    assert ("unknown-passage", "x99") in result.errors
    assert result.metrics["ndcg_cut_10"] < 1.0


def test_an_empty_ranking_scores_zero():
    result = score([])
    assert result.metrics["ndcg_cut_10"] == 0.0
    assert set(result.errors) == {("essential-not-in-top-10", "p01"), ("ndcg-below-ideal",)}


def test_summaries_pool_the_essential_passages_and_average_ndcg():
    two = answer(essential=("p01", "p02"))
    scores = [
        score(["p01", "p02", "p03", "p04"], two),
        score(IDS[4:] + ["p03", "p04", "p01"], two),
    ]  # p01 at rank 11, p02 missing
    headline = TYPE.summarize("ranking", scores)
    assert headline["essential_at_10"] == pytest.approx(2 / 4)  # 2 of the 4 essential passages
    assert headline["all_essential_at_10"] == 0.5
    assert headline["ndcg_cut_10"] == pytest.approx((1.0 + scores[1].metrics["ndcg_cut_10"]) / 2)
    assert headline["questions"] == 2
    assert TYPE.summarize("ranking", []) == {}


# -- pairing --------------------------------------------------------------------------------------


def case_score(ndcg, errors=()):
    return CaseScore(errors=tuple(errors), metrics={"ndcg_cut_10": ndcg})


def test_a_reordering_below_the_ideal_is_worse_though_the_error_set_is_the_same():
    baseline, candidate = score(["p01", "p03", "p02"]), score(["p03", "p01", "p05", "p02"])
    assert set(baseline.errors) == set(candidate.errors) == {("ndcg-below-ideal",)}
    assert TYPE.is_worse("ranking", baseline, candidate)
    assert not TYPE.is_worse("ranking", candidate, baseline)  # the other way it is better
    assert TYPE.disagree("ranking", baseline, candidate)


def test_a_drop_within_epsilon_is_not_worse_and_one_beyond_it_is():
    assert not TYPE.is_worse("ranking", case_score(0.80), case_score(0.80 - NDCG_EPSILON * 0.9))
    assert TYPE.is_worse("ranking", case_score(0.80), case_score(0.80 - NDCG_EPSILON * 1.1))
    assert not TYPE.disagree("ranking", case_score(0.5), case_score(0.5 + NDCG_EPSILON / 2))
    assert TYPE.disagree("ranking", case_score(0.5), case_score(0.5 + NDCG_EPSILON * 2))


def test_an_essential_passage_leaving_the_top_ten_is_worse_even_when_ndcg_rises():
    lost = ("essential-not-in-top-10", "p09")
    assert TYPE.is_worse("ranking", case_score(0.6), case_score(0.7, [lost]))
    assert not TYPE.is_worse("ranking", case_score(0.6, [lost]), case_score(0.6, [lost]))
    assert TYPE.disagree("ranking", case_score(0.6), case_score(0.6, [lost]))
    assert TYPE.is_worse("ranking", case_score(0.6), case_score(0.6, [("unknown-passage", "x")]))


def test_identical_scores_neither_regress_nor_disagree():
    same = score(["p03", "p01"])
    assert not TYPE.is_worse("ranking", same, same) and not TYPE.disagree("ranking", same, same)


# -- refusals -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"ranking": ["p01", "p02", "p01"]}, "names passage 'p01' twice"),
        ({"ranking": ["p01", " "]}, "empty passage"),
        ({"ranking": "p01"}, "ranking"),
        ({"ranking": ["p01"], "scores": [1.0]}, "scores"),
        ({}, "ranking"),
    ],
)
def test_bad_predictions_are_refused_naming_the_field(raw, message):
    with pytest.raises(EnviroBenchError, match=message):
        structure(raw, Prediction)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"essential": []}, "essential is empty"),
        ({"essential": ["p03"]}, "grade 2 or 3"),
        ({"judgments": [{"passage": "p01", "grade": 4}]}, "grade 0-3"),
        ({"judgments": [{"passage": "p01", "grade": 0}]}, "no passage above 0"),
        ({"judgments": [{"passage": "p01", "grade": 3}, {"passage": "p01", "grade": 3}]}, "twice"),
    ],
)
def test_bad_answers_are_refused(change, message):
    raw = {
        "judgments": [{"passage": "p01", "grade": 3}, {"passage": "p03", "grade": 1}],
        "essential": ["p01"],
        "kind": "k",
    }
    with pytest.raises(EnviroBenchError, match=message):
        structure({**raw, **change}, Answer)


def test_an_input_needs_distinct_passages():
    raw = {"question": "q?", "passages": [{"id": "a", "text": "t", "source": "s"}] * 2}
    with pytest.raises(EnviroBenchError, match="twice"):
        structure(raw, Input)
    with pytest.raises(EnviroBenchError, match="empty"):
        structure({"question": "q?", "passages": []}, Input)


# -- the generator --------------------------------------------------------------------------------


@pytest.mark.parametrize("split", ["dev", "test"])
@pytest.mark.parametrize("kind", QUESTION_KINDS)
def test_every_question_has_its_graded_candidates_and_hard_negatives(kind, split):
    question = sample_question(make_random(1, split, kind), kind, split)
    assert len(question.passages) == CANDIDATES == len({p.id for p in question.passages})
    grades = Counter(p.grade for p in question.passages)
    essential = [p for p in question.passages if p.essential]
    assert grades[3] == 1 and all(p.grade >= 2 for p in essential)
    assert len(essential) == (2 if kind == "exceedance" else 1)
    assert grades[0] >= 8 and question.traps, "hard negatives that share the question's words"
    assert len({p.text for p in question.passages}) == CANDIDATES
    structure(
        {
            "question": question.text,
            "passages": [
                {"id": p.id, "text": p.text, "source": p.source} for p in question.passages
            ],
        },
        Input,
    )


def test_the_same_stream_gives_the_same_question():
    one = sample_question(make_random(5, "dev", "x"), "ownership", "dev")
    two = sample_question(make_random(5, "dev", "x"), "ownership", "dev")
    assert one == two


def test_test_wordings_differ_from_dev_wordings():
    """The test family names events by quarter or number and concentrations in other units."""
    dev = " ".join(
        p.text
        for k in QUESTION_KINDS
        for i in range(4)
        for p in sample_question(make_random(2, "dev", k, i), k, "dev").passages
    )
    test = " ".join(
        p.text
        for k in QUESTION_KINDS
        for i in range(4)
        for p in sample_question(make_random(2, "test", k, i), k, "test").passages
    )
    assert "µg/L" in dev and "µg/L" not in test
    assert "quarter" in test and "quarter" not in dev


# -- the shipped datasets -------------------------------------------------------------------------


def test_the_splits_are_registered_and_sized(datasets):
    assert set(datasets) == {"synthetic-dev-v1", "synthetic-test-v1"}
    for folder, (_, _, cases, answers) in datasets.items():
        split = "dev" if "dev" in folder else "test"
        assert len(cases) == SIZES[split]
        assert Counter(c.category for c in cases.values()) == {
            k: SIZES[split] // len(QUESTION_KINDS) for k in QUESTION_KINDS
        }
        assert all(a.kind == cases[cid].category for cid, a in answers.items())
    assert SIZES["test"] >= 300 and 0.4 <= SIZES["dev"] / SIZES["test"] <= 0.5


def test_no_dev_question_or_passage_is_in_test(datasets):
    def texts(folder):
        cases = datasets[folder][2]
        return {c.input.question for c in cases.values()} | {
            p.text for c in cases.values() for p in c.input.passages
        }

    assert not texts("synthetic-dev-v1") & texts("synthetic-test-v1")


def test_correct_fixture_is_ideal_and_wrong_has_exactly_the_planted_mistakes(datasets):
    for folder, (_, _, cases, answers) in datasets.items():
        fixtures = LAYOUT.fixtures_dir(folder)
        correct, wrong = read_json(fixtures / "correct.json"), read_json(fixtures / "wrong.json")
        mistakes = planted(LAYOUT.dataset_dir(folder))
        assert sorted(m.takes for m in mistakes.values()) == sorted(m.takes for m in MISTAKES)
        for cid, case in cases.items():
            assert correct[cid]["ranking"] == ideal_ranking(answers[cid])
            good = TYPE.score_case(case, answers[cid], structure(correct[cid], Prediction))[
                "ranking"
            ]
            bad = TYPE.score_case(case, answers[cid], structure(wrong[cid], Prediction))["ranking"]
            assert good.errors == ()
            assert TYPE.is_worse("ranking", good, bad) == (cid in mistakes), cid


def test_every_dataset_is_registered_with_its_split(datasets):
    registry = datasets["synthetic-dev-v1"][0]
    for folder, split in (("synthetic-dev-v1", "dev"), ("synthetic-test-v1", "test")):
        assert registry.datasets[LAYOUT.dataset_id(folder)].split == split


# -- the reference adapter ------------------------------------------------------------------------


def test_the_reference_bm25_ranks_every_passage_and_beats_the_offered_order(tmp_path, datasets):
    _, _, cases, _ = datasets["synthetic-dev-v1"]
    ids = list(cases)[:15]
    metrics = reference_run(tmp_path, TYPE.ID, ids)
    headline = metrics["profiles"]["ranking"]["headline"]
    assert headline["questions"] == 15
    # BM25 finds the stated fact far more often than chance (the offered order is shuffled).
    assert headline["ndcg_cut_10"] > 0.45 and headline["essential_at_10"] > 0.75
