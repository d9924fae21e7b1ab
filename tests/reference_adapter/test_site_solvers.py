"""The reference adapter's site solvers on a small hand-made record: a laboratory report and its
revision (envirobench_synth.site.labpapers), a report's historical table that misprints a value,
a correction letter, an R-flagged result, a comparison statement, assessment findings, a deed and
tank records. Fast: no scans, one volume."""

from __future__ import annotations

import datetime as dt
import io
import json
import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from envirobench import EnviroBenchError, structure
from envirobench_reference_adapter import site_record
from envirobench_reference_adapter.site_record.pages import PAGES_READ
from envirobench_reference_adapter.solvers import (
    exceedance_summary,
    recognized_conditions,
    site_results,
    site_timeline,
)
from envirobench_site.records import SiteInput
from envirobench_site.site_results import SiteResults
from envirobench_synth.legal.packet import merge_pdfs
from envirobench_synth.site.labpapers import LabJob, LabResult, LabSample, render_lab_report

DAY = dt.date(2019, 5, 14)


def _samples(benzene_mw3: float) -> tuple[LabSample, ...]:
    def water(point: str, benzene: float | None, mtbe: float | None, flag: str = "") -> LabSample:
        return LabSample(
            f"{point}-051419",
            point,
            None,
            "groundwater",
            DAY,
            (
                LabResult("Benzene", benzene, "µg/L", 1.0),
                LabResult("Methyl tert-butyl ether", mtbe, "µg/L", 1.0, flag),
            ),
        )

    return (
        water("MW-3", benzene_mw3, 40.0),
        water("MW-5", None, 12.0, "R"),
        LabSample(
            "SB-2-46",
            "SB-2",
            "4-6",
            "soil",
            DAY,
            (LabResult("Benzene", 0.85, "mg/kg", 0.005), LabResult("Lead", 410.0, "mg/kg", 0.5)),
        ),
    )


def _job(revision: int, benzene_mw3: float) -> LabJob:
    return LabJob(
        family="dev-sample-pages",
        split="dev",
        job_number="L19051",
        client="Example Client",
        project="Example Station",
        site_address="1 Example Road",
        received=dt.date(2019, 5, 15),
        issued=dt.date(2019, 5, 29) + dt.timedelta(days=20 * revision),
        samples=_samples(benzene_mw3),
        revision=revision,
        revision_note="the MW-3 benzene result was recalculated" if revision else None,
        qc=True,
    )


def _page(lines: list[tuple[float, float, str]], *, size: float = 9.0) -> bytes:
    """One text page: (x, y from the top, text) in Helvetica."""
    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, pagesize=letter, invariant=1)
    for x, y, text in lines:
        c.setFont("Helvetica", size)
        c.drawString(x, 792 - y, text)
    c.showPage()
    c.save()
    return buffer.getvalue()


def _prose(paragraphs: list[str], first: str) -> bytes:
    lines = [(60.0, 60.0, first), (60.0, 74.0, "(555) 010-0000")]
    y = 110.0
    for paragraph in paragraphs:
        words, line = paragraph.split(), ""
        for word in words:
            if len(line) + len(word) > 95:
                lines.append((60.0, y, line))
                y, line = y + 13, ""
            line = f"{line} {word}".strip()
        lines.append((60.0, y, line))
        y += 22
    return _page(lines)


def _case(raw: dict, folder: Path) -> tuple[SiteInput, dict[str, Path]]:
    """The case as the adapter kit hands it to a site solver: the input structured by core's
    converter into the site types' record, and each file the type says it reads mapped to its
    path under `folder`."""
    case = structure(raw, SiteInput)
    return case, {path: folder / path for path in SiteResults().source_files(case)}


