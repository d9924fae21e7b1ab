"""The automatic mode: the conformance suite over every installed type, one class per dataset.

Collected only under `pytest --envirobench-conformance` or `--envirobench-types=...` (see
plugin.py). Each registered dataset is a target for the type its manifest names; a type that no
registered dataset is for is reported as skipped with the reason. The data checks are made on
every dataset, the run-lifecycle checks once per type, on its smallest dataset (fewest bytes pinned),
and skipped with the reason on the others unless `--envirobench-every-dataset` is given.
"""

from __future__ import annotations

import pytest

from .options import every_dataset
from .suite import BenchmarkTypeConformance
from .targets import installed_registry_or_usage_error, targets


def pytest_generate_tests(metafunc):
    if "conformance_target" in metafunc.fixturenames:
        found = targets(metafunc.config)
        metafunc.parametrize("conformance_target", found, ids=[t.id for t in found], scope="class")


class TestInstalledBenchmarkType(BenchmarkTypeConformance):
    """The suite over one installed type and one of its registered datasets."""

    @pytest.fixture
    def envirobench_registry(self, request, conformance_target):
        return installed_registry_or_usage_error(request.config)

    @pytest.fixture
    def benchmark_type_id(self, conformance_target):
        if conformance_target.problem and conformance_target.dataset_id is None:
            pytest.skip(conformance_target.problem)
        if conformance_target.problem:
            pytest.fail(conformance_target.problem, pytrace=False)
        return conformance_target.type_id

    @pytest.fixture
    def dataset_id(self, conformance_target):
        return conformance_target.dataset_id

    @pytest.fixture
    def lifecycle_elsewhere(self, request, conformance_target):
        target = conformance_target
        if every_dataset(request.config) or target.lifecycle_on in (None, target.dataset_id):
            return None
        return (f"the run lifecycle of {target.type_id} is checked once per type, on its dataset {target.lifecycle_on} "
                "(--envirobench-every-dataset checks it on every dataset)")
