"""docs/reference-scores.md's Site table for `exceedance-summary`: blind baselines and columns
(read by benchmarks/reference_scores.py --site)."""

from _spec_parts import always, count, f1_precision_recall, share
from _units import (  # noqa: F401  (the script reads all but latest_block)
    CLUSTERED_SPLITS,
    PER_SITE,
    SUMMARY_SPLIT,
    latest_block,
    unit_intervals,
)

BENCHMARK = "exceedance-summary"
UNIT = "exceedance keys of the split (units, not sites; see benchmarks/site_specs/_units.py)"
INTRO = (
    "The reference adapter (`solvers/exceedance_summary.py`, developed on the dev split only) on both splits. "
    "Primary: exceedance F1, an exceedance right when its key matches and its standard's value is the governing "
    "table's value in force on the sampling date (within 0.5 %, converted). Baselines: no exceedances; the "
    "exceedances whose governing result is cited in the record's last block of cited pages (a stand-in for the "
    "latest report's exceedance table), with the right standard: what reading only the latest report could give."
)


def _item(e):
    return {
        "location": e.location,
        "depth": e.depth,
        "sample_date": e.sample_date,
        "analyte": e.substance,
        "matrix": e.matrix,
        "standard": {
            "table": e.level.screening_table,
            "value": e.level.level_value,
            "unit": e.level.level_unit,
        },
    }


def latest_report_only(case_input, answer):
    pages = latest_block(case_input, [e.source.key for e in answer.exceedances])
    return {"exceedances": [_item(e) for e in answer.exceedances if e.source.key in pages]}


BASELINES = {
    "no exceedances": always({"exceedances": []}),
    "every exceedance from the latest report only": latest_report_only,
}
COLUMNS = (
    *f1_precision_recall("exceedance", "exceedance F1"),
    share("table_accuracy", "table right"),
    count("exceedances"),
)
