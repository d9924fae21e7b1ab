"""The Extract category's benchmark types: the one list of them.

Everything else about a type is found from this list by convention (see
envirobench.authoring): its datasets (the type module's DATASETS, each in
`benchmarks/<type ID>/datasets/<folder>/`), their prediction fixtures
(`benchmarks/<type ID>/fixtures/<folder>/`), its saved profile (`benchmarks/<type ID>/bench.json`)
and its generator (`generate/<type module>.py`). The package's entry point names
PACKAGE (core registers its types, datasets and viewers from it) and the generator command
(`python -m envirobench_extract.generate`) reads it too.

Adding a type is: the type module (with DATASETS), its generator, its data folder and one entry
in `types` below.
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
