"""Camelot (PyPI `camelot-py`): `camelot.read_pdf` with flavor "lattice" (ruled tables), and where
that finds no table, flavor "stream" (unruled tables, by text alignment); each table's `df` as
rows. Camelot gives tables only, so the page's text (for the sample label) is pdfminer.six's
(`pdfminer.high_level.extract_text`, which Camelot itself reads PDFs with). Lattice renders the
page with Camelot's pdfium backend (`pypdfium2`); no Ghostscript is needed. Text layers only."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from pathlib import Path

import camelot
from pdfminer.high_level import extract_text

from .kits import PageReading, table_adapter


def read_page(path: Path, index: int) -> PageReading:
    with warnings.catch_warnings():
        # Camelot warns "No tables found" on a page without one: the answer here is no table.
        warnings.simplefilter("ignore")
        number = str(index + 1)
        tables = camelot.read_pdf(str(path), pages=number, flavor="lattice")
        if tables.n == 0:
            tables = camelot.read_pdf(str(path), pages=number, flavor="stream")
    rows = [table.df.astype(str).values.tolist() for table in tables]
    return rows, extract_text(str(path), page_numbers=[index])


def read_pages(path: Path, pages: Sequence[int]) -> list[PageReading]:
    return [read_page(path, index) for index in pages]


kit = table_adapter("camelot", f"0.1.0+camelot-{camelot.__version__}", read_pages)
