"""The automatic mode's targets: each registered dataset of each selected type (see auto.py).

Kept apart from auto.py, which pytest collects as a test file, so that the xdist scheduling
(scheduling.py) can name the same targets in the controller process, which collects nothing.
"""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from ..datasets import read_manifest
from ..errors import EnviroBenchError
from .options import selected_types
from .session import load_installed_registry

_TARGETS = pytest.StashKey[list]()


@attrs.frozen
class Target:
    type_id: str
    dataset_id: str | None = None
    dataset_dir: Path | None = None
    problem: str | None = None
    lifecycle_on: str | None = None  # the type's dataset its run-lifecycle checks are made on

    @property
    def id(self) -> str:
        return f"{self.type_id}:{self.dataset_id}" if self.dataset_id else self.type_id


def installed_registry_or_usage_error(config):
    """The installed plugins' registry, shared with the suite's `envirobench_registry` fixture."""
    registry = load_installed_registry(config)
    if isinstance(registry, EnviroBenchError):
        raise pytest.UsageError(f"envirobench conformance: the installed plugins do not load: {registry}")
    return registry


def targets(config) -> list[Target]:
    if _TARGETS in config.stash:
        return config.stash[_TARGETS]
    registry = installed_registry_or_usage_error(config)
    wanted = selected_types(config)  # checked to be installed types by the plugin
    type_ids = wanted if wanted is not None else sorted(registry.benchmark_types)
    by_type: dict[str, list[Target]] = {t: [] for t in type_ids}
    size: dict[str, int] = {}
    for dataset_id, source in sorted(registry.datasets.items()):
        try:
            manifest = read_manifest(source.path)
        except EnviroBenchError as exc:
            # Attributed to no type yet: report it under every selected type it could belong to.
            for type_id in type_ids:
                by_type[type_id].append(Target(type_id, dataset_id, source.path, problem=f"dataset {dataset_id!r} cannot be read: {exc}"))
            continue
        if manifest.benchmark in by_type:
            by_type[manifest.benchmark].append(Target(manifest.benchmark, dataset_id, source.path))
            size[dataset_id] = sum(entry.size for entry in manifest.files)
    out: list[Target] = []
    for type_id in type_ids:
        found = by_type[type_id]
        readable = [t for t in found if t.problem is None]
        # The run lifecycle (pairing, the gate, rescoring, re-keying, review, the sandbox, malformed
        # results) tests the type, not its data, and makes a dozen runs: it is checked once per
        # type, on its smallest dataset (fewest bytes pinned), where those runs cost least; the
        # data checks run on every dataset.
        primary = min(readable, key=lambda t: (size[t.dataset_id], t.dataset_id), default=None)
        out.extend([attrs.evolve(t, lifecycle_on=primary.dataset_id if primary else None) for t in found]
                   or [Target(type_id, problem=f"no registered dataset is for benchmark type {type_id!r}; it cannot be checked")])
    config.stash[_TARGETS] = out
    return out
