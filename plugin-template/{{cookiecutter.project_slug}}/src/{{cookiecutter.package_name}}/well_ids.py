"""Benchmark type `{{ cookiecutter.type_id }}`: which monitoring wells does a short text name?

A case is a short text from a groundwater monitoring programme: a field note, a sampling summary
or an email (`Input.text`). A system predicts the monitoring wells the text names (`wells`), each
in the canonical form `MW-<number><suffix>`: "MW-7", "MW-12R" (R replacement, D deep, S shallow).
Texts write wells in many ways ("MW-07", "MW 7", "MW7", "monitoring well 7", and shorthand lists
such as "MW-3, -5 and -9", which name MW-3, MW-5 and MW-9). Soil borings (SB-4), piezometers
(PZ-2), recovery wells (RW-1) and sample IDs (GW-0314-01) are not monitoring wells.

Scoring treats the prediction as a set (order and repeats do not matter). Errors, one per well,
so the same mistake is the same error in every run:

    ("missed-well", "MW-7")      a well of the answer that the prediction lacks
    ("spurious-well", "SB-4")    a predicted string that is not a well of the answer

Profiles:
- `exact` (the default gate): predicted strings must be canonical; "MW 7" is a spurious string
  and MW-7 is missed.
- `normalized`: each predicted string is first put in canonical form when it can be read as a
  monitoring well ("mw 07" -> "MW-7"); other strings are compared as written.

Metrics per case: `tp`, `fp`, `fn` (counts of wells) and `exact` (1.0 when no error). Headline:
`well_f1` (F1 over counts pooled across the run), `texts_exact` (share of texts without error),
`well_precision` and `well_recall`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import attrs
import envirobench
from envirobench import Case, CaseScore, ErrorKey, share

TYPE_ID = "{{ cookiecutter.type_id }}"
VIEWER_NAME = "{{ cookiecutter.viewer_name }}"

# Each dataset folder under benchmarks/<type ID>/datasets/ -> its dataset ID (see package.py).
DATASETS = {"synthetic-v1": "{{ cookiecutter.dataset_id }}"}

CANONICAL = re.compile(r"^MW-[1-9][0-9]*[A-Z]?$")
_READABLE = re.compile(r"^\s*(?:MW|MONITORING\s*WELL)[\s_-]*0*([1-9][0-9]*)\s*([A-Z]?)\s*$", re.IGNORECASE)


def canonical(number: int, suffix: str = "") -> str:
    return f"MW-{number}{suffix.upper()}"


def normalize(text: str) -> str:
    """A predicted string in canonical form when it reads as a monitoring well, else stripped."""
    match = _READABLE.match(text)
    return canonical(int(match[1]), match[2]) if match else text.strip()


def well_sort_key(well: str) -> tuple[int, str]:
    match = re.match(r"^MW-([0-9]+)([A-Z]?)$", well)
    return (int(match[1]), match[2]) if match else (1 << 30, well)


def _check_wells(instance: Any, attribute: attrs.Attribute, value: tuple[str, ...]) -> None:
    for i, well in enumerate(value):
        if not CANONICAL.match(well):
            raise ValueError(f"{attribute.name}[{i}] = {well!r} is not a canonical well ID (MW-<number><suffix>)")
    if len(set(value)) != len(value):
        raise ValueError(f"{attribute.name} lists a well twice")


@attrs.frozen
class Input:
    """One case: the text to read."""

    text: str


@attrs.frozen
class Answer:
    """The monitoring wells the text names, canonical and each once."""

    wells: tuple[str, ...] = attrs.field(validator=_check_wells)


@attrs.frozen
class Prediction:
    """The wells a system read from the text: any strings, in any order."""

    wells: tuple[str, ...]


class WellIds(envirobench.BenchmarkType):
    ID = TYPE_ID
    FORMAT = "{{ cookiecutter.organisation }}.well-ids.v1"
    LABEL = "Monitoring well IDs"
    SCORING_VERSION = "{{ cookiecutter.organisation }}.well-ids.scores.v1"
    TIER = "component"
    PROFILES = ("exact", "normalized")
    HEADLINE = ("well_f1", "texts_exact")
    VIEWER = VIEWER_NAME

    Input = Input
    Answer = Answer
    Prediction = Prediction

    def score_case(self, case: Case, answer: Answer, prediction: Prediction) -> dict[str, CaseScore]:
        gold = set(answer.wells)
        return {
            "exact": _score(gold, set(prediction.wells)),
            "normalized": _score(gold, {normalize(w) for w in prediction.wells}),
        }

    # The headline from the sums of the per-case metrics (pooled counts), not `summarize`: core
    # then computes the intervals from resampled sums, fast on large runs (docs/architecture.md).
    def summarize_totals(self, profile: str, totals: Mapping[str, float], cases: int) -> dict[str, float]:
        tp, fp, fn = totals["tp"], totals["fp"], totals["fn"]
        return {
            "well_f1": envirobench.f1(tp, fp, fn),
            "texts_exact": totals["exact"] / cases,
            "well_precision": share(tp, tp + fp),
            "well_recall": share(tp, tp + fn),
        }


def _score(gold: set[str], predicted: set[str]) -> CaseScore:
    missed = sorted(gold - predicted, key=well_sort_key)
    spurious = sorted(predicted - gold, key=well_sort_key)
    errors: list[ErrorKey] = [("missed-well", w) for w in missed] + [("spurious-well", w) for w in spurious]
    metrics = {
        "tp": float(len(gold & predicted)),
        "fp": float(len(spurious)),
        "fn": float(len(missed)),
        "exact": 0.0 if errors else 1.0,
    }
    return CaseScore(errors=tuple(errors), metrics=metrics)
