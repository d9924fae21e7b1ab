from __future__ import annotations

import json
import types

import pytest
from click.testing import CliRunner

from envirobench import hookimpl, plugins
from envirobench.cli import main
from envirobench.errors import EnviroBenchError
from envirobench.testing import CountWords, toy_plugin


def test_core_registers_its_viewers_like_any_plugin():
    registry = plugins.build_registry()
    assert [p.name for p in registry.plugins] == ["envirobench-core"]
    assert set(registry.viewers) == {"image-overlay", "table-grid", "json"}
    assert registry.registered_by("envirobench-core")["viewers"] == ["image-overlay", "json", "table-grid"]


def test_registrations_are_attributed_to_their_plugin(count_dataset):
    registry = plugins.build_registry(extra=[("toy", toy_plugin(("test/count-words-v1", count_dataset)))])
    assert registry.benchmark_types["count-words"] == (CountWords, "toy")
    assert registry.datasets["test/count-words-v1"].plugin == "toy"
    assert registry.registered_by("toy")["benchmark_types"] == ["count-words"]


def test_duplicate_type_id_names_both_plugins():
    with pytest.raises(EnviroBenchError) as info:
        plugins.build_registry(extra=[("first", toy_plugin()), ("second", toy_plugin())])
    message = str(info.value)
    assert "'count-words'" in message and "'first'" in message and "'second'" in message


def test_duplicate_viewer_against_core_names_core():
    @hookimpl
    def envirobench_viewers(register):
        register("json", script="", style="")

    with pytest.raises(EnviroBenchError, match="viewer 'json' is registered twice: by plugin 'envirobench-core' and by plugin 'mine'"):
        plugins.build_registry(extra=[("mine", types.SimpleNamespace(envirobench_viewers=envirobench_viewers))])


def test_misspelled_hook_fails_loudly():
    @hookimpl
    def envirobench_dataset(register):  # missing "s"
        pass

    with pytest.raises(EnviroBenchError, match="unknown hook"):
        plugins.build_registry(extra=[("typo", types.SimpleNamespace(envirobench_dataset=envirobench_dataset))])


@pytest.mark.parametrize(
    ("declaration", "message"),
    [({"TIER": "galaxy"}, "TIER must be one of"), ({"VIEWER": "hologram"}, "viewer 'hologram'")],
    ids=["unknown-tier", "unknown-viewer"],
)
def test_a_type_declaring_what_core_does_not_know_is_refused_at_registration(declaration, message):
    broken = type("Broken", (CountWords,), declaration)

    @hookimpl
    def envirobench_benchmark_types(register):
        register(broken)

    with pytest.raises(EnviroBenchError, match=message):
        plugins.build_registry(extra=[("broken", types.SimpleNamespace(envirobench_benchmark_types=envirobench_benchmark_types))])


def test_load_plugins_allow_list(monkeypatch):
    monkeypatch.setenv(plugins.LOAD_PLUGINS_ENV, "some-other-dist")
    assert plugins.allowed_distributions() == {"some-other-dist"}
    monkeypatch.setenv(plugins.LOAD_PLUGINS_ENV, "")
    assert plugins.allowed_distributions() == set()
    monkeypatch.delenv(plugins.LOAD_PLUGINS_ENV)
    assert plugins.allowed_distributions() is None


