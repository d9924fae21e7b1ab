"""docs/reference-scores.md's Verify table for `screening-exceedances`: blind baselines and
columns (read by benchmarks/reference_scores.py --verify)."""

from _spec_parts import always, count, f1_precision_recall, share, trap_groups

BENCHMARK = "screening-exceedances"
UNIT = "reports"
INTRO = (
    "The reference adapter (`solvers/screening_exceedances.py`: the report's results read as records with "
    "`results_tables` over the text layer or OCR, each sample's collection date from the lines that name it, rows of "
    "the named tables matched by CAS number or by name after general synonyms, on the same basis and in force on the "
    "date, units and nitrate as NO3 converted; chosen on the dev split only) on both splits; the test split's report "
    "families and wordings never occur in dev, and one report in ten has its results pages scanned. The tables are a "
    "pinned catalogue with sources and dates in force (envirobench_synth.standards). An exceedance counts when its "
    "factor is within 1 % of the truth. Traps: µg/L results against MCLs in mg/L, nitrate as NO3 against 10 mg/L as N, "
    "arsenic's MCL of 0.05 mg/L before 2006-01-23 and 0.010 mg/L from then (samples on both sides, some reports "
    "straddling the date), the State of Franklin's 2018-07-01 revision (a fictitious table), the residential soil lead "
    "level from 2024-01-17, RSLs in THQ 0.1 vs 1.0, residential vs industrial land use, secondary MCLs (guidance) "
    "where only primary MCLs are named, total vs dissolved metals, non-detects whose reporting limit is above the "
    "level. Beside it, the blind baseline that reports no exceedance (finding F1 0 wherever there is one to find)."
)

BASELINES = {"no exceedances": always({"findings": []})}
COLUMNS = (
    *f1_precision_recall("finding", "finding F1"),
    share("exceedance_recall", "exceedances found"),
    share("cannot_rule_out_recall", "cannot rule out found"),
    share("factor_right", "factor right"),
    share("reports_exact", "reports exact"),
    count("reports"),
)
GROUP_METRIC = ("tp", ("tp", "fn"))
GROUP_TITLE = (
    "True findings the reference adapter finds (with the right factor), by report trap and scenario"
)


def groups(case_id, category, answer):
    return trap_groups(answer.traps) + [f"scenario: {category}"]
