"""Benchmark type `exceedance-summary`: every exceedance across a site's whole record, by
location, medium and analyte, with the governing standard and its value on the sampling date.

A case is one site's whole document record (`records.SiteInput`), with the pinned screening
tables (`Input.standards`: envirobench_synth.standards rows, each value with its dates in force).
Which table governs the site is stated in the record (the agency's letters name the program's
table, and may change it); the value that applies is the one in force on the sampling date. A
system returns the exceedances (`Prediction.exceedances`): each governing result (site-results'
reconciled value, never a superseded, draft, rejected or misprinted one) strictly above the
governing standard in force on its sampling date, naming the standard's table, value and unit,
optionally the result's value and the page it comes from.

**Truth** (envirobench_synth.site): one exceedance per governing detection above its standard;
a non-detect is never an exceedance; a result without a standard in the governing table is not
screened; units are converted to the standard's before comparing. The truth names the analyte
`substance`, the result `result_value`/`result_unit` and the standard `level` (`screening_table`,
`level_value`, `level_unit`): names the input and the screening tables do not use, so that the
conformance suite's isolation check can tell an answer from an input.

**Scoring** (one profile, `exceedances`, the default gate). The key is site-results' (location,
depth, sampling date, analyte, matrix, normalised as in records.py). The first predicted
exceedance of a key is matched; later ones of the same key are duplicates (false positives).
A matched exceedance is *right* when its standard's value, converted to the true standard's unit,
is within 0.5 % of the true value (records.RELATIVE_TOLERANCE): the right table's value on the
sampling date, not an older edition's or another land use's. The table ID and the result value
are reported, not required:
- exceedance_tp: right exceedances; exceedance_fp: predicted ones not right (wrong standard
  value, no such exceedance, duplicates); exceedance_fn: true ones without a right prediction (a
  wrong standard value is one false positive and one false negative).
- table_accuracy: among right exceedances, the share naming the true table ID (compared
  case-insensitively, spaces trimmed).
- value_accuracy: among right exceedances that give a value, the share whose value agrees with
  the governing result (converted to its unit, within 0.5 %).
- source_accuracy: among right exceedances, the share citing the governing result's page.

Errors: ("missing-exceedance", key), ("wrong-standard", key), ("extra-exceedance", key),
("duplicate-exceedance", key). Headline: exceedance_f1 (primary, pooled over the run),
exceedance_precision, exceedance_recall (n/a where undefined), table_accuracy, value_accuracy,
source_accuracy, exceedances (true ones).

Traps: a superseded or misprinted value that would exceed (or not), the table an agency letter
changes, an edition change between two sampling dates, µg/L results against mg/L standards, soil
by land use, non-detects with high reporting limits (never exceedances here). Blind baselines
(docs/reference-scores.md): "no exceedances" and "every exceedance from the latest report only".
The bootstrap there resamples exceedance keys within a split.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from envirobench import Case, not_blank

from .records import (
    AnalyteTable,
    Citation,
    Matrix,
    ResultKey,
    SiteInput,
    SiteType,
    Unit,
    bounded_items,
    bounded_text,
    by_result_key,
    depth_key,
    finite_or_none,
    finite_positive,
    iso_date,
    key_text,
    location_key,
    match_first,
    matching_headline,
    ratio,
    result_key,
    values_agree,
)
from .scans import ScannedPage

DATASETS = {
    "synthetic-dev-v1": "envirobench/exceedance-summary-synthetic-dev-v1",
    "synthetic-test-v1": "envirobench/exceedance-summary-synthetic-test-v1",
    # the many small test sites (issue 33: intervals by site); the public three stay the headline
    "synthetic-test-sites20-v1": "envirobench/exceedance-summary-synthetic-test-sites20-v1",
}


@attrs.frozen
class Level:
    """The governing screening level: its table's ID, its value on the sampling date, its unit."""

    screening_table: str = attrs.field(validator=not_blank)
    level_value: float = attrs.field(validator=finite_positive)
    level_unit: str = attrs.field(validator=not_blank)


@attrs.frozen
class TrueExceedance:
    """One exceedance. (Named apart from a prediction's fields where the input or the screening
    tables use the same names: `substance` is the analyte's catalogue name, `result_value` and
    `result_unit` the governing result, `level` the standard.)"""

    location: str = attrs.field(validator=not_blank)
    depth: str | None
    sample_date: str = attrs.field(validator=iso_date)
    substance: str = attrs.field(validator=not_blank)
    matrix: Matrix
    result_value: float = attrs.field(validator=finite_positive)
    result_unit: str = attrs.field(validator=not_blank)
    level: Level
    source: Citation

    def key(self, table: AnalyteTable) -> ResultKey:
        return result_key(
            self.location, self.depth, self.sample_date, table.resolve(self.substance), self.matrix
        )


