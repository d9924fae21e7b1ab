"""What every command module shares: option conventions, error handling, the registry, JSON output.

Conventions: a user mistake is a `ClickException` (exit 1) whose message names the file, line
and field; a usage error exits 2; a gate that did not pass under --require-no-regressions exits
3 (GATE_FAILED_EXIT); diagnostics go to stderr; `--json` prints machine-readable output.
"""

from __future__ import annotations

import functools
import json
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ..errors import EnviroBenchError
from ..plugins import Registry, get_registry

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}
GATE_FAILED_EXIT = 3

# A finished run directory given on the command line.
RUN_DIR = click.Path(path_type=Path, file_okay=False, exists=True)


def user_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    """Turn EnviroBenchError into a clean message and exit status 1, never a traceback."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except EnviroBenchError as exc:
            raise click.ClickException(str(exc)) from None

    return wrapper


def registry() -> Registry:
    """The registry in force (the installed plugins, or one given with `using_registry`). What
    went wrong while loading it (a plugin that failed to import, an allow-list name matching
    nothing) is said once per registry on stderr, one line each."""
    try:
        reg = get_registry()
    except EnviroBenchError as exc:
        raise click.ClickException(f"cannot load the plugins: {exc}") from None
    if not any(said() is reg for said in _warned):
        _warned.append(weakref.ref(reg))
        for failure in reg.failures:
            click.echo(f"warning: plugin {failure.name!r} ({failure.distribution} {failure.version}) failed to load and is skipped: {failure.error}", err=True)
        for warning in reg.warnings:
            click.echo(f"warning: {warning}", err=True)
    return reg


_warned: list[weakref.ref[Registry]] = []  # the registries whose loading problems were said


def echo_json(value: Any) -> None:
    click.echo(json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False, default=str))


json_option = click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
