"""Every front-matter family of envirobench_synth.labreport.frontmatter renders in every status,
its facts are on its pages, and every trap the families declare (`TRAPS`) is drawn and shows in
what is printed (read back with PDFium)."""

from __future__ import annotations

from functools import cache

import pytest
from synth_kit import page_texts, squeeze

from envirobench_synth.labreport.frontmatter import (
    FAMILIES,
    PAGE,
    STATUSES,
    TRAPS,
    render_pages,
    sample_metadata_report,
)
from envirobench_synth.rng import make_random
from envirobench_synth.scans import emit_document

SEED = 20261203
REPORTS = 8  # per family and status


@cache
def rendered(family: str, status: str, n: int):
    report = sample_metadata_report(make_random(SEED, family, status, n), family, status)
    pages = render_pages(report, SEED, family, status, n)
    pdf = emit_document(
        pages.draw_page, [PAGE] * len(pages.sheets), {}, title="test", creator="test"
    )
    return report, pages, page_texts(pdf)


def first_report_text(family: str, status: str, n: int) -> str:
    _, pages, texts = rendered(family, status, n)
    end = pages.starts[1] if len(pages.starts) > 1 else len(texts)
    return squeeze(" ".join(texts[:end]))


@pytest.mark.parametrize("status", STATUSES)
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_family_renders_its_facts_in_every_status(family, status):
    report, pages, texts = rendered(family, status, 0)
    assert len(texts) == len(pages.sheets) >= 2
    assert pages.starts[0] == 0
    assert set(pages.front) <= set(range(pages.starts[1] if len(pages.starts) > 1 else len(texts)))
    text = first_report_text(family, status, 0)
    facts = report.facts
    assert facts.status == status
    for fact in (facts.laboratory, facts.work_order, facts.client, facts.project):
        assert squeeze(fact) in text, fact
    assert squeeze(report.date(facts.report_date)) in text


def test_every_declared_trap_is_drawn():
    drawn = {
        trap
        for family in FAMILIES
        for status in STATUSES
        for n in range(REPORTS)
        for trap in rendered(family, status, n)[0].traps
    }
    assert drawn == set(TRAPS)


def reports_with(trap: str):
    out = [
        (family, status, n)
        for family in sorted(FAMILIES)
        for status in STATUSES
        for n in range(REPORTS)
        if trap in rendered(family, status, n)[0].traps
    ]
    assert out, f"no report carries {trap}"
    return out


def test_a_stapled_report_prints_a_second_report_behind_the_first():
    for key in reports_with("stapled")[:3]:
        report, pages, texts = rendered(*key)
        assert len(report.stapled) == 1 and len(pages.starts) == 2
        behind = squeeze(" ".join(texts[pages.starts[1] :]))
        assert squeeze(report.stapled[0].facts.work_order) in behind
        assert squeeze(report.stapled[0].facts.work_order) not in first_report_text(*key)


def test_a_revision_names_the_report_it_supersedes():
    for key in reports_with("supersedes")[:3]:
        report = rendered(*key)[0]
        assert report.facts.status == "revised" and report.facts.supersedes
        assert squeeze(report.facts.supersedes) in first_report_text(*key)


def test_numbers_beside_the_facts_are_printed_where_the_traps_say():
    for key in reports_with("project-number")[:3]:
        assert squeeze(rendered(*key)[0].facts.project_number) in first_report_text(*key)
    for key in reports_with("ids")[:3]:
        assert squeeze(rendered(*key)[0].facts.po_number) in first_report_text(*key)


def test_date_traps_change_how_dates_are_printed():
    for key in reports_with("day-first")[:3]:
        report = rendered(*key)[0]
        assert report.date_format.startswith("%d")
        assert squeeze(report.date(report.facts.report_date)) in first_report_text(*key)
    for key in reports_with("mixed-date-formats")[:3]:
        report = rendered(*key)[0]
        assert report.table_date_format != report.date_format
    for key in reports_with("spread-sampling")[:3]:
        assert len(rendered(*key)[0].facts.sampling_dates()) >= 3
