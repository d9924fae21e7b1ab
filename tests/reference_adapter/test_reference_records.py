"""Records out of results pages: the table reader, `table-records` and `document-extraction`."""

from __future__ import annotations

import pytest
from reference_report_drawing import EXPECTED, draw_report

from envirobench_extract.document_extraction import Input as DocumentExtractionInput
from envirobench_extract.table_records import Input as TableRecordsInput
from envirobench_reference_adapter import pdftext
from envirobench_reference_adapter.layout import Word
from envirobench_reference_adapter.results_tables import TableReader
from envirobench_reference_adapter.solvers import document_extraction, table_records


def solve_document(path, variant="v1"):
    case = DocumentExtractionInput(document=path.name)
    return document_extraction.solve(case, {path.name: path}, variant)["records"]


def test_document_extraction_reads_every_record_and_no_qc(tmp_path):
    records = solve_document(draw_report(tmp_path / "r.pdf"))
    assert records == EXPECTED  # footnote marker resolved, continued rows kept, method blank skipped


def test_baseline_loses_what_crosses_the_page_break(tmp_path):
    records = solve_document(draw_report(tmp_path / "r.pdf"), "baseline")
    assert [r["analyte"] for r in records] == [r["analyte"] for r in EXPECTED[:-1]]
    assert records[-1]["qualifier"] is None  # the marker's footnote is on the next page


def test_table_records_on_a_pdf_page_uses_the_pages_before(tmp_path):
    path = draw_report(tmp_path / "r.pdf")
    case = TableRecordsInput(document="r.pdf", page=4)
    records = table_records.solve(case, {"r.pdf": path}, "v1")["records"]
    assert records == [EXPECTED[-1]]


def test_table_records_on_a_sideways_page(tmp_path):
    path = draw_report(tmp_path / "r.pdf", sideways=True)
    case = TableRecordsInput(document="r.pdf", page=3)
    assert table_records.solve(case, {"r.pdf": path}, "v1")["records"] == EXPECTED[:4]


def words_of(rows: list[tuple[float, list[tuple[float, str]]]]) -> list[Word]:
    """Words at (y, [(x, text), ...]), 10 units high, 6 units per character."""
    return [Word(text, x, y, x + 6 * len(text), y + 10, size=10) for y, cells in rows for x, text in cells]


def test_samples_as_columns():
    header = [(0, "Analyte"), (150, "CAS No."), (230, "Units"), (290, "RL"), (350, "MW-01"), (430, "MW-02")]
    words = words_of(
        [
            (0, header),
            (12, [(350, "03/11/2024"), (430, "03/12/2024")]),
            (30, [(0, "Benzene"), (150, "71-43-2"), (230, "ug/L"), (290, "1.0"), (350, "0.52 J"), (430, "<1.0")]),
            (46, [(0, "Lead"), (150, "7439-92-1"), (230, "mg/L"), (290, "0.0050"), (350, "0.012"), (430, "ND")]),
        ]
    )
    reader = TableReader()
    reader.read_page(words)
    got = {(r["sample_id"], r["analyte"]): (r["result"], r["nondetect"], r["qualifier"], r["reporting_limit"], r["unit"]) for r in reader.finish()}
    assert got == {
        ("MW-01", "Benzene"): (0.52, False, "J", 1.0, "ug/L"),
        ("MW-02", "Benzene"): (None, True, None, 1.0, "ug/L"),
        ("MW-01", "Lead"): (0.012, False, None, 0.005, "mg/L"),
        ("MW-02", "Lead"): (None, True, None, 0.005, "mg/L"),
    }


def test_unit_in_the_result_title_and_no_sample_means_no_record():
    header = [(0, "Parameter"), (150, "CAS"), (230, "Result (mg/kg)"), (330, "Flag")]
    rows = [(0, header), (16, [(0, "Arsenic"), (150, "7440-38-2"), (230, "4.1"), (330, "B")])]
    reader = TableReader()
    assert reader.read_page(words_of(rows)) == []  # no "Client Sample ID:": whose result is it?
    reader.sample = "SS-3"
    assert reader.read_page(words_of(rows)) == [
        {"sample_id": "SS-3", "analyte": "Arsenic", "cas": "7440-38-2", "result": 4.1, "nondetect": False,
         "unit": "mg/kg", "qualifier": "B", "reporting_limit": None}
    ]


