"""Package plugins' declarations (envirobench.declaration): `envirobench --help`, `plugins list`
and `datasets` read what a package registers from its declared.json, without importing its
scoring code, and show exactly what importing it would; a declaration that no longer says what
its package registers is refused."""

from __future__ import annotations

import json
import sys
import types

import pytest
from click.testing import CliRunner

from envirobench import declaration, plugins
from envirobench.authoring import BenchmarkPackage
from envirobench.cli import main
from envirobench.errors import EnviroBenchError
from envirobench.testing import toy_plugin

PACKAGE_MODULE = '''
from envirobench import BenchmarkPackage

from .count import CountWords

PACKAGE = BenchmarkPackage("{name}", types=(CountWords,))
'''
TYPE_MODULE = '''
from envirobench.testing import CountWords as Base

DATASETS = {{"synthetic-v1": "test/count-words-v1"}}


class CountWords(Base):
    pass
'''


class EntryPoint:
    """An installed entry point as importlib.metadata describes it: `value` names the object."""

    def __init__(self, name, value):
        self.name, self.value = name, value
        self.dist = types.SimpleNamespace(name=f"{name}-dist", version="1.0")

    def load(self):
        module, _, attribute = self.value.partition(":")
        __import__(module)
        return getattr(sys.modules[module], attribute)


@pytest.fixture
def package(tmp_path, monkeypatch, count_dataset):
    """A package plugin `pkgdecl` on sys.path, installed (its only entry point), with its
    count-words dataset and a declared.json written from it; yields (entry point, declaration path)."""
    name = "pkgdecl"
    root = tmp_path / "site" / name
    (root / "benchmarks" / "count-words" / "datasets").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "package.py").write_text(PACKAGE_MODULE.format(name=name))
    (root / "count.py").write_text(TYPE_MODULE.format(name=name))
    (root / "benchmarks" / "count-words" / "datasets" / "synthetic-v1").symlink_to(count_dataset)
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    entry_point = EntryPoint("decl", f"{name}.package:PACKAGE")
    monkeypatch.setattr(plugins.metadata, "entry_points", lambda group: [entry_point] if group == plugins.ENTRY_POINT_GROUP else [])
    monkeypatch.delenv(plugins.LOAD_PLUGINS_ENV, raising=False)
    loaded = entry_point.load()
    path = root / declaration.FILE
    path.write_text(declaration.render(declaration.declaration_of(loaded, entry_point.value)))
    for module in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
        monkeypatch.delitem(sys.modules, module)
    yield entry_point, path
    for module in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
        del sys.modules[module]


def test_the_declared_registry_lists_a_package_without_importing_it(package):
    registry = plugins.build_registry(declared=True)
    assert "pkgdecl.count" not in sys.modules and "pkgdecl.package" not in sys.modules
    assert registry.benchmark_types == {} and list(registry.declared_types) == ["count-words"]
    imported = plugins.build_registry()
    assert "pkgdecl.count" in sys.modules
    assert registry.plugins == imported.plugins
    assert registry.registered_by("decl") == imported.registered_by("decl") == {
        "benchmark_types": ["count-words"], "datasets": ["test/count-words-v1"], "viewers": [], "stores": [], "adapters": [], "commands": []}
    assert registry.datasets == imported.datasets


def test_plugins_list_and_datasets_read_the_declaration(package):
    listed = CliRunner().invoke(main, ["plugins", "list"])
    datasets = CliRunner().invoke(main, ["datasets", "--json"])
    assert listed.exit_code == 0 and datasets.exit_code == 0
    assert "decl  (decl-dist 1.0)\n  hooks: envirobench_benchmark_types, envirobench_datasets, envirobench_viewers\n" \
           "  benchmark types: count-words\n  datasets: test/count-words-v1\n" in listed.output
    assert [(row["id"], row["plugin"], row["benchmark"]) for row in json.loads(datasets.output)] == [("test/count-words-v1", "decl", "count-words")]
    assert "pkgdecl.count" not in sys.modules


def test_a_declaration_that_no_longer_says_what_its_package_registers_is_refused(package):
    _, path = package
    stale = json.loads(path.read_text())
    stale["types"][0]["datasets"] = {"synthetic-v1": "pkgdecl/renamed-v1"}
    path.write_text(json.dumps(stale))
    with pytest.raises(EnviroBenchError, match="declared.json does not say what its package registers; regenerate it with `python -m envirobench.declaration`"):
        plugins.build_registry()


