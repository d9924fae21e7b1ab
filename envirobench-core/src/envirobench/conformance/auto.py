"""The automatic mode: the conformance suite over every installed type, one class per dataset.

Collected only under `pytest --envirobench-conformance` or `--envirobench-types=...` (see
plugin.py). Each registered dataset is a target for the type its manifest names; a type that no
registered dataset is for is reported as skipped with the reason.
"""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from ..datasets import read_manifest
from ..errors import EnviroBenchError
from .plugin import selected_types
from .session import load_installed_registry
from .suite import BenchmarkTypeConformance

_TARGETS = pytest.StashKey[list]()


@attrs.frozen
class Target:
    type_id: str
    dataset_id: str | None = None
    dataset_dir: Path | None = None
    problem: str | None = None

    @property
    def id(self) -> str:
        return f"{self.type_id}:{self.dataset_id}" if self.dataset_id else self.type_id


def _registry(config):
    """The installed plugins' registry, shared with the suite's `envirobench_registry` fixture."""
    registry = load_installed_registry(config)
    if isinstance(registry, EnviroBenchError):
        raise pytest.UsageError(f"envirobench conformance: the installed plugins do not load: {registry}")
    return registry


def targets(config) -> list[Target]:
    if _TARGETS in config.stash:
        return config.stash[_TARGETS]
    registry = _registry(config)
    wanted = selected_types(config)  # checked to be installed types by the plugin
    type_ids = wanted if wanted is not None else sorted(registry.benchmark_types)
    by_type: dict[str, list[Target]] = {t: [] for t in type_ids}
    for dataset_id, source in sorted(registry.datasets.items()):
        try:
            benchmark = read_manifest(source.path).benchmark
        except EnviroBenchError as exc:
            # Attributed to no type yet: report it under every selected type it could belong to.
            for type_id in type_ids:
                by_type[type_id].append(Target(type_id, dataset_id, source.path, problem=f"dataset {dataset_id!r} cannot be read: {exc}"))
            continue
        if benchmark in by_type:
            by_type[benchmark].append(Target(benchmark, dataset_id, source.path))
    out: list[Target] = []
    for type_id in type_ids:
        out.extend(by_type[type_id] or [Target(type_id, problem=f"no registered dataset is for benchmark type {type_id!r}; it cannot be checked")])
    config.stash[_TARGETS] = out
    return out


def pytest_generate_tests(metafunc):
    if "conformance_target" in metafunc.fixturenames:
        found = targets(metafunc.config)
        metafunc.parametrize("conformance_target", found, ids=[t.id for t in found], scope="class")


class TestInstalledBenchmarkType(BenchmarkTypeConformance):
    """The suite over one installed type and one of its registered datasets."""

    @pytest.fixture
    def envirobench_registry(self, request, conformance_target):
        return _registry(request.config)

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
