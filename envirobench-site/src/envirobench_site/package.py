"""The Site category's benchmark types: the one list of them.

Everything else about a type is found from this list by convention (see
envirobench.authoring), except where its datasets are registered from: the site records
ship once and each type's datasets are materialised from them on first use
(`shipping.materialised`, given as the package's `materialise`). The package's entry point names
PACKAGE (core registers its types, datasets and viewers from it) and the generator command
(`python -m envirobench_site.generate`) reads it too.
"""

from __future__ import annotations

from envirobench import BenchmarkPackage

from .exceedance_summary import ExceedanceSummary
from .recognized_conditions import RecognizedConditions
from .shipping import materialised
from .site_results import SiteResults
from .site_timeline import SiteTimeline

PACKAGE = BenchmarkPackage(
    "envirobench_site",
    types=(SiteResults, ExceedanceSummary, RecognizedConditions, SiteTimeline),
    materialise=materialised,
)
