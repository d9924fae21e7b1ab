"""Generated documentation must match the code: a drift fails here, with the command to fix it."""

from __future__ import annotations

import json
from pathlib import Path

from envirobench.plugins import build_registry
from envirobench.schemas import all_schemas

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_committed_schemas_match_the_classes():
    expected = all_schemas(build_registry())
    committed = {p.relative_to(DOCS / "schemas").as_posix() for p in (DOCS / "schemas").rglob("*.json")}
    assert committed == set(expected), "run: envirobench schemas --output docs/schemas"
    for name, schema in expected.items():
        on_disk = json.loads((DOCS / "schemas" / name).read_text())
        assert on_disk == schema, f"docs/schemas/{name} is stale; run: envirobench schemas --output docs/schemas"


def test_every_installed_type_has_schemas():
    registry = build_registry()
    for type_id in registry.benchmark_types:
        assert (DOCS / "schemas" / type_id / "prediction.schema.json").is_file()


def test_every_distribution_carries_the_licence():
    root = DOCS.parent
    licence = (root / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in licence and "Version 2.0, January 2004" in licence
    for project in ("envirobench-core", "envirobench-synth", "envirobench-extract", "envirobench-legal", "envirobench-locate", "envirobench-verify", "envirobench-research", "envirobench-reference-adapter", "envirobench-adapter-kit"):
        assert (root / project / "LICENSE").read_text(encoding="utf-8") == licence, f"{project}/LICENSE differs from LICENSE"
