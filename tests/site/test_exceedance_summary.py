"""exceedance-summary: a right exceedance needs the governing standard's value (converted); the
table, the result value and the source page are reported beside it."""

from __future__ import annotations

import pytest
from site_kit import exceedances_answer, headline, score

from envirobench_site.exceedance_summary import ExceedanceSummary


def correct() -> dict:
    out = []
    for e in exceedances_answer()["exceedances"]:
        out.append(
            {
                k: e[k]
                for k in (
                    "location",
                    "depth",
                    "sample_date",
                    "analyte",
                    "matrix",
                    "value",
                    "unit",
                    "standard",
                    "source",
                )
            }
        )
    return {"exceedances": out}


def test_the_answer_predicted_back_is_perfect():
    assert score(ExceedanceSummary, exceedances_answer(), correct()).errors == ()
    h = headline(ExceedanceSummary, exceedances_answer(), correct())
    assert h["exceedance_f1"] == 1.0 and h["table_accuracy"] == 1.0 and h["value_accuracy"] == 1.0
    assert h["source_accuracy"] == 1.0 and h["exceedances"] == 2


def test_the_standard_in_another_unit_is_converted():
    prediction = correct()
    prediction["exceedances"][0]["standard"] = {"value": 5, "unit": "ug/L"}  # no table given
    s = score(ExceedanceSummary, exceedances_answer(), prediction)
    assert s.errors == ()
    assert headline(ExceedanceSummary, exceedances_answer(), prediction)["table_accuracy"] == 0.5


def test_another_editions_value_is_a_wrong_standard():
    prediction = correct()
    prediction["exceedances"][1]["standard"]["value"] = 200.0  # the 2024 residential lead level
    s = score(ExceedanceSummary, exceedances_answer(), prediction)
    assert s.errors == (("wrong-standard", "SB1|4-6|2018-03-02|7439-92-1|soil"),)
    assert s.metrics["exceedance_fp"] == 1 and s.metrics["exceedance_fn"] == 1


def test_missing_extra_and_duplicate_exceedances():
    prediction = correct()
    first = prediction["exceedances"][0]
    prediction["exceedances"] = [first, first, {**first, "location": "MW-9"}]
    s = score(ExceedanceSummary, exceedances_answer(), prediction)
    assert set(s.errors) == {
        ("duplicate-exceedance", "MW3|-|2019-05-14|71-43-2|groundwater"),
        ("extra-exceedance", "MW9|-|2019-05-14|71-43-2|groundwater"),
        ("missing-exceedance", "SB1|4-6|2018-03-02|7439-92-1|soil"),
    }
    h = headline(ExceedanceSummary, exceedances_answer(), prediction)
    assert h["exceedance_precision"] == pytest.approx(1 / 3) and h["exceedance_recall"] == 0.5


def test_no_exceedances_scores_zero_with_no_precision():
    h = headline(ExceedanceSummary, exceedances_answer(), {"exceedances": []})
    assert h["exceedance_f1"] == 0.0 and "exceedance_precision" not in h


def test_a_wrong_result_value_costs_value_accuracy_only():
    prediction = correct()
    prediction["exceedances"][0]["value"] = 21.0
    assert score(ExceedanceSummary, exceedances_answer(), prediction).errors == ()
    assert headline(ExceedanceSummary, exceedances_answer(), prediction)["value_accuracy"] == 0.5
