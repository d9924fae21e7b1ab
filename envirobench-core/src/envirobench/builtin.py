"""Core's own plugin: it registers core's viewers the same way any plugin would."""

from __future__ import annotations

from importlib import resources

from .hookspecs import hookimpl

CORE_VIEWERS = ("image-overlay", "table-grid", "json")


def _viewer_source(name: str, suffix: str) -> str:
    return resources.files("envirobench.viewers").joinpath(f"{name}{suffix}").read_text(encoding="utf-8")


@hookimpl
def envirobench_viewers(register):
    for name in CORE_VIEWERS:
        register(name, script=_viewer_source(name, ".js"), style=_viewer_source(name, ".css"))
