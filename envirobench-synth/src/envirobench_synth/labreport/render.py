"""`render_pdf(report, seed, *labels)`: a lab report's PDF with its ground truth.

The truth returned with the bytes: every measurement record (`model.TruthRecord`) with the page
it is printed on, and every results-table part with its page and bounding box, in PDF points
(on the sheet as displayed, origin top-left) and in pixels at CROP_DPI, so a generator can cut
table crops from `page_image(n)`. On a scanned page the box is mapped through the scan's skew.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass, field

from PIL import Image

from ..degrade import ScannedPage, office_scan
from ..pdfpages import rasterize
from .compose import draft_report
from .draft import BBox, PageDraft
from .model import LabReport, TruthRecord, truth_record
from .pdf import emit_pdf, physical_size, to_physical

SCAN_DPI = 150  # scanned pages are rendered, degraded and embedded at this resolution
CROP_DPI = 150  # table boxes in pixels, and page images for crops, at this resolution
MAX_SCAN_SKEW = 0.8  # degrees


@dataclass(frozen=True)
class PageInfo:
    number: int  # 1-based
    kind: str  # cover, narrative, results, qc
    width: float  # the sheet in points
    height: float
    rotated: bool  # printed sideways
    scanned: bool  # image only


@dataclass(frozen=True)
class TableRegion:
    """One part of a results table on one page."""

    page: int  # 1-based
    table: int  # the table's index in the report (a continued table has several parts)
    part: int
    bbox_pt: BBox  # (left, top, right, bottom) on the sheet as displayed, points
    bbox_px: tuple[int, int, int, int]  # the same at CROP_DPI, pixels (right and bottom exclusive)
    records: tuple[int, ...]  # indices into RenderedReport.records
    header: bool  # this part shows the column headers
    caption: bool  # this part shows the sample block
    rotated: bool  # the page is printed sideways
    scanned: bool  # the page is an image-only scan


@dataclass(frozen=True, eq=False)
class RenderedReport:
    pdf: bytes
    report: LabReport
    pages: tuple[PageInfo, ...]
    tables: tuple[TableRegion, ...]
    records: tuple[TruthRecord, ...]  # one per measurement, in report order
    record_pages: tuple[int, ...]  # the page each record is printed on
    drafts: tuple[PageDraft, ...] = field(repr=False)
    scans: dict[int, ScannedPage] = field(repr=False)
    _images: dict[tuple[int, float], Image.Image] = field(default_factory=dict, repr=False)

    def page_image(self, number: int, dpi: float = CROP_DPI) -> Image.Image:
        """Page `number` (1-based) rendered from the PDF, grayscale (kept for the next call)."""
        key = (number, dpi)
        if key not in self._images:
            self._images[key] = rasterize(self.pdf, number - 1, dpi)
        return self._images[key]

    def page_pdf(self, number: int) -> bytes:
        """A one-page PDF holding page `number` exactly as the report prints it."""
        index = number - 1
        scans = {0: self.scans[index].image} if index in self.scans else {}
        return emit_pdf([self.drafts[index]], scans)

    def crop(self, region: TableRegion, margin: int = 10) -> Image.Image:
        """The table part cut from its page image at CROP_DPI, with `margin` pixels of paper."""
        image = self.page_image(region.page)
        left, top, right, bottom = region.bbox_px
        box = (
            max(0, left - margin),
            max(0, top - margin),
            min(image.width, right + margin),
            min(image.height, bottom + margin),
        )
        return image.crop(box)


def render_pdf(
    report: LabReport,
    seed: int,
    *labels: str | int,
    scan_kinds: Collection[str] = (),
    scan: bool = True,
) -> RenderedReport:
    """Render `report`; scan noise and skew are drawn from (seed, *labels).

    The scanned layout scans its results pages; `scan_kinds` scans every page of those kinds
    too ("cover", "narrative", "results", "qc"), e.g. a report whose first pages are scans.
    `scan=False` is a quick preview: pages due to be scanned stay text (and their boxes
    unskewed); pages, tables and records are otherwise what the full rendering gives.
    """
    drafts = draft_report(report)
    for page in drafts:
        page.scanned = page.scanned or page.kind in scan_kinds
    scans: dict[int, ScannedPage] = {}
    for index, page in enumerate(drafts):
        if page.scanned and scan:
            clean = rasterize(emit_pdf([page]), 0, SCAN_DPI)
            scans[index], _ = office_scan(
                clean, seed, *labels, "scan", index, max_angle=MAX_SCAN_SKEW
            )
    pdf = emit_pdf(drafts, {i: s.image for i, s in scans.items()})

    records = tuple(truth_record(report, m) for m in report.measurements)
    record_pages = [0] * len(records)
    tables = []
    pages = []
    for index, page in enumerate(drafts):
        number = index + 1
        width, height = physical_size(page)
        pages.append(PageInfo(number, page.kind, width, height, page.rotated, page.scanned))
        for part in page.parts:
            bbox = _sheet_box(page, part.bbox, scans.get(index))
            tables.append(
                TableRegion(
                    page=number,
                    table=part.table,
                    part=part.part,
                    bbox_pt=bbox,
                    bbox_px=_pixels(bbox, CROP_DPI),
                    records=part.records,
                    header=part.header,
                    caption=part.caption,
                    rotated=page.rotated,
                    scanned=page.scanned,
                )
            )
            for record in part.records:
                record_pages[record] = number
    if 0 in record_pages:
        raise ValueError("a measurement was drafted on no page")
    return RenderedReport(
        pdf, report, tuple(pages), tuple(tables), records, tuple(record_pages), tuple(drafts), scans
    )


def _sheet_box(page: PageDraft, bbox: BBox, scan: ScannedPage | None) -> BBox:
    left, top, right, bottom = bbox
    corners = [
        to_physical(page, x, y)
        for x, y in ((left, top), (right, top), (left, bottom), (right, bottom))
    ]
    if scan is not None:
        # Through the skew, in pixels of the scan, and back to points.
        k = SCAN_DPI / 72
        corners = [(u / k, v / k) for u, v in (scan.forward(x * k, y * k) for x, y in corners)]
    xs = [x for x, _ in corners]
    ys = [y for _, y in corners]
    return (round(min(xs), 2), round(min(ys), 2), round(max(xs), 2), round(max(ys), 2))


def _pixels(bbox: BBox, dpi: float) -> tuple[int, int, int, int]:
    k = dpi / 72
    left, top, right, bottom = bbox
    return (math.floor(left * k), math.floor(top * k), math.ceil(right * k), math.ceil(bottom * k))
