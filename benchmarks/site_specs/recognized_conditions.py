"""docs/reference-scores.md's Site table for `recognized-conditions`: blind and near-blind
baselines and columns (read by benchmarks/reference_scores.py --site).

The near-blind shortcut (`dev_site_prior`) opens no PDF: it finds the dev site most like the
case by what the input says before any page is read (the words of the site's name and street, the
analytes the record reports) and answers that dev site's conditions with their classes. Where the
test sites reuse dev's templates it scores like a reader; where they do not, near zero.
"""

import json
import re
from functools import cache

from _spec_parts import always, count, f1_precision_recall, share
from _units import PER_SITE, unit_intervals  # noqa: F401  (the script reads both)

from envirobench_site.package import PACKAGE

BENCHMARK = "recognized-conditions"
UNIT = "condition kinds of the split (units, not sites; see benchmarks/site_specs/_units.py)"
INTRO = (
    "The reference adapter (`solvers/recognized_conditions.py`, developed on the dev split only) on both splits. "
    "Primary: condition F1 on (kind, class) per ASTM E1527-21 (REC, CREC, HREC, de minimis); evidence pages "
    "pooled beside it. Blind baselines: every kind the input lists called a REC citing page 1 of the first volume, "
    "and no conditions; and a near-blind prior fitted on dev that opens no PDF: the dev site whose name, street "
    "and analytes are most like the case's, its conditions and classes copied (citing page 1)."
)
WORD = re.compile(r"[a-z]{3,}")


def clues(name: str, address: str, analytes) -> frozenset[str]:
    """What a reader knows of a site before opening a page: its name's and street's words (no
    number, no town) and the analytes the record reports."""
    street = address.split(",")[0]
    return frozenset(
        {f"word:{w}" for w in WORD.findall(f"{name} {street}".casefold())}
        | {f"analyte:{a}" for a in analytes}
    )


@cache
def dev_sites() -> list[tuple[frozenset[str], list[dict]]]:
    """(clues, conditions with classes) of every dev site, from the shipped dev split."""
    dev = PACKAGE.layout(BENCHMARK).dataset_dir("synthetic-dev-v1")
    cases = [json.loads(line) for line in (dev / "cases.jsonl").read_text(encoding="utf-8").splitlines() if line]
    answers = {a["id"]: a["answer"] for a in map(json.loads, (dev / "answers.jsonl").read_text(encoding="utf-8").splitlines())}
    return [
        (clues(c["input"]["name"], c["input"]["address"], [a["name"] for a in c["input"]["analytes"]]),
         [{"kind": x["kind"], "classification": x["classification"]} for x in answers[c["id"]]["conditions"]])
        for c in cases
    ]


def dev_site_prior(case_input, answer):
    """The conditions of the dev site most like this one (Jaccard over the clues)."""
    mine = clues(case_input.name, case_input.address, [a.name for a in case_input.analytes])
    _, conditions = max(dev_sites(), key=lambda site: len(site[0] & mine) / len(site[0] | mine))
    first = {"file": case_input.volume_names[0], "page": 1}
    return {"conditions": [{**condition, "evidence": [first]} for condition in conditions]}


def every_kind_a_rec(case_input, answer):
    first = {"file": case_input.volume_names[0], "page": 1}
    return {
        "conditions": [
            {"kind": kind, "classification": "REC", "evidence": [first]}
            for kind in case_input.condition_kinds
        ]
    }


BASELINES = {
    "every kind a REC citing page 1": every_kind_a_rec,
    "no conditions": always({"conditions": []}),
    "the most alike dev site's conditions (name, street, analytes; opens no PDF)": dev_site_prior,
}
COLUMNS = (
    *f1_precision_recall("condition", "condition F1"),
    share("evidence_precision", "evidence precision"),
    share("evidence_recall", "evidence recall"),
    count("conditions"),
)
