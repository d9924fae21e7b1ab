"""The shipped v2 datasets of document-extraction and table-records: sizes the issue asks for,
families by split, categories, and fixtures that score as planted in every profile."""

from __future__ import annotations

import pytest
from extract_labreport_kit import categories, dataset_bytes, errors_by_case, score_fixture, shipped

from envirobench_extract.generate import document_extraction, table_records
from envirobench_extract.generate.labreports import plant_mistakes
from envirobench_extract.package import PACKAGE
from envirobench_synth.labreport.families import families_of

DATASETS = [
    ("document-extraction", "synthetic-dev-v2", "dev"),
    ("document-extraction", "synthetic-test-v2", "test"),
    ("table-records", "synthetic-dev-v2", "dev"),
    ("table-records", "synthetic-test-v2", "test"),
]
MISTAKES = {
    "document-extraction": document_extraction.MISTAKES_V2,
    "table-records": table_records.MISTAKES_V2,
}
# (fewest cases, fewest records) of each test split (issue 13), and about 40-50 % of it in dev.
MINIMUM = {"document-extraction": (200, 6000), "table-records": (300, 3000)}


@pytest.fixture(scope="module", params=DATASETS, ids=lambda d: f"{d[0]}-{d[1]}")
def dataset(request):
    type_id, folder, split = request.param
    return (type_id, folder, split, *shipped(type_id, folder))


def test_sizes_splits_and_categories(dataset):
    type_id, folder, split, _registry, ds, cases, answers = dataset
    records = sum(len(a.records) for a in answers.values())
    fewest_cases, fewest_records = MINIMUM[type_id]
    if split == "test":
        assert len(cases) >= fewest_cases and records >= fewest_records
    else:
        assert 0.4 * fewest_cases <= len(cases) <= 0.5 * fewest_cases * 1.1
    names = {f.name for f in families_of(split)}
    seen = {case.category.split(":")[0] for case in cases.values()}
    assert seen == names
    assert all(":" in case.category for case in cases.values())
    # The four lab-report v2 datasets share a 22 MB budget; no one of them takes half.
    assert dataset_bytes(ds) < 11_000_000
    assert folder.endswith("-v2")


def test_correct_fixture_has_no_errors_in_any_profile(dataset):
    type_id, folder, _split, registry, _ds, cases, answers = dataset
    btype = registry.benchmark_type(type_id)
    fixtures = PACKAGE.layout(type_id).fixtures_dir(folder)
    scores = score_fixture(btype, fixtures, "correct", cases, answers)
    for profile in btype.PROFILES:
        assert errors_by_case(scores, profile) == {}


def test_wrong_fixture_has_exactly_its_deliberate_errors(dataset):
    type_id, folder, _split, registry, _ds, cases, answers = dataset
    btype = registry.benchmark_type(type_id)
    layout = PACKAGE.layout(type_id)
    planted = plant_mistakes(MISTAKES[type_id], answers, categories(layout.dataset_dir(folder)))
    assert len({p.case for p in planted}) == len(MISTAKES[type_id])
    scores = score_fixture(btype, layout.fixtures_dir(folder), "wrong", cases, answers)
    for profile in btype.PROFILES:
        expected = {p.case: p.expected[profile] for p in planted if p.expected[profile]}
        assert errors_by_case(scores, profile) == expected
