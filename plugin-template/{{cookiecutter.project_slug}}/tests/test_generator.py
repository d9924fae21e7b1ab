"""Regenerating each dataset (DATASETS in well_ids.py) and its fixtures reproduces every shipped
byte, and each dataset holds texts of its own."""

import subprocess
import sys

import pytest
from envirobench import read_manifest

from {{ cookiecutter.package_name }}.generate.well_ids import FIXTURES, case_ids, generate, make_case
from {{ cookiecutter.package_name }}.package import PACKAGE
from {{ cookiecutter.package_name }}.well_ids import DATASETS, TYPE_ID

LAYOUT = PACKAGE.layout(TYPE_ID)


@pytest.mark.parametrize("folder", sorted(DATASETS))
def test_regenerating_reproduces_the_shipped_dataset(tmp_path, folder):
    dataset, fixtures = tmp_path / "dataset", tmp_path / "fixtures"
    generate(dataset, folder)
    FIXTURES.write(dataset, fixtures)
    shipped, fresh = read_manifest(LAYOUT.dataset_dir(folder)), read_manifest(dataset)
    assert fresh == shipped, f"the generator and the shipped dataset differ; run: python -m {{ cookiecutter.package_name }}.generate {TYPE_ID} --dataset {folder}"
    for name in ("correct.json", "wrong.json"):
        assert (fixtures / name).read_bytes() == (LAYOUT.fixtures_dir(folder) / name).read_bytes(), name


@pytest.mark.parametrize("folder", sorted(DATASETS))
def test_the_generator_command_writes_a_dataset_and_its_fixtures(tmp_path, folder):
    command = [sys.executable, "-m", "{{ cookiecutter.package_name }}.generate", TYPE_ID, "--dataset", folder,
               "--output", str(tmp_path / "dataset"), "--fixtures", str(tmp_path / "fixtures")]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert read_manifest(tmp_path / "dataset") == read_manifest(LAYOUT.dataset_dir(folder))
    assert sorted(p.name for p in (tmp_path / "fixtures").iterdir()) == ["correct.json", "wrong.json"]


def test_each_dataset_holds_its_own_texts():
    """The generator is seeded by the dataset's folder: two datasets (and one not yet added, say
    a test split) never share a text, though they share case IDs."""
    folders = [*DATASETS, "another-split"]
    texts = {folder: {make_case(case_id, category, folder)[0] for case_id, category in case_ids()} for folder in folders}
    for i, a in enumerate(folders):
        for b in folders[i + 1 :]:
            assert not texts[a] & texts[b], (a, b)
