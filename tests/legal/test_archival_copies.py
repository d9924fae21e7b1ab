"""Archival copies (issue 33, realism): the marks of a copy's era, and scans recorded page by page."""

from __future__ import annotations

import json
from collections import Counter

import pypdfium2 as pdfium
import pytest
from PIL import Image

from envirobench import EnviroBenchError, structure
from envirobench_legal.copies import ScannedPage
from envirobench_legal.package import PACKAGE
from envirobench_synth.legal import recorder, render_instrument, sample_instrument, template
from envirobench_synth.legal.archive import severity
from envirobench_synth.legal.marks import HANDS, rubber_stamp_lines, signature_hand
from envirobench_synth.rng import make_random


def recorded(year: int, style: str = "cinder-wa", seed: int = 5):
    instrument = sample_instrument(make_random(seed, "era"), "recorded", template("hollis-drummond"), recorder(style))
    instrument.recording.when = instrument.recording.when.replace(year=year)
    return instrument


def page_text(pdf: bytes) -> list[str]:
    document = pdfium.PdfDocument(pdf)
    try:
        return [document[i].get_textpage().get_text_range() for i in range(len(document))]
    finally:
        document.close()


def test_a_copy_recorded_in_1963_bears_a_rubber_stamp_struck_by_hand_not_a_typed_box_or_e_recording():
    rendered = render_instrument(recorded(1963), 5, "era", 1963, archival=True)
    first = page_text(rendered.pdf)[0]
    assert "o'clock" in first and ("A.M." in first or "P.M." in first)
    assert "E-RECORDED" in first  # the county's heading, struck by a rubber stamp
    assert all("Cinder County Washington" not in text for text in page_text(rendered.pdf))  # no e-recording header
    assert rendered.evidence_pages == (1,) and "stamp" in rendered.page_tags[0]
    assert any("Book" in line for line in rubber_stamp_lines(recorded(1963)))  # book and page, as recorders kept them


def test_an_e_recording_county_typed_a_box_before_2005_and_prints_its_header_after():
    before = page_text(render_instrument(recorded(1996), 5, "era", 1996, archival=True).pdf)
    after = page_text(render_instrument(recorded(2016), 5, "era", 2016, archival=True).pdf)
    assert "Cinder County Washington" not in before[0] and "o'clock" not in before[0] and "AFN" in before[0]
    assert all("E-RECORDED Cinder County Washington" in text for text in after)


def test_without_archival_the_copy_is_the_one_the_site_records_pin():
    # The Site records call render_instrument without `archival`: a 1963 deed keeps the
    # recorder's own placement there until those records are made again.
    text = page_text(render_instrument(recorded(1963), 5, "era", 1963).pdf)
    assert "o'clock" not in text[0] and "E-RECORDED Cinder County Washington" in text[0]


