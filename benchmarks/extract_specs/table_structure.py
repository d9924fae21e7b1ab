"""docs/reference-scores.md's Extract v2 table for `table-structure`: blind baselines
(read by benchmarks/reference_scores.py --extract).

The v1 dataset was saturated: one constant 11 x 6 grid, no pixel read, scored 85.5 GriTS-Top.
The v2 families vary the shape (3 to 40 rows, 3 to 20 columns, one to three header rows), and
these baselines measure what is left for a system that reads nothing. Their constants are the
dev split's (what a system developed on dev would know): its commonest row count and column
count, and its median pixels per row and per column of the clean tables.
"""

from collections import Counter
from functools import cache

from _shortcuts import dev_split
from _spec_parts import share
from _table_images import by_family_and_copy

DEV_ROWS, DEV_COLUMNS = 7, 7  # the commonest row and column counts of synthetic-dev-v2
ROW_PITCH, COLUMN_PITCH = 25, 94  # median pixels per row and per column (clean dev tables)

BENCHMARK = "table-structure"
UNIT = "tables"
INTRO = (
    "The reference adapter (`solvers/table_structure.py`, developed on the dev split only) on both splits; the "
    "test split's table families (long-form EDD tables, wide multi-sample matrices, grouped headers over QC "
    "sections, group-titled time series) never occur in dev. Beside it, blind baselines that read no pixel: a "
    "constant grid of the dev split's commonest shape (7 x 7, one header row, no merged cell), the same for "
    "v1's saturating 11 x 6, a grid sized from the image's width and height alone (the dev split's median "
    "pixels per row and per column), the same by lines fitted on dev, and a single cell. The primary measure, "
    "`structure` (scoring version v3), is what a reader must get right: per table the mean of the row count right, the "
    "column count right, the header rows right and the spanning cells' F1; GriTS-Top (table-transformer's), v2's "
    "primary, credits any plain grid of about the right size and stays beside it."
)


def _plain(rows, columns, header_rows=1):
    return {
        "rows": rows,
        "columns": columns,
        "header_rows": min(header_rows, rows),
        "cells": [
            {"row": r, "column": c, "row_span": 1, "column_span": 1}
            for r in range(rows)
            for c in range(columns)
        ],
    }


def constant_dev_shape(case_input, answer):
    return _plain(DEV_ROWS, DEV_COLUMNS)


def constant_v1_shape(case_input, answer):
    return _plain(11, 6)


def from_image_size(case_input, answer):
    rows = max(1, round(case_input.height / ROW_PITCH))
    columns = max(1, round(case_input.width / COLUMN_PITCH))
    return _plain(rows, columns)


def _line(xs, ys) -> tuple[float, float]:
    """The least-squares line y = a·x + b."""
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / max(sum((x - mx) ** 2 for x in xs), 1e-9)
    return slope, my - slope * mx


@cache
def dev_size_model():
    """Fitted on the dev split: rows from the image's height and columns from its width (least
    squares), and the commonest number of header rows."""
    pairs = dev_split("table-structure", "v2")
    rows = _line([i.height for i, _ in pairs], [a.rows for _, a in pairs])
    columns = _line([i.width for i, _ in pairs], [a.columns for _, a in pairs])
    header_rows = Counter(a.header_rows for _, a in pairs).most_common(1)[0][0]
    return rows, columns, header_rows


def from_image_size_fitted(case_input, answer):
    (ra, rb), (ca, cb), header_rows = dev_size_model()
    rows = max(1, round(ra * case_input.height + rb))
    return _plain(rows, max(1, round(ca * case_input.width + cb)), header_rows)


def one_cell(case_input, answer):
    return _plain(1, 1, 0)


BASELINES = {
    "constant 7 x 7 grid (the dev split's commonest shape), no pixel read": constant_dev_shape,
    "constant 11 x 6 grid (v1's saturating blind baseline)": constant_v1_shape,
    "a plain grid sized from the image's width and height only": from_image_size,
    "a plain grid from the image's size by lines fitted on dev, the dev split's commonest header rows": from_image_size_fitted,
    "a single cell": one_cell,
}
COLUMNS = (
    share("structure", "structure"),
    share("grits_top", "GriTS-Top"),
    share("tables_exact", "tables exact"),
    share("rows_right", "rows right"),
    share("columns_right", "columns right"),
    share("header_rows_right", "header rows right"),
    share("spans_f1", "spans F1"),
    share("cells_right", "cells right"),
)
GROUP_METRIC = ("exact", None)  # tables exact / tables, per group
GROUP_TITLE = "Tables exact / tables (reference adapter), by family (the case category)"
groups = by_family_and_copy
