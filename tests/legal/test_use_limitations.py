"""`use-limitations`: matching by reference, exact items, items that are no current limitation
(foreign among them), the penalty score (scoring v2) and its break-even, the pooled F1, strict refusals, the shipped datasets (splits by family, sizes, scans, traps) and
their fixtures."""

from __future__ import annotations

import pytest
from category_kit import refusal
from legal_kit import assert_is_the_categories_task, sized_splits

from envirobench import Case, EnviroBenchError, read_json, structure
from envirobench.categories import task
from envirobench_legal.generate.use_limitations import FOCUS_SHARES, MISTAKES, SIZES, plan, planted
from envirobench_legal.package import PACKAGE
from envirobench_legal.use_limitations import (
    Answer,
    Input,
    Prediction,
    UseLimitations,
    normalize_name,
    normalize_reference,
)

TYPE = UseLimitations()
LAYOUT = PACKAGE.layout(TYPE.ID)
CASE = Case("ul-1", "plain", structure(
    {"parcel": {"apn": "123-456-07", "legal_description": "Lot 4, Block 2"}, "documents": ["assets/a.pdf", "assets/b.pdf"]},
    Input))
COVENANT = {"type": "environmental-covenant", "restrictions": ["no-groundwater-extraction", "no-residential-use"],
            "holder": "Lakeshore Land Conservancy", "reference": "2019004512"}
LIEN = {"type": "environmental-lien", "restrictions": [], "holder": "United States Environmental Protection Agency",
        "reference": "1204/77"}


def answer(*items, excluded=()):
    return structure({"limitations": list(items), "excluded": [{"reference": r, "reason": why} for r, why in excluded],
                      "traps": [], "scanned_documents": 0}, Answer)


def predict(*items):
    return structure({"limitations": list(items)}, Prediction)


def score(truth, prediction):
    return TYPE.score_case(CASE, truth, prediction)["limitations"]


def headline(*pairs):
    return TYPE.summarize("limitations", [score(truth, prediction) for truth, prediction in pairs])


def test_the_type_is_well_formed_and_is_the_categories_task():
    assert_is_the_categories_task(TYPE)
    formula = task(TYPE.ID).formula
    assert formula.required == ("exact_items", "items_not_current", "answer_items")
    assert TYPE.HEADLINE[:2] == ("limitations_score", "limitations_score_unclipped")
    assert TYPE.SCORING_VERSION == "envirobench.use-limitations.scores.v2"
    assert TYPE.source_files(CASE.input) == ("assets/a.pdf", "assets/b.pdf")


def test_references_and_names_are_compared_as_the_docstring_states():
    assert normalize_reference("Instrument No. 2019-004512") == normalize_reference("2019004512") == "2019004512"
    assert normalize_reference("Reception # 0045121") == "45121"
    assert normalize_reference("Deed Book 1204 Page 77") == normalize_reference("1204/77") == "1204/77"
    assert normalize_reference("OR BK 1204 PG 077") == "1204/77"
    assert normalize_reference("1204/77") != normalize_reference("120/477")
    assert normalize_name("The Lakeshore Land Conservancy.") == normalize_name("lakeshore land conservancy")


def test_every_item_right_in_any_order_and_spelling_is_an_exact_parcel():
    truth = answer(COVENANT, LIEN)
    said = dict(COVENANT, restrictions=["no-residential-use", "no-groundwater-extraction"],
                reference="Instrument No. 2019-004512", holder="the Lakeshore Land Conservancy")
    result = score(truth, predict(dict(LIEN, reference="Book 1204, Page 77"), said))
    assert result.errors == ()
    assert result.metrics["exact_items"] == 2 and result.metrics["parcel_exact"] == 1


def test_a_matched_item_with_a_wrong_field_names_the_field():
    truth = answer(COVENANT)
    result = score(truth, predict(dict(COVENANT, type="deed-restriction", holder="Owner",
                                       restrictions=["no-residential-use", "no-agricultural-use"])))
    assert set(result.errors) == {
        ("wrong-type", "2019004512", "environmental-covenant", "deed-restriction"),
        ("wrong-restrictions", "2019004512", "missed: no-groundwater-extraction", "extra: no-agricultural-use"),
        ("wrong-holder", "2019004512"),
    }
    assert result.metrics["matched_items"] == 1 and result.metrics["exact_items"] == 0
    assert result.metrics["type_right"] == result.metrics["restrictions_right"] == result.metrics["holder_right"] == 0


@pytest.mark.parametrize("reason, foreign", [("other-parcel", 1), ("released", 1), ("terminated", 1),
                                             ("not-signed-by-agency", 0), ("easement", 0), ("amendment", 0)])
