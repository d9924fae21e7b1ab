"""envirobench-verify as a distribution: its metadata and licence, the one list of types that is
exactly the Verify category's tasks, what its plugin registers, and its imports (core's public
API only; the synth toolkit only in its generators; no other category). The wheel installed alone
with core is checked end to end by tests/e2e/test_dist.py."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

from envirobench import build_registry, categories
from envirobench_verify.package import PACKAGE

REPO = Path(__file__).resolve().parents[2]
PROJECT = REPO / "envirobench-verify"
SOURCE = PROJECT / "src" / "envirobench_verify"
PUBLIC = {"envirobench", "envirobench.conformance"}
OTHER_CATEGORIES = ("envirobench_extract", "envirobench_legal", "envirobench_reference_adapter")


def test_the_project_metadata_is_that_of_a_category():
    meta = tomllib.loads((PROJECT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert meta["name"] == "envirobench-verify" and meta["license"] == "Apache-2.0"
    assert "Typing :: Typed" in meta["classifiers"] and (SOURCE / "py.typed").is_file()
    assert sorted(meta["dependencies"]) == [
        "attrs>=24.2",
        "envirobench-core>=0.2,<0.3",
    ]  # scoring needs core only
    # Regenerating needs the synth toolkit and the OCR engine ocr-auto-accept's readings were made
    # with, at exactly that version.
    assert meta["optional-dependencies"]["generate"] == [
        "envirobench-synth>=0.2,<0.3",
        "rapidocr==3.10.0",
        "onnxruntime==1.32.0",
    ]
    assert meta["entry-points"]["envirobench"] == {"verify": "envirobench_verify.plugin"}
    assert (PROJECT / "LICENSE").read_text(encoding="utf-8") == (REPO / "LICENSE").read_text(
        encoding="utf-8"
    )
    assert len((PROJECT / "README.md").read_text(encoding="utf-8")) > 200


def test_the_workspace_installs_it():
    # bin/dist and bin/check_dist.py (the integrator's) are checked once they list the category.
    root = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert "envirobench-verify" in root["project"]["dependencies"]
    assert "envirobench-verify" in root["tool"]["uv"]["workspace"]["members"]
    assert root["tool"]["uv"]["sources"]["envirobench-verify"] == {"workspace": True}


def test_the_package_lists_exactly_the_verify_tasks_with_their_tiers():
    verify = next(c for c in categories.CATEGORIES if c.name == "Verify")
    assert verify.package == "envirobench-verify"
    assert sorted(PACKAGE.layouts) == sorted(task.id for task in verify.tasks)
    for cls in PACKAGE.types:
        assert categories.disagreements(cls.ID, cls.LABEL, cls.TIER) == [], cls.ID


def test_the_plugin_registers_every_type_its_dev_and_test_datasets_and_viewers(monkeypatch):
    monkeypatch.setenv("ENVIROBENCH_LOAD_PLUGINS", "envirobench-verify")
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
