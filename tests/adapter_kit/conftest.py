"""Fixtures of the adapter kit's tests (their helpers are in kit_helpers.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from kit_helpers import MODEL, write_adapter, write_toy_plugin
from toy_fixtures import no_installed_plugins, toy_registry_of  # noqa: F401 (a fixture in force in this folder)

from envirobench.runs import RunSpec


@pytest.fixture
def toy_registry(count_dataset, use_registry):
    """count-words and its 12-case dataset, the registry in force for the test."""
    registry = toy_registry_of(count_dataset)
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
