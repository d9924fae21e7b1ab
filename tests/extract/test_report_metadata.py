"""`report-metadata`: field comparison, answer checks, the shipped dataset and its fixtures."""

import re

import pytest
from extract_labreport_kit import ShippedType, errors_by_case

from envirobench import Case, EnviroBenchError, structure
from envirobench.benchmark import check_type_class
from envirobench_extract.generate.report_metadata import (
    CATEGORIES,
    MISTAKES,
    REPORTS_PER_CATEGORY,
    planted,
)
from envirobench_extract.report_metadata import FIELDS, Answer, Input, Prediction, ReportMetadata

TYPE = ReportMetadata()
KIT = ShippedType(TYPE)
ANSWER = {
    "laboratory": "Quillmere Analytical Laboratories",
    "work_order": "23C0412",
    "client": "Harwick & Lowe Environmental Consultants",
    "project": "Former Riverside Dry Cleaners",
    "report_date": "2023-03-28",
    "sampling_dates": ["2023-03-14", "2023-03-15"],
    "status": "revised",
}
CASE = Case("rm-1", "revised", Input(document="assets/rm-1.pdf"))


def score(**changes):
    return TYPE.score_case(
        CASE, structure(ANSWER, Answer), structure({**ANSWER, **changes}, Prediction)
    )["exact"]


def test_the_type_is_well_formed():
    assert check_type_class(ReportMetadata) == []
    assert ReportMetadata.describe()["profiles"] == ["exact"]
    assert ReportMetadata.describe()["headline"] == ["fields_right", "reports_exact"]
    assert TYPE.source_files(CASE.input) == ("assets/rm-1.pdf",)


def test_names_are_compared_normalised_and_dates_as_sets():
    result = score(
        laboratory="  QUILLMERE  Analytical\nLaboratories ",
        work_order="23c0412",
        client="harwick & lowe environmental consultants",
        sampling_dates=["2023-03-15", "2023-03-14", "2023-03-15"],
        report_date=" 2023-03-28",
    )
    assert result.errors == ()
    assert result.metrics["fields_right"] == 1.0 and result.metrics["exact"] == 1.0


def test_each_wrong_field_is_an_error_in_field_order():
    result = score(
        status="final",
        client="Alicia Abernathy",
        report_date="03/28/2023",  # not ISO: never right
        sampling_dates=["2023-03-14"],
        work_order=None,
    )
    assert result.errors == tuple(
        ("wrong-field", name)
        for name in ("work_order", "client", "report_date", "sampling_dates", "status")
    )
    assert result.metrics["fields_right"] == pytest.approx(2 / 7)
    assert result.metrics["right_laboratory"] == 1.0 and result.metrics["right_status"] == 0.0


def test_summary_is_the_share_of_fields_right():
    scores = [score(), score(status="draft", project=None)]
    summary = TYPE.summarize("exact", scores)
    assert summary["fields_right"] == pytest.approx((7 + 5) / 14)
    assert summary["reports_exact"] == 0.5
    assert summary["status_right"] == 0.5 and summary["laboratory_right"] == 1.0
    assert set(summary) == {"fields_right", "reports_exact"} | {f"{name}_right" for name in FIELDS}


def test_answers_and_predictions_are_checked():
    for change, message in [
        ({"report_date": "2023-3-28"}, "not an ISO date"),
        ({"sampling_dates": ["2023-03-15", "2023-03-14"]}, "sorted and distinct"),
        ({"sampling_dates": []}, "at least one sample"),
        ({"client": " "}, "client is empty"),
        ({"status": "amended"}, "status"),
    ]:
        with pytest.raises(EnviroBenchError, match=re.escape(message)):
            structure({**ANSWER, **change}, Answer, file="answers.jsonl", line=1, path="$.answer")
    with pytest.raises(EnviroBenchError):
        structure({**ANSWER, "status": "amended"}, Prediction)
    with pytest.raises(EnviroBenchError):
        structure({**ANSWER, "sampling_dates": "2023-03-14"}, Prediction)
    assert structure(dict.fromkeys(FIELDS), Prediction).status is None


@pytest.fixture(scope="module")
def dataset():
    return KIT.shipped()


def test_the_dataset(dataset):
    counts = dict.fromkeys(CATEGORIES, REPORTS_PER_CATEGORY)
    _, cases, answers = KIT.checked(dataset, counts, max_bytes=4_000_000)
    for case_id, case in cases.items():
        if case.category in ("final", "draft", "revised"):
            assert answers[case_id].status == case.category
    assert {a.status for a in answers.values()} == {"final", "draft", "revised"}
    assert any(len(a.sampling_dates) > 1 for a in answers.values())


def test_correct_fixture_has_no_errors(dataset):
    scores = KIT.score_fixture("correct", dataset)
    assert errors_by_case(scores, "exact") == {}
    assert TYPE.summarize("exact", [s["exact"] for s in scores.values()])["fields_right"] == 1.0


def test_wrong_fixture_has_exactly_its_deliberate_errors(dataset):
    mistakes = planted(KIT.dataset_dir)
    assert sorted(mistakes.values(), key=MISTAKES.index) == list(MISTAKES)
    scores = KIT.score_fixture("wrong", dataset)
    assert errors_by_case(scores, "exact") == {
        case_id: [("wrong-field", name) for name in m.errors] for case_id, m in mistakes.items()
    }
