"""Every question kind of envirobench_synth.locate.passages in both splits' wordings: CANDIDATES
graded passages with the fact asked for among them, and the traps it records are hard negatives
(grade 0) it really offers."""

from __future__ import annotations

import re
from functools import cache

import pytest

from envirobench_synth.locate.passages import CANDIDATES, QUESTION_KINDS, sample_question
from envirobench_synth.rng import make_random

SEED = 20261203
QUESTIONS = 10  # per kind and split


@cache
def question(kind: str, split: str, n: int):
    return sample_question(make_random(SEED, kind, split, n), kind, split)


@pytest.mark.parametrize("split", ["dev", "test"])
@pytest.mark.parametrize("kind", QUESTION_KINDS)
def test_every_kind_offers_graded_candidates_with_the_answer(kind, split):
    for n in range(QUESTIONS):
        drawn = question(kind, split, n)
        assert drawn.kind == kind and drawn.text.strip()
        assert len(drawn.passages) == CANDIDATES
        assert len({p.id for p in drawn.passages}) == CANDIDATES
        assert {p.grade for p in drawn.passages} <= {0, 1, 2, 3}
        assert any(p.grade == 3 and p.essential for p in drawn.passages), drawn.text
        assert all(p.grade >= 2 for p in drawn.passages if p.essential)


@pytest.mark.parametrize("kind", QUESTION_KINDS)
def test_the_traps_a_question_records_are_its_hard_negatives(kind):
    seen = set()
    for split in ("dev", "test"):
        for n in range(QUESTIONS):
            drawn = question(kind, split, n)
            negatives = {p.role for p in drawn.passages if p.grade == 0}
            assert set(drawn.traps) <= negatives, (drawn.traps, negatives)
            seen.update(drawn.traps)
    assert seen, f"no {kind} question records a trap"


def test_the_test_split_words_units_and_dates_as_dev_never_does():
    def texts(split: str) -> list[str]:
        return [
            p.text
            for kind in QUESTION_KINDS
            for n in range(QUESTIONS)
            for p in question(kind, split, n).passages
        ]

    dev, test = texts("dev"), texts("test")
    assert any("µg/L" in t for t in dev) and not any("ug/L" in t for t in dev)
    assert any("ug/L" in t for t in test) and not any("µg/L" in t for t in test)
    quarters = re.compile(r"\bQ[1-4]\b|quarter")
    assert any(quarters.search(t) for t in test) and not any(quarters.search(t) for t in dev)


def test_an_unknown_kind_or_split_is_refused():
    with pytest.raises(ValueError, match="unknown question kind"):
        sample_question(make_random(1), "nope", "dev")
    with pytest.raises(ValueError, match="unknown split"):
        sample_question(make_random(1), "result", "nope")
