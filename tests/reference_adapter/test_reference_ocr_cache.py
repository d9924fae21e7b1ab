"""The OCR page cache (ocr_cache): a scanned page is OCRed once, its words kept on disk under the
adapter's cache directory and read back exactly, by any path to the same bytes; a jittered
reading, another resolution or another engine is a miss; a broken entry is ignored and replaced.

Most tests count the calls of a stand-in recogniser (fast); one reads a real scan with the real
engine and checks the cached words are the very words OCR gave."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from envirobench import structure
from envirobench_reference_adapter import NAME, ocr, ocr_cache, pdftext, site_record
from envirobench_reference_adapter.layout import Word
from envirobench_reference_adapter.site_record import pages as site_pages
from envirobench_site.records import SiteInput
from envirobench_site.site_results import SiteResults


def scan_pdf(path: Path, lines: list[str]) -> Path:
    """An image-only PDF page (a scan at 150 dpi) holding `lines`."""
    image = Image.new("L", (1275, 400), 255)
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=28)
    for k, line in enumerate(lines):
        draw.text((80, 60 + 60 * k), line, font=font, fill=0)
    buffer = io.BytesIO()
    image.save(buffer, format="PDF", resolution=150)
    path.write_bytes(buffer.getvalue())
    return path


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "adapter-cache"
    monkeypatch.setenv(ocr_cache.CACHE_ENV, str(folder))
    for name in ocr_cache.STATS:
        monkeypatch.setitem(ocr_cache.STATS, name, 0)
    return folder / NAME / ocr_cache.FOLDER


@pytest.fixture
def recogniser(monkeypatch):
    """A stand-in for ocr.recognize that counts its calls and returns fixed words (in pixels)."""
    calls: list[tuple[int, int]] = []

    def recognize(pixels, *, upscale: float = 1.0):
        calls.append(np.asarray(pixels).shape)
        return [Word("Tank", 100.0, 50.0, 180.5, 80.25, 0.9375, False, 17.1), Word("T-2", 190.0, 50.0, 240.0, 80.25, 0.5, False, 17.1)]

    monkeypatch.setattr(ocr, "recognize", recognize)
    monkeypatch.setattr(ocr, "straighten", lambda image: image)
    monkeypatch.setattr(ocr, "recognize_upright", lambda image: (recognize(image), 0, image))
    return calls


def entries(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.json")) if folder.exists() else []


def read(path: Path, dpi: float = 100.0, jitter=None) -> list[Word]:
    return pdftext.ocr_page(path, 0, 612.0, 792.0, dpi, jitter).words


def test_a_page_is_ocred_once_and_its_words_read_back_exactly(tmp_path, cache, recogniser):
    path = scan_pdf(tmp_path / "volume-1.pdf", ["Tank T-2"])
    first = read(path)
    assert len(recogniser) == 1 and len(entries(cache)) == 1
    again = read(path)
    assert len(recogniser) == 1, "the second reading must come from the cache"
    assert again == first and [type(w.x0) for w in again] == [float, float]
    # The same bytes under another name (another type's dataset) are the same page.
    copy = tmp_path / "elsewhere" / "volume-9.pdf"
    copy.parent.mkdir()
    shutil.copy(path, copy)
    assert read(copy) == first and len(recogniser) == 1
    assert ocr_cache.STATS == {"hits": 2, "misses": 1, "ignored": 0, "unwritten": 0}
    assert not [p for p in cache.rglob("*") if p.name.endswith(".tmp")]


def test_another_resolution_engine_or_file_is_another_key(tmp_path, cache, recogniser, monkeypatch):
    path = scan_pdf(tmp_path / "volume-1.pdf", ["Tank T-2"])
    read(path)
    read(path, dpi=150.0)
    assert len(recogniser) == 2
    pdftext.ocr_page(path, 0, 612.0, 792.0, 100.0, None, straighten=True)
    assert len(recogniser) == 3
    fingerprint = ocr_cache.engine_fingerprint()
    changed = {**fingerprint, "code": {**fingerprint["code"], "ocr.py": "0" * 64}}
    monkeypatch.setattr(ocr_cache, "engine_fingerprint", lambda: changed)
    read(path)
    assert len(recogniser) == 4, "an edit of the OCR code must not reuse a reading"
    other = scan_pdf(tmp_path / "volume-2.pdf", ["Tank T-3"])
    read(other)
    assert len(recogniser) == 5 and len(entries(cache)) == 5


def test_the_fingerprint_names_the_engine_models_and_reading_code():
    fingerprint = ocr_cache.engine_fingerprint()
    assert set(fingerprint["packages"]) == {"rapidocr", "onnxruntime"} and fingerprint["packages"]["rapidocr"]
    assert fingerprint["models"]["rec"] == ocr_cache.sha256_of(ocr.model_files()["rec"])
    assert set(fingerprint["code"]) == {"ocr.py", "pdftext.py", "layout.py"}


def test_a_jittered_reading_is_never_cached(tmp_path, cache, recogniser):
    path = scan_pdf(tmp_path / "volume-1.pdf", ["Tank T-2"])
    read(path, jitter=np.random.default_rng(1))
    assert entries(cache) == []
    read(path)
    read(path, jitter=np.random.default_rng(1))
    assert len(recogniser) == 3, "a jittered reading never comes from the cache either"


def test_without_a_cache_directory_nothing_is_kept(tmp_path, monkeypatch, recogniser):
    monkeypatch.delenv(ocr_cache.CACHE_ENV, raising=False)
    path = scan_pdf(tmp_path / "volume-1.pdf", ["Tank T-2"])
    read(path)
    read(path)
    assert len(recogniser) == 2 and not list(tmp_path.rglob("*.json"))
    monkeypatch.setenv(ocr_cache.CACHE_ENV, "relative/cache")
    assert ocr_cache.cache_dir() is None


@pytest.mark.parametrize(
    "damage",
    ["truncated", "not-json", "another-format", "another-key", "a-word-short", "an-integer-box", "empty"],
)
def test_a_broken_entry_is_ignored_and_replaced(tmp_path, cache, recogniser, damage):
    path = scan_pdf(tmp_path / "volume-1.pdf", ["Tank T-2"])
    good = read(path)
    [entry] = entries(cache)
    text = entry.read_text(encoding="utf-8")
    document = json.loads(text)
    if damage == "truncated":
        broken = text[: len(text) // 2]
    elif damage == "not-json":
        broken = "\x00\x01 not json"
    elif damage == "empty":
        broken = ""
    else:
        if damage == "another-format":
            document["format"] = "envirobench-reference-adapter.ocr-page.v0"
        elif damage == "another-key":
            document["key"]["page"] = 7  # an entry copied from another page's name
        elif damage == "a-word-short":
            document["words"][0] = document["words"][0][:5]
        else:
            document["words"][1][1] = 190  # an int where a float was written
        broken = json.dumps(document)
    entry.write_text(broken, encoding="utf-8")
    assert read(path) == good
    assert len(recogniser) == 2 and ocr_cache.STATS["ignored"] == 1
    assert json.loads(entry.read_text(encoding="utf-8")) == json.loads(text), "the entry is replaced by a whole one"
    assert read(path) == good and len(recogniser) == 2


def test_a_cache_that_cannot_be_written_costs_the_saving_not_the_page(tmp_path, monkeypatch, recogniser):
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("a file where the cache's folder would be")
    monkeypatch.setenv(ocr_cache.CACHE_ENV, str(blocker))
    monkeypatch.setitem(ocr_cache.STATS, "unwritten", 0)
    path = scan_pdf(tmp_path / "volume-1.pdf", ["Tank T-2"])
    assert [w.text for w in read(path)] == ["Tank", "T-2"]
    assert ocr_cache.STATS["unwritten"] == 1


def _site(folder: Path, volumes: int) -> tuple[SiteInput, dict[str, Path]]:
    raw = {
        "site": "s", "name": "n", "address": "", "as_of": "2024-01-01",
        "volumes": [{"file": f"volume-{k}.pdf", "pages": 1} for k in range(1, volumes + 1)], "pages": volumes,
        "analytes": [], "matrices": [], "standards": "standards.json",
        "condition_kinds": [], "event_kinds": ["tank-installed"],
    }  # fmt: skip
    (folder / "standards.json").write_text('{"rows": []}')
    case = structure(raw, SiteInput)
    return case, {path: folder / path for path in SiteResults().source_files(case)}


def test_a_site_reads_its_scans_from_the_cache_in_a_later_process(tmp_path, cache, recogniser, monkeypatch):
    for k in (1, 2):
        scan_pdf(tmp_path / f"volume-{k}.pdf", [f"Tank T-{k}"])
    case, sources = _site(tmp_path, 2)
    first = site_record.read_site(case, sources)
    assert len(recogniser) == 2 and len(entries(cache)) == 2
    monkeypatch.setattr(site_pages, "_CACHE", {})  # a new process: nothing in memory
    seen: list[tuple[int, int]] = []
    token = site_pages.PAGES_READ.set(lambda done, total: seen.append((done, total)))
    try:
        again = site_record.read_site(case, sources)
    finally:
        site_pages.PAGES_READ.reset(token)
    assert len(recogniser) == 2, "no page was OCRed again"
    assert [(p.words, p.lines, p.document) for p in again] == [(p.words, p.lines, p.document) for p in first]
    assert seen == [(0, 2), (2, 2)]


@pytest.mark.slow
def test_real_ocr_words_come_back_from_the_cache_unchanged(tmp_path, cache):
    path = scan_pdf(tmp_path / "volume-1.pdf", ["Tank T-2, a steel UST, installed 06/11/1975.", "Benzene 0.52 ug/L"])
    uncached = pdftext.ocr_page(path, 0, 612.0, 792.0, 100.0, None).words  # written to the cache
    assert uncached and len(entries(cache)) == 1
    assert read(path) == uncached and ocr_cache.STATS["hits"] == 1
    assert [repr(w) for w in read(path)] == [repr(w) for w in uncached]


def test_a_page_read_level_is_another_key(tmp_path, cache, recogniser):
    path = scan_pdf(tmp_path / "volume-1.pdf", ["Tank T-2"])
    read(path)
    pdftext.ocr_page(path, 0, 612.0, 792.0, 100.0, None, level=True)
    pdftext.ocr_page(path, 0, 612.0, 792.0, 100.0, None, level=True)
    assert len(recogniser) == 2 and len(entries(cache)) == 2


def test_a_scan_is_found_again_in_another_file_at_another_page(tmp_path, cache, recogniser):
    # A record regenerated with other pages changed holds the same scan elsewhere: the cache is
    # keyed by what the page draws, so its reading is found again, not made anew.
    from envirobench_synth.legal.packet import merge_pdfs

    scan = scan_pdf(tmp_path / "scan.pdf", ["Tank T-2"])
    first = read(scan)
    other = scan_pdf(tmp_path / "other.pdf", ["Tank T-9"])
    volume = tmp_path / "volume-1.pdf"
    volume.write_bytes(merge_pdfs([other.read_bytes(), scan.read_bytes()]))
    assert pdftext.ocr_page(volume, 1, 612.0, 792.0, 100.0, None).words == first
    assert len(recogniser) == 1, "the same scan at page 2 of another file is the same page"
    pdftext.ocr_page(volume, 0, 612.0, 792.0, 100.0, None)
    assert len(recogniser) == 2, "another scan is another page"


def test_a_page_that_draws_more_than_images_is_keyed_by_its_file(tmp_path):
    from reportlab.pdfgen import canvas as pdf_canvas

    path = tmp_path / "mixed.pdf"
    page = pdf_canvas.Canvas(str(path), pagesize=(612, 792), invariant=1)
    page.drawString(72, 700, "a typed line beside the scan")
    page.rect(72, 400, 200, 100)
    page.showPage()
    page.save()
    assert ocr_cache.page_content_sha256(path, 0) is None
    material = ocr_cache.key_material(path, 0, 100.0, False)
    assert material["file"] == ocr_cache.file_sha256(path) and material["page"] == 0
    scan = scan_pdf(tmp_path / "scan.pdf", ["Tank T-2"])
    assert set(ocr_cache.key_material(scan, 0, 100.0, False)) >= {"page_content", "dpi", "engine"}
