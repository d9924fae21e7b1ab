"""Reading a site's volumes (`read_site`) and cutting them into documents.

Every page of every volume once, in filing order: the words of the text layer
(`pdftext.read_pdf`), OCR of image-only pages (`ocr`, rapidocr) at OCR_DPI, in a pool of
OCR_WORKERS processes for many scans (one pool for the process, so an engine loads once per
worker); pages are cached per process by path, size and modification time, so the four solvers
of one run share them, and each scan's OCR words on disk when the adapter has a cache directory
(`ocr_cache`), so the four types and every rerun read a scan once. Each page keeps its volume's
file name and 1-based number (a citation).

Volumes are cut into documents at page-numbering marks (`Page 1 of 12`, `1 of 12`): a page
numbered 1 starts a document, and so does a page after a run's last page.
"""

from __future__ import annotations

import atexit
import multiprocessing
import multiprocessing.pool
import re
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from .. import ocr_cache, pdftext
from ..layout import Word, group_lines, normalize_space
from .case import SiteCase, volume_name

OCR_DPI = 100.0  # scans are read at this resolution (office scans are 100-150 dpi): half the OCR time of 150
# a record's scans are fed by hand, photocopied and faxed: tilted up to two degrees, read level
# (`ocr.straighten`), their words in the levelled page's coordinates, which a text reader wants
STRAIGHTEN = True


@dataclass
class SitePage:
    file: str  # the volume's file name, as citations name it
    number: int  # 1-based within the volume
    source: str  # "text-layer" or "ocr"
    words: list[Word]
    lines: list[str]
    document: int = 0  # index of the document it belongs to (read_site cuts them)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def citation(self) -> dict[str, Any]:
        return {"file": self.file, "page": self.number}


_CACHE: dict[tuple, list[SitePage]] = {}
# Told (pages read, pages in the record) as a site is read; protocol.py sets it to the kit's
# ctx.progress for the case being solved, so a site run shows pages read, not only 0/1 sites.
PAGES_READ: ContextVar[Callable[[int, int], None] | None] = ContextVar("PAGES_READ", default=None)


def read_site(
    case: SiteCase, sources: Mapping[str, Path], jitter: np.random.Generator | None = None
) -> list[SitePage]:
    """Every page of every volume, in order, with its document index (see the module docstring)."""
    volumes: list[list[SitePage]] = []
    scans: list[tuple[int, Path, int, float, float]] = []  # (volume, file, page index, size)
    keys = []
    for v, volume in enumerate(case.volumes):
        path = volume.file
        file = sources[path]
        stat = file.stat()
        key = (str(file), stat.st_size, stat.st_mtime_ns)
        keys.append(key)
        if key in _CACHE and jitter is None:
            volumes.append(_CACHE[key])
            continue
        read, wanted = read_text_layer(file, volume_name(path))
        volumes.append(read)
        scans += [(v, file, index, width, height) for index, width, height in wanted]
    report = PAGES_READ.get()
    total = sum(len(read) for read in volumes)
    if report is not None:
        report(total - len(scans), total)  # every page but the scans is read by now
    # Scans the OCR page cache has are read from it; the others by one pool of OCR workers for the
    # scans of every volume (kept for the process: an engine loads once per worker).
    done = 0
    unread = []
    for scan in scans:
        v, file, index, _, _ = scan
        cached = None if jitter is not None else ocr_cache.cached(file, index, OCR_DPI, STRAIGHTEN)
        if cached is None:
            unread.append(scan)
            continue
        volumes[v][index].words = cached
        done += 1
    if report is not None and done:
        report(total - len(scans) + done, total)
    for (v, _, index, _, _), words in zip(unread, ocr_pages(unread, jitter), strict=True):
        volumes[v][index].words = words
        done += 1
        if report is not None:
            report(total - len(scans) + done, total)
    pages: list[SitePage] = []
    for v, read in enumerate(volumes):
        for page in read:
            if not page.lines:
                page.lines = [normalize_space(line.text) for line in group_lines(page.words)]
        if jitter is None:
            _CACHE[keys[v]] = read
        pages += [SitePage(p.file, p.number, p.source, p.words, p.lines) for p in read]
    cut_documents(pages)
    return pages