def _record(tmp_path: Path) -> tuple[SiteInput, dict[str, Path]]:
    deed = _prose(
        [
            "Recorded 03/02/1988 in the official records of the county.",
            "WARRANTY DEED. The Grantor conveys and warrants to the Grantee the land known as "
            "Tax Parcel 12-345-67 of the county.",
        ],
        "County Recorder",
    )
    tanks = _prose(
        [
            "Tank T-1, a 10,000-gallon steel UST for gasoline, was installed on 06/11/1975.",
            "Tank T-1 was removed on 04/02/2018 with its piping.",
        ],
        "Tank Records Office",
    )
    original = render_lab_report(_job(0, 15.0), 7, "original").pdf
    revised = render_lab_report(_job(1, 18.0), 7, "revised").pdf
    table = _page(
        [
            (60.0, 60.0, "Table 2. Historical Groundwater Results, MW-3"),
            (60.0, 74.0, "Units: Benzene ug/L, MTBE ug/L"),
            (60.0, 100.0, "Date"),
            (220.0, 100.0, "Benzene"),
            (320.0, 100.0, "MTBE"),
            (60.0, 114.0, "May 14, 2019"),
            (220.0, 114.0, "81"),
            (320.0, 114.0, "40"),
        ]
    )
    letter_pdf = _prose(
        [
            "Sample MW-3-051419 (MW-3), collected May 14, 2019: MTBE was reported as 40 ug/L; "
            "the correct result is 44 ug/L.",
            "Groundwater results shall be compared with the federal maximum contaminant levels "
            "and soil results with the residential soil screening levels.",
        ],
        "Example Laboratories",
    )
    findings = _prose(
        [
            "This assessment has revealed the release of gasoline from the former UST system. "
            "In our opinion this is a recognized environmental condition (REC).",
            "Minor staining was observed around the hydraulic lifts of the service bay. In our "
            "opinion this is a de minimis condition.",
        ],
        "Example Consultants",
    )
    volume = merge_pdfs([deed, tanks, original, revised, table, letter_pdf, findings])
    (tmp_path / "volume-1.pdf").write_bytes(volume)
    rows = [
        {"table": "mcl", "program": "maximum contaminant levels", "jurisdiction": "federal",
         "medium": "drinking water", "exposure": None, "analyte": "Benzene", "cas": "71-43-2",
         "value": 0.005, "unit": "mg/L", "basis": "total", "in_force_from": None, "in_force_to": None},
        {"table": "mcl", "program": "maximum contaminant levels", "jurisdiction": "federal",
         "medium": "drinking water", "exposure": None, "analyte": "Methyl tert-butyl ether",
         "cas": "1634-04-4", "value": 0.1, "unit": "mg/L", "basis": "total", "in_force_from": None,
         "in_force_to": None},
        {"table": "soil-res", "program": "screening levels residential soil", "jurisdiction": "federal",
         "medium": "soil", "exposure": "residential", "analyte": "Lead", "cas": "7439-92-1",
         "value": 400.0, "unit": "mg/kg", "basis": "total", "in_force_from": None, "in_force_to": "2018-12-31"},
        {"table": "soil-res", "program": "screening levels residential soil", "jurisdiction": "federal",
         "medium": "soil", "exposure": "residential", "analyte": "Lead", "cas": "7439-92-1",
         "value": 200.0, "unit": "mg/kg", "basis": "total", "in_force_from": "2019-01-01", "in_force_to": None},
        {"table": "soil-ind", "program": "screening levels industrial soil", "jurisdiction": "federal",
         "medium": "soil", "exposure": "industrial", "analyte": "Lead", "cas": "7439-92-1",
         "value": 800.0, "unit": "mg/kg", "basis": "total", "in_force_from": None, "in_force_to": None},
    ]  # fmt: skip
    (tmp_path / "standards.json").write_text(json.dumps({"rows": rows}))
    pages = len(pdfium.PdfDocument(str(tmp_path / "volume-1.pdf")))
    raw = {
        "site": "hand-made",
        "name": "Example Station",
        "address": "1 Example Road",
        "as_of": "2024-01-01",
        "volumes": [{"file": "volume-1.pdf", "pages": pages}],
        "pages": pages,
        "analytes": [
            {"name": "Benzene", "cas": "71-43-2", "synonyms": []},
            {"name": "Methyl tert-butyl ether", "cas": "1634-04-4", "synonyms": ["MTBE"]},
            {"name": "Lead", "cas": "7439-92-1", "synonyms": []},
        ],
        "matrices": ["groundwater", "soil"],
        "standards": "standards.json",
        "condition_kinds": ["petroleum-ust-release", "hydraulic-lifts", "pcb-equipment"],
        "event_kinds": ["ownership-transfer", "tank-installed", "tank-removed"],
    }
    return _case(raw, tmp_path)


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory):
    return _record(tmp_path_factory.mktemp("site"))


def _by_key(records: list[dict]) -> dict[tuple, dict]:
    return {
        (r["location"], r["depth"], r["sample_date"], r["analyte"], r["matrix"]): r for r in records
    }


def test_results_are_reconciled_by_the_reprint_rules(record):
    case, sources = record
    found = _by_key(site_results.solve(case, sources, "v1")["results"])
    benzene = found[("MW-3", None, "2019-05-14", "71-43-2", "groundwater")]
    assert benzene["value"] == 18.0  # the revised laboratory report, not 15 nor the table's 81
    assert len(benzene["printings"]) >= 3
    mtbe = found[("MW-3", None, "2019-05-14", "1634-04-4", "groundwater")]
    assert (
        mtbe["value"] == 44.0
        and mtbe["source"]["page"]
        == len(pdfium.PdfDocument(str(sources["volume-1.pdf"]))) - 1
    )
    assert ("MW-5", None, "2019-05-14", "1634-04-4", "groundwater") not in found  # R-flagged
    assert found[("MW-5", None, "2019-05-14", "71-43-2", "groundwater")]["detected"] is False
    soil = found[("SB-2", "4-6", "2019-05-14", "7439-92-1", "soil")]
    assert soil["value"] == 410.0 and soil["unit"] == "mg/kg"


