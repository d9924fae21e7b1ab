"""envirobench-locate as a distribution: its metadata and licence, the one list of types that is
exactly the Locate category's tasks, what its plugin registers, and its imports (core's public
API only; the synth toolkit only in its generators; no other category). The wheel installed alone
with core is checked end to end by tests/e2e/test_dist.py."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

from envirobench import build_registry, categories
from envirobench_locate.package import PACKAGE

REPO = Path(__file__).resolve().parents[2]
PROJECT = REPO / "envirobench-locate"
SOURCE = PROJECT / "src" / "envirobench_locate"
PUBLIC = {"envirobench", "envirobench.conformance"}
OTHER_CATEGORIES = ("envirobench_extract", "envirobench_legal", "envirobench_reference_adapter")


def test_the_project_metadata_is_that_of_a_category():
    meta = tomllib.loads((PROJECT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert meta["name"] == "envirobench-locate" and meta["license"] == "Apache-2.0"
    assert "Typing :: Typed" in meta["classifiers"] and (SOURCE / "py.typed").is_file()
    assert sorted(meta["dependencies"]) == [
        "attrs>=24.2",
        "envirobench-core>=0.2,<0.3",
    ]  # scoring needs core only
    assert meta["optional-dependencies"]["generate"] == ["envirobench-synth>=0.2,<0.3"]
    assert meta["entry-points"]["envirobench"] == {"locate": "envirobench_locate.plugin"}
    assert (PROJECT / "LICENSE").read_text(encoding="utf-8") == (REPO / "LICENSE").read_text(
        encoding="utf-8"
    )
    assert len((PROJECT / "README.md").read_text(encoding="utf-8")) > 200


def test_the_workspace_installs_it():
    root = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert "envirobench-locate" in root["project"]["dependencies"]
    assert "envirobench-locate" in root["tool"]["uv"]["workspace"]["members"]
    assert root["tool"]["uv"]["sources"]["envirobench-locate"] == {"workspace": True}
    # bin/dist builds every member the root pyproject lists; check_dist names each distribution
    assert '"envirobench-locate": ("envirobench-locate", "envirobench_locate", True)' in (
        REPO / "bin" / "check_dist.py"
    ).read_text(encoding="utf-8")


def test_the_package_lists_exactly_the_locate_tasks_with_their_tiers():
    locate = next(c for c in categories.CATEGORIES if c.name == "Locate")
    assert locate.package == "envirobench-locate"
    assert sorted(PACKAGE.layouts) == sorted(task.id for task in locate.tasks)
    for cls in PACKAGE.types:
        assert categories.disagreements(cls.ID, cls.LABEL, cls.TIER) == [], cls.ID


def test_the_plugin_registers_every_type_its_dev_and_test_datasets_and_viewers(monkeypatch):
    monkeypatch.setenv("ENVIROBENCH_LOAD_PLUGINS", "envirobench-locate")
    registry = build_registry()
    assert sorted(registry.benchmark_types) == sorted(PACKAGE.layouts)
    for type_id, layout in PACKAGE.layouts.items():
        splits = {registry.datasets[dataset_id].split for dataset_id in layout.datasets.values()}
        assert splits == {"dev", "test"}, type_id
        assert registry.benchmark_type(type_id).VIEWER in registry.viewers, type_id
        assert layout.profile.is_file(), f"{type_id} has no bench.json"


def _imports(path: Path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level:
            yield node.module or ""


@pytest.mark.parametrize(
    "path", sorted(SOURCE.rglob("*.py")), ids=lambda p: str(p.relative_to(SOURCE))
)
def test_modules_import_core_through_its_public_api_and_synth_only_to_generate(path):
    generator = "generate" in path.relative_to(SOURCE).parts
    for name in _imports(path):
        top = name.split(".")[0]
        if top == "envirobench":
            assert name in PUBLIC, (
                f"{path.name} imports {name}: plugins use the public API (docs/api.md)"
            )
        assert top not in OTHER_CATEGORIES, (
            f"{path.name} imports another category or the adapter: {name}"
        )
        if top == "envirobench_synth":
            assert generator, (
                f"{path.name} imports {name}: only the generators may need the [generate] extra"
            )
