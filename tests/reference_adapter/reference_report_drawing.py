"""Small laboratory-report PDFs drawn with reportlab, with what a reader should get from them.

The tests' own documents (independent of the benchmark generators): a cover with labelled
facts, a sample summary, a results table per sample (one with a footnote marker, one continued
on the next page without its header), a samples-as-columns table, a quality-control table that
must not become records, and optionally a page printed sideways or an image-only scan.
"""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont
from reportlab.lib.pagesizes import letter
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

WIDTH, HEIGHT = letter
HEADER = ["Analyte", "CAS No.", "Result", "Qual", "RL", "Units", "Method"]
X = [50, 200, 280, 330, 370, 420, 480]
ALIGN_RIGHT = {2, 4}
MW01 = [
    ["Benzene", "71-43-2", "0.52", "J", "1.0", "ug/L", "8260D"],
    ["Toluene", "108-88-3", "1,250", "", "1.0", "ug/L", "8260D"],
    ["Ethylbenzene", "100-41-4", "1.0", "U", "1.0", "ug/L", "8260D"],
    ["Lead", "7439-92-1", "<0.0050", "", "0.0050", "mg/L", "6010D"],
]
MW02 = [
    ["Benzene", "71-43-2", "ND", "", "1.0", "ug/L", "8260D"],
    ["Xylenes, Total", "1330-20-7", "0.35", "", "1.0", "ug/L", "8260D"],
]
MW02_CONTINUED = [["Arsenic", "7440-38-2", "0.012", "", "0.0050", "mg/L", "6010D"]]


def record(sample, analyte, cas, result, nondetect, unit, qualifier, limit):
    return {
        "sample_id": sample, "analyte": analyte, "cas": cas, "result": result, "nondetect": nondetect,
        "unit": unit, "qualifier": qualifier, "reporting_limit": limit,
    }


EXPECTED = [
    record("MW-01", "Benzene", "71-43-2", 0.52, False, "ug/L", "J", 1.0),
    record("MW-01", "Toluene", "108-88-3", 1250.0, False, "ug/L", None, 1.0),
    record("MW-01", "Ethylbenzene", "100-41-4", None, True, "ug/L", "U", 1.0),
    record("MW-01", "Lead", "7439-92-1", None, True, "mg/L", None, 0.005),
    record("MW-02", "Benzene", "71-43-2", None, True, "ug/L", None, 1.0),
    record("MW-02", "Xylenes, Total", "1330-20-7", 0.35, False, "ug/L", "B", 1.0),
    record("MW-02", "Arsenic", "7440-38-2", 0.012, False, "mg/L", None, 0.005),
]
METADATA = {
    "laboratory": "Quillmere Analytical Laboratories",
    "work_order": "24C0917",
    "client": "Brightwater Geoscience, LLC",
    "project": "Elm Street Service Station",
    "report_date": "2024-03-22",
    "sampling_dates": ["2024-03-11", "2024-03-12"],
    "status": "revised",
}


class Page:
    """Draw on a reportlab canvas with y measured from the top, as the page is read."""

    def __init__(self, pdf: canvas.Canvas, height: float = HEIGHT) -> None:
        self.pdf = pdf
        self.height = height

    def text(self, x: float, y: float, text: str, size: float = 9, bold: bool = False, right: bool = False) -> None:
        self.pdf.setFont("Helvetica-Bold" if bold else "Helvetica", size)
        (self.pdf.drawRightString if right else self.pdf.drawString)(x, self.height - y, text)

    def rule(self, y: float) -> None:
        self.pdf.line(50, self.height - y, 560, self.height - y)


def running_header(page: Page) -> None:
    page.text(50, 40, METADATA["laboratory"], 8, bold=True)
    page.text(560, 40, "Work Order: 24C0917", 8, right=True)


def results_table(page: Page, y: float, sample: str | None, rows, *, header=True, markers=None) -> float:
    if sample is not None:
        page.text(50, y, "Analytical Results", 10, bold=True)
        page.text(50, y + 16, f"Client Sample ID: {sample}", 9)
        page.text(300, y + 16, f"Lab Sample ID: 24C0917-0{sample[-1]}", 9)
        y += 36
    if header:
        for x, title, k in zip(X, HEADER, range(len(X)), strict=True):
            page.text(x + 40 if k in ALIGN_RIGHT else x, y, title, 9, bold=True, right=k in ALIGN_RIGHT)
        page.rule(y + 4)
        y += 16
    for index, row in enumerate(rows):
        for k, (x, cell) in enumerate(zip(X, row, strict=True)):
            page.text(x + 40 if k in ALIGN_RIGHT else x, y, cell, 9, right=k in ALIGN_RIGHT)
        if markers and index in markers:
            page.text(X[2] + 41, y - 3, markers[index], 6)
        y += 14
    return y


