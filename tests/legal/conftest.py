"""Fixtures of the Legal type tests (their helpers are in legal_kit.py)."""

from __future__ import annotations

import pytest
from legal_kit import shipped_datasets


@pytest.fixture(scope="module")
def datasets(request):
    """Folder -> (registry, dataset, cases, answers) of each shipped dataset of the test
    module's type (its `TYPE`), loaded once per module."""
    return shipped_datasets(request.module.TYPE)