def test_no_reconciliation_lists_every_printing(record):
    case, sources = record
    every = site_results.solve(case, sources, "no-reconciliation")["results"]
    values = {r["value"] for r in every if r["location"] == "MW-3" and r["analyte"] == "71-43-2"}
    assert {15.0, 18.0, 81.0} <= values


def test_exceedances_use_the_table_the_record_names_on_the_sampling_date(record):
    case, sources = record
    found = _by_key(exceedance_summary.solve(case, sources, "v1")["exceedances"])
    benzene = found[("MW-3", None, "2019-05-14", "71-43-2", "groundwater")]
    assert benzene["standard"] == {"table": "mcl", "value": 0.005, "unit": "mg/L"}
    lead = found[("SB-2", "4-6", "2019-05-14", "7439-92-1", "soil")]
    assert lead["standard"]["table"] == "soil-res" and lead["standard"]["value"] == 200.0
    assert ("MW-3", None, "2019-05-14", "1634-04-4", "groundwater") not in found  # 44 < 100


def test_conditions_take_the_class_each_finding_states(record):
    case, sources = record
    found = {c["kind"]: c for c in recognized_conditions.solve(case, sources, "v1")["conditions"]}
    assert found["petroleum-ust-release"]["classification"] == "REC"
    assert found["hydraulic-lifts"]["classification"] == "de-minimis"
    assert "pcb-equipment" not in found
    assert all(c["evidence"] for c in found.values())


def test_timeline_reads_deeds_and_tanks_in_date_order(record):
    case, sources = record
    events = site_timeline.solve(case, sources, "v1")["events"]
    got = [(e["kind"], e["date"], e["subject"]) for e in events]
    assert ("ownership-transfer", "1988-03-02", "12-345-67") in got
    assert ("tank-installed", "1975-06-11", "T-1") in got
    assert ("tank-removed", "2018-04-02", "T-1") in got
    assert [e["date"] for e in events] == sorted(e["date"] for e in events)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"volumes": []}, "volumes is empty"),
        ({"volumes": [{"file": "../x.pdf", "pages": 1}]}, "$.volumes[0]: file"),
        ({"volumes": [{"file": "v.pdf", "pages": True}]}, "$.volumes[0].pages"),
        ({"analytes": [{"name": "", "cas": "71-43-2"}]}, "$.analytes[0]: name"),
        ({"as_of": "yesterday"}, "as_of"),
        ({"standards": "x.csv"}, "standards"),
        ({"surprise": 1}, "unknown field"),
    ],
)
def test_bad_inputs_never_reach_a_site_solver(change, field):
    """The site solvers check nothing themselves: they read every volume and the standards by the
    paths the record names, so the record (core's converter in the kit) must refuse these."""
    raw = {
        "site": "s", "name": "n", "address": "", "as_of": "2024-01-01",
        "volumes": [{"file": "volume-1.pdf", "pages": 3}], "pages": 3,
        "analytes": [{"name": "Benzene", "cas": "71-43-2"}], "matrices": ["soil"],
        "standards": "standards.json", "condition_kinds": [], "event_kinds": [],
    }  # fmt: skip
    structure(raw, SiteInput)
    with pytest.raises(EnviroBenchError, match=re.escape(field)):
        structure({**raw, **change}, SiteInput)


def test_reading_helpers():
    assert site_record.point_of("Well 3")[0] == "MW-3"
    assert site_record.point_of("mw-03 (5/14/19)")[0] == "MW-3"
    assert site_record.compact_depth("46") == "4-6" and site_record.compact_depth("1012") == "10-12"
    assert site_record.id_date("MW-3-051419", 4) == "2019-05-14"
    assert [d for d, _, _ in site_record.find_dates("14.05.2019 and 05/14/19")] == [
        "2019-05-14",
        "2019-05-14",
    ]
    assert site_record.find_dates("03/04/2019", day_first=True)[0][0] == "2019-04-03"
    assert site_record.matrix_by_unit("µg/m³", "SS-1") == "sub-slab-vapor"


