from __future__ import annotations

import pytest

from envirobench import plugins
from envirobench.testing import toy_plugin, write_count_dataset


@pytest.fixture(autouse=True)
def _no_installed_plugins(monkeypatch):
    # Core's tests must not depend on which category packages happen to be installed.
    monkeypatch.setenv(plugins.LOAD_PLUGINS_ENV, "")


@pytest.fixture
def count_dataset(tmp_path):
    return write_count_dataset(tmp_path / "count-v1", 12)


@pytest.fixture
def toy_registry(count_dataset):
    return plugins.build_registry(extra=[("toy", toy_plugin(("test/count-words-v1", count_dataset)))])
