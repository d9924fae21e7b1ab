"""The kit finds the type of a category whose entry point names a BenchmarkPackage (every
category since they lost their plugin.py), by the package's types alone."""

from __future__ import annotations

from envirobench import plugins
from envirobench_adapter_kit.benchmarks import find_type
from envirobench_extract.table_separators import TableSeparators


def test_a_type_of_a_benchmark_package_entry_point_is_found(monkeypatch):
    monkeypatch.setenv(plugins.LOAD_PLUGINS_ENV, "extract")
    assert isinstance(find_type("table-separators"), TableSeparators)
    monkeypatch.setenv(plugins.LOAD_PLUGINS_ENV, "legal")  # restricted to another category: not found
    assert find_type("table-separators") is None
