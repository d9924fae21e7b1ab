"""docs/reference-scores.md's Site table for `site-results`: blind baselines and columns (read by
benchmarks/reference_scores.py --site)."""

from _spec_parts import always, count, f1_precision_recall, share
from _units import (  # noqa: F401  (the script reads all but latest_block)
    CLUSTERED_SPLITS,
    PER_SITE,
    SUMMARY_SPLIT,
    latest_block,
    unit_intervals,
)

BENCHMARK = "site-results"
UNIT = "result keys of the split (units, not sites: a split has 3 or 4 sites; see benchmarks/site_specs/_units.py)"
INTRO = (
    "The reference adapter (`solvers/site_results.py`, developed on the dev split only) on both splits; the test "
    "split's office and laboratory families and wordings never occur in dev. Primary: reconciled-record F1 (one "
    "record per location, depth, date, analyte and matrix; a record is right when its value or non-detect agrees "
    "with the governing one within 0.5 % after unit conversion). Beside it, baselines built from the answer key's "
    'printings, which a system could only get by reading: "no reconciliation" lists every printing as a record with '
    'the value printed there (the governing value where the key does not record the printed one); "every result from '
    "the latest report only\" keeps the records printed in the record's last block of result pages (a stand-in for "
    "the latest report's cumulative tables), with the value printed there. superseded taken counts records that took "
    "a superseded, draft, rejected or misprinted value; contested keys resolved is the share of the keys where "
    "reconciliation decides (printed elsewhere with another value, or rejected later) that a system resolved by the "
    "rules (the governing value as the key's only record; no record for a rejected key)."
)


def _value(record, printing):
    if printing.printed_unit is not None:
        return printing.printed_value, printing.printed_unit
    return record.result_value, record.result_unit


def _record(record, printing, printings):
    value, unit = _value(record, printing)
    return {
        "location": record.location,
        "depth": record.depth,
        "sample_date": record.sample_date,
        "analyte": record.substance,
        "matrix": record.matrix,
        "value": value,
        "unit": unit,
        "source": {"file": printing.file, "page": printing.page},
        "printings": printings,
    }


def no_reconciliation(case_input, answer):
    return {
        "results": [
            _record(r, p, [{"file": p.file, "page": p.page}])
            for r in answer.results
            for p in r.printings
        ]
    }


def latest_report_only(case_input, answer):
    pages = latest_block(
        case_input, [(p.file, p.page) for r in answer.results for p in r.printings]
    )
    out = []
    for r in answer.results:
        here = [p for p in r.printings if (p.file, p.page) in pages]
        if here:
            out.append(_record(r, here[-1], [{"file": p.file, "page": p.page} for p in here]))
    return {"results": out}


BASELINES = {
    "no reconciliation (every printing a record)": no_reconciliation,
    "every result from the latest report only": latest_report_only,
    "no records": always({"results": []}),
}
COLUMNS = (
    *f1_precision_recall("record", "record F1"),
    share("contested_accuracy", "contested keys resolved"),
    count("contested", "contested keys"),
    count("superseded_taken", "superseded taken"),
    share("source_accuracy", "source page"),
    share("pairwise_recall", "pairwise recall"),
    share("bcubed_precision", "B³ precision"),
    share("bcubed_recall", "B³ recall"),
    count("records"),
)
