"""Measurement records out of the words of laboratory results pages: the core of `table-records`
and `document-extraction`.

`TableReader` reads pages (or table crops) one after another, as lists of `Word`s, and keeps
what a table carries over a page break. It is a rule-based reader of what reports print:

1. Lines (`layout.group_lines`) are read top to bottom. A line starting with
   "Client Sample ID:" sets the current sample; a title line ("Method Blank", "Laboratory
   Control Sample", "Quality Control", "Sample Summary") switches off reading until the next
   "Analytical Results" title, so quality-control results never become records.
2. A header is a line with at least three cells whose text names a results column (analyte,
   CAS, result, qualifier, reporting limit, units, dilution, method, MDL, batch, analysis date),
   one of them the analyte. Lines just under it with no number and no CAS number continue it
   (wrapped titles such as "Reporting / Limit", and the dates under sample IDs).
3. Body rows are the lines that follow, while each holds a number or a CAS number and sits within
   two and a half ems of the line above. Columns are the x-ranges that the words of the header
   and the rows cover, split at blanks wider than COLUMN_GAP_EMS ems (word spaces are about a
   third of an em; laboratory tables pad cells with more than an em).
4. A column's role comes from its title. Columns without a known title, after the analyte's, are
   sample columns (samples as columns, a transposed table): the sample ID is the title's first
   line. Otherwise every row belongs to the current sample.
5. Values are read with `quantities`: `<0.50`, `ND`, `0.50 U` (or U in a qualifier column) are
   non-detects; a qualifier comes from its column, from the result cell (`0.52 J`), or from a
   footnote marker (`0.052ᵃ`) resolved by a footnote line (`a   J – Estimated value`) below
   the table; the reporting limit from its column (or the `<0.50` limit when there is none);
   the unit from its column or the result column's title (`Result (mg/kg)`).
6. Rows at the top of a page before any header, that fill the columns of the table the previous
   page ended with, continue that table (a table broken across pages without a repeated header).

Weaknesses: a header must use recognisable titles (an unfamiliar title leaves its column
without a role, and if that is the result column, the table is read as samples-as-columns with a
wrong sample); a table with a blank column whose gutter is narrower than COLUMN_GAP_EMS merges
two columns; OCR errors in a word (a misread digit, a CAS number broken by a space) pass through
into the record; a footnote whose definition is on another page than the marker is left
unresolved unless the table continues there; a continued table is recognised only if its rows
keep the previous page's column positions (true for the same page size).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .layout import (
    Line,
    Word,
    assign_column,
    column_gaps,
    em_size,
    group_lines,
    normalize_space,
    split_phrases,
)
from .quantities import (
    QUALIFIER_CODES,
    find_cas,
    find_unit,
    normalize_unit,
    parse_number,
    parse_qualifier,
    parse_result,
)

COLUMN_GAP_EMS = 0.6  # a blank this many ems wide between words separates two columns
PHRASE_GAP_EMS = 0.6
ROW_GAP_EMS = 2.5  # a body row is at most this far (top to top, in ems) below the line above
HEADER_GAP_EMS = 1.2  # a header continuation line starts at most this far below the one above

ROLE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("analyte", re.compile(r"^(analyte|parameter|compound|target analyte)", re.I)),
    ("cas", re.compile(r"^(cas\b|casrn|cas no|cas number|cas registry)", re.I)),
    ("result", re.compile(r"^(result|sample result|conc\b|conc\.|concentration|measured)", re.I)),
    ("qual", re.compile(r"^(qual|q|flag|qualifier|laboratory qualifier|data qualifier|lab qual)\.?$", re.I)),
    ("rl", re.compile(r"^(rl|reporting limit|reporting|pql|mrl|loq|practical quantitation)", re.I)),
    ("mdl", re.compile(r"^(mdl|method detection)", re.I)),
    ("unit", re.compile(r"^(units?|reporting units|result units)$", re.I)),
    ("df", re.compile(r"^(df|dilution|dil\.?( factor)?)", re.I)),
    ("method", re.compile(r"(method)", re.I)),
    ("batch", re.compile(r"(batch)", re.I)),
    ("analysed", re.compile(r"(analy[sz]ed|analysis date|date analy)", re.I)),
)
STOP_TITLES = re.compile(
    r"^(method blank|laboratory control sample|quality control|sample summary|qualifiers and abbreviations|case narrative)",
    re.I,
)
RESULTS_TITLE = re.compile(r"^(analytical results|continued from)", re.I)
SAMPLE_LABEL = re.compile(r"client sample id\s*[:;]\s*(?P<id>.+?)(?:\s+lab sample id\s*[:;].*)?$", re.I)
FOOTNOTE = re.compile(r"^(?P<marker>[a-hA-H\*†‡§])\s+(?P<code>[A-Z]{1,2})\s*[–—\-:]\s*\S", re.U)
DATE_LIKE = re.compile(
    r"(\d{1,2}/\d{1,2}/\d{2,4}|\d{4}-\d{2}-\d{2}|\d{1,2}-[A-Za-z]{3}-\d{2,4}|"
    r"(January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{1,2},?\s+\d{4})"
)


def role_of(title: str) -> str | None:
    text = normalize_space(title)
    for role, pattern in ROLE_PATTERNS:
        if pattern.search(text):
            return role
    return None


@dataclass
class Columns:
    """A results table's columns: x-extents, roles (None: a sample column) and titles."""

    bounds: list[tuple[float, float]]
    roles: list[str | None]
    titles: list[str]
    samples: dict[int, str]  # column index -> sample ID, for samples-as-columns tables
    result_unit: str | None  # a unit named in the result column's title


