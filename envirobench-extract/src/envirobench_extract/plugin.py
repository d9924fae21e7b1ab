"""The Extract category's hook implementations: its benchmark types, shipped datasets and viewers."""

from importlib import resources

from envirobench import hookimpl

from . import document_extraction, report_metadata, table_cells, table_records, table_structure
from .table_separators import DATASET_DIR, DATASET_ID, TableSeparators


@hookimpl
def envirobench_benchmark_types(register):
    register(TableSeparators)
    register(table_structure.TableStructure)
    register(table_cells.TableCells)
    register(table_records.TableRecords)
    register(report_metadata.ReportMetadata)
    register(document_extraction.DocumentExtraction)


@hookimpl
def envirobench_datasets(register):
    register(DATASET_ID, DATASET_DIR, visibility="public")
    register(table_structure.DATASET_ID, table_structure.DATASET_DIR, visibility="public")
    register(table_cells.DATASET_ID, table_cells.DATASET_DIR, visibility="public")
    for module in (table_records, report_metadata, document_extraction):
        register(module.DATASET_ID, module.DATASET_DIR, visibility="public")


def _viewer_source(name: str) -> str:
    return resources.files("envirobench_extract").joinpath("viewers", name).read_text(encoding="utf-8")


@hookimpl
def envirobench_viewers(register):
    register(
        "table-structure",
        script=_viewer_source("table-structure.js"),
        style=_viewer_source("table-structure.css"),
    )