def test_a_recording_stamp_dated_through_ocr_noise():
    # a faxed or photocopied rubber stamp read by OCR: its box read as a digit, separators mixed
    lines = ["E-RECORDED", "CINDER COUNTY, WASHINGTON", "When recorded, return to: 107/19/1970 at 8:41 o'ckock A.M."]
    assert site_timeline.recording_stamp(lines) == "1970-07-19"
    assert site_timeline.recording_stamp(["RECORDED", "12.06-1971 CINDER COUNTY, at 4:36"]) == "1971-12-06"
    # a clean date wins over a noisy one; no date at all is none; a book and page is not a date
    assert site_timeline.recording_stamp(["RECORDED", "Book 6194 Page 79.3", "August 22, 1986 01:50 PM"]) == "1986-08-22"
    assert site_timeline.recording_stamp(["RECORDED", "Book 6194 Page 79.3"]) is None
    assert site_timeline.noisy_date("19/45/1970") is None


def test_a_surrogate_recovery_read_by_ocr_is_no_condition_class():
    # "%REC" heads a laboratory's surrogate recoveries; OCR of a faxed copy reads "&REC"
    assert recognized_conditions.class_of("Surrogate Toluene-d8 107 75-125 &REC") is None
    assert recognized_conditions.class_of("Toluene-d8 79 75-125 %REC") is None
    assert recognized_conditions.class_of("The former dry well is a REC.") == "REC"
    assert recognized_conditions.class_of("the spill area (REC) and the CREC") in ("REC", "CREC")


def test_day_first_dates_are_told_by_the_sample_ids():
    """03/04/2019 is 3 April in a report whose sample IDs carry 040319-style (m/d/y) dates."""
    page = site_record.SitePage(
        "v.pdf", 1, "text-layer", [], ["Sample ID Lab ID Date", "MW-1-040319 L1-01 03/04/2019"]
    )
    doc = site_record.Document(0, [page])
    info = site_record.sample_dates(doc)
    assert [entry.date for entry in info.values()] == ["2019-04-03"]
    page.lines[1] = "MW-1-030419 L1-01 03/04/2019"
    assert [entry.date for entry in site_record.sample_dates(doc).values()] == ["2019-03-04"]


def _scanned(pdf: bytes) -> bytes:
    """The first page of `pdf` as an image-only PDF at 150 dpi: a scan, with no text layer."""
    image = pdfium.PdfDocument(pdf)[0].render(scale=150 / 72, grayscale=True).to_pil()
    scan = io.BytesIO()
    image.convert("L").save(scan, format="PDF", resolution=150)
    return scan.getvalue()


def test_a_scanned_page_is_read_by_ocr(tmp_path):
    text = _prose(
        ["Tank T-2, a steel UST for diesel, was installed on 06/11/1975."], "Tank Records"
    )
    (tmp_path / "volume-1.pdf").write_bytes(_scanned(text))
    (tmp_path / "standards.json").write_text('{"rows": []}')
    raw = {
        "site": "s", "name": "n", "address": "", "as_of": "2024-01-01",
        "volumes": [{"file": "volume-1.pdf", "pages": 1}], "pages": 1,
        "analytes": [], "matrices": [], "standards": "standards.json",
        "condition_kinds": [], "event_kinds": ["tank-installed"],
    }  # fmt: skip
    case, sources = _case(raw, tmp_path)
    pages = site_record.read_site(case, sources)
    assert pages[0].source == "ocr" and pages[0].lines
    events = site_timeline.solve(case, sources, "v1")["events"]
    assert [(e["kind"], e["date"], e["subject"]) for e in events] == [
        ("tank-installed", "1975-06-11", "T-2")
    ]


def test_reading_a_site_reports_pages_read_as_it_goes(tmp_path):
    # A site run shows pages read (issue 36): text-layer pages at once, then each scan as OCR reads it.
    text = _prose(["Tank T-2, a steel UST for diesel, was installed on 06/11/1975."], "Tank Records")
    (tmp_path / "volume-1.pdf").write_bytes(text)
    (tmp_path / "volume-2.pdf").write_bytes(_scanned(text))
    (tmp_path / "standards.json").write_text('{"rows": []}')
    raw = {
        "site": "s", "name": "n", "address": "", "as_of": "2024-01-01",
        "volumes": [{"file": "volume-1.pdf", "pages": 1}, {"file": "volume-2.pdf", "pages": 1}], "pages": 2,
        "analytes": [], "matrices": [], "standards": "standards.json",
        "condition_kinds": [], "event_kinds": ["tank-installed"],
    }  # fmt: skip
    case, sources = _case(raw, tmp_path)
    seen: list[tuple[int, int]] = []
    token = PAGES_READ.set(lambda done, total: seen.append((done, total)))
    try:
        pages = site_record.read_site(case, sources)
    finally:
        PAGES_READ.reset(token)
    assert [page.source for page in pages] == ["text-layer", "ocr"]
    assert seen == [(1, 2), (2, 2)]
    seen.clear()
    site_record.read_site(case, sources)  # the pages are cached now: nothing was reported outside the context
    assert seen == []
