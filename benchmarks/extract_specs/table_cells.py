"""docs/reference-scores.md's Extract v2 table for `table-cells`: blind baselines
(read by benchmarks/reference_scores.py --extract).

A system that reads no pixel can still name every given cell (the input lists them) and guess a
text: blank, or the dev split's commonest cell text. These baselines show how much of
`cells_right` that is worth (blank cells are real: a qualifier column is mostly empty).
"""

from _spec_parts import always, share
from _table_images import by_family_and_copy

COMMONEST_DEV_TEXT = "ND"  # the commonest non-blank cell text of synthetic-dev-v2

BENCHMARK = "table-cells"
UNIT = "tables"
INTRO = (
    "The reference adapter (`solvers/table_cells.py`, OCR of each given cell box; developed on the dev split "
    "only) on both splits; the test split's families, column titles and analyte synonyms never occur in dev. "
    "Beside it, blind baselines that read no pixel: no cells at all, every given cell blank, and every given "
    "cell the dev split's commonest text."
)


def every_cell_blank(case_input, answer):
    return {"cells": [{"row": c.row, "column": c.column, "text": ""} for c in case_input.cells]}


def every_cell_commonest(case_input, answer):
    return {
        "cells": [
            {"row": c.row, "column": c.column, "text": COMMONEST_DEV_TEXT} for c in case_input.cells
        ]
    }


BASELINES = {
    "no cells (empty output)": always({"cells": []}),
    "every given cell blank": every_cell_blank,
    f"every given cell {COMMONEST_DEV_TEXT!r} (the dev split's commonest text)": every_cell_commonest,
}
COLUMNS = (
    share("cells_right", "cells right"),
    share("tables_exact", "tables exact"),
    share("cells_missing", "cells missing"),
)
GROUP_METRIC = ("right", "cells")  # cells right / gold cells, per group
GROUP_TITLE = "Cells right / cells (reference adapter), by family (the case category)"
groups = by_family_and_copy
