"""`envirobench datasets push|pull` and `envirobench stores`; the progress bars of every store
transfer (push, pull, and `bench promote|restore|run`)."""

from __future__ import annotations

from pathlib import Path

import click

from ..stores.config import config_files, configured_stores, describe_spec, open_store
from ..stores.transfer import pull_dataset, push_dataset
from .common import CONTEXT_SETTINGS, ProgressBars, completion, echo_json, registry, user_errors

_STORE_HELP = "A store URL (file:///dir, file:relative/dir, s3://bucket/prefix[?visibility=public]) or a configured name"


def _store_for(dataset_id: str, value: str | None, reg):
    if value:
        return open_store(value, reg)
    source = reg.datasets.get(dataset_id)
    if source is None or not source.store:
        raise click.UsageError(f"--store is required: {dataset_id!r} is not a dataset registered with a store")
    return open_store(source.store, reg, origin=f"dataset {dataset_id!r} of plugin {source.plugin!r}")


@click.command("push", context_settings=CONTEXT_SETTINGS)
@click.argument("dataset", **completion("dataset"))
@click.option("--store", metavar="NAME|URL", help=_STORE_HELP + "; default: the store the dataset is registered with.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@user_errors
def datasets_push(dataset, store, as_json):
    """Upload DATASET (a registered ID or a directory) to a store, every file checksum-verified.

    The dataset is validated first; the manifest goes last, so an interrupted push never looks
    like a dataset. Refused: a private dataset to a public store, a public dataset registered
    with a private store, and a version the store already holds with other bytes.
    """
    reg = registry()
    target = _store_for(dataset, store, reg)
    with ProgressBars() as progress:
        result = push_dataset(dataset, target, reg, on_progress=progress)
    if as_json:
        echo_json({
            "id": result.dataset_id, "version": result.version, "digest": result.digest, "store": result.store,
            "prefix": result.prefix, "uploaded": result.uploaded, "already_there": result.already_there,
        })
        return
    click.echo(f"pushed {result.dataset_id} v{result.version} ({result.digest}) to {result.store}")
    click.echo(f"  {result.prefix}/: {result.uploaded} file(s) uploaded, {result.already_there} already there")


@click.command("pull", context_settings=CONTEXT_SETTINGS)
@click.argument("dataset_id", **completion("dataset"))
@click.option("--store", metavar="NAME|URL", help=_STORE_HELP + "; default: the store the dataset is registered with.")
@click.option("--version", type=click.IntRange(min=1), help="The version to pull (default: the highest in the store).")
@click.option("--output", type=click.Path(path_type=Path, file_okay=False), metavar="DIR",
              help="A new or empty directory (default: the registered directory if it is missing, else datasets/ID/vN).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@user_errors
def datasets_pull(dataset_id, store, version, output, as_json):
    """Download dataset DATASET_ID from a store, every file checksum-verified.

    The manifest must reproduce the digest in its key, every file must match the manifest, and
    the dataset is validated when its benchmark type is installed. Nothing is written unless
    all of it checks out.
    """
    reg = registry()
    source = _store_for(dataset_id, store, reg)
    with ProgressBars() as progress:
        result = pull_dataset(dataset_id, source, reg, version=version, output=output, on_progress=progress)
    if as_json:
        echo_json({"id": result.dataset_id, "version": result.version, "digest": result.digest, "path": str(result.path), "files": result.files, "validated": result.validated})
        return
    click.echo(f"pulled {result.dataset_id} v{result.version} ({result.digest}) into {result.path}")
    checked = "validated" if result.validated else "files verified (its benchmark type is not installed, so its schemas were not checked)"
    click.echo(f"  {result.files} file(s), {checked}")


@click.command("stores", context_settings=CONTEXT_SETTINGS)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@user_errors
def stores_command(as_json):
    """Configured store names and the store schemes plugins register.

    Names come from ENVIROBENCH_STORES (a TOML file) or else the project's envirobench.toml (in
    the nearest directory up holding .envirobench/ or envirobench.toml) and
    ~/.config/envirobench/stores.toml; see docs/stores.md.
    """
    reg = registry()
    stores = {name: describe_spec(spec) for name, spec in sorted(configured_stores().items())}
    schemes = {scheme: entry.plugin for scheme, entry in sorted(reg.stores.items())}
    files = [str(p) for p in config_files()]
    if as_json:
        echo_json({"stores": stores, "schemes": schemes, "config_files": files})
        return
    click.echo(f"schemes: {', '.join(f'{s} ({p})' for s, p in schemes.items()) or 'none'}")
    click.echo(f"configuration files: {', '.join(files)}")
    if not stores:
        click.echo("no named stores configured (a URL works anywhere a store is asked for)")
    for name, spec in stores.items():
        click.echo(f"{name}: {spec['url']}  [{spec['visibility']}]  ({spec['origin']})")
