"""The historical-use sources of envirobench_synth.research.history render in every style of
both splits with each source line on the pages, every trap `history.TRAPS` declares is drawn and
shows in the sources, and every trap of a standards lookup (`standard_tables.TRAPS`) is drawn."""

from __future__ import annotations

from functools import cache

import pytest
from synth_kit import page_texts, squeeze

from envirobench_synth.research.history import (
    STYLES_BY_SPLIT,
    TRAPS,
    render_history,
    sample_history,
)
from envirobench_synth.research.standard_tables import TRAPS as LOOKUP_TRAPS
from envirobench_synth.research.standard_tables import sample_lookup
from envirobench_synth.rng import make_random

SEED = 20261203
HISTORIES = 16  # per split
LOOKUPS = 120  # per split


@cache
def history(split: str, n: int):
    return sample_history(make_random(SEED, split, n), split)


@pytest.mark.parametrize(
    ("split", "style"), [(s, style) for s, styles in STYLES_BY_SPLIT.items() for style in styles]
)
def test_every_style_renders_every_source_line(split, style):
    drawn = next(
        (history(split, n) for n in range(HISTORIES) if history(split, n).style == style), None
    )
    assert drawn is not None, f"no {style} history among the first of {split}"
    pdf = render_history(drawn, split, SEED, split, style)
    assert pdf.startswith(b"%PDF-")
    text = squeeze(" ".join(page_texts(pdf)))
    assert squeeze(drawn.address) in text
    for entry in drawn.entries:
        assert squeeze(entry.text) in text, entry


def test_every_declared_history_trap_is_drawn_in_both_splits():
    for split in STYLES_BY_SPLIT:
        seen = {t for n in range(HISTORIES) for t in history(split, n).traps}
        assert seen == set(TRAPS), (split, sorted(set(TRAPS) - seen))


def test_the_history_traps_show_in_the_sources():
    for split in STYLES_BY_SPLIT:
        for n in range(HISTORIES):
            drawn = history(split, n)
            if "adjacent-address" in drawn.traps:
                assert any(
                    e.kind == "directory" and e.address != drawn.address for e in drawn.entries
                )
            if "not-listed" in drawn.traps:
                assert any(e.kind == "directory" and not e.shows for e in drawn.entries)
            if "undiscernible" in drawn.traps:
                assert any(e.kind == "aerial" and not e.shows for e in drawn.entries)
            if "concurrent" in drawn.traps:
                years = [
                    (e.year, e.shows) for e in drawn.entries if e.shows and e.kind == "directory"
                ]
                assert any(
                    a != b and y == z for i, (y, a) in enumerate(years) for z, b in years[i + 1 :]
                )
            # The truth is only what a source shows: every documented period's use is shown.
            shown = {e.shows for e in drawn.entries if e.shows}
            assert {p.use for p in drawn.periods} <= shown


def test_every_declared_lookup_trap_is_drawn():
    seen = {
        t
        for split in ("dev", "test")
        for n in range(LOOKUPS)
        for t in sample_lookup(make_random(SEED, "lookup", split, n), split).traps
    }
    assert seen == set(LOOKUP_TRAPS), sorted(set(LOOKUP_TRAPS) - seen)
