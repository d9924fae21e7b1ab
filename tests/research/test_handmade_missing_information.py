"""Hand-made prediction files of missing-information (tests/research/handmade/missing-information/),
each scored by hand from the design's formula, 100 × max(0, (questions right − 5 × invented
answers) ÷ questions): the counts and the arithmetic are written below, so any change of scoring
fails here. Each record has ten questions, six the record answers and four it does not; what
each file's predictions do is in its "about"."""

from __future__ import annotations

from pathlib import Path

import pytest
from handmade_kit import scored

HERE = Path(__file__).parent / "handmade"

# (file, (right, invented, questions) counted by hand, wrong answers, the score by hand, unclipped)
EXPECTED = [
    ("missing-information/careful-reader-with-one-invention.json", (8, 1, 10), 1, 100 * max(0, (8 - 5 * 1) / 10), 100 * (8 - 5 * 1) / 10),
    ("missing-information/always-not-in-the-record.json", (8, 0, 20), 12, 100 * max(0, (8 - 5 * 0) / 20), 100 * (8 - 5 * 0) / 20),
    ("missing-information/suffix-spellings-and-abstention-forms.json", (10, 0, 10), 0, 100 * max(0, (10 - 5 * 0) / 10), 100 * (10 - 5 * 0) / 10),
    ("missing-information/answers-everything.json", (6, 4, 10), 0, 100 * max(0, (6 - 5 * 4) / 10), 100 * (6 - 5 * 4) / 10),
    ("missing-information/wrong-values-and-left-out.json", (10, 0, 20), 3, 100 * max(0, (10 - 5 * 0) / 20), 100 * (10 - 5 * 0) / 20),
]


def test_every_file_has_its_hand_worked_score():
    assert sorted(str(p.relative_to(HERE)) for p in HERE.glob("*/*.json")) == sorted(name for name, *_ in EXPECTED)


@pytest.mark.parametrize(("name", "counts", "wrong", "score", "unclipped"), EXPECTED, ids=[e[0] for e in EXPECTED])
def test_a_hand_made_prediction_file_scores_as_worked_out_by_hand(name, counts, wrong, score, unclipped):
    headline, btype, formula = scored(HERE / name)
    assert tuple(headline[metric] for metric in formula.required) == counts
    assert headline["wrong_answers"] == wrong
    assert headline["missing_information_score"] == pytest.approx(score)
    assert headline["missing_information_score_unclipped"] == pytest.approx(unclipped)
    assert formula.evaluate(headline, "missing_information_score") == pytest.approx(score)
