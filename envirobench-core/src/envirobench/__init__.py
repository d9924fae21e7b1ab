"""EnviroBench core: benchmark types, datasets, scoring, runs, the gate and the report."""

from importlib import metadata

from .benchmark import BenchmarkType, Case, CaseScore, f1, mean_metrics, share
from .errors import EnviroBenchError, TechnicalFailure
from .hookspecs import hookimpl

try:
    __version__ = metadata.version("envirobench-core")
except metadata.PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0+unknown"

__all__ = [
    "BenchmarkType",
    "Case",
    "CaseScore",
    "EnviroBenchError",
    "TechnicalFailure",
    "__version__",
    "f1",
    "hookimpl",
    "mean_metrics",
    "share",
]
