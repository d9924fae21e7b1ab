"""The PDF text layer (pdfplumber), pages printed sideways, watermarks, and scans through OCR."""

from __future__ import annotations

import pytest
from reference_report_drawing import METADATA, draw_report
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from envirobench_reference_adapter import layout, pdftext


def test_text_layer_words_with_positions_fonts_and_rules(tmp_path):
    pages = pdftext.read_pdf(draw_report(tmp_path / "r.pdf"))
    assert [p.source for p in pages] == ["text-layer"] * 4
    cover = layout.group_lines(pages[0].words)
    assert cover[0].text == METADATA["laboratory"]
    assert cover[0].bold and cover[0].words[0].size == pytest.approx(17, abs=0.1)
    client = next(line for line in cover if line.text.startswith("Client:"))
    assert client.text == "Client: Brightwater Geoscience, LLC"
    assert 230 < client.top < 240  # points from the top of the page
    assert any(rule.horizontal for rule in pages[2].rules)
    assert pdftext.page_count(tmp_path / "r.pdf") == 4


def test_a_page_printed_sideways_is_read_upright(tmp_path):
    page = pdftext.read_pdf(draw_report(tmp_path / "r.pdf", sideways=True), pages=[2])[0]
    assert (page.width, page.height) == (792, 612)
    lines = [line.text for line in layout.group_lines(page.words)]
    assert lines[0] == "Analytical Results"
    assert "Benzene 71-43-2 0.52 J 1.0 ug/L 8260D" in lines


def test_a_diagonal_watermark_is_left_out(tmp_path):
    path = tmp_path / "w.pdf"
    pdf = canvas.Canvas(str(path), pagesize=letter, invariant=1)
    pdf.setFont("Helvetica", 10)
    pdf.drawString(72, 700, "Final results for the Elm Street Service Station project")
    pdf.saveState()
    pdf.translate(306, 396)
    pdf.rotate(40)
    pdf.setFont("Helvetica-Bold", 110)
    pdf.drawCentredString(0, 0, "DRAFT")
    pdf.restoreState()
    pdf.showPage()
    pdf.save()
    words = pdftext.read_pdf(path)[0].words
    assert "DRAFT" not in {w.text for w in words}
    assert words[0].text == "Final"


@pytest.mark.slow
def test_an_image_only_page_is_ocred(tmp_path):
    page = pdftext.read_pdf(draw_report(tmp_path / "r.pdf", scanned_results=True), pages=[2])[0]
    assert page.source == "ocr"
    assert page.dpi == pytest.approx(150, abs=1)
    lines = [line.text for line in layout.group_lines(page.words)]
    assert "Client Sample ID: MW-01" in lines
    assert any(line.startswith("Benzene 71-43-2 0.52") for line in lines)
    # Converted to points: the table starts near x = 50 pt.
    benzene = next(w for w in page.words if w.text == "Benzene")
    assert 45 < benzene.x0 < 56