def test_a_declaration_of_another_entry_point_is_not_read(package):
    _, path = package
    other = json.loads(path.read_text())
    other["entry_point"] = "pkgdecl.elsewhere:PACKAGE"
    path.write_text(json.dumps(other))
    assert list(plugins.build_registry(declared=True).benchmark_types) == ["count-words"]  # imported instead


def test_a_declared_type_is_refused_twice_like_an_imported_one(package, count_dataset):
    with pytest.raises(EnviroBenchError, match="benchmark type 'count-words' is registered twice: by plugin 'decl' and by plugin 'toy'"):
        plugins.build_registry(extra=[("toy", toy_plugin(("test/count-words-v1", count_dataset)))], declared=True)


def installed_packages() -> list[tuple[str, BenchmarkPackage]]:
    found = []
    for entry_point in plugins.installed_entry_points():
        loaded = entry_point.load()
        if isinstance(loaded, BenchmarkPackage):
            found.append((entry_point.value, loaded))
    return found


def test_every_installed_package_declares_what_it_registers():
    packages = installed_packages()
    assert packages, "no category package is installed"
    for value, package in packages:
        path = declaration.path_for(value)
        assert path is not None and path.is_file(), f"{value}: no {declaration.FILE}; write it with `{declaration.REGENERATE}`"
        assert json.loads(path.read_text()) == declaration.declaration_of(package, value), f"{path} is stale: `{declaration.REGENERATE}`"


def test_with_every_plugin_the_declared_registry_shows_what_loading_them_registers(monkeypatch):
    monkeypatch.delenv(plugins.LOAD_PLUGINS_ENV, raising=False)
    declared, imported = plugins.build_registry(declared=True), plugins.build_registry()
    assert declared.plugins == imported.plugins and declared.failures == imported.failures
    for info in imported.plugins:
        assert declared.registered_by(info.name) == imported.registered_by(info.name), info.name
    assert declared.datasets == imported.datasets and declared.viewers == imported.viewers


@pytest.mark.parametrize("argv", [["--help"], ["plugins", "list"], ["datasets"]])
def test_listing_commands_import_no_package_type_module(argv, modules_imported_by):
    type_modules = sorted({t.module for value, _ in installed_packages() for t in declaration.read(_entry_point(value)).types})
    env = {k: v for k, v in __import__("os").environ.items() if k != plugins.LOAD_PLUGINS_ENV}
    loaded = modules_imported_by(argv, env)
    assert type_modules and not loaded & set(type_modules)
    assert not {m for m in loaded if ".generate" in m or m in ("envirobench.runs", "envirobench.scoring", "envirobench.schemas")}


def _entry_point(value: str):
    return next(ep for ep in plugins.installed_entry_points() if ep.value == value)


def test_a_declared_type_asked_for_imports_its_package_and_only_then(package):
    registry = plugins.build_registry(declared=True)
    assert "pkgdecl.count" not in sys.modules
    btype = registry.benchmark_type("count-words")
    assert type(btype) is sys.modules["pkgdecl.count"].CountWords
    assert registry.benchmark_types["count-words"] == (type(btype), "decl") and registry.declared_types == {}
    assert registry.registered_by("decl")["benchmark_types"] == ["count-words"]


def test_validate_dataset_imports_only_the_package_of_the_datasets_type(package):
    validated = CliRunner().invoke(main, ["validate-dataset", "test/count-words-v1", "--json"])
    assert validated.exit_code == 0, validated.output
    assert "pkgdecl.count" in sys.modules
    plugins.reset_registry()
    with plugins.using_registry(plugins.build_registry()):
        assert CliRunner().invoke(main, ["validate-dataset", "test/count-words-v1", "--json"]).output == validated.output


def test_a_stale_declaration_is_refused_when_its_type_is_asked_for(package):
    _, path = package
    registry = plugins.build_registry(declared=True)
    stale = json.loads(path.read_text())
    stale["types"][0]["viewer"] = "table-grid"
    path.write_text(json.dumps(stale))
    with pytest.raises(EnviroBenchError, match="declared.json does not say what its package registers"):
        registry.benchmark_type("count-words")
