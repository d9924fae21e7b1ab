"""`TableReader`: reads pages one after another and keeps what a table carries over a page break
(steps 1 to 7 of the package's docstring); the records it gives are the reportable ones.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..headers import (
    looks_like_sample_id,
)
from ..layout import (
    Line,
    Word,
    em_size,
    group_lines,
    normalize_space,
    split_phrases,
)
from ..quantities import (
    QUALIFIER_CODES,
    find_cas,
    find_unit,
    normalize_unit,
    parse_number,
    parse_qualifier,
    parse_result,
)
from .columns import Columns, build_columns, cells_of
from .lines import has_value, header_lines, is_body_row, is_section_row, is_title, phrases_of
from .reportable import (
    DECIMAL_COMMA,
    cell_roles_taken,
    fraction_of,
    is_code,
    ocr_id,
    qualifier_codes,
    rejected,
    reportable,
    voided_results,
)
from .vocabulary import (
    CONTROL_RANGE,
    FOOTNOTE,
    LABEL,
    NEW_REPORT,
    PAGE_NUMBER,
    PHRASE_GAP_EMS,
    RESULTS_TITLE,
    SUPERSEDED,
    SURROGATE,
    TITLE_WORDS_MAX,
    is_qc_heading,
    is_qc_sample,
    is_sample_label,
    is_unit_label,
)


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
    reading: bool = True  # False under a sample label that names lab QC (`MW-01 MS`)
    markers: bool = True  # resolve footnote markers (the baseline variant does not)
    unit: str | None = None  # a unit a label gave for tables that print none
    title_unit: str | None = None  # a unit the title above the table names ("Metals - mg/kg")
    fraction: str | None = None  # the fraction a title or section names (dissolved, TCLP, SPLP)
    superseded: bool = False  # inside pages marked as superseded (originals behind a revision)
    stamps: set[str] = field(default_factory=set)  # superseded words printed before any result
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
            mark = text.lower()
            if mark in self.stamps or (not self.records and self.columns is None):
                # Printed before any result was read (and again on later pages): a stamp on
                # every page of a copy ("Uncontrolled copy - for reference only"), not the
                # heading of original pages behind a revision, which follow the results.
                self.stamps.add(mark)
                return False
            self.superseded, self.columns, self.sample = True, None, None
            return True
        if (
            self.superseded
            and NEW_REPORT.search(text)
            and not re.search(r"\bpage\s+\d", text, re.I)
        ):
            self.superseded = False  # the next report of several stapled together
        if is_qc_heading(text):
            # A QC section: its tables give records only for the samples they name themselves
            # (each row or sample column judged on its own), none for the sample named before
            # it. Reading goes on: a heading never switches every later table off.
            self.columns, self.sample = None, None
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
        self.section_qc = is_qc_heading(text)
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
            and not all(code in QUALIFIER_CODES for code in qualifier_codes(qualifier))
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
