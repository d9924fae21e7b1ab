"""Measurement records out of the words of laboratory results pages: the core of `table-records`
and `document-extraction`.

`TableReader` reads pages (or table crops) one after another, as lists of `Word`s, and keeps
what a table carries over a page break. It reads what reports print by general means, with no
list of one laboratory's titles:

1. Lines (`layout.group_lines`) are read top to bottom and classified:
   - a *label* line holds `Label: value` pairs (or a label and its value with a gutter between).
     A label that names a sample (its words say sample, field, client, location, station, well
     ... and not the laboratory's own ID, a date or a count) sets the current sample; a label of
     units (`Units: mg/kg`) sets the unit for tables that print none;
   - a *title* (a short line, no values, not a header) switches quality-control reading on when
     its words are those of laboratory QC (method or laboratory blank, control sample, matrix
     spike, duplicate, surrogate, recovery, calibration, QC/LCS/MS/MSD/MB abbreviations ...) and
     off again at a title about results or at the next sample label. Inside QC nothing is read.
2. A header is a block of up to three lines without values (a title may wrap over lines, and a
   one-line title sits between the lines of its neighbours) whose cells score as column roles
   (`headers.title_scores`): at least two different roles, or the analyte's and sample IDs.
3. Body rows are the lines that follow while each holds a number, a non-detect or a CAS number
   and sits within ROW_GAP_EMS ems of the line above. A line of one phrase between rows is a
   section row (a method group, "Surrogates", a unit for the rows below); a QC section row stops
   records until the next section. Columns are the x-ranges the words of the rows cover, split
   at blanks wider than COLUMN_GAP_EMS ems, plus header cells over blank columns; a header cell
   spanning several columns is a group title of each (a unit or "Sample ID" over sample columns).
4. Roles come from `headers.assign_roles`: the title's words and the cells' content together.
   Numeric columns without a title role are sample columns (samples as columns, their titles
   the sample IDs) when there is no result column. A sample column (samples as rows, one long
   table) gives each row its sample; otherwise rows belong to the current sample label. A table
   with a recovery or control-limit column reports QC and gives no records.
5. Rows that are QC give no records: a sample ID naming lab QC (a blank, control sample, spike,
   duplicate of another sample: `MW-01 MS`, `LCS-2401`, `MB 12/1`; not field QC such as `DUP-1`
   or `TB-01`, which are samples), an analyte that is a surrogate (`(S)`, `Surr`, deuterated
   `-d8`) or a row whose unit is a percent with a control range beside it.
6. Values are read with `quantities` (`<0.50`, `< 0.50`, `<RL`, `ND`, `0.50 U`, `1.2E-03`,
   `0,52`: a report that prints one unambiguous decimal comma is read as writing them all); a
   qualifier comes from its column, from the result cell (`0.52 J`), or from a footnote marker
   (`0.052ᵃ`) resolved by a footnote line (`a   J – Estimated value`) below the table; the
   reporting limit from its column (or the `<0.50` limit when there is none); the unit from its
   column, the result's or the sample column's title, a section row or a units label.
7. Rows at the top of a page before any header, that fill the columns of the table the previous
   page ended with, continue that table (a table broken across pages without a repeated header).

Weaknesses: a header none of whose titles scores (an unfamiliar word for every column) is not
found; a table with a blank column whose gutter is narrower than COLUMN_GAP_EMS merges two
columns; OCR errors in a word (a misread digit, a CAS number broken by a space) pass through
into the record; a footnote whose definition is on another page than the marker is left
unresolved unless the table continues there; a continued table is recognised only if its rows
keep the previous page's column positions (true for the same page size); QC is recognised only
by the general words and abbreviations above.

Length: one reader of results pages, whose steps above (lines, headers, rows, columns, roles, QC,
values, continued tables, reportable results) each decide what the next one sees and share the
reader's state across a page break; the column roles (`headers`) and the values (`quantities`)
are already modules of their own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .headers import (
    FIELD_BLANK,
    QC_ROLES,
    REANALYSIS,
    assign_roles,
    looks_like_sample_id,
    sample_title,
    title_scores,
)
from .layout import (
    Line,
    Phrase,
    Word,
    assign_column,
    em_size,
    group_lines,
    merge_intervals,
    normalize_space,
    overlap,
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
HEADER_LINES = 3  # a header block has at most this many lines
TITLE_WORDS_MAX = 8  # a title is a short line

FOOTNOTE = re.compile(
    r"^(?P<marker>[a-hA-H\*†‡§])\s+(?P<code>[A-Z]{1,2}[+-]?)\s*[–—\-:]\s*\S", re.U
)
DATE_LIKE = re.compile(
    r"(\d{1,2}/\d{1,2}/\d{2,4}|\d{4}-\d{2}-\d{2}|\d{1,2}-[A-Za-z]{3}-\d{2,4}|"
    r"(January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{1,2},?\s+\d{4})"
)
PAGE_NUMBER = re.compile(r"^page \d+( of \d+)?\b", re.I)

# Laboratory quality control, as reports of any laboratory name it: words and abbreviations.
QC_PHRASES = re.compile(
    r"\b(method|lab|laboratory|prep|preparation|reagent|instrument|calibration|batch|extraction)\s+blanks?\b|"
    r"\bcontrol\s+samples?\b|\bquality\s+control\b|\bmatrix\s+spikes?\b|\bblank\s+spikes?\b|\bspike[ds]?\b|"
    r"\b(lab|laboratory|matrix|sample)\s+duplicates?\b|\bsurrogates?\b|\brecover(y|ies)\b|"
    r"\bcalibration\b|\binternal\s+standards?\b|\breference\s+material\b|\bcontinuing\b|\btune\b",
    re.I,
)
QC_TOKENS = frozenset(
    {
        "QC",
        "LCS",
        "LCSD",
        "MS",
        "MSD",
        "MB",
        "BS",
        "BSD",
        "LCSDUP",
        "CCV",
        "ICV",
        "CCB",
        "ICB",
        "BLK",
        "SRM",
        "CRM",
        "LD",
        "LDUP",
    }
)
FIELD_QC = FIELD_BLANK
# Pages a report keeps only for reference: the originals behind a revised report.
SUPERSEDED = re.compile(
    r"\bsuperseded\b|\bvoid(ed)?\b|\bobsolete\b|\breplaced\s+by\b|\bfor\s+reference\s+only\b", re.I
)
NEW_REPORT = re.compile(r"\breport\b|\bnarrative\b", re.I)
RESULTS_TITLE = re.compile(r"\b(results?|data)\b", re.I)
# A surrogate compound's row: "(S)", "Surr", "surrogate", a deuterated tag (-d8), and the same
# words as OCR of a poor scan reads them ("(sur)", "(sun)").
SURROGATE = re.compile(
    r"\(\s*s\s*\)|\bsur[rn]?\b|\bsurrogate\b|-d\d{1,2}\b|\(\s*sur[rn]?\.?\s*\)", re.I
)
CONTROL_RANGE = re.compile(r"^\d{1,3}(\.\d+)?\s*[-\u2013]\s*\d{1,3}(\.\d+)?$")
# Sample labels: words that say a label names a sample, and words that say it names something else.
SAMPLE_LABEL_WORDS = frozenset(
    {"sample", "field", "client", "location", "station", "well", "boring", "point"}
)
NOT_SAMPLE_LABEL_WORDS = frozenset(
    {
        "lab",
        "laboratory",
        "date",
        "time",
        "matrix",
        "type",
        "received",
        "collected",
        "count",
        "samples",
        "number of",
        "delivery",
        "group",
        "depth",
        "method",
        "batch",
        "by",
        "units",
        "unit",
        "project",
        "order",
        "job",
        "po",
        "account",
        "contact",
    }
)
UNIT_LABEL_WORDS = frozenset({"unit", "units"})
LABEL = re.compile(r"^(?P<label>[A-Za-z][A-Za-z#./() -]{0,40}?)\s*[:;]\s*(?P<value>.*)$")


def words_of(text: str) -> list[str]:
    return re.findall(r"[a-z0-9#]+", text.lower())


def is_sample_label(label: str) -> bool:
    words = set(words_of(label))
    return (
        bool(words & SAMPLE_LABEL_WORDS)
        and not (words & NOT_SAMPLE_LABEL_WORDS)
        and len(words) <= 4
    )


def is_unit_label(label: str) -> bool:
    words = words_of(label)
    return (
        bool(words)
        and set(words) <= UNIT_LABEL_WORDS | {"reporting", "result", "results"}
        and bool(set(words) & UNIT_LABEL_WORDS)
    )


def is_qc_text(text: str) -> bool:
    """Does a title (or sample ID, or analyte) name laboratory quality control?"""
    if FIELD_QC.search(text):
        return False
    if QC_PHRASES.search(text):
        return True
    return any(token in QC_TOKENS for token in re.findall(r"[A-Za-z]+", text))


def is_qc_sample(sample: str) -> bool:
    """A sample ID that names lab QC: a QC abbreviation or word (`LCS-2401`, `MB 12/1`,
    `MW-01 MS`), or a base ID followed by a duplicate word (`MW-01 DUP`). An ID that starts with
    a duplicate word (`DUP-1`, a blind field duplicate) or names a field blank is a sample."""
    text = sample.strip()
    if FIELD_QC.search(text) or re.match(r"^(dup|duplicate|fd|tb|eb|fb|rb)\b", text, re.I):
        return False
    if is_qc_text(text) or re.search(r"\bblank\b", text, re.I):
        return True
    return (
        bool(re.search(r"\S\s*[-_ ]\s*(dup|duplicate|lab\s*dup)\s*\d*$", text, re.I))
        and len(text.split()) >= 2
    )


@dataclass
class Columns:
    """A results table's columns: x-extents, roles (None: unknown) and titles."""

    bounds: list[tuple[float, float]]
    roles: list[str | None]
    titles: list[str]
    samples: dict[int, str]  # column index -> sample ID, for samples-as-columns tables
    units: dict[
        int, str
    ]  # column index -> a unit its title names (`Result (mg/kg)`, `µg/L` under an ID)
    qc: bool = False  # a table of QC results (a recovery or control-limit column)


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
    unit: str | None = None  # a unit a label gave for tables that print none
    title_unit: str | None = None  # a unit the title above the table names ("Metals - mg/kg")
    fraction: str | None = None  # the fraction a title or section names (dissolved, TCLP, SPLP)
    superseded: bool = False  # inside pages marked as superseded (originals behind a revision)
    section_unit: str | None = None  # a unit a section row gave for the rows below it
    section_qc: bool = False  # the rows below a QC section row (surrogates) are no records
    decimal_comma: bool = False  # the report writes decimal commas
    prose: list[str] = field(
        default_factory=list
    )  # the report's sentences (a narrative may void results)

    def read_page(self, words: list[Word]) -> list[dict[str, Any]]:
        """Read one page (or crop); returns the records this page added."""
        start = len(self.records)
        lines = group_lines(words)
        if not lines:
            return []
        em = em_size(words)
        self.prose.append(
            " ".join(
                normalize_space(line.text)
                for line in lines
                if len(line.text.split()) > TITLE_WORDS_MAX
            )
        )
        index = 0
        at_top = True  # before any header, title or caption on this page
        while index < len(lines):
            line = lines[index]
            text = normalize_space(line.text)
            if PAGE_NUMBER.match(text):
                index += 1
                continue
            footnote = FOOTNOTE.match(text)
            if footnote and self.pending:
                # OCR may read a footnote's marker letter as a capital; markers are lower case.
                self._resolve(footnote.group("marker").lower(), footnote.group("code"))
                index += 1
                continue
            if self._read_labels(line, em):
                at_top = False
                index += 1
                continue
            header = header_lines(lines, index, em)
            if header:
                index = self._read_table(lines, index, header, em)
                at_top = False
                continue
            if is_title(line, em):
                # A running header or a results title keeps the page's top open for a table
                # continued from the page before; a QC title closes it.
                if self._title(text, len(phrases_of(line, em))):
                    at_top = False
                index += 1
                continue
            if (
                at_top
                and self.reading
                and self.columns is not None
                and self._fits_columns(line, em)
            ):
                index = self._read_rows(lines, index, em, self.columns, continued=True)
                at_top = False
                continue
            index += 1
        return self.records[start:]

    def finish(self) -> list[dict[str, Any]]:
        """Everything read, as a report's records: markers never defined leave their records
        without a qualifier; re-analyses are resolved (`reportable`); rejected (R) results go."""
        self.pending.clear()
        voided = voided_results(" ".join(self.prose), self.records)
        kept = [
            r
            for k, r in enumerate(self.records)
            if k not in voided and not rejected(r["qualifier"])
        ]
        self.records = reportable(kept)
        return self.records

    # -- labels and titles -----------------------------------------------------------------------

    def _read_labels(self, line: Line, em: float) -> bool:
        """Read `Label: value` pairs on the line; True when one named a sample or a unit."""
        phrases = [normalize_space(p.text) for p in split_phrases(line, PHRASE_GAP_EMS * em)]
        found = False
        for k, phrase in enumerate(phrases):
            match = LABEL.match(phrase)
            label, value = (
                (match.group("label"), match.group("value").strip()) if match else (phrase, "")
            )
            if not match and not (
                len(phrases) == 2
                and k == 0
                and is_sample_label(phrase)
                and looks_like_sample_id(phrases[1])
            ):
                continue
            if not value and k + 1 < len(phrases) and not LABEL.match(phrases[k + 1]):
                value = phrases[k + 1]
            if not value:
                continue
            if is_sample_label(label):
                self._set_sample(value)
                found = True
            elif is_unit_label(label):
                unit = normalize_unit(value) or find_unit(value)
                if unit is not None:
                    self.unit = unit
                    found = True
        return found

    def _set_sample(self, value: str) -> None:
        self.columns = None
        self.section_unit, self.section_qc = None, False
        sample = ocr_id(value.strip())
        if self.superseded or is_qc_sample(sample):
            self.sample, self.reading = None, False
        else:
            self.sample, self.reading = sample, True

    def _title(self, text: str, phrases: int) -> bool:
        """Follow a title; True when it starts quality control or superseded pages."""
        self.title_unit = find_unit(text)
        if phrases == 1:
            self.fraction = fraction_of(text)
        if SUPERSEDED.search(text):
            self.superseded, self.columns, self.sample = True, None, None
            return True
        if (
            self.superseded
            and NEW_REPORT.search(text)
            and not re.search(r"\bpage\s+\d", text, re.I)
        ):
            self.superseded = False  # the next report of several stapled together
        if is_qc_text(text):
            self.reading, self.columns, self.sample = False, None, None
            return True
        if phrases == 1 and RESULTS_TITLE.search(text):
            self.reading = True
        return False

    # -- tables ----------------------------------------------------------------------------------

    def _read_table(self, lines: list[Line], index: int, header_count: int, em: float) -> int:
        header = lines[index : index + header_count]
        index += header_count
        body_end = index
        while body_end < len(lines):
            if is_body_row(lines[body_end], lines[body_end - 1], em) or is_section_row(
                lines, body_end, em
            ):
                body_end += 1
            else:
                break
        body = [line for line in lines[index:body_end] if has_value(line)]
        if not body:
            return index
        columns = build_columns(header, body, em)
        if columns is None or "analyte" not in columns.roles:
            return body_end
        if columns.qc or not self.reading or self.superseded:
            self.columns = None
            return body_end
        self.columns = columns
        if any(DECIMAL_COMMA.match(cell) for line in body for cell in cells_of(line, columns, em)):
            self.decimal_comma = True
        self.section_unit, self.section_qc = None, False
        return self._read_rows(lines, index, em, columns, continued=False)

    def _fits_columns(self, line: Line, em: float) -> bool:
        assert self.columns is not None
        cells = cells_of(line, self.columns, em)
        analyte = self.columns.roles.index("analyte")
        filled = sum(1 for text in cells if text)
        return bool(cells[analyte]) and filled >= max(2, len(cells) // 2) and has_value(line)

    def _read_rows(
        self, lines: list[Line], index: int, em: float, columns: Columns, *, continued: bool
    ) -> int:
        previous = lines[index - 1] if index > 0 and not continued else None
        while index < len(lines):
            line = lines[index]
            if previous is not None and not is_body_row(line, previous, em):
                if is_section_row(lines, index, em):
                    self._section(normalize_space(line.text))
                    previous = line
                    index += 1
                    continue
                break
            if continued and previous is None and not self._fits_columns(line, em):
                break
            self._row_records(cells_of(line, columns, em), columns)
            previous = line
            index += 1
        return index

    def _section(self, text: str) -> None:
        self.section_qc = is_qc_text(text)
        self.fraction = fraction_of(text)
        unit = find_unit(text)
        if unit is not None:
            self.section_unit = unit

    def _row_records(self, cells: list[str], columns: Columns) -> None:
        if self.section_qc:
            return
        roles = columns.roles
        cell = {
            role: cells[i]
            for i, role in enumerate(roles)
            if role is not None and role not in cell_roles_taken(roles, i)
        }
        analyte = normalize_space(cell.get("analyte", ""))
        if not analyte or SURROGATE.search(analyte):
            return
        if self.fraction and not re.search(re.escape(self.fraction), analyte, re.I):
            analyte = f"{analyte} ({self.fraction})"  # the fraction its section reports
        unit_text = cell.get("unit", "")
        if unit_text.strip().startswith("%") and any(CONTROL_RANGE.match(c) for c in cells):
            return  # a recovery with its control limits: QC
        cas = find_cas(cell.get("cas", "")) or (find_cas(analyte) if "cas" not in roles else None)
        unit = (
            (normalize_unit(unit_text) or normalize_space(unit_text)) if unit_text.strip() else None
        )
        limit = (
            parse_number(cell["rl"], decimal_comma=self.decimal_comma) if cell.get("rl") else None
        )
        fallback = self.section_unit or self.title_unit or self.unit
        if columns.samples:
            for column, sample in columns.samples.items():
                if is_qc_sample(sample):
                    continue
                self._add(
                    sample,
                    analyte,
                    cas,
                    cells[column],
                    None,
                    unit or columns.units.get(column) or fallback,
                    limit,
                )
            return
        if "result" not in cell:
            return
        result_unit = unit or columns.units.get(roles.index("result")) or fallback
        sample = self.sample
        if "sample" in roles:
            sample = ocr_id(normalize_space(cells[roles.index("sample")])) or None
        if sample is None or is_qc_sample(sample):
            return
        self._add(sample, analyte, cas, cell["result"], cell.get("qual"), result_unit, limit)

    def _add(
        self,
        sample: str,
        analyte: str,
        cas: str | None,
        result_text: str,
        qual_text: str | None,
        unit: str | None,
        limit: float | None,
    ) -> None:
        value = parse_result(result_text, decimal_comma=self.decimal_comma)
        if value is None:
            return
        qualifier = parse_qualifier(qual_text) if qual_text else None
        if (
            qualifier is not None
            and not all(code in QUALIFIER_CODES for code in _codes(qualifier))
            and not is_code(qualifier)
        ):
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
                    if (
                        pending.record["result"] is not None
                        and pending.record["reporting_limit"] is None
                    ):
                        pending.record["reporting_limit"] = pending.record["result"]
                    pending.record["nondetect"] = True
                    pending.record["result"] = None
            else:
                still.append(pending)
        self.pending = still


VOIDING = re.compile(
    r"\bnot\s+valid\b|\binvalid(ated)?\b|\b(must|should)\s+not\s+be\s+used\b|\bunusable\b|\bdo\s+not\s+use\b|"
    r"\bdisregard(ed)?\b|\bnot\s+(be\s+)?reportable\b|\bwithdrawn\b",
    re.I,
)


FRACTION = re.compile(r"\b(dissolved|TCLP|SPLP)\b", re.I)


def fraction_of(text: str) -> str | None:
    """The fraction a title names: dissolved (as a word), TCLP or SPLP (as abbreviations)."""
    match = FRACTION.search(text)
    if match is None:
        return None
    word = match.group(1)
    return word.lower() if word.lower() == "dissolved" else word.upper()


def mentions(sentence: str, name: str) -> bool:
    """Does the sentence name `name` as a whole (not inside a longer ID or name, and a name
    without a fraction not where the sentence names one: "Lead" is not "Lead (TCLP)")?"""
    tail = r"(?![\w-])" if "(" in name else r"(?![\w-])(?!\s*\()"
    return re.search(r"(?<![\w-])" + re.escape(name) + tail, sentence, re.I) is not None


def voided_results(prose: str, records: list[dict[str, Any]]) -> set[int]:
    """Indices of records a sentence of the report declares invalid (it names their sample and
    analyte beside words such as "not valid", "must not be used")."""
    voided: set[int] = set()
    for sentence in re.split(r"(?<=[.;])\s+", prose):
        if not VOIDING.search(sentence):
            continue
        for k, record in enumerate(records):
            if mentions(sentence, record["analyte"]) and mentions(sentence, record["sample_id"]):
                voided.add(k)
    return voided


def ocr_id(sample: str) -> str:
    """A sample ID with the space OCR puts after a lone initial letter taken out (`B 18-6` is
    `B18-6`: IDs do not start with a letter standing alone before a number)."""
    return re.sub(r"^([A-Z]) (?=\d+[-\w])", r"\1", sample)


def rejected(qualifier: str | None) -> bool:
    """A result a validator rejected (R, alone or among other codes) is no result."""
    return qualifier is not None and "R" in re.findall(r"[A-Z]", qualifier)


def reportable(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The reportable results of re-analysed samples, as laboratories report them: a re-analysis
    (RE, RA) replaces the original run's results of the analytes it reports; a dilution (DL)
    gives the result of an analyte whose original result exceeded the calibration range (E) and
    replaces it, its other results being no records; records keep the sample's own ID."""
    runs: dict[tuple[str, str], dict[str, dict[str, Any]]] = {}
    for record in records:
        match = REANALYSIS.match(record["sample_id"])
        run = match.group("run") if match else ""
        base = match.group("base") if match else record["sample_id"]
        runs.setdefault((base, record["analyte"]), {})[run] = record
    kept: list[dict[str, Any]] = []
    for record in records:
        match = REANALYSIS.match(record["sample_id"])
        run = match.group("run") if match else ""
        base = match.group("base") if match else record["sample_id"]
        others = runs[(base, record["analyte"])]
        if run in ("RE", "RA"):
            kept.append({**record, "sample_id": base})
        elif run == "DL":
            original = others.get("")
            if original is not None and "E" in (original["qualifier"] or ""):
                kept.append({**record, "sample_id": base})
        elif (
            "RE" in others
            or "RA" in others
            or "DL" in others
            and "E" in (record["qualifier"] or "")
        ):
            continue
        else:
            kept.append(record)
    return kept


DECIMAL_COMMA = re.compile(r"^[<]?\s*\d+,(\d{1,2}|\d{4,})(\s+[A-Z]{1,3}[+-]?)?$|^[<]?\s*0,\d+")


def cell_roles_taken(roles: list[str | None], index: int) -> set[str]:
    """Roles an earlier column already holds: the first column of a repeated role is read."""
    return {r for r in roles[:index] if r is not None}


def is_code(qualifier: str) -> bool:
    return bool(re.fullmatch(r"([A-Z]{1,3}[+-]?)+", qualifier)) and len(qualifier) <= 4


def _codes(qualifier: str) -> list[str]:
    return [qualifier] if qualifier in QUALIFIER_CODES else list(qualifier)


# -- line classification -------------------------------------------------------------------------


def phrases_of(line: Line, em: float) -> list[Phrase]:
    return split_phrases(line, PHRASE_GAP_EMS * em)


def has_value(line: Line) -> bool:
    """Does the line hold a number, a non-detect or a CAS number (so it is no title)?"""
    for word in line.words:
        text = word.text.strip("()")
        if find_cas(text) or parse_number(text) is not None or text.upper() in ("ND", "--"):
            return True
        if text.startswith("<") and (parse_number(text[1:]) is not None or len(text) == 1):
            return True
    return False


def header_value_free(line: Line) -> bool:
    """A header line holds no values: no CAS number, number or non-detect outside its dates
    (dates sit under sample IDs; times beside them)."""
    text = DATE_LIKE.sub(" ", line.text)
    for token in text.split():
        token = token.strip("(),;")
        if not token or re.fullmatch(r"\d{1,2}:\d{2}(:\d{2})?", token):
            continue
        if find_cas(token) or parse_number(token) is not None or token.upper() == "ND":
            return False
        if token.startswith("<") and parse_number(token[1:]) is not None:
            return False
    return True


def header_roles(texts: list[str]) -> tuple[set[str], int]:
    """The roles the texts of a header block score, and how many look like sample IDs."""
    roles: set[str] = set()
    ids = 0
    for text in texts:
        scores = title_scores(text)
        if scores:
            roles.add(max(scores, key=lambda r: scores[r]))
        elif looks_like_sample_id(text):
            ids += 1
    return roles, ids


def header_lines(lines: list[Line], index: int, em: float) -> int:
    """How many lines from `index` make a table header (0: none)."""
    first = lines[index]
    if len(phrases_of(first, em)) < 2 or not header_value_free(first):
        return 0
    if LABEL.match(normalize_space(first.text)) and len(phrases_of(first, em)) < 3:
        return 0
    block = [first]
    while len(block) < HEADER_LINES and index + len(block) < len(lines):
        nxt = lines[index + len(block)]
        if nxt.top - block[-1].top > HEADER_GAP_EMS * 1.6 * em or not header_value_free(nxt):
            break
        if len(phrases_of(nxt, em)) == 1 and not title_scores(nxt.text):
            break  # a group title over the rows ("Dissolved Metals"), not a wrapped column title
        block.append(nxt)
    # The block ends where the body starts: a line of values follows it, or a section row does.
    end = index + len(block)
    if end < len(lines) and not has_value(lines[end]) and len(phrases_of(lines[end], em)) == 1:
        end += 1
    if end >= len(lines) or not has_value(lines[end]):
        return 0
    texts = [normalize_space(p.text) for line in block for p in phrases_of(line, em)]
    if sum(len(phrases_of(line, em)) for line in block) < 3:
        return 0
    roles, ids = header_roles(texts)
    value_roles = roles & {"analyte", "result", "cas", "rl", "mdl", "unit", "qual"}
    if (
        len(roles) >= 2
        and value_roles
        and ("analyte" in roles or "cas" in roles or "result" in roles)
    ) or ("analyte" in roles and ids >= 2):
        return len(block)
    return 0


def is_title(line: Line, em: float) -> bool:
    """A short line of one or two phrases without values (a one-phrase title may hold a method
    number: "Volatile Organic Compounds by 8260")."""
    text = normalize_space(line.text)
    if len(text.split()) > TITLE_WORDS_MAX or text.endswith(".") or text[:1].islower():
        return False  # a sentence (or its last line) is prose, not a title
    phrases = len(phrases_of(line, em))
    return (phrases <= 2 and not has_value(line)) or (phrases == 1 and not find_cas(text))


def is_body_row(line: Line, above: Line, em: float) -> bool:
    if line.top - above.top > ROW_GAP_EMS * em:
        return False
    text = normalize_space(line.text)
    if FOOTNOTE.match(text) or PAGE_NUMBER.match(text):
        return False
    match = LABEL.match(text)
    if match and is_sample_label(match.group("label")):
        return False
    return has_value(line) and len(phrases_of(line, em)) >= 2


def is_section_row(lines: list[Line], index: int, em: float) -> bool:
    """A one-phrase line (or a short one without values) between rows of a table: a group title
    (method, "Surrogates", a unit)."""
    line = lines[index]
    if index == 0 or index + 1 >= len(lines):
        return False
    if line.top - lines[index - 1].top > ROW_GAP_EMS * 1.5 * em:
        return False
    # One phrase; or a short line of words without values that OCR's wider word spaces split.
    if len(phrases_of(line, em)) != 1 and (
        has_value(line) or len(line.text.split()) > TITLE_WORDS_MAX
    ):
        return False
    text = normalize_space(line.text)
    if FOOTNOTE.match(text) or PAGE_NUMBER.match(text) or find_cas(text) or LABEL.match(text):
        return False
    return is_body_row(lines[index + 1], line, em)


# -- columns -------------------------------------------------------------------------------------


def build_columns(header: list[Line], body: list[Line], em: float) -> Columns | None:
    gap = COLUMN_GAP_EMS * em
    body_bounds = merge_intervals(((w.x0, w.x1) for line in body for w in line.words), slack=gap)
    header_phrases = [(k, p) for k, line in enumerate(header) for p in phrases_of(line, em)]
    # Header cells over one body column (or over none: a column blank in every row) shape the
    # columns; a cell spanning several body columns is a group title over them.
    extents = [(w.x0, w.x1) for line in body for w in line.words]
    spanning: list[tuple[int, Phrase]] = []
    for k, phrase in header_phrases:
        over = [b for b in body_bounds if overlap(phrase.x0, phrase.x1, b[0], b[1]) > 0]
        if len(over) <= 1:
            extents.append((phrase.x0, phrase.x1))
        else:
            spanning.append((k, phrase))
    bounds = merge_intervals(extents, slack=gap)
    if len(bounds) < 2:
        return None
    lines_of: list[list[str]] = [[""] * len(header) for _ in bounds]
    for k, line in enumerate(header):
        for word in line.words:
            if any(word in phrase.words for _, phrase in spanning):
                continue
            column = assign_column(word.x0, word.x1, bounds)
            lines_of[column][k] = f"{lines_of[column][k]} {word.text}".strip()
    groups: list[list[str]] = [[] for _ in bounds]
    for _, phrase in spanning:
        for column, (start, end) in enumerate(bounds):
            if overlap(phrase.x0, phrase.x1, start, end) > 0:
                groups[column].append(normalize_space(phrase.text))
    titles = ["\n".join(part for part in parts if part) for parts in lines_of]
    columns_cells: list[list[str]] = [[] for _ in bounds]
    for line in body:
        cells: list[list[str]] = [[] for _ in bounds]
        for word in line.words:
            cells[assign_column(word.x0, word.x1, bounds)].append(word.text)
        for column, parts in enumerate(cells):
            columns_cells[column].append(normalize_space(" ".join(parts)))
    roles, sample_columns = assign_roles(titles, columns_cells)
    samples = {column: sample_title(titles[column]) for column in sample_columns}
    units: dict[int, str] = {}
    for column in range(len(bounds)):
        unit = find_unit(titles[column]) or next(
            (find_unit(g) for g in groups[column] if find_unit(g)), None
        )
        if unit is not None:
            units[column] = unit
    qc = any(role in QC_ROLES for role in roles)
    return Columns(bounds, roles, titles, samples, units, qc)


def cells_of(line: Line, columns: Columns, em: float) -> list[str]:
    """The line's text per column (words joined with spaces)."""
    cells: list[list[str]] = [[] for _ in columns.bounds]
    for word in line.words:
        cells[assign_column(word.x0, word.x1, columns.bounds)].append(word.text)
    return [normalize_space(" ".join(parts)) for parts in cells]
