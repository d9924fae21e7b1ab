"""EnviroBench adapters for real open-source document tools, each a thin mapping from the tool's
output to a benchmark type's prediction through one shared generic mapper per type
(`cells.cells_from_words` for table-cells, `records.RecordMapper` for table-records and
document-extraction). See docs/tool-adapters.md.

    envirobench run --adapter pdfplumber --benchmark table-records ...

Adapters (registered by name with EnviroBench; `python -m envirobench_adapters_tools NAME run ...`):
"""

from __future__ import annotations

# name -> (module, the types it serves): the plugin registers these, __main__ runs them.
ADAPTERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "tesseract": ("tesseract_tool", ("table-cells",)),
    "rapidocr": ("rapidocr_tool", ("table-cells",)),
    "pdfplumber": ("pdfplumber_tool", ("table-records", "document-extraction")),
    "pymupdf": ("pymupdf_tool", ("table-records", "document-extraction")),
    "camelot": ("camelot_tool", ("table-records", "document-extraction")),
    "pypdf": ("pypdf_tool", ("table-records", "document-extraction")),
}

__all__ = ["ADAPTERS"]
