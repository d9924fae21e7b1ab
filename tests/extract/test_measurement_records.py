"""The measurement-record format shared by table-records and document-extraction: normalisation,
answer-key checks, and one-to-one matching with duplicates and swapped fields."""

import itertools
import random
import re

import pytest

from envirobench import EnviroBenchError, structure
from envirobench_extract.document_extraction import Answer, Prediction
from envirobench_extract.records import (
    FIELDS,
    Record,
    max_weight_assignment,
    normalise_name,
    normalise_qualifier,
    normalise_unit,
    score_records,
)


def rec(
    analyte="Benzene",
    sample="MW-01",
    result=1.2,
    *,
    cas="71-43-2",
    nondetect=False,
    unit="µg/L",
    qualifier=None,
    rl=0.5,
):
    return Record(sample, analyte, cas, result, nondetect, unit, qualifier, rl)


def nd(analyte="Toluene", sample="MW-01", rl=0.5, qualifier=None, **changes):
    return rec(
        analyte,
        sample,
        None,
        nondetect=True,
        qualifier=qualifier,
        rl=rl,
        cas=changes.pop("cas", "108-88-3"),
        **changes,
    )


def outcome(gold, predicted, profile="exact"):
    tally = score_records(gold, predicted)[profile]
    return tally.errors, (tally.tp, tally.fp, tally.fn)


def test_normalisation():
    assert normalise_name("  SB-3  (4-6’) ") == normalise_name("sb-3 (4-6')") == "sb-3 (4-6')"
    assert normalise_name("Xylenes,\tTotal") == "xylenes, total"
    for spelling in ("µg/L", "μg/L", "ug/L", "ug/l", "UG/L", "mcg/L", "µg / L"):
        assert normalise_unit(spelling) == "μg/l", spelling
    assert normalise_unit("ug/m3") == normalise_unit("µg/m³") == "μg/m3"
    assert normalise_unit("ug/kg") == normalise_unit("µg/kg") != normalise_unit("mg/kg")
    assert normalise_unit("mg/L") != normalise_unit("µg/L")
    assert normalise_qualifier(" j ") == "J"
    assert normalise_qualifier("J, B") == "JB"
    assert normalise_qualifier("") is None and normalise_qualifier(None) is None


def test_the_answer_itself_scores_perfectly():
    gold = [rec(), nd(), rec("Lead", unit="mg/L", result=1250.0, cas="7439-92-1", rl=0.01)]
    for profile in ("exact", "value"):
        assert outcome(gold, gold, profile) == ([], (3, 0, 0))


def test_spellings_that_normalise_alike_are_right():
    gold = [rec(qualifier="J"), nd(qualifier="U")]
    predicted = [
        rec("  benzene", "mw-01 ", unit="ug/L", qualifier="j"),
        nd("TOLUENE", "MW-01", unit="ug/l", qualifier="u", cas=" 108-88-3"),
    ]
    assert outcome(gold, predicted) == ([], (2, 0, 0))


def test_a_wrong_value_is_one_false_positive_and_one_false_negative_naming_the_field():
    errors, counts = outcome([rec(), nd()], [rec(result=1.3), nd()])
    assert errors == [("wrong-field", "MW-01", "Benzene", "result")]
    assert counts == (1, 1, 1)
    tally = score_records([rec()], [rec(result=1.3, unit="mg/L")])["exact"]
    assert tally.wrong["result"] == 1 and tally.wrong["unit"] == 1
    assert tally.metrics()["wrong_result"] == 1.0 and tally.metrics()["exact"] == 0.0


@pytest.mark.parametrize(
    ("changes", "fields"),
    [
        ({"cas": "71-43-3"}, ["cas"]),
        ({"cas": None}, ["cas"]),
        ({"result": 0.5, "rl": 1.2}, ["result", "reporting_limit"]),  # result and RL swapped
        ({"qualifier": "J"}, ["qualifier"]),
        ({"unit": "mg/L"}, ["unit"]),
        ({"rl": None}, ["reporting_limit"]),
        ({"result": None, "nondetect": True}, ["result", "nondetect"]),
    ],
)
def test_every_wrong_field_is_named(changes, fields):
    errors, counts = outcome([rec()], [rec(**changes)])
    assert errors == [("wrong-field", "MW-01", "Benzene", f) for f in fields]
    assert counts == (0, 1, 1)


