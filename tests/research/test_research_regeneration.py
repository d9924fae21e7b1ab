"""Every Research dataset regenerates byte for byte: core's generator command, run on each dataset
folder of each type, writes the pinned files (their SHA-256s and the manifest's entries) and the
fixtures again."""

from __future__ import annotations

import pytest
from regeneration_kit import assert_regenerates

from envirobench_research.package import PACKAGE

DATASETS = [
    (cls.ID, folder) for cls in PACKAGE.types for folder in sorted(PACKAGE.layout(cls.ID).datasets)
]


def test_every_type_has_a_dev_and_a_test_split():
    assert sorted(folder for _, folder in DATASETS) == sorted(
        ["synthetic-dev-v1", "synthetic-test-v1"] * len(PACKAGE.types)
    )


@pytest.mark.slow
@pytest.mark.parametrize(("type_id", "folder"), DATASETS)
def test_regenerating_reproduces_every_pinned_file_and_the_fixtures(tmp_path, type_id, folder):
    assert_regenerates(PACKAGE, type_id, folder, tmp_path)
