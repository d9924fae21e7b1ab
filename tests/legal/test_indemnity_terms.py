"""`indemnity-terms`: scoring (the declared overstating errors, understating ones, name
normalisation, the penalty and the unclipped value), strict refusals, the shipped datasets and
their fixtures, and the contracts generator."""

from __future__ import annotations

import re

import pytest
from category_kit import refusal
from legal_kit import assert_is_the_categories_task

from envirobench import (
    Case,
    EnviroBenchError,
    read_json,
    structure,
)
from envirobench.categories import INDEMNITY_TERMS
from envirobench_legal.generate.indemnity_terms import MISTAKES, SIZES, plan, planted
from envirobench_legal.indemnity_terms import (
    FIELDS,
    SCOPE_BREADTH,
    Answer,
    IndemnityTerms,
    Input,
    Prediction,
    normalize_party,
)
from envirobench_legal.package import PACKAGE
from envirobench_synth.legal import render_instrument
from envirobench_synth.legal.contracts import (
    CONTRACT_SPLITS,
    EXECUTED,
    WORDING,
    add_months,
    contract_template,
    sample_contract,
)
from envirobench_synth.rng import make_random

TYPE = IndemnityTerms()
LAYOUT = PACKAGE.layout(TYPE.ID)
CASE = Case("it-1", "pre-closing-conditions", Input(document="assets/it-1.pdf", as_of="2024-06-30"))
TRUTH = {
    "indemnitor": "Redfern Petroleum Company",
    "indemnitee": "Blue Heron Holdings, LLC",
    "scope": "pre-closing-conditions",
    "cap": 1_000_000,
    "basket": {"type": "deductible", "amount": 50_000},
    "de_minimis": 10_000,
    "survival_months": 24,
    "survival_end": "2022-03-15",
    "exclusions": ["buyer-initiated-testing", "late-notice"],
    "executed": False,
}


def answer(**change):
    extra = {"form": "purchase-and-sale", "closing_date": "2020-03-15", "scanned": False, "traps": []}
    return structure({**TRUTH, **extra, **change}, Answer)


def predict(**change):
    return structure({**TRUTH, **change}, Prediction)


def score(prediction, truth=None):
    return TYPE.score_case(CASE, truth or answer(), prediction)["terms"]


def test_the_type_is_well_formed_and_is_the_categories_task():
    assert_is_the_categories_task(TYPE)
    assert TYPE.source_files(CASE.input) == ("assets/it-1.pdf",)


def test_the_right_terms_are_exact():
    result = score(predict())
    assert result.errors == ()
    assert result.metrics["contract_exact"] == 1.0 and result.metrics["contract_overstating"] == 0.0
    assert all(result.metrics[f"{field}_right"] == 1.0 for field in FIELDS)


@pytest.mark.parametrize(
    "variant",
    ["REDFERN PETROLEUM CO.", "Redfern Petroleum", "the Redfern Petroleum Company", "Redfern  Petroleum Co"],
)
def test_party_names_match_across_case_punctuation_and_entity_suffixes(variant):
    assert score(predict(indemnitor=variant)).errors == ()
    assert normalize_party("Blue Heron Holdings, L.L.C.") == normalize_party("BLUE HERON HOLDINGS LLC")
    assert normalize_party("Harbor & Lane Inc.") == normalize_party("Harbor and Lane")
    assert normalize_party("Redfern Energy Group, Inc.") != normalize_party("Redfern Petroleum Company")


@pytest.mark.parametrize(
    "change, error",
    [
        ({"indemnitee": "Redfern Petroleum Company"}, ("wrong-indemnitee", "Blue Heron Holdings, LLC", "Redfern Petroleum Company")),
        ({"scope": "all-environmental-liabilities"}, ("scope-wider", "pre-closing-conditions", "all-environmental-liabilities")),
        ({"cap": None}, ("cap-ignored", 1_000_000)),
        ({"cap": 2_000_000}, ("cap-higher", 1_000_000, 2_000_000)),
        ({"basket": None}, ("basket-ignored", "deductible")),
        ({"basket": {"type": "deductible", "amount": 25_000}}, ("basket-lower", 50_000, 25_000)),
        ({"basket": {"type": "tipping", "amount": 50_000}}, ("deductible-read-as-tipping",)),
        ({"de_minimis": None}, ("de-minimis-ignored", 10_000)),
        ({"de_minimis": 5_000}, ("de-minimis-lower", 10_000, 5_000)),
        ({"exclusions": ["buyer-initiated-testing"]}, ("exclusion-missed", "late-notice")),
        ({"executed": True}, ("draft-read-as-binding",)),
    ],
)
def test_each_declared_overstating_error_overstates(change, error):
    result = score(predict(**change))
    assert result.errors == (error,)
    assert result.metrics["contract_overstating"] == 1.0 and result.metrics["contract_exact"] == 0.0


