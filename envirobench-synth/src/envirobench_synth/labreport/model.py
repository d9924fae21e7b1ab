"""The document model of a synthetic laboratory report, and its ground truth.

A `LabReport` is what the laboratory means to say: who it is for, which samples, which results.
A `PrintStyle` is how this laboratory prints it (non-detect notation, date format, units spelled
with µ or u, thousands separators, table look). Rendering turns both into a PDF; the ground truth
of each result is a `TruthRecord`, the result as a careful reader would record it from the page.

Truth rules (the record format of EnviroBench's Extract types):

- `result` is the number printed, in the unit printed (thousands separators removed); None for
  a non-detect. `nondetect` is True for every non-detect notation: `<0.50`, `ND`, `0.50 U`.
- `reporting_limit` is the reporting limit printed for that result (already multiplied by the
  dilution factor, as laboratories print it); for `<0.50` and `0.50 U` it is that number.
- `qualifier` is the laboratory's qualifier code as printed or as a footnote marker resolves it
  (`U`, `J`, `B`, `E`, `D`), None when there is none. `<0.50` and `ND` carry no qualifier.
- `unit` is the unit as printed (`µg/L` or `ug/L`, `mg/L`): unit switches within one report are
  part of the test, so a result is never converted.
- the dilution factor and the method detection limit are printed but are not part of a record.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from ..catalogue import MatrixName, NondetectStyle

Status = Literal["draft", "final", "revised"]
TableLook = Literal["grid", "rows", "header-rule", "zebra"]

# The result-table layouts, each the dominant layout of the reports generated for it.
LAYOUTS: tuple[str, ...] = (
    "sample-per-table",  # one table per sample, analytes as rows, a page each
    "samples-as-columns",  # transposed: analytes as rows, one column per sample
    "continued",  # tables flow on and break across pages, the header repeated or missing
    "two-per-page",  # two short sample tables on one page
    "landscape",  # wide tables (MDL, dates, batch) on landscape pages
    "rotated",  # the landscape tables printed sideways on portrait pages
    "scanned",  # results pages as image-only scans: rendered, degraded, embedded
    "qualifier-footnotes",  # qualifiers as footnote markers on the results, defined below the table
)

# How every lab report prints a sample's matrix (the v1 reports of compose.py and the family
# reports of skeletons.py alike).
MATRIX_TITLES = {
    "groundwater": "Groundwater",
    "soil": "Soil",
    "soil-gas": "Soil Gas",
    # the other media of a site's record (envirobench_synth.site.labpapers)
    "surface-water": "Surface Water",
    "sediment": "Sediment",
    "soil-vapor": "Soil Vapor",
    "sub-slab-vapor": "Sub-Slab Vapor",
    "indoor-air": "Indoor Air",
}



def report_dates(
    rng: random.Random,
    last_analysis: dt.date,
    status: str,
    issued_after: tuple[int, int],
    reissued_after: tuple[int, int],
) -> tuple[dt.date, dt.date | None, int]:
    """A report's date, the date of the issue it supersedes and its revision number: issued
    `issued_after` days (a randint range) after its last analysis; a revised report is reissued
    `reissued_after` days after that first issue, as revision 1 or (less often) 2. Both kinds of
    lab report (sample.py's and the front matter's) date their reports so."""
    report_date = last_analysis + dt.timedelta(days=rng.randint(*issued_after))
    if status != "revised":
        return report_date, None, 0
    return (
        report_date + dt.timedelta(days=rng.randint(*reissued_after)),
        report_date,
        rng.choice((1, 1, 2)),
    )

# strftime patterns a laboratory prints dates with; one report uses one.
DATE_FORMATS: tuple[str, ...] = ("%m/%d/%Y", "%d-%b-%Y", "%B %d, %Y", "%Y-%m-%d", "%m/%d/%y")

QUALIFIER_MEANINGS: dict[str, str] = {
    "U": "Not detected at or above the reporting limit shown.",
    "J": "Estimated value: detected below the reporting limit.",
    "B": "Analyte also detected in the associated method blank.",
    "E": "Exceeds the calibration range; see the diluted re-analysis.",
    "D": "Result from a diluted re-analysis.",
}


@dataclass(frozen=True)
class PrintStyle:
    """How one laboratory prints a report; one report keeps one style throughout."""

    nondetect: NondetectStyle  # "U": 0.50 U, "ND": ND, "<RL": <0.50
    micro: str  # "µ" or "u": how the unit prefix micro is spelled (µg/L, ug/L)
    date_format: str
    work_order_label: str
    thousands: bool  # 1,250 rather than 1250
    method_style: str
    abbreviate: bool  # PCE rather than Tetrachloroethene
    table_look: TableLook
    font_size: float
    columns: int  # which column order and titles the results tables use (an index)
    report_date_label: str  # "Report Date", "Date Reported", "Date Issued"
    repeat_header: bool  # a table continued on the next page repeats its header

    def date(self, value: dt.date) -> str:
        return value.strftime(self.date_format)

    def unit(self, unit: str) -> str:
        return unit.replace("µ", self.micro)

    def number(self, value: Decimal) -> str:
        if self.thousands and value >= 1000:
            return format(value, ",f")
        return format(value, "f")


@dataclass(frozen=True)
class ReportInfo:
    """The report-level facts (the answer of report-metadata comes from these)."""

    laboratory: str
    lab_address: tuple[str, ...]
    lab_phone: str
    work_order: str
    client: str
    client_contact: str
    client_address: tuple[str, ...]
    project: str
    project_number: str
    report_date: dt.date
    received_date: dt.date
    status: Status
    revision: int  # 0 for an original report
    superseded_date: dt.date | None  # the date of the report a revision replaces
    revision_reason: str | None
    approver: str
    approver_title: str
    cooler_temperature: str  # °C at receipt, as printed in the narrative


@dataclass(frozen=True)
class Sample:
    sample_id: str
    lab_id: str
    matrix: MatrixName
    collected: dt.date
    collected_time: str  # "HH:MM"


@dataclass(frozen=True)
class Measurement:
    """One reported result. Numbers are Decimals holding exactly the digits printed."""

    sample: int  # index into LabReport.samples
    analyte: str  # as printed
    cas: str | None
    group: str
    method: str  # as printed
    unit: str  # in the catalogue's spelling (µ); PrintStyle.unit gives the printed form
    value: Decimal | None  # None for a non-detect
    reporting_limit: Decimal
    mdl: Decimal
    qualifier: str  # as printed: "" or a code ("U" for the U notation of a non-detect)
    dilution: int
    analysed: dt.date

    @property
    def nondetect(self) -> bool:
        return self.value is None


@dataclass(frozen=True)
class QCResult:
    """A quality-control line (method blank or laboratory control sample): never a sample record."""

    kind: Literal["blank", "lcs"]
    batch: str
    method: str
    analyte: str
    unit: str
    result: str  # as printed
    reporting_limit: str
    spike: str = ""
    recovery: str = ""
    limits: str = ""


@dataclass(frozen=True)
class LabReport:
    info: ReportInfo
    style: PrintStyle
    samples: tuple[Sample, ...]
    measurements: tuple[Measurement, ...]
    qc: tuple[QCResult, ...]
    layout: str

    def sampling_dates(self) -> tuple[dt.date, ...]:
        return tuple(sorted({s.collected for s in self.samples}))


@dataclass(frozen=True)
class TruthRecord:
    """One measurement record as a careful reader records it (see the module docstring)."""

    sample_id: str
    analyte: str
    cas: str | None
    result: float | None
    nondetect: bool
    unit: str
    qualifier: str | None
    reporting_limit: float | None


def truth_record(report: LabReport, measurement: Measurement) -> TruthRecord:
    style = report.style
    return TruthRecord(
        sample_id=report.samples[measurement.sample].sample_id,
        analyte=measurement.analyte,
        cas=measurement.cas,
        result=None if measurement.value is None else float(measurement.value),
        nondetect=measurement.nondetect,
        unit=style.unit(measurement.unit),
        qualifier=measurement.qualifier or None,
        reporting_limit=float(measurement.reporting_limit),
    )


def printed_result(style: PrintStyle, measurement: Measurement) -> tuple[str, str]:
    """(result cell, qualifier) as the report prints them."""
    if measurement.value is None:
        limit = style.number(measurement.reporting_limit)
        if style.nondetect == "U":
            return limit, measurement.qualifier
        if style.nondetect == "ND":
            return "ND", measurement.qualifier
        return f"<{limit}", measurement.qualifier
    return style.number(measurement.value), measurement.qualifier
