"""Benchmark type `custody-reconciliation`: a chain-of-custody form reconciled with its laboratory
report.

A case is one pair (`Input.form`: the form as a page image, typed or hand-filled and scanned;
`Input.report`: the laboratory's report as a PDF with a text layer). A system lists the
*discrepancies* between the two; the answer lists them all, derived by these rules:

- Sample IDs are compared folded (NFKC, upper case, whitespace removed). A form row and a report
  sample with equal folded IDs are one sample. An unmatched form row and an unmatched report
  sample whose IDs are also equal once hyphens and the leading zeros of digit runs are dropped
  (MW-03 / MW-3 / MW03) are one sample spelled two ways: `id-mismatch`, keyed by the form's ID.
  Any other unmatched form row is `sample-missing` (on the form, not in the report); any other
  unmatched report sample is `sample-extra` (keyed by the report's ID). Nothing else is reported
  for a missing or extra sample.
- `collection-mismatch` (per paired sample, the form's ID): collection date or time differ
  between form and report (compared as date and minute, whatever the print format; a report may
  print dates day first).
- `temperature` (one per pair, sample ""): the receipt temperature is outside the acceptable
  range, above 0.0 °C (not frozen) and at most 6.0 °C: 6.0 is acceptable, 0.0 and below are
  not.
- `holding-time` (per paired sample and analysis the report gives): the time from the form's
  collection date and time to the report's analysis date and time exceeds the analysis's
  holding time (exactly the limit is met). The pinned table (hours): voc, svoc, pah, tph 336
  (14 days); metals (total, dissolved, TCLP, SPLP) 4320 (180 days); mercury 672 (28 days); pcb
  8760 (1 year); solids 168 (7 days); nitrate 48.
- `analysis-not-reported` / `analysis-not-requested` (per paired sample and analysis): requested
  on the form but absent from the report, or reported but not requested.

The key of a discrepancy is (kind, sample, analysis): `sample` compared folded as above (the
form's spelling for every kind but sample-extra, the report's for that; "" for temperature),
`analysis` one of ANALYSES for holding-time and the two analysis kinds, "" otherwise. A
prediction's discrepancy matches the answer's with an equal key; each counts once.

Scoring (one profile, `discrepancies`). Per pair: true_positives, false_positives,
false_negatives over the keys; `exact` when the prediction's set equals the answer's. Headline:
`discrepancy_f1` (primary; F1 of the run's pooled counts, 1.0 when nothing was to be found and
nothing was claimed), `discrepancy_precision`, `discrepancy_recall` (each left out (n/a) where undefined: precision when nothing was claimed, recall when nothing was to be found), `pairs_exact` (share of
pairs answered exactly; pairs without discrepancy count: saying nothing is right there) and
`pairs`. The blind baseline "no discrepancies" scores F1 0 and `pairs_exact` the share of clean
pairs.

Errors (the gate): ("missed", kind, sample, analysis) and ("false", kind, sample, analysis).

Traps: day-first report dates against month-first forms; a hand-filled scan; a time written
without a colon (1430); 6.0 °C (acceptable) beside 6.5; nitrate's 48 hours beside the 14 days
of organics; mercury's 28 days beside the metals' 180; a padded or unpadded ID (a misspelling,
not a missing and an extra sample); field duplicates and blanks are samples too.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any, Literal

import attrs

import envirobench
from envirobench import Case, CaseScore, pooled_f1, set_counts

DATASETS = {
    "synthetic-dev-v1": "envirobench/custody-reconciliation-synthetic-dev-v1",
    "synthetic-test-v1": "envirobench/custody-reconciliation-synthetic-test-v1",
}
Kind = Literal[
    "sample-missing",
    "sample-extra",
    "id-mismatch",
    "collection-mismatch",
    "temperature",
    "holding-time",
    "analysis-not-reported",
    "analysis-not-requested",
]
Analysis = Literal[
    "",
    "voc",
    "svoc",
    "pah",
    "tph",
    "metals",
    "metals-dissolved",
    "tclp-metals",
    "splp-metals",
    "mercury",
    "pcb",
    "solids",
    "nitrate",
]
HOLDING_HOURS = {
    "voc": 336,
    "svoc": 336,
    "pah": 336,
    "tph": 336,
    "metals": 4320,
    "metals-dissolved": 4320,
    "tclp-metals": 4320,
    "splp-metals": 4320,
    "mercury": 672,
    "pcb": 8760,
    "solids": 168,
    "nitrate": 48,
}


def fold_id(sample_id: str) -> str:
    return "".join(unicodedata.normalize("NFKC", sample_id).upper().split())


def _suffix(suffix: str):
    def check(instance: Any, attribute: attrs.Attribute, value: str) -> None:
        if not value.lower().endswith(suffix):
            raise ValueError(f"{attribute.name} must name a {suffix} file, got {value!r}")

    return check


@attrs.frozen
class Input:
    """One pair: the form's page image and the report's PDF (dataset-relative paths)."""

    form: str = attrs.field(validator=_suffix(".png"))
    report: str = attrs.field(validator=_suffix(".pdf"))


@attrs.frozen
class Discrepancy:
    """One discrepancy: its kind, the sample it concerns ("" for temperature) and the analysis
    ("" unless the kind is about one)."""

    kind: Kind
    sample: str = ""
    analysis: Analysis = ""

    def key(self) -> tuple[str, str, str]:
        return (self.kind, fold_id(self.sample), self.analysis)


def _distinct(instance: Any, attribute: attrs.Attribute, value: tuple[Discrepancy, ...]) -> None:
    keys = [d.key() for d in value]
    if len(set(keys)) != len(keys):
        twice = next(k for k in keys if keys.count(k) > 1)
        raise ValueError(f"{attribute.name} lists {list(twice)} twice (sample IDs compared folded)")


@attrs.frozen
class Answer:
    """Every discrepancy of the pair; `family`, `hand` (the form is hand-filled and scanned) and
    `planted` (the kinds the generator planted) describe the case, unscored."""

    discrepancies: tuple[Discrepancy, ...] = attrs.field(validator=_distinct)
    family: str
    hand: bool
    planted: tuple[str, ...]


@attrs.frozen
class Prediction:
    """The discrepancies a system finds (an empty list: none); each key once."""

    discrepancies: tuple[Discrepancy, ...] = attrs.field(validator=_distinct)


class CustodyReconciliation(envirobench.BenchmarkType):
    ID = "custody-reconciliation"
    FORMAT = "envirobench.custody-reconciliation.v1"
    LABEL = "Custody reconciliation"
    SCORING_VERSION = "envirobench.custody-reconciliation.scores.v1"
    TIER = "document"
    PROFILES = ("discrepancies",)
    HEADLINE = (
        "discrepancy_f1",
        "discrepancy_precision",
        "discrepancy_recall",
        "pairs_exact",
        "pairs",
    )
    SOURCE_FIELDS = ("form", "report")

    def score_case(
        self, case: Case, answer: Answer, prediction: Prediction
    ) -> dict[str, CaseScore]:
        truth = {d.key() for d in answer.discrepancies}
        predicted = {d.key() for d in prediction.discrepancies}
        errors = sorted(
            [("missed", *key) for key in truth - predicted]
            + [("false", *key) for key in predicted - truth]
        )
        metrics = {
            **set_counts(truth, predicted),
            "exact": 1.0 if truth == predicted else 0.0,
            "pair": 1.0,
        }
        return {"discrepancies": CaseScore(errors=tuple(errors), metrics=metrics)}

    def summarize_totals(
        self, profile: str, totals: Mapping[str, float], cases: int
    ) -> dict[str, float]:
        return {
            **pooled_f1("discrepancy", totals),
            "pairs_exact": totals["exact"] / totals["pair"],
            "pairs": totals["pair"],
        }