def test_non_detect_notations_are_the_same_record_shape():
    # "<0.50": no qualifier; "0.50 U": qualifier U; "ND": the RL from its column.
    less_than = nd(rl=0.5)
    assert outcome([less_than], [nd(rl=0.50)]) == ([], (1, 0, 0))
    assert outcome([nd(qualifier="U")], [nd()])[0] == [
        ("wrong-field", "MW-01", "Toluene", "qualifier")
    ]
    # A non-detect read as a detection at its limit: result and nondetect wrong.
    read_as_detect = rec("Toluene", result=0.5, cas="108-88-3", rl=0.5)
    assert outcome([less_than], [read_as_detect])[0] == [
        ("wrong-field", "MW-01", "Toluene", "result"),
        ("wrong-field", "MW-01", "Toluene", "nondetect"),
    ]


def test_missing_and_extra_records():
    gold = [rec(), nd(), rec("Lead", cas="7439-92-1")]
    predicted = [nd(), rec("Dieldrin", "mw-02", cas="60-57-1"), rec("Chrysene", cas="218-01-9")]
    errors, counts = outcome(gold, predicted)
    assert errors == [
        ("missing-record", "MW-01", "Benzene"),
        ("missing-record", "MW-01", "Lead"),
        ("extra-record", "mw-01", "chrysene"),
        ("extra-record", "mw-02", "dieldrin"),
    ]
    assert counts == (1, 2, 2)
    assert outcome([], []) == ([], (0, 0, 0))
    assert outcome(gold, [])[1] == (0, 0, 3)


def test_a_wrong_sample_id_is_a_missing_and_an_extra_record():
    errors, counts = outcome([rec()], [rec(sample="MW-10")])
    assert errors == [("missing-record", "MW-01", "Benzene"), ("extra-record", "mw-10", "benzene")]
    assert counts == (0, 1, 1)


# A re-analysis: the same sample and analyte twice (over range E, then diluted D).
ORIGINAL = rec(result=250.0, qualifier="E", rl=0.5)
DILUTED = rec(result=310.0, qualifier="D", rl=10.0)


def test_duplicates_predicted_in_the_other_order_match():
    assert outcome([ORIGINAL, DILUTED], [DILUTED, ORIGINAL]) == ([], (2, 0, 0))


def test_duplicates_are_paired_by_the_optimal_assignment():
    # The diluted run lost its flag: only that pair is wrong, whatever the order.
    flagless = rec(result=310.0, qualifier=None, rl=10.0)
    for predicted in ([flagless, ORIGINAL], [ORIGINAL, flagless]):
        assert outcome([ORIGINAL, DILUTED], predicted) == (
            [("wrong-field", "MW-01", "Benzene", "qualifier")],
            (1, 1, 1),
        )
    # Results swapped between the two runs: every pairing is wrong; the best keeps flags and RLs.
    swapped = [rec(result=310.0, qualifier="E", rl=0.5), rec(result=250.0, qualifier="D", rl=10.0)]
    assert outcome([ORIGINAL, DILUTED], swapped) == (
        [("wrong-field", "MW-01", "Benzene", "result")],
        (0, 2, 2),
    )


def test_the_outcome_never_depends_on_the_prediction_order():
    gold = [
        ORIGINAL,
        DILUTED,
        rec(result=99.0, qualifier="B", rl=1.0),
        nd(),
        rec("Lead", cas="7439-92-1"),
    ]
    predicted = [
        rec(result=310.0, qualifier="E", rl=0.5),
        rec(result=250.0, qualifier="D", rl=10.0),
        rec(result=99.0, qualifier=None, rl=1.0),
        nd(rl=0.6),
        rec("Lead", cas="7439-92-1", result=3.0),
        rec("Chrysene", cas="218-01-9"),
    ]
    first = score_records(gold, predicted)
    for order in itertools.islice(itertools.permutations(predicted), 0, None, 7):
        again = score_records(gold, list(order))
        for profile in ("exact", "value"):
            assert again[profile].errors == first[profile].errors
            assert (again[profile].tp, again[profile].fp, again[profile].fn) == (
                first[profile].tp,
                first[profile].fp,
                first[profile].fn,
            )


