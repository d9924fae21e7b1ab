"""Scoring of `table-separators`: matching rules on hand-made answers, and the shipped fixtures."""

import re

import pytest
from extract_labreport_kit import ShippedType, errors_by_case

from envirobench import Case, CaseScore, EnviroBenchError, structure
from envirobench.benchmark import check_type_class
from envirobench_extract.table_separators import (
    Answer,
    Band,
    Input,
    Prediction,
    TableSeparators,
)

TYPE = TableSeparators()
KIT = ShippedType(TYPE)

# Rows: bands [10, 20) [30, 40) [50, 60), gold 25 and 45. Columns: bands [5, 50) [70, 100), gold 60.
ANSWER = Answer(
    rows=(25, 45),
    columns=(60,),
    row_bands=(Band(10, 20), Band(30, 40), Band(50, 60)),
    column_bands=(Band(5, 50), Band(70, 100)),
)
CASE = Case("t-1", "unruled", Input(image="assets/t-1.png", width=120, height=80))


def score(rows, columns=(60,), answer=ANSWER):
    return TYPE.score_case(CASE, answer, Prediction(rows=tuple(rows), columns=tuple(columns)))


def errors(rows, columns=(60,), profile="logical"):
    return list(score(rows, columns)[profile].errors)


def counts(case_score: CaseScore):
    return {k: case_score.metrics[k] for k in ("tp", "fp", "fn", "exact")}


def test_the_type_is_well_formed():
    assert check_type_class(TableSeparators) == []
    assert TableSeparators.describe() == {
        "id": "table-separators",
        "label": "Table separators",
        "format": "envirobench.table-separators.v1",
        "scoring_version": "envirobench.table-separators.scores.v2",
        "tier": "component",
        "profiles": ["logical", "strict"],
        "headline": ["separator_f1", "tables_exact"],
        "viewer": "image-overlay",
    }
    assert TYPE.source_files(CASE.input) == ("assets/t-1.png",)


def test_the_gold_separators_score_perfectly():
    for profile, case_score in score([25, 45]).items():
        assert case_score.errors == (), profile
        assert counts(case_score) == {"tp": 3, "fp": 0, "fn": 0, "exact": 1.0}


def test_any_position_in_the_right_gap_is_logically_right():
    assert errors([20, 49]) == []  # the first and the last pixel of each gap
    assert errors([45, 29]) == []  # order does not matter


def test_two_predictions_in_one_gap_the_closest_is_the_match():
    result = score([22, 26, 45])
    assert result["logical"].errors == (("extra-separator", "row", 0),)
    assert counts(result["logical"]) == {"tp": 3, "fp": 1, "fn": 0, "exact": 0.0}
    # 26 (1 px off) is the match, so strict finds nothing more even though 22 is 3 px off.
    assert result["strict"].errors == (("extra-separator", "row", 0),)
    # Equally close: the smaller position is the match; here it is 4 px off, so misplaced too.
    assert errors([21, 29, 45], profile="strict") == [
        ("extra-separator", "row", 0),
        ("misplaced-separator", "row", 0),
    ]


def test_extras_are_one_error_per_gap_but_counted_each():
    result = score([21, 23, 25, 27, 45])
    assert result["logical"].errors == (("extra-separator", "row", 0),)
    assert result["logical"].metrics["fp"] == 3


def test_a_prediction_on_a_content_row():
    result = score([25, 45, 55])
    assert result["logical"].errors == (("separator-on-content", "row", 2),)
    assert counts(result["logical"]) == {"tp": 3, "fp": 1, "fn": 0, "exact": 0.0}


def test_band_boundaries():
    # The first and last inked pixel lines are content; the pixel after the band is the gap.
    assert errors([10, 25, 45]) == [("separator-on-content", "row", 0)]
    assert errors([19, 25, 45]) == [("separator-on-content", "row", 0)]
    assert errors([20, 45]) == []
    assert errors([29, 45]) == []
    assert errors([25, 30, 45]) == [("separator-on-content", "row", 1)]
    assert errors([25, 45, 59]) == [("separator-on-content", "row", 2)]
    assert errors([9, 25, 45]) == [("separator-outside-table", "row", "before")]
    assert errors([25, 45, 60]) == [("separator-outside-table", "row", "after")]


