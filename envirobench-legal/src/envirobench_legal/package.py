"""The Legal category's benchmark types: the one list of them, from which core and the generator
command find everything else about each type (envirobench.authoring, "A package's types").
"""

from __future__ import annotations

from envirobench import BenchmarkPackage

from .chain_of_title import ChainOfTitle
from .indemnity_terms import IndemnityTerms
from .instrument_execution import InstrumentExecution
from .party_roles import PartyRoles
from .use_limitations import UseLimitations

PACKAGE = BenchmarkPackage("envirobench_legal", types=(InstrumentExecution, IndemnityTerms, PartyRoles, ChainOfTitle, UseLimitations))
