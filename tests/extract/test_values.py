"""Printed result notation (envirobench_extract.values): every notation the module documents,
every qualifier and unit of the catalogue, and every result cell the table generators print."""

from decimal import Decimal

import pytest

from envirobench_extract.generate import table_cells, table_structure
from envirobench_extract.generate.grid_tables import build_spec
from envirobench_extract.values import (
    MICRO,
    Reading,
    normalise_text,
    parse_unit,
    parse_value,
    readings_agree,
)
from envirobench_synth import catalogue
from envirobench_synth.rng import make_random

D = Decimal


@pytest.mark.parametrize(
    ("text", "reading"),
    [
        # plain numbers, thousands separators, E notation, signs
        ("12.5", Reading(D("12.5"))),
        ("0.0050", Reading(D("0.0050"))),
        ("1,250", Reading(D("1250"))),
        ("250,000", Reading(D("250000"))),
        ("1,250.5", Reading(D("1250.5"))),
        ("1.2E+03", Reading(D("1200"))),
        ("1.2e-3", Reading(D("0.0012"))),
        (".5", Reading(D("0.5"))),
        ("-3.2", Reading(D("-3.2"))),
        ("\u22123.2", Reading(D("-3.2"))),
        # qualifier flags, spaced or attached, alone or together
        ("1.2 J", Reading(D("1.2"), qualifiers=("J",))),
        ("1.2J", Reading(D("1.2"), qualifiers=("J",))),
        ("12 B", Reading(D("12"), qualifiers=("B",))),
        ("0.50 U", Reading(D("0.50"), nondetect=True, qualifiers=("U",))),
        ("0.50U", Reading(D("0.50"), nondetect=True, qualifiers=("U",))),
        ("3.1 JB", Reading(D("3.1"), qualifiers=("B", "J"))),
        ("3.1 B J", Reading(D("3.1"), qualifiers=("B", "J"))),
        ("0.2 UJ", Reading(D("0.2"), nondetect=True, qualifiers=("J", "U"))),
        ("410 E", Reading(D("410"), qualifiers=("E",))),
        # units before or after the flags
        ("12 mg/L", Reading(D("12"), unit="mg/L")),
        ("12mg/L", Reading(D("12"), unit="mg/L")),
        ("4.1 J ug/L", Reading(D("4.1"), qualifiers=("J",), unit=f"{MICRO}g/L")),
        ("4.1 µg/L J", Reading(D("4.1"), qualifiers=("J",), unit=f"{MICRO}g/L")),
        ("12 mg/kg dry", Reading(D("12"), unit="mg/kg dry")),
        # non-detects
        ("<0.50", Reading(D("0.50"), nondetect=True)),
        ("< 0.50", Reading(D("0.50"), nondetect=True)),
        ("<0.50 mg/L", Reading(D("0.50"), nondetect=True, unit="mg/L")),
        ("<0.50 U", Reading(D("0.50"), nondetect=True, qualifiers=("U",))),
        ("<RL", Reading(None, nondetect=True, limit="RL")),
        ("< MDL", Reading(None, nondetect=True, limit="MDL")),
        ("<PQL", Reading(None, nondetect=True, limit="PQL")),
        ("ND", Reading(None, nondetect=True)),
        ("ND (0.5)", Reading(D("0.5"), nondetect=True)),
        ("ND(0.5)", Reading(D("0.5"), nondetect=True)),
        ("ND (0.5 mg/L)", Reading(D("0.5"), nondetect=True, unit="mg/L")),
        ("BRL", Reading(None, nondetect=True, limit="RL")),
        ("BDL", Reading(None, nondetect=True, limit="DL")),
        # whitespace and line breaks are normalised first
        ("  1.2\n J ", Reading(D("1.2"), qualifiers=("J",))),
    ],
)
def test_every_documented_notation(text, reading):
    assert parse_value(text) == reading


@pytest.mark.parametrize(
    "text",
    [
        "",
        "NA",
        "-",
        "U",
        "J",
        "1,4-Dioxane",  # not 14
        "1,25",  # an incomplete thousands group
        "0,50",  # decimal commas are not read
        "71-43-2",  # a CAS number
        "Aroclor 1254",
        "8260D",  # a method code, D is no qualifier
        "8260B",  # a method code: B must not touch the number
        "8270E",
        "12B",
        "SW-846 8260D",
        "TO-15",
        "MW-01",
        "SB-3 (4-6')",
        "06/12/2023",
        "2023-06-12",
        "12-Jun-23",
        "Result (mg/kg)",
        "12 X",  # X is no qualifier
        "12 mg/Lx",
        "12 JBX",
        "ND (0.5 J)",  # flags are not read inside ND's parentheses
        "<",
        "< foo",
        "nd",
    ],
)
def test_cells_that_are_not_results(text):
    assert parse_value(text) is None


