"""Core's own plugin: it registers core's viewers and store schemes the same way any plugin would."""

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


def _file_store(url, visibility):
    # Imported here, when a store is opened: loading the plugins (`envirobench --help`) needs
    # none of the stores' code.
    from .stores.file import FileStore

    return FileStore.from_url(url, visibility)


def _s3_store(url, visibility):
    # Imported here, when an s3:// store is opened: boto3 is optional and slow to import.
    from .stores.s3 import S3Store

    return S3Store.from_url(url, visibility)


@hookimpl
def envirobench_stores(register):
    register("file", _file_store)
    register("s3", _s3_store)
