"""The Verify category's benchmark types: the one list of them, from which core and the generator
command find everything else about each type (envirobench.authoring, "A package's types").
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
