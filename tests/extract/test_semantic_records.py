"""Profile `semantic` of the record types (records.py, scoring version v2): a record scored for
what it means. Each quirk of issue 13 is here: an explicit "U" on a non-detect, an empty CAS
beside a name that says the compound, a synonym, a unit converted, and precision of an empty
prediction. Scoring v1 had no such profile, and its precision of an empty prediction was 1.0."""

import pytest

from envirobench import Case, read_answers
from envirobench_extract.analytes import COMPOUNDS, compound_of
from envirobench_extract.document_extraction import Answer, DocumentExtraction, Prediction
from envirobench_extract.package import PACKAGE
from envirobench_extract.records import (
    PROFILES,
    Record,
    pooled,
    score_records,
    semantic_qualifier,
)
from envirobench_extract.table_records import TableRecords


def rec(analyte="Benzene", sample="MW-01", result=1.2, **changes):
    fields = dict(cas="71-43-2", nondetect=False, unit="µg/L", qualifier=None, reporting_limit=0.5)
    fields.update(changes)
    return Record(
        sample,
        analyte,
        fields["cas"],
        result,
        fields["nondetect"],
        fields["unit"],
        fields["qualifier"],
        fields["reporting_limit"],
    )


def nd(qualifier=None, **changes):
    return rec(
        "Toluene", result=None, cas="108-88-3", nondetect=True, qualifier=qualifier, **changes
    )


def errors(gold, predicted, profile="semantic"):
    return score_records(gold, predicted)[profile].errors


def test_semantic_is_the_primary_profile_of_both_record_types():
    assert PROFILES == ("semantic", "exact", "value")
    assert DocumentExtraction.PROFILES[0] == TableRecords.PROFILES[0] == "semantic"
    assert DocumentExtraction.HEADLINE[0] == TableRecords.HEADLINE[0] == "record_f1"


# -- a non-detect however written ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        (nd(None), nd("U")),  # an explicit U on a printed <0.50
        (nd("U"), nd(None)),  # and the other way round
        (nd(None), nd("ND")),
        (nd(None), nd("<RL")),
        (nd(None), nd("BRL")),
        # "0.50 U" written as the number printed with its flag, the detection flag left false
        (nd("U"), rec("Toluene", result=0.5, cas="108-88-3", qualifier="U", reporting_limit=None)),
        (nd("UJ"), nd("J")),  # an estimated non-detect: U is the non-detect, J stays
        (nd("UJ"), nd("JU")),
    ],
)
def test_a_non_detect_is_a_non_detect_however_written(gold, predicted):
    assert errors([gold], [predicted]) == []
    assert errors([gold], [predicted], "exact") != []  # as printed, they differ


def test_a_detection_is_not_a_non_detect():
    gold = nd(None)
    detected = rec("Toluene", result=0.5, cas="108-88-3")
    assert errors([gold], [detected]) == [
        ("wrong-field", "MW-01", "Toluene", "result"),
        ("wrong-field", "MW-01", "Toluene", "nondetect"),
    ]
    assert errors([nd("UJ")], [nd(None)]) == [("wrong-field", "MW-01", "Toluene", "qualifier")]
    assert errors([nd(None)], [nd("U", reporting_limit=5.0)]) == [
        ("wrong-field", "MW-01", "Toluene", "reporting_limit")
    ]


def test_qualifier_flags_are_a_set():
    assert semantic_qualifier("JB") == semantic_qualifier("BJ") == (False, "BJ")
    assert semantic_qualifier("U") == (True, None)
    assert semantic_qualifier("<MDL") == (True, None)
    assert errors([rec(qualifier="JB")], [rec(qualifier="B, J")]) == []
    assert errors([rec(qualifier="J")], [rec(qualifier="J+")]) != []


# -- CAS optional where the name says the compound ----------------------------------------------


def test_an_empty_cas_beside_a_matching_name_is_no_error():
    assert errors([rec()], [rec(cas=None)]) == []
    assert errors([rec()], [rec(cas="")]) == []
    assert errors([rec()], [rec(cas=None)], "exact") == [("wrong-field", "MW-01", "Benzene", "cas")]


