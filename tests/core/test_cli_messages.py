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
