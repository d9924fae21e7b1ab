"""What tests read back from the PDFs a generator wrote: each page's text as PDFium extracts it,
and how many pages a case's documents hold."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium


def page_texts(pdf: bytes | str | Path) -> list[str]:
    """The text layer of every page of `pdf` (its bytes or its path), in order ("" for a page
    that is only an image)."""
    document = pdfium.PdfDocument(str(pdf) if isinstance(pdf, Path) else pdf)
    try:
        return [document[i].get_textpage().get_text_range() for i in range(len(document))]
    finally:
        document.close()


def page_count(root: Path, documents: list[str] | tuple[str, ...]) -> int:
    """How many pages a case's PDFs (paths relative to the dataset directory `root`) hold together."""
    pages = 0
    for path in documents:
        document = pdfium.PdfDocument(str(root / path))
        pages += len(document)
        document.close()
    return pages
