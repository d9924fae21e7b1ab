"""Families of laboratory results tables for the v2 grid-table datasets (table-separators,
table-structure, table-cells), split between dev and test.

A family is what one kind of report does to its tables: which way round the table is (analytes
as rows, samples as rows, one row per sample and analyte), how its header is built (one row,
several rows with merged sample headers, group titles over their columns, units in a row of
their own or only in the titles), which columns it prints (MDL, RL, DF, dates, screening levels),
which rows it adds that are not results (method sections across the table, surrogate %REC rows,
screening-level rows, footnotes) and how it is ruled. Column titles, analyte synonyms and the
cells that are not results come from `envirobench_synth.vocabulary` in the document's split. The
dev split draws only the dev families, the test split only the test families:

    dev   lab-sample-page       one sample per page, analytes as rows, method sections, surrogate
                                %REC rows after organic sections, footnotes (modelled on the
                                "Client Sample Results" page of a commercial laboratory)
    dev   consultant-summary    a consultant's summary table: analytes as rows, one to eight
                                samples as columns (one or two columns each, under a merged sample
                                header, dates in a second header row), a screening-level column,
                                exceedances printed bold, footnotes
    dev   well-time-series      a monitoring-well history: one row per sample and date, analytes
                                as columns with the unit in the title or in a row of units,
                                screening-level rows at the top of the body
    test  edd-long-form         an electronic data deliverable printed as a table: one row per
                                sample and analyte, with MDL, RL, DF and analysis dates; sample
                                rows across the table when the sample column is left out
    test  wide-matrix           many samples side by side, each with Result/Q/RL (or MDL) columns
                                under a merged sample header over a lab-ID or date row; analyte,
                                CAS, unit and screening-level titles merged down the header
    test  qc-grouped-header     one sample with grouped titles (the sample over result, qualifier
                                and unit; limits over MDL and RL), QC rows inside each method
                                section whose control limits span the limit columns
    test  group-time-series     samples as rows under analyte-group titles spanning their analytes,
                                a row of units, the sample and date titles merged down

Shapes vary widely inside every family (2 to 40 rows, 2 to 20 columns), so that no constant grid
fits many tables. Rows that are not results (sections, QC rows, footnotes, screening levels) are
ordinary rows of the grid: structure counts them, cells reads their text.

`build(rng, family, split, flat)` returns the table's spec; with `flat` the family draws a table
without merged cells (the table-separators datasets, whose answer has one band per row and per
column): section and screening labels sit in the first column, one header row (and at most a
row of dates or units under it, printed as a body row).

Scans (`grid_damage.damage_grid`, `grid_damage.damage_separators`): a clean table is put on a wider sheet, marked with
`envirobench_synth.damage` (a stamp overlapping the table; a pen mark: initials, a tick, a circle
round a value or an arrow pointing at one; a number of the last column struck through with its
correction written in the right margin) and scanned at 2-5 degrees of skew (table-separators: the
largest skew that keeps every gap between rows open, so its straight-line answer stays true, and
pen marks off the table), then finished as one of: `bitonal` (thresholded, 1-bit), `grayscale`
(four grey levels), `jpeg` (a low-quality JPEG round trip, blank paper cleaned) or `fax` (every
other line repeated, dropped lines, streaks; thresholded). Truth rules under damage: marks added
to the paper are not table content (a struck-through value is still the text printed in its
cell; stamps, pen marks and the correction are no cell's text); cell boxes are carried through
the same rotation as the image; separator bands are recomputed from the text's own pixels, as
`degrade.scan` does, and a fax's repeated line is added to a band ending on it.

Length: seven families, each one function that builds its table (header rows, columns, the rows
that are not results) and one that styles it, with what they share; they are one catalogue read
side by side when a family is added or a trap counted. What happens to a table's pixels (compact
images, scans) is in `grid_damage`.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from envirobench import split_of
from envirobench_synth import catalogue, tables, vocabulary
from envirobench_synth.fonts import font
from envirobench_synth.rng import make_random

from .grid_damage import (
    clean_finish,
    damage_grid,
    damage_separators,
)
from .grid_tables import (
    GROUP_TITLES,
    DrawnTable,
    Notation,
    TableSpec,
    _Grid,
    sample_notation,
)

Split = vocabulary.Split

ALIGN: dict[str, tables.Alignment] = {
    "analyte": "left",
    "cas": "left",
    "result": "right",
    "unit": "left",
    "qualifier": "center",
    "reporting_limit": "right",
    "mdl": "right",
    "dilution": "center",
    "method": "left",
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
    build: Callable[[_Context, bool], tuple[_Grid, list[str]]]
    style: Callable[[random.Random], dict[str, object]]


@dataclass
class _Context:
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


def _skewed(rng: random.Random, low: int, high: int) -> int:
    """A count from low to high, small ones more often (a long tail of big tables): real reports
    hold many short tables and a few long ones, and the images stay small."""
    return min(high, low + int((high - low + 1) * rng.random() ** 2.8))


def _mdl(rng: random.Random, reporting_limit: str) -> str:
    return catalogue.significant(Decimal(reporting_limit) * Decimal(rng.randint(10, 50)) / 100, 2)


def _screening(rng: random.Random, reporting_limit: str) -> str:
    value = Decimal(reporting_limit) * Decimal(rng.choice((2, 5, 10, 20, 50, 100, 400)))
    return catalogue.significant(value, 2)


def _exceeds(row: catalogue.ResultRow, screening: str) -> bool:
    try:
        return row.detected and Decimal(row.result) > Decimal(screening)
    except ArithmeticError:
        return False


def _date(rng: random.Random, fmt: str, with_time: bool = False) -> str:
    text = catalogue.sample_date(rng).strftime(fmt)
    if with_time:
        text += f" {rng.randint(7, 18):02d}:{rng.randint(0, 59):02d}"
    return text


def _date_format(rng: random.Random) -> str:
    return rng.choice(("%m/%d/%Y", "%Y-%m-%d", "%d-%b-%y", "%m/%d/%y"))


def _section(group: str, method: str, style: int) -> str:
    title = GROUP_TITLES[group]
    return (
        f"{title} by {method}",
        f"Method: {method}",
        title.upper(),
        f"{method} - {title}",
    )[style]


def _lab_id(rng: random.Random) -> str:
    return f"{rng.randint(2018, 2024) % 100:02d}{rng.randint(10, 12)}{rng.randint(100, 999)}-{rng.randint(1, 30):02d}"


def _samples(rng: random.Random, matrix: catalogue.MatrixName, count: int) -> list[str]:
    out: list[str] = []
    while len(out) < count:
        sample = catalogue.sample_id(rng, matrix)
        if sample not in out:
            out.append(sample)
    return out


def _footnotes(rng: random.Random, grid: _Grid, row: int, columns: int, flat: bool) -> int:
    """Append 0-3 footnote rows across the table; returns the next free row."""
    if flat:
        return row
    for text in rng.sample(FOOTNOTES, rng.choice((0, 0, 1, 1, 2, 3))):
        grid.add(row, 0, text, "footnote", column_span=columns, bold=False, align="left")
        row += 1
    return row


def _lead_header(
    grid: _Grid, kinds: list[str], ctx: _Context, header_rows: int, flat: bool
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


def _result_text(ctx: _Context, row: catalogue.ResultRow, with_qualifier: bool) -> str:
    if with_qualifier:
        return ctx.notation.result_with_qualifier(row)
    return ctx.notation.result(row)


# -- dev families ----------------------------------------------------------------------------------


def _lab_sample_page(ctx: _Context, flat: bool) -> tuple[_Grid, list[str]]:
    rng = ctx.rng
    matrix = rng.choice(("soil", "groundwater", "groundwater", "soil-gas"))
    limit = 16 if matrix == "soil-gas" else 30
    results = ctx.results(matrix, _skewed(rng, 2, limit))
    units = {r.unit for _, r in results}
    kinds = ["analyte"]
    if rng.random() < 0.6:
        kinds.append("cas")
    kinds.append("result")
    qualifier_column = rng.random() < 0.7
    if qualifier_column:
        kinds.append("qualifier")
    unit_column = len(units) > 1 or rng.random() < 0.6
    if unit_column:
        kinds.append("unit")
    kinds.append("reporting_limit")
    for optional, chance in (("mdl", 0.5), ("dilution", 0.5), ("prepared", 0.3), ("analysed", 0.5)):
        if rng.random() < chance:
            kinds.append(optional)
    if flat:
        kinds = kinds[: rng.randint(3, len(kinds))] if len(kinds) > 3 else kinds
        if "result" not in kinds:
            kinds.append("result")
    grid = _Grid(len(kinds), header_rows=1)
    for c, kind in enumerate(kinds):
        title = ctx.title(kind)
        if kind == "result" and not unit_column:
            title += f" ({ctx.notation.unit(results[0][1].unit)})"
        grid.add(0, c, title, "header")
    sections = rng.random() < 0.7
    section_style = rng.randrange(4)
    surrogates = rng.random() < 0.6
    fmt = _date_format(rng)
    prepared = _date(rng, fmt)
    analysed = _date(rng, fmt, with_time=rng.random() < 0.5)
    dilution = rng.choice(("1", "1", "1", "2", "5", "10"))
    row = 1
    group = None

    def close_group() -> None:
        nonlocal row
        if not surrogates or group not in SURROGATES or row >= 38:
            return
        for name in rng.sample(SURROGATES[group], rng.randint(1, min(2, len(SURROGATES[group])))):
            low = rng.choice((50, 60, 70, 75))
            cells = {
                "analyte": name,
                "result": str(rng.randint(low - 10, 135)),
                "unit": "%REC",
                "reporting_limit": f"{low}-{rng.choice((120, 130, 140))}",
            }
            for c, kind in enumerate(kinds):
                grid.add(row, c, cells.get(kind, ""), "qc" if kind in cells else "blank")
            row += 1

    for analyte, result in results:
        if row >= 40:
            break
        if analyte.group != group:
            close_group()
            group = analyte.group
            if sections:
                text = _section(analyte.group, result.method, section_style)
                if flat:
                    grid.add(row, 0, text, "section", bold=True)
                    for c in range(1, len(kinds)):
                        grid.add(row, c, "", "blank")
                else:
                    grid.add(
                        row, 0, text, "section", column_span=len(kinds), bold=True, align="left"
                    )
                row += 1
        cells = {
            "analyte": ctx.name(analyte, result),
            "cas": result.cas or ctx.not_result,
            "result": _result_text(ctx, result, not qualifier_column),
            "qualifier": result.qualifier,
            "unit": ctx.notation.unit(result.unit),
            "reporting_limit": result.reporting_limit,
            "mdl": _mdl(rng, result.reporting_limit),
            "dilution": dilution,
            "prepared": prepared,
            "analysed": analysed,
        }
        for c, kind in enumerate(kinds):
            grid.add(row, c, cells[kind], kind)
        row += 1
    if row < 38:
        close_group()
    _footnotes(rng, grid, row, len(kinds), flat)
    return grid, kinds


def _consultant_summary(ctx: _Context, flat: bool) -> tuple[_Grid, list[str]]:
    rng = ctx.rng
    matrix = rng.choice(("soil", "soil", "groundwater", "soil-gas"))
    limit = 16 if matrix == "soil-gas" else 32
    analytes = catalogue.sample_analytes(rng, matrix, _skewed(rng, 2, limit))
    samples = _samples(rng, matrix, _skewed(rng, 1, 8))
    results = [
        [catalogue.sample_result_row(rng, a, matrix, ctx.notation.report) for a in analytes]
        for _ in samples
    ]
    sub = ("result",) if flat or rng.random() < 0.6 or len(samples) > 5 else ("result", "qualifier")
    lead = ["analyte"]
    if rng.random() < 0.3:
        lead.append("cas")
    if rng.random() < 0.6:
        lead.append("unit")
    screening = rng.random() < 0.5
    if screening:
        lead.append("screening")
    dated = rng.random() < 0.5
    header_rows = 1 + int(dated) + int(len(sub) > 1)
    if flat:
        header_rows = 1 + int(dated)
    kinds = lead + [k for _ in samples for k in sub]
    grid = _Grid(len(kinds), header_rows)
    _lead_header(grid, lead, ctx, header_rows, flat)
    fmt = _date_format(rng)
    sub_titles = {k: ctx.title(k) for k in sub}
    for s, sample in enumerate(samples):
        first = len(lead) + s * len(sub)
        grid.add(0, first, sample, "header", column_span=len(sub))
        if dated:
            grid.add(
                1, first, _date(rng, fmt), "header" if not flat else "date", column_span=len(sub)
            )
        if len(sub) > 1:
            for k, kind in enumerate(sub):
                grid.add(header_rows - 1, first + k, sub_titles[kind], "header")
    sections = rng.random() < 0.5
    section_style = rng.randrange(4)
    row = header_rows
    group = None
    for a, analyte in enumerate(analytes):
        if row >= 40:
            break
        first = results[0][a]
        if sections and analyte.group != group:
            text = _section(analyte.group, first.method, section_style)
            if flat:
                grid.add(row, 0, GROUP_TITLES[analyte.group], "section", bold=True)
                for c in range(1, len(kinds)):
                    grid.add(row, c, "", "blank")
            else:
                grid.add(row, 0, text, "section", column_span=len(kinds), bold=True, align="left")
            row += 1
        group = analyte.group
        level = _screening(rng, first.reporting_limit)
        cells = {
            "analyte": ctx.name(analyte, first),
            "cas": first.cas or ctx.not_result,
            "unit": ctx.notation.unit(first.unit),
            "screening": level if rng.random() < 0.85 else ctx.not_result,
        }
        for c, kind in enumerate(lead):
            grid.add(row, c, cells[kind], kind)
        for s in range(len(samples)):
            result = results[s][a]
            first_column = len(lead) + s * len(sub)
            missing = rng.random() < 0.06
            for k, kind in enumerate(sub):
                if missing:
                    text = ctx.not_result if k == 0 else ""
                elif kind == "result":
                    text = _result_text(ctx, result, len(sub) == 1)
                else:
                    text = result.qualifier
                bold = screening and kind == "result" and not missing and _exceeds(result, level)
                grid.add(row, first_column + k, text, kind, bold=True if bold else None)
        row += 1
    _footnotes(rng, grid, row, len(kinds), flat)
    return grid, kinds


def _well_time_series(ctx: _Context, flat: bool) -> tuple[_Grid, list[str]]:
    rng = ctx.rng
    matrix: catalogue.MatrixName = rng.choice(("groundwater", "groundwater", "soil-gas"))
    analytes = catalogue.sample_analytes(rng, matrix, _skewed(rng, 1, 11))
    lead = ["sample_id"]
    if rng.random() < 0.8:
        lead.append("date")
    if rng.random() < 0.25:
        lead.append("lab_id")
    unit_row = rng.random() < 0.4
    header_rows = 2 if unit_row else 1
    kinds = lead + ["result"] * len(analytes)
    grid = _Grid(len(kinds), header_rows)
    for c, kind in enumerate(lead):
        title = {
            "sample_id": ctx.title("sample_id"),
            "lab_id": ctx.title("lab_id"),
            "date": vocabulary.choose(rng, vocabulary.LABEL_TERMS["collected"], ctx.split),
        }[kind]
        if flat or header_rows == 1:
            grid.add(0, c, title, "header")
            if header_rows == 2:
                grid.add(1, c, "", "header")
        else:
            grid.add(0, c, title, "header", row_span=2)
    rows_template = [
        catalogue.sample_result_row(rng, a, matrix, ctx.notation.report) for a in analytes
    ]
    names = [ctx.name(a, r) for a, r in zip(analytes, rows_template, strict=True)]
    for k, (name, template) in enumerate(zip(names, rows_template, strict=True)):
        unit = ctx.notation.unit(template.unit)
        column = len(lead) + k
        if unit_row:
            grid.add(0, column, name, "header")
            grid.add(1, column, unit, "header" if not flat else "unit")
        else:
            grid.add(0, column, f"{name} ({unit})", "header")
    row = header_rows
    if rng.random() < 0.5:
        label = ctx.title("screening")
        levels = [_screening(rng, t.reporting_limit) for t in rows_template]
        if flat or len(lead) == 1:
            grid.add(row, 0, label, "screening-label", bold=True)
            for c in range(1, len(lead)):
                grid.add(row, c, "", "blank")
        else:
            grid.add(row, 0, label, "screening-label", column_span=len(lead), bold=True)
        for k, level in enumerate(levels):
            grid.add(row, len(lead) + k, level, "screening")
        row += 1
    wells = _samples(rng, matrix, _skewed(rng, 1, 5))
    events = _skewed(rng, 1, 8)
    fmt = _date_format(rng)
    dates = sorted({catalogue.sample_date(rng) for _ in range(events)})
    for well in wells:
        for day in dates:
            if row >= 40:
                break
            cells = {"sample_id": well, "date": day.strftime(fmt), "lab_id": _lab_id(rng)}
            for c, kind in enumerate(lead):
                grid.add(row, c, cells[kind], kind)
            for k, analyte in enumerate(analytes):
                result = catalogue.sample_result_row(rng, analyte, matrix, ctx.notation.report)
                text = ctx.not_result if rng.random() < 0.05 else _result_text(ctx, result, True)
                grid.add(row, len(lead) + k, text, "result")
            row += 1
    _footnotes(rng, grid, row, len(kinds), flat)
    return grid, kinds


# -- test families ---------------------------------------------------------------------------------


def _edd_long_form(ctx: _Context, flat: bool) -> tuple[_Grid, list[str]]:
    rng = ctx.rng
    matrix = rng.choice(("soil", "groundwater", "groundwater", "soil-gas"))
    samples = _samples(rng, matrix, rng.randint(1, 4))
    per_sample = _skewed(rng, 2, max(2, 36 // len(samples)))
    analytes = catalogue.sample_analytes(rng, matrix, min(per_sample, 16))
    sample_rows = not flat and rng.random() < 0.4  # the sample named in a row across the table
    kinds = [] if sample_rows else ["sample_id"]
    if rng.random() < 0.5:
        kinds.append("lab_id")
    kinds.append("analyte")
    if rng.random() < 0.4:
        kinds.append("cas")
    kinds += ["result", "qualifier", "unit"]
    for optional, chance in (
        ("mdl", 0.6),
        ("reporting_limit", 0.9),
        ("dilution", 0.5),
        ("analysed", 0.4),
        ("method", 0.3),
    ):  # noqa: E501
        if rng.random() < chance:
            kinds.append(optional)
    grid = _Grid(len(kinds), 1)
    for c, kind in enumerate(kinds):
        grid.add(0, c, ctx.title(kind), "header")
    fmt = _date_format(rng)
    row = 1
    label = ctx.title("sample_id")
    for sample in samples:
        if row >= 39:
            break
        lab_id = _lab_id(rng)
        if sample_rows:
            grid.add(
                row,
                0,
                f"{label}: {sample}",
                "section",
                column_span=len(kinds),
                bold=True,
                align="left",
            )
            row += 1
        analysed = _date(rng, fmt, with_time=rng.random() < 0.5)
        for analyte in analytes:
            if row >= 40:
                break
            result = catalogue.sample_result_row(rng, analyte, matrix, ctx.notation.report)
            cells = {
                "sample_id": sample,
                "lab_id": lab_id,
                "analyte": ctx.name(analyte, result),
                "cas": result.cas or ctx.not_result,
                "result": ctx.notation.result(result),
                "qualifier": result.qualifier,
                "unit": ctx.notation.unit(result.unit),
                "mdl": _mdl(rng, result.reporting_limit),
                "reporting_limit": result.reporting_limit,
                "dilution": rng.choice(("1", "1", "1", "2", "5", "10", "20")),
                "analysed": analysed,
                "method": result.method,
            }
            for c, kind in enumerate(kinds):
                grid.add(row, c, cells[kind], kind)
            row += 1
    return grid, kinds


def _wide_matrix(ctx: _Context, flat: bool) -> tuple[_Grid, list[str]]:
    rng = ctx.rng
    matrix = rng.choice(("soil", "groundwater", "soil-gas"))
    limit = 16 if matrix == "soil-gas" else 28
    analytes = catalogue.sample_analytes(rng, matrix, _skewed(rng, 2, limit))
    samples = _samples(rng, matrix, _skewed(rng, 2, 5))
    sub = rng.choice(
        (
            ("result", "qualifier"),
            ("result", "qualifier", "reporting_limit"),
            ("result", "reporting_limit"),
            ("result", "qualifier", "mdl", "reporting_limit"),
        )
    )
    if len(samples) > 3 and len(sub) > 3:
        sub = sub[:3]
    lead = ["analyte"]
    if rng.random() < 0.5:
        lead.append("cas")
    if rng.random() < 0.7:
        lead.append("unit")
    if rng.random() < 0.4:
        lead.append("screening")
    second = rng.choice((None, "lab_id", "date"))
    header_rows = 1 if flat else 2 + int(second is not None)
    kinds = lead + [k for _ in samples for k in sub]
    grid = _Grid(len(kinds), header_rows)
    _lead_header(grid, lead, ctx, header_rows, flat)
    fmt = _date_format(rng)
    sub_titles = {k: ctx.title(k) for k in sub}
    for s, sample in enumerate(samples):
        first = len(lead) + s * len(sub)
        if flat:  # the sample only in its result column's title
            for k, kind in enumerate(sub):
                grid.add(
                    0,
                    first + k,
                    f"{sample} {sub_titles[kind]}" if k == 0 else sub_titles[kind],
                    "header",
                )
            continue
        grid.add(0, first, sample, "header", column_span=len(sub))
        if second is not None:
            text = _lab_id(rng) if second == "lab_id" else _date(rng, fmt)
            grid.add(1, first, text, "header", column_span=len(sub))
        for k, kind in enumerate(sub):
            grid.add(header_rows - 1, first + k, sub_titles[kind], "header")
    results = [
        [catalogue.sample_result_row(rng, a, matrix, ctx.notation.report) for a in analytes]
        for _ in samples
    ]
    sections = not flat and rng.random() < 0.6
    section_style = rng.randrange(4)
    row = header_rows
    group = None
    for a, analyte in enumerate(analytes):
        if row >= 40:
            break
        first = results[0][a]
        if sections and analyte.group != group:
            grid.add(
                row,
                0,
                _section(analyte.group, first.method, section_style),
                "section",
                column_span=len(kinds),
                bold=True,
                align="left",
            )  # noqa: E501
            row += 1
        group = analyte.group
        cells = {
            "analyte": ctx.name(analyte, first),
            "cas": first.cas or ctx.not_result,
            "unit": ctx.notation.unit(first.unit),
            "screening": _screening(rng, first.reporting_limit),
        }
        for c, kind in enumerate(lead):
            grid.add(row, c, cells[kind], kind)
        for s in range(len(samples)):
            result = results[s][a]
            values = {
                "result": _result_text(ctx, result, "qualifier" not in sub),
                "qualifier": result.qualifier,
                "reporting_limit": result.reporting_limit,
                "mdl": _mdl(rng, result.reporting_limit),
            }
            # An exceedance of the screening level is printed bold, as consultants print it.
            exceeds = "screening" in lead and _exceeds(result, cells["screening"])
            for k, kind in enumerate(sub):
                bold = True if exceeds and kind == "result" else None
                grid.add(row, len(lead) + s * len(sub) + k, values[kind], kind, bold=bold)
        row += 1
    _footnotes(rng, grid, row, len(kinds), flat)
    return grid, kinds


def _qc_grouped_header(ctx: _Context, flat: bool) -> tuple[_Grid, list[str]]:
    rng = ctx.rng
    matrix = rng.choice(("soil", "groundwater"))
    results = ctx.results(matrix, _skewed(rng, 2, 26))
    sample = catalogue.sample_id(rng, matrix)
    lead = ["analyte"] + (["cas"] if rng.random() < 0.5 else [])
    group_a = ["result", "qualifier"] + (["unit"] if rng.random() < 0.6 else [])
    group_b = ["mdl", "reporting_limit"]
    tail = [k for k, p in (("dilution", 0.6), ("analysed", 0.5)) if rng.random() < p]
    kinds = lead + group_a + group_b + tail
    header_rows = 1 if flat else 2
    grid = _Grid(len(kinds), header_rows)
    if flat:
        for c, kind in enumerate(kinds):
            grid.add(0, c, ctx.title(kind), "header")
    else:
        for c, kind in enumerate(lead):
            grid.add(0, c, ctx.title(kind), "header", row_span=2)
        start = len(lead)
        grid.add(0, start, sample, "header", column_span=len(group_a))
        grid.add(0, start + len(group_a), ctx.title("limits"), "header", column_span=len(group_b))
        for k, kind in enumerate(group_a + group_b):
            grid.add(1, start + k, ctx.title(kind), "header")
        for k, kind in enumerate(tail):
            grid.add(
                0, start + len(group_a) + len(group_b) + k, ctx.title(kind), "header", row_span=2
            )
    unit_in_header = "unit" not in kinds
    fmt = _date_format(rng)
    analysed = _date(rng, fmt, with_time=True)
    section_style = rng.randrange(4)
    row = header_rows
    group = None
    limits_at = kinds.index("mdl")

    def qc_rows(of_group: str | None) -> None:
        nonlocal row
        if of_group not in SURROGATES or row >= 37:
            return
        for name in rng.sample(SURROGATES[of_group], rng.randint(1, 2)):
            low = rng.choice((50, 60, 70))
            recovery = rng.randint(low - 15, 140)
            flagged = recovery < low or recovery > 130
            for c, kind in enumerate(kinds):
                if c == limits_at and not flat:
                    grid.add(row, c, f"{low}-130", "qc", column_span=2)
                elif kind == "reporting_limit" and not flat:
                    continue
                elif kind == "mdl" and flat:
                    grid.add(row, c, f"{low}-130", "qc")
                else:
                    text = {
                        "analyte": name,
                        "result": f"{recovery}" + (" *" if flagged else ""),
                        "unit": "%REC",
                    }.get(kind, "")
                    grid.add(row, c, text, "qc" if text else "blank")
            row += 1

    for analyte, result in results:
        if row >= 40:
            break
        if analyte.group != group:
            qc_rows(group)
            group = analyte.group
            text = _section(analyte.group, result.method, section_style)
            if flat:
                grid.add(row, 0, text, "section", bold=True)
                for c in range(1, len(kinds)):
                    grid.add(row, c, "", "blank")
            else:
                grid.add(row, 0, text, "section", column_span=len(kinds), bold=True, align="left")
            row += 1
        cells = {
            "analyte": ctx.name(analyte, result)
            + (f" ({ctx.notation.unit(result.unit)})" if unit_in_header else ""),
            "cas": result.cas or ctx.not_result,
            "result": ctx.notation.result(result),
            "qualifier": result.qualifier,
            "unit": ctx.notation.unit(result.unit),
            "mdl": _mdl(rng, result.reporting_limit),
            "reporting_limit": result.reporting_limit,
            "dilution": rng.choice(("1", "1", "2", "5")),
            "analysed": analysed,
        }
        for c, kind in enumerate(kinds):
            grid.add(row, c, cells[kind], kind)
        row += 1
    if row < 40:
        qc_rows(group)
    _footnotes(rng, grid, row, len(kinds), flat)
    return grid, kinds


def _group_time_series(ctx: _Context, flat: bool) -> tuple[_Grid, list[str]]:
    rng = ctx.rng
    matrix = rng.choice(("groundwater", "soil"))
    analytes = catalogue.sample_analytes(rng, matrix, _skewed(rng, 2, 14))
    lead = ["sample_id"] + (["date"] if rng.random() < 0.8 else [])
    unit_row = rng.random() < 0.6
    header_rows = 1 if flat else 2 + int(unit_row)
    kinds = lead + ["result"] * len(analytes)
    grid = _Grid(len(kinds), header_rows)
    for c, kind in enumerate(lead):
        title = (
            ctx.title("sample_id")
            if kind == "sample_id"
            else vocabulary.choose(rng, vocabulary.LABEL_TERMS["collected"], ctx.split)
        )
        grid.add(0, c, title, "header", **({} if flat else {"row_span": header_rows}))
    templates = [catalogue.sample_result_row(rng, a, matrix, ctx.notation.report) for a in analytes]
    names = [ctx.name(a, t) for a, t in zip(analytes, templates, strict=True)]
    column = len(lead)
    k = 0
    while k < len(analytes):
        span = 1
        while k + span < len(analytes) and analytes[k + span].group == analytes[k].group:
            span += 1
        if not flat:
            grid.add(0, column, GROUP_TITLES[analytes[k].group], "header", column_span=span)
        for j in range(k, k + span):
            unit = ctx.notation.unit(templates[j].unit)
            if flat:
                grid.add(0, column + j - k, f"{names[j]} ({unit})", "header")
            else:
                title = names[j] if unit_row else f"{names[j]} ({unit})"
                grid.add(1, column + j - k, title, "header")
                if unit_row:
                    grid.add(2, column + j - k, unit, "header")
        column += span
        k += span
    row = header_rows
    levels: dict[int, str] = {}
    if rng.random() < 0.6:
        for _ in range(rng.randint(1, 2)):
            label = ctx.title("screening")
            if flat or len(lead) == 1:
                grid.add(row, 0, label, "screening-label", bold=True)
                for c in range(1, len(lead)):
                    grid.add(row, c, "", "blank")
            else:
                grid.add(row, 0, label, "screening-label", column_span=len(lead), bold=True)
            for j, template in enumerate(templates):
                level = _screening(rng, template.reporting_limit)
                levels.setdefault(j, level)  # the first screening row is the one flagged
                grid.add(row, len(lead) + j, level, "screening")
            row += 1
    fmt = _date_format(rng)
    for sample in _samples(rng, matrix, _skewed(rng, 1, 20)):
        if row >= 40:
            break
        cells = {"sample_id": sample, "date": _date(rng, fmt)}
        for c, kind in enumerate(lead):
            grid.add(row, c, cells[kind], kind)
        for j, analyte in enumerate(analytes):
            result = catalogue.sample_result_row(rng, analyte, matrix, ctx.notation.report)
            missing = rng.random() < 0.05
            text = ctx.not_result if missing else _result_text(ctx, result, True)
            bold = not missing and j in levels and _exceeds(result, levels[j])
            grid.add(row, len(lead) + j, text, "result", bold=True if bold else None)
        row += 1
    _footnotes(rng, grid, row, len(kinds), flat)
    return grid, kinds


# -- styles ----------------------------------------------------------------------------------------


def _common(rng: random.Random, sizes: tuple[int, ...]) -> dict[str, object]:
    return {
        "font_size": rng.choice(sizes),
        "header_bold": rng.random() < 0.8,
        "pad_x": rng.randint(5, 9),
        "pad_y": rng.randint(3, 5),
        "line_gap": rng.randint(1, 2),
        "margin": rng.randint(4, 10),
    }


def _ruled(rng: random.Random, sizes: tuple[int, ...], kinds: tuple[str, ...]) -> dict[str, object]:
    look = rng.choice(kinds)
    common = _common(rng, sizes)
    if look == "fully-ruled":
        common.update(horizontal_rules=True, vertical_rules=True, frame=True)
        common["rule_width"] = rng.choice((1, 1, 2))
        common["header_fill"] = rng.choice((None, None, 230))
    elif look == "horizontal-rules":
        common.update(horizontal_rules=True, frame=True, rule_width=rng.choice((1, 1, 2)))
    elif look == "header-rule":
        common.update(header_rule=True, frame=rng.random() < 0.5)
    elif look == "zebra":
        common.update(zebra=True, shade=rng.choice((221, 238)), zebra_first=rng.random() < 0.5)
        common["header_rule"] = rng.random() < 0.5
    else:  # unruled: whitespace alone separates the columns
        common["pad_x"] = rng.randint(8, 12)
    common["look"] = look
    return common


FAMILIES: tuple[Family, ...] = (
    Family(
        "lab-sample-page",
        "dev",
        "a commercial laboratory's per-sample results page (Client Sample Results)",
        _lab_sample_page,
        lambda rng: _ruled(rng, (10, 11, 12), ("fully-ruled", "horizontal-rules", "header-rule")),
    ),
    Family(
        "consultant-summary",
        "dev",
        "a consultant's summary table of analytical results against screening levels",
        _consultant_summary,
        lambda rng: _ruled(rng, (10, 11, 12), ("unruled", "zebra", "fully-ruled", "header-rule")),
    ),
    Family(
        "well-time-series",
        "dev",
        "a groundwater-monitoring history table, one row per well and event",
        _well_time_series,
        lambda rng: _ruled(rng, (10, 11, 12), ("fully-ruled", "zebra", "horizontal-rules")),
    ),
    Family(
        "edd-long-form",
        "test",
        "an electronic data deliverable (EDD) printed row per sample and analyte",
        _edd_long_form,
        lambda rng: _ruled(rng, (10, 11, 12), ("unruled", "header-rule", "zebra")),
    ),
    Family(
        "wide-matrix",
        "test",
        "a laboratory's multi-sample data summary (several samples side by side)",
        _wide_matrix,
        lambda rng: _ruled(rng, (10, 11, 12), ("fully-ruled", "horizontal-rules", "unruled")),
    ),
    Family(
        "qc-grouped-header",
        "test",
        "a results page with grouped column titles and surrogate QC inside each method section",
        _qc_grouped_header,
        lambda rng: _ruled(rng, (10, 11, 12), ("horizontal-rules", "zebra", "fully-ruled")),
    ),
    Family(
        "group-time-series",
        "test",
        "a state-agency style historical table, analytes grouped under method titles",
        _group_time_series,
        lambda rng: _ruled(rng, (10, 11, 12), ("fully-ruled", "header-rule", "zebra")),
    ),
)
FAMILY_BY_NAME = {f.name: f for f in FAMILIES}


def families_of(split: Split) -> tuple[Family, ...]:
    return tuple(f for f in FAMILIES if f.split == split)


# -- building and drawing --------------------------------------------------------------------------


def build(
    rng: random.Random, family: Family, split: Split, *, flat: bool = False
) -> tuple[TableSpec, str]:
    """The spec of one table of `family` in `split`, and its ruling look."""
    if family.split != split:
        raise ValueError(f"family {family.name!r} belongs to the {family.split} split, not {split}")
    style_args = family.style(rng)
    look = str(style_args.pop("look"))
    if rng.random() < 0.3 and not flat:
        style_args["header_wrap"] = rng.randint(55, 90)
    style = tables.TableStyle(**style_args)  # type: ignore[arg-type]
    ctx = _Context(
        rng, split, sample_notation(rng), vocabulary.choose(rng, vocabulary.NOT_RESULT_TERMS, split)
    )
    grid, kinds = family.build(ctx, flat)
    if style.header_wrap:  # wrapped here so the cell text records its line breaks
        header_font = font(style.font_size, "bold" if style.header_bold else "regular")
        cells = [
            dataclasses.replace(c, text=tables.wrap_text(c.text, header_font, style.header_wrap))
            if c.row < grid.header_rows
            else c
            for c in grid.cells
        ]
        grid.cells = cells
    spec = TableSpec(
        tuple(grid.cells),
        tuple(grid.kinds),
        grid.rows,
        grid.columns,
        grid.header_rows,
        tuple(ALIGN[k] for k in kinds),
        style,
    )
    return spec, look


def draw_clean(spec: TableSpec) -> tables.RenderedGrid:
    return tables.render_grid(
        spec.cells, spec.rows, spec.columns, spec.style, spec.align, spec.header_rows
    )


def make_grid_table(
    seed: int, case_id: str, family: Family, split: Split, scan_kind: str | None
) -> DrawnTable:
    """One table of the structure and cells datasets: drawn, and scanned when `scan_kind` is
    given; every cell's box carried into the final image."""
    rng = make_random(seed, "table", case_id)
    spec, _ = build(rng, family, split)
    rendered = draw_clean(spec)
    boxes = tuple(drawn.box for drawn in rendered.cells)
    if scan_kind is None:
        return DrawnTable(spec, clean_finish(rendered.image, spec.style), boxes)
    image, boxes = damage_grid(rendered, boxes, rng, seed, case_id, scan_kind)
    return DrawnTable(spec, image, boxes)


