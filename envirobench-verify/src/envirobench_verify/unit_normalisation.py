"""Benchmark type `unit-normalisation`: result values converted to a target unit and basis.

A case is the result rows of one laboratory report (`Input.results`). Each row gives a result as
printed: `value` (the number as the report prints it: decimal comma, scientific notation,
thousands grouped, a qualifier beside it: "<0,50", "12,300 J"; the report's other values say
which mark is decimal), `unit` (as printed: "ug/L", "mg/Kg", "ppb", "wt%", "ppbv", "mg/kg dry"
...), `basis` (the basis the report prints for it, "" when none: "wet weight", "dry basis",
"as N", "Nitrate (NO3)", "TCLP extract" ...), `medium` ("water", "soil" or "air": soil gas and
indoor air), `note` (the sample's percent solids or percent moisture line, or the reference
conditions of a gas conversion; "" when none is printed) and the wanted `target_unit` (one of
µg/L, mg/L, ng/L, µg/kg, mg/kg, µg/m³) and `target_basis` ("" when the basis does not change,
"dry weight", "wet weight", "as N", "as NO3", "as NO2", "as NH3", "as P", "as PO4"). A system returns, per row, the value in the target unit and basis
(`Prediction.results`: `result` = the row's ID, `value` a finite number).

Conversions the rows need (the truth: exact decimal arithmetic on the printed value):
- mass per volume: 1 mg/L = 1,000 µg/L = 1,000,000 ng/L; mass per mass: 1 mg/kg = 1,000 µg/kg;
  1 % (by weight) = 10,000 mg/kg;
- ppm and ppb by medium: in water ppm is mg/L and ppb µg/L; in soil ppm is mg/kg and ppb µg/kg;
  in a soil's leachate (TCLP, SPLP: the basis says so) they are per litre of extract, mg/L and
  µg/L, and the sample's solids line does not apply; in air they are by volume (ppbv = nL/L);
- gases: µg/m³ = ppbv × molecular weight ÷ molar volume (22.414 L/mol × T ÷ 273.15 K at 1 atm),
  at 25 °C (24.465 L/mol) unless the note states other reference conditions; molecular weights
  from the compound's formula with C 12.011, H 1.008, Cl 35.45, O 15.999;
- wet and dry weight: dry = wet × 100 ÷ %solids, wet = dry × %solids ÷ 100, with
  %solids = 100 − %moisture when the note gives the moisture; the printed basis may be in the
  basis column or in the unit ("mg/kg dry"), and a value already on the target basis is not
  converted again;
- species as the element or as the ion, by molar mass (N 14.007, O 15.999, H 1.008, P 30.974):
  nitrate as NO3 = nitrate as N × 62.004 ÷ 14.007 (≈ 4.427), nitrite NO2/N ≈ 3.284,
  ammonia NH3/N ≈ 1.216, phosphate PO4/P ≈ 3.066;
- a row already in its target unit and basis is its printed value.

Scoring (one profile, `values`, the default gate). A value is right when it is within the
relative tolerance RELATIVE_TOLERANCE = 0.005 (0.5 %) of the truth: |predicted − truth| ≤
0.005 × |truth|. The tolerance absorbs rounded factors (4.43 for 4.427) and the six significant
figures of the truth, never a wrong factor of ten, a missed basis or a species conversion
(the smallest of those is a factor of 1.017: a gas at 20 °C taken at 25 °C). Errors: ("wrong-value", row ID) and
("missing-value", row ID). Headline:

    values_right       (primary) the share of rows converted right
    <kind>_right       the share right per conversion kind (mass-volume, mass-mass, ppm-ppb,
                       wet-to-dry, dry-to-wet, moisture-to-dry, species, species-and-unit,
                       percent, wet-to-dry-and-unit, unchanged, gas-volume, leachate,
                       unit-basis)
    values             the number of rows

Blind baseline (docs): "copy the value unconverted" (right only on unchanged rows). Rows are
clustered by report for the bootstrap.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Literal

import attrs

import envirobench
from envirobench import Case, CaseScore, not_blank, share

DATASETS = {
    "synthetic-dev-v1": "envirobench/unit-normalisation-synthetic-dev-v1",
    "synthetic-test-v1": "envirobench/unit-normalisation-synthetic-test-v1",
}
RELATIVE_TOLERANCE = 0.005
TargetUnit = Literal["µg/L", "mg/L", "ng/L", "µg/kg", "mg/kg", "µg/m³"]
TargetBasis = Literal[
    "", "dry weight", "wet weight", "as N", "as NO3", "as NO2", "as NH3", "as P", "as PO4"
]
Kind = Literal[
    "mass-volume",
    "mass-mass",
    "ppm-ppb",
    "wet-to-dry",
    "dry-to-wet",
    "moisture-to-dry",
    "species",
    "species-and-unit",
    "percent",
    "wet-to-dry-and-unit",
    "unchanged",
    "gas-volume",
    "leachate",
    "unit-basis",
]
KINDS: tuple[str, ...] = Kind.__args__  # type: ignore[attr-defined]


def _finite(instance: Any, attribute: attrs.Attribute, value: float) -> None:
    if isinstance(value, bool) or not math.isfinite(value):
        raise ValueError(f"{attribute.name} must be a finite number, got {value!r}")


def _distinct(instance: Any, attribute: attrs.Attribute, value: tuple[Any, ...]) -> None:
    ids = [row.key for row in value]
    if len(ids) != len(set(ids)):
        raise ValueError(f"{attribute.name}: row IDs must be distinct, got {ids}")
    if not value:
        raise ValueError(f"{attribute.name} is empty")


@attrs.frozen
class UnitRow:
    """One result as printed, and the unit and basis it is wanted in."""

    id: str = attrs.field(validator=not_blank)
    analyte: str
    medium: Literal["water", "soil", "air"]
    value: str = attrs.field(validator=not_blank)
    unit: str = attrs.field(validator=not_blank)
    basis: str
    note: str
    target_unit: TargetUnit
    target_basis: TargetBasis

    @property
    def key(self) -> str:
        return self.id


@attrs.frozen
class Input:
    results: tuple[UnitRow, ...] = attrs.field(validator=_distinct)


@attrs.frozen
class Converted:
    """A row's value in its target unit and basis; `result` is the row's ID."""

    result: str = attrs.field(validator=not_blank)
    value: float = attrs.field(validator=_finite)

    @property
    def key(self) -> str:
        return self.result


@attrs.frozen
class TruthRow(Converted):
    """The truth of one row: its converted value and the conversion kind (for breakdowns)."""

    kind: Kind


@attrs.frozen
class Answer:
    results: tuple[TruthRow, ...] = attrs.field(validator=_distinct)


@attrs.frozen
class Prediction:
    """One converted value per row (distinct row IDs; a row left out is wrong, an ID the case
    does not have is ignored). An empty list is allowed and converts nothing."""

    results: tuple[Converted, ...] = attrs.field()

    @results.validator
    def _check(self, attribute: attrs.Attribute, value: tuple[Converted, ...]) -> None:
        ids = [row.result for row in value]
        if len(ids) != len(set(ids)):
            raise ValueError(f"{attribute.name}: row IDs must be distinct, got {ids}")


def within_tolerance(predicted: float, truth: float) -> bool:
    return abs(predicted - truth) <= RELATIVE_TOLERANCE * abs(truth)


class UnitNormalisation(envirobench.BenchmarkType):
    ID = "unit-normalisation"
    FORMAT = "envirobench.unit-normalisation.v2"
    LABEL = "Unit normalisation"
    SCORING_VERSION = "envirobench.unit-normalisation.scores.v2"
    TIER = "component"
    PROFILES = ("values",)
    HEADLINE = ("values_right", *(f"{k}_right" for k in KINDS), "values")
    CLUSTER_UNIT = "report"

    def score_case(
        self, case: Case, answer: Answer, prediction: Prediction
    ) -> dict[str, CaseScore]:
        predicted = {row.result: row.value for row in prediction.results}
        errors: list[tuple[str, str]] = []
        metrics: dict[str, float] = {"row": 0.0, "right": 0.0}
        for truth in answer.results:
            metrics["row"] += 1
            metrics[f"rows {truth.kind}"] = metrics.get(f"rows {truth.kind}", 0.0) + 1
            value = predicted.get(truth.result)
            if value is None:
                errors.append(("missing-value", truth.result))
            elif not within_tolerance(value, truth.value):
                errors.append(("wrong-value", truth.result))
            else:
                metrics["right"] += 1
                metrics[f"right {truth.kind}"] = metrics.get(f"right {truth.kind}", 0.0) + 1
        return {"values": CaseScore(errors=tuple(sorted(errors)), metrics=metrics)}

    def summarize_totals(
        self, profile: str, totals: Mapping[str, float], cases: int
    ) -> dict[str, float]:
        return {
            "values_right": share(totals["right"], totals["row"]),
            **{
                f"{k}_right": share(totals.get(f"right {k}", 0.0), totals.get(f"rows {k}", 0.0))
                for k in KINDS
            },
            "values": totals["row"],
        }
