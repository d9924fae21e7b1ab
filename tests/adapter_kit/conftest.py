"""Fixtures of the adapter kit's tests (their helpers are in kit_helpers.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from kit_helpers import MODEL, write_adapter, write_toy_plugin

from envirobench import plugins
from envirobench.runs import RunSpec
from envirobench.testing import toy_plugin, write_count_dataset


@pytest.fixture(autouse=True)
def _no_installed_plugins(monkeypatch):
    # The kit's tests must not depend on which category packages are installed.
    monkeypatch.setenv(plugins.LOAD_PLUGINS_ENV, "")


@pytest.fixture
def count_dataset(tmp_path):
    return write_count_dataset(tmp_path / "count-v1", 12)


@pytest.fixture
def toy_registry(count_dataset, use_registry):
    """count-words and its 12-case dataset, the registry in force for the test."""
    registry = plugins.build_registry(extra=[("toy", toy_plugin(("test/count-words-v1", count_dataset)))])
    use_registry(registry)
    return registry


@pytest.fixture
def toy_dir(tmp_path):
    return write_toy_plugin(tmp_path / "toy-plugin")


@pytest.fixture
def make_adapter(tmp_path, toy_dir):
    """make_adapter(name, body, prelude="") -> an executable kit adapter that finds count-words."""
    return lambda name, body, prelude="": write_adapter(tmp_path / name, body, toy=toy_dir, prelude=prelude)


@pytest.fixture
def make_spec(tmp_path, toy_dir):
    def make(run_id: str, adapter: Path, *, budget_usd: float = 1.0, **kw) -> RunSpec:
        kw.setdefault("sandbox", "none")
        if kw["sandbox"] != "none":  # the sandbox shows the adapter the toy plugin too
            kw["sandbox_allow"] = (str(toy_dir),)
        return RunSpec(adapter=str(adapter), run_id=run_id, model=kw.pop("model", MODEL), benchmark="count-words",
                       dataset="test/count-words-v1", budget_usd=budget_usd, options=kw.pop("options", {}),
                       results_dir=tmp_path / "results", **kw)

    return make
