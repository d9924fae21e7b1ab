"""The `envirobench` command line: `main` is the command group (console script `envirobench`);
GATE_FAILED_EXIT is the exit status of a gate that did not pass under --require-no-regressions."""

from .common import GATE_FAILED_EXIT
from .main import main

__all__ = ["GATE_FAILED_EXIT", "main"]
