"""Benchmark type `report-metadata`: the report-level facts of a laboratory report.

A case is one lab-report PDF (`Input.document`). A system returns seven fields:

    laboratory      the laboratory that issued the report (its letterhead name)
    work_order      the laboratory's number for the job, whatever the report calls it (Work
                    Order, Lab Job No., SDG, Report No., ...)
    client          the client company the report is for (not the contact person)
    project         the project name (not the project number)
    report_date     the date this report was issued, ISO `YYYY-MM-DD` (for a revision: the
                    revision's date, not that of the report it replaces; never the received or
                    analysis dates)
    sampling_dates  the dates the report's samples were collected, ISO, each once
    status          "draft", "final" or "revised": what the site tier needs to reconcile reprints

Truth rules where a report is unclear (the v2 datasets' traps; envirobench_synth.labreport.
frontmatter holds the full list): a PDF of several reports stapled together is answered for the
FIRST report (the one beginning on page 1), its samples only; `project` is the name even where
one field prints number and name (`2024-117 / Former Riverside Dry Cleaners`); `report_date` is
never a received, analysed, printed or stamp date; `status` is "draft" wherever the report says
so (a watermark, a label, a title or only the footer), "revised" when it says revised or amended
or names the report it supersedes, and "final" otherwise, also when it never names its status.

Every field of a prediction may be null (not found), which is wrong. Profile `exact` (the only
one, the default gate) compares `laboratory`, `work_order`, `client` and `project` after Unicode
NFKC, ASCII quotes, whitespace runs as one space and case folding; `report_date` exactly after
trimming; `sampling_dates` as a set (order and repeats ignored, each date trimmed); `status`
exactly. Errors: ("wrong-field", name), in the field order above.

Metrics per case: `fields_right` (the share of the seven fields right), `exact` (1.0 when all
are) and `right_<field>` (1.0 or 0.0). Headline: `fields_right` (primary: the share of fields
right over the run), `reports_exact`, and `<field>_right`, the share of reports with that field
right.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

import attrs

import envirobench
from envirobench import Case, CaseScore, iso_date, pdf_path

from .records import normalise_name

# Each dataset folder under benchmarks/<type ID>/datasets/ -> its dataset ID.
DATASETS = {
    "synthetic-v1": "envirobench/report-metadata-synthetic-v1",
    "synthetic-dev-v2": "envirobench/report-metadata-synthetic-dev-v2",
    "synthetic-test-v2": "envirobench/report-metadata-synthetic-test-v2",
}

Status = Literal["draft", "final", "revised"]
FIELDS = (
    "laboratory",
    "work_order",
    "client",
    "project",
    "report_date",
    "sampling_dates",
    "status",
)
NAME_FIELDS = ("laboratory", "work_order", "client", "project")


@attrs.frozen
class Input:
    """One case: a laboratory report, a dataset-relative PDF path."""

    document: str = attrs.field(validator=pdf_path)


@attrs.frozen
class Answer:
    """The report's facts; dates are ISO `YYYY-MM-DD`, sampling dates sorted and distinct."""

    laboratory: str
    work_order: str
    client: str
    project: str
    report_date: str = attrs.field(validator=iso_date)
    sampling_dates: tuple[str, ...] = attrs.field(validator=attrs.validators.deep_iterable(iso_date))
    status: Status

    def __attrs_post_init__(self) -> None:
        for name in NAME_FIELDS:
            if not getattr(self, name).strip():
                raise ValueError(f"{name} is empty")
        if not self.sampling_dates:
            raise ValueError("sampling_dates is empty: a report has at least one sample")
        if list(self.sampling_dates) != sorted(set(self.sampling_dates)):
            raise ValueError("sampling_dates must be sorted and distinct")


@attrs.frozen
class Prediction:
    """The facts a system read; any field may be null (not found). Dates as ISO `YYYY-MM-DD`."""

    laboratory: str | None
    work_order: str | None
    client: str | None
    project: str | None
    report_date: str | None
    sampling_dates: tuple[str, ...] | None
    status: Status | None


def field_right(name: str, answer: Answer, prediction: Prediction) -> bool:
    expected, got = getattr(answer, name), getattr(prediction, name)
    if got is None:
        return False
    if name in NAME_FIELDS:
        return normalise_name(expected) == normalise_name(got)
    if name == "report_date":
        return expected == got.strip()
    if name == "sampling_dates":
        return set(expected) == {date.strip() for date in got}
    return expected == got


class ReportMetadata(envirobench.BenchmarkType):
    ID = "report-metadata"
    FORMAT = "envirobench.report-metadata.v1"
    LABEL = "Report metadata"
    SCORING_VERSION = "envirobench.report-metadata.scores.v1"
    TIER = "document"
    PROFILES = ("exact",)
    HEADLINE = ("fields_right", "reports_exact")
    SOURCE_FIELDS = ("document",)
    # Comparing a dozen fields takes ~15 µs a case, less than reading its score back (~25 µs).
    REUSE_SCORES = False

    def score_case(
        self, case: Case, answer: Answer, prediction: Prediction
    ) -> dict[str, CaseScore]:
        right = {name: field_right(name, answer, prediction) for name in FIELDS}
        errors = tuple(("wrong-field", name) for name in FIELDS if not right[name])
        metrics = {f"right_{name}": 1.0 if ok else 0.0 for name, ok in right.items()}
        metrics["fields_right"] = sum(right.values()) / len(FIELDS)
        metrics["exact"] = 0.0 if errors else 1.0
        return {"exact": CaseScore(errors=errors, metrics=metrics)}

    def summarize_totals(self, profile: str, totals: Mapping[str, float], cases: int) -> dict[str, float]:
        out = {"fields_right": totals["fields_right"] / cases, "reports_exact": totals["exact"] / cases}
        for name in FIELDS:
            out[f"{name}_right"] = totals[f"right_{name}"] / cases
        return out
