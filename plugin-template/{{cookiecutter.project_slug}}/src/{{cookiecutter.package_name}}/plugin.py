"""The plugin's hook implementations: its benchmark type and dataset (from the list in
package.py), its viewer and its adapter."""

import sys

from envirobench import hookimpl

from .adapter import ADAPTER_NAME
from .package import PACKAGE
from .well_ids import VIEWER_NAME


@hookimpl
def envirobench_benchmark_types(register):
    PACKAGE.register_types(register)


@hookimpl
def envirobench_datasets(register):
    PACKAGE.register_datasets(register)


@hookimpl
def envirobench_viewers(register):
    # The script names its viewer "__VIEWER_NAME__" (it is copied from the template unrendered).
    viewers = PACKAGE.directory / "viewers"
    script = (viewers / "well-list.js").read_text(encoding="utf-8").replace("__VIEWER_NAME__", VIEWER_NAME)
    register(VIEWER_NAME, script=script, style=(viewers / "well-list.css").read_text(encoding="utf-8"))


@hookimpl
def envirobench_adapters(register):
    # The interpreter that loaded this plugin has the adapter installed.
    register(ADAPTER_NAME, [sys.executable, "-m", f"{__package__}.adapter"])
