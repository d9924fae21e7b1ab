"""The v2 lab-report families (envirobench_synth.labreport.families and skeletons): a few reports of
every family rendered and checked against the truth rules of families.py.

Checked from the pages (PDFium's text of each record's page), not from the generator's own
bookkeeping where that can be helped: every record's analyte, sample and printed result are on
its page; laboratory QC (surrogates, MS/MSD, lab duplicates, LCS, blanks) is never a record; field
QC (DUP-1, trip/equipment/rinsate blanks) always is; an E result is never a record and its D
re-analysis is; rejected, invalidated, superseded and not-result cells are not records; dev
reports use only dev vocabulary; the traps each split must show appear in a handful of reports.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache

import pytest
from pdf_pages import page_texts

from envirobench_synth import vocabulary
from envirobench_synth.labreport.families import (
    FAMILIES,
    LAB_QC,
    families_of,
    read_number,
    sample_family_report,
)
from envirobench_synth.labreport.skeletons import render_family_reports
from envirobench_synth.rng import make_random

SEED = 4242
PER_FAMILY = 4


@cache
def rendered(name: str, n: int):
    family = next(f for f in FAMILIES if f.name == name)
    report = sample_family_report(make_random(SEED, name, n), family, family.split)
    return report, render_family_reports([report], SEED, name, n)


def all_rendered():
    return [rendered(f.name, n) for f in FAMILIES for n in range(PER_FAMILY)]


def number_or_none(text, comma):
    try:
        return read_number(text, comma)
    except ArithmeticError:
        return None


def test_dev_and_test_families_are_disjoint_and_three_each():
    dev, test = families_of("dev"), families_of("test")
    assert len(dev) >= 3 and len(test) >= 3
    assert not {f.name for f in dev} & {f.name for f in test}
    # Each test skeleton variant differs from every dev family in its conventions.
    for t in test:
        for d in dev:
            assert (t.skeleton, t.header, t.footer, t.units_in_header, t.date_formats) != (
                d.skeleton,
                d.header,
                d.footer,
                d.units_in_header,
                d.date_formats,
            )


@pytest.mark.parametrize("family", [f.name for f in FAMILIES])
def test_every_record_is_printed_on_its_page(family):
    for n in range(PER_FAMILY):
        report, out = rendered(family, n)
        texts = [re.sub(r"\s+", " ", t) for t in page_texts(out.pdf)]
        comma = report.conventions.decimal_comma
        for record, page in zip(out.records, out.record_pages, strict=True):
            text = texts[page - 1]
            name = re.sub(r" \((dissolved|TCLP|SPLP)\)$", "", record.analyte)
            assert name in text, (family, n, record)
            assert record.sample_id in text, (family, n, record)
            if record.result is not None:
                numbers = {
                    parsed
                    for m in re.findall(r"[0-9][0-9.,]*(?:E[+-][0-9]+)?", text)
                    if (parsed := number_or_none(m, comma)) is not None
                }
                assert record.result in numbers, (family, n, record)


def test_laboratory_qc_is_never_a_record_and_field_qc_always_is():
    for report, out in all_rendered():
        qc_labels = {b.label for b in report.blocks if b.kind in LAB_QC}
        field_qc = {
            b.truth_id for b in report.blocks if b.kind in ("field-duplicate", "field-blank")
        }
        ids = {r.sample_id for r in out.records}
        assert not ids & qc_labels
        assert not any(
            r.analyte.startswith("Surrogate") or "(surr)" in r.analyte for r in out.records
        )
        assert all(r.unit != "%REC" for r in out.records)
        assert field_qc <= ids, (report.family.name, field_qc - ids)
        truth_ids = {b.truth_id for b in report.blocks if b.kind not in LAB_QC}
        assert ids <= truth_ids


def test_e_results_are_replaced_by_their_diluted_reanalysis():
    pairs = 0
    for report, out in all_rendered():
        keys = Counter((r.sample_id, r.analyte) for r in out.records)
        for (b, s, a), cell in report.cells.items():
            block = report.blocks[b]
            if cell.qualifier != "E":
                continue
            assert cell.truth is None
            name = report.sections[s].analytes[a][0]
            dl = [
                report.cells[(x, s, a)]
                for x, other in enumerate(report.blocks)
                if other.kind == "dl" and other.truth_id == block.truth_id and s in other.sections
            ]
            assert len(dl) == 1 and dl[0].qualifier == "D" and dl[0].truth is not None
            assert keys[(block.truth_id, name)] == 1  # one reportable result per analyte
            pairs += 1
        # No detection above the calibration range at dilution 1 goes without its E flag.
        for (_b, s, _a), cell in report.cells.items():
            if cell.truth is not None and cell.truth.result is not None and cell.dilution == "1":
                rl = read_number(cell.rl, report.conventions.decimal_comma)
                if report.sections[s].group in ("voc", "pah", "tph"):
                    assert cell.truth.result <= rl * 100
    assert pairs > 0


def test_cells_that_are_not_results_are_never_records():
    seen = Counter()
    for report, _out in all_rendered():
        for cell in report.cells.values():
            for trap in ("rejected-r", "narrative-invalidated", "not-result-cell", "e-flag"):
                if trap in cell.traps:
                    assert cell.truth is None
                    seen[trap] += 1
            if cell.qualifier == "R":
                assert cell.truth is None
        for cell in report.superseded.values():
            assert cell.truth is None
    assert seen["not-result-cell"] and seen["e-flag"]


def test_reporting_limit_is_the_rl_column_even_for_a_nondetect_at_the_mdl():
    checked = 0
    for report, _out in all_rendered():
        comma = report.conventions.decimal_comma
        for cell in report.cells.values():
            if "nondetect-at-mdl" in cell.traps and cell.truth is not None:
                assert cell.truth.reporting_limit == read_number(cell.rl, comma)
                assert cell.truth.result is None and cell.truth.nondetect
                checked += 1
    assert checked


def test_dev_reports_use_dev_vocabulary_only():
    test_only = vocabulary.test_only_terms()
    for report, out in all_rendered():
        if report.split != "dev":
            continue
        assert not set(report.conventions.titles.values()) & test_only
        assert not set(report.labels.values()) & test_only
        assert report.conventions.not_result not in test_only
        assert not {r.analyte for r in out.records} & test_only
    titles = set()
    for report, _ in all_rendered():
        if report.split == "test":
            titles |= set(report.conventions.titles.values())
    assert titles & set(
        vocabulary.terms_of(vocabulary.COLUMN_TERMS["result"], "test", shared=False)
    )


def test_every_trap_of_the_records_shows_in_both_splits():
    counts = {"dev": Counter(), "test": Counter()}
    for split in ("dev", "test"):
        for family in families_of(split):
            for n in range(12):
                report = sample_family_report(
                    make_random(SEED, "traps", family.name, n), family, split
                )
                counts[split].update(t for c in report.cells.values() for t in c.traps)
                counts[split].update(report.report_traps)
    wanted = (
        "qc-matrix-spike",
        "qc-lab-duplicate",
        "qc-lcs",
        "qc-method-blank",
        "qc-inline",
        "field-duplicate",
        "field-blank",
        "reanalysis-dl",
        "reanalysis-re",
        "e-flag",
        "nondetect-at-mdl",
        "nondetect-at-rl",
        "percent-solids",
        "dry-weight",
        "leachate",
        "dissolved-metals",
        "revised-value",
        "original-pages-appended",
        "narrative-invalidated",
        "not-result-cell",
        "id-with-date",
        "scientific-notation",
        "decimal-comma",
        "combined-flag",
        "validator-flag",
    )
    for split, counter in counts.items():
        missing = [t for t in wanted if not counter[t]]
        assert not missing, (split, missing)


def test_stapled_reports_keep_every_report_s_records_and_page_numbers():
    family = families_of("test")[0]
    reports = [
        sample_family_report(make_random(SEED, "staple", k), family, "test") for k in range(2)
    ]
    both = render_family_reports(reports, SEED, "staple")
    alone = [render_family_reports([r], SEED, "staple") for r in reports]
    assert both.records == alone[0].records + alone[1].records
    assert both.traps["stapled"] == 1
    texts = [re.sub(r"\s+", " ", t) for t in page_texts(both.pdf)]
    first, second = len(alone[0].pages), len(alone[1].pages)
    assert len(texts) == first + second
    assert f"Page {first} of {first}" in texts[first - 1]
    assert f"Page 1 of {second}" in texts[first]


def test_exceedances_are_shaded_and_shading_is_no_part_of_a_record():
    family = next(f for f in FAMILIES if f.name == "test-wide-summary")
    for n in range(20):
        report = sample_family_report(make_random(SEED, "shade", n), family, "test")
        if report.conventions.screening:
            break
    out = render_family_reports([report], SEED, "shade")
    shaded = [
        item
        for page in out.drafts
        for item in page.items
        if type(item).__name__ == "Box" and item.fill == 205
    ]
    exceeding = [
        r
        for (b, s, a), cell in report.cells.items()
        if (r := cell.truth) is not None
        and r.result is not None
        and (s, a) in report.screening
        and r.result > read_number(report.screening[(s, a)], report.conventions.decimal_comma)
    ]
    assert len(shaded) == len(exceeding) > 0
    assert all(r.qualifier is None or "*" not in r.qualifier for r in out.records)


def test_each_results_page_knows_the_traps_its_rows_show():
    for report, out in all_rendered():
        inline = report.conventions.qc_inline
        shown = {t for table in out.tables for t in table.traps}
        if inline:
            assert any(t.startswith("qc-") for t in shown), report.family.name
        if any(b.kind == "dl" for b in report.blocks):
            assert "reanalysis-dl" in shown
