"""docs/reference-scores.md's Site table for `recognized-conditions`: blind and near-blind
baselines and columns (read by benchmarks/reference_scores.py --site).

The name prior (`dev_site_prior`, issue 33's shortcut) opens no PDF: it finds the dev site most like
the case by what the input says before any page is read (the words of the site's name and street,
which carry the archetype: "Service", "Bulk Plant", "Cleaners", and the analytes the record
reports) and answers that dev site's conditions with their classes. Its citations follow the dev
site's template: each of the dev condition's evidence pages at the same place in the record
(the same fraction of its pages), since a template files its documents in the same order. Where
the test sites reuse dev's templates it scores like a reader (0.700 on the records before dev's
archetypes were made disjoint from test's); where they do not, zero.
"""

import json
import re
from functools import cache
from pathlib import PurePosixPath

from _spec_parts import always, count, f1_precision_recall, share
from _units import CLUSTERED_SPLITS, PER_SITE, SUMMARY_SPLIT, unit_intervals  # noqa: F401  (the script reads all four)

from envirobench_site.package import PACKAGE

BENCHMARK = "recognized-conditions"
UNIT = "condition kinds of the split (units, not sites; see benchmarks/site_specs/_units.py)"
INTRO = (
    "The reference adapter (`solvers/recognized_conditions.py`, developed on the dev split only) on both splits. "
    "Primary: condition F1 on (kind, class) per ASTM E1527-21 (REC, CREC, HREC, de minimis); evidence pages "
    "pooled beside it. Blind baselines: every kind the input lists called a REC citing page 1 of the first volume, "
    "and no conditions; and the name prior, fitted on dev, that opens no PDF: the dev site whose name, street "
    "and analytes are most like the case's, its conditions and classes copied, citing the pages at the same places "
    "in the record as that dev site's evidence."
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


def place(volumes: list[tuple[str, int]], citation: dict) -> float:
    """A citation's place in its record: the fraction of the record's pages before it."""
    before = 0
    for name, pages in volumes:
        if name == citation["file"]:
            return (before + citation["page"] - 0.5) / sum(n for _, n in volumes)
        before += pages
    return 0.0


def at(volumes: list[tuple[str, int]], fraction: float) -> dict:
    """The citation of the page at `fraction` of a record (volumes: (file name, pages) in order)."""
    target = min(
        sum(n for _, n in volumes), max(1, round(fraction * sum(n for _, n in volumes) + 0.5))
    )
    for name, pages in volumes:
        if target <= pages:
            return {"file": name, "page": target}
        target -= pages
    return {"file": volumes[-1][0], "page": volumes[-1][1]}


def _volumes(volumes) -> list[tuple[str, int]]:
    return [
        (
            PurePosixPath(v["file"] if isinstance(v, dict) else v.file).name,
            v["pages"] if isinstance(v, dict) else v.pages,
        )
        for v in volumes
    ]


@cache
def dev_sites() -> list[tuple[frozenset[str], list[dict]]]:
    """(clues, conditions with classes and the places of their evidence) of every dev site, from
    the shipped dev split."""
    dev = PACKAGE.layout(BENCHMARK).dataset_dir("synthetic-dev-v1")
    cases = [
        json.loads(line)
        for line in (dev / "cases.jsonl").read_text(encoding="utf-8").splitlines()
        if line
    ]
    answers = {
        a["id"]: a["answer"]
        for a in map(json.loads, (dev / "answers.jsonl").read_text(encoding="utf-8").splitlines())
    }
    sites = []
    for c in cases:
        volumes = _volumes(c["input"]["volumes"])
        conditions = [
            {
                "kind": x["kind"],
                "classification": x["classification"],
                "places": sorted({place(volumes, e) for e in x["evidence"]}),
            }
            for x in answers[c["id"]]["conditions"]
        ]
        sites.append(
            (
                clues(
                    c["input"]["name"],
                    c["input"]["address"],
                    [a["name"] for a in c["input"]["analytes"]],
                ),
                conditions,
            )
        )
    return sites


def dev_site_prior(case_input, answer):
    """The conditions of the dev site most like this one (Jaccard over the clues), each citing the
    pages at its dev evidence's places in this record."""
    mine = clues(case_input.name, case_input.address, [a.name for a in case_input.analytes])
    _, conditions = max(dev_sites(), key=lambda site: len(site[0] & mine) / len(site[0] | mine))
    volumes = _volumes(case_input.volumes)
    out = []
    for condition in conditions:
        cited = {(c["file"], c["page"]): c for c in (at(volumes, f) for f in condition["places"])}
        out.append(
            {
                "kind": condition["kind"],
                "classification": condition["classification"],
                "evidence": list(cited.values()),
            }
        )
    return {"conditions": out}


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
    "name prior: the most alike dev site's conditions (name, street, analytes; opens no PDF)": dev_site_prior,
}
COLUMNS = (
    *f1_precision_recall("condition", "condition F1"),
    share("evidence_precision", "evidence precision"),
    share("evidence_recall", "evidence recall"),
    count("conditions"),
)
