"""Hand-made prediction files of the Legal penalty tasks (use-limitations from its scoring v2) (tests/legal/handmade/<type ID>/), each
scored by hand from the design's formula, 100 × max(0, (good − 5 × bad) ÷ total): the counts and
the arithmetic are written below, so any change of scoring fails here. What each file's
predictions do is in its "about"."""

from __future__ import annotations

from pathlib import Path

import pytest
from handmade_kit import scored

HERE = Path(__file__).parent / "handmade"

# (file, (good, bad, total) counted by hand, the score by hand, the unclipped score by hand)
EXPECTED = [
    # instrument-execution: correct statuses − 5 × instruments called executed when not, ÷ instruments
    ("instrument-execution/everything-executed-and-recorded.json", (3, 2, 6), 100 * max(0, (3 - 5 * 2) / 6), 100 * (3 - 5 * 2) / 6),
    ("instrument-execution/careful-abstainer.json", (5, 0, 6), 100 * max(0, (5 - 5 * 0) / 6), 100 * (5 - 5 * 0) / 6),
    ("instrument-execution/recorded-unrecorded-confusion.json", (2, 1, 5), 100 * max(0, (2 - 5 * 1) / 5), 100 * (2 - 5 * 1) / 5),
    ("instrument-execution/right-statuses-wrong-pages.json", (4, 0, 4), 100 * max(0, (4 - 5 * 0) / 4), 100 * (4 - 5 * 0) / 4),
    ("instrument-execution/one-draft-called-recorded.json", (8, 1, 10), 100 * max(0, (8 - 5 * 1) / 10), 100 * (8 - 5 * 1) / 10),
    # party-roles: parties with every role right − 5 × non-owners called owners, ÷ parties (true + extra)
    ("party-roles/escrow-trustee-and-merged-predecessor.json", (3, 0, 3 + 2), 100 * max(0, (3 - 5 * 0) / 5), 100 * (3 - 5 * 0) / 5),
    ("party-roles/lender-called-owner.json", (4, 1, 5), 100 * max(0, (4 - 5 * 1) / 5), 100 * (4 - 5 * 1) / 5),
    ("party-roles/former-name-and-suffix-spellings.json", (4, 0, 4), 100 * max(0, (4 - 5 * 0) / 4), 100 * (4 - 5 * 0) / 4),
    ("party-roles/missed-party-and-missing-role.json", (2, 0, 4), 100 * max(0, (2 - 5 * 0) / 4), 100 * (2 - 5 * 0) / 4),
    ("party-roles/consultant-called-owner.json", (2, 1, 2 + 1), 100 * max(0, (2 - 5 * 1) / 3), 100 * (2 - 5 * 1) / 3),
    # indemnity-terms: contracts read exactly − 5 × contracts overstating, ÷ contracts
    ("indemnity-terms/honest-abstainer.json", (1, 1, 3), 100 * max(0, (1 - 5 * 1) / 3), 100 * (1 - 5 * 1) / 3),
    ("indemnity-terms/wrong-indemnitee-overstates-wrong-indemnitor-does-not.json", (0, 1, 2), 100 * max(0, (0 - 5 * 1) / 2), 100 * (0 - 5 * 1) / 2),
    ("indemnity-terms/survival-and-carve-outs.json", (2, 1, 4), 100 * max(0, (2 - 5 * 1) / 4), 100 * (2 - 5 * 1) / 4),
    ("indemnity-terms/narrower-readings.json", (5, 0, 6), 100 * max(0, (5 - 5 * 0) / 6), 100 * (5 - 5 * 0) / 6),
    ("indemnity-terms/expired-survival-draft-and-tipping.json", (1, 2, 4), 100 * max(0, (1 - 5 * 2) / 4), 100 * (1 - 5 * 2) / 4),
    # chain-of-title: periods exactly right − 5 × periods from another parcel or invented, ÷ periods
    ("chain-of-title/exact-chain.json", (6, 0, 6), 100 * max(0, (6 - 5 * 0) / 6), 100 * (6 - 5 * 0) / 6),
    ("chain-of-title/corrective-and-wild-deeds-as-periods.json", (2, 2, 3), 100 * max(0, (2 - 5 * 2) / 3), 100 * (2 - 5 * 2) / 3),
    ("chain-of-title/wrong-dates-and-a-missed-period.json", (3, 0, 6), 100 * max(0, (3 - 5 * 0) / 6), 100 * (3 - 5 * 0) / 6),
    ("chain-of-title/neighbour-lot-deed.json", (2, 1, 3), 100 * max(0, (2 - 5 * 1) / 3), 100 * (2 - 5 * 1) / 3),
    ("chain-of-title/duplicate-period.json", (6, 1, 6), 100 * max(0, (6 - 5 * 1) / 6), 100 * (6 - 5 * 1) / 6),
    # use-limitations (scoring v2): limitations listed exactly − 5 × listed items that are no current
    # limitation of the parcel, ÷ current limitations
    ("use-limitations/careless-examiner.json", (2, 3, 2), 100 * max(0, (2 - 5 * 3) / 2), 100 * (2 - 5 * 3) / 2),
    ("use-limitations/careful-examiner.json", (2, 0, 2), 100 * max(0, (2 - 5 * 0) / 2), 100 * (2 - 5 * 0) / 2),
    ("use-limitations/missed-restriction-and-missed-lien.json", (1, 0, 3), 100 * max(0, (1 - 5 * 0) / 3), 100 * (1 - 5 * 0) / 3),
    ("use-limitations/amendment-listed-apart-and-unsigned-covenant.json", (1, 2, 2), 100 * max(0, (1 - 5 * 2) / 2), 100 * (1 - 5 * 2) / 2),
    ("use-limitations/one-released-lien-among-seven.json", (7, 1, 7), 100 * max(0, (7 - 5 * 1) / 7), 100 * (7 - 5 * 1) / 7),
    ("use-limitations/easement-unknown-reference-and-duplicate.json", (1, 3, 1), 100 * max(0, (1 - 5 * 3) / 1), 100 * (1 - 5 * 3) / 1),
]


