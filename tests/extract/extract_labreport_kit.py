"""Helpers shared by the lab-report type tests: the shipped dataset, fixtures scored, sizes."""

from __future__ import annotations

import pytest

from envirobench.converter import structure
from envirobench.datasets import validate
from envirobench.jsonio import iter_jsonl, read_json
from envirobench.plugins import build_registry


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
