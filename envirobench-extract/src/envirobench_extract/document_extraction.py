"""Benchmark type `document-extraction`: every measurement record of a whole laboratory report.

A case is one lab-report PDF (`Input.document`): cover, case narrative, sample summary, results
pages in one of eight layouts (the case category), quality-control pages. A system returns
every measurement record of the report's samples (`Prediction.records`); quality-control
results are not records. The record format, its normalisation and the matching are those of
`envirobench_extract.records`: records are matched one to one by (sample, analyte) with an
optimal assignment where a key repeats (re-analyses), a record found with any wrong field is one
false positive and one false negative, and each wrong field is named.

Profiles (scoring version v2; see records.py): `semantic` (the default gate and the category
score: a record scored for what it means: a non-detect however written, CAS optional where the
name says the compound, synonyms of one compound alike, units converted), `exact` (every field
as printed; the gate of v1) and `value` (result and reporting limit compared after unit
conversion, µg/L = 0.001 mg/L).

Metrics per case: `tp`, `fp`, `fn`, `exact` (1.0 without any error), `wrong_<field>` (pairs with
that field wrong), `right_<field>` (located pairs with value, unit, qualifier, reporting_limit
right; `right_sample`: every located pair) and the same three counts under the case's layout,
`tp@<layout>`, `fp@<layout>`, `fn@<layout>`, so that the summary can give F1 by layout.
Headline: `record_f1` (primary: F1 over counts pooled across the run), `documents_exact`,
`record_precision` (absent when nothing was predicted), `record_recall`, the per-field
`value_f1`, `unit_f1`, `qualifier_f1`, `reporting_limit_f1`, `sample_f1`, and
`record_f1@<layout>` for every layout in the run.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

import envirobench
from envirobench import Case, CaseScore, f1, pdf_path

from .records import (
    FIELD_HEADLINE,
    PROFILES,
    RecordsAnswer,
    RecordsPrediction,
    case_scores,
    pooled,
)

# Each dataset folder under benchmarks/<type ID>/datasets/ -> its dataset ID.
DATASETS = {
    "synthetic-v1": "envirobench/document-extraction-synthetic-v1",
    "synthetic-dev-v2": "envirobench/document-extraction-synthetic-dev-v2",
    "synthetic-test-v2": "envirobench/document-extraction-synthetic-test-v2",
}


@attrs.frozen
class Input:
    """One case: a laboratory report, a dataset-relative PDF path."""

    document: str = attrs.field(validator=pdf_path)


@attrs.frozen
class Answer(RecordsAnswer):
    """Every measurement record of the report, in report order."""


@attrs.frozen
class Prediction(RecordsPrediction):
    """Every measurement record the system found; order is free."""


class DocumentExtraction(envirobench.BenchmarkType):
    ID = "document-extraction"
    FORMAT = "envirobench.document-extraction.v1"
    LABEL = "Document extraction"
    SCORING_VERSION = "envirobench.document-extraction.scores.v2"
    TIER = "document"
    PROFILES = PROFILES
    HEADLINE = ("record_f1", "documents_exact", "record_precision", "record_recall", *FIELD_HEADLINE)
    SOURCE_FIELDS = ("document",)

    def score_case(
        self, case: Case, answer: Answer, prediction: Prediction
    ) -> dict[str, CaseScore]:
        return case_scores(answer.records, prediction.records, category=str(case.category))

    def summarize_totals(self, profile: str, totals: Mapping[str, float], cases: int) -> dict[str, float]:
        return pooled(totals, cases, exact_name="documents_exact") | f1_by_layout(totals)


def f1_by_layout(totals: Mapping[str, float]) -> dict[str, float]:
    """`record_f1@<layout>` from the pooled `tp@`, `fp@` and `fn@` counts of each layout (the
    layouts of the cases summed)."""
    counts: dict[str, list[float]] = {}
    for name, value in totals.items():
        kind, at, layout = name.partition("@")
        if at and kind in ("tp", "fp", "fn"):
            counts.setdefault(layout, [0.0, 0.0, 0.0])[("tp", "fp", "fn").index(kind)] += value
    return {f"record_f1@{layout}": f1(*counts[layout]) for layout in sorted(counts)}
