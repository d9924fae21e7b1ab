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

The package, along those lines: `kit` holds what the families share (column alignment,
surrogates, footnotes, the Family record, the drawing context and the small helpers),
`builders_dev` and `builders_test` the seven families' builders, and this module the catalogue that names them
with their styles, building and drawing a table, and the plan of the v2 datasets. What happens to a table's pixels (compact images, scans) is in `grid_damage`.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from envirobench import split_of
from envirobench_synth import tables, vocabulary
from envirobench_synth.fonts import font
from envirobench_synth.rng import make_random

from ..grid_damage import clean_finish, damage_grid, damage_separators
from ..grid_tables import DrawnTable, TableSpec, sample_notation
from .builders_dev import _consultant_summary, _lab_sample_page, _well_time_series
from .builders_test import _edd_long_form, _group_time_series, _qc_grouped_header, _wide_matrix
from .kit import ALIGN, Context, Family, Split

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
    ctx = Context(
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
    return grid.spec(kinds, style, ALIGN), look


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