@pytest.mark.parametrize(
    "change, error",
    [
        ({"indemnitor": "Blue Heron Holdings, LLC"}, ("wrong-indemnitor", "Redfern Petroleum Company", "Blue Heron Holdings, LLC")),
        ({"scope": "breach-of-representations"}, ("scope-narrower", "pre-closing-conditions", "breach-of-representations")),
        ({"cap": 500_000}, ("cap-lower", 1_000_000, 500_000)),
        ({"basket": {"type": "deductible", "amount": 75_000}}, ("basket-higher", 50_000, 75_000)),
        ({"de_minimis": 25_000}, ("de-minimis-higher", 10_000, 25_000)),
        ({"exclusions": ["buyer-initiated-testing", "late-notice", "risk-based-remedy"]},
         ("exclusion-invented", "risk-based-remedy")),
    ],
)
def test_understating_errors_are_not_exact_but_do_not_overstate(change, error):
    result = score(predict(**change))
    assert result.errors == (error,)
    assert result.metrics["contract_overstating"] == 0.0 and result.metrics["contract_exact"] == 0.0


def test_a_party_not_found_is_not_exact_and_never_overstates():
    """A system that cannot find the indemnity can say so (null) instead of naming someone."""
    result = score(predict(indemnitor=None, indemnitee=None))
    assert result.errors == (("indemnitor-not-found", TRUTH["indemnitor"]), ("indemnitee-not-found", TRUTH["indemnitee"]))
    assert result.metrics["contract_overstating"] == 0.0 and result.metrics["contract_exact"] == 0.0
    assert result.metrics["indemnitee_right"] == 0.0
    # A name that is not the protected party's still overstates, whatever it says.
    assert score(predict(indemnitee="unknown")).metrics["contract_overstating"] == 1.0
    # The truth always names its parties.
    with pytest.raises(EnviroBenchError, match=r"\$\.indemnitee"):
        structure({**TRUTH, "form": "purchase-and-sale", "closing_date": "2020-03-15", "scanned": False, "traps": [],
                   "indemnitee": None}, Answer, path="$")


def test_understating_where_the_truth_has_none():
    bare = answer(cap=None, basket=None, de_minimis=None, survival_months=None, survival_end=None, exclusions=[],
                  executed=True)
    invented = predict(cap=100, basket={"type": "tipping", "amount": 1}, de_minimis=1, survival_months=12,
                       survival_end="2021-03-15", exclusions=[], executed=False)
    result = score(invented, bare)
    assert result.errors == (("cap-invented", 100), ("basket-invented", "tipping"), ("de-minimis-invented", 1),
                             ("survival-shorter", None, 12), ("wrong-survival-end", None, "2021-03-15"),
                             ("executed-read-as-draft",))
    assert result.metrics["contract_overstating"] == 0.0
    tipping = score(predict(basket={"type": "deductible", "amount": 50_000}), answer(basket={"type": "tipping", "amount": 50_000}))
    assert tipping.errors == (("tipping-read-as-deductible",),) and tipping.metrics["contract_overstating"] == 0.0


def test_survival_read_longer_or_an_expired_survival_read_as_live_overstates():
    # The truth ended 2022-03-15, before as_of (2024-06-30).
    longer = score(predict(survival_months=36, survival_end="2023-03-15"))
    assert longer.errors == (("survival-longer", 24, 36), ("wrong-survival-end", "2022-03-15", "2023-03-15"))
    assert longer.metrics["contract_overstating"] == 1.0
    live = score(predict(survival_end="2024-09-15"))
    assert live.errors == (("expired-survival-read-as-live", "2022-03-15", "2024-09-15"),)
    assert live.metrics["contract_overstating"] == 1.0
    unlimited = score(predict(survival_months=None, survival_end=None))
    assert unlimited.errors == (("survival-longer", 24, None), ("expired-survival-read-as-live", "2022-03-15", None))
    shorter = score(predict(survival_months=12, survival_end="2021-03-15"))
    assert shorter.metrics["contract_overstating"] == 0.0
    # A live survival with a wrong end date is wrong, not overstating.
    live_truth = answer(survival_months=60, survival_end="2025-03-15")
    later = score(predict(survival_months=60, survival_end="2025-04-15"), live_truth)
    assert later.errors == (("wrong-survival-end", "2025-03-15", "2025-04-15"),)
    assert later.metrics["contract_overstating"] == 0.0