@dataclass
class Pending:
    """A record whose qualifier waits for the footnote that defines its marker."""

    record: dict[str, Any]
    marker: str


@dataclass
class TableReader:
    """Reads results tables page after page; `records` collects everything read so far."""

    records: list[dict[str, Any]] = field(default_factory=list)
    sample: str | None = None
    columns: Columns | None = None  # the table being read, carried over a page break
    pending: list[Pending] = field(default_factory=list)
    reading: bool = True  # False inside quality-control sections
    markers: bool = True  # resolve footnote markers (the baseline variant does not)

    def read_page(self, words: list[Word]) -> list[dict[str, Any]]:
        """Read one page (or crop); returns the records this page added."""
        start = len(self.records)
        lines = group_lines(words)
        if not lines:
            return []
        em = em_size(words)
        index = 0
        at_top = True  # before any header, title or caption on this page
        while index < len(lines):
            line = lines[index]
            text = normalize_space(line.text)
            if STOP_TITLES.match(text):
                self.reading, self.columns, at_top = False, None, False
                index += 1
                continue
            if RESULTS_TITLE.match(text):
                self.reading, at_top = True, False
                index += 1
                continue
            sample = SAMPLE_LABEL.search(text)
            if sample:
                self._close_table()
                self.sample = sample.group("id").strip()
                at_top = False
                index += 1
                continue
            footnote = FOOTNOTE.match(text)
            if footnote and self.pending:
                # OCR may read a footnote's marker letter as a capital; markers are lower case.
                self._resolve(footnote.group("marker").lower(), footnote.group("code"))
                index += 1
                continue
            if self.reading and is_header(line, em):
                index = self._read_table(lines, index, em)
                at_top = False
                continue
            if at_top and self.reading and self.columns is not None and self._fits_columns(line, em):
                index = self._read_rows(lines, index, em, self.columns, continued=True)
                at_top = False
                continue
            index += 1
        return self.records[start:]

    def finish(self) -> list[dict[str, Any]]:
        """Everything read; markers never defined leave their records without a qualifier."""
        self.pending.clear()
        return self.records

    # -- tables --------------------------------------------------------------------------------

    def _close_table(self) -> None:
        self.columns = None

    def _read_table(self, lines: list[Line], index: int, em: float) -> int:
        header = [lines[index]]
        index += 1
        while index < len(lines) and is_header_continuation(lines[index], header[-1], em):
            header.append(lines[index])
            index += 1
        body_end = index
        while body_end < len(lines) and is_body_row(lines[body_end], lines[body_end - 1], em):
            body_end += 1
        body = lines[index:body_end]
        if not body:
            return index
        columns = build_columns(header, body, em)
        if columns is None or "analyte" not in columns.roles:
            return body_end
        self.columns = columns
        return self._read_rows(lines, index, em, columns, continued=False)

    def _fits_columns(self, line: Line, em: float) -> bool:
        assert self.columns is not None
        cells = cells_of(line, self.columns, em)
        analyte = self.columns.roles.index("analyte")
        filled = sum(1 for text in cells if text)
        return bool(cells[analyte]) and filled >= max(2, len(cells) // 2) and has_value(line)

    def _read_rows(self, lines: list[Line], index: int, em: float, columns: Columns, *, continued: bool) -> int:
        previous = lines[index - 1] if index > 0 and not continued else None
        while index < len(lines):
            line = lines[index]
            if previous is not None and not is_body_row(line, previous, em):
                break
            if continued and previous is None and not self._fits_columns(line, em):
                break
            self._row_records(cells_of(line, columns, em), columns)
            previous = line
            index += 1
        return index

    def _row_records(self, cells: list[str], columns: Columns) -> None:
        roles = columns.roles
        cell = {role: cells[i] for i, role in enumerate(roles) if role is not None}
        analyte = normalize_space(cell.get("analyte", ""))
        if not analyte:
            return
        cas = find_cas(cell.get("cas", ""))
        unit = normalize_unit(cell["unit"]) if cell.get("unit") else columns.result_unit
        if unit is None and cell.get("unit"):
            unit = normalize_space(cell["unit"])
        limit = parse_number(cell["rl"]) if cell.get("rl") else None
        if columns.samples:
            for column, sample in columns.samples.items():
                self._add(sample, analyte, cas, cells[column], None, unit, limit)
        elif "result" in cell and self.sample is not None:
            self._add(self.sample, analyte, cas, cell["result"], cell.get("qual"), unit, limit)

    def _add(
        self, sample: str, analyte: str, cas: str | None, result_text: str, qual_text: str | None,
        unit: str | None, limit: float | None,
    ) -> None:
        value = parse_result(result_text)
        if value is None:
            return
        qualifier = parse_qualifier(qual_text) if qual_text else None
        if qualifier is not None and not all(code in QUALIFIER_CODES for code in _codes(qualifier)):
            qualifier = None
        if qualifier is None:
            qualifier = value.qualifier
        nondetect = value.nondetect or (qualifier is not None and "U" in qualifier)
        reporting_limit = limit if limit is not None else value.limit
        record = {
            "sample_id": sample,
            "analyte": analyte,
            "cas": cas,
            "result": None if nondetect else value.result,
            "nondetect": nondetect,
            "unit": unit or "",
            "qualifier": qualifier,
            "reporting_limit": reporting_limit,
        }
        self.records.append(record)
        if self.markers and value.marker and qualifier is None:
            self.pending.append(Pending(record, value.marker))

    def _resolve(self, marker: str, code: str) -> None:
        still = []
        for pending in self.pending:
            if pending.marker == marker:
                pending.record["qualifier"] = code
                if "U" in code:
                    if pending.record["result"] is not None and pending.record["reporting_limit"] is None:
                        pending.record["reporting_limit"] = pending.record["result"]
                    pending.record["nondetect"] = True
                    pending.record["result"] = None
            else:
                still.append(pending)
        self.pending = still


def _codes(qualifier: str) -> list[str]:
    return [qualifier] if qualifier in QUALIFIER_CODES else list(qualifier)


# -- line classification -------------------------------------------------------------------------


def phrases_text(line: Line, em: float) -> list[str]:
    return [normalize_space(p.text) for p in split_phrases(line, PHRASE_GAP_EMS * em)]


def is_header(line: Line, em: float) -> bool:
    roles = [role_of(text) for text in phrases_text(line, em)]
    known = [r for r in roles if r is not None]
    return "analyte" in known and len(set(known)) >= 3


def has_value(line: Line) -> bool:
    """Does the line hold a number, a non-detect or a CAS number (so it is no title)?"""
    for word in line.words:
        text = word.text.strip("()")
        if find_cas(text) or parse_number(text) is not None or text.upper() in ("ND", "--"):
            return True
        if text.startswith("<") and parse_number(text[1:]) is not None:
            return True
    return False


def is_header_continuation(line: Line, above: Line, em: float) -> bool:
    if line.top - above.top > HEADER_GAP_EMS * 1.6 * em:
        return False
    for word in line.words:
        text = word.text
        if find_cas(text) or text.upper() in ("ND", "--") or text.startswith("<"):
            return False
        if parse_number(text) is not None and not DATE_LIKE.search(line.text):
            return False
    return True


def is_body_row(line: Line, above: Line, em: float) -> bool:
    if line.top - above.top > ROW_GAP_EMS * em:
        return False
    text = normalize_space(line.text)
    if FOOTNOTE.match(text) or SAMPLE_LABEL.search(text) or STOP_TITLES.match(text) or RESULTS_TITLE.match(text):
        return False
    if re.match(r"^page \d+ of \d+", text, re.I):
        return False
    return has_value(line) and len(split_phrases(line, PHRASE_GAP_EMS * em)) >= 2


# -- columns -------------------------------------------------------------------------------------


def build_columns(header: list[Line], body: list[Line], em: float) -> Columns | None:
    bounds = column_gaps([*header, *body], COLUMN_GAP_EMS * em)
    if len(bounds) < 3:
        return None
    titles = [""] * len(bounds)
    first_line_titles = [""] * len(bounds)
    for k, line in enumerate(header):
        for word in line.words:
            column = assign_column(word.x0, word.x1, bounds)
            titles[column] = f"{titles[column]} {word.text}".strip()
            if k == 0:
                first_line_titles[column] = f"{first_line_titles[column]} {word.text}".strip()
    roles = [role_of(title) for title in titles]
    samples: dict[int, str] = {}
    if "result" not in roles and "analyte" in roles:
        after = roles.index("analyte")
        for column, role in enumerate(roles):
            if role is None and column > after and first_line_titles[column]:
                samples[column] = first_line_titles[column]
    result_unit = None
    if "result" in roles:
        result_unit = find_unit(titles[roles.index("result")])
    return Columns(bounds, roles, titles, samples, result_unit)


def cells_of(line: Line, columns: Columns, em: float) -> list[str]:
    """The line's text per column (words joined with spaces)."""
    cells: list[list[str]] = [[] for _ in columns.bounds]
    for word in line.words:
        cells[assign_column(word.x0, word.x1, columns.bounds)].append(word.text)
    return [normalize_space(" ".join(parts)) for parts in cells]
