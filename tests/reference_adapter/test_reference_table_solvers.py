"""`table-structure`, `table-cells` and `report-metadata` solvers on inputs drawn here."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw, ImageFont
from reference_report_drawing import METADATA, draw_report
from reference_table_drawing import HEADER, ROWS, draw_table

from envirobench import structure
from envirobench_extract.report_metadata import Input as ReportMetadataInput
from envirobench_extract.table_cells import Input as TableCellsInput
from envirobench_extract.table_structure import Input as TableStructureInput
from envirobench_reference_adapter.solvers import report_metadata, table_cells, table_structure


def test_report_metadata_from_the_cover_and_the_sample_summary(tmp_path):
    path = draw_report(tmp_path / "r.pdf")
    case = ReportMetadataInput(document="r.pdf")
    assert report_metadata.solve(case, {"r.pdf": path}, "v1") == METADATA
    baseline = report_metadata.solve(case, {"r.pdf": path}, "baseline")
    assert baseline["sampling_dates"] is None and baseline["client"] == METADATA["client"]


@pytest.mark.parametrize(
    ("text", "iso"),
    [("03/22/2024", "2024-03-22"), ("22-Mar-2024", "2024-03-22"), ("March 22, 2024", "2024-03-22"),
     ("2024-03-22", "2024-03-22"), ("03/22/24", "2024-03-22"), ("no date", None)],
)
def test_dates_become_iso(text, iso):
    assert report_metadata.iso_date(text) == iso


def test_table_structure_of_a_ruled_table(tmp_path):
    table = draw_table("ruled", seed=2)
    table.image.save(tmp_path / "t.png")
    case = TableStructureInput(image="t.png", width=table.image.width, height=table.image.height)
    grid = table_structure.solve(case, {"t.png": tmp_path / "t.png"}, "v1")
    assert (grid["rows"], grid["columns"], grid["header_rows"]) == (len(ROWS) + 1, len(HEADER), 1)
    assert all(c["row_span"] == c["column_span"] == 1 for c in grid["cells"])
    assert len(grid["cells"]) == (len(ROWS) + 1) * len(HEADER)


def test_table_structure_sees_a_section_title_across_the_table(tmp_path):
    font = ImageFont.load_default(size=14)
    image = Image.new("L", (520, 130), 255)
    draw = ImageDraw.Draw(image)
    rows = [("Analyte", "Result", "Units"), None, ("Benzene", "0.52", "mg/kg"), ("Toluene", "1.9", "mg/kg")]
    for r, row in enumerate(rows):
        y = 8 + 28 * r
        if row is None:
            draw.text((10, y), "Volatile Organic Compounds by 8260D", font=font, fill=0)
            continue
        for x, text in zip((10, 230, 380), row, strict=True):
            draw.text((x, y), text, font=font, fill=0)
    image.save(tmp_path / "s.png")
    case = TableStructureInput(image="s.png", width=520, height=130)
    grid = table_structure.solve(case, {"s.png": tmp_path / "s.png"}, "v1")
    assert (grid["rows"], grid["columns"], grid["header_rows"]) == (4, 3, 1)
    assert {"row": 1, "column": 0, "row_span": 1, "column_span": 3} in grid["cells"]
    baseline = table_structure.solve(case, {"s.png": tmp_path / "s.png"}, "baseline")
    assert all(c["column_span"] == 1 for c in baseline["cells"])


def test_table_cells_reads_each_box(tmp_path):
    font = ImageFont.load_default(size=15)
    texts = [["Analyte", "Result", "Qual"], ["Benzene", "0.52", "J"], ["Toluene", "<0.50", ""]]
    widths, height = (150, 90, 60), 32
    image = Image.new("L", (sum(widths) + 1, height * len(texts) + 1), 255)
    draw = ImageDraw.Draw(image)
    cells = []
    for r, row in enumerate(texts):
        x = 0
        for c, text in enumerate(row):
            box = [x, r * height, x + widths[c], (r + 1) * height]
            draw.rectangle([box[0], box[1], box[2], box[3]], outline=0)
            draw.text((x + 8, r * height + 8), text, font=font, fill=0)
            cells.append({"row": r, "column": c, "box": box})
            x += widths[c]
    image.save(tmp_path / "c.png")
    raw = {"image": "c.png", "width": image.width, "height": image.height, "cells": cells}
    case = structure(raw, TableCellsInput)
    got = table_cells.solve(case, {"c.png": tmp_path / "c.png"}, "v1")["cells"]
    assert {(c["row"], c["column"]): c["text"] for c in got} == {
        (r, c): text for r, row in enumerate(texts) for c, text in enumerate(row)
    }
