"""Helpers shared by the Extract type tests: the shipped dataset, fixtures scored, sizes.

A type's own test module binds them to its type once, as category_kit binds a category's package:

    TYPE = TableCells()
    KIT = ShippedType(TYPE)

and reads its synthetic-v1 dataset (`KIT.shipped()`, `KIT.checked(...)`), scores its fixtures
(`KIT.score_fixture`, `KIT.correct_fixture_summaries`) and checks its saved profile
(`KIT.shipped_profile()`) without naming the type's folders again.
"""

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
from envirobench.profiles import locate
from envirobench_extract.package import PACKAGE


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


class ShippedType:
    """One Extract type's shipped dataset (synthetic-v1 unless named) and its fixtures."""

    def __init__(self, btype, folder="synthetic-v1"):
        self.type, self.folder = btype, folder
        self.layout = PACKAGE.layout(btype.ID)
        self.dataset_dir = self.layout.dataset_dir(folder)
        self.fixtures_dir = self.layout.fixtures_dir(folder)

    def shipped(self):
        """(registry, dataset, cases, answers) of the dataset."""
        return shipped(self.type.ID, self.folder)

    def checked(self, shipped_dataset, counts, max_bytes):
        """(dataset, cases, answers) of `shipped()`, once it is checked that the dataset is
        registered (`assert_registered`), has `counts` cases by category and that its files
        stay under `max_bytes` (the repository stays small)."""
        _, dataset, cases, answers = shipped_dataset
        assert_registered(shipped_dataset, self.type.ID, self.folder)
        assert category_counts(cases) == counts
        assert dataset_bytes(dataset) < max_bytes
        return dataset, cases, answers

    def score_fixture(self, name, shipped_dataset):
        """case ID -> {profile: CaseScore} for the fixture `name` (correct or wrong) over the
        cases of `shipped()`."""
        _, _, cases, answers = shipped_dataset
        return score_fixture(self.type, self.fixtures_dir, name, cases, answers)

    def correct_fixture_summaries(self, shipped_dataset):
        """{profile: summary} of correct.json over `shipped()`, once it is checked that it has no
        error."""
        _, _, cases, answers = shipped_dataset
        return correct_fixture_summaries(self.type, self.fixtures_dir, cases, answers)

    def shipped_profile(self):
        """The type's saved profile, once it is checked that it is the one in the type's folder
        and measures the reference adapter on the v2 test split (what the leaderboard pins),
        with nothing promoted in the repository."""
        located = locate(self.type.ID, "extract")
        assert located.path == self.layout.profile
        profile = located.profile
        assert (profile.benchmark, profile.dataset, profile.adapter) == (
            self.type.ID,
            self.layout.dataset_id("synthetic-test-v2"),
            "reference",
        )
        assert profile.adapters["reference"].baseline is None
        return profile
