"""Regenerating the dataset and its fixtures reproduces every shipped byte."""

import subprocess
import sys

from envirobench import read_manifest

from {{ cookiecutter.package_name }}.generate.well_ids import generate, write_fixtures
from {{ cookiecutter.package_name }}.package import PACKAGE
from {{ cookiecutter.package_name }}.well_ids import TYPE_ID

LAYOUT = PACKAGE.layout(TYPE_ID)


def test_regenerating_reproduces_the_shipped_dataset(tmp_path):
    for folder in LAYOUT.datasets:
        dataset, fixtures = tmp_path / folder / "dataset", tmp_path / folder / "fixtures"
        generate(dataset, folder)
        write_fixtures(dataset, fixtures)
        shipped, fresh = read_manifest(LAYOUT.dataset_dir(folder)), read_manifest(dataset)
        assert fresh == shipped, f"the generator and the shipped dataset differ; run: python -m {{ cookiecutter.package_name }}.generate {TYPE_ID}"
        for name in ("correct.json", "wrong.json"):
            assert (fixtures / name).read_bytes() == (LAYOUT.fixtures_dir(folder) / name).read_bytes(), name


def test_the_generator_command_writes_a_dataset_and_its_fixtures(tmp_path):
    command = [sys.executable, "-m", "{{ cookiecutter.package_name }}.generate", TYPE_ID, "--output", str(tmp_path / "dataset"), "--fixtures", str(tmp_path / "fixtures")]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert read_manifest(tmp_path / "dataset") == read_manifest(LAYOUT.dataset_dir())
    assert sorted(p.name for p in (tmp_path / "fixtures").iterdir()) == ["correct.json", "wrong.json"]