def test_a_cas_given_must_be_the_compounds():
    assert errors([rec()], [rec(cas="108-88-3")]) == [("wrong-field", "MW-01", "Benzene", "cas")]
    # The report printed none, the system knows it: right, since it is Benzene's.
    assert errors([rec(cas=None)], [rec(cas="71-43-2")]) == []
    # A petroleum range has no CAS number: one given is wrong.
    tph = rec("TPH-GRO", cas=None)
    assert errors([tph], [rec("TPH-GRO", cas="71-43-2")]) == [
        ("wrong-field", "MW-01", "TPH-GRO", "cas")
    ]


# -- synonyms -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("printed", "written"),
    [
        ("PCE", "Tetrachloroethene"),
        ("Tetrachloroethene", "Perchloroethylene"),
        ("Vinyl chloride", "Chloroethene"),
        ("Benzo(a)pyrene", "B(a)P"),
        ("Lead", "Lead, Total"),
        ("TPH-Gasoline Range Organics (C6-C10)", "TPH-GRO"),
        ("Xylenes, Total", "total xylenes"),
    ],
)
def test_names_of_one_compound_match(printed, written):
    cas = compound_of(printed)
    cas = cas if cas and cas[0].isdigit() else None
    gold, predicted = rec(printed, cas=cas), rec(written, cas=None)
    assert errors([gold], [predicted]) == []
    assert errors([gold], [predicted], "exact")[0][0] == "missing-record"


def test_names_of_other_things_do_not():
    # A dissolved metal is not the total one; an unknown name stands for itself.
    assert errors([rec("Lead", cas=None)], [rec("Lead, Dissolved", cas=None)]) == [
        ("missing-record", "MW-01", "Lead"),
        ("extra-record", "mw-01", "lead, dissolved"),
    ]
    assert errors([rec("Xylenes, Total")], [rec("o-Xylene", cas=None)])[0][0] == "missing-record"


def test_an_extra_record_is_named_as_the_prediction_names_it():
    got = errors([], [rec("Perchloroethylene", cas=None), rec("PCE", cas=None, result=3.0)])
    assert got == [("extra-record", "mw-01", "pce")]  # one key: the least of its names


def test_the_synonym_table_covers_the_catalogue_and_the_vocabulary():
    from envirobench_synth.catalogue import ANALYTES
    from envirobench_synth.vocabulary import ANALYTE_SYNONYMS

    for analyte in ANALYTES:
        expected = analyte.cas or analyte.abbreviation
        assert compound_of(analyte.name) == expected, analyte.name
        if analyte.abbreviation:
            assert compound_of(analyte.abbreviation) == expected, analyte.abbreviation
    for cas, terms in ANALYTE_SYNONYMS.items():
        for term in terms:
            assert compound_of(term.text) == cas, (term.text, term.split)
    names = [name for names in COMPOUNDS.values() for name in names]
    assert len(names) == len(set(names))


# -- units --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        (rec(result=1.2, unit="µg/L"), rec(result=0.0012, unit="mg/L", reporting_limit=0.0005)),
        (
            rec(result=1200.0, unit="mg/kg", reporting_limit=5.0),
            rec(result=1_200_000.0, unit="µg/kg", reporting_limit=5000.0),
        ),
        (rec(unit="µg/L"), rec(unit="ug/L")),
        (rec(unit="µg/L"), rec(unit="\u03bcg/l")),
        (rec(unit="µg/L"), rec(unit="ppb")),  # parts per billion in water: µg/L
        (rec(result=2.0, unit="mg/L"), rec(result=2.0, unit="ppm")),
        (rec(result=2.0, unit="mg/kg"), rec(result=2000.0, unit="ppb", reporting_limit=500.0)),
        (rec(unit="mg/kg dry"), rec(unit="mg/kg-dry")),
        (
            rec(result=3.0, unit="mg/kg dry"),
            rec(result=3000.0, unit="µg/kg (dry)", reporting_limit=500.0),
        ),
        (rec(result=1.2), rec(result=1.2 * (1 + 5e-7))),  # within the relative 1e-6
    ],
)
def test_units_are_converted(gold, predicted):
    assert errors([gold], [predicted]) == []