def test_listing_an_instrument_that_is_no_current_limitation_names_why(reason, foreign):
    truth = answer(COVENANT, excluded=[("555", reason)])
    result = score(truth, predict(COVENANT, dict(LIEN, reference="555")))
    assert result.errors == (("not-a-current-limitation", "555", reason),)
    assert result.metrics["foreign_items"] == foreign and result.metrics["parcel_exact"] == 0
    assert result.metrics["items_not_current"] == 1


def test_missing_invented_and_duplicate_items_are_errors():
    result = score(answer(COVENANT, LIEN), predict(COVENANT, COVENANT, dict(LIEN, reference="999")))
    assert set(result.errors) == {("missing-limitation", "1204/77"), ("unknown-reference", "999"),
                                  ("duplicate-limitation", "2019004512")}
    assert result.metrics["predicted_items"] == 3 and result.metrics["exact_items"] == 1
    # the duplicate and the unknown reference match no current limitation
    assert result.metrics["matched_items"] == 1 and result.metrics["items_not_current"] == 2


def test_the_headline_pools_items_over_parcels():
    values = headline(
        (answer(COVENANT, LIEN), predict(COVENANT)),  # one of two found
        (answer(), predict()),  # nothing recorded, nothing said
        (answer(excluded=[("555", "released")]), predict(dict(LIEN, reference="555"))),  # a released lien listed
    )
    assert values["limitations_f1"] == pytest.approx(2 * 1 / (2 + 2))
    assert values["limitations_precision"] == pytest.approx(0.5) and values["limitations_recall"] == pytest.approx(0.5)
    assert values["parcels_exact"] == pytest.approx(1 / 3)
    assert values["foreign_items"] == 1 and values["answer_items"] == 2 and values["predicted_items"] == 2
    # 1 exact, 1 released lien listed (no current limitation), 2 limitations: 100 × (1 − 5 × 1) ÷ 2
    assert values["items_not_current"] == 1
    assert values["limitations_score_unclipped"] == pytest.approx(100 * (1 - 5 * 1) / 2)
    assert values["limitations_score"] == 0.0


def test_a_wrong_field_costs_the_item_but_no_penalty():
    values = headline((answer(COVENANT, LIEN), predict(COVENANT, dict(LIEN, holder="County of Marlow"))))
    assert (values["exact_items"], values["items_not_current"], values["answer_items"]) == (1, 0, 2)
    assert values["limitations_score"] == values["limitations_score_unclipped"] == pytest.approx(100 * (1 - 0) / 2)


def test_saying_nothing_scores_zero_and_nothing_everywhere_is_perfect():
    assert headline((answer(COVENANT), predict()))["limitations_score"] == 0.0
    assert headline((answer(COVENANT), predict()))["limitations_f1"] == 0.0
    assert headline((answer(COVENANT), predict()))["limitations_precision"] == 0.0
    assert headline((answer(), predict()))["limitations_f1"] == 1.0
    assert TYPE.summarize("limitations", []) == {}


def test_the_break_even_of_the_score_is_five_in_six():
    # 4 of 5 limitations listed exactly; one more item, exact with chance p and otherwise no current
    # limitation, changes the expected score by 100 × (p − 5 × (1 − p)) ÷ 5: it pays iff p > 5/6.
    def expected(p, listed):
        exact, bad = 4 + (p if listed else 0), (1 - p) if listed else 0
        return 100 * (exact - 5 * bad) / 5

    base = expected(0, False)
    assert base == pytest.approx(80)
    assert expected(5 / 6 + 0.01, True) > base > expected(5 / 6 - 0.01, True)
    truth = answer(COVENANT, LIEN, excluded=[("555", "released")])
    assert headline((truth, predict(COVENANT)))["limitations_score"] == pytest.approx(50)
    assert headline((truth, predict(COVENANT, dict(LIEN, reference="555"))))["limitations_score_unclipped"] == (
        pytest.approx(100 * (1 - 5) / 2))


def test_the_break_even_of_the_f1_is_half_the_f1():
    # 4 of 5 items exact (F1 0.8 when listed alone); one more item pays iff its chance exceeds 0.4.
    def expected_f1(p, listed):
        exact, predicted = 4 + (p if listed else 0), 4 + listed
        return 2 * exact / (predicted + 5)

    base = expected_f1(0, False)
    assert base == pytest.approx(8 / 9)
    assert expected_f1(base / 2 + 0.01, True) > base > expected_f1(base / 2 - 0.01, True)


@pytest.mark.parametrize(
    "raw, message",
    [
        ({"limitations": [dict(COVENANT, type="mortgage")]}, "$.limitations[0].type"),
        ({"limitations": [dict(COVENANT, restrictions=["no-smoking"])]}, "$.limitations[0].restrictions"),
        ({"limitations": [dict(COVENANT, restrictions=["no-residential-use", "no-residential-use"])]}, "twice"),
        ({"limitations": [dict(COVENANT, holder=" ")]}, "holder is empty"),
        ({"limitations": [dict(COVENANT, reference=2019004512)]}, "$.limitations[0].reference"),
        ({"limitations": [dict(COVENANT, note="x")]}, "note"),
        ({}, "limitations"),
    ],
)
def test_bad_predictions_are_refused_with_their_path(raw, message):
    assert "predictions.json" in refusal(raw, Prediction, message, file="predictions.json", path="$")


