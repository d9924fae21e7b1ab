"""The Site category's benchmark types: the one list of them.

Everything else about a type is found from this list by convention (see
envirobench.BenchmarkPackage), except where its datasets are registered from: the site records
ship once and each type's datasets are materialised from them on first use (shipping.py,
plugin.py). The plugin hooks (plugin.py) and the generator command
(`python -m envirobench_site.generate`) both read this list.
"""

from __future__ import annotations

from envirobench import BenchmarkPackage

from .exceedance_summary import ExceedanceSummary
from .recognized_conditions import RecognizedConditions
from .site_results import SiteResults
from .site_timeline import SiteTimeline

PACKAGE = BenchmarkPackage(
    "envirobench_site",
    types=(SiteResults, ExceedanceSummary, RecognizedConditions, SiteTimeline),
)
