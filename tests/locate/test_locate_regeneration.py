"""Every Locate dataset regenerates byte for byte: core's generator command, run on each dataset
folder of each type, writes the pinned files (their SHA-256s and the manifest's entries) and the
fixtures again."""

from __future__ import annotations

import hashlib

import pytest
from click.testing import CliRunner

from envirobench import generator_command, read_manifest
from envirobench_locate.package import PACKAGE

DATASETS = [
    (cls.ID, folder) for cls in PACKAGE.types for folder in sorted(PACKAGE.layout(cls.ID).datasets)
]


def digests(directory):
    return {
        str(path.relative_to(directory)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


def test_every_type_has_a_dev_and_a_test_split():
    assert sorted(folder for _, folder in DATASETS) == sorted(
        ["synthetic-dev-v1", "synthetic-test-v1"] * len(PACKAGE.types)
    )


@pytest.mark.slow
@pytest.mark.parametrize(("type_id", "folder"), DATASETS)
def test_regenerating_reproduces_every_pinned_file_and_the_fixtures(tmp_path, type_id, folder):
    layout = PACKAGE.layout(type_id)
    output, fixtures = tmp_path / "dataset", tmp_path / "fixtures"
    result = CliRunner().invoke(
        generator_command(PACKAGE),
        [type_id, "--dataset", folder, "--output", str(output), "--fixtures", str(fixtures)],
    )
    assert result.exit_code == 0, result.output
    shipped = layout.dataset_dir(folder)
    assert digests(output) == digests(shipped)
    assert read_manifest(output).files == read_manifest(shipped).files
    assert digests(fixtures) == digests(layout.fixtures_dir(folder))
