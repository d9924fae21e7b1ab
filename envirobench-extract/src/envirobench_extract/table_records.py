"""Benchmark type `table-records`: the measurement records one results table holds.

A case is one results table of a laboratory report, given either as a crop of the page image
(`{"image", "width", "height"}`: a grayscale PNG holding the table with the sample block above
it and its footnotes below) or as one page of a PDF (`{"document", "page"}`: every results table
on that page). Exactly one of the two forms is given. The case category is the layout the table
comes from (samples as columns, landscape, sideways, scanned, qualifier footnotes, ...).

A system returns the table's records (`Prediction.records`): the header context applied to each
row (sample, analyte, unit, qualifier from a column or a footnote marker, reporting limit).
Format, normalisation and matching are those of `envirobench_extract.records`; profiles
(scoring version v2) `semantic` (default gate and category score: a record scored for what it
means: non-detects however written, CAS optional, synonyms, units converted), `exact` (every
field as printed; the gate of v1) and `value` (result and reporting limit compared after unit
conversion).

Metrics per case: `tp`, `fp`, `fn`, `exact` (1.0 without any error), `wrong_<field>` and
`right_<field>` (see records.py). Headline: `record_f1` (primary, F1 over counts pooled across
the run), `tables_exact`, `record_precision` (absent when nothing was predicted),
`record_recall`, and the per-field `value_f1`, `unit_f1`, `qualifier_f1`,
`reporting_limit_f1`, `sample_f1`.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

import envirobench
from envirobench import Case, CaseScore

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
    "synthetic-v1": "envirobench/table-records-synthetic-v1",
    "synthetic-dev-v2": "envirobench/table-records-synthetic-dev-v2",
    "synthetic-test-v2": "envirobench/table-records-synthetic-test-v2",
}


@attrs.frozen
class Input:
    """One results table: either `image` with `width` and `height` (a PNG crop, pixels), or
    `document` with `page` (a PDF and the 1-based page holding the table). Exactly one form."""

    image: str | None = None
    width: int | None = None
    height: int | None = None
    document: str | None = None
    page: int | None = None

    def __attrs_post_init__(self) -> None:
        if (self.image is None) == (self.document is None):
            raise ValueError(
                "give exactly one of image (with width and height) and document (with page)"
            )
        if self.image is not None:
            if self.width is None or self.height is None:
                raise ValueError("an image needs its width and height in pixels")
            if self.width <= 0 or self.height <= 0:
                raise ValueError(
                    f"width and height must be positive, got {self.width} x {self.height}"
                )
            if self.page is not None:
                raise ValueError("page belongs to a document, not to an image")
            if not self.image.lower().endswith(".png"):
                raise ValueError(f"image must name a PNG file, got {self.image!r}")
        else:
            if self.page is None or self.page < 1:
                raise ValueError(
                    "a document needs the 1-based number of the page holding the table"
                )
            if self.width is not None or self.height is not None:
                raise ValueError("width and height belong to an image, not to a document")
            if not self.document.lower().endswith(".pdf"):  # type: ignore[union-attr]
                raise ValueError(f"document must name a PDF file, got {self.document!r}")

    @property
    def source(self) -> str:
        return self.image if self.image is not None else self.document  # type: ignore[return-value]


@attrs.frozen
class Answer(RecordsAnswer):
    """The table's measurement records, in table order."""


@attrs.frozen
class Prediction(RecordsPrediction):
    """The records the system read from the table; order is free."""


class TableRecords(envirobench.BenchmarkType):
    ID = "table-records"
    FORMAT = "envirobench.table-records.v1"
    LABEL = "Table records"
    SCORING_VERSION = "envirobench.table-records.scores.v2"
    TIER = "component"
    PROFILES = PROFILES
    HEADLINE = ("record_f1", "tables_exact", "record_precision", "record_recall", *FIELD_HEADLINE)
    SOURCE_FIELDS = ("source",)
    CLUSTER_UNIT = "document"

    def score_case(
        self, case: Case, answer: Answer, prediction: Prediction
    ) -> dict[str, CaseScore]:
        return case_scores(answer.records, prediction.records)

    def cluster(self, case: Case) -> str | None:
        # Tables on pages of one PDF share its layout, lab and quirks: they are not independent,
        # so intervals resample whole documents. A cropped image stands alone.
        return case.input.document

    def summarize_totals(self, profile: str, totals: Mapping[str, float], cases: int) -> dict[str, float]:
        return pooled(totals, cases, exact_name="tables_exact") if cases else {}
