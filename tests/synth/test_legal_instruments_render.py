"""The recorded instruments of envirobench_synth.legal render in every law-firm template, every
recorder style and every execution scenario, with the evidence of the scenario on their pages;
the party instruments (legal.parties) render every kind, name their parties and the entities
that are no party, and every trap `parties.TRAPS` declares is drawn (read back with PDFium)."""

from __future__ import annotations

from functools import cache

import pytest
from synth_kit import page_texts, squeeze

from envirobench_synth.legal import (
    RECORDERS,
    SCENARIOS,
    SPLITS,
    STATUS_OF,
    TEMPLATES,
    recorder,
    render_instrument,
    sample_instrument,
    template,
)
from envirobench_synth.legal.parties import (
    PARTY_KINDS,
    TRAPS,
    WORDING_SPLITS,
    sample_party_instrument,
    wording,
)
from envirobench_synth.rng import make_random

SEED = 20261203
DRAWS = 6  # party instruments per kind and split, when looking for traps


def lowered(text: str) -> str:
    """Squeezed and in lower case: titles are printed in capitals or not, as a family sets."""
    return squeeze(text).lower()


def rendered_text(instrument, *labels) -> tuple[object, str]:
    rendered = render_instrument(instrument, SEED, *labels)
    texts = page_texts(rendered.pdf)
    assert rendered.pdf.startswith(b"%PDF-") and len(texts) == rendered.pages
    return rendered, lowered(" ".join(texts))


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_scenario_renders_with_its_status(scenario):
    rng = make_random(SEED, scenario)
    instrument = sample_instrument(rng, scenario, TEMPLATES[0], RECORDERS[0])
    rendered, text = rendered_text(instrument, scenario)
    assert rendered.status == STATUS_OF[scenario] == instrument.status
    assert lowered(instrument.title) in text
    if instrument.recording is not None and scenario.startswith("recorded"):
        assert rendered.evidence_pages, "a recorded instrument shows its stamp somewhere"
    if instrument.draft_marker:
        assert lowered(instrument.draft_marker) in text


@pytest.mark.parametrize("split", sorted(SPLITS))
def test_every_template_and_recorder_style_of_a_split_renders(split):
    templates, recorders = SPLITS[split]
    for i, name in enumerate(templates):
        style = recorder(recorders[i % len(recorders)])
        instrument = sample_instrument(
            make_random(SEED, split, name), "recorded", template(name), style
        )
        assert instrument.template.name == name and instrument.recorder.name == style.name
        _, text = rendered_text(instrument, split, name)
        for signature in instrument.signatures:
            assert lowered(signature.party) in text
    for name in recorders:
        instrument = sample_instrument(
            make_random(SEED, split, name), "recorded", template(templates[0]), recorder(name)
        )
        rendered, _ = rendered_text(instrument, split, name)
        assert rendered.evidence_pages


@cache
def party_instrument(kind: str, split: str, n: int):
    templates, recorders = SPLITS[split]
    words = WORDING_SPLITS[split]
    rng = make_random(SEED, "parties", kind, split, n)
    return sample_party_instrument(
        rng,
        kind,
        template(templates[n % len(templates)]),
        recorder(recorders[n % len(recorders)]),
        wording(words[n % len(words)]),
    )


@pytest.mark.parametrize("split", sorted(SPLITS))
@pytest.mark.parametrize("kind", PARTY_KINDS)
def test_every_party_instrument_kind_names_its_parties_and_the_others(kind, split):
    drawn = party_instrument(kind, split, 0)
    _, text = rendered_text(drawn.instrument, kind, split)
    assert drawn.parties
    for party in drawn.parties:
        assert party.roles, party
        assert lowered(party.name) in text, party.name
    for other in drawn.others:
        assert lowered(other.name) in text, other


def test_every_declared_party_trap_is_drawn():
    seen = {
        trap
        for kind in PARTY_KINDS
        for split in sorted(SPLITS)
        for n in range(DRAWS)
        for trap in party_instrument(kind, split, n).traps
    }
    assert seen == set(TRAPS), sorted(set(TRAPS) - seen)
