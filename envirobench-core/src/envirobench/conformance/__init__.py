"""The EnviroBench conformance suite: the same checks for every benchmark type, public or private.

Two ways to run it (see docs/writing-a-plugin.md):

- In a plugin's own tests, subclass `BenchmarkTypeConformance` and provide two fixtures:

      from envirobench.conformance import BenchmarkTypeConformance

      class TestWellIds(BenchmarkTypeConformance):
          @pytest.fixture
          def benchmark_type_id(self):
              return "acme-well-ids"

          @pytest.fixture
          def dataset_id(self):
              return "acme/well-ids-synthetic-v1"

- Over every installed type: `pytest --envirobench-conformance`, or only some of them:
  `pytest --envirobench-types=table-separators,acme-well-ids`. The pytest plugin is loaded from
  the `pytest11` entry point `envirobench` (`-p envirobench` where plugin autoloading is off).

Fixture convention: a dataset at `benchmarks/<type>/datasets/<name>/` has its prediction
fixtures at `benchmarks/<type>/fixtures/correct.json` and `wrong.json` (override the
`fixtures_dir` fixture to put them elsewhere).

Importing this package is cheap: the suite and its machinery are imported on first use.
"""

from __future__ import annotations

from typing import Any

__all__ = ["BenchmarkTypeConformance", "Harness", "default_fixtures_dir"]


def __getattr__(name: str) -> Any:
    if name == "BenchmarkTypeConformance":
        from .suite import BenchmarkTypeConformance

        return BenchmarkTypeConformance
    if name in ("Harness", "default_fixtures_dir"):
        from . import harness

        return getattr(harness, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
