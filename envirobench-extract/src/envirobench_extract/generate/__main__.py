"""`python -m envirobench_extract.generate NAME [--output DIR] [--fixtures DIR]`, NAME one of GENERATORS.

Without --output it regenerates the shipped dataset in place, and its fixtures: the new files
are written next to it and swapped in, so an interrupted run leaves the old dataset whole. Any
other output directory must be absent or empty.
"""

from __future__ import annotations

import importlib
import shutil
from collections.abc import Callable
from pathlib import Path

import click

from envirobench.errors import EnviroBenchError

from . import GENERATORS, MODULES


@click.command()
@click.argument("name", type=click.Choice(GENERATORS))
@click.option(
    "--output",
    type=click.Path(file_okay=False, path_type=Path),
    help="Where to write the dataset [default: the shipped dataset directory].",
)
@click.option(
    "--fixtures",
    type=click.Path(file_okay=False, path_type=Path),
    help="Also write the prediction fixtures here [default: the shipped fixtures directory "
    "when regenerating the shipped dataset].",
)
def main(name: str, output: Path | None, fixtures: Path | None) -> None:
    """Generate the synthetic dataset NAME."""
    # NAME is validated by click and selects the type, its generator and its fixtures.
    type_module, generator_module, fixtures_module = (
        importlib.import_module(f"envirobench_extract.{m}") for m in MODULES[name]
    )
    dataset_dir, fixtures_dir = type_module.DATASET_DIR, type_module.FIXTURES_DIR
    generate, write_fixtures = generator_module.generate, fixtures_module.write_fixtures

    try:
        if output is None or output.resolve() == dataset_dir.resolve():
            target = dataset_dir
            _regenerate_in_place(target, generate)
            fixtures = fixtures or fixtures_dir
        else:
            target = output
            if target.exists() and any(target.iterdir()):
                raise click.ClickException(
                    f"{target} is not empty; generate into a new or empty directory"
                )
            manifest = generate(target)
            click.echo(f"wrote {len(manifest.files)} files to {target}", err=True)
        if fixtures is not None:
            write_fixtures(target, fixtures)
            click.echo(f"wrote correct.json and wrong.json to {fixtures}", err=True)
    except EnviroBenchError as exc:
        raise click.ClickException(str(exc)) from None


def _regenerate_in_place(directory: Path, generate: Callable[[Path], object]) -> None:
    fresh = directory.with_name(f".{directory.name}.new")
    stale = directory.with_name(f".{directory.name}.old")
    for leftover in (fresh, stale):  # from an earlier interrupted run
        shutil.rmtree(leftover, ignore_errors=True)
    try:
        generate(fresh)
        if directory.exists():
            directory.rename(stale)
        fresh.rename(directory)
    finally:
        shutil.rmtree(fresh, ignore_errors=True)
        shutil.rmtree(stale, ignore_errors=True)
    click.echo(f"regenerated {directory}", err=True)


if __name__ == "__main__":
    main()