@pytest.mark.slow
def test_a_scanned_results_page_through_ocr(tmp_path):
    records = solve_document(draw_report(tmp_path / "r.pdf", scanned_results=True))
    mw01 = [r for r in records if r["sample_id"] == "MW-01"][:4]  # the scan shows no MW-02 caption
    assert len(mw01) == 4
    right = sum(1 for got, want in zip(mw01, EXPECTED[:4], strict=True) if got == want)
    assert right >= 3  # OCR may misread a character, but the table is found and read
    assert pdftext.page_count(tmp_path / "r.pdf") == 4


def labelled(y: float, label: str) -> tuple[float, list[tuple[float, str]]]:
    return (y, [(0, label)])


def test_titles_are_understood_by_their_words_and_cells_not_by_one_generators_strings():
    # Titles no v1 report printed, a column titled by an abbreviation read by its letters (PQL:
    # a quantitation limit), a qualifier column known by its cells, decimal commas, scientific
    # notation, a non-detect below the limit in its column, a surrogate and a QC sample.
    header = [(0, "Compound"), (150, "CASRN"), (230, "Concentration"), (320, "PQL"), (370, "Units"), (420, "Lab Flags")]
    rows = [
        labelled(0, "Sample ID: MW-07"),
        (16, header),
        (32, [(0, "Benzene"), (150, "71-43-2"), (230, "0,52"), (320, "1,0"), (370, "µg/L"), (420, "J")]),
        (48, [(0, "Toluene"), (150, "108-88-3"), (230, "1.2E+03"), (320, "1,0"), (370, "µg/L"), (420, "E")]),
        (64, [(0, "Lead"), (150, "7439-92-1"), (230, "<RL"), (320, "0,0050"), (370, "mg/L"), (420, "")]),
        (80, [(0, "Toluene-d8 (S)"), (150, "2037-26-5"), (230, "98"), (320, "70-130"), (370, "%"), (420, "")]),
        labelled(110, "Sample ID: MW-07 DL"),
        (126, header),
        (142, [(0, "Toluene"), (150, "108-88-3"), (230, "1.4E+03"), (320, "10"), (370, "µg/L"), (420, "D")]),
        (158, [(0, "Benzene"), (150, "71-43-2"), (230, "<10"), (320, "10"), (370, "µg/L"), (420, "U")]),
        labelled(190, "Sample ID: MW-07 MS"),
        (206, header),
        (222, [(0, "Benzene"), (150, "71-43-2"), (230, "9,8"), (320, "1,0"), (370, "µg/L"), (420, "")]),
    ]
    reader = TableReader()
    reader.read_page(words_of(rows))
    got = {(r["sample_id"], r["analyte"]): (r["result"], r["nondetect"], r["qualifier"], r["reporting_limit"], r["unit"]) for r in reader.finish()}
    assert got == {
        ("MW-07", "Benzene"): (0.52, False, "J", 1.0, "µg/L"),
        ("MW-07", "Toluene"): (1400.0, False, "D", 10.0, "µg/L"),  # the diluted run replaces the E result
        ("MW-07", "Lead"): (None, True, None, 0.005, "mg/L"),
    }


def test_samples_as_rows_with_qc_rows_sections_and_field_qc():
    header = [(0, "Sample"), (90, "Parameter"), (220, "Result"), (290, "Qualifier"), (360, "Reporting Limit"), (470, "Unit")]
    rows = [
        (0, header),
        (16, [(0, "Dissolved Metals")]),
        (32, [(0, "MW-01"), (90, "Lead"), (220, "0.012"), (360, "0.0050"), (470, "mg/L")]),
        (48, [(0, "DUP-1"), (90, "Lead"), (220, "0.011"), (360, "0.0050"), (470, "mg/L")]),
        (64, [(0, "Trip Blank"), (90, "Lead"), (220, "ND"), (360, "0.0050"), (470, "mg/L")]),
        (80, [(0, "Method Blank"), (90, "Lead"), (220, "ND"), (360, "0.0050"), (470, "mg/L")]),
        (96, [(0, "MW-01 DUP"), (90, "Lead"), (220, "0.013"), (360, "0.0050"), (470, "mg/L")]),
        (112, [(0, "MW-01"), (90, "Arsenic"), (220, "0.020"), (290, "R"), (360, "0.0050"), (470, "mg/L")]),
    ]
    reader = TableReader()
    reader.read_page(words_of(rows))
    got = [(r["sample_id"], r["analyte"], r["result"], r["nondetect"]) for r in reader.finish()]
    assert got == [
        ("MW-01", "Lead (dissolved)", 0.012, False),
        ("DUP-1", "Lead (dissolved)", 0.011, False),  # a blind field duplicate is a sample
        ("Trip Blank", "Lead (dissolved)", None, True),  # so is a field blank
    ]  # the method blank and the laboratory duplicate are QC; a rejected (R) result is none
