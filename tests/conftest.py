"""Shared fixtures. The core suite runs with no installed plugins unless a test registers one."""

from __future__ import annotations

import contextlib

import pytest

from envirobench import plugins, using_registry


@pytest.fixture(autouse=True)
def _fresh_registry():
    """Every test sees the plugins its environment allows, loaded anew."""
    plugins.reset_registry()
    yield
    plugins.reset_registry()


@pytest.fixture
def use_registry():
    """`use_registry(registry)`: until the test ends, every command and function that asks for
    the registry gets `registry` (core's public seam, `envirobench.using_registry`)."""
    with contextlib.ExitStack() as stack:
        yield lambda registry: stack.enter_context(using_registry(registry))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """bin/test's main step (--dist loadfile): the long files first (tests/xdist_order.py)."""
    if config.getvalue("dist") != "loadfile":
        return None
    # Imported here: it imports pytest-xdist, there only when this hook is called (a session with -n).
    from xdist_order import LongFirstScheduling

    return LongFirstScheduling(config, log)