def test_signature_hands_differ_and_stay_above_their_line():
    class Recorder:
        def __init__(self):
            self.points = []

        def __getattr__(self, name):
            return lambda *a, **k: None

        def beginPath(self):  # noqa: N802 (reportlab's name)
            owner = self

            class Path:
                def moveTo(self, x, y):  # noqa: N802
                    owner.points.append((x, y))

                lineTo = moveTo  # noqa: N815

            return Path()

    shapes = Counter()
    for k in range(40):
        rng = make_random(11, "hand", k)
        canvas = Recorder()
        signature_hand(rng, 300, 216)(canvas, 100)
        xs, ys = [x for x, _ in canvas.points], [y for _, y in canvas.points]
        assert min(xs) >= 290 and max(xs) <= 300 + 216 + 20
        baseline = 792 - 100
        assert max(ys) - baseline < 45 and baseline - min(ys) < 14  # above its line, a flourish just under it
        shapes[(round(max(ys) - baseline), len(canvas.points) // 10)] += 1
    assert len(shapes) > 20 and len(HANDS) == 4  # not one squiggle for everyone


def test_every_scanned_page_is_recorded_and_its_bytes_are_one_bit_group4():
    instrument = recorded(2011, "marlow-or", seed=8)
    first = render_instrument(instrument, 8, "scan", scanned=True, archival=True)
    again = render_instrument(recorded(2011, "marlow-or", seed=8), 8, "scan", scanned=True, archival=True)
    assert first.pdf == again.pdf and first.scan_pages == again.scan_pages
    assert [p.page for p in first.scan_pages] == list(range(1, first.pages + 1))
    assert b"/CCITTFaxDecode" in first.pdf
    for record in first.scan_pages:
        assert record.severity == severity(record.generation, record.dpi, record.blur, record.noise, record.artefacts)
        assert abs(record.skew_degrees) <= 1.8


def test_generations_and_severities_are_all_drawn_and_a_fax_carries_its_header():
    generations, severities = Counter(), Counter()
    fax = None
    for k in range(60):
        instrument = sample_instrument(make_random(k, "g"), "unrecorded", template("okonkwo-lindqvist"), recorder("teasdale-ky"))
        rendered = render_instrument(instrument, k, "g", scanned=True, archival=True)
        generations.update({rendered.scan_pages[0].generation})
        severities.update(p.severity for p in rendered.scan_pages)
        if rendered.scan_pages[0].generation == "fax" and fax is None:
            fax = rendered
    assert set(generations) == {"scan", "photocopy", "fax"} and set(severities) == {"light", "moderate", "heavy"}
    assert all("fax-header" in p.artefacts for p in fax.scan_pages)
    page = pdfium.PdfDocument(fax.pdf)[0].render(scale=1).to_pil().convert("L")
    assert page.crop((0, 0, page.width, 12)).getextrema()[0] == 0  # the transmission line across the top


def test_bleed_through_shows_the_reverse_mirrored():
    from envirobench_synth.legal.archive import _bleed_through

    page = Image.new("L", (100, 20), 255)
    reverse = Image.new("L", (100, 20), 255)
    reverse.paste(0, (0, 0, 10, 20))  # print at the reverse's left edge
    ghost = _bleed_through(page, reverse, make_random(1, "b"))
    assert ghost.getpixel((95, 10)) < 255 and ghost.getpixel((5, 10)) == 255 and ghost.getpixel((95, 10)) > 150


def test_a_scanned_page_record_refuses_an_unknown_artefact_and_a_page_zero():
    good = {"document_number": 1, "page": 1, "generation": "fax", "dpi": 200, "skew_degrees": 0.4, "blur": 0.5,
            "noise": 8.0, "artefacts": ["fax-header"], "marks": [], "severity": "heavy"}
    assert structure(good, ScannedPage).generation == "fax"
    with pytest.raises(EnviroBenchError, match="coffee-ring"):
        structure({**good, "artefacts": ["coffee-ring"]}, ScannedPage)
    with pytest.raises(EnviroBenchError, match="page"):
        structure({**good, "page": 0}, ScannedPage)


@pytest.mark.parametrize("type_id", ["instrument-execution", "party-roles", "indemnity-terms", "use-limitations", "chain-of-title"])
def test_every_legal_answer_key_records_each_scanned_page_of_its_copies(type_id):
    root = PACKAGE.directory / "benchmarks" / type_id / "datasets" / "synthetic-dev-v1"
    recorded_pages = 0
    with open(root / "cases.jsonl", encoding="utf-8") as handle:
        cases = {json.loads(line)["id"]: json.loads(line)["input"] for line in handle}
    with open(root / "answers.jsonl", encoding="utf-8") as handle:
        for line in handle:
            answer = json.loads(line)["answer"]
            case = cases[json.loads(line)["id"]]
            documents = case.get("documents") or [case.get("document") or case.get("packet")]
            for page in answer["scan_pages"]:
                document = pdfium.PdfDocument(root / documents[page["document_number"] - 1])
                try:
                    image = document[page["page"] - 1].get_objects()
                    assert any(obj.type == pdfium.raw.FPDF_PAGEOBJ_IMAGE for obj in image)  # a scanned page
                finally:
                    document.close()
                recorded_pages += 1
    assert recorded_pages > 20

