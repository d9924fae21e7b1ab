"""How bin/test's main step (--dist loadfile) hands the test files out to pytest-xdist workers.

xdist makes each file a work unit and hands the units out largest (most tests) first, so the
long end-to-end files, which have few tests, came last and one worker ran them alone at the end.
Here those files are handed out first, in LONG_FIRST's order, and each test of OWN_UNITS is a
unit of its own: those tests are independent jobs (a virtual environment, pip and a conformance
run per category, which share only the session's `dist` build that tests/e2e/conftest.py makes
once for all workers; a dataset's regeneration).
Every other file keeps xdist's own rule. Only the order and the grouping change, never a test.
"""

from __future__ import annotations

from xdist.scheduler import LoadFileScheduling

# tests/test_regeneration.py: one check per dataset, each independent, and all of them run again
# when a file every generator reads changes; as one unit they would all go to one worker.
OWN_UNITS = ("tests/e2e/test_dist.py", "tests/test_regeneration.py")
# The longest first (seconds with -n 1, niced, on a 2-core machine: test_dist.py 213 in 8 tests,
# the leaderboards 73, table-separators' profile 51, ...), except that the leaderboards go before
# test_dist.py: while one worker runs them, another makes the `dist` build the others then find.
LONG_FIRST = (
    "tests/e2e/test_category_leaderboards.py",
    "tests/e2e/test_dist.py",
    "tests/extract/test_table_separators_bench.py",
    "tests/e2e/test_promote_from_wheel.py",
    "tests/e2e/test_slurm.py",
    "tests/test_regeneration.py",
    "tests/core/test_shards.py",
    "tests/e2e/test_benchmark_scripts.py",
    "tests/locate/test_page_thumbnails.py",
    "tests/locate/test_reference_page_locate.py",
    "tests/reference_adapter/test_reference_extract_end_to_end.py",
)


class LongFirstScheduling(LoadFileScheduling):
    """xdist's loadfile, with the LONG_FIRST files handed out first and OWN_UNITS split by test."""

    def _split_scope(self, nodeid: str) -> str:
        return nodeid if nodeid.split("::", 1)[0] in OWN_UNITS else super()._split_scope(nodeid)

    def schedule(self) -> None:
        if self.collection is None:  # the first call: order the units before xdist queues them
            self.config.option.loadscopereorder = False
            for node, collection in self.registered_collections.items():
                self.registered_collections[node] = long_first(collection, self._split_scope)
        super().schedule()


def long_first(nodeids: list[str], scope) -> list[str]:
    """The test IDs with the LONG_FIRST files' first, in that order, then the other files' by
    their number of work units' tests, most first (xdist's own order), each stable."""
    sizes: dict[str, int] = {}
    for nodeid in nodeids:
        sizes[scope(nodeid)] = sizes.get(scope(nodeid), 0) + 1

    def rank(nodeid: str) -> tuple[int, int]:
        path = nodeid.split("::", 1)[0]
        return (LONG_FIRST.index(path), 0) if path in LONG_FIRST else (len(LONG_FIRST), -sizes[scope(nodeid)])

    return sorted(nodeids, key=rank)
