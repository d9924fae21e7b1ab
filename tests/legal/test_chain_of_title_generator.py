"""The chain-of-title generator and its synthetic parts: byte-for-byte regeneration, packets merged
reproducibly, splits by family, and the truth of each trap in a parcel's history."""

from __future__ import annotations

import datetime as dt

import pypdfium2 as pdfium
import pytest

from envirobench_legal.generate.chain_of_title import SCAN_EVERY, plan
from envirobench_synth.legal import recorder
from envirobench_synth.legal.packet import (
    COVER_SPLITS,
    Cover,
    IndexEntry,
    assemble_packet,
    cover_style,
    merge_pdfs,
    render_cover,
)
from envirobench_synth.legal.title import FOCI, references_of, render_packet, sample_history
from envirobench_synth.rng import make_random

DEV_TEMPLATES = ("hollis-drummond", "castellanos-fairbairn", "okonkwo-lindqvist")


def history(focus, seed=5, style="marlow-or", periods=5):
    return sample_history(make_random(seed, "unit", focus), recorder(style), periods, focus)


def test_a_packet_renders_to_the_same_bytes_twice_with_the_cover_first():
    h = history("corrective")

    def render():
        return render_packet(
            h,
            5,
            "unit",
            "p",
            templates=DEV_TEMPLATES,
            cover=cover_style("hartwell-abstract"),
            scan=lambda index: index == 1,
        )

    first, second = render(), render()
    assert first.pdf == second.pdf and first.pdf.startswith(b"%PDF")
    assert first.scanned == tuple(index == 1 for index in range(len(h.instruments)))
    ranges = first.packet.instrument_pages
    assert len(ranges) == len(h.instruments) and ranges[0][0] == 2 and ranges[-1][1] == first.packet.pages
    document = pdfium.PdfDocument(first.pdf)
    try:
        assert len(document) == first.packet.pages
        cover_text = document[0].get_textpage().get_text_range()
    finally:
        document.close()
    assert h.subject.apn in cover_text


def test_merging_pins_pdfiums_save_time_and_file_id():
    cover = Cover(
        cover_style("fairmount-search"),
        "Lot 1, Block 2, OAK PLAT",
        "123-456-78",
        (IndexEntry("Warranty Deed", dt.date(1990, 1, 2), "Reception # 0012345", "A", "B"),),
        "T12345",
        dt.date(2024, 10, 1),
    )
    page = render_cover(cover)
    merged = merge_pdfs([page, page])
    assert merged == merge_pdfs([page, page])
    assert b"/CreationDate(D:20000101000000" in merged
    assert assemble_packet(page, [page]).instrument_pages == ((2, 2),)


def test_the_plan_keeps_families_apart_and_scans_a_share_of_instruments():
    dev, test = plan("synthetic-dev-v1"), plan("synthetic-test-v1")
    assert not {p.recorder for p, _ in dev} & {p.recorder for p, _ in test}
    assert not {p.cover for p, _ in dev} & {p.cover for p, _ in test}
    assert {p.cover for p, _ in dev} == set(COVER_SPLITS["dev"]) and {p.cover for p, _ in test} == set(
        COVER_SPLITS["test"]
    )
    assert sorted({p.focus for p, _ in test}) == sorted(FOCI)
    # first_instrument counts the split's instruments, so every SCAN_EVERY-th one is scanned.
    assert [p.first_instrument for p, _ in test[:3]] == [
        0,
        len(test[0][1].instruments),
        len(test[0][1].instruments) + len(test[1][1].instruments),
    ]
    assert SCAN_EVERY >= 2
    assert [p.case_id for p, _ in plan("synthetic-dev-v1")] == [p.case_id for p, _ in dev]  # seeded


def roles(h):
    return [item.role for item in h.instruments]


@pytest.mark.parametrize("focus", FOCI)
def test_every_focus_trap_is_in_its_history_and_periods_join(focus):
    h = history(focus)
    assert focus in h.traps
    periods = h.periods()
    assert len(periods) == 5 and periods[-1].end is None
    assert all(a.end == b.start for a, b in zip(periods, periods[1:], strict=False))
    vesting = [item for item in h.instruments if item.starts_period]
    assert [p.reference for p in periods] == [references_of(h.recorder, item)[0] for item in vesting]
    assert [p.start for p in periods] == [item.recorded.date() for item in vesting]
    recorded = [item.recorded for item in h.instruments]
    assert recorded == sorted(recorded) and len({tuple(references_of(h.recorder, i)) for i in h.instruments}) == len(
        recorded
    )


def test_trap_truths():
    corrective = history("corrective")
    fixed = next(i for i in corrective.instruments if i.role == "corrective")
    assert not fixed.starts_period and fixed.corrects is not None and fixed.corrects.starts_period
    assert references_of(corrective.recorder, fixed.corrects)[0] in fixed.recital
    renamed = history("name-change")
    deed = next(i for i in renamed.instruments if ", formerly known as " in i.grantor)
    new, old = deed.grantor.split(", formerly known as ")
    assert (
        deed.starts_period
        and old in [p.grantee for p in renamed.periods()]
        and new not in [p.grantee for p in renamed.periods()]
    )
    caption = history("caption-two-parcels")
    two = next(i for i in caption.instruments if i.role == "caption-two-parcels")
    assert caption.subject in two.caption and two.parcel != caption.subject and not two.starts_period
    tax = history("tax-lot")
    lot = next(i for i in tax.instruments if i.role == "tax-lot")
    assert lot.parcel.lot == tax.subject.lot and lot.parcel.tax_map and lot.parcel.apn != tax.subject.apn
    sheriff = history("sheriffs-deed")
    sale = next(i for i in sheriff.instruments if i.kind == "sheriffs-deed")
    assert sale.starts_period and "Sheriff" in sale.grantor
    index = sheriff.instruments.index(sale)
    assert any(i.kind == "mortgage" for i in sheriff.instruments[:index])
