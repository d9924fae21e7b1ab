"""A prediction unchanged from the baseline's takes the baseline's score (envirobench.unchanged):
"unchanged" is the same value, never merely ==, and taking the score changes no byte of a run."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

from envirobench import scoring
from envirobench.testing import CountPrediction, CountWords
from envirobench.unchanged import _exact_eq, same_value, unchanged


@attrs.frozen
class Plain:
    name: str
    count: int
    flag: bool | None = None
    inner: CountPrediction | None = None


@attrs.frozen
class Bands:
    rows: tuple[int, ...]
    names: list[str] | None = None
    inner: tuple[Plain, ...] = ()


@attrs.frozen
class FloatBands:
    rows: tuple[float, ...]


@attrs.frozen
class WithFloat:
    value: float


@attrs.frozen
class WithAny:
    value: Any


@attrs.frozen(eq=False)
class LooseEq:
    text: str

    def __eq__(self, other):
        return isinstance(other, LooseEq) and self.text.lower() == other.text.lower()

    def __hash__(self):
        return hash(self.text.lower())


@attrs.frozen
class Keyed:
    text: str = attrs.field(eq=str.lower)


@pytest.mark.parametrize(("a", "b", "same"), [
    (1, 1, True), (1, 1.0, False), (1, True, False), (0, False, False), (1.0, 1.0, True), (0.0, -0.0, False), (-0.0, -0.0, True),
    (float("nan"), float("nan"), False), ("a", "a", True), (None, None, True), (None, 0, False),
    ([1, 2], [1, 2], True), ([1, 2], (1, 2), False), ([1], [1.0], False), ({"a": 1, "b": 2}, {"a": 1, "b": 2}, True),
    ({"a": 1, "b": 2}, {"b": 2, "a": 1}, False), ({"a": [0.0]}, {"a": [-0.0]}, False), ({"a": {"b": True}}, {"a": {"b": 1}}, False),
    (CountPrediction(3), CountPrediction(3), True), (CountPrediction(3), CountPrediction(4), False), (WithFloat(0.0), WithFloat(-0.0), False),
    (WithAny([1]), WithAny([1.0]), False), (Bands((1, 2)), Bands((1, 2)), True), (Bands((1, 2), ["a"]), Bands((1, 2), None), False),
    (FloatBands((0.0,)), FloatBands((-0.0,)), False), (FloatBands((1.5,)), FloatBands((1.5,)), True), (WithAny({"x": 1}), WithAny({"x": 1}), True), (LooseEq("A"), LooseEq("a"), False),
    (LooseEq("a"), LooseEq("a"), True), (Keyed("A"), Keyed("a"), False), (object(), object(), False),
])
def test_the_same_value_is_stricter_than_equality(a, b, same):
    assert same_value(a, b) is same and same_value(b, a) is same
    assert unchanged([a], [b]) == [same]


def test_equality_is_taken_only_where_it_is_the_same_value():
    assert _exact_eq(CountPrediction) and _exact_eq(Plain) and _exact_eq(Bands)
    assert not any(map(_exact_eq, (WithFloat, FloatBands, WithAny, LooseEq, Keyed, int, dict)))


def test_unchanged_agrees_with_same_value_on_either_path():
    rng = random.Random(5)
    pools = [
        [CountPrediction(n) for n in (0, 1, 2)],
        [Plain("a", 1), Plain("a", 1, True), Plain("a", 1, inner=CountPrediction(1)), Plain("b", 1)],
        [WithAny(v) for v in (1, 1.0, True, [1], {"a": 1}, None)],
        [CountPrediction(1), None, WithFloat(1.0)],
        [Bands((1, 2)), Bands((1, 2), ["x"]), Bands((1,), inner=(Plain("a", 1),)), Bands((1,), inner=(Plain("a", 2),))],
    ]
    for pool in pools:
        for _ in range(50):
            ours = [rng.choice(pool) for _ in range(20)]
            theirs = [attrs.evolve(x) if attrs.has(type(x)) and rng.random() < 0.5 else x for x in (rng.choice(pool) for _ in range(20))]
            assert unchanged(ours, theirs) == [same_value(a, b) for a, b in zip(ours, theirs, strict=True)]


class CountedWords(CountWords):
    calls = 0

    def score_case(self, case, answer, prediction):
        type(self).calls += 1
        return super().score_case(case, answer, prediction)


def test_unchanged_cases_take_the_baselines_scores_and_only_the_others_are_scored(count_dataset, toy_registry):
    from envirobench import datasets as ds

    contents = ds.load_contents(count_dataset, toy_registry)
    cases, answers = contents.cases, contents.answers
    btype = CountedWords()
    base_predictions = {cid: CountPrediction(a.count + (i % 3 == 0)) for i, (cid, a) in enumerate(answers.items())}
    ours = {cid: CountPrediction(p.count + (i % 4 == 0)) for i, (cid, p) in enumerate(base_predictions.items())}
    base_scores = scoring.score_run(btype, cases, answers, base_predictions)
    CountedWords.calls = 0
    taken = scoring.score_run(btype, cases, answers, ours, like=(base_predictions, base_scores))
    changed = sum(ours[cid] != base_predictions[cid] for cid in cases)
    assert 0 < CountedWords.calls == changed < len(cases)
    scored = scoring.score_run(btype, cases, answers, ours)
    assert taken.keys() == scored.keys()
    assert all(taken[cid] == scored[cid] for cid in cases)
    # A case the baseline has no prediction for is scored.
    del base_predictions[next(cid for cid in cases if ours[cid] == base_predictions[cid])]
    CountedWords.calls = 0
    scoring.score_run(btype, cases, answers, ours, like=(base_predictions, base_scores))
    assert CountedWords.calls == changed + 1


def test_a_run_is_byte_for_byte_the_same_with_or_without_taking_scores(make_run, results, monkeypatch):
    """A candidate and a control paired with a baseline: its metrics, comparison and review brief
    are the same when every case is scored."""
    make_run("base", off="c000001:1,c000004:-2")
    make_run("ctl", off="c000001:1,c000005:1")
    make_run("run-taken", off="c000002:1,c000004:-2", baseline=results / "base", controls=(results / "ctl",), gates=("exact", "near"))
    monkeypatch.setattr(scoring, "unchanged", lambda ours, theirs: [False] * len(ours))
    make_run("run-scored", off="c000002:1,c000004:-2", baseline=results / "base", controls=(results / "ctl",), gates=("exact", "near"))
    for name in ("metrics.json", "comparison.json", "review-brief.json"):
        taken = (results / "run-taken" / name).read_text(encoding="utf-8").replace("run-taken", "RUN")
        scored = (results / "run-scored" / name).read_text(encoding="utf-8").replace("run-scored", "RUN")
        assert taken == scored, name

