"""Registers the reference adapter with EnviroBench under the name `reference`."""

from __future__ import annotations

import sys

from envirobench import hookimpl


@hookimpl
def envirobench_adapters(register):
    # The interpreter that loaded this plugin has the adapter installed; `-m` avoids depending on
    # the console script being on PATH.
    register("reference", [sys.executable, "-m", "envirobench_reference_adapter"])
