"""The Extract category's hook implementations: its benchmark types and shipped datasets."""

from envirobench import hookimpl

from .table_separators import DATASET_DIR, DATASET_ID, TableSeparators


@hookimpl
def envirobench_benchmark_types(register):
    register(TableSeparators)


@hookimpl
def envirobench_datasets(register):
    register(DATASET_ID, DATASET_DIR, visibility="public")
