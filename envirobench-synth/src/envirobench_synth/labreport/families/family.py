"""The lab-report families (`Family`: skeleton, columns, conventions and traps of a laboratory's
report), `FAMILIES` and the families of a split.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...vocabulary import (
    Split,
)

Skeleton = Literal["sample-pages", "long-table", "sample-columns"]

# Every trap a report can carry, counted per dataset (rows or reports that show it).
TRAPS: tuple[str, ...] = (
    "qc-surrogate",  # surrogate %REC rows under each sample (inline)
    "qc-matrix-spike",  # MS/MSD runs with IDs such as "MW-01 MS"
    "qc-lab-duplicate",  # laboratory duplicate "MW-01 DUP"
    "qc-lcs",  # LCS/LCSD
    "qc-method-blank",  # method blank
    "qc-inline",  # laboratory QC printed inside the results pages
    "field-duplicate",  # blind field duplicate DUP-1: records
    "field-blank",  # trip, equipment, rinsate blanks: records
    "reanalysis-dl",  # a DL run; the E/D pair's reportable result
    "reanalysis-re",  # an RE run reported in place of the original
    "e-flag",  # over the calibration range at dilution 1
    "nondetect-at-mdl",  # a non-detect printed at the MDL, the RL printed beside it
    "nondetect-at-rl",  # a non-detect printed at the RL, the MDL printed beside it
    "percent-solids",  # % solids / % moisture rows
    "dry-weight",  # soil results on a dry-weight basis
    "leachate",  # TCLP/SPLP leachate results in mg/L
    "dissolved-metals",  # total and dissolved metals of one sample
    "revised-value",  # a value changed by a revision
    "original-pages-appended",  # superseded pages behind a revised report
    "rejected-r",  # a result flagged R
    "narrative-invalidated",  # a result the narrative declares invalid
    "not-result-cell",  # NA, --, NR cells
    "screening-level",  # a screening-level column, exceedances shaded
    "id-with-date",  # a date inside a sample ID
    "id-padding",  # MW-3 in the summary, MW-03 on the results pages
    "scientific-notation",
    "decimal-comma",
    "combined-flag",  # J,B / JB
    "validator-flag",  # UJ, J+, J-, JN
    "draft-no-watermark",  # a draft that says so only in words
    "status-footer-only",  # the report status printed only in the footer
    "stapled",  # several reports in one PDF
)

CAL_FACTOR = 100  # the calibration range tops out at this many reporting limits (dilution 1)


@dataclass(frozen=True)
class Family:
    name: str
    split: Split
    skeleton: Skeleton
    modelled_on: str
    matrices: tuple[str, ...]  # drawn from, repeats weight
    samples: tuple[int, int]  # field samples per report
    analytes: tuple[int, int]  # analytes per method section
    sections: tuple[int, int]  # method sections per report
    qc_inline: float  # share of reports printing laboratory QC inside the results pages
    mdl_column: bool
    nondetect: tuple[str, ...]  # "U", "<", "ND"
    date_formats: tuple[str, ...]
    decimal_comma: float
    scientific: float
    validator_flags: bool
    screening: float  # share of reports with a screening-level column (sample-columns only)
    header: str  # "rule", "box", "none"
    footer: str  # "pages", "lab-pages", "status"
    units_in_header: bool  # the unit printed in the section heading, not on every row
    look: tuple[str, ...]


FAMILIES: tuple[Family, ...] = (
    Family(
        "dev-sample-pages",
        "dev",
        "sample-pages",
        "the per-sample 'Client Sample Results' pages of large US commercial laboratories: one "
        "page per sample and method, MDL and RL beside every result, surrogate recoveries under "
        "each method's results, QC summaries on their own pages",
        ("groundwater", "groundwater", "soil"),
        (2, 3),
        (4, 6),
        (2, 2),
        0.5,
        True,
        ("U", "<"),
        ("%m/%d/%Y", "%m/%d/%y"),
        0.15,
        0.15,
        False,
        0.0,
        "rule",
        "pages",
        False,
        ("grid", "rows"),
    ),
    Family(
        "dev-long-table",
        "dev",
        "long-table",
        "regional laboratories' one long results table: a sample column, the rows grouped by "
        "method under section headings, QC (blank, LCS, MS/MSD, duplicate) listed after each "
        "method's samples",
        ("soil", "groundwater"),
        (2, 4),
        (4, 6),
        (2, 2),
        0.7,
        False,
        ("<", "ND"),
        ("%d-%b-%Y", "%Y-%m-%d"),
        0.25,
        0.1,
        True,
        0.0,
        "box",
        "lab-pages",
        False,
        ("header-rule", "zebra"),
    ),
    Family(
        "dev-summary-columns",
        "dev",
        "sample-columns",
        "summary tables of consultants' data packages and state-program reports: samples as "
        "columns under a multi-row header (sample, lab ID, date), analytes as rows grouped by "
        "method, a screening-level column with exceedances shaded",
        ("groundwater", "soil"),
        (3, 5),
        (4, 7),
        (2, 2),
        0.3,
        False,
        ("<", "U"),
        ("%m/%d/%Y", "%d-%b-%Y"),
        0.15,
        0.2,
        True,
        0.6,
        "rule",
        "status",
        True,
        ("grid", "header-rule"),
    ),
    Family(
        "test-form-one",
        "test",
        "sample-pages",
        "CLP-style Form I data packages after data validation: one page per sample run under a "
        "boxed page header, validator flags (UJ, J+, J-, JN, R), MS/MSD runs printed as sample "
        "pages of their own",
        ("groundwater", "soil", "soil"),
        (2, 3),
        (4, 6),
        (2, 2),
        0.4,
        True,
        ("U",),
        ("%Y-%m-%d", "%B %d, %Y"),
        0.1,
        0.35,
        True,
        0.0,
        "box",
        "status",
        False,
        ("grid", "zebra"),
    ),
    Family(
        "test-method-sections",
        "test",
        "long-table",
        "European accredited-laboratory test reports: decimal commas, day-first dates, "
        "determinands grouped by method with the unit only in the section heading",
        ("soil", "groundwater"),
        (2, 4),
        (4, 6),
        (2, 2),
        0.5,
        True,
        ("<",),
        ("%d.%m.%Y", "%d/%m/%Y"),
        0.7,
        0.15,
        False,
        0.0,
        "none",
        "lab-pages",
        True,
        ("rows", "header-rule"),
    ),
    Family(
        "test-wide-summary",
        "test",
        "sample-columns",
        "data summary reports of public-sector laboratories: samples as columns with the "
        "sampling date in the header, the unit on every row, 'not analyzed' cells, laboratory "
        "QC (duplicates, spikes, blanks) as extra columns",
        ("groundwater", "soil"),
        (3, 5),
        (4, 7),
        (2, 2),
        0.6,
        False,
        ("U", "<"),
        ("%d-%b-%y", "%m/%d/%Y"),
        0.3,
        0.3,
        True,
        0.5,
        "none",
        "pages",
        False,
        ("rows", "zebra"),
    ),
)

FAMILY_BY_NAME = {f.name: f for f in FAMILIES}


def families_of(split: Split) -> tuple[Family, ...]:
    return tuple(f for f in FAMILIES if f.split == split)
