"""Names on the command line (issue 36, finding 9): shell completion of benchmark, dataset,
adapter and profile names, and "did you mean" for an unknown one."""

from __future__ import annotations

from click.shell_completion import ShellComplete
from click.testing import CliRunner

from envirobench import plugins
from envirobench.cli import main
from envirobench.cli.names import did_you_mean, with_suggestion
from envirobench.testing import adapters_plugin, toy_plugin


def registry_with(count_dataset, fake):
    return plugins.build_registry(extra=[
        ("toy", toy_plugin(("test/count-words-v1", count_dataset), ("test/count-words-v2", count_dataset))),
        ("fakes", adapters_plugin(reference=str(fake), fake=str(fake))),
    ])


def completions(args: list[str], incomplete: str) -> list[str]:
    return [item.value for item in ShellComplete(main, {}, "envirobench", "_ENVIROBENCH_COMPLETE").get_completions(args, incomplete)]


def test_names_are_completed(use_registry, count_dataset, fake):
    use_registry(registry_with(count_dataset, fake))
    assert completions(["run", "--benchmark"], "count") == ["count-words"]
    assert completions(["run", "--adapter"], "") == ["fake", "reference"]
    assert completions(["run", "--adapter"], "re") == ["reference"]
    assert completions(["run", "--benchmark", "count-words", "--dataset"], "") == ["count-words="]
    assert completions(["run", "--dataset"], "count-words=test/") == ["count-words=test/count-words-v1", "count-words=test/count-words-v2"]
    assert completions(["validate-dataset"], "test/count-words-v") == ["test/count-words-v1", "test/count-words-v2"]
    assert completions(["datasets", "pull"], "test/") == ["test/count-words-v1", "test/count-words-v2"]
    assert completions(["bench", "run", "x", "--adapter"], "f") == ["fake"]


def test_profile_names_are_completed_from_the_installed_plugins(monkeypatch, tmp_path):
    bench = tmp_path / "benchmarks"
    for name in ("table-separators", "table-cells"):
        (bench / name).mkdir(parents=True)
        (bench / name / "bench.json").write_text("{}")
    monkeypatch.setattr("envirobench.cli.names.installed_profiles", lambda: [("extract", p) for p in sorted(bench.glob("*/bench.json"))])
    assert completions(["bench", "run"], "table-") == ["table-cells", "table-separators"]
    assert completions(["bench", "promote"], "table-s") == ["table-separators"]


def test_unknown_names_get_did_you_mean(use_registry, count_dataset, fake, tmp_path):
    use_registry(registry_with(count_dataset, fake))
    run = ["run", "--run", "r", "--model", "m", "--budget", "0", "--results", str(tmp_path / "results")]
    result = CliRunner().invoke(main, [*run, "--adapter", "refrence", "--benchmark", "count-words", "--dataset", "count-words=test/count-words-v1"])
    assert result.exit_code == 1, result.output
    assert result.stderr.splitlines() == [
        "Error: unknown adapter 'refrence' (did you mean 'reference'?): not a registered adapter (fake, reference) nor an executable"
    ]
    result = CliRunner().invoke(main, [*run, "--adapter", "fake", "--benchmark", "count-word", "--dataset", "count-word=test/count-words-v1"])
    assert result.exit_code == 1 and "unknown benchmark type 'count-word' (did you mean 'count-words'?); registered: count-words" in result.stderr
    result = CliRunner().invoke(main, ["validate-dataset", "test/count-word-v1"])
    assert result.exit_code == 1
    assert "unknown dataset 'test/count-word-v1' (did you mean 'test/count-words-v1' or 'test/count-words-v2'?)" in result.stderr
    # Nothing close: core's message as it was.
    result = CliRunner().invoke(main, ["validate-dataset", "zzz"])
    assert "did you mean" not in result.stderr and "unknown dataset 'zzz': not a registered dataset" in result.stderr


def test_suggestions_never_fail():
    assert did_you_mean("tabel-cells", ["table-cells", "table-separators"]) == " (did you mean 'table-cells'?)"
    assert did_you_mean("x", []) == ""
    registry = plugins.build_registry(extra=[])
    assert with_suggestion("unknown adapter 'it''s': oops", registry) == "unknown adapter 'it''s': oops"
    assert with_suggestion("something else", registry) == "something else"
