"""`unit-normalisation`: scoring with the stated relative tolerance, strict refusals (NaN, inf,
duplicates), the generator's conversions, the shipped datasets (sizes, every conversion kind,
splits by family and spelling) and their fixtures, and the reference adapter."""

from __future__ import annotations

import math
import re
from collections import Counter
from decimal import Decimal

import pytest
from category_kit import assert_is_the_categories_task
from verify_kit import (
    assert_splits_share_no_family,
    reference_run,
    sized_splits,
    wrong_fixture_scores,
)

from envirobench import Case, EnviroBenchError, structure
from envirobench_reference_adapter.solvers import unit_normalisation as solver
from envirobench_synth.rng import make_random
from envirobench_synth.verify import units
from envirobench_verify.generate.unit_normalisation import MISTAKES, SIZES, planted
from envirobench_verify.unit_normalisation import (
    KINDS,
    RELATIVE_TOLERANCE,
    Answer,
    Input,
    Prediction,
    UnitNormalisation,
    UnitRow,
)

TYPE = UnitNormalisation()
ROW = {
    "id": "r01",
    "analyte": "Benzene",
    "medium": "water",
    "value": "12.5",
    "unit": "ug/L",
    "basis": "",
    "note": "",
    "target_unit": "mg/L",
    "target_basis": "",
}
CASE = Case("un-1", "fam", structure({"results": [ROW, {**ROW, "id": "r02"}]}, Input))
ANSWER = structure(
    {
        "results": [
            {"result": "r01", "value": 0.0125, "kind": "mass-volume"},
            {"result": "r02", "value": 2.0, "kind": "unchanged"},
        ]
    },
    Answer,
)


def score(results):
    return TYPE.score_case(CASE, ANSWER, structure({"results": results}, Prediction))["values"]


def test_the_type_is_well_formed_and_is_the_categories_task():
    assert_is_the_categories_task(TYPE)
    assert TYPE.HEADLINE[0] == "values_right" and RELATIVE_TOLERANCE == 0.005


def test_a_value_is_right_within_the_relative_tolerance_and_only_there():
    inside = 0.0125 * (1 + RELATIVE_TOLERANCE * 0.99)
    outside = 0.0125 * (1 + RELATIVE_TOLERANCE * 1.01)
    right = score([{"result": "r01", "value": inside}, {"result": "r02", "value": 2.0}])
    assert right.errors == () and right.metrics["right"] == 2
    wrong = score([{"result": "r01", "value": outside}, {"result": "r02", "value": 2000.0}])
    assert wrong.errors == (("wrong-value", "r01"), ("wrong-value", "r02"))
    missing = score([{"result": "r01", "value": 0.0125}, {"result": "zz", "value": 1.0}])
    assert missing.errors == (("missing-value", "r02"),)
    summary = TYPE.summarize("values", [right, wrong, missing])
    assert summary["values_right"] == 3 / 6 and summary["values"] == 6
    assert summary["mass-volume_right"] == 2 / 3 and summary["unchanged_right"] == 1 / 3
    assert TYPE.summarize("values", []) == {}


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"results": [{"result": "r01", "value": math.nan}]}, "finite"),
        ({"results": [{"result": "r01", "value": math.inf}]}, "finite"),
        ({"results": [{"result": "r01", "value": "12"}]}, "value"),
        ({"results": [{"result": "r01", "value": True}]}, "value"),
        (
            {"results": [{"result": "r01", "value": 1.0}, {"result": "r01", "value": 2.0}]},
            "distinct",
        ),
        ({"results": [{"result": "", "value": 1.0}]}, "result"),
        ({"results": [{"result": "r01", "value": 1.0, "unit": "mg/L"}]}, "unit"),
    ],
)
def test_bad_predictions_are_refused_naming_the_field(raw, message):
    with pytest.raises(EnviroBenchError, match=message):
        structure(raw, Prediction)


def test_huge_values_are_scored_not_refused():
    s = score([{"result": "r01", "value": 1e308}, {"result": "r02", "value": -1e308}])
    assert s.errors == (("wrong-value", "r01"), ("wrong-value", "r02"))


def test_bad_inputs_are_refused():
    with pytest.raises(EnviroBenchError, match="target_unit"):
        structure({"results": [{**ROW, "target_unit": "lb/gal"}]}, Input)
    with pytest.raises(EnviroBenchError, match="medium"):
        structure({"results": [{**ROW, "medium": "sediment"}]}, Input)
    with pytest.raises(EnviroBenchError, match="empty"):
        structure({"results": []}, Input)