def test_more_duplicates_than_predicted_leaves_one_missing_and_errors_are_listed_once():
    third = rec(result=280.0, qualifier="D", rl=5.0)
    errors, counts = outcome([ORIGINAL, DILUTED, third], [DILUTED])
    assert errors == [("missing-record", "MW-01", "Benzene")]  # two records missing, one error
    assert counts == (1, 0, 2)
    errors, counts = outcome([ORIGINAL], [ORIGINAL, DILUTED, third])
    assert errors == [("extra-record", "MW-01", "Benzene")]
    assert counts == (1, 2, 0)


def test_value_profile_compares_amounts_across_units():
    gold = [rec(result=1.2, rl=0.5)]
    converted = [rec(result=0.0012, unit="mg/L", rl=0.0005)]
    assert outcome(gold, converted, "exact")[0] == [
        ("wrong-field", "MW-01", "Benzene", f) for f in ("result", "unit", "reporting_limit")
    ]
    assert outcome(gold, converted, "value") == ([], (1, 0, 0))
    # The unit switched but the number kept: right in neither profile.
    unconverted = [rec(result=1.2, unit="mg/L", rl=0.5)]
    assert outcome(gold, unconverted, "value")[0] == [
        ("wrong-field", "MW-01", "Benzene", "result"),
        ("wrong-field", "MW-01", "Benzene", "reporting_limit"),
    ]
    # Another kind of unit is a wrong unit in value too.
    assert outcome(gold, [rec(result=1.2, unit="µg/kg", rl=0.5)], "value")[0] == [
        ("wrong-field", "MW-01", "Benzene", "unit")
    ]


def test_the_assignment_is_optimal():
    rng = random.Random(7)
    for _ in range(300):
        n, m = rng.randint(1, 4), rng.randint(1, 5)
        weights = [[rng.randint(0, 13) for _ in range(m)] for _ in range(n)]
        pairs = max_weight_assignment(weights)
        assert len(pairs) == min(n, m)
        assert len({i for i, _ in pairs}) == len({j for _, j in pairs}) == len(pairs)
        best = max(
            sum(weights[i][j] for i, j in zip(rows, cols, strict=False))
            for rows in itertools.permutations(range(n), min(n, m))
            for cols in itertools.permutations(range(m), min(n, m))
        )
        assert sum(weights[i][j] for i, j in pairs) == best
    assert max_weight_assignment([]) == []


def test_answer_keys_that_break_the_rules_are_refused():
    good = {
        "sample_id": "MW-01",
        "analyte": "Benzene",
        "cas": "71-43-2",
        "result": None,
        "nondetect": True,
        "unit": "µg/L",
        "qualifier": "U",
        "reporting_limit": 0.5,
    }
    assert structure({"records": [good]}, Answer).records[0].reporting_limit == 0.5
    for change, message in [
        ({"result": 0.5}, "a non-detect has result null"),
        ({"nondetect": False}, "a detected result needs a number"),
        ({"reporting_limit": None}, "needs its reporting limit"),
        ({"cas": "71432"}, "not a CAS Registry Number"),
        ({"qualifier": ""}, "write null for no qualifier"),
        ({"unit": " "}, "unit is empty"),
    ]:
        with pytest.raises(EnviroBenchError, match=re.escape(message)):
            structure(
                {"records": [{**good, **change}]},
                Answer,
                file="answers.jsonl",
                line=1,
                path="$.answer",
            )


def test_predictions_are_strict_but_free_in_content():
    record = {
        "sample_id": "MW-01",
        "analyte": "Benzene",
        "cas": None,
        "result": 5,
        "nondetect": True,  # inconsistent with the result: scored wrong, not refused
        "unit": "ug/L",
        "qualifier": None,
        "reporting_limit": None,
    }
    assert structure({"records": [record]}, Prediction).records[0].result == 5.0
    for bad in ({"result": "5"}, {"nondetect": "no"}, {"dilution": 1}, {"unit": None}):
        with pytest.raises(EnviroBenchError):
            structure({"records": [{**record, **bad}]}, Prediction)
    missing = dict(record)
    del missing["cas"]
    with pytest.raises(EnviroBenchError):
        structure({"records": [missing]}, Prediction)


def test_fields_are_the_documented_ones():
    assert FIELDS == ("cas", "result", "nondetect", "unit", "qualifier", "reporting_limit")
