"""The plugin's hook implementations: its benchmark type, dataset, viewer and adapter."""

import sys
from importlib import resources

from envirobench import hookimpl

from .adapter import ADAPTER_NAME
from .well_ids import DATASET_DIR, DATASET_ID, VIEWER_NAME, WellIds


@hookimpl
def envirobench_benchmark_types(register):
    register(WellIds)


@hookimpl
def envirobench_datasets(register):
    # Private: core refuses to upload it to a public store.
    register(DATASET_ID, DATASET_DIR, visibility="private")


@hookimpl
def envirobench_viewers(register):
    viewers = resources.files(__package__).joinpath("viewers")
    script = viewers.joinpath("well-list.js").read_text(encoding="utf-8").replace("__VIEWER_NAME__", VIEWER_NAME)
    register(VIEWER_NAME, script=script, style=viewers.joinpath("well-list.css").read_text(encoding="utf-8"))


@hookimpl
def envirobench_adapters(register):
    # The interpreter that loaded this plugin has the adapter installed.
    register(ADAPTER_NAME, [sys.executable, "-m", f"{__package__}.adapter"])
