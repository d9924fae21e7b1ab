"""The command line of an adapter made with the kit (`kit.main()`).

    ADAPTER run --request FILE --output DIR [--max-concurrency N]
    ADAPTER describe [--json]

Exit status of `run`: 0 when a result was written (`completed`, or `failed` with its reason,
which core then reports); 1 when none could be (an unreadable request, an output directory that
is not empty; the message on stderr); 2 on a usage error; 130 when interrupted by SIGINT (the
cases finished so far are in the cache, when there is one, and are not predicted again).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from . import __version__

if TYPE_CHECKING:
    from .adapter import Adapter

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}


def command(adapter: Adapter) -> click.Group:
    from .adapter import (  # adapter.py imports this module lazily, and this one it
        MAX_CONCURRENCY,
        KitError,
    )

    @click.group(context_settings=CONTEXT_SETTINGS, help=f"{adapter.name} {adapter.version}: an EnviroBench adapter "
                 f"(protocol envirobench.adapter.v1), made with envirobench-adapter-kit {__version__}.")
    @click.version_option(adapter.version, "-V", "--version", prog_name=adapter.name)
    def main() -> None:
        pass

    @main.command("run", context_settings=CONTEXT_SETTINGS)
    @click.option("--request", "request", required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
                  help="The adapter-request.json core wrote.")
    @click.option("--output", "output", required=True, type=click.Path(file_okay=False, path_type=Path),
                  help="The (empty) directory to write adapter-result.json, predictions.json, kit-report.json and progress.jsonl into.")
    @click.option("--max-concurrency", type=click.IntRange(1, MAX_CONCURRENCY), default=None,
                  help=f"Cases run at once (default: the option max_concurrency, else {adapter.settings.max_concurrency}).")
    def run(request: Path, output: Path, max_concurrency: int | None) -> None:
        """Predict every case of a request and write the adapter's result."""
        try:
            report = adapter.run(request, output, max_concurrency=max_concurrency)
        except KitError as exc:
            raise click.ClickException(str(exc)) from None
        except KeyboardInterrupt:
            print(f"{adapter.name}: interrupted; the cases finished so far are in the cache, if there is one", file=sys.stderr, flush=True)
            sys.stdout.flush()
            # At once: a predict function still running in a thread is not waited for (every
            # cache entry and output file is written whole or not at all).
            os._exit(130)
        counts = ", ".join(f"{report.count(s)} {s}" for s in ("predicted", "cached", "failed", "not-started") if report.count(s))
        click.echo(f"{adapter.name}: {report.status}: {counts or 'no cases'}; ${report.spent_usd:.6g} spent"
                   + (f"; {report.error}" if report.error else ""), err=True)

    @main.command("describe", context_settings=CONTEXT_SETTINGS)
    @click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
    def describe(as_json: bool) -> None:
        """The benchmark types this adapter serves, its options and the models it has prices for."""
        rows = {
            "adapter": adapter.name,
            "version": adapter.version,
            "benchmarks": sorted(adapter.served),
            "options": adapter.options,
            "priced_models": sorted(adapter.prices),
        }
        if as_json:
            click.echo(json.dumps(rows, indent=2, sort_keys=True))
            return
        click.echo(f"{adapter.name} {adapter.version}")
        click.echo(f"serves: {', '.join(rows['benchmarks']) or 'nothing'}")
        click.echo(f"options: {', '.join(f'{k} (default {v!r})' for k, v in adapter.options.items()) or 'none'} (and max_concurrency)")
        click.echo(f"priced models: {', '.join(rows['priced_models']) or 'none'}")

    return main
