"""`document-extraction`: the type, F1 by layout, the shipped dataset and its fixtures."""

import pytest
from extract_labreport_kit import ShippedType, categories, errors_by_case

from envirobench import Case
from envirobench.benchmark import check_type_class
from envirobench_extract.document_extraction import Answer, DocumentExtraction, Input, Prediction
from envirobench_extract.generate.document_extraction import MISTAKES
from envirobench_extract.generate.labreports import plant_mistakes
from envirobench_extract.records import Record
from envirobench_synth.labreport import LAYOUTS

TYPE = DocumentExtraction()
KIT = ShippedType(TYPE)


def rec(analyte, result=1.0):
    return Record("MW-01", analyte, None, result, False, "µg/L", None, 0.5)


def test_the_type_is_well_formed():
    assert check_type_class(DocumentExtraction) == []
    assert DocumentExtraction.describe() == {
        "id": "document-extraction",
        "label": "Document extraction",
        "format": "envirobench.document-extraction.v1",
        "scoring_version": "envirobench.document-extraction.scores.v2",
        "tier": "document",
        "profiles": ["semantic", "exact", "value"],
        "headline": [
            "record_f1",
            "documents_exact",
            "record_precision",
            "record_recall",
            "value_f1",
            "unit_f1",
            "qualifier_f1",
            "reporting_limit_f1",
            "sample_f1",
        ],
        "viewer": "json",
    }
    assert TYPE.source_files(Input(document="assets/de-0001.pdf")) == ("assets/de-0001.pdf",)
    with pytest.raises(ValueError, match="PDF"):
        Input(document="assets/de-0001.png")


def test_summary_pools_counts_and_gives_f1_by_layout():
    gold = Answer(records=(rec("Benzene"), rec("Toluene")))
    perfect = TYPE.score_case(Case("a", "landscape", None), gold, Prediction(records=gold.records))
    half = TYPE.score_case(
        Case("b", "scanned", None), gold, Prediction(records=(rec("Benzene", 2.0),))
    )
    assert perfect["exact"].metrics["tp@landscape"] == 2.0
    assert half["exact"].errors == (
        ("wrong-field", "MW-01", "Benzene", "result"),
        ("missing-record", "MW-01", "Toluene"),
    )
    summary = TYPE.summarize("exact", [perfect["exact"], half["exact"]])
    assert summary == {
        "record_f1": pytest.approx(2 * 2 / (2 * 2 + 1 + 2)),
        "documents_exact": 0.5,
        "record_precision": pytest.approx(2 / 3),
        "record_recall": pytest.approx(2 / 4),
        "record_f1@landscape": 1.0,
        "record_f1@scanned": 0.0,
        # Field F1 = 2 x pairs with the field right / (gold + predicted records) = 2r / 7: the
        # value is right on the two perfect records, every other field on three.
        "value_f1": pytest.approx(4 / 7),
        "unit_f1": pytest.approx(6 / 7),
        "qualifier_f1": pytest.approx(6 / 7),
        "reporting_limit_f1": pytest.approx(6 / 7),
        "sample_f1": pytest.approx(6 / 7),
    }
    assert TYPE.summarize("exact", []) == {}


@pytest.fixture(scope="module")
def dataset():
    return KIT.shipped()


def test_the_dataset_spans_every_layout_and_stays_small(dataset):
    _, _, answers = KIT.checked(dataset, dict.fromkeys(LAYOUTS, 5), max_bytes=4_500_000)
    records = [r for a in answers.values() for r in a.records]
    assert len(records) > 800
    # The value traps are all in the answer key.
    assert any(r.nondetect and r.qualifier == "U" for r in records)
    assert any(r.nondetect and r.qualifier is None for r in records)
    assert {"J", "B", "E", "D"} <= {r.qualifier for r in records}
    assert any(r.result is not None and r.result >= 1000 for r in records)
    assert {"µg/L", "ug/L", "mg/L", "mg/kg"} <= {r.unit for r in records}
    keys = [(case_id, r.sample_id, r.analyte) for case_id, a in answers.items() for r in a.records]
    assert len(set(keys)) < len(keys)  # re-analyses: one sample and analyte twice


def test_correct_fixture_has_no_errors_in_any_profile(dataset):
    for summary in KIT.correct_fixture_summaries(dataset).values():
        assert summary["record_f1"] == 1.0 and summary["documents_exact"] == 1.0
        assert {k: v for k, v in summary.items() if "@" in k} == {
            f"record_f1@{layout}": 1.0 for layout in LAYOUTS
        }


def test_wrong_fixture_has_exactly_its_deliberate_errors(dataset):
    _, _, _, answers = dataset
    planted = plant_mistakes(MISTAKES, answers, categories(KIT.dataset_dir))
    assert len({p.case for p in planted}) == len(MISTAKES)
    scores = KIT.score_fixture("wrong", dataset)
    for profile in TYPE.PROFILES:
        expected = {p.case: p.expected[profile] for p in planted if p.expected[profile]}
        assert errors_by_case(scores, profile) == expected
    # Every profile has errors; converting units is wrong only in exact.
    convert = next(p for p in planted if p.mistake.name == "convert-unit")
    assert scores[convert.case]["value"].errors == () and scores[convert.case]["exact"].errors
