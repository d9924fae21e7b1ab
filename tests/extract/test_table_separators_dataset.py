"""The table-separators generator refuses to write into a non-empty directory (the shipped dataset
regenerates byte for byte in tests/test_regeneration.py)."""

import pytest
from extract_labreport_kit import generate as run_generator

from envirobench import EnviroBenchError
from envirobench_extract.generate.table_separators import generate


def test_generating_into_a_non_empty_directory_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("keep me")
    result = run_generator("table-separators", "--dataset", "synthetic-v1", "--output", tmp_path)
    assert result.exit_code == 1
    assert "not empty" in result.output
    with pytest.raises(EnviroBenchError, match="non-empty"):
        generate(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_unknown_generators_are_a_usage_error():
    result = run_generator("table-separator")
    assert result.exit_code == 2


def test_an_unknown_dataset_folder_is_refused(tmp_path):
    result = run_generator("table-separators", "--dataset", "synthetic-v9", "--output", tmp_path)
    assert result.exit_code == 1 and "no dataset 'synthetic-v9'" in result.output
    with pytest.raises(EnviroBenchError, match="no dataset folder 'synthetic-v9'"):
        generate(tmp_path, "synthetic-v9")
    assert list(tmp_path.iterdir()) == []
