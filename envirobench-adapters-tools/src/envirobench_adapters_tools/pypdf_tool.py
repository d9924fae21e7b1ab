"""pypdf (PyPI `pypdf`, pure Python): a text reader, no table finder. Each page's text in its
layout mode (`extract_text(extraction_mode="layout")`, which keeps the columns' horizontal
spacing); a table is then its lines, each split into cells at runs of two or more spaces (what
a reader of plain text would do: a single space stays inside a cell). The page's text (for the
sample label) is the same text. Reads text layers only: an image-only scan gives nothing."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import pypdf

from .kits import PageReading, table_adapter

CELL_GAP = re.compile(r"\s{2,}")


def read_pages(path: Path, pages: Sequence[int]) -> list[PageReading]:
    reader = pypdf.PdfReader(path)
    readings = []
    for index in pages:
        text = reader.pages[index].extract_text(extraction_mode="layout") or ""
        rows = [CELL_GAP.split(line.strip()) for line in text.splitlines() if line.strip()]
        readings.append(([rows], text))
    return readings


kit = table_adapter("pypdf", f"0.1.0+pypdf-{pypdf.__version__}", read_pages)
