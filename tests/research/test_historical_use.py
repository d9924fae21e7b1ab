"""`historical-use`: the period matching rule (same use, both years within 5, one to one), the
per-period F1, strict and hostile predictions, the truth rule of the synthetic histories
(documented spans; neighbours' entries and blank sources show nothing), the shipped datasets and
fixtures, and the reference solver's reading of source lines."""

from __future__ import annotations

import pytest
from category_kit import assert_split_sizes
from research_kit import (
    assert_fixtures_score_as_planted,
    reference_run,
    shipped_bytes,
    shipped_datasets,
)

from envirobench import Case, EnviroBenchError, structure
from envirobench.benchmark import check_type_class
from envirobench.categories import disagreements
from envirobench_reference_adapter.solvers import historical_use as solver
from envirobench_research.generate.historical_use import HISTORIES, MISTAKES, planted
from envirobench_research.historical_use import (
    TOLERANCE,
    TRAPS,
    USES,
    HistoricalUse,
    Input,
    Prediction,
    match,
)
from envirobench_research.package import PACKAGE
from envirobench_synth.research import history
from envirobench_synth.rng import make_random

TYPE = HistoricalUse()
LAYOUT = PACKAGE.layout(TYPE.ID)
CASE = Case(
    "hu-1",
    "by-source",
    structure(
        {"document": "assets/h.pdf", "address": "12 Main Street, X", "uses": list(USES)}, Input
    ),
)
TRUTH = [
    ("residential", 1930, 1950),
    ("gasoline-station", 1955, 1985),
    ("dry-cleaner", 1965, 1975),
    ("vacant", 1990, 2020),
]


def periods(items):
    return [{"use": u, "from_year": a, "to_year": b} for u, a, b in items]


def answer(items=TRUTH):
    return structure(
        {"periods": periods(items), "traps": ["concurrent"], "style": "by-source"}, TYPE.Answer
    )


def score(items):
    return TYPE.score_case(CASE, answer(), structure({"periods": periods(items)}, Prediction))[
        "periods"
    ]


def test_the_type_is_well_formed_and_is_the_categories_task():
    assert check_type_class(HistoricalUse) == []
    assert disagreements(TYPE.ID, TYPE.LABEL, TYPE.TIER) == []
    assert tuple(USES) == history.USES and set(TRAPS) == set(history.TRAPS)


def test_both_years_within_the_tolerance_match_and_one_more_year_does_not():
    assert TOLERANCE == 5
    inside = score([("residential", 1925, 1955), *TRUTH[1:]])
    assert inside.errors == () and inside.metrics["true_positives"] == 4
    outside = score([("residential", 1924, 1950), *TRUTH[1:]])
    assert ("missed-period", "residential", 1930, 1950) in outside.errors
    assert ("extra-period", "residential", 1924, 1950) in outside.errors


def test_the_use_must_be_the_same_and_matching_is_one_to_one():
    relabelled = score([("retail", 1955, 1985), *[t for t in TRUTH if t[1] != 1955]])
    assert relabelled.metrics["false_positives"] == 1 and relabelled.metrics["false_negatives"] == 1
    doubled = score([*TRUTH, ("residential", 1931, 1951)])
    assert doubled.metrics["true_positives"] == 4 and doubled.metrics["false_positives"] == 1
    pairs = match(
        answer().periods,
        structure(
            {"periods": periods([("vacant", 1991, 2020), ("vacant", 1990, 2020)])}, Prediction
        ).periods,
    )
    assert [(p.from_year) for _, p in pairs] == [1990]  # the closest pair is taken


def test_the_headline_pools_periods_and_scores_uses_apart():
    one_use = score([("residential", 1930, 2020)])
    head = TYPE.summarize("periods", [one_use, score(TRUTH)])
    assert head["period_f1"] == pytest.approx(2 * 4 / (2 * 4 + 1 + 4))
    assert head["use_f1"] == pytest.approx(2 * 5 / (2 * 5 + 0 + 3))
    assert head["periods"] == 8 and head["histories"] == 2
    assert TYPE.summarize("periods", [score([])])["period_f1"] == 0.0


@pytest.mark.parametrize(
    "data",
    [
        {"periods": [{"use": "gas station", "from_year": 1950, "to_year": 1960}]},
        {"periods": [{"use": "retail", "from_year": 1960, "to_year": 1950}]},
        {"periods": [{"use": "retail", "from_year": 1950.5, "to_year": 1960}]},
        {"periods": [{"use": "retail", "from_year": "1950", "to_year": 1960}]},
        {"periods": [{"use": "retail", "from_year": 10**30, "to_year": 1960}]},
        {"periods": [{"use": "retail", "from_year": -5, "to_year": 1960}]},
        {"periods": [{"use": "retail", "from_year": True, "to_year": 1960}]},
        {"periods": [{"use": "retail", "from_year": 1950, "to_year": 1960}] * 2},
        {"periods": [{"use": "eval('1')", "from_year": 1950, "to_year": 1960}]},
        {"periods": [{"use": "retail", "from_year": 1950, "to_year": 1960, "note": "x"}]},
        {
            "periods": [
                {"use": "retail", "from_year": 1950 + i % 100, "to_year": 2050} for i in range(201)
            ]
        },
        {"periods": "residential 1930-2020"},
    ],
)
def test_hostile_predictions_are_refused_naming_the_field(data):
    with pytest.raises(EnviroBenchError, match="periods|from_year|use|note"):
        structure(data, Prediction)


