"""The shipped `table-separators` dataset is exactly what its seeded generator writes."""

import pytest
from click.testing import CliRunner
from extract_labreport_kit import assert_regenerates

from envirobench.errors import EnviroBenchError
from envirobench_extract import table_separators
from envirobench_extract.generate.__main__ import main
from envirobench_extract.generate.table_separators import generate


@pytest.mark.slow
def test_regenerating_reproduces_every_pinned_file_and_the_fixtures(tmp_path):
    assert_regenerates(table_separators, tmp_path)


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
