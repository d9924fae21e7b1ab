"""Registers each tool adapter with EnviroBench under its name (tesseract, rapidocr, pdfplumber,
pymupdf, camelot, pypdf)."""

from __future__ import annotations

import sys

from envirobench import hookimpl

from . import ADAPTERS


@hookimpl
def envirobench_adapters(register):
    # `-m` with this interpreter: the environment that loaded the plugin has the tools installed.
    for name in ADAPTERS:
        register(name, [sys.executable, "-m", "envirobench_adapters_tools", name])
