"""A site's whole document record, read once: the engine of the four site-tier solvers
(`site-results`, `exceedance-summary`, `recognized-conditions`, `site-timeline`).

**Input.** The case input of every site type (`parse_input`): the site, its volumes (PDF files
with page counts, no document boundaries given), the site's analytes (name, CAS number, the
synonyms the record prints), matrices, the standards JSON asset and the condition and event
kinds a prediction may name.

**Reading** (`read_site`). Every page of every volume once, in filing order: the words of the
text layer (`pdftext.read_pdf`), OCR of image-only pages (`ocr`, rapidocr) at OCR_DPI; pages are
cached per process by path, size and modification time, so the four solvers of one run share
them. Each page keeps its volume's file name and 1-based number (a citation).

**Documents.** Volumes are cut into documents at page-numbering marks (`Page 1 of 12`, `1 of 12`):
a page numbered 1 starts a document, and so does a page after a run's last page. A document's
flags come from general cues on its pages: a laboratory report (laboratory words, lab sample IDs,
a results table the table reader reads), revised (revision words: revised, revision 2,
supersedes), draft (draft or preliminary on its first page).

**Results** (`read_results`). Every printing of a result, by two readers:
- laboratory results tables (`results_tables.TableReader`, analytes as rows, one reader per
  document): the sample ID gives the location (a sampling-point ID: a prefix of the usual
  kinds, MW, SB, SV, SS, IA, TP, GP, B, ..., and a number) and, for soil, the depth (`(4-6 ft)`,
  or a compact interval at the end of the ID, `-46` read as 4-6); the sampling date comes from
  the line of the document that prints the sample ID with a date (the sample summary), else from
  a date inside the ID (`-051419`); the matrix from the words of that line, the report's matrix
  label, else the unit and the point's prefix;
- report tables with the analytes as columns (`WideTables`): a header line whose cells name at
  least two of the site's analytes (by name, synonym, CAS or an abbreviation ending in a dot),
  rows that start with a sampling point (and its depth and date, or a date column), the values
  under the analyte columns; units from a `Units:` line or the headers, else the unit the
  laboratory reports of the site print for that analyte and matrix.
Then prose: a sentence that corrects a value (correct, should read, revised to, erroneously)
and names a point, an analyte and a date gives a correction printing of its last number; a
sentence that rejects data (rejected, unusable, R-flagged) and names a point, an analyte and a
date marks that key rejected.

**Reconciliation** (`reconcile`), by the published reprint rules: a key with a rejected printing
(an R qualifier, a rejection sentence) has no record; otherwise the governing value is a correction
letter's, else the latest revised laboratory report's, else the original laboratory report's,
else the value most final report tables print (drafts last). Every printing is listed.

Weaknesses: a sampling point whose prefix is not among the usual kinds is not read; a sample ID
that hides its location (DUP-1, a blind duplicate) gives no record (its parent does); dates
printed day-first are read day-first only when the document shows a day above 12 in that
position; OCR misreads pass through; a correction sentence that puts the wrong value last is
misread; a report table that wraps a header over two lines is read from its analyte line only.

Length: one pipeline over one record — reading the volumes (text layer and OCR), cutting them into
documents, the printings of every kind of page, and the reconciliation that needs them all. The
four solvers share it whole; its stages pass one another page and document structures that would
otherwise have to become a public interface between modules.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from . import inputs, pdftext
from .layout import Line, Word, em_size, group_lines, normalize_space, split_phrases
from .quantities import find_cas, normalize_unit, parse_result
from .results_tables import TableReader

OCR_DPI = 100.0  # scans are read at this resolution (office scans are 100-150 dpi): half the OCR time of 150
PHRASE_GAP_EMS = 0.8

# -- input ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AnalyteRow:
    name: str
    cas: str
    synonyms: tuple[str, ...]


@dataclass(frozen=True)
class SiteCase:
    site: str
    name: str
    address: str
    as_of: str
    volumes: tuple[tuple[str, int], ...]  # (dataset-relative path, pages)
    pages: int
    analytes: tuple[AnalyteRow, ...]
    matrices: tuple[str, ...]
    standards: str
    condition_kinds: tuple[str, ...]
    event_kinds: tuple[str, ...]


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise ValueError(f"{where}: must be a list")
    return tuple(inputs.string(v, f"{where}[{k}]") for k, v in enumerate(value))


def parse_input(raw: Any, where: str) -> SiteCase:
    keys = ("site", "name", "address", "as_of", "volumes", "pages", "analytes", "matrices",
            "standards", "condition_kinds", "event_kinds")  # fmt: skip
    data = inputs.fields(raw, where, keys, ("condition_classes",))
    volumes = data["volumes"]
    if not isinstance(volumes, list) or not volumes:
        raise ValueError(f"{where}.volumes: must be a non-empty list")
    parsed_volumes = []
    for k, volume in enumerate(volumes):
        item = inputs.fields(volume, f"{where}.volumes[{k}]", ("file", "pages"))
        path = inputs.string(item["file"], f"{where}.volumes[{k}].file", suffix=".pdf")
        if ".." in PurePosixPath(path).parts or path.startswith("/"):
            raise ValueError(f"{where}.volumes[{k}].file: must be a dataset-relative path")
        parsed_volumes.append(
            (path, inputs.positive_int(item["pages"], f"{where}.volumes[{k}].pages"))
        )
    analytes = data["analytes"]
    if not isinstance(analytes, list):
        raise ValueError(f"{where}.analytes: must be a list")
    rows = []
    for k, entry in enumerate(analytes):
        item = inputs.fields(entry, f"{where}.analytes[{k}]", ("name",), ("cas", "synonyms"))
        rows.append(
            AnalyteRow(
                inputs.string(item["name"], f"{where}.analytes[{k}].name"),
                ""
                if item.get("cas") is None
                else inputs.string(item["cas"], f"{where}.analytes[{k}].cas"),
                _strings(item.get("synonyms", []), f"{where}.analytes[{k}].synonyms"),
            )
        )
    as_of = inputs.string(data["as_of"], f"{where}.as_of")
    try:
        dt.date.fromisoformat(as_of)
    except ValueError:
        raise ValueError(f"{where}.as_of: must be an ISO date") from None
    if not isinstance(data["address"], str):
        raise ValueError(f"{where}.address: must be a string")
    return SiteCase(
        site=inputs.string(data["site"], f"{where}.site"),
        name=inputs.string(data["name"], f"{where}.name"),
        address=data["address"],
        as_of=as_of,
        volumes=tuple(parsed_volumes),
        pages=inputs.positive_int(data["pages"], f"{where}.pages"),
        analytes=tuple(rows),
        matrices=_strings(data["matrices"], f"{where}.matrices"),
        standards=inputs.string(data["standards"], f"{where}.standards", suffix=".json"),
        condition_kinds=_strings(data["condition_kinds"], f"{where}.condition_kinds"),
        event_kinds=_strings(data["event_kinds"], f"{where}.event_kinds"),
    )


def source_files(case: SiteCase) -> list[str]:
    return [path for path, _ in case.volumes] + [case.standards]


def volume_name(path: str) -> str:
    return PurePosixPath(path).name


# -- pages ------------------------------------------------------------------------------------------


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


def read_site(
    case: SiteCase, sources: Mapping[str, Path], jitter: np.random.Generator | None = None
) -> list[SitePage]:
    """Every page of every volume, in order, with its document index (see the module docstring)."""
    volumes: list[list[SitePage]] = []
    scans: list[tuple[int, Path, int, float, float]] = []  # (volume, file, page index, size)
    keys = []
    for v, (path, _) in enumerate(case.volumes):
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
    # one pool of OCR workers for the scans of every volume (an engine loads once per worker)
    for (v, _, index, _, _), words in zip(scans, ocr_pages(scans, jitter), strict=True):
        volumes[v][index].words = words
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
    return pdftext.ocr_page(Path(path), index, width, height, OCR_DPI, None).words


def ocr_pages(
    scans: list[tuple[int, Path, int, float, float]], jitter: np.random.Generator | None
) -> list[list[Word]]:
    if jitter is not None or len(scans) < POOL_MIN_PAGES:
        return [pdftext.ocr_page(f, i, w, h, OCR_DPI, jitter).words for _, f, i, w, h in scans]
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    with context.Pool(OCR_WORKERS) as pool:
        return pool.map(_ocr_one, [(str(f), i, w, h) for _, f, i, w, h in scans], chunksize=1)


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


# -- vocabulary -------------------------------------------------------------------------------------

MONTHS = {m: i for i, m in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), start=1)}  # fmt: skip
MONTH = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
DATE_FORMS = (
    (re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b"), "ymd"),
    (re.compile(r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{4}|\d{2})\b"), "slash"),
    (re.compile(rf"\b{MONTH}\s+(\d{{1,2}})[,.]?\s+(\d{{4}})\b", re.I), "mdy-name"),
    (re.compile(rf"\b(\d{{1,2}})[\s-]+{MONTH}[\s,-]+(\d{{4}}|\d{{2}})\b", re.I), "dmy-name"),
)
MONTH_YEAR = re.compile(rf"\b{MONTH}\s+(\d{{4}})\b", re.I)
YEAR = re.compile(r"\b(19[5-9]\d|20[0-4]\d)\b")


def _year(text: str) -> int:
    year = int(text)
    if len(text) == 2:
        year += 2000 if year < 50 else 1900
    return year


def find_dates(text: str, *, day_first: bool = False) -> list[tuple[str, int, int]]:
    """(ISO date, start, end) of every full date in `text`, in order. A slash or dotted date is
    month-first unless `day_first` or its first number is above 12."""
    found: list[tuple[str, int, int]] = []
    taken: list[tuple[int, int]] = []
    for pattern, form in DATE_FORMS:
        for match in pattern.finditer(text):
            if any(match.start() < end and start < match.end() for start, end in taken):
                continue
            groups = match.groups()
            try:
                if form == "ymd":
                    day = dt.date(int(groups[0]), int(groups[1]), int(groups[2]))
                elif form == "slash":
                    a, b, year = int(groups[0]), int(groups[1]), _year(groups[2])
                    first_is_day = a > 12 or (day_first and b <= 12) or "." in match.group(0)
                    day = dt.date(year, b, a) if first_is_day else dt.date(year, a, b)
                elif form == "mdy-name":
                    day = dt.date(int(groups[2]), MONTHS[groups[0].lower()[:3]], int(groups[1]))
                else:
                    day = dt.date(_year(groups[2]), MONTHS[groups[1].lower()[:3]], int(groups[0]))
            except (ValueError, KeyError):
                continue
            if not 1900 <= day.year <= 2100:
                continue
            found.append((day.isoformat(), match.start(), match.end()))
            taken.append((match.start(), match.end()))
    return sorted(found, key=lambda item: item[1])


def day_first_text(text: str) -> bool:
    """Whether a document writes its slash dates day-first: some date has a first number above 12."""
    return any(int(m.group(1)) > 12 and int(m.group(2)) <= 12
               for m in re.finditer(r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{2,4})\b", text))  # fmt: skip


# Sampling-point prefixes of site investigations: monitoring, recovery, extraction and
# observation wells, piezometers, soil borings and probes, hand augers, test pits, soil-gas and
# vapor probes, sub-slab ports, indoor and outdoor air, surface water and sediment stations.
POINT_PREFIXES = (
    "MW", "RW", "EW", "OW", "PZ", "SB", "B", "BH", "GP", "HA", "TP", "SV", "SG", "VP", "VMP",
    "SS", "SSV", "IA", "OA", "AA", "SW", "SED", "SD",
)  # fmt: skip
POINT = re.compile(r"(?<![A-Za-z0-9])(" + "|".join(sorted(POINT_PREFIXES, key=len, reverse=True))
                   + r")[\s_-]?0*(\d{1,3})(?![\d.])", re.I)  # fmt: skip
WELL_WORD = re.compile(r"\b(?:monitoring\s+)?well\s+(?:no\.\s*)?0*(\d{1,3})\b", re.I)
DEPTH = re.compile(
    r"\(?\s*(\d+(?:\.\d+)?)\s*(?:-|–|to)\s*(\d+(?:\.\d+)?)\s*(?:'|ft|feet)?\s*(?:bgs)?\s*\)?", re.I
)


def point_of(text: str) -> tuple[str, int, int] | None:
    """The sampling point a label names, canonical (`MW-3`), with its span in `text`."""
    match = POINT.search(text)
    if match:
        return f"{match.group(1).upper()}-{int(match.group(2))}", match.start(), match.end()
    match = WELL_WORD.search(text)
    if match:
        return f"MW-{int(match.group(1))}", match.start(), match.end()
    return None


def compact_depth(digits: str) -> str | None:
    """A depth interval written without its hyphen (`46` is 4-6, `1012` is 10-12): the split whose
    bottom is below its top by the least (at most 10 feet)."""
    best = None
    for cut in range(1, len(digits)):
        top, bottom = int(digits[:cut]), int(digits[cut:])
        if digits[cut] == "0" and len(digits) - cut > 1:
            continue
        if 0 < bottom - top <= 10 and (best is None or bottom - top < best[1] - best[0]):
            best = (top, bottom)
    return f"{best[0]}-{best[1]}" if best else None


def depth_of(label: str, after: int) -> str | None:
    """The depth interval a sample label gives after its point ID: `(4-6 ft)`, `4-6'`, `-46`."""
    rest = label[after:]
    match = DEPTH.search(rest)
    if match and not re.match(r"^\s*[-_]?\s*\d{5,}", rest):
        top, bottom = float(match.group(1)), float(match.group(2))
        if 0 <= top < bottom <= 200:
            return f"{match.group(1)}-{match.group(2)}"
    compact = re.match(r"^\s*[-_ ]\s*(\d{2,4})\b", rest)
    if compact:
        return compact_depth(compact.group(1))
    return None


def id_date(label: str, after: int) -> str | None:
    """A date written inside a sample ID after its point (`-051419`, `-20190514`)."""
    match = re.match(r"^\s*[-_ ]\s*(\d{6}|\d{8})\b", label[after:])
    if not match:
        return None
    digits = match.group(1)
    try:
        if len(digits) == 8:
            day = dt.date(int(digits[:4]), int(digits[4:6]), int(digits[6:]))
        else:
            day = dt.date(_year(digits[4:]), int(digits[:2]), int(digits[2:4]))
    except ValueError:
        return None
    return day.isoformat()


MATRIX_WORDS = (
    ("sub-slab-vapor", re.compile(r"\bsub[\s-]?slab\b", re.I)),
    ("indoor-air", re.compile(r"\bindoor\s+air\b", re.I)),
    ("soil-vapor", re.compile(r"\bsoil[\s-]+(vapou?r|gas)\b", re.I)),
    ("surface-water", re.compile(r"\bsurface\s+water\b", re.I)),
    ("sediment", re.compile(r"\bsediments?\b", re.I)),
    ("groundwater", re.compile(r"\bground[\s-]?water\b|\baqueous\b|\bwater\b", re.I)),
    ("soil", re.compile(r"\bsoils?\b|\bsolid\b", re.I)),
)
AIR_BY_PREFIX = {"SS": "sub-slab-vapor", "SSV": "sub-slab-vapor", "IA": "indoor-air",
                 "OA": "indoor-air", "AA": "indoor-air"}  # fmt: skip


def matrix_words(text: str) -> str | None:
    for matrix, pattern in MATRIX_WORDS:
        if pattern.search(text):
            return matrix
    return None


def matrix_by_unit(unit: str, point: str) -> str | None:
    """The medium a unit implies: per kilogram a soil, per litre a water, per cubic metre air
    (sub-slab, indoor or soil vapor by the point's prefix)."""
    prefix = point.split("-")[0]
    spelled = unit.lower().replace(" ", "")
    if spelled.endswith("/kg"):
        return "sediment" if prefix in ("SED", "SD") else "soil"
    if spelled.endswith("/l"):
        return "surface-water" if prefix == "SW" else "groundwater"
    if spelled.endswith("m³") or spelled.endswith("m3") or "ppbv" in spelled:
        return AIR_BY_PREFIX.get(prefix, "soil-vapor")
    return None


def _fold(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.casefold())


class Analytes:
    """The site's analytes by name, synonym and CAS number; abbreviations that end in a dot
    (`Ethylbenz.`) match the one name they begin."""

    def __init__(self, rows: Sequence[AnalyteRow]) -> None:
        self.rows = rows
        self.by_fold: dict[str, AnalyteRow] = {}
        self.by_cas = {row.cas: row for row in rows if row.cas}
        for row in rows:
            for name in (row.name, *row.synonyms):
                self.by_fold.setdefault(_fold(name), row)

    def resolve(self, text: str) -> AnalyteRow | None:
        text = text.strip()
        if not text:
            return None
        cas = find_cas(text)
        if cas and cas in self.by_cas:
            return self.by_cas[cas]
        folded = _fold(text)
        if folded in self.by_fold:
            return self.by_fold[folded]
        if text.endswith(".") and len(folded) >= 3:
            hits = {row.name: row for f, row in self.by_fold.items() if f.startswith(folded)}
            if len(hits) == 1:
                return next(iter(hits.values()))
        return None


UNIT_TEXT = re.compile(r"(?<![A-Za-z])([mµuμn]?g/(?:kg|L|l|m3|m³))(?![A-Za-z])|\bppbv\b|\bppmv\b")


def unit_in(text: str) -> str | None:
    match = UNIT_TEXT.search(text)
    if not match:
        return None
    return normalize_unit(match.group(0)) or match.group(0)


def unit_key(unit: str) -> str:
    return unit.replace("µ", "u").replace("μ", "u").replace("m³", "m3").lower()


# -- printings --------------------------------------------------------------------------------------

Key = tuple[str, str, str, str, str]  # point, depth ("" none), ISO date, analyte name, matrix


@dataclass
class Printing:
    file: str
    page: int
    kind: str  # "lab", "table", "correction"
    value: float | None  # None: not detected
    unit: str
    reporting_limit: float | None = None
    qualifier: str = ""
    revised: bool = False  # in a revised laboratory report
    draft: bool = False  # in a draft
    rejected: bool = False  # R-flagged
    order: int = 0  # reading order over the record


@dataclass
class Document:
    index: int
    pages: list[SitePage]
    lab: bool = False
    revised: bool = False
    draft: bool = False

    @property
    def text(self) -> str:
        return "\n".join(p.text for p in self.pages)


LAB_WORDS = re.compile(r"\blab(oratory)?\s+(sample\s+)?(id|no\.?|number)\b|\bwork\s+order\b|"
                       r"\banalytical\s+(report|results|laboratory)\b|\bcase\s+narrative\b|"
                       r"\bchain\s+of\s+custody\b|\bmethod\s+blank\b|\breporting\s+limit\b", re.I)  # fmt: skip
REVISED_WORDS = re.compile(r"\brevised\b|\brevision\s+\d\b|\bsupersedes\b", re.I)
DRAFT_WORDS = re.compile(r"\bdraft\b|\bpreliminary\b", re.I)


def documents_of(pages: Sequence[SitePage]) -> list[Document]:
    docs: dict[int, Document] = {}
    for page in pages:
        docs.setdefault(page.document, Document(page.document, [])).pages.append(page)
    for doc in docs.values():
        head = "\n".join(doc.pages[0].lines[:14])
        text = doc.text
        doc.lab = len(LAB_WORDS.findall(text)) >= 2
        doc.revised = bool(REVISED_WORDS.search(head)) or (
            doc.lab and bool(REVISED_WORDS.search(text))
        )
        doc.draft = bool(DRAFT_WORDS.search(head))
    return [docs[k] for k in sorted(docs)]


@dataclass
class SampleInfo:
    date: str | None = None
    matrix: str | None = None
    label: str = ""  # as printed


def sample_dates(doc: Document, day_first: bool | None = None) -> dict[str, SampleInfo]:
    """Sample label -> its date and matrix, from the document's lines that print a sampling point
    and a date (a sample summary, a caption), read day-first where the document writes so: a day
    above 12 in first place, or sample IDs whose own dates agree only with the day-first reading."""
    if day_first is None:
        day_first = day_first_text(doc.text)
        if not day_first:
            read = sample_dates(doc, False)
            swapped = 0
            for entry in read.values():
                point = point_of(entry.label)
                own = id_date(entry.label, point[2]) if point else None
                if own and entry.date and own != entry.date and own == _swap(entry.date):
                    swapped += 1
            if swapped:
                return sample_dates(doc, True)
            return read
    info: dict[str, SampleInfo] = {}
    for page in doc.pages:
        for k, line in enumerate(page.lines):
            point = point_of(line)
            if point is None:
                continue
            dates = [d for d in find_dates(line, day_first=day_first) if d[1] >= point[2]]
            rest = line[dates[0][1] :] if dates else ""
            if (
                not dates
                and k + 1 < len(page.lines)
                and re.search(r"collect|sampl", page.lines[k + 1], re.I)
            ):
                dates = find_dates(page.lines[k + 1], day_first=day_first)
                rest = page.lines[k + 1]
            if not dates:
                continue
            # the sample ID: the token that starts with the point, and a parenthesis after it
            token = re.match(r"\S+(\s*\([^)]*\))?", line[point[1] :])
            label = token.group(0) if token else line[point[1] : point[2]]
            entry = info.setdefault(_fold(label), SampleInfo(label=label))
            entry.date = entry.date or dates[0][0]
            entry.matrix = entry.matrix or matrix_words(line[point[2] :] + " " + rest)
    return info


def _swap(iso: str) -> str | None:
    """A date with its day and month exchanged (None when that is no date)."""
    try:
        day = dt.date.fromisoformat(iso)
        return dt.date(day.year, day.day, day.month).isoformat()
    except ValueError:
        return None


RECOVERY_ROW = re.compile(r"%\s*REC\b|\bsurr(ogate)?\b|\(\s*s\s*\)", re.I)


def without_recoveries(words: list[Word]) -> list[Word]:
    """The page's words less its surrogate-recovery rows, the rows below moved up to close the
    gap (a table's rows stay a table)."""
    lines = group_lines(words)
    kept: list[Word] = []
    shift = 0.0
    for k, line in enumerate(lines):
        if RECOVERY_ROW.search(line.text):
            pitch = (lines[k + 1].top - line.top) if k + 1 < len(lines) else 0.0
            shift += max(0.0, pitch)
            continue
        kept += [w.moved(0.0, -shift) for w in line.words]
    return kept


def lab_printings(
    doc: Document, analytes: Analytes, order: list[int]
) -> list[tuple[Key, Printing]]:
    """The results of a laboratory report's tables, as printings of keys."""
    reader = TableReader()
    tagged: list[tuple[dict[str, Any], SitePage]] = []
    for page in doc.pages:
        sample = reader.sample
        records = reader.read_page(page.words)
        if any(RECOVERY_ROW.search(line) for line in page.lines):
            # a section of few analytes whose recoveries fill the limit column reads as a QC
            # table: the page again without its recovery rows (QC, never results), for what the
            # first reading missed
            retry = TableReader(sample=sample)
            seen = {(r["sample_id"], r["analyte"]) for r in records}
            missed = [r for r in retry.read_page(without_recoveries(page.words))
                      if (r["sample_id"], r["analyte"]) not in seen]  # fmt: skip
            reader.records += missed
            records = records + missed
        for record in records:
            tagged.append((record, page))
    day_first = day_first_text(doc.text)
    samples = sample_dates(doc)
    report_matrix = None
    for page in doc.pages[:3]:
        for line in page.lines:
            if re.match(r"^matrix\b", line, re.I):
                report_matrix = report_matrix or matrix_words(line)
    out = []
    for record, page in tagged:
        label = record["sample_id"]
        point = point_of(label)
        row = analytes.resolve(record.get("cas") or "") or analytes.resolve(record["analyte"])
        if point is None or row is None:
            continue
        info = samples.get(_fold(label))
        if info is None:  # a label printed longer or shorter than in the summary
            info = next((v for k, v in samples.items() if k and (k.startswith(_fold(label)) or _fold(label).startswith(k))), SampleInfo())  # fmt: skip
        date = info.date or id_date(label, point[2])
        if date is None:
            dates = find_dates(label, day_first=day_first)
            date = dates[0][0] if dates else None
        if date is None:
            continue
        unit = record.get("unit") or ""
        matrix = info.matrix or report_matrix or matrix_by_unit(unit, point[0]) or "groundwater"
        if (
            matrix in ("groundwater", "soil")
            and unit
            and matrix_by_unit(unit, point[0]) not in (None, matrix)
        ):
            matrix = matrix_by_unit(unit, point[0]) or matrix
        depth = depth_of(label, point[2]) if matrix in ("soil", "sediment") else None
        qualifier = record.get("qualifier") or ""
        order[0] += 1
        printing = Printing(page.file, page.number, "lab", record["result"], unit,
                            record.get("reporting_limit"), qualifier, doc.revised, doc.draft,
                            "R" in re.findall(r"[A-Z]", qualifier), order[0])  # fmt: skip
        out.append(((point[0], depth or "", date, row.name, matrix), printing))
    return out


@dataclass
class WideColumn:
    x0: float
    x1: float
    analyte: AnalyteRow | None  # None: the label or a date column
    unit: str | None = None
    is_date: bool = False


def wide_printings(
    doc: Document, analytes: Analytes, order: list[int]
) -> list[tuple[Key, Printing]]:
    """Results of report tables with analytes as columns and a sample per row."""
    out = []
    day_first = day_first_text(doc.text)
    for page in doc.pages:
        lines = group_lines(page.words)
        if not lines:
            continue
        em = em_size(page.words)
        units: dict[str, str] = {}
        matrix_hint = None
        columns: list[WideColumn] | None = None
        caption_point: tuple[str, int, int] | None = None
        recent: list[str] = []
        for line in lines:
            text = normalize_space(line.text)
            recent = [*recent[-3:], text]
            if re.match(r"^units?\s*:", text, re.I):
                for piece in re.split(r"[,;]", text.split(":", 1)[1]):
                    unit = unit_in(piece)
                    row = analytes.resolve(UNIT_TEXT.sub("", piece).strip())
                    if unit and row:
                        units[row.name] = unit
                    elif unit and not row and "all" not in units:
                        units["all"] = unit
                continue
            if columns is None or not _value_line(line):
                header = _wide_header(line, analytes, em)
                if header is not None:
                    columns = header
                    above = " ".join(recent[:-1])
                    matrix_hint = matrix_words(above) or matrix_hint
                    # a table of one sampling point names it in its caption ("..., MW-1")
                    caption_point = point_of(above)
                    continue
                if columns is not None and not _value_line(line):
                    if len(text.split()) > 3:
                        columns = None
                    continue
            if columns is None:
                continue
            phrases = split_phrases(line, PHRASE_GAP_EMS * em)
            cells: dict[int, str] = {}
            label_parts = []
            for phrase in phrases:
                k = site_record_column(columns, phrase.x0, phrase.x1)
                if columns[k].analyte is None and not columns[k].is_date:
                    label_parts.append(phrase.text)
                else:
                    cells[k] = (cells.get(k, "") + " " + phrase.text).strip()
            label = " ".join(label_parts)
            point = point_of(label)
            dates = find_dates(label, day_first=day_first)
            if point is None and caption_point is not None:
                point = (caption_point[0], len(label), len(label))
            if point is None:
                continue
            for k, column in enumerate(columns):
                if column.is_date and k in cells:
                    dates = dates or find_dates(cells[k], day_first=day_first)
            if not dates:
                continue
            date = dates[0][0]
            depth = depth_of(label, point[2])
            for k, column in enumerate(columns):
                if column.analyte is None or k not in cells:
                    continue
                value = parse_result(cells[k])
                if value is None:
                    continue
                unit = column.unit or units.get(column.analyte.name) or units.get("all") or ""
                matrix = matrix_hint or (matrix_by_unit(unit, point[0]) if unit else None)
                if matrix is None:
                    matrix = "soil" if depth else "groundwater"
                if depth and matrix not in ("soil", "sediment"):
                    matrix = "soil"
                qualifier = value.qualifier or ""
                order[0] += 1
                printing = Printing(page.file, page.number, "table", value.result, unit,
                                    value.limit, qualifier, False, doc.draft,
                                    "R" in re.findall(r"[A-Z]", qualifier), order[0])  # fmt: skip
                out.append(((point[0], depth or "", date, column.analyte.name, matrix), printing))
    return out


def site_record_column(columns: list[WideColumn], x0: float, x1: float) -> int:
    """The column a phrase stands in: the one it overlaps most, else the nearest by centre."""
    from .layout import assign_column

    return assign_column(x0, x1, [(c.x0, c.x1) for c in columns])


def _value_line(line: Line) -> bool:
    return any(re.match(r"^[<]?\d|^ND$|^--$", w.text) for w in line.words[1:])


def _wide_header(line: Line, analytes: Analytes, em: float) -> list[WideColumn] | None:
    phrases = split_phrases(line, PHRASE_GAP_EMS * em)
    columns = []
    hits = 0
    for phrase in phrases:
        text = normalize_space(phrase.text)
        unit = unit_in(text)
        row = analytes.resolve(re.sub(r"\(.*?\)", "", text).strip()) or analytes.resolve(text)
        if row is not None:
            hits += 1
        is_date = bool(re.fullmatch(r"(sample\s+)?date(\s+collected)?|collected", text, re.I))
        columns.append(WideColumn(phrase.x0, phrase.x1, row, unit, is_date))
    if hits < 2 or columns[0].analyte is not None:
        return None
    if re.fullmatch(
        r"(sample\s+)?dates?(\s+collected)?|collected", normalize_space(phrases[0].text), re.I
    ):
        columns[0].is_date = True
    return columns


# -- prose: corrections and rejections --------------------------------------------------------------

CORRECTION = re.compile(r"\bcorrect(ed|ion|s)?\b|\bshould\s+(read|be|have\s+been)\b|\berroneous(ly)?\b|"
                        r"\bin\s+error\b|\btranscription\b|\brevised\s+to\b|\bmisreported\b", re.I)  # fmt: skip
REJECTION = re.compile(r"\breject(ed|s|ion)?\b|\bunusable\b|\bR[-\s]?(flagg|qualifi)\w*\b|"
                       r"\bnot\s+usable\b|\bexcluded\s+from\b|\binvalid(ated)?\b", re.I)  # fmt: skip
SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")
CORRECTED_VALUE = re.compile(r"\b(correct(ed)?|revised|should\s+(read|be|have\s+been)|changed\s+to|is\s+now)\b"
                             r"[^0-9<]{0,40}(?P<value>(<\s*)?\d[\d,]*(\.\d+)?)", re.I)  # fmt: skip


def prose_statements(
    doc: Document, analytes: Analytes, order: list[int], table_pages: Mapping[str, set[int]]
) -> tuple[list[tuple[Key, Printing]], list[tuple[Key | tuple, SitePage]]]:
    """Corrections (a printing of the corrected value) and rejections (keys, partial where the
    sentence gives no date or matrix) stated in the document's sentences."""
    corrections, rejections = [], []
    day_first = day_first_text(doc.text)
    for page in doc.pages:
        if page.number in table_pages.get(page.file, set()):
            continue  # a results page's notes and legends are no statements
        # prose only: a table's rows and legends are no statements
        text = " ".join(line for line in page.lines if not _value_row(line))
        for sentence in SENTENCE.split(text):
            corrects, rejects = CORRECTION.search(sentence), REJECTION.search(sentence)
            if not corrects and not rejects:
                continue
            point = point_of(sentence)
            row = _analyte_in(sentence, analytes)
            dates = find_dates(sentence, day_first=day_first)
            if point is None or row is None:
                continue
            matrix = matrix_words(sentence)
            depth = depth_of(sentence, point[2])
            date = dates[0][0] if dates else None
            if rejects and not corrects:
                if date is not None:
                    rejections.append(((point[0], depth or "", date, row.name, matrix), page))
                continue
            found = [m for m in CORRECTED_VALUE.finditer(sentence) if m.start() > point[2]]
            if not found or date is None:
                continue
            last = found[-1]
            value = parse_result(last.group("value"))
            if value is None:
                continue
            unit = unit_in(sentence[last.end() : last.end() + 12]) or ""
            order[0] += 1
            corrections.append(((point[0], depth or "", date, row.name, matrix or ""),
                                Printing(page.file, page.number, "correction", value.result, unit,
                                         value.limit, "", False, doc.draft, False, order[0])))  # fmt: skip
    return corrections, rejections


def _value_row(line: str) -> bool:
    tokens = line.split()
    numeric = sum(1 for t in tokens if re.match(r"^[<]?[\d.,]+[A-Z]?$", t))
    return numeric >= max(3, len(tokens) // 2)


def _analyte_in(sentence: str, analytes: Analytes) -> AnalyteRow | None:
    best = None
    for row in analytes.rows:
        for name in (row.name, *row.synonyms, row.cas):
            named = len(name) >= 2 and re.search(
                r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", sentence, re.I
            )
            if named and (best is None or len(name) > best[0]):
                best = (len(name), row)
    return best[1] if best else None


# -- reconciliation ---------------------------------------------------------------------------------


@dataclass
class SiteResult:
    key: Key
    value: float | None
    unit: str
    reporting_limit: float | None
    qualifier: str
    source: Printing
    printings: list[Printing] = field(default_factory=list)
    cas: str = ""


@dataclass
class RecordReading:
    pages: list[SitePage]
    documents: list[Document]
    printings: dict[Key, list[Printing]]
    rejected: list[tuple[Any, SitePage]]


def read_results(case: SiteCase, pages: list[SitePage]) -> RecordReading:
    analytes = Analytes(case.analytes)
    documents = documents_of(pages)
    printings: dict[Key, list[Printing]] = {}
    rejected: list[tuple[Any, SitePage]] = []
    stated: list[tuple[Key, Printing]] = []
    order = [0]
    for doc in documents:
        found = lab_printings(doc, analytes, order) if doc.lab else []
        found += wide_printings(doc, analytes, order)
        table_pages: dict[str, set[int]] = {}
        for _, printing in found:
            table_pages.setdefault(printing.file, set()).add(printing.page)
        corrections, rejections = prose_statements(doc, analytes, order, table_pages)
        rejected += rejections
        stated += corrections
        for key, printing in found:
            printings.setdefault(key, []).append(printing)
    # corrections apply to printings anywhere in the record, earlier or later
    for key, printing in stated:
        # a correction names point, analyte and date; its matrix and depth are the key's
        matches = [k for k in printings if k[0] == key[0] and k[2] == key[2] and k[3] == key[3]
                   and (not key[4] or k[4] == key[4])]  # fmt: skip
        for k in matches[:1]:
            if not printing.unit:
                printing.unit = printings[k][0].unit
            printings[k].append(printing)
    restatements(documents, analytes, printings, order)
    # a report table may print a unit nowhere: the unit the laboratory prints for that key
    for items in printings.values():
        known = next((p.unit for p in items if p.kind == "lab" and p.unit), "")
        for p in items:
            if not p.unit:
                p.unit = known
    return RecordReading(pages, documents, printings, rejected)


NUMBER = re.compile(
    r"(?<![\w.,-])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w-])|(?<![\w.,-])\d+(?:\.\d+)?(?![\w-])"
)


def restatements(
    documents: list[Document],
    analytes: Analytes,
    printings: dict[Key, list[Printing]],
    order: list[int],
) -> None:
    """Results restated in a report's sentences ("benzene in MW-3 fell from 1,200 to 450 µg/L
    between March 2019 and March 2021"): a page is a printing of a known key when one sentence
    names its point, its analyte and its date and prints the value another printing of the key
    gives. The value must agree, so a sentence never adds a key or a value of its own."""
    by_point: dict[tuple[str, str], list[Key]] = {}
    for key in printings:
        by_point.setdefault((key[0], key[3]), []).append(key)
    for doc in documents:
        day_first = day_first_text(doc.text)
        for page in doc.pages:
            text = " ".join(line for line in page.lines if not _value_row(line))
            for sentence in SENTENCE.split(text):
                if len(sentence) > 600:
                    continue
                point = point_of(sentence)
                row = _analyte_in(sentence, analytes) if point else None
                if point is None or row is None:
                    continue
                keys = by_point.get((point[0], row.name), [])
                if not keys:
                    continue
                dates = {d for d, _, _ in find_dates(sentence, day_first=day_first)}
                numbers = {float(m.group().replace(",", "")) for m in NUMBER.finditer(sentence)}
                for key in keys:
                    items = printings[key]
                    if key[2] not in dates or any(
                        p.file == page.file and p.page == page.number for p in items
                    ):
                        continue
                    values = {p.value for p in items if p.value is not None}
                    if any(v and abs(n - v) <= 0.005 * abs(v) for n in numbers for v in values):
                        order[0] += 1
                        value = next(
                            v for v in values if any(abs(n - v) <= 0.005 * abs(v) for n in numbers)
                        )
                        items.append(Printing(page.file, page.number, "prose", value, items[0].unit,
                                              None, "", False, doc.draft, False, order[0]))  # fmt: skip


def _is_rejected(key: Key, items: list[Printing], rejected: Iterable[tuple[Any, SitePage]]) -> bool:
    if any(p.rejected for p in items):
        return True
    for rkey, _ in rejected:
        if rkey[0] == key[0] and rkey[3] == key[3] and (rkey[2] is None or rkey[2] == key[2]) \
                and (not rkey[4] or rkey[4] == key[4]) and (not rkey[1] or rkey[1] == key[1]):  # fmt: skip
            return True
    return False


def governing(items: list[Printing]) -> Printing:
    """The printing whose value governs, by the reprint rules (module docstring)."""
    corrections = [p for p in items if p.kind == "correction"]
    if corrections:
        return corrections[-1]
    revised = [p for p in items if p.kind == "lab" and p.revised]
    if revised:
        return revised[-1]
    labs = [p for p in items if p.kind == "lab" and not p.draft]
    if labs:
        return labs[0]
    tables = [p for p in items if p.kind != "prose"] or items
    finals = [p for p in tables if not p.draft] or tables
    counts = Counter(p.value for p in finals)
    value = counts.most_common(1)[0][0]
    return next(p for p in finals if p.value == value)


def reconcile(case: SiteCase, reading: RecordReading) -> tuple[list[SiteResult], list[Key]]:
    """One result per key with its governing value and every printing; the keys rejected."""
    cas = {row.name: row.cas for row in case.analytes}
    results, excluded = [], []
    for key, items in reading.printings.items():
        if _is_rejected(key, items, reading.rejected):
            excluded.append(key)
            continue
        source = governing(items)
        unit = source.unit or next((p.unit for p in items if p.unit), "")
        results.append(SiteResult(key, source.value, unit, source.reporting_limit, source.qualifier,
                                  source, items, cas.get(key[3], "")))  # fmt: skip
    results.sort(key=lambda r: (r.key[2], r.key[0], r.key[1], r.key[3]))
    return results, excluded


def site_results(
    case: SiteCase, sources: Mapping[str, Path], jitter: np.random.Generator | None = None
) -> tuple[list[SiteResult], RecordReading]:
    pages = read_site(case, sources, jitter)
    reading = read_results(case, pages)
    results, _ = reconcile(case, reading)
    return results, reading


def result_json(result: SiteResult) -> dict[str, Any]:
    point, depth, date, analyte, matrix = result.key
    pages = list(dict.fromkeys((p.file, p.page) for p in result.printings))
    out: dict[str, Any] = {
        "location": point,
        "depth": depth or None,
        "sample_date": date,
        "analyte": result.cas or analyte,
        "matrix": matrix,
        "value": result.value,
        "detected": result.value is not None,
        "unit": result.unit,
        "reporting_limit": result.reporting_limit
        if result.reporting_limit is None or math.isfinite(result.reporting_limit)
        else None,
        "qualifier": result.qualifier,
        "source": {"file": result.source.file, "page": result.source.page},
        "printings": [{"file": f, "page": n} for f, n in pages],
    }
    return out
