"""Shared fixtures. The core suite runs with no installed plugins unless a test registers one."""

from __future__ import annotations

import pytest

from envirobench import plugins


@pytest.fixture(autouse=True)
def _fresh_registry():
    """Every test sees the plugins its environment allows, loaded anew."""
    plugins.reset_registry()
    yield
    plugins.reset_registry()
