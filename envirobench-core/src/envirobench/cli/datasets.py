"""`envirobench benchmarks`, `datasets` and `validate-dataset`: what is installed (`schemas` is
cli/schemas.py: the schemas import most of core, which listing the datasets must not pay for)."""

from __future__ import annotations

from typing import Any

import click

from ..categories import categories_of
from ..datasets import load_dataset, read_manifest
from ..errors import EnviroBenchError
from .common import (
    CONTEXT_SETTINGS,
    LazyGroup,
    completion,
    echo_json,
    json_option,
    registry,
    rows_as_text,
    user_errors,
)


@click.command("benchmarks", context_settings=CONTEXT_SETTINGS)
@json_option
def benchmarks_command(as_json: bool) -> None:
    """Every registered benchmark type."""
    reg = registry()
    rows = [dict(cls.describe(), categories=list(categories_of(type_id)), plugin=plugin) for type_id, (cls, plugin) in sorted(reg.benchmark_types.items())]
    for row in rows_as_text(rows, as_json, empty="no benchmark types registered (install a category package, e.g. envirobench-extract)"):
        click.echo(f"{row['id']}  {row['label']}  [{row['tier']}]  ({row['plugin']})")
        click.echo(f"  format: {row['format']}   scoring: {row['scoring_version']}")
        click.echo(f"  profiles: {', '.join(row['profiles'])} (gate default: {row['profiles'][0]})")
        click.echo(f"  headline: {', '.join(row['headline'])} (primary: {row['headline'][0]})")
        click.echo(f"  categories: {', '.join(row['categories']) or '-'}   viewer: {row['viewer']}")


# `datasets push` and `pull` are the stores' (cli/stores.py), imported when used.
@click.group(
    "datasets",
    cls=LazyGroup,
    lazy={
        "push": ("stores:datasets_push", "Upload DATASET (a registered ID or a directory) to a store, every file checksum-verified."),
        "pull": ("stores:datasets_pull", "Download dataset DATASET_ID from a store, every file checksum-verified."),
    },
    invoke_without_command=True,
    context_settings=CONTEXT_SETTINGS,
)
@json_option
@click.pass_context
def datasets_group(ctx: click.Context, as_json: bool) -> None:
    """Registered datasets (without a subcommand: list them)."""
    if ctx.invoked_subcommand is not None:
        return
    reg = registry(declared=True)
    rows = []
    for dataset_id, source in sorted(reg.datasets.items()):
        row: dict[str, Any] = {"id": dataset_id, "path": str(source.path), "visibility": source.visibility, "plugin": source.plugin, "store": source.store}
        try:
            manifest = read_manifest(source.path)
            row.update(benchmark=manifest.benchmark, version=manifest.version, title=manifest.title, retired=len(manifest.retired))
        except EnviroBenchError as exc:
            row["error"] = str(exc)
        rows.append(row)
    for row in rows_as_text(rows, as_json, empty="no datasets registered: install a category package (pip install envirobench-extract) or a plugin that registers datasets"):
        click.echo(f"{row['id']}  v{row.get('version', '?')}  {row.get('benchmark', '?')}  [{row['visibility']}]  ({row['plugin']})")
        click.echo(f"  {row.get('title') or row.get('error')}")
        click.echo(f"  {row['path']}" + (f"  (store: {row['store']})" if row["store"] else ""))


@click.command("validate-dataset", context_settings=CONTEXT_SETTINGS)
@click.argument("dataset", **completion("dataset"))
@json_option
@user_errors
def validate_dataset_command(dataset: str, as_json: bool) -> None:
    """Verify every pinned file and schema of DATASET (a registered ID or a directory)."""
    # The listing registry: of the package plugins, only the one of the dataset's type is imported.
    dataset_obj = load_dataset(dataset, registry(declared=True))
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
        "license": dataset_obj.manifest.license or None,
        "valid": True,
    }
    if as_json:
        echo_json(result)
        return
    click.echo(
        f"valid: {identity.id} v{identity.version} ({result['benchmark']}): {cases} cases, "
        f"{result['retired']} retired, {result['files']} files pinned" + (f", licence {result['license']}" if result["license"] else "")
    )
    click.echo(f"  digest {identity.digest}")
