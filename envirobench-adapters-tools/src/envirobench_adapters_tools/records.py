"""The one generic mapper from a PDF tool's tables to measurement records (`table-records`,
`document-extraction`).

A table tool gives rows of cell texts; a record needs a sample, an analyte, a number, a unit, a
qualifier and a reporting limit. This mapper, shared by every table adapter so that the rows of
the board differ only by what each tool extracts, reads tables the way the published record
format (envirobench_extract/records.py) describes them, and nothing more:

1. **Header.** A row is a header when one cell names the analyte column (analyte, parameter,
   compound, constituent, determinand) and another names a result column (result, amount, amt,
   concentration, conc, value, measured), or has other cells left over and names no qualifier
   or limit column (a sample matrix). Column roles come
   from the header words alone: sample (sample, client id, field id, location), CAS (cas),
   result, qualifier (q, qual, qualifier, flag), reporting limit (rl, loq, pql, mrl, rdl,
   reporting limit, quantitation limit), unit (unit, units, uom); dl, mdl, dilution, df, method
   and analysis dates are known and ignored. With a result column a row is one record
   ("long form"); without one, every unnamed column right of the analyte is a sample and its
   header text the sample ID ("samples as columns").
2. **Sample.** Long form without a sample column: the page's `Label ID: value` line (client,
   sample or field ID / name; not the lab sample ID), the value up to the next `Label:` on the line. Where a table's
   rows hold such labels (several samples on a page), each starts the next sample, its value the
   page text's label of the same rank. The sample carries over to the next page, and so does the
   last header (a table continued without repeating its header).
3. **Values.** `1,250` is 1250 (a comma before exactly three digits groups thousands; any other
   comma is a decimal comma, `4,0` is 4.0). `<0.50` is a non-detect at 0.5; `ND` a non-detect at
   the row's reporting limit; a value followed by letters keeps them as its qualifier (`0.017 J`),
   and a qualifier holding `U` makes the value a non-detect (result null, reporting limit the
   column's or else the printed value). A row without a number in its result cell is no record
   (section titles, sample blocks, a second header line).
4. **What is not a record** (records.py: only the report's samples): surrogates (an analyte
   starting `Surrogate` or marked `(surr)`) and laboratory QC samples (method blank, LCS, LCSD,
   MS, MSD, blank spike and sample IDs ending in one of them).

No vocabulary beyond these header words, no per-report rule, nothing tuned on answers. A page the
tool finds no table on gives no records (image-only scans among them: these tools read text
layers only).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

ROLE_WORDS: dict[str, tuple[str, ...]] = {
    "analyte": (
        "analyte",
        "analytes",
        "parameter",
        "parameter name",
        "parameters",
        "compound",
        "compounds",
        "constituent",
        "constituents",
        "determinand",
        "analyte name",
        "compound name",
    ),
    "sample": (
        "sample",
        "sample id",
        "sample name",
        "client id",
        "client sample id",
        "field id",
        "field sample id",
        "location",
        "location id",
        "sample location",
    ),
    "cas": ("cas", "cas no", "cas no.", "cas number", "cas #", "cas reg. no.", "cas rn"),
    "result": (
        "result",
        "results",
        "amount",
        "amt",
        "amt.",
        "concentration",
        "conc",
        "conc.",
        "value",
        "measured value",
        "measured",
        "reported value",
        "result value",
    ),
    "qualifier": (
        "q",
        "qual",
        "qual.",
        "qualifier",
        "qualifiers",
        "flag",
        "flags",
        "lab qualifier",
        "data qualifier",
    ),
    "rl": (
        "rl",
        "loq",
        "pql",
        "mrl",
        "rdl",
        "reporting limit",
        "quantitation limit",
        "limit of quantitation",
        "report limit",
        "mql",
    ),
    "unit": ("unit", "units", "uom", "unit of measure"),
    "ignored": (
        "dl",
        "mdl",
        "lod",
        "df",
        "dil",
        "dil.",
        "dilution",
        "dil. factor",
        "dilution factor",
        "method",
        "analyzed",
        "prepared",
        "date analyzed",
        "batch",
    ),
}
ROLE_OF = {word: role for role, words in ROLE_WORDS.items() for word in words}
SAMPLE_LABEL = re.compile(
    # "Lab Sample ID" is the laboratory's number, not the sample's name.
    r"(?<!lab )\b(?:client|sample|field)\s*(?:sample\s*)?(?:id|name)\s*[:#]\s*(?P<value>.+?)"
    r"(?=\s+[A-Z][A-Za-z.]*(?:\s+[A-Za-z.]+){0,2}\s*[:#]|$)",
    re.IGNORECASE | re.MULTILINE,
)
NUMBER = re.compile(
    r"^(?P<lt><\s*)?(?P<number>[-+]?\d[\d,]*(?:\.\d+)?)\s*(?P<qualifier>[A-Za-z*][A-Za-z0-9*,+-]*)?$"
)
NONDETECT_WORDS = ("nd", "n.d.", "not detected", "bdl", "<rl", "<mdl")
QC_SAMPLE = re.compile(
    r"(?:^|[\s_-])(?:mb|method blank|blank spike|lcs|lcsd|ms|msd|bs|bsd)$", re.IGNORECASE
)
CAS = re.compile(r"[0-9]{2,7}-[0-9]{2}-[0-9]")
SURROGATE = re.compile(r"^surr(?:ogate)?\b|\(surr\)", re.IGNORECASE)


def clean(text: Any) -> str:
    return " ".join(str(text or "").split())


def number(text: str) -> float | None:
    """`1,250` is 1250, `4,0` is 4.0, `0.50` is 0.5; anything else (a date, a word) None."""
    text = text.strip()
    if not re.fullmatch(r"[-+]?\d[\d,]*(?:\.\d+)?", text):
        return None
    if "," in text:
        if re.fullmatch(r"[-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?", text):
            text = text.replace(",", "")
        elif text.count(",") == 1 and "." not in text:
            text = text.replace(",", ".")
        else:
            return None
    return float(text)


@dataclass(frozen=True)
class Reading:
    result: float | None
    nondetect: bool
    qualifier: str | None
    printed_limit: float | None  # `<0.50` or `0.50 U`: the printed number, a limit


def read_value(text: str, qualifier_cell: str = "") -> Reading | None:
    """A result cell (and its qualifier cell, if the table has one) as a reading, or None."""
    text = clean(text)
    qualifier = clean(qualifier_cell) or None
    if text.casefold() in NONDETECT_WORDS:
        return Reading(None, True, qualifier, None)
    match = NUMBER.match(text)
    if match is None:
        return None
    value = number(match["number"])
    if value is None:
        return None
    qualifier = match["qualifier"] or qualifier
    if match["lt"]:
        return Reading(None, True, qualifier, value)
    if qualifier and "U" in qualifier.upper():
        return Reading(None, True, qualifier, value)
    return Reading(value, False, qualifier, None)


def header_roles(row: Sequence[str]) -> dict[int, str] | None:
    """The role of each column if `row` is a header (see the module's docstring), else None."""
    roles: dict[int, str] = {}
    for index, text in enumerate(row):
        key = clean(text).casefold().rstrip(":")
        key = re.sub(r"\s*\(.*\)$", "", key)  # "Result (mg/kg)": the unit is read separately
        if key in ROLE_OF:
            roles[index] = ROLE_OF[key]
    if "analyte" not in roles.values():
        return None
    named = {i for i, role in roles.items()}
    leftover = [i for i, text in enumerate(row) if i not in named and clean(text)]
    if "result" in roles.values():
        return roles
    # Samples as columns name no qualifier or limit column (those belong to one result column);
    # a header that does but names no result is one the tool split, not a sample matrix.
    if leftover and not {"qualifier", "rl"} & set(roles.values()):
        return roles
    return None


def header_unit(text: str) -> str | None:
    match = re.search(r"\(([^()]*/[^()]*|%|ppm|ppb)\)\s*$", clean(text))
    return match[1].strip() if match else None


@dataclass
class Layout:
    roles: dict[int, str]
    header: list[str]

    def column(self, role: str) -> int | None:
        return next((i for i, r in self.roles.items() if r == role), None)

    @property
    def sample_columns(self) -> list[int]:
        """Samples as columns: the unnamed header cells right of the analyte column."""
        analyte = self.column("analyte") or 0
        return [
            i
            for i, text in enumerate(self.header)
            if i > analyte and i not in self.roles and clean(text)
        ]


@dataclass
class RecordMapper:
    """Reads pages in order; `records` holds what the pages read so far give."""

    records: list[dict[str, Any]] = field(default_factory=list)
    layout: Layout | None = None
    sample: str | None = None

    def read_page(
        self, tables: Iterable[Sequence[Sequence[Any]]], text: str = ""
    ) -> list[dict[str, Any]]:
        """One page: its tables (rows of cell texts, as the tool gives them) and its text (for the
        sample label). Returns the page's records (also appended to `records`)."""
        labels = [clean(m["value"]) for m in SAMPLE_LABEL.finditer(text or "")]
        if labels:
            self.sample = labels[0]
        seen = 0  # the labels met so far in the tables, in order
        page: list[dict[str, Any]] = []
        for table in tables:
            for raw in table:
                row = [clean(cell) for cell in raw]
                if not any(row):
                    continue
                roles = header_roles(row)
                if roles is not None:
                    self.layout = Layout(roles, row)
                    continue
                label = SAMPLE_LABEL.search(" ".join(row))
                if label is not None:
                    # A label inside a table marks where the next sample starts; its value is the
                    # page text's label of the same rank (a tool's table may split a cell's words
                    # where its text does not), else the row's own.
                    self.sample = labels[seen] if seen < len(labels) else clean(label["value"])
                    seen += 1
                    continue
                if self.layout is not None:
                    page.extend(self._row_records(self.layout, row))
        self.records.extend(page)
        return page

    def _row_records(self, layout: Layout, row: list[str]) -> list[dict[str, Any]]:
        def cell(role: str) -> str:
            index = layout.column(role)
            return row[index] if index is not None and index < len(row) else ""

        analyte = cell("analyte")
        if not analyte or SURROGATE.search(analyte):
            return []
        cas = cell("cas") if CAS.fullmatch(cell("cas")) else None  # `--` for a petroleum fraction
        unit = cell("unit") or None
        limit = number(cell("rl").split(" ")[0]) if cell("rl") else None
        result_index = layout.column("result")
        if result_index is not None:
            sample = cell("sample") or self.sample
            unit = unit or header_unit(layout.header[result_index])
            cells = [
                (sample, row[result_index] if result_index < len(row) else "", cell("qualifier"))
            ]
        else:
            cells = [
                (layout.header[i], row[i] if i < len(row) else "", "")
                for i in layout.sample_columns
            ]
        records = []
        for sample, value, qualifier in cells:
            if not sample or QC_SAMPLE.search(sample):
                continue
            reading = read_value(value, qualifier)
            if reading is None:
                continue
            records.append(
                {
                    "sample_id": sample,
                    "analyte": analyte,
                    "cas": cas,
                    "result": reading.result,
                    "nondetect": reading.nondetect,
                    "unit": unit or "",  # the format wants a string: "" where the table prints none
                    "qualifier": reading.qualifier,
                    "reporting_limit": limit if limit is not None else reading.printed_limit,
                }
            )
        return records
