"""Chain-of-custody pairs (envirobench_synth.verify.custody) in every lab-report family: the form
renders as a PNG (typed or hand-filled) and the laboratory report as a PDF that prints the
report's samples; every kind of discrepancy the module declares (`KINDS`) is planted, and each
planted one is found again from the two documents as drawn."""

from __future__ import annotations

import io
from collections import Counter
from functools import cache

import pytest
from PIL import Image
from synth_kit import page_texts, squeeze

from envirobench_synth.labreport.families import families_of
from envirobench_synth.rng import make_random
from envirobench_synth.verify.custody import (
    KINDS,
    plant,
    render_form,
    render_report,
    sample_pair,
)

SEED = 20261203
PAIRS = 6  # per family
FAMILIES = [(split, f) for split in ("dev", "test") for f in families_of(split)]


@cache
def pair(split: str, name: str, n: int):
    family = next(f for f in families_of(split) if f.name == name)
    rng = make_random(SEED, name, n)
    return plant(rng, sample_pair(rng, family, split))


@pytest.mark.parametrize(("split", "name"), [(s, f.name) for s, f in FAMILIES])
def test_every_family_renders_its_form_and_report(split, name):
    drawn = pair(split, name, 0)
    form = render_form(drawn, SEED, name)
    assert form.extension == "png"
    image = Image.open(io.BytesIO(form.data))
    assert image.width > image.height  # a landscape form
    text = squeeze(" ".join(page_texts(render_report(drawn))))
    assert squeeze(drawn.work_order) in text
    for sample in drawn.samples:
        assert squeeze(sample.sample_id) in text, sample.sample_id


def test_forms_are_typed_and_hand_filled():
    assert {pair(s, f.name, n).hand for s, f in FAMILIES for n in range(PAIRS)} == {True, False}


def test_every_declared_discrepancy_is_planted_and_found_from_the_documents():
    planted: Counter[str] = Counter()
    for split, family in FAMILIES:
        for n in range(PAIRS):
            drawn = pair(split, family.name, n)
            found = {d.kind for d in drawn.discrepancies()}
            assert set(drawn.planted) <= found, (drawn.planted, found)
            assert found <= set(KINDS)
            planted.update(drawn.planted)
    assert set(planted) == set(KINDS), sorted(set(KINDS) - set(planted))
