"""site-results: the declared normalisation, value agreement, reconciliation counts, superseded
values taken, source pages and the reprint-cluster measures, on a tiny hand-made site."""

from __future__ import annotations

import copy

import pytest
from site_kit import headline, results_answer, score

from envirobench_site.records import depth_key, location_key, unit_spelling, values_agree
from envirobench_site.site_results import SiteResults


def correct() -> dict:
    out = []
    for r in results_answer()["results"]:
        out.append(
            {
                "location": r["location"], "depth": r["depth"], "sample_date": r["sample_date"],
                "analyte": r["analyte"], "matrix": r["matrix"], "value": r["value"],
                "detected": r["detected"], "unit": r["unit"], "source": r["source"],
                "printings": [{"file": p["file"], "page": p["page"]} for p in r["printings"]],
            }
        )  # fmt: skip
    return {"results": out}


def test_the_answer_predicted_back_is_perfect():
    s = score(SiteResults, results_answer(), correct())
    assert s.errors == ()
    h = headline(SiteResults, results_answer(), correct())
    assert h["record_f1"] == 1.0 and h["record_precision"] == 1.0 and h["record_recall"] == 1.0
    assert h["superseded_taken"] == 0 and h["source_accuracy"] == 1.0 and h["records"] == 3
    assert h["contested_accuracy"] == 1.0 and h["contested"] == 2  # MW-3 benzene, rejected MW-4
    assert h["pairwise_precision"] == h["pairwise_recall"] == 1.0
    assert h["bcubed_precision"] == h["bcubed_recall"] == 1.0


@pytest.mark.parametrize(
    ("a", "b"),
    [("MW-03", "mw 3"), ("MW3", "MW_03"), ("SB-010", "sb10"), ("MW\u20133", "MW-3"), ("T-0", "t0")],
)
def test_location_spellings_normalise_alike(a, b):
    assert location_key(a) == location_key(b)


def test_locations_that_differ_stay_apart():
    assert location_key("MW-3") != location_key("MW-30")
    assert location_key("MW-3") != location_key("MW-3-051419")


@pytest.mark.parametrize(
    ("a", "b"),
    [("4-6", "4.0 - 6"), ("4-6 ft", "4\u20136'"), (None, " "), ("10-12", "10.00-12 bgs")],
)
def test_depths_normalise_as_numbers(a, b):
    assert depth_key(a) == depth_key(b)


def test_units_convert_and_the_tolerance_is_half_a_percent():
    assert unit_spelling("µg/L") == unit_spelling("ug/l") == unit_spelling("\u03bcg / L")
    assert values_agree(0.012, "mg/L", 12.0, "µg/L", "groundwater")
    assert values_agree(12.05, "ppb", 12.0, "µg/L", "groundwater")
    assert not values_agree(12.1, "µg/L", 12.0, "µg/L", "groundwater")
    assert not values_agree(12.0, "mg/kg", 12.0, "µg/L", "groundwater")  # another dimension
    assert values_agree(0.45, "g/kg", 450.0, "mg/kg", "soil")
    assert not values_agree(12.0, "ppb", 12.0, "µg/m3", "indoor-air")  # no molar mass here


def test_spelling_variants_synonyms_and_cas_match_the_same_key():
    prediction = correct()
    prediction["results"][0].update(location="mw-03", analyte="71-43-2", value=0.012, unit="mg/L")
    prediction["results"][1].update(analyte="TOLUENE")
    prediction["results"][2].update(location="SB 01", depth="4.0-6.0 ft", analyte="Pb")
    assert score(SiteResults, results_answer(), prediction).errors == ()


def test_a_superseded_value_is_wrong_and_counted_as_taken():
    prediction = correct()
    prediction["results"][0]["value"] = 21.0  # the original lab report the revision replaced
    s = score(SiteResults, results_answer(), prediction)
    assert s.errors == (("wrong-value", "MW3|-|2019-05-14|71-43-2|groundwater"),)
    assert (
        s.metrics["superseded_taken"] == 1
        and s.metrics["record_fp"] == 1
        and s.metrics["record_fn"] == 1
    )
    h = headline(SiteResults, results_answer(), prediction)
    assert h["record_f1"] == pytest.approx(2 * 2 / (2 * 2 + 1 + 1))


def test_contested_keys_are_the_ones_reconciliation_decides():
    # MW-3 benzene is printed as 21.0 (superseded) and 1.2 (misprint) beside its governing 12.0;
    # MW-4 benzene is rejected. Toluene and lead print one value everywhere: not contested.
    answer = results_answer()
    right = headline(SiteResults, answer, correct())
    assert right["contested"] == 2 and right["contested_accuracy"] == 1.0
    taken = correct()
    taken["results"][0]["value"] = 21.0  # the superseded original
    assert headline(SiteResults, answer, taken)["contested_accuracy"] == 0.5
    twice = correct()
    twice["results"].append(dict(twice["results"][0]))  # right, but listed twice: not resolved
    assert headline(SiteResults, answer, twice)["contested_accuracy"] == 0.5
    rejected = correct()
    rejected["results"].append({"location": "MW-4", "sample_date": "2019-05-14", "analyte": "benzene",
                                "matrix": "groundwater", "value": 3.0, "unit": "µg/L"})
    assert headline(SiteResults, answer, rejected)["contested_accuracy"] == 0.5
    lead = correct()
    lead["results"][2]["value"] = 99.0  # a wrong value of a key printed once: a reading error
    h = headline(SiteResults, answer, lead)
    assert h["contested_accuracy"] == 1.0 and h["record_f1"] < 1.0
    nothing = headline(SiteResults, answer, {"results": []})
    assert nothing["contested"] == 2 and nothing["contested_accuracy"] == 0.5  # rejected key left out