# -- the separators' flat tables -------------------------------------------------------------------


def make_separator_table(
    seed: int, case_id: str, family: Family, split: Split, scan_kind: str | None
) -> tables.RenderedTable:
    """One table of the separators datasets: a flat table of `family` drawn with its geometry,
    and scanned when `scan_kind` is given."""
    rng = make_random(seed, "table", case_id)
    spec, _ = build(rng, family, split, flat=True)
    texts = [["" for _ in range(spec.columns)] for _ in range(spec.rows)]
    for cell in spec.cells:
        if cell.row_span != 1 or cell.column_span != 1:
            raise ValueError(f"a flat table of {family.name} has a merged cell")
        texts[cell.row][cell.column] = cell.text
    style = spec.style
    if style.header_wrap is None and rng.random() < 0.3:
        style = dataclasses.replace(style, header_wrap=rng.randint(60, 90))
    rendered = tables.render_table(texts[0], texts[1:], style, spec.align)
    if scan_kind is None:
        return tables.RenderedTable(
            clean_finish(rendered.image, style),
            rendered.geometry,
            rendered.row_labels,
            rendered.column_labels,
        )
    return damage_separators(rendered, texts, rng, seed, case_id, scan_kind)


# -- the v2 datasets' plan -------------------------------------------------------------------------

