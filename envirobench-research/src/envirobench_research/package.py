"""The Research category's benchmark types: the one list of them, from which core and the generator
command find everything else about each type (envirobench.authoring, "A package's types").
"""

from __future__ import annotations

from envirobench import BenchmarkPackage

from .cited_answers import CitedAnswers
from .database_listings import DatabaseListings
from .historical_use import HistoricalUse
from .missing_information import MissingInformation
from .regulatory_standards import RegulatoryStandards

PACKAGE = BenchmarkPackage(
    "envirobench_research",
    types=(
        MissingInformation,
        CitedAnswers,
        DatabaseListings,
        HistoricalUse,
        RegulatoryStandards,
    ),
)