@attrs.frozen
class Answer:
    exceedances: tuple[TrueExceedance, ...]
    scan_pages: tuple[ScannedPage, ...] = ()  # the record's scanned pages as filed (scans.py): never scored

    def __attrs_post_init__(self) -> None:
        keys = [
            (
                location_key(e.location),
                depth_key(e.depth),
                e.sample_date,
                e.substance.casefold(),
                e.matrix,
            )
            for e in self.exceedances
        ]
        if len(set(keys)) != len(keys):
            raise ValueError("exceedances: a key appears twice")


@attrs.frozen
class PredictedStandard:
    value: float = attrs.field(validator=finite_positive)
    unit: str = attrs.field(validator=bounded_text)
    table: str = attrs.field(default="", validator=bounded_text)


@attrs.frozen
class PredictedExceedance:
    location: str = attrs.field(validator=bounded_text)
    sample_date: str = attrs.field(validator=iso_date)
    analyte: str = attrs.field(validator=bounded_text)
    matrix: Matrix
    standard: PredictedStandard
    depth: str | None = attrs.field(default=None, validator=bounded_text)
    value: float | None = attrs.field(default=None, validator=finite_or_none)
    unit: str = attrs.field(default="", validator=bounded_text)
    source: Citation | None = None


@attrs.frozen
class Prediction:
    exceedances: tuple[PredictedExceedance, ...] = attrs.field(validator=bounded_items)


COUNTS = (
    "exceedance_tp",
    "exceedance_fp",
    "exceedance_fn",
    "table_right",
    "value_given",
    "value_right",
    "source_right",
    "exceedances",
)


class ExceedanceSummary(SiteType):
    ID = "exceedance-summary"
    FORMAT = "envirobench.exceedance-summary.v1"
    LABEL = "Exceedance summary"
    SCORING_VERSION = "envirobench.exceedance-summary.scores.v1"
    PROFILES = ("exceedances",)
    PROFILE = "exceedances"
    HEADLINE = (
        "exceedance_f1",
        "exceedance_precision",
        "exceedance_recall",
        "table_accuracy",
        "value_accuracy",
        "source_accuracy",
        "exceedances",
    )
    COUNTS = COUNTS

    def units(self, case: Case, answer: Answer, prediction: Prediction) -> list[Unit]:
        site: SiteInput = case.input
        table = AnalyteTable(site.analytes)
        truth = {e.key(table): e for e in answer.exceedances}
        predicted: dict[ResultKey, list[PredictedExceedance]] = by_result_key(prediction.exceedances, table)
        order = [*truth, *(k for k in predicted if k not in truth)]
        return [self._unit(k, truth.get(k), predicted.get(k, [])) for k in order]

    @staticmethod
    def _unit(key: ResultKey, true: TrueExceedance | None, items: list) -> Unit:
        counts = dict.fromkeys(COUNTS, 0.0)
        errors = []
        shown = key_text(key)
        matrix = key[4]
        if match_first(
            counts,
            errors,
            "exceedance",
            shown,
            true,
            items,
            lambda first, true: values_agree(
                first.standard.value,
                first.standard.unit,
                true.level.level_value,
                true.level.level_unit,
                matrix,
            ),
            wrong="wrong-standard",
        ):
            first = items[0]
            if (
                first.standard.table.strip().casefold()
                == true.level.screening_table.strip().casefold()
            ):
                counts["table_right"] = 1.0
            if first.value is not None:
                counts["value_given"] = 1.0
                if values_agree(
                    first.value, first.unit, true.result_value, true.result_unit, matrix
                ):
                    counts["value_right"] = 1.0
            if first.source is not None and first.source.key == true.source.key:
                counts["source_right"] = 1.0
        return Unit(errors=tuple(errors), metrics=counts)

    def headline(self, totals: Mapping[str, float]) -> dict[str, float]:
        out = matching_headline(totals, "exceedance")
        out.update(ratio(totals, "table_accuracy", "table_right", "exceedance_tp"))
        out.update(ratio(totals, "value_accuracy", "value_right", "value_given"))
        out.update(ratio(totals, "source_accuracy", "source_right", "exceedance_tp"))
        out["exceedances"] = totals["exceedances"]
        return out
