"""The scorer of `{{ cookiecutter.type_id }}`, case by case."""

import pytest
from envirobench import Case, EnviroBenchError, structure

from {{ cookiecutter.package_name }}.well_ids import Answer, Input, Prediction, WellIds, normalize

CASE = Case("t1", "field-note", Input("Gauged MW-3 and MW 12R. SB-4 backfilled."))
ANSWER = Answer(("MW-3", "MW-12R"))


def score(*wells):
    return WellIds().score_case(CASE, ANSWER, Prediction(tuple(wells)))


def test_the_right_wells_in_any_order_score_no_error():
    for profile, result in score("MW-12R", "MW-3", "MW-3").items():
        assert result.errors == () and result.metrics == {"tp": 2.0, "fp": 0.0, "fn": 0.0, "exact": 1.0}, profile


def test_a_missed_well_and_a_soil_boring():
    result = score("MW-3", "SB-4")
    for profile in ("exact", "normalized"):
        assert result[profile].errors == (("missed-well", "MW-12R"), ("spurious-well", "SB-4"))
        assert result[profile].metrics == {"tp": 1.0, "fp": 1.0, "fn": 1.0, "exact": 0.0}


def test_a_non_canonical_id_is_an_error_in_exact_only():
    result = score("MW-3", "mw 012r")
    assert result["exact"].errors == (("missed-well", "MW-12R"), ("spurious-well", "mw 012r"))
    assert result["normalized"].errors == ()


@pytest.mark.parametrize(
    ("text", "expected"),
    [("MW-7", "MW-7"), ("mw 07", "MW-7"), ("MW7d", "MW-7D"), ("Monitoring Well 12R", "MW-12R"), ("SB-4", "SB-4"), (" PZ-2 ", "PZ-2")],
)
def test_normalize(text, expected):
    assert normalize(text) == expected


def test_an_answer_must_be_canonical_and_each_well_once():
    for wells in (["MW 7"], ["MW-7", "MW-7"], ["MW-07"]):
        with pytest.raises(EnviroBenchError):
            structure({"wells": wells}, Answer)


def test_headline_pools_counts():
    btype = WellIds()
    scores = [score("MW-3", "MW-12R")["exact"], score("MW-3")["exact"]]
    headline = btype.summarize("exact", scores)
    assert headline["well_f1"] == pytest.approx(2 * 3 / (2 * 3 + 0 + 1))
    assert headline["texts_exact"] == 0.5
