"""`document-split`: scoring (page 1 not scored, strict boundaries, the ±1 tolerant matching),
strict refusals, the shipped datasets (sizes, splits by family, scans) and their fixtures."""

from __future__ import annotations

import itertools
import random

import pytest
from category_kit import assert_is_the_categories_task
from locate_kit import assert_fixtures_score_as_planted, shipped_datasets

from envirobench import Case, EnviroBenchError, structure
from envirobench_locate.document_split import (
    Answer,
    DocumentSplit,
    Input,
    Prediction,
    tolerant_matches,
)
from envirobench_locate.generate.document_split import MISTAKES, SIZES, planted
from envirobench_locate.package import PACKAGE
from envirobench_synth.locate.bundles import SCENARIOS
from envirobench_synth.locate.sitepages import STYLES_BY_SPLIT, TITLES

TYPE = DocumentSplit()
LAYOUT = PACKAGE.layout(TYPE.ID)
CASE = Case("ds-1", "plain", Input(bundle="assets/ds-1.pdf"))


def answer(first_pages=(1, 3, 4), pages=6):
    kinds = ["letter"] * len(first_pages)
    return structure(
        {"first_pages": list(first_pages), "pages": pages, "kinds": kinds, "traps": []}, Answer
    )


def score(truth, first_pages):
    return TYPE.score_case(CASE, truth, structure({"first_pages": list(first_pages)}, Prediction))[
        "split"
    ]


def test_the_type_is_well_formed_and_is_the_categories_task():
    assert_is_the_categories_task(TYPE)
    assert TYPE.source_files(CASE.input) == ("assets/ds-1.pdf",)
    assert "1-based" in Prediction.__doc__


def test_a_right_split_is_error_free_whether_or_not_it_lists_page_1():
    for predicted in ((1, 3, 4), (3, 4)):
        result = score(answer(), predicted)
        assert result.errors == ()
        assert result.metrics["true_positives"] == 2 and result.metrics["bundle_exact"] == 1.0


def test_boundaries_are_strict_and_each_mistake_is_named():
    result = score(answer((1, 3, 4)), (1, 2, 4))
    assert result.errors == (("false-boundary", 2), ("missed-boundary", 3))
    assert result.metrics["true_positives"] == 1 and result.metrics["false_positives"] == 1
    assert result.metrics["false_negatives"] == 1
    assert result.metrics["tolerant_matches"] == 2  # 2 is within one page of 3


def test_the_tolerant_matching_is_one_to_one():
    assert tolerant_matches([3], [2, 4]) == 1  # one true boundary takes one prediction
    assert tolerant_matches([3, 4], [4]) == 1  # one prediction serves one true boundary
    assert tolerant_matches([5, 6], [6, 7]) == 2  # exact-first would find 1
    assert tolerant_matches([5], [7]) == 0


def brute_force(truth, predicted):
    best = 0
    for size in range(min(len(truth), len(predicted)), 0, -1):
        for chosen in itertools.combinations(truth, size):
            for perm in itertools.permutations(predicted, size):
                if all(abs(t - p) <= 1 for t, p in zip(chosen, perm, strict=True)):
                    return size
    return best


def test_the_greedy_sweep_finds_the_largest_matching():
    rng = random.Random(7)
    for _ in range(300):
        truth = sorted(rng.sample(range(2, 14), rng.randint(0, 5)))
        predicted = sorted(rng.sample(range(2, 14), rng.randint(0, 5)))
        assert tolerant_matches(truth, predicted) == brute_force(truth, predicted), (
            truth,
            predicted,
        )


def test_headline_pools_counts_and_the_baselines_score_as_stated():
    truth = answer((1, 3, 4), 6)
    every = score(truth, range(1, 7))
    only_first = score(truth, (1,))
    every_head = TYPE.summarize("split", [every])
    assert every_head["boundary_recall"] == 1.0
    assert every_head["boundary_precision"] == pytest.approx(2 / 5)
    assert every_head["boundary_f1"] == pytest.approx(2 * 2 / (2 * 2 + 3))
    first_head = TYPE.summarize("split", [only_first])
    assert first_head["boundary_f1"] == 0.0 and first_head["tolerant_f1"] == 0.0
    assert first_head["boundaries"] == 2.0
    late = TYPE.summarize("split", [score(truth, (1, 4, 5))])
    assert late["boundary_f1"] == pytest.approx(0.5) and late["tolerant_f1"] == 1.0


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"first_pages": [0, 2]}, "first_pages"),
        ({"first_pages": [3, 2]}, "first_pages"),
        ({"first_pages": [2, 2]}, "first_pages"),
        ({"first_pages": ["2"]}, "first_pages"),
        ({"pages": [2]}, "first_pages"),
    ],
)
def test_bad_predictions_are_refused_naming_the_field(data, field):
    with pytest.raises(EnviroBenchError, match=field):
        structure(data, Prediction)


def test_an_answer_must_start_at_page_1_and_fit_the_bundle():
    with pytest.raises(ValueError, match="page 1"):
        Answer(first_pages=(2, 4), pages=5, kinds=("a", "b"), traps=())
    with pytest.raises(ValueError, match="past the bundle"):
        Answer(first_pages=(1, 7), pages=5, kinds=("a", "b"), traps=())
    with pytest.raises(ValueError, match="kinds"):
        Answer(first_pages=(1, 3), pages=5, kinds=("a",), traps=())


def test_dev_and_test_families_never_meet():
    assert not set(STYLES_BY_SPLIT["dev"]) & set(STYLES_BY_SPLIT["test"])
    for kind, wordings in TITLES.items():
        if kind != "covenant":  # "ENVIRONMENTAL COVENANT" is the statute's own title, in both
            assert not set(wordings["dev"]) & set(wordings["test"]), kind


@pytest.fixture(scope="module")
def shipped():
    return shipped_datasets(TYPE)


def test_the_shipped_splits_have_their_sizes_every_scenario_and_scanned_pages(shipped):
    sizes = {folder: len(cases) for folder, (_, _, cases, _) in shipped.items()}
    assert sizes == {"synthetic-dev-v1": SIZES["dev"], "synthetic-test-v1": SIZES["test"]}
    assert sizes["synthetic-test-v1"] >= 60
    assert 0.4 <= sizes["synthetic-dev-v1"] / sizes["synthetic-test-v1"] <= 0.5
    for _, _, cases, answers in shipped.values():
        assert {case.category for case in cases.values()} == set(SCENARIOS)
        assert all(len(a.first_pages) >= 2 for a in answers.values())
        boundaries = sum(len(a.first_pages) - 1 for a in answers.values())
        assert boundaries >= 2 * len(cases)


def test_the_fixtures_score_as_planted(shipped):
    for folder, (_, _, cases, answers) in shipped.items():
        mistakes = planted(LAYOUT.dataset_dir(folder))
        assert len(mistakes) == len(MISTAKES)
        assert_fixtures_score_as_planted(TYPE, folder, cases, answers, "split", mistakes)