def test_scope_breadth_is_the_declared_order():
    assert SCOPE_BREADTH == ("scheduled-matters-only", "breach-of-representations", "pre-closing-conditions",
                             "all-environmental-liabilities")
    narrow = answer(scope="scheduled-matters-only")
    for wider in SCOPE_BREADTH[1:]:
        assert score(predict(scope=wider), narrow).metrics["contract_overstating"] == 1.0


def test_the_headline_is_the_published_formula_with_its_unclipped_value():
    scores = [score(predict())] * 8 + [score(predict(cap=None)), score(predict(cap=1))]
    headline = TYPE.summarize("terms", scores)
    assert headline["contracts_exact"] == 8 and headline["contracts_overstating"] == 1 and headline["contracts"] == 10
    assert headline["indemnity_score"] == pytest.approx(100 * (8 - 5) / 10)
    assert headline["indemnity_score_unclipped"] == pytest.approx(30.0)
    assert headline["cap_accuracy"] == pytest.approx(0.8) and headline["scope_accuracy"] == 1.0
    assert INDEMNITY_TERMS.evaluate(headline, "indemnity_score") == pytest.approx(headline["indemnity_score"])
    assert set(headline) == set(TYPE.HEADLINE)
    assert TYPE.summarize("terms", []) == {}


def test_the_break_even_is_five_in_six():
    even = [score(predict())] * 5 + [score(predict(executed=True))]
    assert TYPE.summarize("terms", even)["indemnity_score_unclipped"] == pytest.approx(0.0)
    worse = [score(predict())] * 4 + [score(predict(executed=True))] * 2
    headline = TYPE.summarize("terms", worse)
    assert headline["indemnity_score"] == 0.0 and headline["indemnity_score_unclipped"] < 0
    import envirobench_legal.indemnity_terms as module

    assert "right more than 5 in 6 times" in " ".join((module.__doc__ or "").split())


@pytest.mark.parametrize(
    "raw, message",
    [
        ({"scope": "everything"}, "$.scope"),
        ({"cap": "1000000"}, "$.cap"),
        ({"cap": 1.5}, "$.cap"),
        ({"cap": -1}, "not negative"),
        ({"basket": {"type": "mini", "amount": 1}}, "$.basket.type"),
        ({"survival_end": "15/03/2022"}, "ISO date"),
        ({"survival_end": "2022-02-30"}, "calendar date"),
        ({"survival_months": 0}, "positive number of months"),
        ({"survival_end": None}, "both null"),
        ({"exclusions": ["late-notice", "buyer-initiated-testing"]}, "sorted and distinct"),
        ({"exclusions": ["force-majeure"]}, "$.exclusions"),
        ({"executed": "yes"}, "$.executed"),
        ({"indemnitee": " ,. "}, "must name a party"),
        ({"confidence": 0.9}, "confidence"),
    ],
)
def test_bad_predictions_are_refused_with_their_path(raw, message):
    assert "predictions.json" in refusal({**TRUTH, **raw}, Prediction, message, file="predictions.json", path="$")


def test_bad_inputs_and_answers_are_refused_naming_the_field():
    with pytest.raises(EnviroBenchError, match=re.escape("as_of")):
        structure({"document": "a.pdf", "as_of": "June 2024"}, Input, path="$.input")
    with pytest.raises(EnviroBenchError, match="PDF"):
        structure({"document": "a.png", "as_of": "2024-06-30"}, Input, path="$.input")
    with pytest.raises(EnviroBenchError, match=re.escape("$.answer.form")) as caught:
        structure({**TRUTH, "form": "lease", "closing_date": "2020-03-15", "scanned": False, "traps": []}, Answer,
                  file="answers.jsonl", line=3, path="$.answer")
    assert "answers.jsonl" in str(caught.value)


# -- the contracts generator --------------------------------------------------------------------------


def test_months_are_added_to_the_closing_date_as_the_docstring_says():
    import datetime as dt

    assert add_months(dt.date(2020, 3, 15), 24) == dt.date(2022, 3, 15)
    assert add_months(dt.date(2019, 8, 31), 6) == dt.date(2020, 2, 29)
    assert add_months(dt.date(2020, 11, 30), 3) == dt.date(2021, 2, 28)


