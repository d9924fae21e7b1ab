"""The property-record reader's name patterns (reference solvers of missing-information and
cited-answers) on lines that do and do not name a grantee.

Under re.I every letter may start a word of a name, so a name pattern whose words could be split
at any letter backtracks exponentially on prose that never reaches "(grantee)": one dev document
held the solver for hours. The pattern's words are possessive now; the check runs in a child
process so a regression fails (at the timeout) instead of holding the suite."""

from __future__ import annotations

import subprocess
import sys

from envirobench_reference_adapter.property_records import BY_NAME, GRANTEE


def test_grantee_and_by_names_are_read():
    assert GRANTEE.search("conveyed to Acme Oil and Gas, L.L.C. (Grantee)").group(1).strip(" ,") == "Acme Oil and Gas, L.L.C."
    assert GRANTEE.search("to the City of Franklin, a municipal corporation (Grantee), and").group(1).strip(" ,") == "the City of Franklin, a municipal corporation"
    assert GRANTEE.search("granted to J. Smith-Jones (grantee) on 2001-01-02").group(1).strip(" ,") == "J. Smith-Jones"
    assert GRANTEE.search("to 123 Main LLC (grantee)") is None  # a name starts with a letter
    assert BY_NAME.search("Prepared by Hartwell Environmental Services under contract").group(1).strip(" ,") == "Hartwell Environmental Services"


def test_prose_without_a_grantee_is_refused_without_backtracking_forever():
    prose = "the release was reported to the state department of environmental quality and " * 12
    code = f"from envirobench_reference_adapter.property_records import GRANTEE; print(GRANTEE.search({prose!r}))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "None", done.stderr
