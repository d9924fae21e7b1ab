"""The Locate category's benchmark types: the one list of them.

Everything else about a type is found from this list by convention (see
envirobench.authoring): its datasets (the type module's DATASETS, each in
`benchmarks/<type ID>/datasets/<folder>/`), their prediction fixtures
(`benchmarks/<type ID>/fixtures/<folder>/`), its saved profile (`benchmarks/<type ID>/bench.json`),
its generator (`generate/<type module>.py`) and the viewers (`viewers/<name>.js`). The package's entry point names
PACKAGE (core registers its types, datasets and viewers from it) and the generator command
(`python -m envirobench_locate.generate`) reads it too.
"""

from __future__ import annotations

from envirobench import BenchmarkPackage

from .document_split import DocumentSplit
from .document_type import DocumentType
from .page_locate import PageLocate
from .passage_rerank import PassageRerank

PACKAGE = BenchmarkPackage(
    "envirobench_locate",
    types=(PassageRerank, DocumentType, DocumentSplit, PageLocate),
    viewers=("ranked-list", "page-strip"),
)
