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

pytest.importorskip("envirobench_verify")
TYPE = "unit-normalisation"


def test_the_demo_split_is_generated_from_a_secret_seed_and_sealed(tmp_path, monkeypatch, use_registry):
    monkeypatch.setenv(plugins.LOAD_PLUGINS_ENV, "envirobench-holdout,envirobench-verify")
    registry = plugins.build_registry()
    use_registry(registry)
    drawn = []
    import secrets

    real = secrets.randbits
    monkeypatch.setattr(secrets, "randbits", lambda k: drawn.append(real(k)) or drawn[-1])
    data, public = tmp_path / "service", tmp_path / "public"
    result = CliRunner().invoke(main, ["holdout", "dataset", "demo", "--type", TYPE, "--public-out", str(public), "--data", str(data)])
    assert result.exit_code == 0, result.output
    seed = drawn[0]
    part = public / TYPE
    assert (part / "sealed.json").is_file() and not (part / "answers.jsonl").exists()
    manifest = json.loads((part / "manifest.json").read_text())
    assert manifest["id"] == f"holdout/{TYPE}-demo-v1" and manifest["generator"] is None
    texts = [result.output] + [p.read_bytes().decode("utf-8", "replace") for p in part.rglob("*") if p.is_file()]
    texts.append((data / "holdout.sqlite").read_bytes().decode("latin-1"))
    assert all(str(seed) not in text for text in texts)
    # The answers are the service's own: not those of the shipped test split.
    shipped = registry.datasets[f"envirobench/{TYPE}-synthetic-test-v1"].path
    held = next((data / "datasets").iterdir())
    assert (held / "answers.jsonl").read_bytes() != (shipped / "answers.jsonl").read_bytes()
    assert (held / "cases.jsonl").read_bytes() != (shipped / "cases.jsonl").read_bytes()
    assert "holding holdout/unit-normalisation-demo-v1" in result.output