def read_text_layer(file: Path, name: str) -> tuple[list[SitePage], list[tuple[int, float, float]]]:
    """A volume's pages with the words of their text layer (PDFium's text runs), and the
    image-only pages still to be read by OCR (index, width, height)."""
    document = pdfium.PdfDocument(str(file))
    try:
        pages: list[SitePage] = []
        scans: list[tuple[int, float, float]] = []
        for index in range(len(document)):
            page = document[index]
            width, height = page.get_size()
            textpage = page.get_textpage()
            if textpage.count_chars() < pdftext.MIN_TEXT_CHARS:
                scans.append((index, width, height))
                pages.append(SitePage(name, index + 1, "ocr", [], []))
            else:
                pages.append(
                    SitePage(name, index + 1, "text-layer", text_runs(textpage, height), [])
                )
    finally:
        document.close()
    return pages, scans


def text_runs(textpage: Any, height: float) -> list[Word]:
    """A page's words from PDFium's text runs (a run is text drawn together on one line: a cell,
    a label, a line of prose), each run's words placed by their share of its characters. Much
    faster than reading characters one by one, and exact for what the solvers need: which words
    stand together and where a run starts and ends."""
    words: list[Word] = []
    for k in range(textpage.count_rects()):
        left, bottom, right, top = textpage.get_rect(k)
        text = textpage.get_text_bounded(left, bottom, right, top)
        if not text.strip():
            continue
        index = textpage.get_index(
            (left + right) / 2, (top + bottom) / 2, right - left, top - bottom
        )
        size = pdfium_c.FPDFText_GetFontSize(textpage.raw, index) if index >= 0 else 0.0
        bold = index >= 0 and pdfium_c.FPDFText_GetFontWeight(textpage.raw, index) >= 600
        step = (right - left) / max(1, len(text))
        for match in re.finditer(r"\S+", text):
            words.append(Word(match.group(), left + step * match.start(), height - top,
                              left + step * match.end(), height - bottom, 1.0, bold, float(size)))  # fmt: skip
    return words


OCR_WORKERS = 2  # the reference machine has two cores; each worker runs one single-threaded engine
POOL_MIN_PAGES = 6  # fewer scans than this are read in this process (a worker costs an engine load)


def _ocr_one(args: tuple[str, int, float, float]) -> list[Word]:
    path, index, width, height = args
    return pdftext.ocr_page(Path(path), index, width, height, OCR_DPI, None, STRAIGHTEN).words


_POOL: list[multiprocessing.pool.Pool] = []  # the process's OCR workers, made on first need


def ocr_pool() -> multiprocessing.pool.Pool:
    """The process's pool of OCR workers: made once and kept (each worker loads its engine once,
    whatever the number of sites a run reads), ended when the process exits."""
    if not _POOL:
        _POOL.append(multiprocessing.get_context("spawn").Pool(OCR_WORKERS))
        atexit.register(_POOL[0].terminate)
    return _POOL[0]


def ocr_pages(
    scans: list[tuple[int, Path, int, float, float]], jitter: np.random.Generator | None
) -> Iterator[list[Word]]:
    """Each scan's words, in order, as each is read (a caller reports progress page by page)."""
    if jitter is not None or len(scans) < POOL_MIN_PAGES:
        for _, f, i, w, h in scans:
            yield pdftext.ocr_page(f, i, w, h, OCR_DPI, jitter, STRAIGHTEN).words
        return
    # imap keeps the order of map and gives each page as soon as it and those before it are read
    yield from ocr_pool().imap(_ocr_one, [(str(f), i, w, h) for _, f, i, w, h in scans], chunksize=1)


PHONE = re.compile(
    r"\(\d{3}\)\s*\d{3}-\d{4}|\b\d{3}[.-]\d{3}[.-]\d{4}\b"
)  # a letterhead's telephone
PAGE_MARK = re.compile(r"\b(?:page\s+)?(\d{1,3})\s+of\s+(\d{1,3})\b", re.I)


def page_mark(page: SitePage) -> tuple[int, int] | None:
    """The page's own number and count (`Page 3 of 12`) from its first or last lines."""
    for line in [*page.lines[:4], *page.lines[-4:]][::-1]:
        match = PAGE_MARK.search(line)
        if match and "page" in line.lower() or match and len(line) < 24:
            number, total = int(match.group(1)), int(match.group(2))
            if 1 <= number <= total:
                return number, total
    return None


def cut_documents(pages: list[SitePage]) -> None:
    """Give each page its document index: a new document at `Page 1 of N`, after a run's last
    page, or at a new volume."""
    index, expect_new, previous_file = -1, True, None
    for page in pages:
        mark = page_mark(page)
        letterhead = any(PHONE.search(line) for line in page.lines[:2])
        numbered = mark is not None and mark[0] > 1
        if (
            page.file != previous_file
            or expect_new
            or (mark is not None and mark[0] == 1)
            or (letterhead and not numbered)
        ):
            index += 1
        page.document = index
        expect_new = mark is not None and mark[0] == mark[1]
        previous_file = page.file
