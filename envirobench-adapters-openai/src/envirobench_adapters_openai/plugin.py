"""Registers the OpenAI-compatible adapter with EnviroBench under the name `openai-compatible`."""

from __future__ import annotations

import sys

from envirobench import hookimpl

ADAPTER_NAME = "openai-compatible"


@hookimpl
def envirobench_adapters(register):
    # The interpreter that loaded this plugin has the adapter installed; `-m` avoids depending on
    # the console script being on PATH.
    register(ADAPTER_NAME, [sys.executable, "-m", "envirobench_adapters_openai"])
