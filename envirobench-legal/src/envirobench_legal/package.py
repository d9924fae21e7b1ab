"""The Legal category's benchmark types: the one list of them.

Everything else about a type is found from this list by convention (see
envirobench.authoring): its datasets (the type module's DATASETS, each in
`benchmarks/<type ID>/datasets/<folder>/`), their prediction fixtures
(`benchmarks/<type ID>/fixtures/<folder>/`), its saved profile (`benchmarks/<type ID>/bench.json`)
and its generator (`generate/<type module>.py`). The package's entry point names
PACKAGE (core registers its types, datasets and viewers from it) and the generator command
(`python -m envirobench_legal.generate`) reads it too.
"""

from __future__ import annotations

from envirobench import BenchmarkPackage

from .chain_of_title import ChainOfTitle
from .indemnity_terms import IndemnityTerms
from .instrument_execution import InstrumentExecution
from .party_roles import PartyRoles
from .use_limitations import UseLimitations

PACKAGE = BenchmarkPackage("envirobench_legal", types=(InstrumentExecution, IndemnityTerms, PartyRoles, ChainOfTitle, UseLimitations))
