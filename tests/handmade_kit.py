"""Hand-made prediction files of the penalty tasks (tests/<category>/handmade/<type ID>/*.json),
scored through the installed type.

A file holds a few cases written by hand, each its input, its answer and a system's prediction:

    {"task": type ID, "about": what the predictions do, "cases": [{"id", "input", "answer", "prediction"}]}

Its test states the score worked out by hand from the design's formula (the counts and the
arithmetic, e.g. `100 * max(0, (8 - 5 * 1) / 10)`); `scored` gives what the type makes of it.
The answers are written out in the files, not read from a shipped dataset, so a regenerated
dataset leaves these checks as they are and only a change of scoring fails them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from envirobench import Case, build_registry, structure
from envirobench.categories import task


def scored(path: Path) -> tuple[dict[str, float], Any, Any]:
    """(the headline of the file's predictions in the type's first profile, the type, its
    category formula)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    btype = build_registry().benchmark_type(data["task"])
    profile = btype.PROFILES[0]
    scores = []
    for raw in data["cases"]:
        case = Case(raw["id"], "handmade", structure(raw["input"], btype.Input))
        answer = structure(raw["answer"], btype.Answer)
        prediction = structure(raw["prediction"], btype.Prediction)
        scores.append(btype.score_case(case, answer, prediction)[profile])
    return btype.summarize(profile, scores), btype, task(data["task"]).formula