SIZES: dict[Split, int] = {"dev": 130, "test": 300}
# Which tables of a family are scanned, and how: every fourth round, starting with the first
# (so just over a quarter of each split), the kinds in turn, bitonal and fax the most common as
# in the archives these tables come from.
SCANNED_EVERY = 4
SCAN_CYCLE = ("bitonal", "fax", "grayscale", "bitonal", "jpeg", "fax")


@dataclass(frozen=True)
class PlannedTable:
    case_id: str
    family: Family
    scan: str | None  # a SCAN_KINDS kind, or None for a clean table

    @property
    def category(self) -> str:
        return self.family.name if self.scan is None else f"{self.family.name}-scanned"


def plan(folder: str, prefix: str) -> list[PlannedTable]:
    """The tables of v2 dataset `folder`, in order: the split's families in turn."""
    split = split_of(folder)
    if split is None:  # a v1 folder names no split
        raise ValueError(f"dataset: {folder!r} is not a v2 grid-table dataset folder")
    families = families_of(split)
    out = []
    for index in range(SIZES[split]):
        round_, family = divmod(index, len(families))
        scan = None
        if round_ % SCANNED_EVERY == 0:
            scan = SCAN_CYCLE[(round_ // SCANNED_EVERY) % len(SCAN_CYCLE)]
        out.append(PlannedTable(f"{prefix}-{split}-{index + 1:04d}", families[family], scan))
    return out
