"""pdfplumber (PyPI `pdfplumber`, on pdfminer.six): `Page.extract_tables()` with its default,
ruling-line settings, and where that finds no table, its documented text-alignment settings
(`vertical_strategy` and `horizontal_strategy` "text") for unruled tables; the page's text from
`Page.extract_text()`. Reads text layers only: an image-only scan gives nothing."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pdfplumber

from .kits import PageReading, table_adapter

TEXT_SETTINGS = {"vertical_strategy": "text", "horizontal_strategy": "text"}


def read_pages(path: Path, pages: Sequence[int]) -> list[PageReading]:
    readings = []
    with pdfplumber.open(path) as pdf:
        for index in pages:
            page = pdf.pages[index]
            tables = page.extract_tables() or page.extract_tables(TEXT_SETTINGS)
            readings.append((tables, page.extract_text() or ""))
    return readings


kit = table_adapter("pdfplumber", f"0.1.0+pdfplumber-{pdfplumber.__version__}", read_pages)
