"""Every layout of envirobench_synth.research.listings renders a database report to a PDF whose
pages print every listing, and every trap the module declares (`TRAPS`, `SITE_TRAPS`) is drawn,
with the truth its rule gives (read back with PDFium)."""

from __future__ import annotations

from functools import cache

import pytest
from synth_kit import page_texts, squeeze

from envirobench_synth.research.listings import (
    LAYOUTS_BY_SPLIT,
    SITE_TRAPS,
    TRAPS,
    render_report,
    sample_report,
)
from envirobench_synth.rng import make_random

SEED = 20261203
REPORTS = 12  # per split


@cache
def report(split: str, n: int):
    return sample_report(make_random(SEED, split, n), split)


def typed_report(split: str, layout: str):
    found = next(
        (report(split, n) for n in range(REPORTS * 4) if report(split, n).layout == layout
         and not report(split, n).scanned),
        None,
    )  # fmt: skip
    assert found is not None, f"no typed {layout} report among the first reports of {split}"
    return found


@pytest.mark.parametrize(
    ("split", "layout"), [(s, layout) for s, ls in LAYOUTS_BY_SPLIT.items() for layout in ls]
)
def test_every_layout_renders_every_listing(split, layout):
    drawn = typed_report(split, layout)
    pdf, scanned = render_report(drawn, SEED, split, layout)
    texts = page_texts(pdf)
    assert pdf.startswith(b"%PDF-") and scanned == ()
    text = squeeze(" ".join(texts))
    assert squeeze(drawn.order_number) in text
    for listing in drawn.listings:
        assert squeeze(listing.record) in text, listing.record


def test_a_scanned_report_keeps_only_its_first_page_as_text():
    drawn = next(
        report(s, n) for s in ("dev", "test") for n in range(REPORTS * 4) if report(s, n).scanned
    )
    pdf, scanned = render_report(drawn, SEED, "scanned")
    texts = page_texts(pdf)
    # `scanned` counts pages from 1: every page after the first
    assert scanned == tuple(range(2, len(texts) + 1)) and len(texts) >= 2
    assert texts[0].strip()
    assert not any(texts[page - 1].strip() for page in scanned)


def test_every_declared_trap_is_drawn_in_both_splits():
    for split in ("dev", "test"):
        seen = {listing.trap for n in range(REPORTS) for listing in report(split, n).listings}
        assert set(TRAPS) <= seen, (split, sorted(set(TRAPS) - seen))


def test_each_trap_has_the_truth_its_rule_gives():
    for split in ("dev", "test"):
        for n in range(REPORTS):
            drawn = report(split, n)
            known = {"subject", *(site.id for site in drawn.neighbours)}
            for listing in drawn.listings:
                if listing.trap in SITE_TRAPS:
                    assert listing.site in known, listing
                elif listing.trap.startswith("unmappable"):
                    assert listing.site == "unmappable", listing
                elif listing.trap in TRAPS:
                    assert listing.site == "other", listing
                if listing.trap == "unmappable-point":
                    assert listing.point and not listing.address_line, listing