def test_plugins_list_cli_json_with_no_plugins():
    result = CliRunner().invoke(main, ["plugins", "list", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert [r["distribution"] for r in rows] == ["envirobench-core"]
    assert rows[0]["hooks"] == ["envirobench_stores", "envirobench_viewers"]
    assert rows[0]["registered"]["stores"] == ["file", "s3"]


def test_benchmarks_cli_lists_registered_type(use_registry, monkeypatch, toy_registry):
    use_registry(toy_registry)
    result = CliRunner().invoke(main, ["benchmarks", "--json"])
    assert result.exit_code == 0
    (row,) = json.loads(result.output)
    assert row["id"] == "count-words" and row["profiles"] == ["exact", "near"] and row["plugin"] == "toy"


def test_help_short_option():
    result = CliRunner().invoke(main, ["-h"])
    assert result.exit_code == 0 and "Usage" in result.output


class FakeEntryPoint:
    """An installed plugin as importlib.metadata describes it; load() imports `module` or fails."""

    def __init__(self, name, dist, module=None, error=None):
        self.name, self.module, self.error = name, module, error
        self.dist = types.SimpleNamespace(name=dist, version="9.9")

    def load(self):
        if self.error:
            raise self.error
        return self.module


@pytest.fixture
def installed(monkeypatch, count_dataset):
    """installed(*entry_points): make these the installed plugins of the `envirobench` group."""

    def install(*entry_points):
        monkeypatch.setattr(plugins.metadata, "entry_points", lambda group: list(entry_points) if group == plugins.ENTRY_POINT_GROUP else [])
        monkeypatch.delenv(plugins.LOAD_PLUGINS_ENV, raising=False)

    return install


def test_a_plugin_that_fails_to_import_is_skipped_and_reported(installed, count_dataset, use_registry):
    installed(
        FakeEntryPoint("toy", "toy-dist", toy_plugin(("test/count-words-v1", count_dataset))),
        FakeEntryPoint("broken", "broken-dist", error=ImportError("No module named 'numpyy'")),
    )
    registry = plugins.build_registry()
    assert "count-words" in registry.benchmark_types
    assert [(f.name, f.distribution, f.error) for f in registry.failures] == [("broken", "broken-dist", "ImportError: No module named 'numpyy'")]
    with pytest.raises(EnviroBenchError, match="plugin\\(s\\) that failed to load: broken \\(ImportError"):
        registry.benchmark_type("table-separators")
    use_registry(registry)
    listed = CliRunner().invoke(main, ["plugins", "list"])
    assert listed.exit_code == 0 and "broken  (broken-dist 9.9)\n  failed to load, skipped: ImportError: No module named 'numpyy'" in listed.output
    rows = {row["name"]: row for row in json.loads(CliRunner().invoke(main, ["plugins", "list", "--json"]).output)}
    assert rows["broken"]["error"].startswith("ImportError") and rows["toy"]["error"] is None


@pytest.mark.parametrize("name", ["toy", "toy-dist", "Toy_Dist"])
def test_load_plugins_accepts_entry_point_and_distribution_names(installed, count_dataset, monkeypatch, name):
    installed(FakeEntryPoint("toy", "toy-dist", toy_plugin(("test/count-words-v1", count_dataset))), FakeEntryPoint("other", "other-dist", types.SimpleNamespace()))
    monkeypatch.setenv(plugins.LOAD_PLUGINS_ENV, name)
    registry = plugins.build_registry()
    assert [p.name for p in registry.plugins] == ["envirobench-core", "toy"] and registry.warnings == []


def test_load_plugins_warns_on_a_name_that_matches_nothing(installed, count_dataset, monkeypatch):
    installed(FakeEntryPoint("toy", "toy-dist", toy_plugin(("test/count-words-v1", count_dataset))))
    monkeypatch.setenv(plugins.LOAD_PLUGINS_ENV, "toy,extrakt")
    registry = plugins.build_registry()
    assert [p.name for p in registry.plugins] == ["envirobench-core", "toy"]
    assert registry.warnings == ["ENVIROBENCH_LOAD_PLUGINS names 'extrakt', which is no installed plugin (installed: toy (toy-dist))"]


def test_top_level_help_lists_exit_statuses_and_completion():
    result = CliRunner().invoke(main, ["--help"])
    assert "3 the gate did not pass under --require-no-regressions" in result.output
    assert "_ENVIROBENCH_COMPLETE=bash_source envirobench" in result.output


def test_datasets_with_nothing_installed_says_how_to_install_a_category():
    result = CliRunner().invoke(main, ["datasets"])
    assert result.exit_code == 0 and "install a category package (pip install envirobench-extract)" in result.stderr


def test_commands_warn_once_about_a_plugin_that_failed_to_load(installed, count_dataset, use_registry):
    installed(FakeEntryPoint("broken", "broken-dist", error=ImportError("No module named 'numpyy'")))
    use_registry(plugins.build_registry())
    runner = CliRunner()
    first = runner.invoke(main, ["benchmarks"])
    assert first.exit_code == 0
    assert "warning: plugin 'broken' (broken-dist 9.9) failed to load and is skipped: ImportError: No module named 'numpyy'" in first.stderr
    assert "warning" not in runner.invoke(main, ["benchmarks"]).stderr  # said once per registry


@pytest.mark.parametrize(
    ("folder", "split"),
    [("synthetic-dev-v1", "dev"), ("synthetic-test-v1", "test"), ("synthetic-v1", None), ("devices-v1", None),
     ("contest-v2", None), ("dev-and-test-v1", None)],
)
def test_a_dataset_folder_declares_its_split_by_a_word_of_its_name(folder, split):
    from envirobench.authoring import split_of

    assert split_of(folder) == split