@pytest.mark.parametrize(
    "change, message",
    [
        ({"documents": []}, "documents is empty"),
        ({"documents": ["a.pdf", "a.pdf"]}, "twice"),
        ({"documents": ["a.png"]}, "PDF"),
        ({"parcel": {"apn": "", "legal_description": "Lot 1"}}, "apn is empty"),
    ],
)
def test_bad_inputs_are_refused_naming_the_field(change, message):
    raw = {"parcel": {"apn": "1", "legal_description": "Lot 1"}, "documents": ["a.pdf"], **change}
    refusal(raw, Input, message, path="$.input")


def test_an_answer_keeps_restrictions_sorted():
    raw = {"limitations": [dict(COVENANT, restrictions=["no-residential-use", "no-groundwater-extraction"])],
           "excluded": [], "traps": [], "scanned_documents": 0}
    with pytest.raises(EnviroBenchError, match="sorted and distinct"):
        structure(raw, Answer, file="answers.jsonl", line=3, path="$.answer")


# -- the shipped datasets ---------------------------------------------------------------------------


def test_the_splits_are_registered_sized_scanned_and_small(datasets):
    total = 0
    for _, dataset, cases, answers in sized_splits(TYPE, datasets, SIZES):
        assert {c.category for c in cases.values()} == set(FOCUS_SHARES)
        documents = sum(len(c.input.documents) for c in cases.values())
        assert all(3 <= len(c.input.documents) <= 5 for c in cases.values())
        assert sum(a.scanned_documents for a in answers.values()) == documents // 5
        assert {item.type for a in answers.values() for item in a.limitations} >= {
            "environmental-covenant", "activity-use-limitation", "deed-restriction", "environmental-lien"}
        total += sum(entry.size for entry in dataset.manifest.files)
    test_answers = datasets["synthetic-test-v1"][3]
    assert sum(len(a.limitations) for a in test_answers.values()) >= 600  # the design's ≈ 600 scored units
    # 650 searches (600 in test), their scans 1-bit Group 4 archival copies (photocopy specks,
    # bleed-through and hand-fed skew cost bytes): ~22 MB of the Legal wheel's 41.5 MB.
    assert total < 24_000_000


def test_the_plan_keeps_recorders_apart_and_scans_every_fifth_pdf():
    dev, test = plan("synthetic-dev-v1"), plan("synthetic-test-v1")
    assert not {c.recorder for c in dev} & {c.recorder for c in test}
    assert plan("synthetic-dev-v1") == dev  # seeded
    assert [c.first_document for c in dev[1:4]] == [dev[0].documents, dev[0].documents + dev[1].documents,
                                                     dev[0].documents + dev[1].documents + dev[2].documents]


def test_blind_listings_score_low_on_every_split(datasets):
    for _, (_, _, cases, answers) in datasets.items():
        nothing = TYPE.summarize("limitations", [score(answers[cid], predict()) for cid in cases])
        assert nothing["limitations_score"] == nothing["limitations_f1"] == 0.0
        assert 0.05 <= nothing["parcels_exact"] <= 0.3
        every = []
        for cid in cases:
            items = [dict(COVENANT, type="deed-restriction", restrictions=[], reference=item.reference)
                     for item in answers[cid].limitations + tuple(answers[cid].excluded)]
            every.append(score(answers[cid], predict(*items)))
        every_headline = TYPE.summarize("limitations", every)
        assert every_headline["limitations_f1"] < 0.1 and every_headline["foreign_items"] > 10
        assert every_headline["limitations_score"] == 0.0


def fixture_scores(folder, name, cases, answers):
    predictions = read_json(LAYOUT.fixtures_dir(folder) / f"{name}.json")
    assert sorted(predictions) == sorted(cases)
    return {cid: score(answers[cid], structure(predictions[cid], Prediction)) for cid in cases}


def test_correct_fixture_has_no_error_and_wrong_has_exactly_the_planted_ones(datasets):
    for folder, (_, _, cases, answers) in datasets.items():
        assert all(not s.errors for s in fixture_scores(folder, "correct", cases, answers).values())
        wrong = {cid: s for cid, s in fixture_scores(folder, "wrong", cases, answers).items() if s.errors}
        mistakes = planted(LAYOUT.dataset_dir(folder))
        assert sorted(wrong) == sorted(mistakes) and len(mistakes) == len(MISTAKES)
        foreign = {mistakes[cid].focus for cid, s in wrong.items() if s.metrics["foreign_items"]}
        assert foreign == {"released-lien", "adjoining-parcel"}
