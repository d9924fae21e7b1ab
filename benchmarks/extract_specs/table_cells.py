"""docs/reference-scores.md's Extract v2 table for `table-cells`: blind baselines
(read by benchmarks/reference_scores.py --extract).

A system that reads no pixel can still name every given cell (the input lists them) and guess a
text: blank, or the dev split's commonest cell text. These baselines show how much of
`cells_right` that is worth (blank cells are real: a qualifier column is mostly empty).
"""

from collections import Counter, defaultdict
from functools import cache

from _shortcuts import dev_split
from _spec_parts import always, share
from _table_images import by_family_and_copy

COMMONEST_DEV_TEXT = "ND"  # the commonest non-blank cell text of synthetic-dev-v2

BENCHMARK = "table-cells"
UNIT = "tables"
INTRO = (
    "The reference adapter (`solvers/table_cells.py`, OCR of each given cell box; developed on the dev split "
    "only) on both splits; the test split's families, column titles and analyte synonyms never occur in dev. "
    "Beside it, blind baselines that read no pixel: no cells at all, every given cell blank, and every given "
    "cell the dev split's commonest text, and a position model fitted on dev: each cell the dev split's commonest "
    "text at its place (header row or body, column number)."
)


@cache
def dev_position_texts() -> dict[tuple[bool, int], str]:
    """The dev split's commonest text per (header row?, column), over every dev table."""
    counts: dict[tuple[bool, int], Counter] = defaultdict(Counter)
    for _, answer in dev_split("table-cells", "v2"):
        for (row, column), text in answer.cells().items():
            counts[row == 0, column][text] += 1
    return {place: c.most_common(1)[0][0] for place, c in counts.items()}


def commonest_at_position(case_input, answer):
    texts = dev_position_texts()
    return {
        "cells": [
            {"row": c.row, "column": c.column, "text": texts.get((c.row == 0, c.column), COMMONEST_DEV_TEXT)}
            for c in case_input.cells
        ]
    }


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
    "each cell the dev split's commonest text at its place (header or body, column)": commonest_at_position,
}
COLUMNS = (
    share("cells_right", "cells right"),
    share("tables_exact", "tables exact"),
    share("cells_missing", "cells missing"),
)
GROUP_METRIC = ("right", "cells")  # cells right / gold cells, per group
GROUP_TITLE = "Cells right / cells (reference adapter), by family (the case category)"
groups = by_family_and_copy
