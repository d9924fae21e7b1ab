"""The Locate category's benchmark types: the one list of them, from which core and the generator
command find everything else about each type (envirobench.authoring, "A package's types").
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
