"""`envirobench plugins new NAME`: a private plugin project from the plugin template."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from .. import __version__
from ..scaffold import make_context, render_project, slug_for
from .common import CONTEXT_SETTINGS, echo_json, key_values, user_errors


@click.command("new", context_settings=CONTEXT_SETTINGS)
@click.argument("name")
@click.option(
    "--output", type=click.Path(path_type=Path, file_okay=False), metavar="DIR",
    help="The project directory to create (default: ./NAME). It must not exist, or be empty.",
)
@click.option(
    "--set", "sets", multiple=True, metavar="KEY=VALUE",
    help="Set a template variable of plugin-template/cookiecutter.json (e.g. type_id=acme-gw-wells); repeatable.",
)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output: the variables and the files written.")
@user_errors
def plugins_new(name: str, output: Path | None, sets: tuple[str, ...], as_json: bool) -> None:
    """Create a private plugin NAME (e.g. acme-bench) from the plugin template.

    It holds one example benchmark type with its seeded generator, its private dataset and
    prediction fixtures, a viewer, an example adapter, a saved profile (bench.json) and tests
    that run the conformance suite. A second dataset (a test split) is one entry in the type's
    DATASETS and one generator command; the tests, parametrised over DATASETS, cover it. The template is a cookiecutter template; this renders it
    with the same variables, so cookiecutter is not needed.
    """
    target = output if output is not None else Path.cwd() / slug_for(name)
    context = make_context(name, key_values(sets, "--set"), core_version=__version__)
    files = render_project(target, context)
    if as_json:
        echo_json({"path": str(target.resolve()), "variables": {k: v for k, v in context.items() if not k.startswith("_")}, "files": [p.as_posix() for p in files]})
        return
    where = shlex.quote(str(target))
    click.echo(f"created {context['project_slug']} in {target} ({len(files)} files)")
    click.echo(f"  package {context['package_name']}, benchmark type {context['type_id']}, dataset {context['dataset_id']} (private),")
    click.echo(f"  adapter {context['adapter_name']}, viewer {context['viewer_name']}")
    click.echo("")
    click.echo("next steps (docs/writing-a-plugin.md walks through them):")
    click.echo(f"  cd {where}")
    click.echo("  python -m venv .venv && . .venv/bin/activate")
    click.echo("  pip install -e PATH/TO/envirobench/envirobench-core   # unless envirobench-core comes from your package index")
    click.echo("  pip install -e '.[test]'")
    click.echo("  envirobench plugins list")
    click.echo("  pytest")
    click.echo(f"  envirobench bench run {context['type_id']} --plugin . --run first --unpaired")
    click.echo(f"  envirobench bench promote {context['type_id']} results/first --plugin .")
    click.echo(f"  envirobench bench run {context['type_id']} --plugin . --run second")
