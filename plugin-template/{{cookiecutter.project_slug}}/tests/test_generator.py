"""Regenerating the dataset and its fixtures reproduces every shipped byte."""

from envirobench.datasets import read_manifest

from {{ cookiecutter.package_name }}.generate.well_ids import generate, write_fixtures
from {{ cookiecutter.package_name }}.well_ids import DATASET_DIR, FIXTURES_DIR


def test_regenerating_reproduces_the_shipped_dataset(tmp_path):
    generate(tmp_path / "dataset")
    write_fixtures(tmp_path / "fixtures")
    shipped, fresh = read_manifest(DATASET_DIR), read_manifest(tmp_path / "dataset")
    assert fresh == shipped, "the generator and the shipped dataset differ; run: python -m {{ cookiecutter.package_name }}.generate"
    for name in ("correct.json", "wrong.json"):
        assert (tmp_path / "fixtures" / name).read_bytes() == (FIXTURES_DIR / name).read_bytes(), name
