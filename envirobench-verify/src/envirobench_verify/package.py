"""The Verify category's benchmark types: the one list of them.

Everything else about a type is found from this list by convention (see
envirobench.authoring): its datasets (the type module's DATASETS, each in
`benchmarks/<type ID>/datasets/<folder>/`), their prediction fixtures
(`benchmarks/<type ID>/fixtures/<folder>/`), its saved profile (`benchmarks/<type ID>/bench.json`),
its generator (`generate/<type module>.py`) and the viewers (`viewers/<name>.js`). The package's entry point names
PACKAGE (core registers its types, datasets and viewers from it) and the generator command
(`python -m envirobench_verify.generate`) reads it too.
"""

from __future__ import annotations

from envirobench import BenchmarkPackage

from .custody_reconciliation import CustodyReconciliation
from .ocr_auto_accept import OcrAutoAccept
from .qualifier_flags import QualifierFlags
from .screening_exceedances import ScreeningExceedances
from .unit_normalisation import UnitNormalisation

PACKAGE = BenchmarkPackage(
    "envirobench_verify",
    types=(QualifierFlags, UnitNormalisation, ScreeningExceedances, CustodyReconciliation, OcrAutoAccept),
    viewers=("cell-overlay",),
)
