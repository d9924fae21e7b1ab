"""How bin/test's main step hands files out to the xdist workers (tests/xdist_order.py): the long
files first, in the listed order, each test of OWN_UNITS a unit of its own; nothing is dropped."""

from __future__ import annotations

from pathlib import Path

from xdist_order import LONG_FIRST, OWN_UNITS, long_first

REPO = Path(__file__).resolve().parents[1]


def test_every_listed_file_exists():
    # A renamed or removed file would silently fall back to xdist's order.
    assert [p for p in (*LONG_FIRST, *OWN_UNITS) if not (REPO / p).is_file()] == []


def test_long_files_first_in_their_order_then_the_others_most_tests_first():
    nodeids = ["tests/a.py::t1", "tests/b.py::t1", "tests/b.py::t2", LONG_FIRST[1] + "::t", "tests/a.py::t2", "tests/c.py::t1",
               LONG_FIRST[0] + "::t1", "tests/b.py::t3", LONG_FIRST[0] + "::t2"]

    def scope(nodeid):
        return nodeid.split("::")[0]

    ordered = long_first(nodeids, scope)
    assert sorted(ordered) == sorted(nodeids)
    assert ordered == [LONG_FIRST[0] + "::t1", LONG_FIRST[0] + "::t2", LONG_FIRST[1] + "::t",
                       "tests/b.py::t1", "tests/b.py::t2", "tests/b.py::t3", "tests/a.py::t1", "tests/a.py::t2", "tests/c.py::t1"]