@pytest.mark.parametrize(
    ("gold", "predicted", "fields"),
    [
        (rec(result=1.2), rec(result=1.2 * (1 + 5e-6)), ["result"]),  # beyond the tolerance
        (rec(unit="µg/L"), rec(unit="mg/kg"), ["unit"]),  # another kind: numbers as printed
        (rec(unit="µg/m³"), rec(unit="ppbv"), ["unit"]),  # a volume ratio needs the molar mass
        (rec(unit="mg/kg dry"), rec(unit="mg/kg"), ["unit"]),  # the basis is part of the unit
        (rec(unit="µg/L"), rec(unit="ppt"), ["unit"]),  # thousand or trillion: never read
        (rec(result=1.2, unit="µg/L"), rec(result=1.2, unit="mg/L"), ["result", "reporting_limit"]),
    ],
)
def test_units_that_do_not_convert(gold, predicted, fields):
    assert errors([gold], [predicted]) == [
        ("wrong-field", "MW-01", "Benzene", field) for field in fields
    ]


# -- per-field F1 and precision of an empty prediction -------------------------------------------


def test_per_field_f1_in_the_headline():
    gold = Answer(records=(rec(), nd(None), rec("Ethylbenzene", cas="100-41-4", qualifier="J")))
    predicted = Prediction(
        records=(
            rec(result=9.9),  # value wrong
            nd("U", unit="mg/L", reporting_limit=0.0005),  # right in semantic, converted
            rec("Ethylbenzene", cas=None),  # qualifier lost
            rec("Benzene", sample="MW-02"),  # no such record: extra
        )
    )
    score = DocumentExtraction().score_case(Case("a", "scanned", None), gold, predicted)
    summary = DocumentExtraction().summarize("semantic", [score["semantic"]])
    # 3 gold, 4 predicted: 3 located pairs, of which 1 fully right (tp 1, fp 3, fn 2).
    assert summary["record_f1"] == pytest.approx(2 / 7)
    assert summary["sample_f1"] == pytest.approx(6 / 7)
    assert summary["value_f1"] == pytest.approx(4 / 7)
    assert summary["qualifier_f1"] == pytest.approx(4 / 7)
    assert summary["unit_f1"] == summary["reporting_limit_f1"] == pytest.approx(6 / 7)
    assert summary["record_precision"] == pytest.approx(1 / 4)
    assert summary["record_recall"] == pytest.approx(1 / 3)


@pytest.mark.parametrize("btype", [DocumentExtraction(), TableRecords()])
def test_precision_of_an_empty_prediction_is_undefined(btype):
    gold = btype.Answer(records=(rec(), nd(None)))
    score = btype.score_case(Case("a", "scanned", None), gold, btype.Prediction(records=()))
    for profile in btype.PROFILES:
        summary = btype.summarize(profile, [score[profile]])
        assert "record_precision" not in summary  # v1: 1.0
        assert summary["record_f1"] == 0.0 and summary["record_recall"] == 0.0


def test_recall_with_nothing_to_find_is_undefined_and_f1_of_nothing_is_one():
    totals = {"tp": 0.0, "fp": 0.0, "fn": 0.0, "exact": 1.0}
    assert pooled(totals, 1) == {
        "record_f1": 1.0,
        "exact": 1.0,
        "value_f1": 1.0,
        "unit_f1": 1.0,
        "qualifier_f1": 1.0,
        "reporting_limit_f1": 1.0,
        "sample_f1": 1.0,
    }


# -- on the v1 dataset: the two quirks the audit measured ---------------------------------------


@pytest.fixture(scope="module")
def v1_records():
    layout = PACKAGE.layout("document-extraction")
    answers = read_answers(layout.dataset_dir("synthetic-v1"), Answer)
    return [answer.records for answer in answers.values()]


def _f1(answers, change, profile):
    btype = DocumentExtraction()
    scores = [
        btype.score_case(
            Case(str(i), "scanned", None),
            Answer(records=records),
            Prediction(records=tuple(change(r) for r in records)),
        )[profile]
        for i, records in enumerate(answers)
    ]
    return btype.summarize(profile, scores)["record_f1"]


def test_v1_answers_with_explicit_u_and_without_cas_are_right_in_semantic(v1_records):
    import attrs

    def explicit_u(r):
        return attrs.evolve(r, qualifier=r.qualifier or "U") if r.nondetect else r

    def no_cas(r):
        return attrs.evolve(r, cas=None)

    for change in (explicit_u, no_cas):
        assert _f1(v1_records, change, "semantic") == 1.0
        assert _f1(v1_records, change, "exact") < 0.9  # the audit: 0.756 and 0.076
