"""The Site category's hook implementations: its benchmark types, shipped datasets and viewers,
all from the one list in package.py."""

from envirobench import hookimpl

from .package import PACKAGE


@hookimpl
def envirobench_benchmark_types(register):
    PACKAGE.register_types(register)


@hookimpl
def envirobench_datasets(register):
    PACKAGE.register_datasets(register)


@hookimpl
def envirobench_viewers(register):
    PACKAGE.register_viewers(register)