def test_an_input_must_carry_the_pinned_vocabulary():
    with pytest.raises(EnviroBenchError, match="uses"):
        structure({"document": "assets/h.pdf", "address": "1 A St", "uses": ["retail"]}, Input)


# -- the synthetic histories ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def histories():
    return [
        history.sample_history(make_random(11, split, i), split)
        for split in ("dev", "test")
        for i in range(40)
    ]


def test_the_truth_is_the_documented_span_of_each_run(histories):
    for h in histories:
        for period in h.periods:
            shown = [e.year for e in h.entries if e.shows == period.use and e.address == h.address
                     and period.from_year <= e.year <= period.to_year]  # fmt: skip
            assert (min(shown), max(shown)) == (period.from_year, period.to_year)
            assert any(
                run.use == period.use
                and run.from_year <= period.from_year
                and period.to_year <= run.to_year
                for run in h.hidden
            )


def test_neighbours_and_blank_sources_show_nothing(histories):
    for h in histories:
        for entry in h.entries:
            if entry.address != h.address:
                assert entry.shows == ""
            if any(
                word in entry.text
                for word in ("No listing", "No return", "not identifiable", "cannot be discerned")
            ):
                assert entry.shows == ""
    assert {t for h in histories for t in h.traps} == set(history.TRAPS)


def test_the_splits_word_their_sources_apart():
    for table in (history.DIRECTORY_TRADES, history.MAP_LEGENDS, history.AERIAL):
        dev, test = table["dev"], table["test"]
        dev_words = {w for v in dev.values() for w in (v if isinstance(v, tuple) else (v,))}
        test_words = {w for v in test.values() for w in (v if isinstance(v, tuple) else (v,))}
        assert not dev_words & test_words
    assert not set(history.STYLES_BY_SPLIT["dev"]) & set(history.STYLES_BY_SPLIT["test"])


# -- the shipped datasets ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def shipped():
    return {folder: (cases, answers) for folder, (_, _, cases, answers) in shipped_datasets(TYPE).items()}


def test_the_shipped_splits_have_their_sizes(shipped):
    assert_split_sizes({folder: len(cases) for folder, (cases, _) in shipped.items()}, HISTORIES, 100)
    _, answers = shipped["synthetic-test-v1"]
    assert sum(len(a.periods) for a in answers.values()) >= 600
    assert shipped_bytes(TYPE.ID) < 5 * 2**20


def test_the_fixtures_score_as_planted(shipped):
    for folder, (cases, answers) in shipped.items():
        mistakes = planted(LAYOUT.dataset_dir(folder))
        assert 1 <= len(mistakes) <= len(MISTAKES)
        assert_fixtures_score_as_planted(TYPE, folder, cases, answers, "periods", mistakes)


# -- the reference solver --------------------------------------------------------------------------


def test_the_solver_dates_lines_keeps_the_property_and_builds_periods():
    lines = [
        "City directory search",
        "1940 12 Main Street Brown John r",
        "1940 14 Main Street Ace Garage auto repairing",  # the neighbour
        "1950 12 Main Street Corner Gas gasoline filling station",
        "1955 12 Main Street No listing",
        "1960 12 Main Street Corner Gas service station",
        "Aerial photographs",
        "1965",
        "a small building with a canopy and pump islands",
        "1970 a commercial building; its use cannot be discerned",
        "1980 12 Main Street Vacant",
    ]
    found = solver.observations(lines, 12, set(USES))
    assert found == [(1940, "residential"), (1950, "gasoline-station"), (1960, "gasoline-station"),
                     (1965, "gasoline-station"), (1980, "vacant")]  # fmt: skip
    assert solver.periods(found) == [
        {"use": "residential", "from_year": 1940, "to_year": 1940},
        {"use": "gasoline-station", "from_year": 1950, "to_year": 1965},
        {"use": "vacant", "from_year": 1980, "to_year": 1980},
    ]


def test_a_use_seen_again_after_another_is_a_new_period():
    found = [(1930, "residential"), (1940, "retail"), (1950, "residential")]
    assert [p["from_year"] for p in solver.periods(found) if p["use"] == "residential"] == [
        1930,
        1950,
    ]


# -- a partial run through core ------------------------------------------------------------------


@pytest.mark.slow
def test_a_partial_run_through_core_scores_dev_cases(tmp_path):
    metrics = reference_run(tmp_path, TYPE.ID, ["hu-dev-0001", "hu-dev-0002", "hu-dev-0003"])
    headline = metrics["profiles"]["periods"]["headline"]
    assert len(metrics["cases"]) == 3
    assert headline["period_f1"] >= 0.8