def test_predictions_outside_the_table():
    result = score([-5, 0, 25, 45, 60, 1000])
    assert result["logical"].errors == (
        ("separator-outside-table", "row", "before"),
        ("separator-outside-table", "row", "after"),
    )
    assert counts(result["logical"]) == {"tp": 3, "fp": 4, "fn": 0, "exact": 0.0}
    assert errors([25, 45], columns=[60, 0, 100]) == [
        ("separator-outside-table", "column", "before"),
        ("separator-outside-table", "column", "after"),
    ]


def test_empty_predictions_miss_every_separator():
    result = score([], [])
    assert result["logical"].errors == (
        ("missing-separator", "row", 0),
        ("missing-separator", "row", 1),
        ("missing-separator", "column", 0),
    )
    assert counts(result["logical"]) == {"tp": 0, "fp": 0, "fn": 3, "exact": 0.0}
    summary = TYPE.summarize("logical", [result["logical"]])
    assert summary["separator_f1"] == 0.0 and summary["tables_exact"] == 0.0
    assert summary["separator_recall"] == 0.0
    assert "separator_precision" not in summary  # nothing claimed: undefined (v1: 1.0)


def test_a_one_cell_table_has_nothing_to_find():
    single = Answer(rows=(), columns=(), row_bands=(Band(3, 9),), column_bands=(Band(4, 40),))
    result = score([], [], answer=single)
    assert result["logical"].errors == ()
    summary = TYPE.summarize("logical", [result["logical"]])
    assert summary == {"separator_f1": 1.0, "tables_exact": 1.0}  # precision, recall undefined
    assert score([5], [], answer=single)["logical"].errors == (("separator-on-content", "row", 0),)


@pytest.mark.parametrize(("row", "misplaced"), [(22, False), (28, False), (21, True), (29, True)])
def test_strict_tolerance_is_three_pixels(row, misplaced):
    result = score([row, 45])
    assert result["logical"].errors == ()
    if misplaced:
        assert result["strict"].errors == (("misplaced-separator", "row", 0),)
        # A misplaced match is one false positive and one false negative, not a true positive.
        assert counts(result["strict"]) == {"tp": 2, "fp": 1, "fn": 1, "exact": 0.0}
    else:
        assert result["strict"].errors == ()


def test_the_same_mistake_gives_the_same_error_wherever_it_lands():
    assert errors([23, 25, 45]) == errors([29, 25, 45])
    assert errors([25, 45, 51]) == errors([25, 45, 57])
    assert (
        errors([25, 45], [60, 77])
        == errors([25, 45], [60, 99])
        == [("separator-on-content", "column", 1)]
    )


def test_errors_are_listed_rows_first_in_position_order():
    result = score([5, 12, 45, 41, 44, 70], [0, 55])
    assert result["strict"].errors == (
        ("separator-outside-table", "row", "before"),
        ("separator-on-content", "row", 0),
        ("missing-separator", "row", 0),
        ("extra-separator", "row", 1),
        ("separator-outside-table", "row", "after"),
        ("separator-outside-table", "column", "before"),
        ("misplaced-separator", "column", 0),
    )


