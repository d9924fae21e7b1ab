"""Fixtures of the OpenAI-compatible adapter's tests (their helpers: openai_helpers.py, the
loopback server: loopback.py)."""

from __future__ import annotations

import pytest
from openai_helpers import KEY, KEY_ENV, write_request


@pytest.fixture(autouse=True)
def _key(monkeypatch):
    monkeypatch.setenv(KEY_ENV, KEY)


@pytest.fixture
def make_request(tmp_path):
    """make_request(n, options, budget_usd=1.0, model=MODEL) -> a table-separators request of n cases."""
    counter = iter(range(1000))
    return lambda n, opts, **kw: write_request(tmp_path / f"request-{next(counter)}.json", n, opts, input_dir=tmp_path / "input", **kw)


@pytest.fixture
def out(tmp_path):
    """out() -> a new, absent output directory."""
    counter = iter(range(1000))
    return lambda: tmp_path / f"out-{next(counter)}"
