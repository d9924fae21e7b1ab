"""docs/reference-scores.md's Research table for `regulatory-standards`: blind baselines and columns
(read by benchmarks/reference_scores.py --research)."""

from _spec_parts import always, count, share, trap_groups

from envirobench_synth.research.standard_tables import ALL_ROWS

BENCHMARK = "regulatory-standards"
UNIT = "look-ups"
INTRO = (
    "The reference adapter (`solvers/regulatory_standards.py`, developed on the dev split only: the shipped tables "
    "file's policy and rule applied after reading the look-up's jurisdiction, medium, land use, basis and analyte by "
    "the dev split's wordings and a few general abbreviations) on both splits; the test split's wordings and the "
    "State of Sequoyah tables never occur in dev. Right = the right table and value (units converted). Beside it: "
    "no standard ever; the current federal value (the federal table of the look-up's medium and land use read right "
    "from the key, the analyte by its exact name or CAS number, its latest row: no dates, no state tables, no bases); "
    "and the first federal row whatever the sampling date (the interim arsenic MCL for every arsenic look-up)."
)
FEDERAL = {
    "drinking water": "epa-mcl",
    "groundwater": "epa-mcl",
    "tap water": "epa-rsl-tapwater-thq1.0",
    "soil / residential": "epa-rsl-soil-residential-thq1.0",
    "soil / industrial": "epa-rsl-soil-industrial-thq1.0",
}


def _federal(case_input, answer, latest=True):
    medium = answer.policy.split(" / ", 1)[1]
    table = FEDERAL[medium]
    key = case_input.analyte.strip().casefold()
    rows = [
        r
        for r in ALL_ROWS
        if r.table == table and key in (r.analyte.casefold(), (r.cas or "").casefold())
    ]
    if not rows:
        return {"table": None, "value": None, "unit": None}
    row = (
        max(rows, key=lambda r: r.in_force_from.isoformat() if r.in_force_from else "")
        if latest
        else rows[0]
    )
    return {"table": table, "value": row.value, "unit": row.unit}


BASELINES = {
    "no standard ever": always({"table": None, "value": None, "unit": None}),
    "the current federal value always": _federal,
    "the first federal row, any date": lambda case_input, answer: _federal(
        case_input, answer, latest=False
    ),
}
COLUMNS = (
    share("lookup_accuracy", "look-ups right"),
    share("table_accuracy", "table right"),
    share("value_accuracy", "value right"),
    count("lookups", "look-ups"),
)
GROUP_METRIC = ("right", "lookup")
GROUP_TITLE = (
    "Share of look-ups the reference adapter gets right, by medium, jurisdiction and trap present"
)


def groups(case_id, category, answer):
    return [
        category or "-",
        answer.policy.split(" / ")[0],
        *trap_groups(answer.traps),
    ]
