"""Corrections and rejections in a site's prose (`prose_statements`): a sentence that corrects a
value (correct, should read, revised to, erroneously) and names a point, an analyte and a date
gives a correction printing of its last number; a sentence that rejects data (rejected,
unusable, R-flagged) and names a point, an analyte and a date marks that key rejected.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..quantities import parse_result
from .case import AnalyteRow
from .pages import SitePage
from .printings import Document, Key, Printing
from .vocabulary import (
    Analytes,
    day_first_text,
    depth_of,
    find_dates,
    matrix_words,
    point_of,
    unit_in,
)

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
        text = " ".join(line for line in page.lines if not value_row(line))
        for sentence in SENTENCE.split(text):
            corrects, rejects = CORRECTION.search(sentence), REJECTION.search(sentence)
            if not corrects and not rejects:
                continue
            point = point_of(sentence)
            row = analyte_in(sentence, analytes)
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


def value_row(line: str) -> bool:
    tokens = line.split()
    numeric = sum(1 for t in tokens if re.match(r"^[<]?[\d.,]+[A-Z]?$", t))
    return numeric >= max(3, len(tokens) // 2)


def analyte_in(sentence: str, analytes: Analytes) -> AnalyteRow | None:
    best = None
    for row in analytes.rows:
        for name in (row.name, *row.synonyms, row.cas or ""):
            named = len(name) >= 2 and re.search(
                r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", sentence, re.I
            )
            if named and (best is None or len(name) > best[0]):
                best = (len(name), row)
    return best[1] if best else None
