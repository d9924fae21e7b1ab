"""Finding a benchmark type's class where the adapter runs: the installed plugins' types, nothing else.

The kit needs the class of the type it serves (its `Input`, `Prediction` and `source_files`).
Core's registry (`envirobench.get_registry`) would load every hook of every installed plugin,
datasets included, and a category may build its datasets on first use (Site materialises its
site records, answer keys with them, into the user's cache directory): nothing a system under
test should do, nor wait for at every start in a sandbox whose home is new each run. So the kit
calls only each plugin's `envirobench_benchmark_types` hook (of a plugin that is a
`BenchmarkPackage`, its `register_types`), found as core finds plugins (the
`envirobench` entry-point group, restricted by `ENVIROBENCH_LOAD_PLUGINS` as core restricts it),
and reads no dataset. Types given to `Adapter(types=...)` come first.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from importlib import metadata

from envirobench import BenchmarkPackage, BenchmarkType

ENTRY_POINT_GROUP = "envirobench"
LOAD_PLUGINS_ENV = "ENVIROBENCH_LOAD_PLUGINS"


def _normalise(name: str) -> str:
    return name.strip().lower().replace("_", "-")


def _allowed() -> set[str] | None:
    value = os.environ.get(LOAD_PLUGINS_ENV)
    return None if value is None else {_normalise(n) for n in value.split(",") if n.strip()}


def find_type(type_id: str, given: Iterable[type[BenchmarkType]] = ()) -> BenchmarkType | None:
    """An instance of the type `type_id`, or None when neither `given` nor a plugin has it. A
    plugin that fails to load is passed over: it may not be the one that has the type."""
    for cls in given:
        if type_id == cls.ID:
            return cls()
    allowed = _allowed()
    for entry_point in sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        names = {_normalise(entry_point.name), _normalise(entry_point.dist.name if entry_point.dist else entry_point.name)}
        if allowed is not None and not names & allowed:
            continue
        found: list[type[BenchmarkType]] = []
        try:
            loaded = entry_point.load()
            if isinstance(loaded, BenchmarkPackage):  # a category's package: its types only, never its datasets
                loaded.register_types(found.append)
            else:
                hook = getattr(loaded, "envirobench_benchmark_types", None)
                if hook is None:
                    continue
                hook(register=found.append)
        except Exception:  # a broken plugin must not stop an adapter that needs another one's type
            continue
        for cls in found:
            if getattr(cls, "ID", None) == type_id:
                return cls()
    return None
