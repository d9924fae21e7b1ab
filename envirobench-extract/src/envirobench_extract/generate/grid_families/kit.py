"""What the grid families share: column alignment, surrogates, footnotes, the Family record, the
context a family draws with (its stream, split, notation) and the small helpers of the builders,
which import this module whole and call them by its name (`kit.skewed`, `kit.date`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from envirobench_synth import catalogue, tables, vocabulary

from .. import v1_columns
from ..grid_tables import GROUP_TITLES, Notation, _Grid

Split = vocabulary.Split

# The v1 tables' columns align as they did; the families' further columns after them.
ALIGN: dict[str, tables.Alignment] = {
    **v1_columns.ALIGN,
    "mdl": "right",
    "dilution": "center",
    "analysed": "left",
    "prepared": "left",
    "screening": "right",
    "sample_id": "left",
    "lab_id": "left",
    "date": "left",
}

SURROGATES: dict[str, tuple[str, ...]] = {
    "voc": (
        "Toluene-d8 (Surr)",
        "4-Bromofluorobenzene (Surr)",
        "Dibromofluoromethane (Surr)",
        "1,2-Dichloroethane-d4 (Surr)",
    ),
    "pah": ("Nitrobenzene-d5 (Surr)", "2-Fluorobiphenyl (Surr)", "Terphenyl-d14 (Surr)"),
    "svoc": ("Nitrobenzene-d5 (Surr)", "2-Fluorobiphenyl (Surr)"),
    "pcb": ("Decachlorobiphenyl (Surr)", "Tetrachloro-m-xylene (Surr)"),
    "tph": ("o-Terphenyl (Surr)", "4-Bromofluorobenzene (FID) (Surr)"),
}
FOOTNOTES: tuple[str, ...] = (
    "U - Not detected at or above the reporting limit.",
    "J - Estimated value; the analyte was detected below the reporting limit.",
    "B - The analyte was also found in the associated method blank.",
    "Bold values exceed the screening level.",
    "Results are reported on a dry-weight basis.",
    "* Recovery outside the control limits.",
    "Samples were analysed within holding times.",
    "ND - Not detected.",
)


@dataclass(frozen=True)
class Family:
    name: str
    split: Split
    modelled_on: str
    build: Callable[[Context, bool], tuple[_Grid, list[str]]]
    style: Callable[[random.Random], dict[str, object]]


@dataclass
class Context:
    rng: random.Random
    split: Split
    notation: Notation
    not_result: str

    def title(self, role: str) -> str:
        return vocabulary.choose(self.rng, vocabulary.COLUMN_TERMS[role], self.split)

    def name(self, analyte: catalogue.Analyte, row: catalogue.ResultRow) -> str:
        synonyms = vocabulary.ANALYTE_SYNONYMS.get(analyte.cas or "")
        if synonyms and self.rng.random() < 0.5:
            return vocabulary.choose(self.rng, synonyms, self.split)
        return row.analyte

    def results(
        self, matrix: catalogue.MatrixName, count: int
    ) -> list[tuple[catalogue.Analyte, catalogue.ResultRow]]:
        analytes = catalogue.sample_analytes(self.rng, matrix, count)
        return [
            (a, catalogue.sample_result_row(self.rng, a, matrix, self.notation.report))
            for a in analytes
        ]


# -- helpers shared by the families ---------------------------------------------------------------


def skewed(rng: random.Random, low: int, high: int) -> int:
    """A count from low to high, small ones more often (a long tail of big tables): real reports
    hold many short tables and a few long ones, and the images stay small."""
    return min(high, low + int((high - low + 1) * rng.random() ** 2.8))


def mdl(rng: random.Random, reporting_limit: str) -> str:
    return catalogue.significant(Decimal(reporting_limit) * Decimal(rng.randint(10, 50)) / 100, 2)


def screening(rng: random.Random, reporting_limit: str) -> str:
    value = Decimal(reporting_limit) * Decimal(rng.choice((2, 5, 10, 20, 50, 100, 400)))
    return catalogue.significant(value, 2)


def exceeds(row: catalogue.ResultRow, screening: str) -> bool:
    try:
        return row.detected and Decimal(row.result) > Decimal(screening)
    except ArithmeticError:
        return False


def date(rng: random.Random, fmt: str, with_time: bool = False) -> str:
    text = catalogue.sample_date(rng).strftime(fmt)
    if with_time:
        text += f" {rng.randint(7, 18):02d}:{rng.randint(0, 59):02d}"
    return text


def date_format(rng: random.Random) -> str:
    return rng.choice(("%m/%d/%Y", "%Y-%m-%d", "%d-%b-%y", "%m/%d/%y"))


def section(group: str, method: str, style: int) -> str:
    title = GROUP_TITLES[group]
    return (
        f"{title} by {method}",
        f"Method: {method}",
        title.upper(),
        f"{method} - {title}",
    )[style]


def label_row(grid: _Grid, row: int, text: str, kind: str, columns: int, flat: bool, **merged: str) -> None:
    """A row labelled in its first cell across `columns` columns (a section title, a screening
    level's name): one merged cell, or (flat: the families' tables without merged cells) the
    label in the first column and the others blank."""
    if flat:
        grid.add(row, 0, text, kind, bold=True)
        for c in range(1, columns):
            grid.add(row, c, "", "blank")
    else:
        grid.add(row, 0, text, kind, column_span=columns, bold=True, **merged)


def lab_id(rng: random.Random) -> str:
    return f"{rng.randint(2018, 2024) % 100:02d}{rng.randint(10, 12)}{rng.randint(100, 999)}-{rng.randint(1, 30):02d}"


def samples(rng: random.Random, matrix: catalogue.MatrixName, count: int) -> list[str]:
    out: list[str] = []
    while len(out) < count:
        sample = catalogue.sample_id(rng, matrix)
        if sample not in out:
            out.append(sample)
    return out


def footnotes(rng: random.Random, grid: _Grid, row: int, columns: int, flat: bool) -> int:
    """Append 0-3 footnote rows across the table; returns the next free row."""
    if flat:
        return row
    for text in rng.sample(FOOTNOTES, rng.choice((0, 0, 1, 1, 2, 3))):
        grid.add(row, 0, text, "footnote", column_span=columns, bold=False, align="left")
        row += 1
    return row


def lead_header(
    grid: _Grid, kinds: list[str], ctx: Context, header_rows: int, flat: bool
) -> None:
    """Titles of the leading (per-row) columns, merged down the header rows (flat: first row
    only, the rest left blank)."""
    for c, kind in enumerate(kinds):
        title = ctx.title(kind)
        if flat or header_rows == 1:
            grid.add(0, c, title, "header")
            for r in range(1, header_rows):
                grid.add(r, c, "", "header")
        else:
            grid.add(0, c, title, "header", row_span=header_rows)


def result_text(ctx: Context, row: catalogue.ResultRow, with_qualifier: bool) -> str:
    if with_qualifier:
        return ctx.notation.result_with_qualifier(row)
    return ctx.notation.result(row)
