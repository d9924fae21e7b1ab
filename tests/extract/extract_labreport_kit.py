"""Helpers shared by the Extract type tests: the shipped dataset, fixtures scored, sizes."""

from __future__ import annotations

from collections import Counter

import pytest
from click.testing import CliRunner

from envirobench import (
    build_registry,
    generator_command,
    iter_jsonl,
    load_dataset,
    read_json,
    structure,
)
from envirobench_extract.package import PACKAGE


def v1_paths(type_id):
    """(layout, dataset ID, dataset directory, fixtures directory) of the type's synthetic-v1
    dataset: the names each Extract type's tests use for its shipped data."""
    layout = PACKAGE.layout(type_id)
    return layout, layout.dataset_id("synthetic-v1"), layout.dataset_dir("synthetic-v1"), layout.fixtures_dir("synthetic-v1")


def shipped(type_id, folder="synthetic-v1"):
    """(registry, dataset, cases, answers) of a type's shipped dataset (v1 unless named)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("ENVIROBENCH_LOAD_PLUGINS", raising=False)
        registry = build_registry()
    dataset = load_dataset(PACKAGE.layout(type_id).dataset_dir(folder), registry)
    btype = registry.benchmark_type(dataset.manifest.benchmark)
    return registry, dataset, dataset.cases(btype), dataset.answers(btype)


def assert_registered(shipped_dataset, type_id, folder="synthetic-v1"):
    """The type's dataset `folder` (shipped(type_id, folder)) is registered from the package's
    folder, public, from the extract plugin, with its own ID and benchmark in its manifest."""
    registry, dataset, _, _ = shipped_dataset
    layout = PACKAGE.layout(type_id)
    source = registry.datasets[layout.dataset_id(folder)]
    assert (source.path, source.visibility, source.plugin) == (layout.dataset_dir(folder), "public", "extract")
    assert (dataset.manifest.id, dataset.manifest.benchmark) == (layout.dataset_id(folder), type_id)


def category_counts(cases):
    """{category: how many cases have it} of a dataset's cases."""
    return Counter(case.category for case in cases.values())


def score_fixture(btype, fixtures_dir, name, cases, answers):
    """case ID -> {profile: CaseScore} for fixtures/<folder>/<name>.json."""
    predictions = read_json(fixtures_dir / f"{name}.json")
    assert sorted(predictions) == sorted(cases)
    return {
        case_id: btype.score_case(
            case, answers[case_id], structure(predictions[case_id], btype.Prediction)
        )
        for case_id, case in cases.items()
    }


def correct_fixture_summaries(btype, fixtures_dir, cases, answers):
    """{profile: summary} of correct.json over a shipped dataset, once it is checked that no case
    of it has an error in any profile."""
    scores = score_fixture(btype, fixtures_dir, "correct", cases, answers)
    summaries = {}
    for profile in btype.PROFILES:
        assert errors_by_case(scores, profile) == {}, profile
        summaries[profile] = btype.summarize(profile, [s[profile] for s in scores.values()])
    return summaries


def errors_by_case(scores, profile):
    return {case_id: list(s[profile].errors) for case_id, s in scores.items() if s[profile].errors}


def categories(dataset_dir):
    return {
        record["id"]: record["category"] for _, record in iter_jsonl(dataset_dir / "cases.jsonl")
    }


def dataset_bytes(dataset):
    return sum(entry.size for entry in dataset.manifest.files)


def generate(*args):
    """`python -m envirobench_extract.generate ARGS`, run in process."""
    return CliRunner().invoke(generator_command(PACKAGE), [str(arg) for arg in args])