def test_the_plan_keeps_families_apart_and_scans_every_fifth():
    dev, test = plan("synthetic-dev-v1"), plan("synthetic-test-v1")
    assert len(dev) == SIZES["dev"] and len(test) == SIZES["test"] >= 100
    assert not {c.template for c in dev} & {c.template for c in test}
    assert [c.scanned for c in dev[:10]] == [False, False, False, False, True] * 2
    assert all(c.form == "indemnity-agreement" for c in dev + test if c.execution == "recorded")
    assert plan("synthetic-dev-v1") == dev


def test_the_drafting_styles_of_dev_never_occur_in_test():
    for term, splits in WORDING.items():
        assert not set(splits["dev"]) & set(splits["test"]), term


@pytest.mark.parametrize("execution", sorted(EXECUTED))
def test_every_execution_scenario_renders_reproducibly_with_its_truth(execution):
    from envirobench_synth.legal import recorder

    def render():
        form = "indemnity-agreement" if execution == "recorded" else "purchase-and-sale"
        contract = sample_contract(make_random(3, execution), "dev", contract_template(CONTRACT_SPLITS["dev"][0]),
                                   execution, form, recorder("marlow-or"))
        return contract, render_instrument(contract.instrument, 3, execution)

    (contract, first), (_, second) = render(), render()
    assert first.pdf == second.pdf and first.pdf.startswith(b"%PDF")
    assert contract.terms.executed == EXECUTED[execution]
    assert first.evidence_pages
    with pytest.raises(ValueError, match="unknown execution scenario"):
        sample_contract(make_random(3), "dev", contract_template("ashcombe-vries"), "signed", "purchase-and-sale")


# -- the shipped datasets ---------------------------------------------------------------------------


def test_the_splits_are_sized_scanned_in_part_and_set_every_trap(datasets):
    total = 0
    for folder, (_, dataset, cases, answers) in datasets.items():
        split = "dev" if "dev" in folder else "test"
        assert len(cases) == SIZES[split]
        assert {a.scope for a in answers.values()} == set(SCOPE_BREADTH)
        assert sum(a.scanned for a in answers.values()) == len(cases) // 5
        traps = {t for a in answers.values() for t in a.traps}
        assert {"percent-cap", "rep-cap-elsewhere", "other-survival", "notwithstanding-scope", "cross-reference",
                "access-indemnity", "parent-indemnitor", "benign-notice"} <= traps
        executed = sum(a.executed for a in answers.values())
        assert 0.5 <= executed / len(answers) <= 0.7
        expired = sum(1 for cid, a in answers.items() if a.survival_end and a.survival_end < cases[cid].input.as_of)
        assert expired >= len(cases) // 5
        total += sum(entry.size for entry in dataset.manifest.files)
    assert total < 20_000_000  # 660 contracts (600 in test): ~17.5 MB of the Legal wheel's 50 MB


def test_the_blind_maximal_reading_scores_zero_on_every_split(datasets):
    for _, (_, _, cases, answers) in datasets.items():
        scores = []
        for cid, case in cases.items():
            a = answers[cid]
            bold = structure({"indemnitor": a.indemnitor, "indemnitee": a.indemnitee,
                              "scope": "all-environmental-liabilities", "cap": None, "basket": None, "de_minimis": None,
                              "survival_months": None, "survival_end": None, "exclusions": [], "executed": True}, Prediction)
            scores.append(TYPE.score_case(case, a, bold)["terms"])
        headline = TYPE.summarize("terms", scores)
        assert headline["indemnity_score"] == 0.0 and headline["contracts_overstating"] > 0.9 * headline["contracts"]


def test_correct_fixture_has_no_error_and_wrong_has_exactly_the_planted_ones(datasets):
    for folder, (_, _, cases, answers) in datasets.items():
        mistakes = planted(LAYOUT.dataset_dir(folder))
        assert len(mistakes) == len(MISTAKES)
        for name in ("correct", "wrong"):
            predictions = read_json(LAYOUT.fixtures_dir(folder) / f"{name}.json")
            assert sorted(predictions) == sorted(cases)
            for cid, case in cases.items():
                result = TYPE.score_case(case, answers[cid], structure(predictions[cid], Prediction))["terms"]
                expected = None if name == "correct" or cid not in mistakes else mistakes[cid].overstating
                assert bool(result.errors) == (expected is not None), (name, cid)
                assert result.metrics["contract_overstating"] == (1.0 if expected else 0.0), (name, cid)
