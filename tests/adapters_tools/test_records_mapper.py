"""The shared records mapper: every table tool's rows become measurement records by it alone."""

from __future__ import annotations

import pytest

from envirobench_adapters_tools.records import RecordMapper, header_roles, number, read_value


def record(sample, analyte, result, unit, qualifier=None, limit=None, cas=None, nondetect=False):
    return {
        "sample_id": sample,
        "analyte": analyte,
        "cas": cas,
        "result": result,
        "nondetect": nondetect,
        "unit": unit,
        "qualifier": qualifier,
        "reporting_limit": limit,
    }


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1,250", 1250.0),
        ("4,0", 4.0),
        ("0.50", 0.5),
        ("12", 12.0),
        ("1,250.5", 1250.5),
        ("04/14/2018", None),
        ("WO21805-01", None),
        ("1,2,3", None),
        ("", None),
    ],
)
def test_numbers_thousands_and_decimal_commas(text, value):
    assert number(text) == value


def test_readings_of_result_cells():
    assert read_value("0.017 J") == read_value("0.017", "J")
    assert read_value("0.017 J").result == 0.017 and read_value("0.017 J").qualifier == "J"
    below = read_value("<0.50")
    assert below.nondetect and below.result is None and below.printed_limit == 0.5
    flagged = read_value("0.0050", "UJ")
    assert (
        flagged.nondetect
        and flagged.result is None
        and flagged.qualifier == "UJ"
        and flagged.printed_limit == 0.005
    )
    assert read_value("ND").nondetect and read_value("ND").printed_limit is None
    assert read_value("Surrogate recovery") is None and read_value("") is None


def test_a_header_needs_an_analyte_column_and_a_result_or_other_columns():
    assert header_roles(["Analyte", "Result", "Units"]) == {0: "analyte", 1: "result", 2: "unit"}
    assert header_roles(["Compound", "CAS Reg. No.", "Units", "MW-01", "MW-02"]) == {
        0: "analyte",
        1: "cas",
        2: "unit",
    }
    assert header_roles(["Result", "Units"]) is None
    assert header_roles(["Analyte"]) is None


def test_long_form_with_the_sample_from_the_page_label():
    text = "Client Sample Results\nClient ID: SB-09 (6-8') Lab Number: WO10962-01\n"
    table = [
        ["Parameter Name", "CAS No.", "Amt.", "Qual", "DL", "LOQ", "Unit", "DF"],
        ["Polychlorinated Biphenyls (EPA 8082A)", "", "", "", "", "", "", ""],
        ["Aroclor-1254", "11097-69-1", "0.050", "U", "0.015", "0.050", "mg/kg", "1"],
        ["PCB-1260", "11096-82-5", "0.034", "J", "0.017", "0.050", "mg/kg", "1"],
        ["Surrogate: Decachlorobiphenyl", "", "85", "", "", "75-125", "%REC", ""],
        ["% Moisture", "--", "60.2", "", "", "0.1", "%", "1"],
    ]
    assert RecordMapper().read_page([table], text) == [
        record(
            "SB-09 (6-8')", "Aroclor-1254", None, "mg/kg", "U", 0.05, "11097-69-1", nondetect=True
        ),
        record("SB-09 (6-8')", "PCB-1260", 0.034, "mg/kg", "J", 0.05, "11096-82-5"),
        record("SB-09 (6-8')", "% Moisture", 60.2, "%", None, 0.1),
    ]


def test_samples_as_columns_and_qc_samples_left_out():
    table = [
        ["Compound", "CAS", "Units", "MW-01", "MW-02", "LCS"],
        ["Toluene", "108-88-3", "mg/kg", "0.0050 U", "0.21", "0.19"],
    ]
    assert RecordMapper().read_page([table]) == [
        record("MW-01", "Toluene", None, "mg/kg", "U", 0.005, "108-88-3", nondetect=True),
        record("MW-02", "Toluene", 0.21, "mg/kg", None, None, "108-88-3"),
    ]


def test_a_sample_column_and_decimal_commas_and_a_header_carried_to_the_next_page():
    mapper = RecordMapper()
    header = ["Client ID", "Constituent", "Concentration", "Q", "MDL", "RL", "Dil. Factor"]
    mapper.read_page([[header, ["SS-5", "Percent Moisture", "85,2", "", "", "0,1", "1"]]])
    page_two = mapper.read_page(
        [
            [
                ["SB-13", "Percent Moisture", "41,2", "", "", "0,1", "1"],
                ["LCSD", "Lead", "9,40", "J", "", "4,0", "1"],
            ]
        ]
    )
    assert page_two == [record("SB-13", "Percent Moisture", 41.2, "", None, 0.1)]
    assert [r["sample_id"] for r in mapper.records] == ["SS-5", "SB-13"]


def test_the_unit_in_the_result_header():
    table = [["Analyte", "Result (ug/L)"], ["Benzene", "1,250"]]
    assert RecordMapper().read_page([table], "Sample ID: MW-3") == [
        record("MW-3", "Benzene", 1250.0, "ug/L")
    ]


def test_no_table_no_records():
    mapper = RecordMapper()
    assert mapper.read_page([], "Sample ID: MW-3") == [] and mapper.records == []


def test_the_lab_sample_id_is_not_the_sample_and_labels_in_a_table_start_samples():
    text = "Client Sample ID: B3-4 Lab Sample ID: 480-01\nClient Sample ID: B3-5 Lab Sample ID: 480-02\n"
    table = [
        ["Client Sample ID: B3-", "4 Lab Sample ID: 480-01", "", ""],
        ["Analyte", "Conc.", "PQL", "Unit"],
        ["Lead", "1.5", "1.0", "mg/kg"],
        ["Client Sample ID: B3-", "5", "", ""],
        ["Lead", "2.5", "1.0", "mg/kg"],
    ]
    got = RecordMapper().read_page([table], text)
    assert [(r["sample_id"], r["result"]) for r in got] == [("B3-4", 1.5), ("B3-5", 2.5)]


def test_a_split_header_naming_a_qualifier_but_no_result_is_not_a_sample_matrix():
    assert header_roles(["Analyte", "CAS No.", "Co", "nc.", "Qualifier", "PQL"]) is None
