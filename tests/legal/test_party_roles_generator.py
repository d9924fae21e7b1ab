"""The party-roles generator: byte-for-byte regeneration, and the truth it draws for each trap."""

from __future__ import annotations

import pytest

from envirobench_synth.legal import recorder, render_instrument, template
from envirobench_synth.legal.parties import PARTY_KINDS, WORDINGS, sample_party_instrument, wording
from envirobench_synth.rng import make_random


def draw(kind, words, seed):
    return sample_party_instrument(make_random(seed, kind, words), kind, template("hollis-drummond"),
                                   recorder("marlow-or"), wording(words))


@pytest.mark.parametrize("kind", PARTY_KINDS)
def test_every_kind_renders_reproducibly_and_names_its_parties(kind):
    first, second = draw(kind, "quoted-parenthetical", 3), draw(kind, "quoted-parenthetical", 3)
    one = render_instrument(first.instrument, 3, kind)
    assert one.pdf == render_instrument(second.instrument, 3, kind).pdf and one.pdf.startswith(b"%PDF")
    body = " ".join(first.instrument.body)
    for party in first.parties:
        assert party.roles
        assert party.name in body or party.name.upper() in body


def test_the_traps_carry_their_truth():
    """Across many draws: lenders and trustees are never owners, railroads always are, merged
    predecessors and signing trustees are named and are not parties, former names are aliases."""
    seen = set()
    for seed in range(60):
        for kind in PARTY_KINDS:
            drawn = draw(kind, WORDINGS[seed % len(WORDINGS)].name, seed)
            names = {p.name for p in drawn.parties}
            body = " ".join(drawn.instrument.body).upper()
            seen.update(drawn.traps)
            for party in drawn.parties:
                assert not ({"lender", "owner"} <= set(party.roles))
                if "rail" in party.name.lower() and "lessor" in party.roles:
                    assert "owner" in party.roles
                for alias in party.aliases:
                    assert alias.upper() in body
            for other in drawn.others:
                assert other.name not in names and other.name.upper() in body
    assert {"successor-by-merger", "former-name", "trust-party", "deed-of-trust-trustee", "owner-holder",
            "tenant-not-operator", "subordinating-lender", "escrow-agent"} <= seen
