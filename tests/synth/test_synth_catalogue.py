"""The analyte catalogue and its samplers."""

import datetime as dt
import re
from decimal import Decimal

import pytest

from envirobench_synth import catalogue
from envirobench_synth.rng import make_random


def cas_check_digit_holds(cas: str) -> bool:
    # Written independently of catalogue.is_valid_cas: digits right to left, weighted 1, 2, 3...
    digits = cas.replace("-", "")
    body, check = digits[:-1], int(digits[-1])
    return sum(weight * int(d) for weight, d in enumerate(reversed(body), start=1)) % 10 == check


def test_every_cas_number_passes_the_check_digit_rule():
    numbers = [a.cas for a in catalogue.ANALYTES if a.cas is not None]
    assert len(numbers) >= 35
    for cas in numbers:
        assert re.fullmatch(r"\d{2,7}-\d{2}-\d", cas), cas
        assert cas_check_digit_holds(cas), cas
        assert catalogue.is_valid_cas(cas), cas


def test_known_cas_numbers():
    by_name = {a.name: a.cas for a in catalogue.ANALYTES}
    assert by_name["Benzene"] == "71-43-2"
    assert by_name["Tetrachloroethene"] == "127-18-4"
    assert by_name["Vinyl chloride"] == "75-01-4"
    assert by_name["Lead"] == "7439-92-1"
    assert by_name["Benzo(a)pyrene"] == "50-32-8"
    # Petroleum fractions are carbon ranges, not substances: they have no CAS number.
    assert by_name["TPH-Gasoline Range Organics (C6-C10)"] is None


@pytest.mark.parametrize("bad", ["71-43-3", "71-43", "7-43-2", "71-4-2", "7a-43-2", "71-43-22", ""])
def test_invalid_cas_numbers_are_refused(bad):
    assert not catalogue.is_valid_cas(bad)


def test_analyte_names_are_unique_and_methods_exist():
    names = [a.name for a in catalogue.ANALYTES]
    assert len(names) == len(set(names))
    for matrix in catalogue.MATRICES.values():
        for group in matrix.groups:
            assert matrix.units[group] in catalogue.UNITS
            assert all(code in catalogue.METHODS for code in matrix.methods[group])
            assert all(Decimal(rl) > 0 for rl in matrix.reporting_limits[group])


@pytest.mark.parametrize(
    ("value", "digits", "text"),
    [
        ("0.012345", 3, "0.0123"),
        ("9.995", 3, "10.0"),
        ("1234.5", 3, "1230"),
        ("0.5", 3, "0.500"),
        ("100", 2, "100"),
        ("0.00099951", 3, "0.00100"),
    ],
)
def test_significant_figures_in_plain_notation(value, digits, text):
    assert catalogue.significant(Decimal(value), digits) == text


def test_result_rows_are_deterministic_and_realistic():
    for matrix in catalogue.MATRICES:
        rows = catalogue.sample_results(make_random(5, matrix), matrix, 10, catalogue.ReportStyle())
        assert rows == catalogue.sample_results(
            make_random(5, matrix), matrix, 10, catalogue.ReportStyle()
        )
        assert len({r.analyte for r in rows}) == 10
        for row in rows:
            assert (
                row.unit
                == catalogue.MATRICES[matrix].units[
                    next(a.group for a in catalogue.ANALYTES if a.name == row.analyte)
                ]
            )
            assert row.qualifier in ("", "U", "J", "B")
            assert Decimal(row.reporting_limit) > 0
            assert re.fullmatch(r"\d+(\.\d+)?", row.result), row.result
            if row.qualifier == "U":  # U style: not detected, reported at the reporting limit
                assert not row.detected and row.result == row.reporting_limit
            if row.qualifier == "J":  # estimated: detected below the reporting limit
                assert row.detected and Decimal(row.result) < Decimal(row.reporting_limit)


@pytest.mark.parametrize(("style", "pattern"), [("ND", r"ND"), ("<RL", r"<\d+(\.\d+)?")])
def test_nondetect_styles(style, pattern):
    rows = catalogue.sample_results(
        make_random(9, style), "groundwater", 12, catalogue.ReportStyle(nondetect=style)
    )
    nondetects = [r for r in rows if not r.detected]
    assert nondetects
    for row in nondetects:
        assert re.fullmatch(pattern, row.result) and row.qualifier == ""


def test_method_styles():
    assert catalogue.format_method("8260D", "SW{code}") == "SW8260D"
    assert catalogue.format_method("8260D", "SW-846 {code}") == "SW-846 8260D"
    assert catalogue.format_method("TO-15", "SW{code}") == "EPA TO-15"  # not an SW-846 method


def test_sample_ids_and_dates():
    rng = make_random(11, "samples")
    for _ in range(50):
        assert re.fullmatch(r"MW-\d{2}", catalogue.sample_id(rng, "groundwater"))
        assert re.fullmatch(r"SG-\d+", catalogue.sample_id(rng, "soil-gas"))
        assert re.fullmatch(r"SS-\d+|SB-\d+ \(\d+-\d+'\)", catalogue.sample_id(rng, "soil"))
        assert dt.date(2018, 1, 1) <= catalogue.sample_date(rng) <= dt.date(2024, 12, 31)
    assert catalogue.sample_laboratory(rng) in catalogue.LABORATORIES


def test_asking_for_more_analytes_than_exist_is_refused():
    with pytest.raises(ValueError, match="only"):
        catalogue.sample_analytes(make_random(1), "soil-gas", 100)
