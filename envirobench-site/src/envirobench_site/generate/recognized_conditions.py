"""The generator of the `recognized-conditions` datasets (dev and test), and their fixtures.

One case per site of the split (site_records.py); the answer is `build_site(site).answers
["recognized-conditions"]` with each condition's `class` read as `classification` (the type's
key), typed strictly (envirobench_site.recognized_conditions.Answer). Every true kind must be one
the case input lists.

Fixtures: correct.json predicts every true condition with its evidence pages; wrong.json plants,
each on its own site: a condition in the wrong class, a condition left out, a condition of a kind
the site does not have (or, where the site has every listed kind, a second condition of a kind).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from envirobench import FixturePlan, structure, unstructure

from ..recognized_conditions import Answer, RecognizedConditions, TrueCondition
from . import site_records
from .site_records import SiteMistake

SEED = 15_003  # the records' seeds are the site specs' (envirobench_synth.site)
OTHER_CLASS = {"REC": "HREC", "CREC": "REC", "HREC": "REC", "de-minimis": "REC"}


def answer_from(given: dict[str, Any]) -> dict[str, Any]:
    """The type's answer (JSON) from envirobench_synth's (`class` is `classification` here)."""
    conditions = []
    for condition in given["conditions"]:
        condition = dict(condition)
        if "class" in condition:
            condition["classification"] = condition.pop("class")
        conditions.append(condition)
    return {**given, "conditions": conditions}


def answer_of(site: Any) -> Answer:
    """The answer of a site (a shipped site's ID or a SiteSpec)."""
    given = site_records.built(site).answers["recognized-conditions"]
    answer = structure(answer_from(given), Answer, path="$.answer")
    kinds = set(site_records.built(site).input["condition_kinds"])
    stray = [c.kind for c in answer.conditions if c.kind not in kinds]
    if stray:
        raise ValueError(f"{site_records.site_id(site)}: condition kinds {stray} are not in the input's list")
    return answer


def described(answers: list[Answer]) -> str:
    """What the dataset's description says of the split's answers."""
    by_class: dict[str, int] = {}
    for answer in answers:
        for condition in answer.conditions:
            by_class[condition.classification] = by_class.get(condition.classification, 0) + 1
    evidence = sum(len(c.evidence) for a in answers for c in a.conditions)
    return (
        "The answer is each recognized environmental condition (ASTM E1527-21: REC, CREC, HREC, "
        "de minimis) by kind, with every page that supports it: "
        + ", ".join(f"{n} {k}" for k, n in sorted(by_class.items()))
        + f" ({evidence} evidence pages)."
    )


generate = site_records.site_generator(RecognizedConditions, seed=SEED, answer_of=answer_of, what=described)


def predicted(condition: TrueCondition) -> dict[str, Any]:
    return {
        "kind": condition.kind,
        "classification": condition.classification,
        "evidence": [unstructure(c) for c in condition.evidence],
    }


MISTAKES = (
    SiteMistake("class", "a condition in the wrong class"),
    SiteMistake("drop", "a condition left out"),
    SiteMistake("extra", "a condition the site does not have"),
)


# Case ID -> the mistake wrong.json makes there: each on its own site with a condition.
planted = FixturePlan.first_fitting(
    MISTAKES, lambda mistake, answer: bool(answer.conditions), answer=Answer, unit="site"
)


def wrong_prediction(answer: Answer, mistake: SiteMistake, kinds: list[str]) -> dict:
    items = [predicted(c) for c in answer.conditions]
    if mistake.change == "drop":
        return {"conditions": items[1:]}
    if mistake.change == "class":
        first = answer.conditions[0]
        return {
            "conditions": [
                {**items[0], "classification": OTHER_CLASS[first.classification]},
                *items[1:],
            ]
        }
    held = {c.kind for c in answer.conditions}
    absent = next((k for k in kinds if k not in held), None)
    extra = {"kind": absent, "classification": "REC", "evidence": items[0]["evidence"][:1]}
    return {"conditions": [*items, extra if absent else items[0]]}


correct_prediction = site_records.predicted_back("conditions", predicted)


def planted_with_kinds(dataset_dir: Path, answers: dict[str, Answer]) -> dict[str, tuple[SiteMistake, list[str]]]:
    """Each planted mistake with the condition kinds its case's input lists: an invented condition
    takes a kind the input lists and the answer lacks."""
    kinds = {
        record["id"]: record["input"]["condition_kinds"]
        for record in map(json.loads, (Path(dataset_dir) / "cases.jsonl").read_text(encoding="utf-8").splitlines())
    }
    return {cid: (mistake, kinds[cid]) for cid, mistake in planted(dataset_dir, answers).items()}


FIXTURES = FixturePlan(
    Answer,
    correct=correct_prediction,
    planted=planted_with_kinds,
    wrong=lambda found, answer, prediction: wrong_prediction(answer, *found),
)
