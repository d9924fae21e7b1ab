"""The synthetic lab-report generator (envirobench_synth.labreport) and the Extract datasets built on it.

The truth of every record is checked against the table cells as the report prints them, read
back here by an independent little reader of the notations (`<0.50`, `ND`, `0.50 U`, `J`,
footnote markers, thousands separators); table boxes are checked against the text PDFium finds
inside them; PDFs must come out byte-identical when generated twice; and regenerating each
shipped dataset must reproduce every pinned SHA-256 and both fixtures.
"""

import hashlib
import subprocess
import sys
from collections import Counter
from decimal import Decimal

import pypdfium2 as pdfium

from envirobench_synth.labreport import LAYOUTS, render_pdf, sample_report
from envirobench_synth.labreport.compose import TITLES, sample_spec, transposed_spec
from envirobench_synth.labreport.model import truth_record
from envirobench_synth.rng import make_random

SEED = 99


def reports(count_per_layout):
    for layout in LAYOUTS:
        for n in range(count_per_layout):
            yield sample_report(make_random(SEED, "test", layout, n), layout)


def number(text):
    return float(Decimal(text.replace(",", "")))


def read_cell(text, qualifier, rl_text):
    """A result cell (and its qualifier) as a careful reader records it: (result, nondetect, qualifier, rl)."""
    rl = number(rl_text)
    if text == "ND":
        return None, True, qualifier or None, rl
    if text.startswith("<"):
        return None, True, qualifier or None, number(text[1:])
    if qualifier == "U":
        return None, True, "U", number(text)
    return number(text), False, qualifier or None, rl


def column(spec, key):
    titles = set(TITLES[key])
    return next((i for i, c in enumerate(spec.columns) if c.title in titles), None)


def check_sample_table(report, spec, seen):
    footnotes = {note.split()[0]: note.split()[1] for note in spec.footnotes}  # marker -> code
    c_result, c_qual, c_rl = column(spec, "result"), column(spec, "qual"), column(spec, "rl")
    c_unit, c_analyte, c_cas = column(spec, "unit"), column(spec, "analyte"), column(spec, "cas")
    for row, (index,) in zip(spec.rows, spec.row_records, strict=True):
        cell = row[c_result]
        qualifier = row[c_qual].text if c_qual is not None else footnotes.get(cell.marker, "")
        if cell.marker:
            seen["footnote " + footnotes[cell.marker]] += 1
        result, nondetect, code, rl = read_cell(cell.text, qualifier, row[c_rl].text)
        cas = row[c_cas].text
        read = (
            report.samples[report.measurements[index].sample].sample_id,
            row[c_analyte].text,
            None if cas == "--" else cas,
            result,
            nondetect,
            row[c_unit].text,
            code,
            rl,
        )
        truth = truth_record(report, report.measurements[index])
        assert read == tuple(vars(truth).values()), (report.layout, row)
        seen[
            "<"
            if cell.text.startswith("<")
            else cell.text
            if cell.text == "ND"
            else code or "plain"
        ] += 1
        if "," in cell.text:
            seen["thousands"] += 1
        seen[row[c_unit].text] += 1


def check_transposed_table(report, spec, seen):
    for row, indices in zip(spec.rows, spec.row_records, strict=True):
        analyte, cas, unit, rl = (cell.text for cell in row[:4])
        for cell, index in zip(row[4:], indices, strict=True):
            text, _, code = cell.text.partition(" ")
            result, nondetect, qualifier, limit = read_cell(text, code, rl)
            sample = report.samples[report.measurements[index].sample].sample_id
            read = (
                sample,
                analyte,
                None if cas == "--" else cas,
                result,
                nondetect,
                unit,
                qualifier,
                limit,
            )
            assert read == tuple(vars(truth_record(report, report.measurements[index])).values())
            seen[
                "transposed "
                + ("<" if text.startswith("<") else text if text == "ND" else code or "plain")
            ] += 1


