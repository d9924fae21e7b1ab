"""PyMuPDF (PyPI `pymupdf`): `Page.find_tables()` with its default ("lines") strategy, and where
that finds no table, its "text" strategy for unruled tables; each table's `extract()`, and the
page's text from `Page.get_text()`. Reads text layers only: an image-only scan gives nothing."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pymupdf

from .kits import PageReading, table_adapter


def read_pages(path: Path, pages: Sequence[int]) -> list[PageReading]:
    readings = []
    with pymupdf.open(path) as document:
        for index in pages:
            page = document[index]
            found = page.find_tables().tables or page.find_tables(strategy="text").tables
            readings.append(([table.extract() for table in found], page.get_text()))
    return readings


kit = table_adapter("pymupdf", f"0.1.0+pymupdf-{pymupdf.VersionBind}", read_pages)
