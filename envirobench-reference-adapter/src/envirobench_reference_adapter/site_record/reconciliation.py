"""Reconciling the printings (`read_results`, `reconcile`, `site_results`), by the published
reprint rules: a key with a rejected printing (an R qualifier, a rejection sentence) has no
record; otherwise the governing value is a correction letter's, else the latest revised
laboratory report's, else the original laboratory report's, else the value most final report
tables print (drafts last). Every printing is listed.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .case import SiteCase
from .pages import SitePage, read_site
from .printings import Document, Key, Printing, documents_of, lab_printings, wide_printings
from .prose import SENTENCE, analyte_in, prose_statements, value_row
from .vocabulary import Analytes, day_first_text, find_dates, point_of


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
            text = " ".join(line for line in page.lines if not value_row(line))
            for sentence in SENTENCE.split(text):
                if len(sentence) > 600:
                    continue
                point = point_of(sentence)
                row = analyte_in(sentence, analytes) if point else None
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


def cas_numbers(case: SiteCase) -> dict[str, str]:
    """Each of the site's analytes' CAS number by its name ("" where it has none): a result is
    named by its CAS number where there is one (`result_json`)."""
    return {row.name: row.cas or "" for row in case.analytes}


def reconcile(case: SiteCase, reading: RecordReading) -> tuple[list[SiteResult], list[Key]]:
    """One result per key with its governing value and every printing; the keys rejected."""
    cas = cas_numbers(case)
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
