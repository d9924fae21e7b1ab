"""Seeded generators of the Extract category's synthetic datasets.

Run `python -m envirobench_extract.generate NAME [--output DIR]`; NAME is one of GENERATORS.
"""

# NAME -> (the type's module, its generator, its fixtures), relative to envirobench_extract. The
# type module has DATASET_DIR and FIXTURES_DIR, the generator generate(output_dir), the fixtures
# module write_fixtures(dataset_dir, fixtures_dir).
MODULES: dict[str, tuple[str, str, str]] = {
    "table-separators": ("table_separators", "generate.table_separators", "generate.fixtures"),
    "table-structure": (
        "table_structure",
        "generate.table_structure",
        "generate.table_structure_fixtures",
    ),
    "table-cells": ("table_cells", "generate.table_cells", "generate.table_cells_fixtures"),
    "table-records": ("table_records", "generate.table_records", "generate.table_records"),
    "report-metadata": ("report_metadata", "generate.report_metadata", "generate.report_metadata"),
    "document-extraction": (
        "document_extraction",
        "generate.document_extraction",
        "generate.document_extraction",
    ),
}
GENERATORS = tuple(MODULES)
