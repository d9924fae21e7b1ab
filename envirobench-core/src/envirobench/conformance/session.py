"""What the conformance suite keeps for a whole pytest session: the installed plugins' registry.

Built once, on first use, and shared by the suite's `envirobench_registry` fixture, the
automatic mode and the pytest plugin's check of `--envirobench-types`.
"""

from __future__ import annotations

import pytest

from ..errors import EnviroBenchError
from ..plugins import Registry, build_registry

_REGISTRY = pytest.StashKey[object]()


def load_installed_registry(config: pytest.Config) -> Registry | EnviroBenchError:
    """The registry of every installed plugin, or why the plugins do not load (kept either way)."""
    if _REGISTRY not in config.stash:
        try:
            config.stash[_REGISTRY] = build_registry()
        except EnviroBenchError as exc:
            config.stash[_REGISTRY] = exc
    return config.stash[_REGISTRY]  # type: ignore[return-value]


def installed_registry(config: pytest.Config) -> Registry:
    """The installed plugins' registry; the test fails (not errors) when they do not load."""
    registry = load_installed_registry(config)
    if isinstance(registry, EnviroBenchError):
        pytest.fail(f"the installed plugins do not load: {registry}", pytrace=False)
    return registry
