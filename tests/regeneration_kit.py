"""Regenerating a shipped dataset byte for byte, the one check every category's tests make.

`assert_regenerates(package, type_id, folder, tmp_path)` runs core's generator command for the
package (what `python -m PACKAGE.generate TYPE --dataset FOLDER` runs) into a temporary directory
and asserts that it writes every pinned file (each file's SHA-256, the manifest's entries and the
manifest itself) and the prediction fixtures again, exactly as shipped.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from click.testing import CliRunner

from envirobench import BenchmarkPackage, generator_command, read_manifest


def digests(directory: Path) -> dict[str, str]:
    return {
        str(path.relative_to(directory)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


def assert_regenerates(
    package: BenchmarkPackage, type_id: str, folder: str, tmp_path: Path
) -> None:
    layout = package.layout(type_id)
    output, fixtures = tmp_path / "dataset", tmp_path / "fixtures"
    result = CliRunner().invoke(
        generator_command(package),
        [type_id, "--dataset", folder, "--output", str(output), "--fixtures", str(fixtures)],
    )
    assert result.exit_code == 0, result.output
    shipped = layout.dataset_dir(folder)
    assert digests(output) == digests(shipped)
    assert read_manifest(output).files == read_manifest(shipped).files
    assert digests(fixtures) == digests(layout.fixtures_dir(folder))
