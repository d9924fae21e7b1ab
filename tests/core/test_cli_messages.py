"""What a new user sees when something they need is missing: a one-line hint, never a traceback."""

from __future__ import annotations

from click.testing import CliRunner

from envirobench.cli import main
from envirobench.stores import s3


def test_an_s3_store_without_boto3_says_how_to_install_it(monkeypatch, use_registry, toy_registry):
    monkeypatch.setattr(s3, "boto3", None)  # as on an install without the [s3] extra
    use_registry(toy_registry)
    for command in (["datasets", "pull", "test/count-words-v1", "--store", "s3://bucket/prefix"],
                    ["datasets", "push", "test/count-words-v1", "--store", "s3://bucket/prefix"]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 1, result.output
        assert "s3:// stores need boto3, which is not installed: pip install 'envirobench-core[s3]'" in result.stderr
        assert "Traceback" not in result.output


def test_schemas_output_in_the_way_is_one_line_and_writes_nothing(tmp_path, monkeypatch, use_registry, toy_registry):
    use_registry(toy_registry)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a-file").write_text("mine\n")
    (tmp_path / "to-a-file").symlink_to("a-file")
    (tmp_path / "dangling").symlink_to("nowhere")
    (tmp_path / "taken" / "run.schema.json").mkdir(parents=True)  # a directory where a schema goes
    (tmp_path / "blocked").mkdir()
    (tmp_path / "blocked" / "count-words").write_text("")  # a file where a folder of schemas goes
    cases = [
        ("a-file", "a-file is a file, not a directory"),
        ("a-file/sub", "a-file is a file, not a directory"),
        ("to-a-file", "to-a-file is a symbolic link to a file, not a directory"),
        ("dangling", "dangling is a broken symbolic link, not a directory"),
        ("taken", "taken/run.schema.json is a directory, where a schema file goes"),
        ("blocked", "blocked/count-words is a file, not a directory"),
    ]
    before = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*"))
    for output, fragment in cases:
        result = CliRunner().invoke(main, ["schemas", "--output", output])
        assert result.exit_code == 1, result.output
        assert result.output.splitlines() == [f"Error: --output {output}: {fragment}; nothing was written"]
    assert sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*")) == before
    assert (tmp_path / "a-file").read_text() == "mine\n"
    result = CliRunner().invoke(main, ["schemas", "--output", "fresh"])
    assert result.exit_code == 0 and (tmp_path / "fresh" / "count-words" / "prediction.schema.json").is_file()
