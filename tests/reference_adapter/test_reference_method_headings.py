"""A reader that degrades, never drops (issue 32): headings as laboratories print them never
switch results reading off for the rest of a report.

Real reports head each method's results with its method number, analyte group and technique
("EPA 8260D - Volatile Organic Compounds by GC/MS", "SW-846 6020B Metals by ICP-MS"), put QC
words inside method titles ("... Method Blank, LCS/LCSD and Surrogate Recovery"), name their
instrument, and carry fax transmission headers and logos. The reader once took the "MS" of
GC/MS for a matrix spike, and any QC heading for the start of a QC section that lasted until a
title said "results": every later table of the report was lost. These reports are drawn here by
hand (reportlab), in conventions no benchmark generator prints: the method headings, the fax
header, the logo, the instrument line and the QC headings are this file's own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from reference_report_drawing import Page
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from envirobench_extract.document_extraction import Input as DocumentExtractionInput
from envirobench_extract.table_records import Input as TableRecordsInput
from envirobench_reference_adapter.layout import Word
from envirobench_reference_adapter.results_tables import TableReader
from envirobench_reference_adapter.results_tables.vocabulary import is_qc_heading
from envirobench_reference_adapter.solvers import document_extraction, table_records

LONG = ["Client ID", "Analyte", "Result", "Q", "PQL", "Units"]
LONG_X = [50, 140, 330, 380, 420, 470]
RIGHT = {2, 4}


def fax_header(page: Page, number: int, pages: int) -> None:
    """The line a fax machine prints across the top of every page it sends."""
    page.text(
        36,
        16,
        f"MAR-22-2024 14:02   FROM: HARBOR POINT ENV LAB   TO: 15085550142   P.{number:02d}/{pages:02d}",
        7,
    )


def logo(page: Page) -> None:
    page.pdf.rect(50, page.height - 78, 44, 34)
    page.text(56, 66, "HPL", 16, bold=True)
    page.text(104, 58, "Harbor Point Laboratories", 13, bold=True)
    page.text(104, 72, "Accredited testing since 1987", 8)


def long_table(
    page: Page, y: float, heading: str, rows: list[list[str]], instrument: str | None = None
) -> float:
    page.text(50, y, heading, 10, bold=True)
    y += 14
    if instrument:
        page.text(50, y, instrument, 8)
        y += 14
    y += 4
    for k, (x, title) in enumerate(zip(LONG_X, LONG, strict=True)):
        page.text(x + 30 if k in RIGHT else x, y, title, 9, bold=True, right=k in RIGHT)
    page.rule(y + 4)
    y += 16
    for row in rows:
        for k, (x, cell) in enumerate(zip(LONG_X, row, strict=True)):
            page.text(x + 30 if k in RIGHT else x, y, cell, 9, right=k in RIGHT)
        y += 14
    return y + 18


VOLATILES = [
    ["MW-11", "Benzene", "4.2", "", "1.0", "ug/L"],
    ["MW-11", "Toluene", "1.0", "U", "1.0", "ug/L"],
    ["MW-12", "Benzene", "0.61", "J", "1.0", "ug/L"],
    ["MW-12", "Toluene", "2.7", "", "1.0", "ug/L"],
    ["2403117-BLK1", "Benzene", "1.0", "U", "1.0", "ug/L"],
    ["2403117-BS1", "Benzene", "19.6", "", "1.0", "ug/L"],
]
METALS = [
    ["MW-11", "Arsenic", "0.0083", "", "0.0010", "mg/L"],
    ["MW-12", "Arsenic", "0.0010", "U", "0.0010", "mg/L"],
]
SEMIVOLATILES = [
    ["MW-11", "Naphthalene", "0.22", "", "0.10", "ug/L"],
    ["MW-12", "Naphthalene", "0.10", "U", "0.10", "ug/L"],
    ["Method Blank", "Naphthalene", "0.10", "U", "0.10", "ug/L"],
    ["LCS", "Naphthalene", "1.9", "", "0.10", "ug/L"],
    ["LCSD", "Naphthalene", "2.0", "", "0.10", "ug/L"],
    ["MW-11 MS", "Naphthalene", "2.1", "", "0.10", "ug/L"],
]
QC_ONLY = [
    ["Method Blank", "Chloride", "0.50", "U", "0.50", "mg/L"],
    ["LCS", "Chloride", "9.8", "", "0.50", "mg/L"],
]
ANIONS = [
    ["MW-11", "Chloride", "48", "", "0.50", "mg/L"],
    ["MW-12", "Chloride", "112", "", "0.50", "mg/L"],
]


def record(sample, analyte, result, qualifier, limit, unit):
    nondetect = qualifier == "U"
    return {
        "sample_id": sample,
        "analyte": analyte,
        "cas": None,
        "result": None if nondetect else result,
        "nondetect": nondetect,
        "unit": unit,
        "qualifier": qualifier,
        "reporting_limit": limit,
    }


def expected(rows: list[list[str]]) -> list[dict]:
    return [
        record(s, a, float(r), q or None, float(rl), u)
        for s, a, r, q, rl, u in rows
        if not any(word in s for word in ("BLK", "BS", "Blank", "LCS", " MS"))
    ]


def draw_long_report(path: Path) -> Path:
    """Three pages: a cover with a logo; the results by method under lab-style method headings
    (QC rows inline); a QC page under a QC heading, then one more method's results below it."""
    pdf = canvas.Canvas(str(path), pagesize=letter, invariant=1)
    page = Page(pdf)
    fax_header(page, 1, 3)
    logo(page)
    page.text(306, 170, "CERTIFICATE OF ANALYSIS", 15, bold=True)
    for k, (label, value) in enumerate(
        (
            ("Client", "Saltmarsh Consulting"),
            ("Project", "Pier 4 Fuel Dock"),
            ("Lab Job", "2403117"),
        )
    ):
        page.text(60, 220 + 17 * k, f"{label}:", 10, bold=True)
        page.text(200, 220 + 17 * k, value, 10)
    pdf.showPage()
    fax_header(page, 2, 3)
    logo(page)
    y = long_table(
        page,
        110,
        "EPA 8260D \u2014 Volatile Organic Compounds by GC/MS",
        VOLATILES,
        instrument="Instrument: Agilent 7890B/5977B",
    )
    y = long_table(page, y, "SW-846 6020B Metals by ICP-MS", METALS)
    long_table(
        page,
        y,
        "SW-846 8270E Semivolatiles (SIM) \u2014 Method Blank, LCS/LCSD and Surrogate Recovery",
        SEMIVOLATILES,
    )
    pdf.showPage()
    fax_header(page, 3, 3)
    logo(page)
    page.text(50, 110, "Quality Control Summary", 12, bold=True)
    y = long_table(page, 130, "Batch 2403120", QC_ONLY)
    long_table(page, y, "EPA 300.0 Anions by Ion Chromatography", ANIONS)
    pdf.showPage()
    pdf.save()
    return path


