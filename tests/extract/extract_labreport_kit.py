"""Helpers shared by the Extract type tests: the shipped dataset, fixtures scored, sizes."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from envirobench.converter import structure
from envirobench.datasets import read_manifest, validate
from envirobench.jsonio import iter_jsonl, read_json
from envirobench.plugins import build_registry
from envirobench_extract.generate.__main__ import main


def shipped(module):
    """(registry, dataset, cases, answers) of a type module's shipped dataset."""
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("ENVIROBENCH_LOAD_PLUGINS", raising=False)
        registry = build_registry()
    dataset = validate(module.DATASET_DIR, registry)
    btype = registry.benchmark_type(dataset.manifest.benchmark)
    return registry, dataset, dataset.cases(btype), dataset.answers(btype)


def score_fixture(btype, fixtures_dir, name, cases, answers):
    """case ID -> {profile: CaseScore} for fixtures/<name>.json."""
    predictions = read_json(fixtures_dir / f"{name}.json")
    assert sorted(predictions) == sorted(cases)
    return {
        case_id: btype.score_case(
            case, answers[case_id], structure(predictions[case_id], btype.Prediction)
        )
        for case_id, case in cases.items()
    }


def errors_by_case(scores, profile):
    return {case_id: list(s[profile].errors) for case_id, s in scores.items() if s[profile].errors}


def categories(dataset_dir):
    return {
        record["id"]: record["category"] for _, record in iter_jsonl(dataset_dir / "cases.jsonl")
    }


def dataset_bytes(dataset):
    return sum(entry.size for entry in dataset.manifest.files)


def assert_regenerates(module, tmp_path):
    """Regenerating a type module's dataset and fixtures reproduces every shipped file."""
    name = module.DATASET_DIR.parent.parent.name
    output, fixtures = tmp_path / "dataset", tmp_path / "fixtures"
    result = CliRunner().invoke(main, [name, "--output", str(output), "--fixtures", str(fixtures)])
    assert result.exit_code == 0, result.output
    shipped = read_manifest(module.DATASET_DIR)
    regenerated = read_manifest(output)
    assert {f.path: f.sha256 for f in regenerated.files} == {
        f.path: f.sha256 for f in shipped.files
    }
    assert (output / "manifest.json").read_bytes() == (
        module.DATASET_DIR / "manifest.json"
    ).read_bytes()
    for fixture in ("correct.json", "wrong.json"):
        assert (fixtures / fixture).read_bytes() == (module.FIXTURES_DIR / fixture).read_bytes()
