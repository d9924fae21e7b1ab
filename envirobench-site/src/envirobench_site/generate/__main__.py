"""`python -m envirobench_site.generate TYPE|all [--dataset FOLDER] [--output DIR] [--fixtures DIR]`.

With --output: core's behaviour, the whole dataset of one type (volumes included) into DIR, and
its fixtures into --fixtures. Without it: the shipped layout is regenerated in place (ship.py): the
site records once under `records/<split>/`, each type's manifest, cases and answers under
`benchmarks/<type>/datasets/<folder>/`, and the fixtures.
"""

from __future__ import annotations

from pathlib import Path

import click

from envirobench import EnviroBenchError

from .ship import PACKAGE, generate_one, ship


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("type_id", metavar="TYPE", type=click.Choice(["all", *sorted(PACKAGE.layouts)]))
@click.option(
    "--dataset", "folder", metavar="FOLDER", help="One dataset folder [default: every one]."
)
@click.option(
    "--output",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write one whole dataset here instead.",
)
@click.option(
    "--fixtures",
    type=click.Path(file_okay=False, path_type=Path),
    help="With --output: write correct.json and wrong.json here.",
)
def main(type_id: str, folder: str | None, output: Path | None, fixtures: Path | None) -> None:
    """Generate the Site category's datasets."""
    try:
        if output is not None:
            if type_id == "all":
                raise click.UsageError("--output writes one type's dataset; name the type")
            generate_one(type_id, folder, output, fixtures)
            click.echo(f"wrote {type_id} to {output}", err=True)
            return
        if fixtures is not None:
            raise click.UsageError("--fixtures goes with --output")
        types = sorted(PACKAGE.layouts) if type_id == "all" else [type_id]
        for line in ship(types, folder):
            click.echo(line, err=True)
    except EnviroBenchError as exc:
        raise click.ClickException(str(exc)) from None


if __name__ == "__main__":
    main(prog_name="python -m envirobench_site.generate")
