"""The Research category's benchmark types: the one list of them.

Everything else about a type is found from this list by convention (see
envirobench.authoring): its datasets (the type module's DATASETS, each in
`benchmarks/<type ID>/datasets/<folder>/`), their prediction fixtures
(`benchmarks/<type ID>/fixtures/<folder>/`), its saved profile (`benchmarks/<type ID>/bench.json`),
its generator (`generate/<type module>.py`) and the viewers (`viewers/<name>.js`). The package's entry point names
PACKAGE (core registers its types, datasets and viewers from it) and the generator command
(`python -m envirobench_research.generate`) reads it too.
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