# -- the generator ------------------------------------------------------------------------------


def test_molar_mass_ratios_are_the_textbook_ones():
    ratio = {s: float(ion / element) for s, (element, ion) in units.MOLAR.items()}
    assert ratio["nitrate"] == pytest.approx(4.4268, rel=1e-4)
    assert ratio["nitrite"] == pytest.approx(3.2845, rel=1e-4)
    assert ratio["ammonia"] == pytest.approx(1.2159, rel=1e-4)
    assert ratio["phosphate"] == pytest.approx(3.0662, rel=1e-4)


def test_every_generated_row_is_converted_by_its_rule():
    for index in range(30):
        report = units.sample_unit_report(make_random(3, "dev", index), "dev", index, 14)
        mark = solver.decimal_mark(row.value for row in report.rows)
        for row in report.rows:
            value = Decimal(str(solver.read_number(row.value, mark)))
            if row.kind == "unchanged":
                assert row.truth == pytest.approx(float(value))
            if row.kind in ("wet-to-dry", "moisture-to-dry"):
                assert row.truth > float(value)  # dry weight is more concentrated
            if row.kind == "dry-to-wet":
                assert row.truth < float(value)
            if row.kind == "percent":
                assert row.truth == pytest.approx(float(value) * 10000)
            if row.kind == "gas-volume":  # µg/m³ = ppbv × MW ÷ molar volume: MW 50 to 170 g/mol, 22 to 25 L
                per_volume = 1000 if "m" in row.unit.lower() else 1
                assert 2.0 < row.truth / (float(value) * per_volume) < 7.6
            if row.kind == "leachate":  # per litre of extract, the solids line ignored
                scale = row.truth / float(value)
                assert any(scale == pytest.approx(f) for f in (1e-3, 1.0, 1e3))


def test_the_gas_conversion_is_the_textbook_one():
    # Benzene, C6H6: 78.11 g/mol; 1 ppbv at 25 °C is 78.11 / 24.465 = 3.193 µg/m³ (EPA's table: 3.19).
    assert float(units.molecular_weight("71-43-2")) == pytest.approx(78.114, abs=1e-3)
    assert float(units.molar_volume(25)) == pytest.approx(24.465, abs=1e-3)
    assert float(units.molar_volume(0)) == pytest.approx(22.414, abs=1e-3)
    # PCE, C2Cl4: 165.82 g/mol, 1 ppbv = 6.78 µg/m³ at 25 °C.
    assert float(units.molecular_weight("127-18-4") / units.molar_volume(25)) == pytest.approx(6.78, abs=0.01)
    assert set(units.FORMULA) == {a.cas for a in units.catalogue.analytes_for("soil-gas")}


def test_values_are_printed_grouped_and_qualified_as_labs_print_them():
    assert units._printed(Decimal("12300"), comma=False, scientific=False, group=",") == "12,300"
    assert units._printed(Decimal("12300"), comma=True, scientific=False, group=".") == "12.300"
    assert units._printed(Decimal("1230.4"), comma=True, scientific=False, group=" ") == "1 230"
    assert units._printed(Decimal("0.0523"), comma=True, scientific=False, group=".") == "0,0523"
    assert units._printed(Decimal("123"), comma=False, scientific=False, group=",") == "123"


def test_the_splits_share_no_spelling():
    for table in (units.UNIT_SPELLINGS, units.BASIS_SPELLINGS, units.GAS_SPELLINGS, units.UNIT_BASIS_SPELLINGS):
        dev = {s for v in table["dev"].values() for s in v}
        test = {s for v in table["test"].values() for s in v}
        assert not (dev & test) - {"%"}, dev & test
    for table in (units.SOLIDS_NOTES, units.MOISTURE_NOTES, units.GAS_CONDITIONS, units.LEACHATE_SPELLINGS,
                  units.QUALIFIED):
        assert not set(table["dev"]) & set(table["test"])


# -- the shipped datasets ---------------------------------------------------------------------------


