"""The automatic mode under pytest-xdist's `--dist loadscope`: one work unit per target.

xdist's loadscope groups the tests of a class into one work unit, and the automatic mode is one
class (auto.py's TestInstalledBenchmarkType) parametrized over every target: left alone, every
check of every type would run on one worker while the others idle. Here each target (a type and
one of its datasets) is a unit of its own, so the targets spread over the workers, while a
target's checks stay together: its harness, and every run it makes, is still made once, on the
worker that runs them. Every other test keeps xdist's own scope.

Imported only in the controller of an xdist session that asks for the suite (plugin.py).
"""

from __future__ import annotations

from xdist.scheduler import LoadScopeScheduling

from .targets import targets

SUITE_CLASS = "TestInstalledBenchmarkType"


def _is_suite_class(scope: str) -> bool:
    """The automatic mode's class: `<path>/auto.py::TestInstalledBenchmarkType`, or with no path
    when auto.py is outside the session's root directory (an installed EnviroBench)."""
    path, _, name = scope.rpartition("::")
    return name == SUITE_CLASS and (path == "" or path == "auto.py" or path.endswith("/auto.py"))


def target_scope(scope: str, nodeid: str, target_ids: list[str]) -> str:
    """The work unit of a test: its target's, for a check of the automatic mode; else `scope`.

    `target_ids` longest first. A check's parameter ID joins its parameters' IDs with "-", the
    target's among them (`test_x[correct.json-table-separators:envirobench/...-v1]`)."""
    if not _is_suite_class(scope) or not nodeid.endswith("]"):
        return scope
    opened = nodeid.find("[", len(scope))
    if opened < 0:
        return scope
    params = nodeid[opened + 1 : -1]
    for target_id in target_ids:
        if params == target_id or params.startswith(target_id + "-") or params.endswith("-" + target_id) or f"-{target_id}-" in params:
            return f"{scope}[{target_id}]"
    return scope


class TargetScopeScheduling(LoadScopeScheduling):
    """xdist's loadscope, with a work unit per target of the automatic mode."""

    def __init__(self, config, log=None) -> None:
        super().__init__(config, log)
        self._target_ids = sorted({t.id for t in targets(config)}, key=len, reverse=True)

    def _split_scope(self, nodeid: str) -> str:
        return target_scope(super()._split_scope(nodeid), nodeid, self._target_ids)
