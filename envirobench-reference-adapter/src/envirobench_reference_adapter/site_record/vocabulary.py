"""The words a site record is read by: dates (`find_dates`, day-first when the text shows it),
sampling points and depths (`point_of`, `depth_of`, `id_date`), matrices and units, and the
site's analytes by name, synonym, CAS number or abbreviation (`Analytes`).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence

from ..quantities import find_cas, normalize_unit
from .case import AnalyteRow

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


def fold(text: str) -> str:
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
                self.by_fold.setdefault(fold(name), row)

    def resolve(self, text: str) -> AnalyteRow | None:
        text = text.strip()
        if not text:
            return None
        cas = find_cas(text)
        if cas and cas in self.by_cas:
            return self.by_cas[cas]
        folded = fold(text)
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