def test_summarize_pools_counts_over_the_run():
    good, half = score([25, 45])["logical"], score([], [60])["logical"]  # 3 tp; 1 tp 2 fn
    summary = TYPE.summarize("logical", [good, half])
    assert summary == {
        "separator_f1": pytest.approx(2 * 4 / (2 * 4 + 0 + 2)),
        "tables_exact": 0.5,
        "separator_precision": 1.0,
        "separator_recall": pytest.approx(4 / 6),
    }
    assert TYPE.summarize("logical", []) == {}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"rows": [19, 45]}, "rows[0] = 19 is not in the gap [20, 30)"),
        ({"rows": [25, 39]}, "rows[1] = 39 is not in the gap"),
        ({"rows": [25]}, "3 row_bands need 2 rows, got 1"),
        ({"column_bands": []}, "column_bands is empty"),
        (
            {
                "row_bands": [
                    {"start": 10, "end": 31},
                    {"start": 30, "end": 40},
                    {"start": 50, "end": 60},
                ]
            },
            "touch or overlap",
        ),
        (
            {
                "row_bands": [
                    {"start": 10, "end": 10},
                    {"start": 30, "end": 40},
                    {"start": 50, "end": 60},
                ]
            },
            "0 <= start < end",
        ),
    ],
)
def test_answers_breaking_the_invariants_are_refused(change, message):
    raw = {
        "rows": [25, 45],
        "columns": [60],
        "row_bands": [{"start": 10, "end": 20}, {"start": 30, "end": 40}, {"start": 50, "end": 60}],
        "column_bands": [{"start": 5, "end": 50}, {"start": 70, "end": 100}],
    }
    assert structure(raw, Answer) == ANSWER
    with pytest.raises(EnviroBenchError, match=re.escape(message)):
        structure({**raw, **change}, Answer, file="answers.jsonl", line=1, path="$.answer")


def test_predictions_and_inputs_are_strict():
    assert structure({"rows": [3, 1], "columns": []}, Prediction) == Prediction((3, 1), ())
    for bad in (
        {"rows": [1.5], "columns": []},
        {"rows": ["3"], "columns": []},
        {"rows": []},
        {"rows": [], "columns": [], "cells": []},
    ):
        with pytest.raises(EnviroBenchError):
            structure(bad, Prediction)
    with pytest.raises(EnviroBenchError, match="positive"):
        structure({"image": "a.png", "width": 0, "height": 10}, Input)


# -- the shipped dataset and its fixtures -------------------------------------------------------

# Every deliberate mistake of wrong.json (see envirobench_extract/generate/table_separators_fixtures.py).
WRONG_ERRORS = {
    "ts-0001": {
        "logical": [("missing-separator", "row", 2)],
        "strict": [("missing-separator", "row", 2)],
    },
    "ts-0013": {
        "logical": [("separator-outside-table", "column", "before")],
        "strict": [("separator-outside-table", "column", "before")],
    },
    "ts-0025": {
        "logical": [("extra-separator", "column", 1)],
        "strict": [("extra-separator", "column", 1)],
    },
    "ts-0037": {
        "logical": [("separator-on-content", "row", 3)],
        "strict": [("separator-on-content", "row", 3)],
    },
    "ts-0049": {"logical": [], "strict": [("misplaced-separator", "row", 1)]},
    "ts-0061": {
        "logical": [("separator-outside-table", "row", "after")],
        "strict": [("separator-outside-table", "row", "after")],
    },
}


@pytest.fixture(scope="module")
def shipped():
    return KIT.shipped()


def test_the_dataset_is_registered_and_valid(shipped):
    layouts = (
        "fully-ruled",
        "horizontal-rules",
        "unruled",
        "zebra",
        "multi-line-cells",
        "wrapped-headers",
        "scanned",
    )
    dataset, _, _ = KIT.checked(shipped, dict.fromkeys(layouts, 12), max_bytes=3_000_000)
    listed = {entry.path for entry in dataset.manifest.files}
    files = KIT.dataset_dir.rglob("*")
    on_disk = {p.relative_to(KIT.dataset_dir).as_posix() for p in files if p.is_file()}
    assert on_disk - listed == {"manifest.json"}


def test_correct_fixture_has_no_errors_in_any_profile(shipped):
    for summary in KIT.correct_fixture_summaries(shipped).values():
        assert summary["separator_f1"] == 1.0 and summary["tables_exact"] == 1.0


def test_wrong_fixture_has_exactly_its_deliberate_errors(shipped):
    scores = KIT.score_fixture("wrong", shipped)
    for profile in TYPE.PROFILES:
        expected = {case_id: e[profile] for case_id, e in WRONG_ERRORS.items() if e[profile]}
        assert errors_by_case(scores, profile) == expected
    summary = TYPE.summarize("strict", [s["strict"] for s in scores.values()])
    assert summary["tables_exact"] == pytest.approx(78 / 84)
