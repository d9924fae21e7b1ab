"""Benchmark type `site-results`: every reportable result of a site, reconciled.

A case is one site's whole document record (`records.SiteInput`: a few volumes of 60-250
pages each, 120 to 806 pages in all, with no document boundaries given). The record prints the
same laboratory results again and again: the laboratory report, the report's results table, the
cumulative historical tables of every later monitoring report, the appendices, the draft and its
final, scanned copies. A system returns one record per result (`Prediction.results`): the
location (and the soil depth), the sampling date, the analyte, the matrix, the governing value
(or a non-detect) with its unit, and optionally the page it takes the value from (`source`) and
every page that prints the result (`printings`).

**The key and the reprint rules** (envirobench_synth.site builds the truth by them). The key of a
result is (location, depth, sampling date, analyte, matrix), compared after the declared
normalisation of records.py (location `MW-03` == `mw 3`; analyte by CAS number, catalogue name
or a synonym the input lists; depth as numbers). One key, one record, with the governing value:
- a final report supersedes its draft;
- a revised laboratory report supersedes the original;
- a correction letter overrides only the values it names;
- data a later report rejects (R-flagged, invalidated) is excluded: that key has no record;
- cumulative tables repeat earlier results, sometimes with transcription errors: the original
  laboratory report settles the value (the lab report governs).
The truth's `printings` list every page that prints the key, each with its status: `governing`
(the page the value comes from: the truth's `source`), `reprint` (the same value again),
`draft`, `superseded`, `rejected`, `transcription-error`; a printing may carry the value it
prints (`printed_value` with its `printed_unit`; a null value with a unit is a printed
non-detect). The truth names the analyte by its catalogue name (`substance`) and the value as
`result_value` and `result_unit`: names that neither the input nor the screening tables use, so
that the conformance suite's isolation check can tell an answer from an input.

**Scoring** (one profile, `records`, the default gate). Per key, the first predicted record with
that key is matched to the true record; every later predicted record with the same key is a
duplicate (a false positive: "no reconciliation" pays for each reprint it lists).
- A matched record is *right* when its value agrees: a true non-detect needs a predicted
  non-detect (`detected` false, or a null value); a detection needs a detection whose value,
  converted to the truth's unit, is within 0.5 % of the truth (records.RELATIVE_TOLERANCE; the
  unit table is records.py's). Reporting limit and qualifier are not scored.
- record_tp: right records; record_fp: predicted records that are not right (wrong value,
  unknown key, an excluded key, a duplicate); record_fn: true records without a right record.
  A wrong value counts once as a false positive and once as a false negative.
- `superseded_taken`: predicted records (duplicates included) of a true or excluded key whose
  value is not the governing one but agrees with a `draft`, `superseded`, `rejected` or
  `transcription-error` printing's value, plus every predicted record of an excluded key. Lower
  is better; a count, not a share.
- `contested_accuracy`: the keys where reconciliation decides, resolved by the rules. A key is
  *contested* when the record prints it with a value other than the governing one (a draft, a
  superseded original, a corrected or misprinted value: a printing whose `printed_value` disagrees
  with the truth) or when a later report rejects it (an excluded key). A contested true key is
  resolved when its only predicted record is right; an excluded key when nothing is predicted for
  it. `contested` counts them. Most keys of a record print one value everywhere, so record F1 is
  mostly a reading score; this is the reconciliation score (the blind "no reconciliation" lists
  every printing, so it resolves no contested true key, only the rejected keys it never lists).
- `source_accuracy`: among right records, the share whose `source` is the governing page (the
  same volume file name and page).
- Reprint clusters. An *item* is one printing of a key: (key, volume file, page). The true
  cluster of a record is its printings (every status; an excluded key has no record and no
  cluster). A predicted record's cluster is the distinct
  pages of its `printings` and its `source`, as items of its own key (a page an earlier record
  of the same key already claimed is left out). Pairwise: the pairs of items within one cluster;
  pairwise_precision = true pairs found ÷ predicted pairs, pairwise_recall = true pairs found ÷
  true pairs (a pair is found when both items are in one predicted cluster and both print that
  key). B-cubed: for each predicted item, |C ∩ T| ÷ |C| (0 for an item that is no printing of its
  key), averaged over predicted items (bcubed_precision); for each true item, |C ∩ T| ÷ |T| (0
  when no predicted cluster holds it), averaged over true items (bcubed_recall); C the predicted
  cluster holding the item, T the true one. Predictions without printings have no clusters:
  their cluster precision is n/a, their recall 0.

Errors (the gate uses them): ("missing-record", key), ("wrong-value", key), ("extra-record",
key), ("duplicate-record", key), ("rejected-record", key), with the key as
`location|depth|date|analyte CAS|matrix` normalised.

Headline: record_f1 (primary: 2·TP ÷ (2·TP + FP + FN) pooled over the run), record_precision,
record_recall (n/a where undefined), contested_accuracy, contested, superseded_taken,
source_accuracy, pairwise_precision,
pairwise_recall, bcubed_precision, bcubed_recall, records (the true records).

Traps: reprints in cumulative tables and appendices, drafts and finals, revised laboratory
reports, correction letters naming a few values, rejected data, transcription errors in
cumulative tables, location spellings (`MW-03`, `Well 3`, sample IDs), synonyms and CAS numbers,
units (µg/L against mg/L), scanned pages. Blind baselines (docs/reference-scores.md): "every
result from the latest report only" and "no reconciliation" (every printing as a record).

The bootstrap of docs/reference-scores.md resamples keys within a split (a split has 3 or 4
sites); core's run intervals, resampling sites, mean little here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

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
    file_name,
    finite_or_none,
    iso_date,
    key_text,
    location_key,
    match_first,
    matching_headline,
    page_number,
    ratio,
    result_key,
    values_agree,
)
from .scans import ScannedPage

DATASETS = {
    "synthetic-dev-v1": "envirobench/site-results-synthetic-dev-v1",
    "synthetic-test-v1": "envirobench/site-results-synthetic-test-v1",
    # the many small test sites (issue 33: intervals by site); the public three stay the headline
    "synthetic-test-sites20-v1": "envirobench/site-results-synthetic-test-sites20-v1",
}
Status = Literal["governing", "reprint", "draft", "superseded", "rejected", "transcription-error"]
NOT_GOVERNING = frozenset({"draft", "superseded", "rejected", "transcription-error"})


@attrs.frozen
class Printing:
    """A page that prints a result, with its status; `printed_value` and `printed_unit` as
    printed there when known (a null value with a unit: printed as not detected; no unit: not
    recorded)."""

    file: str = attrs.field(validator=file_name)
    page: int = attrs.field(validator=page_number)
    status: Status
    printed_value: float | None = attrs.field(default=None, validator=finite_or_none)
    printed_unit: str | None = None


def _distinct_printings(instance: Any, attribute: attrs.Attribute, value: tuple) -> None:
    pages = [(p.file, p.page) for p in value]
    if len(set(pages)) != len(pages):
        raise ValueError(f"{attribute.name}: a page is listed twice")


def _plain_key(location: str, depth: str | None, day: str, substance: str, matrix: str) -> tuple:
    return (
        location_key(location),
        depth_key(depth),
        day,
        " ".join(substance.casefold().split()),
        matrix,
    )


@attrs.frozen
class TrueResult:
    """One reconciled record: the governing value of its key. (The field names differ from a
    prediction's where the input or the screening tables use the same name for other things:
    `substance` is the analyte's catalogue name, `result_value` and `result_unit` the value.)"""

    location: str = attrs.field(validator=not_blank)
    depth: str | None
    sample_date: str = attrs.field(validator=iso_date)
    substance: str = attrs.field(validator=not_blank)
    matrix: Matrix
    result_value: float | None = attrs.field(validator=finite_or_none)
    detected: bool
    result_unit: str = attrs.field(validator=not_blank)
    reporting_limit: float | None = attrs.field(validator=finite_or_none)
    qualifier: str
    source: Citation
    printings: tuple[Printing, ...] = attrs.field(validator=_distinct_printings)

    def __attrs_post_init__(self) -> None:
        if self.detected != (self.result_value is not None):
            raise ValueError("detected: a detection has a value and a non-detect has none")
        governing = [p for p in self.printings if p.status == "governing"]
        if [(p.file, p.page) for p in governing] != [self.source.key]:
            raise ValueError("printings: the one governing printing must be the source page")

    def key(self, table: AnalyteTable) -> ResultKey:
        return result_key(
            self.location, self.depth, self.sample_date, table.resolve(self.substance), self.matrix
        )


@attrs.frozen
class ExcludedResult:
    """A key a later report rejects: printed, but no record."""

    location: str = attrs.field(validator=not_blank)
    depth: str | None
    sample_date: str = attrs.field(validator=iso_date)
    substance: str = attrs.field(validator=not_blank)
    matrix: Matrix
    printings: tuple[Printing, ...] = attrs.field(validator=_distinct_printings)

    def key(self, table: AnalyteTable) -> ResultKey:
        return result_key(
            self.location, self.depth, self.sample_date, table.resolve(self.substance), self.matrix
        )


@attrs.frozen
class Answer:
    """The site's reconciled records, and the keys excluded as rejected."""

    results: tuple[TrueResult, ...]
    excluded: tuple[ExcludedResult, ...] = ()
    scan_pages: tuple[ScannedPage, ...] = ()  # the record's scanned pages as filed (scans.py): never scored

    def __attrs_post_init__(self) -> None:
        keys = [
            _plain_key(r.location, r.depth, r.sample_date, r.substance, r.matrix)
            for r in (*self.results, *self.excluded)
        ]
        if len(set(keys)) != len(keys):
            seen: set = set()
            twice = next(k for k in keys if k in seen or seen.add(k))
            raise ValueError(f"results: key {key_text(twice)} appears twice")


@attrs.frozen
class PredictedResult:
    """One predicted record. A non-detect is `detected` false or a null value (not both a value
    and detected false); `source` and `printings` are optional citations."""

    location: str = attrs.field(validator=bounded_text)
    sample_date: str = attrs.field(validator=iso_date)
    analyte: str = attrs.field(validator=bounded_text)
    matrix: Matrix
    depth: str | None = attrs.field(default=None, validator=bounded_text)
    value: float | None = attrs.field(default=None, validator=finite_or_none)
    detected: bool | None = None
    unit: str = attrs.field(default="", validator=bounded_text)
    reporting_limit: float | None = attrs.field(default=None, validator=finite_or_none)
    qualifier: str = attrs.field(default="", validator=bounded_text)
    source: Citation | None = None
    printings: tuple[Citation, ...] = attrs.field(default=(), validator=bounded_items)

    def __attrs_post_init__(self) -> None:
        if self.detected is True and self.value is None:
            raise ValueError("value: a detected result needs its value")
        if self.detected is False and self.value is not None:
            raise ValueError("value: a non-detect has no value (give the limit as reporting_limit)")

    @property
    def is_detect(self) -> bool:
        return self.value is not None


@attrs.frozen
class Prediction:
    """A system's reconciled records of the site."""

    results: tuple[PredictedResult, ...] = attrs.field(validator=bounded_items)


COUNTS = (
    "record_tp",
    "record_fp",
    "record_fn",
    "superseded_taken",
    "contested",
    "contested_right",
    "source_right",
    "pairs_predicted",
    "pairs_true",
    "pairs_found",
    "bcubed_precision_sum",
    "bcubed_precision_items",
    "bcubed_recall_sum",
    "bcubed_recall_items",
    "records",
)


def _agrees(predicted: PredictedResult, value: float | None, unit: str, matrix: str) -> bool:
    if value is None:
        return not predicted.is_detect
    return predicted.is_detect and values_agree(
        predicted.value, predicted.unit, value, unit, matrix
    )


def _printed_agrees(printing: Printing, value: float | None, unit: str, matrix: str) -> bool:
    """Whether a printing shows the governing value (a printed non-detect: a null value)."""
    if value is None or printing.printed_value is None:
        return value is None and printing.printed_value is None
    return values_agree(printing.printed_value, printing.printed_unit, value, unit, matrix)


class SiteResults(SiteType):
    ID = "site-results"
    FORMAT = "envirobench.site-results.v1"
    LABEL = "Site results"
    # v2: contested_accuracy and contested (the keys reconciliation decides) in the headline.
    SCORING_VERSION = "envirobench.site-results.scores.v2"
    PROFILES = ("records",)
    PROFILE = "records"
    HEADLINE = (
        "record_f1",
        "record_precision",
        "record_recall",
        "contested_accuracy",
        "contested",
        "superseded_taken",
        "source_accuracy",
        "pairwise_precision",
        "pairwise_recall",
        "bcubed_precision",
        "bcubed_recall",
        "records",
    )
    COUNTS = COUNTS

    def units(self, case: Case, answer: Answer, prediction: Prediction) -> list[Unit]:
        site: SiteInput = case.input
        table = AnalyteTable(site.analytes)
        truth = {r.key(table): r for r in answer.results}
        excluded = {e.key(table): e for e in answer.excluded}
        predicted: dict[ResultKey, list[PredictedResult]] = by_result_key(prediction.results, table)
        # Units in a fixed order: the true keys, then the excluded, then the rest as predicted.
        order = [*truth, *(k for k in excluded if k not in truth)]
        order += [k for k in predicted if k not in truth and k not in excluded]
        return [self._unit(k, truth.get(k), excluded.get(k), predicted.get(k, [])) for k in order]

    def _unit(
        self,
        key: ResultKey,
        true: TrueResult | None,
        excluded: ExcludedResult | None,
        records: list[PredictedResult],
    ) -> Unit:
        counts = dict.fromkeys(COUNTS, 0.0)
        errors = []
        shown = key_text(key)
        printings = true.printings if true else excluded.printings if excluded else ()
        matrix = key[4]
        if match_first(
            counts,
            errors,
            "record",
            shown,
            true,
            records,
            lambda first, true: _agrees(first, true.result_value, true.result_unit, matrix),
            wrong="wrong-value",
            extra="rejected-record" if excluded else "extra-record",
        ):
            first = records[0]
            if first.source is not None and first.source.key == true.source.key:
                counts["source_right"] = 1.0
        if excluded is not None and true is None:
            counts["contested"] = 1.0
            counts["contested_right"] = float(not records)
        elif true is not None and any(
            p.status in NOT_GOVERNING
            and p.printed_unit is not None
            and not _printed_agrees(p, true.result_value, true.result_unit, matrix)
            for p in printings
        ):
            counts["contested"] = 1.0
            counts["contested_right"] = float(counts["record_tp"] == 1.0 and len(records) == 1)
        for record in records:
            governing = true is not None and _agrees(
                record, true.result_value, true.result_unit, matrix
            )
            if excluded is not None or (
                not governing
                and any(
                    p.status in NOT_GOVERNING
                    and p.printed_unit is not None
                    and _agrees(record, p.printed_value, p.printed_unit, matrix)
                    for p in printings
                )
            ):
                counts["superseded_taken"] += 1.0
        # Clusters are the records' printings: an excluded key has no record, so no cluster.
        cluster = {(p.file.strip(), p.page) for p in true.printings} if true else set()
        self._clusters(counts, cluster, records)
        return Unit(errors=tuple(errors), metrics=counts)

    @staticmethod
    def _clusters(
        counts: dict[str, float], true_items: set[tuple[str, int]], records: list[PredictedResult]
    ) -> None:
        claimed: set[tuple[str, int]] = set()
        n_true = len(true_items)
        counts["pairs_true"] = n_true * (n_true - 1) / 2
        counts["bcubed_recall_items"] = float(n_true)
        for record in records:
            cited = [*record.printings, *([record.source] if record.source else [])]
            cluster = {c.key for c in cited} - claimed
            if not cluster:
                continue
            claimed |= cluster
            size, hit = len(cluster), len(cluster & true_items)
            counts["pairs_predicted"] += size * (size - 1) / 2
            counts["pairs_found"] += hit * (hit - 1) / 2
            counts["bcubed_precision_sum"] += hit * hit / size
            counts["bcubed_precision_items"] += size
            if n_true:
                counts["bcubed_recall_sum"] += hit * hit / n_true

    def headline(self, totals: Mapping[str, float]) -> dict[str, float]:
        out = matching_headline(totals, "record")
        out.update(ratio(totals, "contested_accuracy", "contested_right", "contested"))
        out["contested"] = totals["contested"]
        out["superseded_taken"] = totals["superseded_taken"]
        out.update(ratio(totals, "source_accuracy", "source_right", "record_tp"))
        out.update(ratio(totals, "pairwise_precision", "pairs_found", "pairs_predicted"))
        out.update(ratio(totals, "pairwise_recall", "pairs_found", "pairs_true"))
        out.update(
            ratio(totals, "bcubed_precision", "bcubed_precision_sum", "bcubed_precision_items")
        )
        out.update(ratio(totals, "bcubed_recall", "bcubed_recall_sum", "bcubed_recall_items"))
        out["records"] = totals["records"]
        return out
