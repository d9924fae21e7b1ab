"""Drawing a front-matter report: `render_pages` lays out its cover or letter or band, its results
pages and its closing page on a canvas, page by page.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from ...rng import make_random
from ...vocabulary import (
    ANALYTE_SYNONYMS,
    NOT_RESULT_TERMS,
    choose,
)
from .facts import MetadataReport, SampleEntry
from .families import DAY_FIRST, FONTS, PAGE


@dataclass
class Sheet:
    """One page as a display list (points, origin top-left): replayed on any reportlab canvas,
    so the same page can be drawn for rasterising and again for the final PDF."""

    regular: str
    bold: str
    ops: list[tuple] = field(default_factory=list)
    bottom: float = 0.0  # the lowest point drawn so far (top-left origin), footer excluded

    def text(
        self,
        x: float,
        y: float,
        text: str,
        *,
        size: float = 9.0,
        bold: bool = False,
        align: str = "left",
        grey: float = 0.0,
        footer: bool = False,
    ) -> float:
        """Draw `text` with its baseline at y; returns its width."""
        font = self.bold if bold else self.regular
        self.ops.append(("text", x, y, text, font, size, align, grey))
        if not footer:
            self.bottom = max(self.bottom, y + 3)
        return stringWidth(text, font, size)

    def width(self, text: str, size: float = 9.0, bold: bool = False) -> float:
        return stringWidth(text, self.bold if bold else self.regular, size)

    def line(self, x0: float, y0: float, x1: float, y1: float, width: float = 0.6) -> None:
        self.ops.append(("line", x0, y0, x1, y1, width))
        self.bottom = max(self.bottom, y0, y1)

    def box(self, x: float, y: float, w: float, h: float, *, fill: float | None = None) -> None:
        self.ops.append(("box", x, y, w, h, fill))
        self.bottom = max(self.bottom, y + h)

    def watermark(self, text: str) -> None:
        self.ops.append(("watermark", text))

    def draw(self, canvas: Canvas) -> None:
        height = PAGE[1]
        for op in self.ops:
            kind = op[0]
            if kind == "text":
                _, x, y, text, font, size, align, grey = op
                canvas.setFont(font, size)
                canvas.setFillGray(grey)
                {
                    "left": canvas.drawString,
                    "right": canvas.drawRightString,
                    "center": canvas.drawCentredString,
                }[align](x, height - y, text)
            elif kind == "line":
                _, x0, y0, x1, y1, width = op
                canvas.setLineWidth(width)
                canvas.setStrokeGray(0)
                canvas.line(x0, height - y0, x1, height - y1)
            elif kind == "box":
                _, x, y, w, h, fill = op
                canvas.setLineWidth(0.6)
                canvas.setStrokeGray(0)
                if fill is not None:
                    canvas.setFillGray(fill)
                canvas.rect(x, height - y - h, w, h, stroke=1, fill=0 if fill is None else 1)
                canvas.setFillGray(0)
            else:
                _, text = op
                canvas.saveState()
                canvas.setFont(self.bold, 96)
                canvas.setFillGray(0.85)
                canvas.translate(PAGE[0] / 2, height / 2)
                canvas.rotate(40)
                canvas.drawCentredString(0, -30, text)
                canvas.restoreState()

    def free_region(self) -> tuple[float, float, float, float] | None:
        """Room below everything drawn (footer excluded), for a stamp or a pen mark."""
        top = self.bottom + 12
        if PAGE[1] - 60 - top < 70:
            return None
        return (300.0, top, PAGE[0] - 40, PAGE[1] - 60)


@dataclass(frozen=True)
class RenderedPages:
    """The pages of a PDF (the first report's, then any stapled behind) and where each report
    begins; `front` lists the indexes of the first report's front-matter pages."""

    sheets: tuple[Sheet, ...]
    starts: tuple[int, ...]
    front: tuple[int, ...]

    def draw_page(self, canvas: Canvas, index: int) -> None:
        self.sheets[index].draw(canvas)


def _sheet(report: MetadataReport) -> Sheet:
    regular, bold = FONTS[report.family.font]
    return Sheet(regular, bold)


def _status_text(report: MetadataReport) -> str | None:
    """How the report names its status where it does (None: it never says)."""
    f = report.facts
    if "unmarked-final" in report.traps:
        return None
    if f.status == "revised":
        return f"Revision {f.revision}" if report.status_word == "Revision" else report.status_word
    return report.status_word


def _on_cover(report: MetadataReport) -> bool:
    """Whether the status is printed on the front matter (not only in the footer)."""
    return _status_text(report) is not None and "status-footer" not in report.traps


def _footer(sheet: Sheet, report: MetadataReport, page: int, pages: int) -> None:
    f, w = report.facts, report.words
    parts = [f"Page {page} of {pages}"]
    status = _status_text(report)
    if status is not None and (
        "status-footer" in report.traps or report.family.name in ("summary-cover", "header-band")
    ):
        parts.insert(
            0, f"{w['status']}: {status}" if report.family.name != "certificate" else status
        )
    if "other-dates" in report.traps:
        parts.append(f"{w['printed']}: {report.date(f.printed)}")
    if "address-confusion" in report.traps and report.family.name in ("certificate", "header-band"):
        parts.insert(0, f"{f.laboratory} - {f.lab_address[0]}, {f.lab_address[1]} - {f.lab_phone}")
    sheet.text(
        PAGE[0] / 2, PAGE[1] - 30, "   |   ".join(parts), size=7, align="center", footer=True
    )


def _project(report: MetadataReport) -> str:
    f = report.facts
    if "project-number" in report.traps and report.family.name in ("certificate", "header-band"):
        return f"{f.project_number} / {f.project}"
    return f.project


def _facts_pairs(report: MetadataReport) -> list[tuple[str, str]]:
    f, w = report.facts, report.words
    pairs = [(w["client"], f.client)]
    if "project-number" in report.traps:
        pairs.append((w["project_number"], f.project_number))
    pairs.append((w["project"], _project(report)))
    pairs.append((w["work_order"], f.work_order))
    if "ids" in report.traps:
        pairs.append((w["po_number"], f.po_number))
        if "project-number" not in report.traps:
            pairs.append((w["project_number"], f.project_number))
    pairs.append((w["received_date"], report.date(f.received)))
    pairs.append((w["report_date"], report.date(f.report_date)))
    if "other-dates" in report.traps:
        pairs.append((w["analysed"], report.date(max(s.analysed for s in f.samples))))
    if f.status == "revised" and "supersedes" in report.traps:
        pairs.append((w["supersedes"], f"{f.supersedes} ({report.date(f.superseded_date)})"))
    if _on_cover(report):
        pairs.append((w["status"], _status_text(report)))
    if report.date_format == DAY_FIRST:
        pairs.append(("Date format", "DD.MM.YYYY"))
    return pairs


def _kv(
    sheet: Sheet,
    x: float,
    y: float,
    pairs: Sequence[tuple[str, str]],
    label_w: float,
    size: float = 9.5,
) -> float:
    for label, value in pairs:
        sheet.text(x, y, f"{label}:", size=size, bold=True)
        sheet.text(x + label_w, y, value, size=size)
        y += size + 5
    return y


def _letterhead(
    sheet: Sheet, report: MetadataReport, y: float, *, align: str = "left", size: float = 16
) -> float:
    f = report.facts
    x = {"left": 50.0, "center": PAGE[0] / 2, "right": PAGE[0] - 50}[align]
    sheet.text(x, y, f.laboratory, size=size, bold=True, align=align)
    sheet.text(
        x, y + size * 0.9 + 2, f"{f.lab_address[0]}, {f.lab_address[1]}", size=8, align=align
    )
    sheet.text(x, y + size * 0.9 + 12, f"Tel. {f.lab_phone}", size=8, align=align)
    return y + size * 0.9 + 22


def _client_block(sheet: Sheet, report: MetadataReport, x: float, y: float, *, big: bool) -> float:
    f, w = report.facts, report.words
    size = 13 if big else 9.5
    sheet.text(x, y, f"{w['client']}:", size=8, bold=True)
    y += size + 3
    sheet.text(x, y, f.client, size=size, bold=big)
    y += size * 0.9 + 3
    for line in (f"Attn: {f.contact}", *f.client_address):
        sheet.text(x, y, line, size=9)
        y += 11
    return y


def _samples_table(
    sheet: Sheet, report: MetadataReport, y: float, *, received: bool = True
) -> float:
    f, w = report.facts, report.words
    cols = [w["column:sample_id"], w["column:lab_id"], w["matrix"], w["collected"]]
    xs = [50, 170, 290, 370]
    if received:
        cols.append(w["received_date"])
        xs.append(480)
    for x, title in zip(xs, cols, strict=True):
        sheet.text(x, y, title, size=8.5, bold=True)
    sheet.line(50, y + 4, PAGE[0] - 50, y + 4)
    y += 16
    for s in f.samples:
        cells = [s.sample_id, s.lab_id, s.matrix, f"{report.table_date(s.collected)} {s.time}"]
        if received:
            cells.append(report.table_date(f.received))
        for x, cell in zip(xs, cells, strict=True):
            sheet.text(x, y, cell, size=8.5)
        y += 12
    return y + 6


def _signature(sheet: Sheet, report: MetadataReport, y: float) -> float:
    f, w = report.facts, report.words
    sheet.line(50, y + 18, 250, y + 18)
    sheet.text(50, y + 30, f"{w['approver']}: {f.approver}, {f.approver_title}", size=9)
    sheet.text(50, y + 42, f"Date: {report.date(f.report_date)}", size=9)
    return y + 50


def _results_page(
    sheet: Sheet,
    report: MetadataReport,
    samples: Sequence[SampleEntry],
    y: float,
    rng: random.Random,
) -> None:
    w = report.words
    split = report.family.split
    cas_pool = list(ANALYTE_SYNONYMS)
    titles = [
        w["column:analyte"],
        w["column:result"],
        w["column:reporting_limit"],
        w["column:unit"],
        w["column:qualifier"],
    ]
    xs = [50, 220, 300, 360, 420]
    if "other-dates" in report.traps:
        titles.append(w["analysed"])
        xs.append(465)
    for s in samples:
        sheet.text(
            50,
            y,
            f"{w['column:sample_id']}: {s.sample_id}    {w['column:lab_id']}: {s.lab_id}    "
            f"{w['collected']}: {report.table_date(s.collected)} {s.time}",
            size=8.5,
            bold=True,
        )
        y += 14
        for x, title in zip(xs, titles, strict=True):
            sheet.text(x, y, title, size=8, bold=True)
        sheet.line(50, y + 3, PAGE[0] - 50, y + 3)
        y += 13
        for cas in rng.sample(cas_pool, rng.randint(3, 6)):
            name = choose(rng, ANALYTE_SYNONYMS[cas], split)
            limit = rng.choice(("0.50", "1.0", "2.0", "5.0", "0.20"))
            roll = rng.random()
            if roll < 0.5:
                result, qual = (
                    f"<{limit}" if rng.random() < 0.5 else limit,
                    "U" if rng.random() < 0.5 else "",
                )
            elif roll < 0.6:
                result, qual = choose(rng, NOT_RESULT_TERMS, split), ""
            else:
                result, qual = f"{rng.uniform(0.3, 250):.2f}", rng.choice(("", "", "J", "B"))
            cells = [name, result, limit, s.unit, qual]
            if "other-dates" in report.traps:
                cells.append(report.table_date(s.analysed))
            for x, cell in zip(xs, cells, strict=True):
                sheet.text(x, y, cell, size=8)
            y += 11
        y += 12


def _running_header(sheet: Sheet, report: MetadataReport) -> float:
    f, w = report.facts, report.words
    sheet.text(50, 40, f.laboratory, size=9, bold=True)
    sheet.text(PAGE[0] - 50, 40, f"{w['work_order']}: {f.work_order}", size=9, align="right")
    sheet.text(PAGE[0] - 50, 51, f"{w['client']}: {f.client}", size=8, align="right")
    sheet.line(50, 56, PAGE[0] - 50, 56)
    return 80


def _band(sheet: Sheet, report: MetadataReport) -> float:
    """The header-band family's box of facts at the top of every page."""
    f, w = report.facts, report.words
    cells = [
        (w["client"], f.client),
        (w["project"], _project(report)),
        (w["work_order"], f.work_order),
        (w["report_date"], report.date(f.report_date)),
        (w["received_date"], report.date(f.received)),
    ]
    if "ids" in report.traps:
        cells.append((w["po_number"], f.po_number))
    if _on_cover(report):
        cells.append((w["status"], _status_text(report)))
    if "address-confusion" not in report.traps:
        sheet.text(50, 34, f.laboratory, size=10, bold=True)
    cols = 3
    width = (PAGE[0] - 100) / cols
    for i, (label, value) in enumerate(cells):
        x = 50 + (i % cols) * width
        y = 42 + (i // cols) * 26
        sheet.box(x, y, width, 26)
        sheet.text(x + 4, y + 9, label, size=6.5, bold=True)
        # A long value is printed smaller rather than cut: the band prints it whole.
        size = min(8.5, 8.5 * (width - 8) / sheet.width(value, 8.5))
        sheet.text(x + 4, y + 21, value, size=size)
    return 42 + 26 * ((len(cells) + cols - 1) // cols) + 22


def _front_pages(report: MetadataReport, rng: random.Random) -> list[Sheet]:
    """The front matter of one report, by family."""
    f, w, name = report.facts, report.words, report.family.name
    sheets: list[Sheet] = []
    sheet = _sheet(report)
    if name == "letterhead-cover":
        if "address-confusion" in report.traps:
            y = _client_block(sheet, report, 50, 50, big=True)
            _letterhead(sheet, report, 50, align="right", size=10)
            y += 20
        else:
            y = _letterhead(sheet, report, 50) + 20
        title = "ANALYTICAL REPORT"
        if _on_cover(report) and f.status != "final":
            title = f"{_status_text(report).upper()} {title}"
        sheet.text(PAGE[0] / 2, y, title, size=15, bold=True, align="center")
        y += 30
        pairs = _facts_pairs(report)
        if "address-confusion" not in report.traps:
            pairs.insert(1, ("Attn", f.contact))
        y = _kv(sheet, 60, y, pairs, 150)
        y = _signature(sheet, report, y + 20)
        sheets.append(sheet)
    elif name == "transmittal-letter":
        y = _letterhead(sheet, report, 50, align="center", size=15) + 25
        sheet.text(50, y, report.date(f.report_date), size=10.5)
        y += 28
        for line in (f.contact, f.client, *f.client_address):
            sheet.text(50, y, line, size=10.5)
            y += 13
        y += 12
        re_line = f"RE: {w['project']}: {_project(report)}; {w['work_order']} {f.work_order}"
        sheet.text(50, y, re_line, size=10.5, bold=True)
        y += 14
        if "ids" in report.traps:
            sheet.text(
                72,
                y,
                f"{w['project_number']}: {f.project_number}    {w['po_number']}: {f.po_number}",
                size=10.5,
            )
            y += 14
        y += 10
        body = [
            f"Dear {f.contact.split()[0]}:",
            "",
            f"Enclosed are the results of analyses for {len(f.samples)} sample(s) received by the",
            f"laboratory on {report.date(f.received)}. The samples were analyzed according to the",
            "methods listed, and the results relate only to the samples as received.",
        ]
        status = _status_text(report)
        if _on_cover(report) and f.status == "draft":
            body += [
                "",
                f"This is a {status.lower()} report: results are subject to change and may not be",
                "used for regulatory purposes.",
            ]
        elif _on_cover(report) and f.status == "revised":
            body += [
                "",
                f"This report is {status.lower()}"
                + (
                    f" and supersedes our report {f.supersedes} of"
                    if "supersedes" in report.traps
                    else "."
                ),
            ]
            if "supersedes" in report.traps:
                body.append(f"{report.date(f.superseded_date)}, which should be discarded.")
        elif _on_cover(report):
            body += ["", f"Report status: {status}."]
        body += ["", "Please contact us with any questions.", "", "Sincerely,"]
        for line in body:
            sheet.text(50, y, line, size=10.5)
            y += 13
        sheet.line(50, y + 22, 230, y + 22)
        sheet.text(50, y + 34, f"{f.approver}, {f.approver_title}", size=10.5)
        sheet.text(50, y + 47, f.laboratory, size=10.5)
        sheets.append(sheet)
        second = _sheet(report)
        second.text(50, 50, f.laboratory, size=10, bold=True)
        second.text(PAGE[0] - 50, 50, f"{w['work_order']} {f.work_order}", size=10, align="right")
        second.text(
            PAGE[0] - 50,
            62,
            f"{w['report_date']}: {report.date(f.report_date)}",
            size=9,
            align="right",
        )
        second.text(PAGE[0] / 2, 88, "SAMPLE SUMMARY", size=13, bold=True, align="center")
        _samples_table(second, report, 116)
        sheets.append(second)
    elif name == "summary-cover":
        if "address-confusion" in report.traps:
            y = _client_block(sheet, report, 50, 46, big=True)
            sheet.text(PAGE[0] - 50, 46, f.laboratory, size=9, bold=True, align="right")
            sheet.text(PAGE[0] - 50, 57, f.lab_address[1], size=8, align="right")
        else:
            y = _letterhead(sheet, report, 46, size=13)
        y += 10
        sheet.line(50, y, PAGE[0] - 50, y)
        y += 18
        pairs = _facts_pairs(report)
        half = (len(pairs) + 1) // 2
        left = _kv(sheet, 50, y, pairs[:half], 105, size=8.5)
        right = _kv(sheet, 320, y, pairs[half:], 105, size=8.5)
        _samples_table(sheet, report, max(left, right) + 20)
        sheets.append(sheet)
    elif name == "certificate":
        y = _client_block(sheet, report, 50, 50, big=True)
        sheet.box(330, 44, 232, 30, fill=0.9)
        sheet.text(446, 64, "CERTIFICATE OF ANALYSIS", size=12, bold=True, align="center")
        y = max(y, 90) + 16
        cells = [(label, value) for label, value in _facts_pairs(report) if label != w["client"]]
        width = (PAGE[0] - 100) / 2
        for i, (label, value) in enumerate(cells):
            x = 50 + (i % 2) * width
            yy = y + (i // 2) * 30
            sheet.box(x, yy, width, 30)
            sheet.text(x + 5, yy + 10, label, size=7, bold=True)
            sheet.text(x + 5, yy + 24, value, size=10)
        y += 30 * ((len(cells) + 1) // 2) + 26
        y = _samples_table(sheet, report, y, received=False)
        if "address-confusion" not in report.traps:
            sheet.text(
                50, y + 10, f"{f.laboratory}, {f.lab_address[0]}, {f.lab_address[1]}", size=8
            )
        sheets.append(sheet)
    elif name == "case-narrative":
        sheet.text(50, 50, f.laboratory, size=11, bold=True)
        sheet.text(PAGE[0] - 50, 50, f"{w['work_order']}: {f.work_order}", size=10, align="right")
        title = "CASE NARRATIVE"
        if _on_cover(report) and f.status != "final":
            title += f" - {_status_text(report).upper()}"
        sheet.text(PAGE[0] / 2, 90, title, size=12, bold=True, align="center")
        dates = f.sampling_dates()
        if len(dates) == 1:
            when = f"on {report.date(dates[0])}"
        else:
            when = f"between {report.date(dates[0])} and {report.date(dates[-1])}"
        paragraphs = [
            f"{w['client']}: {f.client}",
            f"{w['project']}: {_project(report)}"
            + (
                f"   {w['project_number']}: {f.project_number}"
                if "project-number" in report.traps or "ids" in report.traps
                else ""
            ),
            f"{w['report_date']}: {report.date(f.report_date)}",
            "",
            f"{len(f.samples)} {f.samples[0].matrix.lower()} sample(s) collected {when} by "
            f"{f.sampler} were received by {f.laboratory} on {report.date(f.received)} under "
            f"{w['work_order'].lower()} {f.work_order}. The samples arrived intact, on ice, with "
            "custody seals in place.",
            "",
        ]
        if len(dates) > 2:
            paragraphs.append(
                "Samples were collected on "
                + ", ".join(report.date(d) for d in dates[:-1])
                + f" and {report.date(dates[-1])}."
            )
            paragraphs.append("")
        if "ids" in report.traps:
            paragraphs += [
                f"{w['po_number']}: {f.po_number}. Laboratory sample IDs {f.samples[0].lab_id} "
                f"through {f.samples[-1].lab_id} were assigned at login.",
                "",
            ]
        if "other-dates" in report.traps:
            last = max(s.analysed for s in f.samples)
            paragraphs += [
                f"All analyses were completed by {report.date(last)}; holding times were met.",
                "",
            ]
        status = _status_text(report)
        if _on_cover(report):
            if f.status == "draft":
                paragraphs += [
                    f"{w['status']}: {status}. These results have not completed review.",
                    "",
                ]
            elif f.status == "revised":
                line = f"{w['status']}: {status}."
                if "supersedes" in report.traps:
                    line += (
                        f" This report replaces {f.supersedes}, issued "
                        f"{report.date(f.superseded_date)}."
                    )
                paragraphs += [line, ""]
            else:
                paragraphs += [f"{w['status']}: {status}.", ""]
        paragraphs.append("No other problems were encountered with the analyses.")
        y = 120
        for paragraph in paragraphs:
            # Typed prose wraps at the margin (a blank paragraph is a blank line).
            for line in simpleSplit(paragraph, sheet.bold, 9.5, PAGE[0] - 100) or [""]:
                sheet.text(50, y, line, size=9.5, bold=True)
                y += 13
        sheets.append(sheet)
    # header-band: no front page of its own; the band on every page is its front matter
    return sheets


def _closing_page(report: MetadataReport, rng: random.Random) -> Sheet | None:
    f, w, name = report.facts, report.words, report.family.name
    sheet = _sheet(report)
    if name in ("summary-cover", "header-band", "case-narrative"):
        y = _band(sheet, report) if name == "header-band" else _running_header(sheet, report)
        sheet.text(50, y, "APPROVAL", size=12, bold=True)
        y += 20
        lines = [
            "The results in this report relate only to the samples tested and apply to the",
            "samples as received. This report shall not be reproduced except in full.",
        ]
        for line in lines:
            sheet.text(50, y, line, size=9)
            y += 12
        _signature(sheet, report, y + 10)
        return sheet
    if rng.random() < 0.5:
        y = _running_header(sheet, report)
        sheet.text(50, y, "SAMPLE RECEIPT", size=12, bold=True)
        y += 22
        dates = f.sampling_dates()
        rows = [
            (
                w["received_date"],
                f"{report.date(f.received)} {rng.randint(8, 16):02d}:{rng.choice((5, 20, 35, 50)):02d}",
            ),
            ("Cooler temperature", f"{rng.randint(10, 58) / 10:.1f} C"),
            ("Custody seals", "intact"),
            (w["sampler"], f.sampler),
            ("Relinquished", report.table_date(dates[-1])),
        ]
        _kv(sheet, 60, y, rows, 150)
        return sheet
    return None


def render_pages(report: MetadataReport, seed: int, *labels: str | int) -> RenderedPages:
    """Every page of the PDF: the first report, then any stapled behind it."""
    sheets: list[Sheet] = []
    starts: list[int] = []
    front: tuple[int, ...] = ()
    for number, part in enumerate((report, *report.stapled)):
        rng = make_random(seed, "frontmatter-pages", *labels, number)
        start = len(sheets)
        starts.append(start)
        pages = _front_pages(part, rng)
        if number == 0:
            front = tuple(range(len(pages))) or (0,)
        # Every sample is printed with its collection date (three to a page).
        samples = list(part.facts.samples)
        chunks = [samples[i : i + 3] for i in range(0, len(samples), 3)]
        for chunk in chunks:
            sheet = _sheet(part)
            if part.family.name == "header-band":
                y = _band(sheet, part)
            else:
                y = _running_header(sheet, part)
            _results_page(sheet, part, chunk, y + 6, rng)
            pages.append(sheet)
        closing = _closing_page(part, rng)
        if closing is not None:
            pages.append(closing)
        watermark = (
            part.facts.status == "draft"
            and "draft-no-watermark" not in part.traps
            and "status-footer" not in part.traps
        )
        for index, sheet in enumerate(pages):
            _footer(sheet, part, index + 1, len(pages))
            if watermark:
                sheet.watermark(part.status_word.upper())
        sheets.extend(pages)
    return RenderedPages(tuple(sheets), tuple(starts), front)


def sampled_dates_of(report: MetadataReport) -> tuple[str, ...]:
    return tuple(d.isoformat() for d in report.facts.sampling_dates())


DrawPage = Callable[[Canvas, int], None]
