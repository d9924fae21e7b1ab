"""The adapter's own reader of printed laboratory values."""

from __future__ import annotations

import pytest

from envirobench_reference_adapter.quantities import (
    ReadValue,
    find_cas,
    find_unit,
    is_qualifier_text,
    is_valid_cas,
    normalize_unit,
    parse_number,
    parse_qualifier,
    parse_result,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<0.50", ReadValue(None, True, None, 0.5)),
        ("ND", ReadValue(None, True, None, None)),
        ("0.50 U", ReadValue(None, True, "U", 0.5)),
        ("0.52 J", ReadValue(0.52, False, "J", None)),
        ("0.52J", ReadValue(0.52, False, "J", None)),
        ("1,250", ReadValue(1250.0, False, None, None)),
        ("3.1 JB", ReadValue(3.1, False, "JB", None)),
        ("0.050a", ReadValue(0.05, False, None, None, "a")),
        ("0.050 a", ReadValue(0.05, False, None, None, "a")),
    ],
)
def test_result_notations(text, expected):
    assert parse_result(text) == expected


@pytest.mark.parametrize("text", ["", "-", "Result", "Benzene", "SW-846 8260D"])
def test_not_results(text):
    assert parse_result(text) is None


def test_numbers_forgive_ocr_look_alikes_only_inside_numbers():
    assert parse_number("1O.5") == 10.5
    assert parse_number("ND") is None
    assert parse_number("1,2,5") is None


def test_units_keep_the_printed_micro():
    assert normalize_unit("ug/L") == "ug/L"
    assert normalize_unit("\u03bcg/L") == "\u00b5g/L"
    assert normalize_unit("mg/Kg") == "mg/kg"
    assert normalize_unit("ug/m3") == "ug/m³"
    assert normalize_unit("Units") is None
    assert find_unit("Result (mg/kg)") == "mg/kg"


def test_qualifier_column_and_cas():
    assert parse_qualifier("U") == "U"
    assert parse_qualifier(" ") is None
    assert parse_qualifier("J, B") == "JB"
    assert find_cas("CAS 71-43-2") == "71-43-2"
    assert is_valid_cas("71-43-2") and not is_valid_cas("71-43-3")


def test_decimal_commas_and_scientific_notation():
    assert parse_number("1,25") == 1.25  # no thousands group: a decimal comma
    assert parse_number("0,050") == 0.05
    assert (
        parse_number("1,250") == 1250.0
    )  # a thousands separator, unless the report writes decimal commas
    assert parse_number("1,250", decimal_comma=True) == 1.25
    assert parse_number("1.250,5") == 1250.5
    assert parse_number("1.2E-03") == 0.0012
    assert parse_number("4,5e+2") == 450.0
    assert parse_number("1.2x10-3") == parse_number("1.2×10⁻³") == 0.0012
    assert (
        parse_result("1.2 E-03 J").result == 0.0012 and parse_result("1.2 E-03 J").qualifier == "J"
    )


def test_limit_forms_and_validator_codes():
    assert parse_result("< 0.50") == ReadValue(None, True, None, 0.5)
    assert parse_result("<RL") == ReadValue(None, True, None, None)  # the limit is in its column
    assert parse_result("0.52 J+").qualifier == "J+" and parse_result("3.1 JN").qualifier == "JN"
    assert parse_result("0.50 UJ") == ReadValue(None, True, "UJ", 0.5)
    assert parse_qualifier("J, B") == "JB"
    assert is_qualifier_text("UJ") and is_qualifier_text("--") and not is_qualifier_text("Benzene")