def test_values_compare_as_decimals():
    assert parse_value("0.5") == parse_value("0.50")
    assert parse_value("1,250") == parse_value("1250") == parse_value("1.25E+3")
    assert parse_value("0.05") != parse_value("0.50")
    assert readings_agree("<0.005", "< 0.005")
    assert readings_agree("ND (0.5)", "<0.5")
    assert not readings_agree("0.50 U", "<0.50")  # the printed U flag is a qualifier
    assert not readings_agree("ND", "<RL")  # only one names its limit
    assert readings_agree("BRL", "<RL")
    assert not readings_agree("Benzene", "Benzene")  # not a result


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("ug/L", f"{MICRO}g/L"),
        (f"{MICRO}g/L", f"{MICRO}g/L"),
        ("\u03bcg/L", f"{MICRO}g/L"),  # Greek small letter mu
        ("mcg/L", f"{MICRO}g/L"),
        ("UG/L", f"{MICRO}g/L"),
        ("mg/l", "mg/L"),
        ("mg/Kg", "mg/kg"),
        ("MG/KG", "mg/kg"),
        ("ug/kg", f"{MICRO}g/kg"),
        ("ug/m3", f"{MICRO}g/m³"),
        (f"{MICRO}g/m³", f"{MICRO}g/m³"),
        ("ng/L", "ng/L"),
        ("mg/kg-dry", "mg/kg dry"),
        ("mg/kg wet", "mg/kg wet"),
        ("%", "%"),
        ("ppm", "ppm"),
        ("ppbv", "ppbv"),
        ("pCi/L", "pCi/L"),
        (" µg/L\n", f"{MICRO}g/L"),
    ],
)
def test_units_are_canonical(text, unit):
    assert parse_unit(text) == unit


@pytest.mark.parametrize("text", ["mg", "m/s", "kg/", "Units", "mg/kg/day", "12 mg/L", ""])
def test_cells_that_are_not_units(text):
    assert parse_unit(text) is None


def test_normalise_text():
    assert normalise_text("  SW-846\n8260D \t") == "SW-846 8260D"
    assert normalise_text("e\u0301") == "\u00e9"  # NFC
    assert normalise_text("< 0.005") != normalise_text("<0.005")  # collapsed, never removed
    assert normalise_text("\u00b5g/L") != normalise_text("\u03bcg/L")  # NFC keeps the micro sign


# -- the catalogue's notations ------------------------------------------------------------------


def test_every_catalogue_unit_is_read_as_itself():
    for unit in catalogue.UNITS:
        assert parse_unit(unit) == unit
        assert parse_value(f"1.0 {unit}") == Reading(D("1.0"), unit=unit)
    for matrix in catalogue.MATRICES.values():
        for unit in matrix.units.values():
            assert parse_unit(unit) == unit
            assert parse_unit(unit.replace("µ", "u").replace("/kg", "/Kg")) == unit


def test_every_catalogue_qualifier_in_every_printed_form():
    printed = {
        "U": ["0.50 U", "0.50U"],
        "J": ["0.31 J", "0.31J"],
        "B": ["12 B"],
        "ND": ["ND", "ND (0.50)"],
        "<RL": ["<0.50", "< 0.50", "<RL"],
    }
    assert set(printed) == set(catalogue.QUALIFIERS)
    for qualifier, forms in printed.items():
        for text in forms:
            reading = parse_value(text)
            assert reading is not None, text
            assert reading.nondetect == (qualifier in ("U", "ND", "<RL")), text
            if len(qualifier) == 1:
                assert reading.qualifiers == (qualifier,), text


@pytest.mark.parametrize("style", ["U", "ND", "<RL"])
def test_every_result_the_catalogue_samples_is_read(style):
    report = catalogue.ReportStyle(nondetect=style)
    rng = make_random(7, "values", style)
    for matrix in catalogue.MATRICES:
        for _ in range(200):
            analyte = rng.choice(catalogue.analytes_for(matrix))
            row = catalogue.sample_result_row(rng, analyte, matrix, report)
            reading = parse_value(row.result)
            assert reading is not None, row.result
            # In the U style the result cell holds the limit; the U is in the qualifier column.
            assert reading.nondetect == (style != "U" and not row.detected), row.result
            if style == "U" and not row.detected:
                assert parse_value(f"{row.result} {row.qualifier}").nondetect
            assert parse_value(row.reporting_limit) is not None
            assert parse_unit(row.unit) == row.unit


# -- every cell the table generators print --------------------------------------------------------


def generated_cells():
    for module in (table_structure, table_cells):
        for case_id, layout in module.case_ids():
            spec = build_spec(make_random(module.SEED, "table", case_id), layout)
            yield from (
                (case_id, cell, kind) for cell, kind in zip(spec.cells, spec.kinds, strict=True)
            )


def test_every_generated_cell_reads_as_its_kind():
    kinds_seen = set()
    notations = {
        "<",
        "< ",
        "<RL",
        "ND",
        "ND (",
        " U",
        "U",
        " J",
        "J",
        " B",
        ",",
        "ug/",
        "/Kg",
        "µg",
        "mg/L",
    }
    found = set()
    for case_id, cell, kind in generated_cells():
        kinds_seen.add(kind)
        where = f"{case_id} ({cell.row}, {cell.column}) {cell.text!r}"
        if kind in ("result", "reporting_limit"):
            assert parse_value(cell.text) is not None, where
            found |= {n for n in notations if n in cell.text}
        elif kind == "unit":
            assert parse_unit(cell.text) is not None, where
            found |= {n for n in notations if n in cell.text}
        elif kind != "qualifier":
            # names, CAS numbers, methods, headers, section rows: never mistaken for a result
            assert parse_value(cell.text) is None, where
        else:
            assert cell.text in ("", "U", "J", "B"), where
    assert kinds_seen == {
        "header",
        "section",
        "analyte",
        "cas",
        "result",
        "qualifier",
        "unit",
        "reporting_limit",
        "method",
    }
    assert found == notations  # the generators print every trap at least once
