"""What every command module shares: option conventions, error handling, the registry, JSON output.

Conventions: a user mistake is a `ClickException` (exit 1) whose message names the file, line
and field; a usage error exits 2; a gate that did not pass under --require-no-regressions exits
3 (GATE_FAILED_EXIT); diagnostics go to stderr; `--json` prints machine-readable output.
"""

from __future__ import annotations

import functools
import json
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
    """The registry in force (the installed plugins, or one given with `using_registry`)."""
    try:
        return get_registry()
    except EnviroBenchError as exc:
        raise click.ClickException(f"cannot load the plugins: {exc}") from None


def echo_json(value: Any) -> None:
    click.echo(json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False, default=str))


json_option = click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
