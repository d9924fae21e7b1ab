"""Benchmark type `recognized-conditions`: a site's recognized environmental conditions in the
terms of ASTM E1527-21, each with the pages that support it.

A case is one site's whole document record (`records.SiteInput`); `Input.condition_kinds` lists
the kinds of condition a system may name (a UST release, a dry-cleaning solvent release, railroad
ties and herbicides, ...). A system returns the conditions (`Prediction.conditions`), at most one
per kind: the kind, its `classification` and the evidence pages (citations).

**The classes** (ASTM E1527-21 §3.2): `REC` (a recognized environmental condition: the presence
or likely presence of hazardous substances or petroleum products due to a release, or under
conditions posing a material threat of one), `CREC` (controlled: a past release addressed to the
regulator's satisfaction with contamination left in place under controls, such as an
environmental covenant or a no-further-action letter with land-use limits), `HREC` (historical: a
past release addressed to unrestricted use, no controls), `de-minimis` (a condition that would
not be the subject of enforcement action). The truth (envirobench_synth.site) follows what the
record's latest documents establish: a release with an NFA letter under a covenant is a CREC; a
closed release without controls an HREC; a release still under investigation a REC. (The JSON
key is `classification`, not `class`, which Python reserves.)

**Scoring** (one profile, `conditions`, the default gate). Units are the condition kinds that
the truth or the prediction names.
- A predicted condition is *right* when the truth has a condition of that kind with that class.
  condition_tp: right conditions; condition_fp: predicted conditions that are not (wrong class,
  a kind the truth does not hold or the input does not list, a second condition of one kind);
  condition_fn: true conditions without a right prediction (a wrong class is one false positive
  and one false negative).
- Evidence: pooled over the kinds, with P the first predicted condition's pages of a kind and T
  the true condition's pages (empty when the truth or the prediction lacks the kind):
  evidence_tp |P ∩ T|, evidence_fp |P − T|, evidence_fn |T − P|, whatever the class.
  evidence_precision and evidence_recall from them (n/a where undefined).

Errors: ("missing-condition", kind), ("wrong-class", kind), ("extra-condition", kind),
("duplicate-condition", kind). Headline: condition_f1 (primary, pooled over the run),
condition_precision, condition_recall, evidence_precision, evidence_recall, conditions (true).

Traps: a release that was closed (HREC, not REC), a covenant that makes a closed release a CREC,
a spill cleaned at once (de minimis), conditions stated only in scanned pages, the evidence spread
over letters, reports and photographs. Blind baseline (docs/reference-scores.md): "every kind a
REC citing page 1". The bootstrap there resamples condition kinds within a split.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

import attrs

from envirobench import Case, not_blank, precision_recall, set_counts

from .records import (
    Citation,
    SiteType,
    Unit,
    bounded_items,
    bounded_text,
    match_first,
    matching_headline,
)
from .scans import ScannedPage

DATASETS = {
    "synthetic-dev-v1": "envirobench/recognized-conditions-synthetic-dev-v1",
    "synthetic-test-v1": "envirobench/recognized-conditions-synthetic-test-v1",
    # the many small test sites (issue 33: intervals by site); the public three stay the headline
    "synthetic-test-sites20-v1": "envirobench/recognized-conditions-synthetic-test-sites20-v1",
}
Classification = Literal["REC", "CREC", "HREC", "de-minimis"]


def _some_pages(instance, attribute, value) -> None:
    if not value:
        raise ValueError(f"{attribute.name} is empty: every condition has supporting pages")
    if len({c.key for c in value}) != len(value):
        raise ValueError(f"{attribute.name}: a page is listed twice")


@attrs.frozen
class TrueCondition:
    kind: str = attrs.field(validator=not_blank)
    classification: Classification
    evidence: tuple[Citation, ...] = attrs.field(validator=_some_pages)


@attrs.frozen
class Answer:
    conditions: tuple[TrueCondition, ...]
    scan_pages: tuple[ScannedPage, ...] = ()  # the record's scanned pages as filed (scans.py): never scored

    def __attrs_post_init__(self) -> None:
        kinds = [c.kind for c in self.conditions]
        if len(set(kinds)) != len(kinds):
            raise ValueError("conditions: at most one condition per kind")


@attrs.frozen
class PredictedCondition:
    kind: str = attrs.field(validator=bounded_text)
    classification: Classification
    evidence: tuple[Citation, ...] = attrs.field(default=(), validator=bounded_items)


@attrs.frozen
class Prediction:
    conditions: tuple[PredictedCondition, ...] = attrs.field(validator=bounded_items)


COUNTS = (
    "condition_tp",
    "condition_fp",
    "condition_fn",
    "evidence_tp",
    "evidence_fp",
    "evidence_fn",
    "conditions",
)


class RecognizedConditions(SiteType):
    ID = "recognized-conditions"
    FORMAT = "envirobench.recognized-conditions.v1"
    LABEL = "Recognized conditions"
    SCORING_VERSION = "envirobench.recognized-conditions.scores.v1"
    PROFILES = ("conditions",)
    PROFILE = "conditions"
    HEADLINE = (
        "condition_f1",
        "condition_precision",
        "condition_recall",
        "evidence_precision",
        "evidence_recall",
        "conditions",
    )
    COUNTS = COUNTS

    def units(self, case: Case, answer: Answer, prediction: Prediction) -> list[Unit]:
        truth = {c.kind: c for c in answer.conditions}
        predicted: dict[str, list[PredictedCondition]] = {}
        for condition in prediction.conditions:
            predicted.setdefault(condition.kind, []).append(condition)
        order = [*truth, *(k for k in predicted if k not in truth)]
        # A kind the input does not list is simply not in the truth (the generator checks that
        # every true kind is listed): an extra condition.
        return [self._unit(k, truth.get(k), predicted.get(k, [])) for k in order]

    @staticmethod
    def _unit(kind: str, true: TrueCondition | None, items: list) -> Unit:
        counts = dict.fromkeys(COUNTS, 0.0)
        errors = []
        shown = kind[:80]
        match_first(
            counts,
            errors,
            "condition",
            shown,
            true,
            items,
            lambda first, true: first.classification == true.classification,
            wrong="wrong-class",
        )
        # The evidence of the first condition of the kind is scored whether or not its class is right.
        first = items[0] if items else None
        truth_pages = {c.key for c in true.evidence} if true else set()
        pages = {c.key for c in first.evidence} if first else set()
        counts.update(set_counts(truth_pages, pages, ("evidence_tp", "evidence_fp", "evidence_fn")))
        return Unit(errors=tuple(errors), metrics=counts)

    def headline(self, totals: Mapping[str, float]) -> dict[str, float]:
        out = matching_headline(totals, "condition")
        out.update(
            precision_recall(
                "evidence", totals["evidence_tp"], totals["evidence_fp"], totals["evidence_fn"]
            )
        )
        out["conditions"] = totals["conditions"]
        return out
