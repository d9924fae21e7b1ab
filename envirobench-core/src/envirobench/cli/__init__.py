"""The `envirobench` command line: `main` is the command group (console script `envirobench`)."""

from .main import main

__all__ = ["main"]