def test_every_file_has_its_hand_worked_score():
    assert sorted(str(p.relative_to(HERE)) for p in HERE.glob("*/*.json")) == sorted(name for name, *_ in EXPECTED)


@pytest.mark.parametrize(("name", "counts", "score", "unclipped"), EXPECTED, ids=[e[0] for e in EXPECTED])
def test_a_hand_made_prediction_file_scores_as_worked_out_by_hand(name, counts, score, unclipped):
    headline, btype, formula = scored(HERE / name)
    assert tuple(headline[metric] for metric in formula.required) == counts
    primary, below = btype.HEADLINE[:2]
    assert below == f"{primary}_unclipped"
    assert headline[primary] == pytest.approx(score)
    assert headline[below] == pytest.approx(unclipped)
    assert formula.evaluate(headline, primary) == pytest.approx(score)


def test_extra_parties_are_counted_apart_too():
    headline, _, _ = scored(HERE / "party-roles/escrow-trustee-and-merged-predecessor.json")
    assert (headline["parties_in_key"], headline["extra_parties"]) == (3, 2)


def test_a_careless_examiner_scores_clearly_below_a_careful_one():
    # The same three searches: the careful examiner lists the 2 current limitations (100.0); the
    # careless one lists them too, exactly, and 3 foreign instruments besides (0.0, unclipped -650.0),
    # while v1's pooled F1 put them at 1.0 and 2 × 2 ÷ (5 + 2) = 0.571.
    careless, _, _ = scored(HERE / "use-limitations/careless-examiner.json")
    careful, _, _ = scored(HERE / "use-limitations/careful-examiner.json")
    assert careless["foreign_items"] == 3 and careful["foreign_items"] == 0
    assert careless["limitations_f1"] == pytest.approx(2 * 2 / (5 + 2)) and careful["limitations_f1"] == 1.0
    assert careful["limitations_score"] - careless["limitations_score"] == pytest.approx(100.0)
