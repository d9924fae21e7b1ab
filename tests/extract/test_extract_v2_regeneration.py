"""Every Extract v2 dataset regenerates byte for byte: core's generator command, run on each v2
dataset folder, writes the pinned files (their SHA-256s and the manifest's entries) and the
fixtures again. Each helper adds the (type, folder) pairs of its own datasets to V2_DATASETS."""

from __future__ import annotations

import pytest
from regeneration_kit import assert_regenerates

from envirobench_extract.package import PACKAGE

V2_DATASETS = [
    ("document-extraction", "synthetic-dev-v2"),
    ("document-extraction", "synthetic-test-v2"),
    ("table-records", "synthetic-dev-v2"),
    ("table-records", "synthetic-test-v2"),
    ("table-separators", "synthetic-dev-v2"),
    ("table-separators", "synthetic-test-v2"),
    ("table-structure", "synthetic-dev-v2"),
    ("table-structure", "synthetic-test-v2"),
    ("table-cells", "synthetic-dev-v2"),
    ("table-cells", "synthetic-test-v2"),
    ("report-metadata", "synthetic-dev-v2"),
    ("report-metadata", "synthetic-test-v2"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("type_id", "folder"), V2_DATASETS)
def test_regenerating_reproduces_every_pinned_file_and_the_fixtures(tmp_path, type_id, folder):
    assert_regenerates(PACKAGE, type_id, folder, tmp_path)
