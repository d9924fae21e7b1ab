"""The demo holdout: `holdout dataset demo` generates a type's test split from a secret seed with the
category's public generator, holds it and writes its sealed public part; the seed appears nowhere
(output, public part, database), the manifest names no generator, and the answers are not the
shipped test split's."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from envirobench import plugins
from envirobench.cli import main
from envirobench_holdout.demo import DEMO_TYPES

CATEGORY_OF = {"unit-normalisation": "verify", "table-cells": "extract", "passage-rerank": "locate",
               "regulatory-standards": "research", "party-roles": "legal"}


def test_every_demo_type_has_its_category():
    assert set(DEMO_TYPES) == set(CATEGORY_OF)


@pytest.mark.slow
@pytest.mark.parametrize("TYPE", DEMO_TYPES)
def test_the_demo_split_is_generated_from_a_secret_seed_and_sealed(TYPE, tmp_path, monkeypatch, use_registry):
    pytest.importorskip(f"envirobench_{CATEGORY_OF[TYPE]}")
    monkeypatch.setenv(plugins.LOAD_PLUGINS_ENV, f"envirobench-holdout,envirobench-{CATEGORY_OF[TYPE]}")
    registry = plugins.build_registry()
    use_registry(registry)
    drawn = []
    import secrets

    real = secrets.randbits
    monkeypatch.setattr(secrets, "randbits", lambda k: drawn.append(real(k)) or drawn[-1])
    data, public = tmp_path / "service", tmp_path / "public"
    result = CliRunner().invoke(main, ["holdout", "dataset", "demo", "--type", TYPE, "--public-out", str(public), "--data", str(data)])
    assert result.exit_code == 0, result.output
    assert drawn  # every seed of the generator was drawn anew, none appears anywhere below
    part = public / TYPE
    assert (part / "sealed.json").is_file() and not (part / "answers.jsonl").exists()
    manifest = json.loads((part / "manifest.json").read_text())
    assert manifest["id"] == f"holdout/{TYPE}-demo-v1" and manifest["generator"] is None
    texts = [result.output] + [p.read_bytes().decode("utf-8", "replace") for p in part.rglob("*") if p.is_file()]
    texts.append((data / "holdout.sqlite").read_bytes().decode("latin-1"))
    assert all(str(seed) not in text for text in texts for seed in drawn)
    # The answers are the service's own: not those of the shipped test split.
    shipped = next(entry.path for dataset_id, entry in registry.datasets.items()
                   if dataset_id.startswith(f"envirobench/{TYPE}-synthetic-") and entry.split == "test")
    held = next((data / "datasets").iterdir())
    assert (held / "answers.jsonl").read_bytes() != (shipped / "answers.jsonl").read_bytes()
    assert (held / "cases.jsonl").read_bytes() != (shipped / "cases.jsonl").read_bytes()
    assert f"holding holdout/{TYPE}-demo-v1" in result.output
