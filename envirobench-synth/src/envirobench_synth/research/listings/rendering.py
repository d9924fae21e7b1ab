"""Rendering a database report as pages (`render_report`), and the line layout (`Line`, `paginate`,
`render_pages`) other listings reuse.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.pdfbase.pdfmetrics import stringWidth

from ...rng import make_random
from ...scans import ScanSettings, sample_scan_settings, scan_document
from .vocabulary import SCAN_DPI, Listing, Report

PAGE = (612.0, 792.0)
MARGIN = 50.0
PDF_CREATOR = "EnviroBench synthetic database report"


@dataclass(frozen=True)
class Line:
    text: str
    size: float = 9.0
    bold: bool = False
    x: float = 0.0  # indent from the margin
    columns: tuple[tuple[float, str], ...] = ()  # (x from margin, text) cells of a table row


def paginate(blocks: Sequence[Sequence[Line]], header: str, footer: str) -> list[list[Line]]:
    """Blocks of lines onto pages; a block never splits across pages (unless it is too long)."""
    usable = PAGE[1] - 2 * MARGIN - 40
    pages: list[list[Line]] = [[]]
    height = 0.0
    for block in blocks:
        need = sum(line.size * 1.45 for line in block)
        if height + need > usable and pages[-1]:
            pages.append([])
            height = 0.0
        pages[-1].extend(block)
        height += need
    return pages


def draw_lines(canvas, lines: Sequence[Line], header: str, footer: str) -> None:
    y = PAGE[1] - MARGIN
    canvas.setFont("Helvetica", 7.5)
    canvas.drawString(MARGIN, y, header)
    canvas.drawRightString(PAGE[0] - MARGIN, MARGIN - 20, footer)
    y -= 24
    for line in lines:
        font = "Helvetica-Bold" if line.bold else "Helvetica"
        canvas.setFont(font, line.size)
        if line.columns:
            for x, text in line.columns:
                canvas.drawString(MARGIN + x, y, text)
        elif line.text:
            canvas.drawString(MARGIN + line.x, y, line.text)
        y -= line.size * 1.45


def render_pages(pages: list[list[Line]], header: str, title: str, seed: int, labels: Sequence[str | int],
                 scanned: Sequence[int] = (), scan_rng: random.Random | None = None) -> bytes:  # fmt: skip
    """A PDF of line pages; pages in `scanned` (0-based) become bitonal scans at SCAN_DPI."""

    def draw(canvas, index: int) -> None:
        draw_lines(canvas, pages[index], header, f"Page {index + 1} of {len(pages)}")

    scans: dict[int, ScanSettings] = {}
    for index in scanned:
        settings = sample_scan_settings(
            scan_rng or random.Random(0), mode="bitonal", skew=(0.2, 1.2), dpi=SCAN_DPI,
            turn_chance=0.0, stamp_chance=0.15, pen_chance=0.1, fax_chance=0.0, jpeg_chance=0.0,
        )  # fmt: skip
        scans[index] = settings
    result = scan_document(
        draw, [PAGE] * len(pages), scans, seed, *labels, title=title, creator=PDF_CREATOR
    )
    return result.pdf


def _fit(text: str, width: float, size: float = 8.0) -> str:
    while text and stringWidth(text, "Helvetica", size) > width:
        text = text[:-1]
    return text


def _distance(listing: Listing, style: str) -> str:
    if listing.distance_mi < 0:
        return "Not mapped" if style == "dev" else "n/a"
    if listing.direction == "TP":
        return "TP / 0.000 mi" if style == "dev" else "Target property"
    feet = round(listing.distance_mi * 5280)
    if style == "dev":
        return f"{listing.direction} {listing.distance_mi:.3f} mi ({feet} ft)"
    return f"{listing.distance_mi:.2f} mi {listing.direction}"


def _address_text(listing: Listing) -> tuple[str, str]:
    street = listing.address_line or "ADDRESS NOT REPORTED"
    city = listing.city_line
    if listing.point:
        city = (city + "  " if city else "") + f"Lat/Long: {listing.point}"
    return street, city


def report_blocks(report: Report) -> list[list[Line]]:
    blocks: list[list[Line]] = []
    s = report.subject
    title = (
        "Regulatory Database Radius Report"
        if report.layout in ("block", "table")
        else "Environmental Records Search"
    )
    blocks.append([
        Line(title, 16, True), Line(""),
        Line(f"Order No. {report.order_number}    Search date: {report.search_date}"), Line(""),
        Line("Subject property" if report.layout in ("block", "table") else "TARGET PROPERTY", 11, True),
        Line(s.name.upper()), Line(s.address.canonical().upper()), Line(""),
        Line("Databases searched", 11, True),
        *[Line(db.title, 8.5, x=10) for db in report.databases], Line(""),
        Line("Listings are ordered by database and by distance from the subject property. Elevation is "
             "relative to the subject property.", 8), Line(""),
    ])  # fmt: skip
    for db in report.databases:
        rows = [item for item in report.listings if item.database.code == db.code]
        head = [Line(db.title, 11, True), Line(f"{len(rows)} record(s) found", 8)]
        if not rows:
            blocks.append([*head, Line("")])
            continue
        if report.layout == "table":
            columns = (0, 28, 185, 330, 430)
            header = Line(
                "",
                7.5,
                True,
                columns=tuple(
                    zip(
                        columns,
                        ("Map", "Site", "Address", "Dist / Dir / Elev", "Record ID"),
                        strict=True,
                    )
                ),
            )
            blocks.append([*head, header])
            for number, item in enumerate(rows, 1):
                street, city = _address_text(item)
                dist = _distance(item, "dev") + (f" {item.elevation}" if item.elevation else "")
                blocks.append([
                    Line("", 7.5, columns=((0, str(number)), (28, _fit(item.name, 150, 7.5)), (185, _fit(street, 140, 7.5)),
                                             (330, _fit(dist, 98, 7.5)), (430, item.record))),
                    Line("", 7.5, columns=((185, _fit(city, 240, 7.5)), (28, item.status))),
                ])  # fmt: skip
            continue
        blocks.append(head)
        for number, item in enumerate(rows, 1):
            street, city = _address_text(item)
            if report.layout == "block":
                blocks.append([
                    Line(f"Map ID {number}    {_distance(item, 'dev')}    {item.elevation + ' elevation' if item.elevation else ''}", 8.5, True),
                    Line(item.name, 9, x=10), Line(street, 9, x=10), Line(city, 9, x=10),
                    Line(f"Database: {db.code}    Record ID: {item.record}    {item.status}", 8, x=10), Line("", 5),
                ])  # fmt: skip
            elif report.layout == "ledger":
                blocks.append([
                    Line(f"Record No.: {item.record}", 8.5, True),
                    Line(f"Facility: {item.name}", 9, x=12), Line(f"Location: {street}", 9, x=12),
                    Line(f"          {city}", 9, x=12) if city else Line("", 2),
                    Line(f"Bearing/Distance: {_distance(item, 'test')}    Relative elevation: {item.elevation or 'n/a'}", 8, x=12),
                    Line(f"List: {db.code}    {item.status}", 8, x=12), Line("", 5),
                ])  # fmt: skip
            else:  # compact
                blocks.append([
                    Line(f"{number:>3}  {item.record}  {item.name}", 8.5),
                    Line(f"{street}{' / ' + city if city else ''}", 8.5, x=30),
                    Line(f"{_distance(item, 'test')}  elev. {(item.elevation or 'n/a').lower()}  {item.status}", 8, x=30),
                    Line("", 4),
                ])  # fmt: skip
    return blocks


def render_report(report: Report, seed: int, *labels: str | int) -> tuple[bytes, tuple[int, ...]]:
    """The report's PDF and its scanned pages (1-based): a scanned report's every page after the
    first is an image without a text layer."""
    blocks = report_blocks(report)
    header = f"Order {report.order_number} - {report.subject.name.upper()}"
    pages = paginate(blocks, header, "")
    scanned = tuple(range(1, len(pages))) if report.scanned else ()
    pdf = render_pages(
        pages, header, "Database report", seed, labels, scanned, make_random(seed, *labels, "scan")
    )
    return pdf, tuple(i + 1 for i in scanned)