def test_a_transcription_error_is_taken_too_but_another_wrong_value_is_not():
    prediction = correct()
    prediction["results"][0]["value"] = 1.2
    assert score(SiteResults, results_answer(), prediction).metrics["superseded_taken"] == 1
    prediction["results"][0]["value"] = 99.0
    assert score(SiteResults, results_answer(), prediction).metrics["superseded_taken"] == 0


def test_a_non_detect_needs_a_non_detect():
    prediction = correct()
    prediction["results"][1].update(value=1.0, detected=True)
    assert ("wrong-value", "MW3|-|2019-05-14|108-88-3|groundwater") in score(
        SiteResults, results_answer(), prediction
    ).errors
    prediction["results"][1].update(value=None, detected=None)  # a null value is a non-detect
    assert score(SiteResults, results_answer(), prediction).errors == ()


def test_a_rejected_key_is_an_extra_record_and_a_rejected_value_taken():
    prediction = correct()
    prediction["results"].append(
        {
            "location": "MW-4",
            "sample_date": "2019-05-14",
            "analyte": "benzene",
            "matrix": "groundwater",
            "value": 3.0,
            "unit": "µg/L",
        }
    )
    s = score(SiteResults, results_answer(), prediction)
    assert s.errors == (("rejected-record", "MW4|-|2019-05-14|71-43-2|groundwater"),)
    assert s.metrics["superseded_taken"] == 1 and s.metrics["record_fp"] == 1


def test_no_reconciliation_pays_for_every_reprint_and_clusters_nothing():
    answer = results_answer()
    records = []
    for r in answer["results"]:
        for p in r["printings"]:
            records.append(
                {"location": r["location"], "depth": r["depth"], "sample_date": r["sample_date"],
                 "analyte": r["analyte"], "matrix": r["matrix"], "value": p["value"], "unit": p["unit"],
                 "source": {"file": p["file"], "page": p["page"]}}
            )  # fmt: skip
    s = score(SiteResults, answer, {"results": records})
    # MW-3 benzene: printed 4 times; its first printing is the superseded 21.0: wrong + 3 duplicates.
    assert (
        s.metrics["record_tp"] == 2 and s.metrics["record_fp"] == 4 and s.metrics["record_fn"] == 1
    )
    assert s.metrics["superseded_taken"] == 2  # 21.0 and 1.2
    h = headline(SiteResults, answer, {"results": records})
    assert h["pairwise_recall"] == 0.0 and "pairwise_precision" not in h  # no pair predicted: n/a
    assert h["bcubed_precision"] == 1.0 and h["bcubed_recall"] == pytest.approx(
        (4 * 0.25 + 1 + 1) / 6
    )


def test_a_merged_cluster_loses_pairwise_precision():
    prediction = correct()
    prediction["results"][0]["printings"].append(
        {"file": "volume-1.pdf", "page": 3}
    )  # prints SB-1 only
    h = headline(SiteResults, results_answer(), prediction)
    assert h["pairwise_precision"] == pytest.approx(6 / 10)
    assert h["pairwise_recall"] == 1.0
    assert h["bcubed_precision"] == pytest.approx((4 * 4 / 5 + 1 + 1) / 7)


def test_duplicates_extras_and_missing_records_are_errors():
    prediction = correct()
    dropped = prediction["results"].pop(2)
    prediction["results"].append(copy.deepcopy(prediction["results"][0]))
    prediction["results"].append({**dropped, "sample_date": "2018-03-03"})
    s = score(SiteResults, results_answer(), prediction)
    assert set(s.errors) == {
        ("duplicate-record", "MW3|-|2019-05-14|71-43-2|groundwater"),
        ("missing-record", "SB1|4-6|2018-03-02|7439-92-1|soil"),
        ("extra-record", "SB1|4-6|2018-03-03|7439-92-1|soil"),
    }


def test_the_wrong_source_page_costs_source_accuracy_only():
    prediction = correct()
    prediction["results"][0]["source"] = {"file": "volume-2.pdf", "page": 1}  # a reprint
    s = score(SiteResults, results_answer(), prediction)
    assert s.errors == ()
    assert headline(SiteResults, results_answer(), prediction)["source_accuracy"] == pytest.approx(
        2 / 3
    )


def test_an_empty_prediction_has_no_precision_and_no_recall():
    h = headline(SiteResults, results_answer(), {"results": []})
    assert h["record_f1"] == 0.0 and h["record_recall"] == 0.0 and "record_precision" not in h
    assert "source_accuracy" not in h
