"""docs/reference-scores.md's Research table for `regulatory-standards`: baselines and columns
(read by benchmarks/reference_scores.py --research).

The shortcut the audit of issue 33 found, fitted on dev: a dictionary of every field wording the
dev split shows, each mapped to what it means there (jurisdiction, medium, land use, basis,
analyte), then the rule the tables file states. The dev split's meanings are the generator's own
record of each dev look-up (its seeded draw, checked against the shipped dev inputs), as a
system's author would label the dev wordings by hand. A wording the dev split never shows gets
the dev split's commonest meaning of its field; an analyte never shown, the tables' row of that
exact name or CAS number (none: no standard).
"""

import datetime as dt
from collections import Counter
from functools import cache

from _shortcuts import dev_split
from _spec_parts import always, count, share, trap_groups

from envirobench_synth.research.standard_tables import ALL_ROWS, applicable, policy_of

BENCHMARK = "regulatory-standards"
UNIT = "look-ups"
DICTIONARY = "the dev split's wordings as a dictionary, then the file's rule (fitted on dev)"
INTRO = (
    "The reference adapter (`solvers/regulatory_standards.py`, developed on the dev split only: each field read by "
    "its structure, footnote marks, units and qualifiers set apart from the head, and by the meaning of its words "
    "with their joined forms, initials, stems and negations; the analyte by CAS number, name in any word order or "
    "inverted, or the initials of its name's parts; then the shipped tables file's policy and rule) on both splits; "
    "the test split's wordings (other heads, qualifiers, marks and unit forms) and the State of Sequoyah tables "
    "never occur in dev. Right = the right table and value (units converted). Beside it: no standard ever; the "
    "shortcut the audit found, fitted on dev: every field wording of the dev split as a dictionary of its meaning "
    "(a wording dev never shows: dev's commonest meaning of the field; an analyte never shown: its exact name or "
    "CAS number in the tables), then the file's rule; and two reference points that read the look-up's medium and "
    "land use from the key (the current federal value: the federal table's latest row for the analyte's exact name "
    "or CAS number; the first federal row whatever the sampling date)."
)
FEDERAL = {
    "drinking water": "epa-mcl",
    "groundwater": "epa-mcl",
    "tap water": "epa-rsl-tapwater-thq1.0",
    "soil / residential": "epa-rsl-soil-residential-thq1.0",
    "soil / industrial": "epa-rsl-soil-industrial-thq1.0",
}
NONE = {"table": None, "value": None, "unit": None}


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
        return dict(NONE)
    row = (
        max(rows, key=lambda r: r.in_force_from.isoformat() if r.in_force_from else "")
        if latest
        else rows[0]
    )
    return {"table": table, "value": row.value, "unit": row.unit}


@cache
def dictionary() -> dict[str, dict]:
    """Every field wording of the dev split -> its meaning there, and each field's commonest
    meaning (key None): the fit of the dictionary shortcut."""
    from envirobench_research.generate import regulatory_standards as generator
    from envirobench_synth.research.standard_tables import sample_lookup
    from envirobench_synth.rng import make_random

    fields = {"jurisdiction": {}, "medium": {}, "land_use": {}, "basis": {}, "analyte": {}}
    tallies = {field: Counter() for field in fields}
    for index, (case_input, _) in enumerate(dev_split(BENCHMARK)):
        cid = f"rs-dev-{index + 1:04d}"
        lookup = sample_lookup(make_random(generator.SEED, "dev", cid), "dev")
        if lookup.analyte != case_input.analyte or lookup.medium != case_input.medium:
            raise RuntimeError(
                f"{cid}: the generator's dev look-up is not the shipped one; regenerate the dataset"
            )
        meanings = {
            "jurisdiction": (case_input.jurisdiction, lookup.policy.jurisdiction),
            "medium": (case_input.medium, lookup.policy.medium),
            "land_use": (case_input.land_use, lookup.policy.exposure),
            "basis": (case_input.basis, lookup.basis_key),
            "analyte": (case_input.analyte, (lookup.analyte_name, lookup.cas)),
        }
        for field, (wording, meaning) in meanings.items():
            if wording is not None:
                fields[field][wording] = meaning
                tallies[field][meaning] += 1
    for field, tally in tallies.items():
        fields[field][None] = tally.most_common(1)[0][0]
    return fields


def dictionary_shortcut(case_input, answer):
    known = dictionary()

    def meaning(field, wording):
        return known[field].get(wording, known[field][None])

    jurisdiction = meaning("jurisdiction", case_input.jurisdiction)
    medium = meaning("medium", case_input.medium)
    land_use = meaning("land_use", case_input.land_use) if medium == "soil" else None
    basis = meaning("basis", case_input.basis) if case_input.basis is not None else "total"
    if case_input.analyte in known["analyte"]:
        name, cas = known["analyte"][case_input.analyte]
    else:
        key = case_input.analyte.strip().casefold()
        row = next(
            (r for r in ALL_ROWS if key in (r.analyte.casefold(), (r.cas or "").casefold())), None
        )
        if row is None:
            return dict(NONE)
        name, cas = row.analyte, row.cas
    try:
        policy = policy_of(jurisdiction, medium, land_use)
    except KeyError:  # a jurisdiction without that medium's entry
        return dict(NONE)
    day = dt.date.fromisoformat(case_input.sampled)
    standard = applicable(policy, name, cas, basis, day)
    if standard is None:
        return dict(NONE)
    return {"table": standard.table, "value": standard.value, "unit": standard.unit}


CURRENT_FEDERAL = "the current federal value (medium and land use from the key)"
FIRST_FEDERAL = "the first federal row, any date (medium and land use from the key)"
BASELINES = {
    "no standard ever": always(dict(NONE)),
    DICTIONARY: dictionary_shortcut,
    CURRENT_FEDERAL: _federal,
    FIRST_FEDERAL: lambda case_input, answer: _federal(case_input, answer, latest=False),
}
KEY_COPIES = (CURRENT_FEDERAL, FIRST_FEDERAL)
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
