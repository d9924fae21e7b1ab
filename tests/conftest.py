"""Shared fixtures. The core suite runs with no installed plugins unless a test registers one."""

from __future__ import annotations

import contextlib

import pytest

from envirobench import plugins, using_registry
from envirobench.testing import write_count_dataset


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


@pytest.fixture
def count_dataset(tmp_path):
    """The 12-case count-words dataset core's own tests run on (toy_fixtures.toy_registry_of)."""
    return write_count_dataset(tmp_path / "count-v1", 12)


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium (Debian's `chromium`, driven by Playwright), one for a worker's whole
    session, shared by the report's browser tests (tests/browser) and Locate's page strip.
    Playwright's sync API runs its event loop in the thread that starts it: a second one started
    in that thread while the first is open fails ("Sync API inside the asyncio loop"), which is
    what two fixtures of their own did when one worker ran both files."""
    from envirobench.conformance.browser import CHROMIUM_ARGS, chromium_executable

    executable = chromium_executable()
    if executable is None:
        pytest.skip("headless Chromium is not installed (bin/test installs Debian's chromium package)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright's Python package is not installed (uv sync installs the dev group)")
    with sync_api.sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=executable, args=[*CHROMIUM_ARGS, "--disable-quic"])
        yield launched
        launched.close()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """bin/test's main step (--dist loadfile): the long files first (tests/xdist_order.py)."""
    if config.getvalue("dist") != "loadfile":
        return None
    # Imported here: it imports pytest-xdist, there only when this hook is called (a session with -n).
    from xdist_order import LongFirstScheduling

    return LongFirstScheduling(config, log)
