"""`envirobench schemas`: the JSON Schemas of every format (envirobench.schemas)."""

from __future__ import annotations

from pathlib import Path

import click

from ..schemas import all_schemas, write_schemas
from .common import CONTEXT_SETTINGS, echo_json, registry, user_errors


@click.command("schemas", context_settings=CONTEXT_SETTINGS)
@click.option("--output", type=click.Path(path_type=Path), metavar="DIR", help="Write the schema files into this directory (made when missing).")
@user_errors
def schemas_command(output) -> None:
    """JSON Schemas of every format, generated from the classes core uses.

    With --output, nothing is written unless every file can be (DIR and the folders in it
    directories, or not there yet)."""
    reg = registry()
    if output is None:
        echo_json(all_schemas(reg))
        return
    for path in write_schemas(reg, output):
        click.echo(str(path))
