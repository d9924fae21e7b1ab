"""What every command module shares: option conventions, error handling, the registry, JSON output.

Conventions: a user mistake is a `ClickException` (exit 1) whose message names the file, line
and field; a usage error exits 2; a gate that did not pass under --require-no-regressions exits
3 (GATE_FAILED_EXIT); diagnostics go to stderr; `--json` prints machine-readable output.
"""

from __future__ import annotations

import functools
import importlib
import json
import sys
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import click

from ..errors import EnviroBenchError
from ..plugins import Registry, get_registry

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}


class LazyGroup(click.Group):
    """A command group whose commands are imported when one is used: `lazy` maps each name to
    ("module:attribute" under envirobench.cli, its one-line help). `--help` lists them from the
    one-line helps, so it imports none (a test holds each to the command's own)."""

    def __init__(self, *args: Any, lazy: dict[str, tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy:
            module, _, attribute = self.lazy[cmd_name][0].partition(":")
            self.add_command(getattr(importlib.import_module(f"envirobench.cli.{module}"), attribute), cmd_name)
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(map(len, names))
        rows = []
        for name in names:
            # A command not yet imported is shortened as click shortens a loaded one's help.
            loaded = self.commands.get(name) or click.Command(name, help=self.lazy[name][1])
            rows.append((name, loaded.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)
GATE_FAILED_EXIT = 3

# A finished run directory given on the command line.
RUN_DIR = click.Path(path_type=Path, file_okay=False, exists=True)


def _names() -> tuple[Callable[[str], str], dict[str, Callable[..., list[Any]]]]:
    # cli/names.py (difflib, the profiles) only on an error or a completion: `--help` stays fast.
    from .names import COMPLETERS, with_suggestion

    return with_suggestion, COMPLETERS


def user_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    """Turn EnviroBenchError into a clean message and exit status 1, never a traceback; an unknown
    benchmark type, dataset or adapter comes with the registered names close to it (cli/names.py)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except EnviroBenchError as exc:
            raise click.ClickException(_names()[0](str(exc))) from None

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


def completion(kind: str) -> dict[str, Any]:
    """`shell_complete=` for an option or argument naming a benchmark, dataset, dataset_spec
    (TYPE=DATASET), adapter or profile; cli/names.py is imported only when the shell asks."""

    def complete(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
        return _names()[1][kind](ctx, param, incomplete)

    return {"shell_complete": complete}


json_option = click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")


class ProgressBars:
    """Progress bars on stderr, one per label (`bars(label, done, total)`: the adapter's
    progress, scoring, each store transfer), drawn only when stderr is a terminal: a log file
    gets the result lines, not a redrawn bar. Use it as a context manager, so the last bar is
    closed."""

    def __init__(self, stream: IO[str] | None = None) -> None:
        self.stream = stream
        self.bar: Any = None
        self.label: str | None = None
        self.done = 0

    def __call__(self, label: str, done: int, total: int) -> None:
        stream = self.stream or sys.stderr
        if not stream.isatty():
            return
        if self.bar is None or label != self.label:
            self.close()
            self.bar = click.progressbar(length=total, label=label, file=stream)
            self.bar.__enter__()
            self.label, self.done = label, 0
        self.bar.update(done - self.done)
        self.done = done

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar, self.label = None, None

    def __enter__(self) -> ProgressBars:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
