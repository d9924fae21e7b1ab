"""Every lab-report family of envirobench_synth.labreport.families renders, and every trap the
families declare (`family.TRAPS`) shows in what a few small reports print.

Read back from the PDF (PDFium's text), not from the generator's bookkeeping where that can be
helped: each record's printed sample and analyte stand on the page the truth says it is on.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest
from synth_kit import page_texts, squeeze

from envirobench_synth.labreport.families import FAMILIES, families_of, sample_family_report
from envirobench_synth.labreport.families.family import TRAPS
from envirobench_synth.labreport.skeletons import render_family_reports
from envirobench_synth.rng import make_random

SEED = 20261203
REPORTS = 12  # per family: enough that every trap a family can show is drawn at least once


@cache
def sampled(name: str, n: int):
    family = next(f for f in FAMILIES if f.name == name)
    return sample_family_report(make_random(SEED, name, n), family, family.split)


@pytest.mark.parametrize("name", [f.name for f in FAMILIES])
def test_every_family_renders_a_pdf_whose_pages_print_its_records(name):
    report = sampled(name, 0)
    rendered = render_family_reports([report], SEED, name)
    texts = page_texts(rendered.pdf)
    assert rendered.pdf.startswith(b"%PDF-")
    assert len(texts) == len(rendered.pages) >= 2
    assert rendered.records, "a report with no results records"
    for record, page in zip(rendered.records, rendered.record_pages, strict=True):
        on_page = squeeze(texts[page - 1])
        assert squeeze(record.sample_id) in on_page, (record, page)
        assert squeeze(record.analyte) in on_page, (record, page)
    # The report's own facts are printed: its laboratory and work order.
    everything = squeeze(" ".join(texts))
    assert squeeze(report.facts.work_order) in everything


def test_the_families_cover_both_splits_with_different_families():
    dev, test = families_of("dev"), families_of("test")
    assert dev and test
    assert not {f.name for f in dev} & {f.name for f in test}
    assert {f.name for f in (*dev, *test)} == {f.name for f in FAMILIES}


def test_every_declared_trap_shows_in_the_reports_of_the_families():
    seen: Counter[str] = Counter()
    for family in FAMILIES:
        for n in range(REPORTS):
            report = sampled(family.name, n)
            seen.update(t for cell in report.cells.values() for t in cell.traps)
            seen.update(report.report_traps)
    # Two traps exist only once printed: surrogate rows are drawn on the page, and stapling
    # needs two reports in one PDF.
    family = FAMILIES[0]
    stapled = render_family_reports([sampled(family.name, 0), sampled(family.name, 1)], SEED, "two")
    seen.update(stapled.traps)
    assert stapled.traps["stapled"] == 1
    assert len(page_texts(stapled.pdf)) == len(stapled.pages)
    missing = sorted(set(TRAPS) - set(seen))
    assert not missing, f"declared traps no report shows: {missing}"


def test_a_trap_a_table_shows_is_one_its_rows_carry():
    report = next(
        sampled(f.name, n)
        for f in FAMILIES
        for n in range(REPORTS)
        if any(b.kind == "dl" for b in sampled(f.name, n).blocks)
    )
    rendered = render_family_reports([report], SEED, "dl")
    shown = {t for table in rendered.tables for t in table.traps}
    assert "reanalysis-dl" in shown
    assert shown <= set(TRAPS) | {"qc-surrogate"}
