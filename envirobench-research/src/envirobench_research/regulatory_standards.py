"""Benchmark type `regulatory-standards`: the standard that applies to a result, and its value.

A case is one look-up: a result's jurisdiction, medium, land use (soil only), analyte (as a
laboratory or a data table writes it: a name, a synonym, an abbreviation or a CAS number),
sampling date (`sampled`, YYYY-MM-DD: `envirobench.iso_date`, which since 2026-12-04 refuses the
other forms `date.fromisoformat` took, such as 20190501; no shipped input used them), basis
(metals in water: total or dissolved, however written) and the unit the result is reported in.
The fields are worded the way agencies print their screening tables
(envirobench_synth.research.standard_wordings: heads, qualifiers, units, footnote marks; the
test split's wordings never a dev one). `Input.tables` names the pinned standard tables shipped with the split (a
JSON file: every table's rows with their values, units, bases and dates in force, and the
screening policy: for each jurisdiction, medium and land use, the tables to consult in order).

A system answers the table whose row applies and the row's value and unit (`Prediction`), or
all three null when no standard applies.

The truth rule (envirobench_synth.research.standard_tables.applicable, also stated in the tables
file): take the policy entry of the result's jurisdiction, medium and land use; the standard is
the first of its tables with a row for the analyte (by name or CAS number) that fits the result's
basis (a total-basis row fits every result, a dissolved-basis row only a dissolved result; no
basis given: total) and is in force on the sampling date (from and to dates inclusive). None: no
standard applies.

Scoring (one profile, `lookups`, the default gate), per look-up:

    table_right   the predicted table is the true one (both null counts)
    value_right   the predicted value equals the true value once both are in the same unit
                  (mg/L, µg/L or ug/L; mg/kg, µg/kg or ug/kg), within a relative 1e-6; a value
                  in a unit of another dimension is wrong; both null counts
    right         table_right and value_right

Headline: `lookup_accuracy` (primary: share of look-ups with the right table and value),
`table_accuracy`, `value_accuracy`, `lookups`. Component score = 100 x lookup_accuracy.

Errors (the gate uses them): ("wrong-table", predicted table or "none") and ("wrong-value",
predicted value in the true unit, rounded to 6 significant figures, or "none").

Baselines (benchmarks/research_specs/regulatory_standards.py, docs/reference-scores.md): no
standard ever; the dev split's wordings as a dictionary, then the file's rule (the shortcut an
audit found, fitted on dev); and two reference points that read the medium and land use from
the key (the current federal value; the first federal row, any date).

Traps, per look-up in `Answer.traps`: date-change, before-edition, state-stricter, fallback,
land-use, medium, basis, units, synonym, no-standard (standard_tables' docstring).

Predictions are data: `table` at most 80 characters, `value` a finite positive number below
1e12, `unit` one of the six units; table, value and unit all given or all null.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import attrs

import envirobench
from envirobench import Case, CaseScore, iso_date, not_blank, share

DATASETS = {
    "synthetic-dev-v1": "envirobench/regulatory-standards-synthetic-dev-v1",
    "synthetic-test-v1": "envirobench/regulatory-standards-synthetic-test-v1",
}
# Unit -> (dimension, factor to the dimension's base unit: kg/L and kg/kg).
UNITS = {
    "mg/L": ("water", 1e-3),
    "µg/L": ("water", 1e-6),
    "ug/L": ("water", 1e-6),
    "mg/kg": ("soil", 1e-6),
    "µg/kg": ("soil", 1e-9),
    "ug/kg": ("soil", 1e-9),
}
TRAPS = (
    "date-change", "before-edition", "state-stricter", "fallback", "land-use", "medium", "basis",
    "units", "synonym", "no-standard",
)  # fmt: skip
RELATIVE_TOLERANCE = 1e-6
MAX_VALUE = 1e12


def _json_file(instance: Any, attribute: attrs.Attribute, value: str) -> None:
    if not value.lower().endswith(".json"):
        raise ValueError(f"{attribute.name} must name a JSON file, got {value!r}")


def _table(instance: Any, attribute: attrs.Attribute, value: str | None) -> None:
    if value is not None and not (0 < len(value) <= 80):
        raise ValueError(f"{attribute.name} must be 1 to 80 characters")


def _value(instance: Any, attribute: attrs.Attribute, value: float | None) -> None:
    if value is not None and not (math.isfinite(value) and 0 < value < MAX_VALUE):
        raise ValueError(
            f"{attribute.name} must be a finite positive number below {MAX_VALUE:g}, got {value!r}"
        )


def _unit(instance: Any, attribute: attrs.Attribute, value: str | None) -> None:
    if value is not None and value not in UNITS:
        raise ValueError(f"{attribute.name}: {value[:20]!r} is not one of {', '.join(UNITS)}")


@attrs.frozen
class Input:
    """One look-up: the result's facts as written, and the split's tables file."""

    tables: str = attrs.field(validator=_json_file)
    jurisdiction: str = attrs.field(validator=not_blank)
    medium: str = attrs.field(validator=not_blank)
    land_use: str | None
    analyte: str = attrs.field(validator=not_blank)
    sampled: str = attrs.field(validator=iso_date)
    basis: str | None
    result_unit: str = attrs.field(validator=_unit)


def _all_or_none(instance: Any) -> None:
    given = [instance.table is not None, instance.value is not None, instance.unit is not None]
    if any(given) and not all(given):
        raise ValueError(
            "table, value and unit must all be given, or all be null (no standard applies)"
        )


@attrs.frozen
class Prediction:
    """The standard that applies: its table ID, value and unit; all null when none applies."""

    table: str | None = attrs.field(validator=_table)
    value: float | None = attrs.field(validator=_value)
    unit: str | None = attrs.field(validator=_unit)

    def __attrs_post_init__(self) -> None:
        _all_or_none(self)


@attrs.frozen
class Answer:
    """The truth (table, value, unit; all null when no standard applies); `policy` (the policy
    entry used) and `traps` describe the case for breakdowns and are not scored."""

    table: str | None = attrs.field(validator=_table)
    value: float | None = attrs.field(validator=_value)
    unit: str | None = attrs.field(validator=_unit)
    policy: str
    traps: tuple[str, ...]

    def __attrs_post_init__(self) -> None:
        _all_or_none(self)
        unknown = sorted(set(self.traps) - set(TRAPS))
        if unknown:
            raise ValueError(f"traps: unknown trap(s) {unknown}")


def in_unit(value: float, unit: str, target: str) -> float | None:
    """`value` in `unit` expressed in `target`; None across dimensions (water against soil)."""
    (dimension, factor), (target_dimension, target_factor) = UNITS[unit], UNITS[target]
    if dimension != target_dimension:
        return None
    return value * factor / target_factor


def same_value(answer: Answer, prediction: Prediction) -> bool:
    if answer.value is None or prediction.value is None:
        return answer.value is None and prediction.value is None
    converted = in_unit(prediction.value, prediction.unit, answer.unit)
    return converted is not None and math.isclose(
        converted, answer.value, rel_tol=RELATIVE_TOLERANCE
    )


class RegulatoryStandards(envirobench.BenchmarkType):
    ID = "regulatory-standards"
    FORMAT = "envirobench.regulatory-standards.v1"
    LABEL = "Regulatory standards"
    SCORING_VERSION = "envirobench.regulatory-standards.scores.v1"
    TIER = "component"
    PROFILES = ("lookups",)
    HEADLINE = ("lookup_accuracy", "table_accuracy", "value_accuracy", "lookups")
    SOURCE_FIELDS = ("tables",)

    def score_case(
        self, case: Case, answer: Answer, prediction: Prediction
    ) -> dict[str, CaseScore]:
        table_right = prediction.table == answer.table
        value_right = same_value(answer, prediction)
        errors: list[tuple] = []
        if not table_right:
            errors.append(("wrong-table", prediction.table or "none"))
        if not value_right:
            shown: Any = "none"
            if prediction.value is not None:
                converted = in_unit(
                    prediction.value, prediction.unit, answer.unit or prediction.unit
                )
                shown = float(f"{converted:.6g}") if converted is not None else f"{prediction.unit}"
            errors.append(("wrong-value", shown))
        metrics = {
            "right": float(table_right and value_right),
            "table_right": float(table_right),
            "value_right": float(value_right),
            "lookup": 1.0,
        }
        return {"lookups": CaseScore(errors=tuple(errors), metrics=metrics)}

    def summarize_totals(
        self, profile: str, totals: Mapping[str, float], cases: int
    ) -> dict[str, float]:
        return {
            "lookup_accuracy": share(totals["right"], totals["lookup"]),
            "table_accuracy": share(totals["table_right"], totals["lookup"]),
            "value_accuracy": share(totals["value_right"], totals["lookup"]),
            "lookups": totals["lookup"],
        }