def test_every_notation_the_generator_prints_is_recorded_right():
    seen = Counter()
    for report in reports(30):
        if report.layout == "samples-as-columns":
            check_transposed_table(report, transposed_spec(report), seen)
            continue
        for index in range(len(report.samples)):
            spec = sample_spec(
                report,
                index,
                wide=report.layout in ("landscape", "rotated"),
                markers=report.layout == "qualifier-footnotes",
            )
            check_sample_table(report, spec, seen)
    for notation in (
        "<",
        "ND",
        "U",
        "J",
        "B",
        "E",
        "D",
        "plain",
        "thousands",
        "footnote J",
        "footnote U",
    ):
        assert seen[notation], notation
    for notation in ("<", "ND", "U", "J", "plain"):
        assert seen["transposed " + notation], notation
    # Units as printed: both spellings of micro, and switches between µg/L and mg/L.
    assert seen["µg/L"] and seen["ug/L"] and seen["mg/L"] and seen["mg/kg"]


def test_table_boxes_hold_their_records_text():
    for report in reports(1):
        rendered = render_pdf(report, SEED, "boxes", report.layout)
        document = pdfium.PdfDocument(rendered.pdf)
        try:
            for region in rendered.tables:
                page = document[region.page - 1]
                height = page.get_height()
                left, top, right, bottom = region.bbox_pt
                text = page.get_textpage().get_text_bounded(
                    left - 1, height - bottom - 1, right + 1, height - top + 1
                )
                if region.scanned:
                    assert text == ""  # image only
                    continue
                for index in region.records:
                    record = rendered.records[index]
                    assert record.analyte in text, (report.layout, record.analyte)
                    if region.caption and report.layout != "samples-as-columns":
                        assert record.sample_id in text
                assert region.rotated == (report.layout == "rotated")
                width_px, height_px = (
                    region.bbox_px[2] - region.bbox_px[0],
                    region.bbox_px[3] - region.bbox_px[1],
                )
                assert (height_px > width_px) == region.rotated
        finally:
            document.close()
        assert sorted(set(rendered.record_pages)) == sorted({t.page for t in rendered.tables})
        assert 3 <= len(rendered.pages) <= 8


def test_pdfs_are_byte_identical_when_generated_twice():
    for report in reports(1):
        if report.layout == "scanned":
            continue  # below, in another process
        first = render_pdf(report, SEED, "twice", report.layout)
        again = render_pdf(report, SEED, "twice", report.layout)
        assert first.pdf == again.pdf, report.layout
        assert first.pdf.startswith(b"%PDF-") and b"ReportLab" in first.pdf
        region = first.tables[0]
        assert first.crop(region).tobytes() == again.crop(region).tobytes()
    # And in a fresh process, with another hash seed: no state of this one leaks into the bytes.
    code = (
        "import hashlib, sys; from envirobench_synth.rng import make_random;"
        "from envirobench_synth.labreport import sample_report, render_pdf;"
        f"r = sample_report(make_random({SEED}, 'test', 'scanned', 0), 'scanned');"
        f"sys.stdout.write(hashlib.sha256(render_pdf(r, {SEED}, 'twice', 'scanned').pdf).hexdigest())"
    )
    here = render_pdf(
        sample_report(make_random(SEED, "test", "scanned", 0), "scanned"), SEED, "twice", "scanned"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONHASHSEED": "123"},
    )
    assert out.stdout == hashlib.sha256(here.pdf).hexdigest()


def test_scanned_pages_are_image_only_and_others_hold_text():
    report = sample_report(make_random(SEED, "test", "scanned", 1), "scanned")
    rendered = render_pdf(report, SEED, "scan", scan_kinds=("cover",))
    document = pdfium.PdfDocument(rendered.pdf)
    try:
        for info in rendered.pages:
            text = document[info.number - 1].get_textpage().get_text_range()
            assert (text.strip() == "") == info.scanned, info
        assert rendered.pages[0].scanned and any(
            p.scanned and p.kind == "results" for p in rendered.pages
        )
    finally:
        document.close()

