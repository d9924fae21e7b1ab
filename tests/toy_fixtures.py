"""The toy world core's own tests run in (tests/core, tests/adapter_kit, tests/browser): no
installed category package is loaded (`no_installed_plugins`, which a folder's conftest.py
imports to put it in force there), and the toy plugin registers count-words with the 12-case
dataset of tests/conftest.py's `count_dataset` (`toy_registry_of`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from envirobench import Registry, plugins
from envirobench.testing import toy_plugin


@pytest.fixture(autouse=True)
def no_installed_plugins(monkeypatch):
    # These tests must not depend on which category packages happen to be installed.
    monkeypatch.setenv(plugins.LOAD_PLUGINS_ENV, "")


def toy_registry_of(count_dataset: Path) -> Registry:
    """count-words and its dataset `count_dataset`, registered as test/count-words-v1."""
    return plugins.build_registry(extra=[("toy", toy_plugin(("test/count-words-v1", count_dataset)))])
