"""The demo holdout: `holdout dataset demo` generates a type's test split from a secret seed with the
category's public generator, holds it and writes its sealed public part; the seed appears nowhere
(output, public part, database), the manifest names no generator, and the answers are not the
shipped test split's. Site's demo split is two small site records (200 pages each) drawn from a
secret seed: their own seeds, drawn from it, appear nowhere either."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from envirobench import plugins
from envirobench.cli import main
from envirobench_holdout.demo import DEMO_SITES, DEMO_TYPES, SIZED_RECORDS

CATEGORY_OF = {"unit-normalisation": "verify", "table-cells": "extract", "passage-rerank": "locate",
               "regulatory-standards": "research", "party-roles": "legal", "site-results": "site"}


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
    if TYPE in SIZED_RECORDS:  # Site: the sites' own seeds, drawn from the secret one, appear nowhere either
        from envirobench_site.generate.site_records import sized_sites

        drawn += [spec.seed for seed in list(drawn) for spec in sized_sites("test", seed, count=DEMO_SITES)]
        assert len(json.loads((part / "manifest.json").read_text())["files"]) >= DEMO_SITES
    assert all(str(seed) not in text for text in texts for seed in drawn)
    # The answers are the service's own: not those of the shipped test split.
    shipped = next(entry.path for dataset_id, entry in registry.datasets.items()
                   if dataset_id.startswith(f"envirobench/{TYPE}-synthetic-") and entry.split == "test")
    held = next((data / "datasets").iterdir())
    assert (held / "answers.jsonl").read_bytes() != (shipped / "answers.jsonl").read_bytes()
    assert (held / "cases.jsonl").read_bytes() != (shipped / "cases.jsonl").read_bytes()
    assert f"holding holdout/{TYPE}-demo-v1" in result.output


def test_sized_sites_are_small_records_drawn_from_the_seed_under_ids_that_say_nothing_of_it():
    pytest.importorskip("envirobench_site")
    from envirobench_site.generate.site_records import chosen, sized_sites

    sites = sized_sites("test", 12345, count=DEMO_SITES)
    assert sites == sized_sites("test", 12345, count=DEMO_SITES) != sized_sites("test", 12346, count=DEMO_SITES)
    assert [s.site_id for s in sites] == ["test-site-1", "test-site-2"] and {s.pages for s in sites} == {200}
    assert chosen("test", sites) == sites and chosen("test", None) == ("st-275", "bp-540", "dc-806")
    with pytest.raises(ValueError, match="of the test split"):
        chosen("test", sized_sites("dev", 12345))
