"""The package layout's earlier import path: BenchmarkPackage, TypeLayout and the file-place
convention now live in envirobench.authoring (with the rest of what a plugin author needs), and
are re-exported here for the harness modules and plugins that import them from here."""

from .authoring import (
    BENCHMARKS_DIR,
    DATASETS_DIR,
    FIXTURE_FILES,
    FIXTURES_DIR,
    GENERATE_PACKAGE,
    PROFILE_FILE,
    VIEWERS_DIR,
    BenchmarkPackage,
    TypeLayout,
    fixtures_dir_for,
    split_of,
)

__all__ = [
    "BENCHMARKS_DIR",
    "DATASETS_DIR",
    "FIXTURES_DIR",
    "FIXTURE_FILES",
    "GENERATE_PACKAGE",
    "PROFILE_FILE",
    "VIEWERS_DIR",
    "BenchmarkPackage",
    "TypeLayout",
    "fixtures_dir_for",
    "split_of",
]
