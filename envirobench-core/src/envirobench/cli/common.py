"""What every command module shares: option conventions, error handling, the registry, JSON output.

Conventions: a user mistake is a `ClickException` (exit 1) whose message names the file, line
and field; a usage error exits 2; a gate that did not pass under --require-no-regressions exits
3 (GATE_FAILED_EXIT); diagnostics go to stderr; `--json` prints machine-readable output.
"""

from __future__ import annotations

import functools
import importlib
import json
import math
import os
import sys
import threading
import time
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import click

from ..errors import EnviroBenchError
from ..plugins import Registry, declared_registry, get_registry

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

    def lazy_help(self, name: str) -> str:
        """The one-line help of a command not yet imported."""
        return self.lazy[name][1]

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(map(len, names))
        rows = []
        for name in names:
            # A command not yet imported is shortened as click shortens a loaded one's help.
            loaded = self.commands.get(name) or click.Command(name, help=self.lazy_help(name))
            rows.append((name, loaded.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)
GATE_FAILED_EXIT = 3

# A finished run directory given on the command line.
RUN_DIR = click.Path(path_type=Path, file_okay=False, exists=True)


def key_values(values: tuple[str, ...], option: str, *, unique: bool = False) -> dict[str, str]:
    """Repeated KEY=VALUE options as a dict: a value without `=` or a key is a usage error naming
    `option`; with `unique`, so is a key given twice (otherwise the last one given wins)."""
    out: dict[str, str] = {}
    for value in values:
        key, sep, val = value.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{value!r} is not KEY=VALUE", param_hint=option)
        if unique and key in out:
            raise click.BadParameter(f"{key!r} given twice", param_hint=option)
        out[key] = val
    return out


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


def registry(*, declared: bool = False) -> Registry:
    """The registry in force (the installed plugins, or one given with `using_registry`); with
    `declared`, for a command that only lists what is registered, the package plugins read from
    their declarations, not imported (plugins.declared_registry). What went wrong while loading
    it (a plugin that failed to import, an allow-list name matching nothing) is said once per
    registry on stderr, one line each."""
    try:
        reg = declared_registry() if declared else get_registry()
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


def rows_as_text(rows: list[dict[str, Any]], as_json: bool, *, empty: str) -> list[dict[str, Any]]:
    """What a listing command (`benchmarks`, `datasets`, `bench list`) does before its text: with
    --json it prints the rows as JSON and has nothing left to print ([]); without, it says `empty`
    on stderr when there are no rows. Returns the rows to print as text."""
    if as_json:
        echo_json(rows)
        return []
    if not rows:
        click.echo(empty, err=True)
    return rows


def completion(kind: str) -> dict[str, Any]:
    """`shell_complete=` for an option or argument naming a benchmark, dataset, dataset_spec
    (TYPE=DATASET), adapter or profile; cli/names.py is imported only when the shell asks."""

    def complete(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
        return _names()[1][kind](ctx, param, incomplete)

    return {"shell_complete": complete}


json_option = click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")


# Outside a terminal, progress is a line every this many seconds on stderr (0: none).
PROGRESS_INTERVAL_ENV = "ENVIROBENCH_PROGRESS_INTERVAL"
DEFAULT_PROGRESS_INTERVAL_S = 30.0
_UNITS = {"adapter": "cases", "scoring": "cases"}


def progress_interval() -> float:
    """Seconds between progress lines outside a terminal: ENVIROBENCH_PROGRESS_INTERVAL, else 30."""
    value = os.environ.get(PROGRESS_INTERVAL_ENV, "").strip()
    if not value:
        return DEFAULT_PROGRESS_INTERVAL_S
    try:
        seconds = float(value)
    except ValueError:
        raise click.ClickException(f"{PROGRESS_INTERVAL_ENV}={value!r} is not a number of seconds (0: no progress lines)") from None
    if not math.isfinite(seconds) or seconds < 0:
        raise click.ClickException(f"{PROGRESS_INTERVAL_ENV}={value!r} is not a number of seconds, 0 or more (0: no progress lines)")
    return seconds


def duration(seconds: float) -> str:
    """45 s, 3 min 20 s, 2 h 05 min."""
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


class ProgressBars:
    """Progress on stderr, one stage per label (`bars(label, done, total)`: the adapter's
    progress, scoring, each store transfer). On a terminal, a bar per label. Elsewhere (a CI
    log, `nohup`, a pipe) a line every ENVIROBENCH_PROGRESS_INTERVAL seconds (30 by default, 0
    for none) with done/total, the rate and the time left; `heartbeat(what)` keeps those lines
    coming while nothing is reported (an adapter that says nothing for minutes). Use it as a
    context manager, or call close(), so the last bar is closed and the heartbeat stopped."""

    def __init__(self, stream: IO[str] | None = None, *, interval: float | None = None) -> None:
        self.stream = stream
        self.bar: Any = None
        self.label: str | None = None
        self.done = 0
        self.interval = progress_interval() if interval is None else interval
        self.started = time.monotonic()
        self.last_line = self.started
        self.total: int | None = None
        self.stage_started = self.started  # when the current label was first reported, and its count then
        self.stage_done = 0
        self.what = ""
        self.part: tuple[int, int, str] | None = None  # progress inside the cases under way ("adapter:pages")
        self.part_started, self.part_done = self.started, 0
        self._last_part: tuple[int, int, str] | None = None  # the rate's reference, kept across the case count's lines
        self._lock = threading.Lock()
        self._stop: threading.Event | None = None

    def _stream(self) -> IO[str]:
        return self.stream or sys.stderr

    def __call__(self, label: str, done: int, total: int) -> None:
        stream = self._stream()
        stage, _, unit = label.partition(":")
        if unit:  # "adapter:pages": progress inside the adapter's cases under way, shown with them
            with self._lock:
                now = time.monotonic()
                last = self._last_part
                if last is None or last[2] != unit or last[1] != total or done < last[0]:
                    self.part_started, self.part_done = now, done
                self.part = self._last_part = (done, total, unit)
                if self.bar is not None and stream.isatty():
                    self.bar.label = f"{stage} ({done}/{total} {unit})"
                    self.bar.render_progress()
                elif not stream.isatty() and self.interval and now - self.last_line >= self.interval:
                    self._line(now)
            return
        if stream.isatty():
            if self.bar is None or label != self.label:
                self.close_bar()
                self.bar = click.progressbar(length=total, label=label, file=stream)
                self.bar.__enter__()
                self.label, self.done = label, 0
            self.bar.update(done - self.done)
            self.done = done
            return
        with self._lock:
            now = time.monotonic()
            if (label, done, total) != (self.label, self.done, self.total):
                # a case finished (or another stage began): its pages are no longer under way. The same
                # count is reported again on every poll, just before the part; clearing the part there
                # printed a line without it whenever that call, not the part's, found the interval passed
                self.part = None
            if label != self.label:
                self.label, self.stage_started, self.stage_done = label, now, done
            self.done, self.total = done, total
            if self.interval and now - self.last_line >= self.interval:
                self._line(now)

    def line(self, now: float | None = None) -> str:
        """The progress line for now: "progress: adapter 18/200 cases (9 %), 1.2 cases/min, about 2 h 31 min left; 15 min 02 s elapsed"."""
        now = time.monotonic() if now is None else now
        what = f"{self.what}: " if self.what else ""
        elapsed = f"{duration(now - self.started)} elapsed"
        if self.label is None or self.total is None:
            return f"progress: {what}{elapsed}, no progress reported yet"
        unit = _UNITS.get(self.label, "")
        unit_ = f" {unit}" if unit else ""
        done, total = self.done, self.total
        text = f"progress: {what}{self.label} {done}/{total}{unit_}" + (f" ({100 * done // total} %)" if total else "")
        spent, made = now - self.stage_started, done - self.stage_done
        if made > 0 and spent > 0:
            rate = made / spent
            text += f", {rate:.1f}{unit_}/s" if rate >= 1 else f", {rate * 60:.1f}{unit_}/min"
            if total > done:
                text += f", about {duration((total - done) / rate)} left"
        if self.part is not None:
            p_done, p_total, p_unit = self.part
            text += f"; under way: {p_done}/{p_total} {p_unit}"
            p_spent, p_made = now - self.part_started, p_done - self.part_done
            if p_made > 0 and p_spent > 0:
                p_rate = p_made / p_spent
                text += f", {p_rate:.1f} {p_unit}/s" if p_rate >= 1 else f", {p_rate * 60:.1f} {p_unit}/min"
        return f"{text}; {elapsed}"

    def _line(self, now: float) -> None:
        self.last_line = now
        click.echo(self.line(now), file=self._stream())

    def heartbeat(self, what: str = "") -> ProgressBars:
        """Outside a terminal, a line every interval even while no progress is reported."""
        self.what = what
        if self._stop is not None or not self.interval or self._stream().isatty():
            return self
        self._stop = stop = threading.Event()

        def beat() -> None:
            while not stop.wait(self.interval / 4):
                with self._lock:
                    now = time.monotonic()
                    if now - self.last_line >= self.interval and not stop.is_set():
                        self._line(now)

        threading.Thread(target=beat, name="envirobench-progress", daemon=True).start()
        return self

    def close_bar(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar, self.label = None, None

    def close(self) -> None:
        self.close_bar()
        if self._stop is not None:
            self._stop.set()
            self._stop = None

    def __enter__(self) -> ProgressBars:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
