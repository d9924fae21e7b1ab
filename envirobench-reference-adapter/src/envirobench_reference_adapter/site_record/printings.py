"""Every printing of a result in a site's documents, by two readers.

A document's flags come from general cues on its pages: a laboratory report (laboratory words,
lab sample IDs, a results table the table reader reads), revised (revision words: revised,
revision 2, supersedes), draft (draft or preliminary on its first page).

- laboratory results tables (`lab_printings`, `results_tables.TableReader`, analytes as rows,
  one reader per document): the sample ID gives the location (a sampling-point ID: a prefix of
  the usual kinds, MW, SB, SV, SS, IA, TP, GP, B, ..., and a number) and, for soil, the depth
  (`(4-6 ft)`, or a compact interval at the end of the ID, `-46` read as 4-6); the sampling date
  comes from the line of the document that prints the sample ID with a date (the sample summary,
  `sample_dates`), else from a date inside the ID (`-051419`); the matrix from the words of that
  line, the report's matrix label, else the unit and the point's prefix;
- report tables with the analytes as columns (`wide_printings`): a header line whose cells name
  at least two of the site's analytes (by name, synonym, CAS or an abbreviation ending in a dot),
  rows that start with a sampling point (and its depth and date, or a date column), the values
  under the analyte columns; units from a `Units:` line or the headers, else the unit the
  laboratory reports of the site print for that analyte and matrix.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..layout import Line, Word, assign_column, em_size, group_lines, normalize_space, split_phrases
from ..quantities import parse_result
from ..results_tables import TableReader
from .case import AnalyteRow
from .pages import SitePage
from .vocabulary import (
    UNIT_TEXT,
    Analytes,
    day_first_text,
    depth_of,
    find_dates,
    fold,
    id_date,
    matrix_by_unit,
    matrix_words,
    point_of,
    unit_in,
)

PHRASE_GAP_EMS = 0.8
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
            entry = info.setdefault(fold(label), SampleInfo(label=label))
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
        info = samples.get(fold(label))
        if info is None:  # a label printed longer or shorter than in the summary
            info = next((v for k, v in samples.items() if k and (k.startswith(fold(label)) or fold(label).startswith(k))), SampleInfo())  # fmt: skip
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