LONG_EXPECTED = expected(VOLATILES) + expected(METALS) + expected(SEMIVOLATILES) + expected(ANIONS)


def test_records_under_lab_method_headings_are_read(tmp_path):
    path = draw_long_report(tmp_path / "r.pdf")
    case = DocumentExtractionInput(document="r.pdf")
    records = document_extraction.solve(case, {"r.pdf": path}, "v1")["records"]
    assert records == LONG_EXPECTED  # MB, LCS, LCSD and MS rows stay QC, each by its own row


def test_a_table_after_a_qc_heading_on_the_same_page_is_read(tmp_path):
    path = draw_long_report(tmp_path / "r.pdf")
    case = TableRecordsInput(document="r.pdf", page=3)
    assert table_records.solve(case, {"r.pdf": path}, "v1")["records"] == expected(ANIONS)


def test_table_records_under_a_gc_ms_heading(tmp_path):
    path = draw_long_report(tmp_path / "r.pdf")
    case = TableRecordsInput(document="r.pdf", page=2)
    records = table_records.solve(case, {"r.pdf": path}, "v1")["records"]
    assert records == expected(VOLATILES) + expected(METALS) + expected(SEMIVOLATILES)


# -- word-level pages: samples named by a label, samples as columns ------------------------------


def words_of(rows: list[tuple[float, list[tuple[float, str]]]]) -> list[Word]:
    """Words at (y, [(x, text), ...]), 10 units high, 6 units per character."""
    return [
        Word(text, x, y, x + 6 * len(text), y + 10, size=10)
        for y, cells in rows
        for x, text in cells
    ]


PER_SAMPLE = [(0, "Analyte"), (150, "Result"), (220, "RL"), (270, "Units")]


def per_sample(
    y: float, heading: str, analyte: str, result: str
) -> list[tuple[float, list[tuple[float, str]]]]:
    return [
        (y, [(0, heading)]),
        (y + 16, PER_SAMPLE),
        (y + 32, [(0, analyte), (150, result), (220, "0.50"), (270, "mg/kg")]),
    ]


def test_a_sample_keeps_its_results_under_a_method_heading_with_qc_words():
    rows = [
        (0, [(0, "Client Sample ID: SB-3")]),
        *per_sample(20, "Volatile Organic Compounds by GC/MS (8260D)", "Benzene", "1.4"),
        *per_sample(
            80,
            "EPA 8270E Semivolatiles by GC/MS-SIM: Results and Quality Control Summary",
            "Naphthalene",
            "2.2",
        ),
        *per_sample(140, "Method Blank", "Benzene", "<0.50"),  # a QC section: not SB-3's
        (200, [(0, "Client Sample ID: SB-4")]),
        *per_sample(220, "Metals by ICP-MS with LCS/LCSD", "Lead", "31"),
    ]
    reader = TableReader()
    reader.read_page(words_of(rows))
    got = [(r["sample_id"], r["analyte"], r["result"]) for r in reader.finish()]
    assert got == [("SB-3", "Benzene", 1.4), ("SB-3", "Naphthalene", 2.2), ("SB-4", "Lead", 31.0)]


