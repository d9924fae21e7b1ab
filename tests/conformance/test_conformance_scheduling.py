"""The automatic mode under pytest-xdist (`--dist loadscope`, as bin/test runs it): each target is
a work unit of its own, so the targets spread over the workers (xdist's own loadscope would make
the one parametrized class a single unit, run on one worker), while a target's checks stay
together and every other test keeps xdist's scope."""

from __future__ import annotations

import re

from envirobench import plugins
from envirobench.conformance.scheduling import target_scope

pytest_plugins = ["pytester"]

SUITE = "envirobench-core/src/envirobench/conformance/auto.py::TestInstalledBenchmarkType"
IDS = sorted(["table-separators:envirobench/table-separators-synthetic-v1", "table-separators:envirobench/table-separators-synthetic-test-v2",
              "table-cells:envirobench/table-cells-synthetic-v1", "no-dataset-type"], key=len, reverse=True)


def scope(nodeid: str) -> str:
    return target_scope(nodeid.rsplit("::", 1)[0], nodeid, IDS)


def test_each_target_is_a_unit_of_its_own_whatever_else_is_parametrized():
    v1, test_v2 = "table-separators:envirobench/table-separators-synthetic-v1", "table-separators:envirobench/table-separators-synthetic-test-v2"
    assert scope(f"{SUITE}::test_identical_runs_pass[{v1}]") == f"{SUITE}[{v1}]"
    assert scope(f"{SUITE}::test_fixture_predicts_every_case[correct.json-{v1}]") == f"{SUITE}[{v1}]"
    assert scope(f"{SUITE}::test_fixture_predicts_every_case[{v1}-wrong.json]") == f"{SUITE}[{v1}]"
    assert scope(f"{SUITE}::test_malformed_result_is_a_technical_failure[{test_v2}-missing-case]") == f"{SUITE}[{test_v2}]"
    assert scope(f"{SUITE}::test_malformed_result_is_a_technical_failure[extra-case-{test_v2}-x]") == f"{SUITE}[{test_v2}]"
    assert scope(f"{SUITE}::test_dataset_is_valid_and_has_cases[no-dataset-type]") == f"{SUITE}[no-dataset-type]"
    assert scope(f"auto.py::TestInstalledBenchmarkType::test_identical_runs_pass[{v1}]") == f"auto.py::TestInstalledBenchmarkType[{v1}]"
    # auto.py outside the session's root directory (EnviroBench installed in site-packages)
    assert scope(f"::TestInstalledBenchmarkType::test_identical_runs_pass[{v1}]") == f"::TestInstalledBenchmarkType[{v1}]"


def test_other_tests_keep_xdists_scope():
    assert scope("tests/core/test_runs.py::test_x[table-separators:envirobench/table-separators-synthetic-v1]") == "tests/core/test_runs.py"
    assert scope("tests/core/test_runs.py::TestX::test_y[a]") == "tests/core/test_runs.py::TestX"
    assert scope("tests/my_auto.py::TestInstalledBenchmarkType::test_y[table-cells:envirobench/table-cells-synthetic-v1]") == "tests/my_auto.py::TestInstalledBenchmarkType"
    assert scope(f"{SUITE}::test_unknown[something-else]") == SUITE
    assert scope("tests/test_x.py::TestInstalledBenchmarkType::test_y[table-cells:envirobench/table-cells-synthetic-v1]") == "tests/test_x.py::TestInstalledBenchmarkType"


def test_the_targets_spread_over_the_workers(pytester, monkeypatch):
    monkeypatch.delenv(plugins.LOAD_PLUGINS_ENV, raising=False)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2", "--dist", "loadscope", "--envirobench-types=table-separators",
                                           "-k", "declared_completely", "-v")
    result.assert_outcomes(passed=3)  # one per dataset of table-separators, each a unit
    workers = set(re.findall(r"\[(gw\d+)\][^\n]*PASSED", result.stdout.str()))
    assert workers == {"gw0", "gw1"}, result.stdout.str()
