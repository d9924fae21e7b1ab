from __future__ import annotations

import sys
from pathlib import Path

import pytest

from envirobench import plugins
from envirobench.runs import RunSpec, execute_run
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


ADAPTERS = Path(__file__).parent / "adapters"


def adapter_executable(tmp_path: Path, script: str) -> Path:
    """Wrap one of the scripted test adapters in an executable file."""
    path = tmp_path / f"{Path(script).stem}-bin"
    path.write_text(f'#!/bin/sh\nexec {sys.executable} {ADAPTERS / script} "$@"\n')
    path.chmod(0o755)
    return path


@pytest.fixture
def adapter_bin(tmp_path):
    """adapter_bin("snoop_adapter.py") -> an executable running that scripted adapter."""
    return lambda script: adapter_executable(tmp_path, script)


@pytest.fixture
def fake(adapter_bin):
    return adapter_bin("fake_adapter.py")


@pytest.fixture
def results(tmp_path):
    return tmp_path / "results"


@pytest.fixture
def make_spec(fake, results):
    """RunSpec for the count-words test dataset with the fake adapter; options drive its behaviour."""

    def make(run_id, *, adapter=None, options=None, budget_usd=1.0, **kw):
        return RunSpec(
            adapter=str(adapter or fake),
            run_id=run_id,
            model="test/model",
            benchmark="count-words",
            dataset=kw.pop("dataset", "test/count-words-v1"),
            budget_usd=budget_usd,
            options=options or {},
            results_dir=kw.pop("results_dir", results),
            **kw,
        )

    return make


@pytest.fixture
def make_run(make_spec, toy_registry):
    """Make a completed run; `off` puts count errors on chosen cases ("c000001:1,c000004:-2")."""

    def run(run_id, off="", registry=None, **kw):
        outcome = execute_run(make_spec(run_id, options={"off": off}, **kw), registry or toy_registry)
        assert outcome.status == "completed", outcome.message
        return outcome

    return run
