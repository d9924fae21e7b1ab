"""Shared fixtures. The core suite runs with no installed plugins unless a test registers one."""

from __future__ import annotations

import contextlib

import pytest

from envirobench import plugins, using_registry

# Tests that share an expensive session fixture run on one worker under pytest-xdist (bin/test runs
# `-n N --dist loadgroup`), so the wheels are built once, one SeaweedFS server and one Chromium
# start; every other test stays with the rest of its file, so module fixtures (generated data
# reused within a file) are made once too.
SESSION_GROUPS = {"dist": "wheels", "build": "wheels", "seaweedfs": "seaweedfs", "browser": "chromium"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.get_closest_marker("xdist_group"):
            continue
        fixtures = set(getattr(item, "fixturenames", ()))
        group = next((g for name, g in SESSION_GROUPS.items() if name in fixtures), None)
        item.add_marker(pytest.mark.xdist_group(group or item.nodeid.split("::", 1)[0]))


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
