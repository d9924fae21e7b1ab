"""docs/reference-scores.md's Extract v2 table for `table-records`: trivial baselines
(read by benchmarks/reference_scores.py --extract)."""

from _records import BASELINES, GROUP_METRIC, GROUP_TITLE, KEY_COPIES, groups  # noqa: F401 (read by the script)

BENCHMARK = "table-records"
UNIT = "tables (clustered by source report, as the type declares)"
INTRO = (
    "The reference adapter (`solvers/table_records.py` over `results_tables.py`: header understanding by "
    "column-role scoring, layout analysis of word positions, OCR of crops and image-only pages; developed on the "
    "dev split only) on both splits; the test split's report families and vocabulary never occur in dev. Beside "
    "it, trivial baselines that read no value: empty output, and two that copy the key's rows (which no blind "
    "system could know) to show what the rows alone are worth."
)
