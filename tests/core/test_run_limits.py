"""The limits a run is held to: the budget, the timeout (given or the default) and the output
limit. A limit that is not a usable number is one line of refusal before anything is made."""

from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner

from envirobench.cli import main
from envirobench.errors import EnviroBenchError
from envirobench.rundir import TimeoutRecord
from envirobench.runs import execute_run


def _run_args(fake, results, *extra):
    return ["run", "--adapter", str(fake), "--run", "r", "--model", "m", "--benchmark", "count-words",
            "--dataset", "count-words=test/count-words-v1", "--results", str(results), "--sandbox", "none", *extra]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--budget", "nan"], "--budget must be a finite number of US dollars, 0 or more, not nan"),
        (["--budget", "inf"], "--budget must be a finite number of US dollars, 0 or more, not inf"),
        (["--budget", "-inf"], "--budget must be a finite number of US dollars, 0 or more, not -inf"),
        (["--budget", "-0.01"], "--budget must be a finite number of US dollars, 0 or more, not -0.01"),
        (["--budget", "1", "--timeout", "-5"], "--timeout must be a finite number of seconds greater than 0, not -5"),
        (["--budget", "1", "--timeout", "0"], "--timeout must be a finite number of seconds greater than 0, not 0"),
        (["--budget", "1", "--timeout", "nan"], "--timeout must be a finite number of seconds greater than 0, not nan"),
        (["--budget", "1", "--timeout", "inf"], "--timeout must be a finite number of seconds greater than 0, not inf"),
        (["--budget", "1", "--max-output-mb", "inf"], "--max-output-mb must be a finite number greater than 0, not inf"),
    ],
)
def test_unusable_limits_are_one_line_and_leave_nothing(use_registry, fake, results, toy_registry, args, fragment):
    use_registry(toy_registry)
    result = CliRunner().invoke(main, _run_args(fake, results, *args))
    assert result.exit_code == 1, result.output
    assert result.output.splitlines() == [f"Error: {fragment}"]
    assert not results.exists()  # no run, no hidden .r.incomplete-* staging directory


@pytest.mark.parametrize(
    ("field", "value"),
    [("budget_usd", math.nan), ("budget_usd", math.inf), ("budget_usd", -1.0),
     ("timeout_s", -5.0), ("timeout_s", 0.0), ("timeout_s", math.nan), ("timeout_s", math.inf),
     ("max_output_mb", math.inf), ("max_output_mb", math.nan)],
)
def test_the_python_api_refuses_them_before_anything_is_made(make_spec, results, toy_registry, field, value):
    with pytest.raises(EnviroBenchError, match=f"--{field.removesuffix('_usd').removesuffix('_s').replace('_', '-')} must be a finite number"):
        execute_run(make_spec("r", **{field: value}), toy_registry)
    assert not results.exists()


def test_a_bench_profile_with_an_infinite_budget_is_refused(tmp_path):
    from envirobench.profiles import load_profile

    path = tmp_path / "bench.json"
    path.write_text('{"format": "envirobench.bench.v1", "benchmark": "count-words", "dataset": "test/count-words-v1", '
                    '"adapter": "fake", "adapters": {"fake": {"model": "m"}}, "budget_usd": 1e400, "store": "file:store"}')
    with pytest.raises(EnviroBenchError) as info:
        load_profile(path)
    assert info.value.field == "$.budget_usd" and "not inf" in info.value.message


# -- the budget --------------------------------------------------------------------------------


def test_a_budget_of_0_refuses_any_positive_cost(make_spec, results, toy_registry):
    outcome = execute_run(make_spec("tiny", budget_usd=0, options={"cost": "1e-10"}), toy_registry)
    assert outcome.status == "failed" and "spent $1e-10, over the budget of $0" in outcome.message
    assert json.loads((results / "tiny" / "run.json").read_text())["failure"]["message"] == outcome.message
    assert execute_run(make_spec("free", budget_usd=0, options={"cost": "0"}), toy_registry).status == "completed"


