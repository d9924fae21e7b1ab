"""A site's whole document record, read once: the engine of the four site-tier solvers
(`site-results`, `exceedance-summary`, `recognized-conditions`, `site-timeline`).

One pipeline over one record, in the order of its stages (each a module of this package, each
using only those before it):

- `case`: the case input every site type shares (the type's record, as read here);
- `pages`: reading every page of every volume once (text layer and OCR), cutting the volumes
  into documents;
- `vocabulary`: dates, sampling points, depths, matrices, units and the site's analytes;
- `printings`: every printing of a result, from laboratory results tables and from report
  tables with the analytes as columns;
- `prose`: corrections and rejections stated in sentences;
- `reconciliation`: the governing value of each key by the published reprint rules.

This face names what the solvers and tests use, so they import `site_record` alone.

Weaknesses: a sampling point whose prefix is not among the usual kinds is not read; a sample ID
that hides its location (DUP-1, a blind duplicate) gives no record (its parent does); dates
printed day-first are read day-first only when the document shows a day above 12 in that
position; OCR misreads pass through; a correction sentence that puts the wrong value last is
misread; a report table that wraps a header over two lines is read from its analyte line only.
"""

from __future__ import annotations

from .case import SiteCase
from .pages import SitePage, read_site
from .printings import Document, sample_dates
from .reconciliation import (
    SiteResult,
    cas_numbers,
    read_results,
    reconcile,
    result_json,
    site_results,
)
from .vocabulary import compact_depth, find_dates, fold, id_date, matrix_by_unit, point_of, unit_key

__all__ = [
    "Document",
    "SiteCase",
    "SitePage",
    "SiteResult",
    "cas_numbers",
    "compact_depth",
    "find_dates",
    "fold",
    "id_date",
    "matrix_by_unit",
    "point_of",
    "read_results",
    "read_site",
    "reconcile",
    "result_json",
    "sample_dates",
    "site_results",
    "unit_key",
]
