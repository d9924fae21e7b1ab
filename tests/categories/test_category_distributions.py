"""Every category distribution, checked the same way: its metadata and licence, the one list of
types that is exactly its category's tasks (with their tiers), what its plugin registers, and its
imports (core's public API only; the synth toolkit only in its generators; no other category and
not the reference adapter). The categories checked are those bin/check_dist.py ships; each wheel
installed alone with core is checked end to end by tests/e2e/test_dist.py."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import tomllib
from pathlib import Path

import pytest

from envirobench import build_registry, categories

REPO = Path(__file__).resolve().parents[2]
PUBLIC = {"envirobench", "envirobench.conformance"}
SYNTH = "envirobench-synth>=0.2,<0.3"
# What regenerating a category's datasets needs beyond the synth toolkit (the [generate] extra):
# Extract draws its page images itself; Verify pins the OCR engine its readings were made with.
GENERATE_EXTRAS = {
    "envirobench-extract": [SYNTH, "numpy>=2.0", "pillow>=11.0"],
    "envirobench-verify": [SYNTH, "rapidocr==3.10.0", "onnxruntime==1.32.0"],
}


def _distributions() -> dict[str, tuple[str, str, bool]]:
    """bin/check_dist.py's DISTRIBUTIONS: name -> (project directory, import package, is a category)."""
    spec = importlib.util.spec_from_file_location("check_dist", REPO / "bin" / "check_dist.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.DISTRIBUTIONS


DISTRIBUTIONS = _distributions()
SHIPPED = {name: entry for name, entry in DISTRIBUTIONS.items() if entry[2]}
CATEGORIES = [c for c in categories.CATEGORIES if c.package in SHIPPED]
ALL_PACKAGES = {entry[1] for entry in DISTRIBUTIONS.values()} - {"envirobench", "envirobench_synth"}


def test_every_category_is_shipped():
    assert {c.package for c in categories.CATEGORIES} == set(SHIPPED)


def _parts(category):
    project, module, _ = SHIPPED[category.package]
    return REPO / project, REPO / project / "src" / module, module


@pytest.fixture(params=CATEGORIES, ids=lambda c: c.id)
def category(request):
    return request.param


def test_the_project_metadata_is_that_of_a_category(category):
    project, source, module = _parts(category)
    meta = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert meta["name"] == category.package and meta["license"] == "Apache-2.0"
    assert "Typing :: Typed" in meta["classifiers"] and (source / "py.typed").is_file()
    assert sorted(meta["dependencies"]) == ["attrs>=24.2", "envirobench-core>=0.2,<0.3"]  # scoring needs core only
    assert meta["optional-dependencies"]["generate"] == GENERATE_EXTRAS.get(category.package, [SYNTH])
    assert meta["entry-points"]["envirobench"] == {category.id: f"{module}.package:PACKAGE"}  # no hook module
    assert (project / "LICENSE").read_text(encoding="utf-8") == (REPO / "LICENSE").read_text(encoding="utf-8")
    assert len((project / "README.md").read_text(encoding="utf-8")) > 200


def test_the_workspace_installs_it(category):
    root = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert category.package in root["project"]["dependencies"]
    assert category.package in root["tool"]["uv"]["workspace"]["members"]
    assert root["tool"]["uv"]["sources"][category.package] == {"workspace": True}


def test_the_package_lists_exactly_the_category_tasks_with_their_tiers(category):
    package = importlib.import_module(_parts(category)[2] + ".package").PACKAGE
    tasks = {task.id: task for task in category.tasks}
    assert sorted(package.layouts) == sorted(tasks)
    for cls in package.types:
        assert categories.disagreements(cls.ID, cls.LABEL, cls.TIER) == [], cls.ID
        assert tasks[cls.ID].tier == cls.TIER, cls.ID


def test_the_plugin_registers_every_type_its_dev_and_test_datasets_and_viewers(category, monkeypatch):
    package = importlib.import_module(_parts(category)[2] + ".package").PACKAGE
    monkeypatch.setenv("ENVIROBENCH_LOAD_PLUGINS", category.package)
    registry = build_registry()
    assert sorted(registry.benchmark_types) == sorted(package.layouts)
    for type_id, layout in package.layouts.items():
        splits = {registry.datasets[dataset_id].split for dataset_id in layout.datasets.values()}
        assert {"dev", "test"} <= splits, type_id
        assert registry.benchmark_type(type_id).VIEWER in registry.viewers, type_id
        assert layout.profile.is_file(), f"{type_id} has no bench.json"


def _imports(path: Path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level:
            yield node.module or ""


def test_modules_import_core_through_its_public_api_and_synth_only_to_generate(category):
    _, source, module = _parts(category)
    others = ALL_PACKAGES - {module}
    for path in sorted(source.rglob("*.py")):
        generator = "generate" in path.relative_to(source).parts
        for name in _imports(path):
            top = name.split(".")[0]
            where = str(path.relative_to(REPO))
            if top == "envirobench":
                assert name in PUBLIC, f"{where} imports {name}: plugins use the public API (docs/api.md)"
            assert top not in others, f"{where} imports another category or the adapter: {name}"
            if top == "envirobench_synth":
                assert generator, f"{where} imports {name}: only the generators may need the [generate] extra"
