"""The record's paper filed as scans, each page as an archive holds it and recorded.

Every scanned page of a site record, whatever its document (a field form, an old letter, a
laboratory report's paper copy, a recorded instrument), goes through `legal.archive.archive_copy`:
the recorder's or the consultant's scan, a photocopy or a fax of it, handwriting in the margins,
bleed-through, skew up to 1.8 degrees, 1-bit Group 4 pages. What was done to each page
(`legal.archive.PageScan`) is kept on its `Part` and written, by volume file and page, into
every Site answer key's `scan_pages` (`scan_records`): never scored, never shown to a system;
a breakdown by severity reads it.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import io
from collections.abc import Sequence

import pypdfium2 as pdfium

from ..legal.archive import PageScan, archive_copy
from ..locate.sitepages import PAGE_H, PAGE_W
from ..rng import make_random

SITE_DPIS = (120, 150)  # an office scanner's settings (Courier letters lose their strokes at 100 dpi)
CREATOR = "EnviroBench synthetic site record"


def filed_scan(pdf: bytes, pages: int, seed: int, *labels: str | int, sender: str, sent: dt.date,
               signed: bool = False) -> tuple[bytes, tuple[PageScan, ...]]:
    """The first `pages` pages of a clean `pdf` as the record's scan of its paper copy, and what
    was done to each page; `sender` and `sent` head a faxed copy. A landscape sheet among them
    (a laboratory's wide results table) goes through the feeder as the others do, upright on a
    portrait page: its scan shows it turned a quarter, recorded as the artefact `turned`."""
    pdf, turned = _fed_upright(pdf, pages)
    clock = make_random(seed, *labels, "sent").randint(8 * 60, 17 * 60)
    copy, scans = archive_copy(pdf, pages, (PAGE_W, PAGE_H), "", CREATOR, seed, *labels, dpis=SITE_DPIS, signed=signed,
                               sender=sender, sent=f"{sent.strftime('%b-%d-%Y').upper()} {clock // 60:02d}:{clock % 60:02d}")
    return copy, tuple(dataclasses.replace(s, artefacts=(*s.artefacts, "turned")) if s.page - 1 in turned else s
                       for s in scans)


def _fed_upright(pdf: bytes, pages: int) -> tuple[bytes, set[int]]:
    """`pdf` with its landscape pages among the first `pages` turned to portrait, and their indexes."""
    document = pdfium.PdfDocument(pdf)
    try:
        turned = set()
        for index in range(pages):
            page = document[index]
            width, height = page.get_size()
            if width > height:
                page.set_rotation((page.get_rotation() + 90) % 360)
                turned.add(index)
            page.close()
        if not turned:
            return pdf, turned
        buffer = io.BytesIO()
        document.save(buffer)
        return buffer.getvalue(), turned
    finally:
        document.close()


def scan_records(pages: Sequence[tuple[str, int, PageScan]]) -> list[dict[str, object]]:
    """The answer keys' `scan_pages`: (volume file, page in the volume, its scan) as JSON."""
    return [{"file": file, "page": page, **{k: v for k, v in scan.to_json().items() if k != "page"}}
            for file, page, scan in pages]
