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

Fixture convention (envirobench.authoring): a dataset at `benchmarks/<type>/datasets/<folder>/` has
its prediction fixtures at `benchmarks/<type>/fixtures/<folder>/correct.json` and `wrong.json`
(override the `fixtures_dir` fixture to put them elsewhere).

Importing this package is cheap (the pytest plugin beside it loads in every pytest session): the
suite and its machinery are imported on first use.
"""

from __future__ import annotations

from ..lazy import lazy_exports

_EXPORTS = {
    "BenchmarkTypeConformance": "envirobench.conformance.suite",
    "ConformanceError": "envirobench.conformance.harness",
    "Harness": "envirobench.conformance.harness",
    "default_fixtures_dir": "envirobench.conformance.harness",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
__all__ = ["BenchmarkTypeConformance", "ConformanceError", "Harness", "default_fixtures_dir"]