def test_samples_as_columns_under_a_technique_heading():
    header = [(0, "Analyte"), (150, "Units"), (220, "SB-1"), (290, "SB-2"), (360, "SB-1 MS")]
    rows = [
        (0, [(0, "PAHs by GC/MS-SIM (EPA 8270E)")]),
        (16, header),
        (32, [(0, "Naphthalene"), (150, "mg/kg"), (220, "0.12"), (290, "<0.010"), (360, "0.95")]),
        (60, [(0, "LCS/LCSD Recovery")]),  # a QC heading over nothing: the tables after it go on
        (76, [(0, "Pesticides by GC/ECD (8081B)")]),
        (92, header),
        (108, [(0, "Dieldrin"), (150, "mg/kg"), (220, "0.0031"), (290, "<0.0020"), (360, "0.041")]),
    ]
    reader = TableReader()
    reader.read_page(words_of(rows))
    got = {(r["sample_id"], r["analyte"]): (r["result"], r["nondetect"]) for r in reader.finish()}
    assert got == {
        ("SB-1", "Naphthalene"): (0.12, False),
        ("SB-2", "Naphthalene"): (None, True),
        ("SB-1", "Dieldrin"): (0.0031, False),
        ("SB-2", "Dieldrin"): (None, True),
    }


def test_section_rows_naming_a_technique_keep_their_rows():
    header = [(0, "Sample"), (90, "Parameter"), (220, "Result"), (290, "RL"), (360, "Unit")]
    rows = [
        (0, header),
        (16, [(0, "Volatiles by GC/MS")]),
        (32, [(0, "MW-01"), (90, "Benzene"), (220, "3.1"), (290, "1.0"), (360, "ug/L")]),
        (48, [(0, "Surrogate Recovery")]),  # a QC section row: the rows below it are no records
        (
            64,
            [(0, "MW-01"), (90, "Dibromofluoromethane"), (220, "98"), (290, "1.0"), (360, "ug/L")],
        ),
        (80, [(0, "Metals by ICP-MS")]),
        (96, [(0, "MW-01"), (90, "Lead"), (220, "0.004"), (290, "0.001"), (360, "mg/L")]),
    ]
    reader = TableReader()
    reader.read_page(words_of(rows))
    assert [(r["sample_id"], r["analyte"], r["result"]) for r in reader.finish()] == [
        ("MW-01", "Benzene", 3.1),
        ("MW-01", "Lead", 0.004),
    ]


@pytest.mark.parametrize(
    ("heading", "qc"),
    [
        ("EPA 8260D \u2014 Volatile Organic Compounds by GC/MS", False),
        ("SW-846 8270E Semivolatiles (SIM)", False),
        ("Metals by ICP-MS", False),
        ("PFAS by LC-MS/MS", False),
        ("Agilent 7890B/5977", False),
        ("Volatile Organics: Method Blank, LCS/LCSD and Surrogate Recovery", False),
        ("Method Blank", True),
        ("LCS/LCSD", True),
        ("MS/MSD Recovery - Metals", True),
        ("Quality Control Summary", True),
        ("Surrogates", True),
        ("Trip Blank", False),
    ],
)
def test_what_heads_a_qc_section(heading, qc):
    assert is_qc_heading(heading) is qc


def test_a_condition_printed_on_every_page_voids_nothing():
    # "VOID IF ALTERED" under the letterhead of every page is a condition, not a superseded page.
    header = [(0, "Sample"), (80, "Analyte"), (230, "Result"), (290, "RL"), (340, "Units")]
    reader = TableReader()
    for analyte in ("Arsenic", "Lead"):
        reader.read_page(
            words_of(
                [
                    (0, [(0, "VOID IF ALTERED")]),
                    (20, [(0, "Metals by ICP-AES (6010D)")]),
                    (36, header),
                    (
                        50,
                        [(0, "MW-01"), (80, analyte), (230, "0.52"), (290, "0.10"), (340, "mg/L")],
                    ),
                ]
            )
        )
    assert [(r["sample_id"], r["analyte"]) for r in reader.finish()] == [
        ("MW-01", "Arsenic"),
        ("MW-01", "Lead"),
    ]


def test_a_copy_stamped_for_reference_only_on_every_page_keeps_its_results():
    # A stamp printed from the first page on is no heading of superseded pages; pages marked
    # superseded behind the results still are.
    header = [(0, "Sample"), (80, "Analyte"), (230, "Result"), (290, "RL"), (340, "Units")]
    stamp = (0, [(0, "Uncontrolled copy - for reference only")])
    reader = TableReader()
    reader.read_page(words_of([stamp, (20, [(0, "Certificate of Analysis")])]))
    for heading, analyte in (
        ("Metals by ICP-AES (6010D)", "Arsenic"),
        ("Metals by ICP-AES (6010D)", "Lead"),
        ("Original pages - superseded", "Zinc"),
    ):
        row = [(0, "MW-01"), (80, analyte), (230, "0.52"), (290, "0.10"), (340, "mg/L")]
        reader.read_page(words_of([stamp, (20, [(0, heading)]), (36, header), (50, row)]))
    assert [r["analyte"] for r in reader.finish()] == ["Arsenic", "Lead"]
