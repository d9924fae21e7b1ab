"""The `envirobench` command line.

Conventions: user mistakes are `ClickException` (exit 1) with a message naming file, line and
field; usage errors exit 2; a failed gate under --require-no-regressions exits 3
(GATE_FAILED_EXIT); diagnostics go to stderr; `--json` prints machine-readable output.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from . import __version__
from .errors import EnviroBenchError

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}
GATE_FAILED_EXIT = 3


def user_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    """Turn EnviroBenchError into a clean message and exit status 1, never a traceback."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except EnviroBenchError as exc:
            raise click.ClickException(str(exc)) from None

    return wrapper


def registry():
    from .plugins import get_registry

    try:
        return get_registry()
    except EnviroBenchError as exc:
        raise click.ClickException(str(exc)) from None


def echo_json(value: Any) -> None:
    click.echo(json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False, default=str))


@click.group(context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, "-V", "--version", prog_name="envirobench")
def main() -> None:
    """EnviroBench: measure AI systems that read environmental documents."""


# -- plugins ---------------------------------------------------------------------------------


@main.group(context_settings=CONTEXT_SETTINGS)
def plugins() -> None:
    """Installed plugins and what they register."""


@plugins.command("list")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def plugins_list(as_json: bool) -> None:
    """Each plugin: distribution, version, hooks and registrations.

    Set ENVIROBENCH_LOAD_PLUGINS (comma-separated distribution names, empty for none) to
    restrict which installed plugins load. Core's own hooks are always listed.
    """
    reg = registry()
    rows = [
        {
            "name": info.name,
            "distribution": info.distribution,
            "version": info.version,
            "hooks": list(info.hooks),
            "registered": reg.registered_by(info.name),
        }
        for info in reg.plugins
    ]
    if as_json:
        echo_json(rows)
        return
    for row in rows:
        click.echo(f"{row['name']}  ({row['distribution']} {row['version']})")
        click.echo(f"  hooks: {', '.join(row['hooks']) or '-'}")
        for kind, ids in row["registered"].items():
            if ids:
                click.echo(f"  {kind.replace('_', ' ')}: {', '.join(ids)}")


# -- benchmarks and datasets ------------------------------------------------------------------


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def benchmarks(as_json: bool) -> None:
    """Every registered benchmark type."""
    reg = registry()
    rows = [dict(cls.describe(), plugin=plugin) for _, (cls, plugin) in sorted(reg.benchmark_types.items())]
    if as_json:
        echo_json(rows)
        return
    if not rows:
        click.echo("no benchmark types registered (install a category package, e.g. envirobench-extract)", err=True)
    for row in rows:
        click.echo(f"{row['id']}  {row['label']}  [{row['tier']}]  ({row['plugin']})")
        click.echo(f"  format: {row['format']}   scoring: {row['scoring_version']}")
        click.echo(f"  profiles: {', '.join(row['profiles'])} (gate default: {row['profiles'][0]})")
        click.echo(f"  headline: {', '.join(row['headline'])} (primary: {row['headline'][0]})")
        click.echo(f"  categories: {', '.join(row['categories']) or '-'}   viewer: {row['viewer']}")


@main.group(invoke_without_command=True, context_settings=CONTEXT_SETTINGS)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def datasets(ctx: click.Context, as_json: bool) -> None:
    """Registered datasets (without a subcommand: list them)."""
    if ctx.invoked_subcommand is not None:
        return
    from .datasets import read_manifest

    reg = registry()
    rows = []
    for dataset_id, source in sorted(reg.datasets.items()):
        row: dict[str, Any] = {"id": dataset_id, "path": str(source.path), "visibility": source.visibility, "plugin": source.plugin, "store": source.store}
        try:
            manifest = read_manifest(source.path)
            row.update(benchmark=manifest.benchmark, version=manifest.version, title=manifest.title, retired=len(manifest.retired))
        except EnviroBenchError as exc:
            row["error"] = str(exc)
        rows.append(row)
    if as_json:
        echo_json(rows)
        return
    for row in rows:
        click.echo(f"{row['id']}  v{row.get('version', '?')}  {row.get('benchmark', '?')}  [{row['visibility']}]  ({row['plugin']})")
        click.echo(f"  {row.get('title') or row.get('error')}")
        click.echo(f"  {row['path']}" + (f"  (store: {row['store']})" if row["store"] else ""))


@main.command("validate-dataset")
@click.argument("dataset")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@user_errors
def validate_dataset(dataset: str, as_json: bool) -> None:
    """Verify every pinned file and schema of DATASET (a registered ID or a directory)."""
    from . import datasets as ds

    dataset_obj = ds.load(dataset, registry())
    identity = dataset_obj.identity
    cases = sum(1 for _ in dataset_obj.iter_case_records())
    result = {
        "id": identity.id,
        "version": identity.version,
        "digest": identity.digest,
        "input_digest": identity.input_digest,
        "answer_digest": identity.answer_digest,
        "benchmark": dataset_obj.manifest.benchmark,
        "cases": cases,
        "retired": len(dataset_obj.manifest.retired),
        "files": len(dataset_obj.manifest.files),
        "valid": True,
    }
    if as_json:
        echo_json(result)
        return
    click.echo(
        f"valid: {identity.id} v{identity.version} ({result['benchmark']}): {cases} cases, "
        f"{result['retired']} retired, {result['files']} files pinned"
    )
    click.echo(f"  digest {identity.digest}")


@main.command()
@click.option("--output", type=click.Path(file_okay=False, path_type=Path), help="Write the schema files into this directory.")
def schemas(output) -> None:
    """JSON Schemas of every format, generated from the classes core uses."""
    from .schemas import all_schemas, write_schemas

    reg = registry()
    if output is None:
        echo_json(all_schemas(reg))
        return
    for path in write_schemas(reg, output):
        click.echo(str(path))


def _add_optional_commands() -> None:
    """Commands that live in their own modules (kept out of this file to keep it readable)."""
    from importlib import import_module

    for module_name, names in (
        (".cli_run", ("run_command", "score_command")),
        (".cli_leaderboard", ("categories_command", "leaderboard_command")),
        (".cli_report", ("serve_command", "review_group")),
        (".cli_bench", ("bench_group",)),
        (".cli_stores", ("stores_command",)),
    ):
        try:
            module = import_module(module_name, __package__)
        except ModuleNotFoundError as exc:
            if exc.name != f"{__package__}{module_name}":
                raise
            continue
        for name in names:
            command = getattr(module, name, None)
            if command is not None:
                main.add_command(command)


_add_optional_commands()


def _add_dataset_store_commands() -> None:
    from .cli_stores import datasets_pull, datasets_push

    datasets.add_command(datasets_push)
    datasets.add_command(datasets_pull)


_add_dataset_store_commands()


def _add_plugins_new_command() -> None:
    from .cli_plugins_new import plugins_new_command

    plugins.add_command(plugins_new_command)


_add_plugins_new_command()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
