"""The seeded generator of the `regulatory-standards` datasets (dev and test), and their fixtures.

Each split holds LOOKUPS[split] look-ups (envirobench_synth.research.standard_tables) and one
tables file, `assets/standard-tables.json`, every look-up's source: the pinned tables of the
split's jurisdictions (the federal tables and the fictitious State of Franklin's in both splits,
the fictitious State of Sequoyah's in test only) and the screening policy. Each field is worded
the way agencies print their screening tables (envirobench_synth.research.standard_wordings: a
head, a qualifier, a unit, a footnote mark, capitals; hundreds of wordings per field), and the
test split's jurisdiction, medium, land-use and basis wordings and its analyte synonyms,
abbreviations and CAS forms never occur in dev (data of 2026-12-04; before it, 22 fixed field
wordings that a dictionary covered). The case category is the policy's medium.

Each look-up draws from its own stream, make_random(SEED, split, case ID); regenerating
reproduces every file byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from envirobench import FixturePlan, GeneratedCase, Manifest, dataset_writer, split_of
from envirobench_synth.research.standard_tables import (
    JURISDICTIONS_BY_SPLIT,
    Lookup,
    sample_lookup,
    tables_document,
)
from envirobench_synth.rng import make_random

from ..regulatory_standards import Answer, Input, RegulatoryStandards
from .mistake import Mistake

SEED = 20261220
VERSION = 1
LOOKUPS = {"dev": 260, "test": 600}
TABLES = "assets/standard-tables.json"


def answer_of(lookup: Lookup) -> Answer:
    s = lookup.standard
    p = lookup.policy
    policy = f"{p.jurisdiction} / {p.medium}" + (f" / {p.exposure}" if p.exposure else "")
    if s is None:
        return Answer(table=None, value=None, unit=None, policy=policy, traps=lookup.traps)
    return Answer(table=s.table, value=s.value, unit=s.unit, policy=policy, traps=lookup.traps)


def generate(output_dir: Path, dataset: str = "synthetic-dev-v1") -> Manifest:
    """Write dataset `dataset` (a key of DATASETS) into `output_dir` and return its manifest."""
    write = dataset_writer(RegulatoryStandards, dataset, seed=SEED, version=VERSION)
    split = split_of(dataset)

    def rendered(root: Path) -> Iterator[GeneratedCase]:
        text = (
            json.dumps(tables_document(split), ensure_ascii=False, indent=1, sort_keys=True) + "\n"
        )
        (root / TABLES).write_text(text, encoding="utf-8", newline="\n")
        for index in range(LOOKUPS[split]):
            cid = f"rs-{split}-{index + 1:04d}"
            lookup = sample_lookup(make_random(SEED, split, cid), split)
            case_input = Input(
                tables=TABLES,
                jurisdiction=lookup.jurisdiction,
                medium=lookup.medium,
                land_use=lookup.land_use,
                analyte=lookup.analyte,
                sampled=lookup.sampled.isoformat(),
                basis=lookup.basis,
                result_unit=lookup.result_unit,
            )
            yield cid, lookup.policy.medium, case_input, answer_of(lookup)

    description = (
        f"{LOOKUPS[split]} synthetic standard look-ups, the {split} split (jurisdictions: "
        f"{', '.join(JURISDICTIONS_BY_SPLIT[split])}), each a result's jurisdiction, medium, land use, analyte, "
        "sampling date, basis and unit, with the pinned tables and screening policy in one shipped JSON file. "
        "The answer is the table whose row applies on the sampling date and its value and unit, or none."
    )
    return write(
        output_dir,
        rendered,
        title=f"Regulatory standards, synthetic {split} v1",
        description=description,
    )


# -- fixtures -----------------------------------------------------------------------------------


MISTAKES: tuple[Mistake, ...] = (
    Mistake("units", "micro", "the value in the table's unit given with the result's unit"),
    Mistake("date-change", "tenfold", "a value ten times the one in force"),
    Mistake("fallback", "none", "no standard where the fallback table has one"),
)


# Case ID -> the mistake wrong.json makes there: each on the first look-up with its trap and a table.
planted = FixturePlan.first_fitting(
    MISTAKES,
    lambda mistake, answer: mistake.takes in answer.traps and answer.table is not None,
    answer=Answer,
    unit="look-up",
)


def _flip_unit(unit: str) -> str:
    return {"mg/L": "µg/L", "µg/L": "mg/L", "mg/kg": "µg/kg", "µg/kg": "mg/kg"}[unit]


def wrong_prediction(answer: Answer, mistake: Mistake) -> dict:
    if mistake.change == "none":
        return {"table": None, "value": None, "unit": None}
    if mistake.change == "micro":
        return {"table": answer.table, "value": answer.value, "unit": _flip_unit(answer.unit)}
    return {"table": answer.table, "value": answer.value * 10, "unit": answer.unit}


FIXTURES = FixturePlan(
    Answer,
    correct=lambda answer: {"table": answer.table, "value": answer.value, "unit": answer.unit},
    planted=planted,
    wrong=lambda mistake, answer, prediction: wrong_prediction(answer, mistake),
)
