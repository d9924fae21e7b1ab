"""The printed report of a family (`FamilyReport`): its blocks, sections and cells, the number
conventions it prints with and the facts of its front matter.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Literal

from ... import catalogue
from ...vocabulary import (
    Split,
)
from ..model import TruthRecord
from .family import Family

BlockKind = Literal[
    "field",
    "field-duplicate",
    "field-blank",
    "dl",
    "re",
    "ms",
    "msd",
    "lab-dup",
    "mb",
    "lcs",
    "lcsd",
]
LAB_QC: frozenset[str] = frozenset(("ms", "msd", "lab-dup", "mb", "lcs", "lcsd"))


@dataclass(frozen=True)
class Block:
    """One column of results as the laboratory lists it: a sample, a re-analysis or a QC run."""

    label: str  # as printed on the results pages: "MW-03", "MW-03 DL", "MW-03 MS", "LCS"
    truth_id: str  # the field sample ID of its records ("" for laboratory QC)
    kind: BlockKind
    lab_id: str
    collected: dt.date | None
    time: str
    sections: tuple[int, ...]  # the method sections it has results for
    summary_id: str = ""  # the ID as the sample summary spells it (differs: id-padding)


@dataclass(frozen=True)
class Section:
    title: str  # "Volatile Organic Compounds"
    method: str  # as printed
    group: str
    unit: str  # as printed
    analytes: tuple[tuple[str, str | None], ...]  # (name as printed, CAS)
    fraction: str = ""  # "", "dissolved", "TCLP", "SPLP"
    percent: bool = False  # the % solids / moisture section


@dataclass(frozen=True)
class Cell:
    """One printed result with its truth (None: not a record)."""

    result: str
    qualifier: str
    rl: str
    mdl: str
    dilution: str
    truth: TruthRecord | None
    traps: tuple[str, ...] = ()
    shaded: bool = False


@dataclass(frozen=True)
class Conventions:
    nondetect: str
    date_format: str
    decimal_comma: bool
    scientific: bool
    micro: str
    thousands: bool
    qc_inline: bool
    look: str
    font_size: float
    titles: dict[str, str]  # column role -> title (vocabulary)
    not_result: str  # the cell text of an analyte not analysed
    screening: bool
    draft_watermark: bool
    status_footer_only: bool

    def date(self, value: dt.date) -> str:
        return value.strftime(self.date_format)

    def number(self, value: Decimal) -> str:
        if self.scientific and (value >= 1000 or value < Decimal("0.01")):
            mantissa, exponent = _scientific(value)
            text = f"{mantissa}E{exponent:+03d}"
        elif self.thousands and value >= 1000 and not self.decimal_comma:
            text = format(value, ",f")
        else:
            text = format(value, "f")
        return text.replace(".", ",") if self.decimal_comma else text


def _scientific(value: Decimal) -> tuple[str, int]:
    exponent = value.adjusted()
    mantissa = catalogue.significant(value.scaleb(-exponent), 2)
    if Decimal(mantissa) >= 10:
        mantissa, exponent = catalogue.significant(value.scaleb(-exponent - 1), 2), exponent + 1
    return mantissa, exponent


def read_number(text: str, decimal_comma: bool) -> float:
    """A printed number as a careful reader records it (the inverse of Conventions.number)."""
    text = text.replace(",", ".") if decimal_comma else text.replace(",", "")
    return float(Decimal(text))


@dataclass(frozen=True)
class ReportFacts:
    laboratory: str
    lab_address: tuple[str, ...]
    work_order: str
    client: str
    contact: str
    project: str
    project_number: str
    received: dt.date
    reported: dt.date
    status: str  # final, draft, revised
    revision: int
    approver: str
    matrix: str


@dataclass(frozen=True)
class FamilyReport:
    family: Family
    split: Split
    facts: ReportFacts
    conventions: Conventions
    sections: tuple[Section, ...]
    blocks: tuple[Block, ...]
    cells: dict[tuple[int, int, int], Cell]  # (block, section, analyte) -> cell
    narrative: tuple[str, ...]
    labels: dict[str, str]  # cover label role -> text
    superseded: dict[tuple[int, int, int], Cell] = field(default_factory=dict)  # original cells
    report_traps: tuple[str, ...] = ()
    screening: dict[tuple[int, int], str] = field(default_factory=dict)  # (section, analyte)

    def cell(self, block: int, section: int, analyte: int) -> Cell | None:
        return self.cells.get((block, section, analyte))