def draw_report(path: Path, *, sideways: bool = False, scanned_results: bool = False) -> Path:
    pdf = canvas.Canvas(str(path), pagesize=letter, invariant=1)
    page = Page(pdf)
    # Cover
    page.text(50, 72, METADATA["laboratory"], 17, bold=True)
    page.text(50, 90, "118 Mill Street, Fairhaven, MA 02719", 9)
    page.text(306, 170, "LABORATORY ANALYTICAL REPORT", 15, bold=True)
    page.text(230, 192, "Revised Report – Revision 1", 11)
    for k, (label, value) in enumerate(
        [("Client", METADATA["client"]), ("Attention", "Elena Galloway"), ("Project", METADATA["project"]),
         ("Project No.", "2024-118"), ("Work Order", METADATA["work_order"]), ("Date Received", "03/13/2024"),
         ("Report Date", "03/22/2024")]
    ):
        page.text(60, 240 + 17 * k, f"{label}:", 10, bold=True)
        page.text(200, 240 + 17 * k, value, 10)
    page.text(60, 400, "This report replaces the report issued 03/20/2024.", 9)
    pdf.showPage()
    # Narrative and sample summary
    running_header(page)
    page.text(50, 83, "Case Narrative", 12, bold=True)
    page.text(50, 104, "2 groundwater sample(s) were received on 03/13/2024 in good condition.", 9)
    page.text(50, 140, "Sample Summary", 9, bold=True)
    for x, title in zip((50, 160, 270, 360, 450), ("Client Sample ID", "Lab Sample ID", "Matrix", "Date Collected", "Time"), strict=True):
        page.text(x, 160, title, 8.5, bold=True)
    for k, (sample, date) in enumerate((("MW-01", "03/11/2024"), ("MW-02", "03/12/2024"))):
        for x, value in zip((50, 160, 270, 360, 450), (sample, f"24C0917-0{k + 1}", "Groundwater", date, "10:15"), strict=True):
            page.text(x, 175 + 13 * k, value, 8.5)
    pdf.showPage()
    # Results: MW-01 (a footnote marker), MW-02 continued over a page break without its header
    if scanned_results:
        pdf.drawImage(ImageReader(scan_of_results()), 0, 0, width=WIDTH, height=HEIGHT)
    elif sideways:  # a landscape page printed sideways on the portrait sheet, text running up
        pdf.translate(WIDTH, 0)
        pdf.rotate(90)
        results_table(Page(pdf, height=WIDTH), 90, "MW-01", MW01)
    else:
        running_header(page)
        y = results_table(page, 90, "MW-01", MW01)
        page.text(50, y + 6, "Data qualifiers are defined at the end of the report.", 8)
        results_table(page, y + 40, "MW-02", MW02, markers={1: "a"})
    pdf.showPage()
    running_header(page)
    y = results_table(page, 90, None, MW02_CONTINUED, header=False)
    page.text(50, y + 8, "a   B – Analyte also detected in the associated method blank.", 8)
    page.text(50, y + 60, "Method Blank", 10, bold=True)
    for x, title in zip((50, 150, 300, 380, 440), ("Batch", "Analyte", "Result", "RL", "Units"), strict=True):
        page.text(x, y + 80, title, 9, bold=True)
    for x, value in zip((50, 150, 300, 380, 440), ("B24011", "Benzene", "<1.0", "1.0", "ug/L"), strict=True):
        page.text(x, y + 94, value, 9)
    pdf.showPage()
    pdf.save()
    return path


def scan_of_results() -> Image.Image:
    """The MW-01 table as an image-only page at 150 dpi (Pillow text, no text layer)."""
    scale = 150 / 72
    image = Image.new("L", (round(WIDTH * scale), round(HEIGHT * scale)), 255)
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=round(9 * scale))
    bold = ImageFont.load_default(size=round(10 * scale))

    def text(x, y, value, right=False, face=font):
        left = x - draw.textlength(value, font=face) if right else x
        draw.text((left * scale, (y - 9) * scale), value, font=face, fill=0)

    text(50, 90, "Analytical Results", face=bold)
    text(50, 106, "Client Sample ID: MW-01")
    y = 126
    for k, (x, title) in enumerate(zip(X, HEADER, strict=True)):
        text(x + 40 if k in ALIGN_RIGHT else x, y, title, right=k in ALIGN_RIGHT)
    y += 18
    for row in MW01:
        for k, (x, cell) in enumerate(zip(X, row, strict=True)):
            text(x + 40 if k in ALIGN_RIGHT else x, y, cell, right=k in ALIGN_RIGHT)
        y += 16
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    buffer.seek(0)
    return Image.open(buffer)
