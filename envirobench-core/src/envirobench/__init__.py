"""EnviroBench core: the public API for plugin and adapter authors.

Two parts (docs/api.md): the authoring names, what a category package or a private plugin writes
its types, generators and fixtures with (envirobench.authoring, which imports nothing of the
harness), and the running names, what a program running benchmarks or an adapter uses. All are
importable from here (`from envirobench import BenchmarkType, CaseScore, RunSpec`). The modules
behind these names are internal and may change between releases; a test fails when a category
package or the plugin template imports one of them, or a running name. The conformance suite has
its own public module, `envirobench.conformance`.

Names are imported on first use, so `import envirobench` (which every command and every pytest
session with the conformance plugin does) stays cheap.
"""

from __future__ import annotations

from importlib import metadata
from typing import TYPE_CHECKING

from .lazy import lazy_exports

try:
    __version__ = metadata.version("envirobench-core")
except metadata.PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0+unknown"

# Public name -> the module that defines it.
_EXPORTS = {
    # benchmark types and scores
    "BenchmarkType": "envirobench.benchmark",
    "Case": "envirobench.benchmark",
    "CaseScore": "envirobench.benchmark",
    "Curve": "envirobench.benchmark",
    "ErrorKey": "envirobench.benchmark",
    "Scalar": "envirobench.benchmark",
    "Tier": "envirobench.benchmark",
    "f1": "envirobench.benchmark",
    "mean_metrics": "envirobench.benchmark",
    "share": "envirobench.benchmark",
    "precision_recall": "envirobench.benchmark",
    "pooled_f1": "envirobench.benchmark",
    "set_counts": "envirobench.benchmark",
    "pdf_path": "envirobench.benchmark",
    "not_blank": "envirobench.benchmark",
    # errors
    "EnviroBenchError": "envirobench.errors",
    "TechnicalFailure": "envirobench.errors",
    # plugins and the registry
    "hookimpl": "envirobench.hookspecs",
    "Registry": "envirobench.plugins",
    "build_registry": "envirobench.plugins",
    "get_registry": "envirobench.plugins",
    "using_registry": "envirobench.plugins",
    "BenchmarkPackage": "envirobench.authoring",
    "TypeLayout": "envirobench.authoring",
    "generator_command": "envirobench.authoring",
    "DATA_LICENSE": "envirobench.authoring",
    "GeneratedCase": "envirobench.authoring",
    "copy_fields": "envirobench.authoring",
    "dataset_id_of": "envirobench.authoring",
    "dataset_writer": "envirobench.authoring",
    "document_cases": "envirobench.authoring",
    "iso_date": "envirobench.authoring",
    "read_answers": "envirobench.authoring",
    "plant_mistakes": "envirobench.authoring",
    "read_categories": "envirobench.authoring",
    "write_by_case": "envirobench.authoring",
    "write_dataset": "envirobench.authoring",
    "FixturePlan": "envirobench.authoring",
    "sha256_file": "envirobench.authoring",
    "split_of": "envirobench.authoring",
    # JSON in, JSON out
    "structure": "envirobench.converter",
    "unstructure": "envirobench.converter",
    "schema_for": "envirobench.schemas",
    "read_json": "envirobench.jsonio",
    "write_json": "envirobench.jsonio",
    "iter_jsonl": "envirobench.jsonio",
    "dumps": "envirobench.jsonio",
    "dumps_line": "envirobench.jsonio",
    "atomic_write_bytes": "envirobench.jsonio",
    "atomic_write_text": "envirobench.jsonio",
    # datasets
    "Manifest": "envirobench.records",
    "FileEntry": "envirobench.records",
    "Generator": "envirobench.records",
    "Retirement": "envirobench.records",
    "CaseRecord": "envirobench.records",
    "AnswerRecord": "envirobench.records",
    "DatasetIdentity": "envirobench.records",
    "Dataset": "envirobench.datasets",
    "load_dataset": "envirobench.datasets",
    "read_manifest": "envirobench.authoring",
    "write_manifest": "envirobench.authoring",
    # the adapter protocol
    "PROTOCOL": "envirobench.protocol",
    "REQUEST_FORMAT": "envirobench.protocol",
    "RESULT_FILE": "envirobench.protocol",
    "PROGRESS_FILE": "envirobench.protocol",
    "CASES_FILE": "envirobench.protocol",
    "AdapterRequest": "envirobench.protocol",
    "AdapterResult": "envirobench.protocol",
    "AdapterInfo": "envirobench.protocol",
    "CaseUsage": "envirobench.protocol",
    "SystemUsage": "envirobench.protocol",
    "RequestCase": "envirobench.protocol",
    # runs and their directories
    "RunSpec": "envirobench.runs",
    "Outcome": "envirobench.runs",
    "execute_run": "envirobench.runs",
    "rescore_run": "envirobench.runs",
    "Shard": "envirobench.shards",
    "merge_shards": "envirobench.merge",
    "RunRecord": "envirobench.rundir",
    "Metrics": "envirobench.rundir",
    "read_run": "envirobench.rundir",
    "read_metrics": "envirobench.rundir",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
__all__ = [  # the same names as _EXPORTS (a test holds them together)
    "__version__",
    "AdapterInfo",
    "AdapterRequest",
    "AdapterResult",
    "AnswerRecord",
    "BenchmarkPackage",
    "BenchmarkType",
    "Case",
    "CaseRecord",
    "CaseScore",
    "CaseUsage",
    "Curve",
    "DATA_LICENSE",
    "Dataset",
    "FixturePlan",
    "DatasetIdentity",
    "EnviroBenchError",
    "ErrorKey",
    "FileEntry",
    "GeneratedCase",
    "Generator",
    "Manifest",
    "Metrics",
    "Outcome",
    "PROGRESS_FILE",
    "CASES_FILE",
    "PROTOCOL",
    "REQUEST_FORMAT",
    "RESULT_FILE",
    "Registry",
    "RequestCase",
    "Retirement",
    "RunRecord",
    "RunSpec",
    "Scalar",
    "Shard",
    "SystemUsage",
    "TechnicalFailure",
    "Tier",
    "TypeLayout",
    "atomic_write_bytes",
    "atomic_write_text",
    "build_registry",
    "copy_fields",
    "dataset_id_of",
    "dataset_writer",
    "document_cases",
    "dumps",
    "dumps_line",
    "execute_run",
    "f1",
    "generator_command",
    "get_registry",
    "hookimpl",
    "iso_date",
    "iter_jsonl",
    "load_dataset",
    "mean_metrics",
    "merge_shards",
    "not_blank",
    "pdf_path",
    "plant_mistakes",
    "pooled_f1",
    "read_answers",
    "read_categories",
    "read_json",
    "read_manifest",
    "read_metrics",
    "read_run",
    "rescore_run",
    "set_counts",
    "sha256_file",
    "schema_for",
    "share",
    "split_of",
    "precision_recall",
    "structure",
    "unstructure",
    "using_registry",
    "write_by_case",
    "write_dataset",
    "write_json",
    "write_manifest",
]

if TYPE_CHECKING:  # what static tools see; at run time the names come from __getattr__
    from .authoring import (
        DATA_LICENSE,
        BenchmarkPackage,
        FixturePlan,
        GeneratedCase,
        TypeLayout,
        copy_fields,
        dataset_id_of,
        dataset_writer,
        document_cases,
        generator_command,
        iso_date,
        plant_mistakes,
        read_answers,
        read_categories,
        read_manifest,
        sha256_file,
        split_of,
        write_by_case,
        write_dataset,
        write_manifest,
    )
    from .benchmark import (
        BenchmarkType,
        Case,
        CaseScore,
        Curve,
        ErrorKey,
        Scalar,
        Tier,
        f1,
        mean_metrics,
        precision_recall,
        share,
    )
    from .converter import structure, unstructure
    from .datasets import Dataset, load_dataset
    from .errors import EnviroBenchError, TechnicalFailure
    from .hookspecs import hookimpl
    from .jsonio import (
        atomic_write_bytes,
        atomic_write_text,
        dumps,
        dumps_line,
        iter_jsonl,
        read_json,
        write_json,
    )
    from .merge import merge_shards
    from .plugins import Registry, build_registry, get_registry, using_registry
    from .protocol import (
        CASES_FILE,
        PROGRESS_FILE,
        PROTOCOL,
        REQUEST_FORMAT,
        RESULT_FILE,
        AdapterInfo,
        AdapterRequest,
        AdapterResult,
        CaseUsage,
        RequestCase,
        SystemUsage,
    )
    from .records import (
        AnswerRecord,
        CaseRecord,
        DatasetIdentity,
        FileEntry,
        Generator,
        Manifest,
        Retirement,
    )
    from .rundir import Metrics, RunRecord, read_metrics, read_run
    from .runs import Outcome, RunSpec, execute_run, rescore_run
    from .shards import Shard
