"""The shipped `table-separators` dataset is exactly what its seeded generator writes."""

import pytest
from click.testing import CliRunner

from envirobench.datasets import read_manifest
from envirobench.errors import EnviroBenchError
from envirobench_extract.generate.__main__ import main
from envirobench_extract.generate.table_separators import generate
from envirobench_extract.table_separators import DATASET_DIR, FIXTURES_DIR


@pytest.mark.slow
def test_regenerating_reproduces_every_pinned_file_and_the_fixtures(tmp_path):
    output, fixtures = tmp_path / "dataset", tmp_path / "fixtures"
    result = CliRunner().invoke(
        main, ["table-separators", "--output", str(output), "--fixtures", str(fixtures)]
    )
    assert result.exit_code == 0, result.output

    shipped = read_manifest(DATASET_DIR)
    regenerated = read_manifest(output)
    assert {f.path: f.sha256 for f in regenerated.files} == {
        f.path: f.sha256 for f in shipped.files
    }
    assert (output / "manifest.json").read_bytes() == (DATASET_DIR / "manifest.json").read_bytes()
    for name in ("correct.json", "wrong.json"):
        assert (fixtures / name).read_bytes() == (FIXTURES_DIR / name).read_bytes()


def test_generating_into_a_non_empty_directory_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("keep me")
    result = CliRunner().invoke(main, ["table-separators", "--output", str(tmp_path)])
    assert result.exit_code == 1
    assert "not empty" in result.output
    with pytest.raises(EnviroBenchError, match="non-empty"):
        generate(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_unknown_generators_are_a_usage_error():
    result = CliRunner().invoke(main, ["table-separator"])
    assert result.exit_code == 2
