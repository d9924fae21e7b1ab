"""Predictions are data: every Site scorer reads hostile predictions strictly (refused with the
field named) or scores them as the mistakes they are; nothing in them is evaluated."""

from __future__ import annotations

import json
import math

import pytest
from site_kit import (
    conditions_answer,
    exceedances_answer,
    headline,
    results_answer,
    score,
    timeline_answer,
)

from envirobench import EnviroBenchError, structure
from envirobench_site.exceedance_summary import ExceedanceSummary
from envirobench_site.recognized_conditions import RecognizedConditions
from envirobench_site.records import MAX_ITEMS, MAX_TEXT
from envirobench_site.site_results import SiteResults
from envirobench_site.site_timeline import SiteTimeline

RESULT = {"location": "MW-3", "sample_date": "2019-05-14", "analyte": "benzene", "matrix": "groundwater", "value": 12.0, "unit": "µg/L"}  # fmt: skip
EXCEEDANCE = {
    "location": "MW-3", "sample_date": "2019-05-14", "analyte": "benzene", "matrix": "groundwater",
    "standard": {"table": "epa-mcl", "value": 5.0, "unit": "µg/L"},
}  # fmt: skip
CONDITION = {"kind": "ust-release", "classification": "CREC"}
EVENT = {"kind": "tank-install", "date": "1972", "subject": "T-1"}

CASES = [
    (SiteResults, "results", RESULT, results_answer),
    (ExceedanceSummary, "exceedances", EXCEEDANCE, exceedances_answer),
    (RecognizedConditions, "conditions", CONDITION, conditions_answer),
    (SiteTimeline, "events", EVENT, timeline_answer),
]
IDS = [c[0].ID for c in CASES]


def refused(btype, raw) -> str:
    with pytest.raises(EnviroBenchError) as info:
        structure(raw, btype.Prediction)
    return str(info.value)


@pytest.mark.parametrize(("btype", "key", "item", "_"), CASES, ids=IDS)
def test_wrong_types_unknown_keys_and_missing_lists_are_refused_naming_the_field(
    btype, key, item, _
):
    assert key in refused(btype, {})
    assert key in refused(btype, {key: "not a list"})
    assert "surprise" in refused(btype, {key: [{**item, "surprise": 1}]})
    assert refused(btype, {key: [1, 2]})
    assert refused(btype, {key: [{**item, "kind" if "kind" in item else "location": 3}]})
    assert refused(btype, {key: [item], "extra": []})


@pytest.mark.parametrize(("btype", "key", "item", "_"), CASES, ids=IDS)
def test_huge_lists_and_huge_strings_are_refused(btype, key, item, _):
    assert str(MAX_ITEMS) in refused(btype, {key: [item] * (MAX_ITEMS + 1)})
    field = "kind" if "kind" in item else "location"
    assert str(MAX_TEXT) in refused(btype, {key: [{**item, field: "x" * (MAX_TEXT + 1)}]})


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_nan_and_infinite_numbers_are_refused(bad):
    assert "value" in refused(SiteResults, {"results": [{**RESULT, "value": bad}]})
    assert "reporting_limit" in refused(
        SiteResults, {"results": [{**RESULT, "reporting_limit": bad}]}
    )
    standard = {**EXCEEDANCE["standard"], "value": bad}
    assert "value" in refused(
        ExceedanceSummary, {"exceedances": [{**EXCEEDANCE, "standard": standard}]}
    )


def test_numbers_that_are_not_numbers_are_refused():
    assert refused(SiteResults, {"results": [{**RESULT, "value": "12"}]})
    assert refused(SiteResults, {"results": [{**RESULT, "value": True}]})
    assert refused(SiteResults, {"results": [{**RESULT, "detected": "yes"}]})
    assert refused(
        ExceedanceSummary,
        {"exceedances": [{**EXCEEDANCE, "standard": {"value": -1.0, "unit": "µg/L"}}]},
    )


@pytest.mark.parametrize(
    "citation",
    [
        {"file": "../../answers.jsonl", "page": 1},
        {"file": "volume-1.pdf", "page": 0},
        {"file": "volume-1.pdf", "page": 10**9},
        {"file": "", "page": 1},
        {"file": "volume-1.pdf", "page": 1.5},
    ],
)
def test_citations_outside_the_record_are_refused(citation):
    assert refused(SiteResults, {"results": [{**RESULT, "source": citation}]})
    assert refused(RecognizedConditions, {"conditions": [{**CONDITION, "evidence": [citation]}]})
    assert refused(SiteTimeline, {"events": [{**EVENT, "source": citation}]})


@pytest.mark.parametrize(
    "date", ["2019-13-01", "2019-02-30", "14/05/2019", "2019-5-14", "", "2019-05-14T00:00"]
)
def test_dates_that_are_not_iso_calendar_dates_are_refused(date):
    assert "sample_date" in refused(SiteResults, {"results": [{**RESULT, "sample_date": date}]})
    assert "date" in refused(SiteTimeline, {"events": [{**EVENT, "date": date}]})


def test_inconsistent_non_detects_and_unknown_classes_and_matrices_are_refused():
    assert "value" in refused(SiteResults, {"results": [{**RESULT, "detected": False}]})
    assert "value" in refused(
        SiteResults, {"results": [{**RESULT, "value": None, "detected": True}]}
    )
    assert refused(SiteResults, {"results": [{**RESULT, "matrix": "lava"}]})
    assert refused(RecognizedConditions, {"conditions": [{**CONDITION, "classification": "rec"}]})


CODE = [
    "__import__('os').system('rm -rf /')",
    "<img src=x onerror=alert(1)>",
    "'; DROP TABLE results; --",
    "{{7*7}}",
    "\u202e\u0000",
]


@pytest.mark.parametrize("text", CODE)
def test_code_like_strings_are_data_that_match_nothing(text):
    s = score(
        SiteResults,
        results_answer(),
        {"results": [{**RESULT, "location": text}, {**RESULT, "analyte": text}]},
    )
    assert {e[0] for e in s.errors} == {"extra-record", "missing-record"}
    s = score(
        RecognizedConditions, conditions_answer(), {"conditions": [{**CONDITION, "kind": text}]}
    )
    assert ("extra-condition", text[:80]) in s.errors
    s = score(SiteTimeline, timeline_answer(), {"events": [{**EVENT, "subject": text}]})
    assert s.metrics["event_fp"] == 1
    json.dumps(s.errors)  # errors stay JSON


@pytest.mark.parametrize(("btype", "key", "item", "answer"), CASES, ids=IDS)
def test_many_duplicates_are_scored_as_false_positives(btype, key, item, answer):
    s = score(btype, answer(), {key: [item] * 5_000})
    fp = next(v for k, v in s.metrics.items() if k.endswith("_fp"))
    assert fp >= 4_999
    h = headline(btype, answer(), {key: [item] * 5_000})
    assert all(math.isfinite(v) and v >= 0 for v in h.values())
    primary = h[btype.HEADLINE[0]]
    assert 0.0 <= primary < 0.01


def test_a_huge_value_is_a_wrong_value_not_an_overflow():
    s = score(
        SiteResults, results_answer(), {"results": [{**RESULT, "value": 1.7e308, "unit": "g/L"}]}
    )
    assert ("wrong-value", "MW3|-|2019-05-14|71-43-2|groundwater") in s.errors
