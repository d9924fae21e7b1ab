"""The Extract category's benchmark types: the one list of them, from which core and the generator
command find everything else about each type (envirobench.authoring, "A package's types").
"""

from __future__ import annotations

from envirobench import BenchmarkPackage

from .document_extraction import DocumentExtraction
from .report_metadata import ReportMetadata
from .table_cells import TableCells
from .table_records import TableRecords
from .table_separators import TableSeparators
from .table_structure import TableStructure

PACKAGE = BenchmarkPackage(
    "envirobench_extract",
    types=(
        TableSeparators,
        TableStructure,
        TableCells,
        TableRecords,
        ReportMetadata,
        DocumentExtraction,
    ),
    viewers=("table-structure",),
)