def test_the_splits_are_registered_sized_by_family_and_cover_every_conversion(datasets):
    assert_splits_share_no_family(TYPE.ID)
    for split, _, cases, answers in sized_splits(TYPE, datasets, SIZES):
        kinds = Counter(r.kind for a in answers.values() for r in a.results)
        assert set(kinds) == set(KINDS) and min(kinds.values()) >= 30, kinds
        if split == "test":
            assert sum(kinds.values()) >= 1000
        rows = [r for case in cases.values() for r in case.input.results]
        assert {"NO3", "NO2", "NH3", "PO4"} <= {
            ion for r in rows for ion in ("NO3", "NO2", "NH3", "PO4") if ion in r.basis
        }
        assert any(r.unit.lower() == "ppm" and r.medium == "water" for r in rows)
        assert any(r.unit.lower() == "ppb" and r.medium == "soil" for r in rows)
        assert any("," in r.value for r in rows) and any("E+" in r.value for r in rows)
        assert any(r.unit.lower() in ("ppb", "ppm") and r.medium == "air" for r in rows)  # bare, by volume
        assert sum(any(q in r.value for q in "<JU") for r in rows) >= 50
        assert any(r.note and "leachate" in r.basis for r in rows)
        assert any(re.fullmatch(r"\d{1,3}[,. ]\d{3}", r.value) for r in rows)  # thousands grouped
    assert 0.4 <= SIZES["dev"] / SIZES["test"] <= 0.5


def test_correct_fixture_has_no_error_and_wrong_has_exactly_the_planted_ones(datasets):
    for _, _, bad, mistake in wrong_fixture_scores(TYPE, datasets, "values", planted, len(MISTAKES)):
        assert len(bad.errors) == (0 if mistake is None else 1)


# -- the reference adapter --------------------------------------------------------------------------


def row(**changes):
    """A result row of the input, as the adapter kit gives it to the solver."""
    return structure({**ROW, **changes}, UnitRow)


def test_the_reference_converts_units_bases_and_species():
    assert solver.convert(row()) == pytest.approx(0.0125)
    assert solver.convert(row(unit="ppb", medium="soil", target_unit="mg/kg")) == pytest.approx(
        0.0125
    )
    dry = row(medium="soil", unit="mg/kg", target_unit="mg/kg", target_basis="dry weight",
              note="Percent moisture: 20", basis="wet")  # fmt: skip
    assert solver.convert(dry) == pytest.approx(12.5 / 0.8)
    nitrate = row(unit="mg/L", basis="as N", analyte="Nitrate", target_basis="as NO3")
    assert solver.convert(nitrate) == pytest.approx(12.5 * 4.4268, rel=1e-3)
    assert solver.convert(row(value="1,25", unit="%", medium="soil", target_unit="mg/kg")) == (
        pytest.approx(12500)
    )


def test_the_reference_reads_the_traps_of_real_practice():
    # A gas by volume: bare ppb in air is ppbv; µg/m³ at 25 °C unless the note says otherwise.
    pce = row(medium="air", analyte="Tetrachloroethene", value="10", unit="ppb", target_unit="µg/m³")
    assert solver.convert(pce) == pytest.approx(67.78, rel=1e-3)
    assert solver.convert(row(**{**ROW, "medium": "air", "analyte": "PCE", "value": "10", "unit": "ppbv",
                                 "target_unit": "µg/m³", "note": "Reported at 0 °C and 1 atm"})) == (
        pytest.approx(73.98, rel=1e-3))
    # A leachate: ppm per litre of extract; the sample's solids line is not applied.
    tclp = row(medium="soil", unit="ppm", basis="TCLP extract", note="Percent solids: 80", target_unit="µg/L")
    assert solver.convert(tclp) == pytest.approx(12500)
    # The basis in the unit: already dry, not converted again; dry to wet converted.
    dry = dict(medium="soil", unit="mg/kg dry", note="Percent solids: 80", target_unit="mg/kg")
    assert solver.convert(row(**dry, target_basis="dry weight")) == pytest.approx(12.5)
    assert solver.convert(row(**dry, target_basis="wet weight")) == pytest.approx(10.0)
    # Qualifiers beside the number, and the report's decimal mark read from its other values.
    assert solver.convert(row(value="<12.5 J")) == pytest.approx(0.0125)
    assert solver.decimal_mark(["0,52", "12.300", "7"]) == ","
    assert solver.decimal_mark(["0.52", "12,300"]) == "."
    assert solver.convert(row(value="12.300 U", target_unit="µg/L"), ",") == pytest.approx(12300)
    assert solver.convert(row(value="12,300", target_unit="µg/L"), ".") == pytest.approx(12300)
    # An unknown compound is copied, never a crash.
    assert solver.convert(row(medium="air", analyte="Unobtainium", unit="ppbv", target_unit="µg/m³")) == 12.5


def test_a_partial_reference_run_through_core(tmp_path, datasets):
    _, _, cases, _ = datasets["synthetic-dev-v1"]
    metrics = reference_run(tmp_path, TYPE.ID, sorted(cases)[:3])
    headline = metrics["profiles"]["values"]["headline"]
    assert headline["values"] >= 30 and headline["values_right"] >= 0.9