def test_a_positive_budget_allows_float_rounding_of_its_own_size(make_spec, toy_registry):
    # 0.1 + 0.2 is 0.30000000000000004: a cost summed from parts may exceed the budget in its last bits.
    assert execute_run(make_spec("sum", budget_usd=0.3, options={"cost": repr(0.1 + 0.2)}), toy_registry).status == "completed"
    outcome = execute_run(make_spec("over", budget_usd=0.3, options={"cost": "0.3001"}), toy_registry)
    assert outcome.status == "failed" and "spent $0.3001, over the budget of $0.3" in outcome.message


# -- the timeout: given, or the default for the tier and the run's cases -------------------------


def test_the_default_timeout_grows_with_the_cases_and_the_tier():
    from envirobench.runs import DEFAULT_TIMEOUT_BASE_S, default_timeout_s

    assert DEFAULT_TIMEOUT_BASE_S == 600
    assert [default_timeout_s(tier, 10) for tier in ("component", "document", "site")] == [600 + 600, 600 + 3_000, 600 + 72_000]
    assert default_timeout_s("component", 0) == 600 and default_timeout_s("some-new-tier", 1) == 600 + 7_200


def test_a_run_without_timeout_runs_under_the_default_and_records_it(make_spec, results, toy_registry):
    execute_run(make_spec("default"), toy_registry)  # count-words is a component type: 12 cases
    assert json.loads((results / "default" / "run.json").read_text())["timeout"] == {"seconds": 600 + 12 * 60, "default": True}
    execute_run(make_spec("partial", limit=2), toy_registry)  # a partial run: its own cases
    assert json.loads((results / "partial" / "run.json").read_text())["timeout"] == {"seconds": 600 + 2 * 60, "default": True}
    execute_run(make_spec("given", timeout_s=90), toy_registry)
    assert json.loads((results / "given" / "run.json").read_text())["timeout"] == {"seconds": 90.0, "default": False}


def test_the_default_timeout_stops_a_hung_adapter(make_spec, results, toy_registry, monkeypatch):
    from envirobench import runs

    monkeypatch.setattr(runs, "DEFAULT_TIMEOUT_BASE_S", 0.5)
    monkeypatch.setitem(runs.DEFAULT_TIMEOUT_PER_CASE_S, "component", 0.0)
    outcome = execute_run(make_spec("hung", options={"mode": "sleep"}), toy_registry)  # sleeps 30 s
    assert outcome.status == "failed" and "within the timeout of 0.5 s" in outcome.message
    assert json.loads((results / "hung" / "run.json").read_text())["timeout"] == {"seconds": 0.5, "default": True}


def test_shards_and_repeats_each_get_the_default_for_their_own_cases(use_registry, fake, results, toy_registry):
    from envirobench.merge import merge_shards
    from envirobench.rundir import read_run

    use_registry(toy_registry)
    result = CliRunner().invoke(main, _run_args(fake, results, "--budget", "1", "--repeats", "2", "--limit", "3"))
    assert result.exit_code == 0, result.output
    assert [read_run(results / f"r-{n}").timeout.seconds for n in (1, 2)] == [600 + 3 * 60] * 2
    shards = results / "shards"
    for index in range(3):
        result = CliRunner().invoke(main, _run_args(fake, shards, "--budget", "1", "--shard", f"{index}/3"))
        assert result.exit_code == 0, result.output
    parts = [read_run(shards / f"r.shard-{i}-of-3") for i in range(3)]
    assert [p.timeout.seconds for p in parts] == [600 + p.shard.cases * 60 for p in parts]
    merged = merge_shards([shards / f"r.shard-{i}-of-3" for i in range(3)], "r", toy_registry, results_dir=results / "merged")
    assert merged.status == "completed"
    # The merged run: the longest any shard was given.
    assert read_run(results / "merged" / "r").timeout == TimeoutRecord(max(p.timeout.seconds for p in parts), True)


def test_the_help_states_the_default_timeout(use_registry, toy_registry):
    use_registry(toy_registry)
    text = " ".join(CliRunner().invoke(main, ["run", "--help"]).output.split())
    assert "default: 600 s plus per case 60 s (component), 300 s (document), 7200 s (site)" in text
