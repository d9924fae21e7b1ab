"""The two shapes of adapter in this package, each built on the adapter kit around one tool
function: an OCR tool serves `table-cells` (words of a crop -> `cells.cells_from_words`), a PDF
table tool serves `table-records` and `document-extraction` (tables and text of each page ->
`records.RecordMapper`). The tool modules only say how their tool reads an image or a page.

Every adapter runs one case at a time by default (`max_concurrency` 1): the tools are CPU-bound
and two cores are what the board was made on; `--max-concurrency N` runs more at once.
No tool here costs money or reads the network: a predict function declares no cost, so its worst
case is 0 and any `--budget` (0 included) holds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from PIL import Image

from envirobench_adapter_kit import Adapter

from .cells import Word, cells_from_words
from .records import RecordMapper

# The tables (rows of cell texts) and the text of one page, as a tool reads them.
PageReading = tuple[list[Sequence[Sequence[Any]]], str]
PageReader = Callable[[Path, Sequence[int]], list[PageReading]]  # (pdf, 0-based pages) -> readings
WordReader = Callable[[Image.Image], list[Word]]


def ocr_adapter(name: str, version: str, read_words: WordReader) -> Adapter:
    """An adapter serving `table-cells` with `read_words` (a crop -> its words with boxes)."""
    kit = Adapter(name=name, version=version, max_concurrency=1)

    @kit.predict("table-cells")
    def table_cells(case, ctx) -> dict[str, Any]:
        with Image.open(case.sources[case.parsed.image]) as image:
            image.load()
            words = read_words(image.convert("RGB"))
        return cells_from_words(words, case.parsed.cells)

    return kit


def pdf_page_count(path: Path) -> int:
    import pypdfium2  # already a dependency of pdfplumber; cheap, and every tool agrees on pages

    document = pypdfium2.PdfDocument(str(path))
    try:
        return len(document)
    finally:
        document.close()


def table_adapter(name: str, version: str, read_pages: PageReader) -> Adapter:
    """An adapter serving `table-records` (one page of a PDF) and `document-extraction` (every
    page, in order, through one mapper so a table continued over a page break keeps its sample
    and columns) with `read_pages`."""
    kit = Adapter(name=name, version=version, max_concurrency=1)

    @kit.predict("table-records")
    def table_records(case, ctx) -> dict[str, Any]:
        if case.parsed.document is None:
            raise ValueError(
                "a table crop (an image): these tools read PDFs, so only a document page is served"
            )
        path = case.sources[case.parsed.document]
        count = pdf_page_count(path)
        if case.parsed.page > count:
            raise ValueError(
                f"page {case.parsed.page} is past the end of the {count}-page document"
            )
        mapper = RecordMapper()
        ((tables, text),) = read_pages(path, [case.parsed.page - 1])
        return {"records": mapper.read_page(tables, text)}

    @kit.predict("document-extraction")
    def document_extraction(case, ctx) -> dict[str, Any]:
        path = case.sources[case.parsed.document]
        mapper = RecordMapper()
        for tables, text in read_pages(path, range(pdf_page_count(path))):
            mapper.read_page(tables, text)
        return {"records": mapper.records}

    return kit
