"""docs/reference-scores.md's Extract v2 table for `table-separators`: blind baselines
(read by benchmarks/reference_scores.py --extract).

Separators evenly spaced over the image, from its size alone, are the blind floor of a task
whose tables differ in row height, column width, margins and skew. The constants are the dev
split's: its commonest row and column counts, and its median pixels per row and per column.
"""

from _spec_parts import always, share
from _table_images import by_family_and_copy

DEV_ROWS, DEV_COLUMNS = 4, 3  # the commonest row and column counts of synthetic-dev-v2
ROW_PITCH, COLUMN_PITCH = 25, 98  # median pixels per row and per column (clean dev tables)

BENCHMARK = "table-separators"
UNIT = "tables"
INTRO = (
    "The reference adapter (`solvers/table_separators.py`, projection profiles and rules; developed on the dev "
    "split only) on both splits; the test split's families never occur in dev. Beside it, blind baselines that "
    "read no pixel: no separators, separators evenly spaced for the dev split's commonest row and column "
    "counts, and separators every median row height and column width of the dev split from the top-left corner."
)


def _even(length, count):
    return [length * k // count for k in range(1, count)]


def evenly_spaced_counts(case_input, answer):
    return {
        "rows": _even(case_input.height, DEV_ROWS),
        "columns": _even(case_input.width, DEV_COLUMNS),
    }


def every_pitch(case_input, answer):
    return {
        "rows": list(range(ROW_PITCH, case_input.height, ROW_PITCH)),
        "columns": list(range(COLUMN_PITCH, case_input.width, COLUMN_PITCH)),
    }


BASELINES = {
    "no separators (empty output)": always({"rows": [], "columns": []}),
    "evenly spaced for the dev split's commonest counts (4 rows, 3 columns)": evenly_spaced_counts,
    "one every median row height and column width of dev (25 px, 98 px)": every_pitch,
}
COLUMNS = (
    share("separator_f1", "separator F1"),
    share("tables_exact", "tables exact"),
    share("separator_precision", "precision"),
    share("separator_recall", "recall"),
)
GROUP_METRIC = ("tp", ("tp", "fn"))  # separators found / gold separators, per group
GROUP_TITLE = "Separators found / separators (reference adapter), by family (the case category)"
groups = by_family_and_copy
