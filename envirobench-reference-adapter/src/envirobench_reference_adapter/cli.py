"""The `envirobench-reference-adapter` command line (adapter protocol `envirobench.adapter.v1`).

Exit status: 0 when the run completed (per-case failures are reported in adapter-result.json),
1 when the request is refused (message on stderr), 2 on a usage error.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from envirobench import EnviroBenchError

from . import NAME, __version__, protocol

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}


@click.group(context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, "-V", "--version", prog_name=NAME)
def main() -> None:
    """The model-free reference system under test for EnviroBench.

    It answers every case by classical analysis of the case's own input: no model, no network,
    no cost, and never a dataset's answers.
    """


@main.command("run", context_settings=CONTEXT_SETTINGS)
@click.option(
    "--request",
    "request_path",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="The adapter-request.json core wrote.",
)
@click.option(
    "--output",
    "output_dir",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="The (empty) directory to write adapter-result.json, predictions.json and progress.jsonl into.",
)
def run_command(request_path: Path, output_dir: Path) -> None:
    """Solve every case of a request and write the adapter's result."""
    try:
        request = protocol.read_request(request_path)
        summary = protocol.run(request, output_dir)
    except EnviroBenchError as exc:
        raise click.ClickException(str(exc)) from None
    message = (
        f"{NAME}: {request.benchmark_id} ({request.variant}): "
        f"{summary.predicted} of {summary.total} cases predicted"
    )
    if summary.failures:
        message += f"; {len(summary.failures)} execution failure(s), see {protocol.FAILURES_FILE}"
    click.echo(message, err=True)


@main.command("describe", context_settings=CONTEXT_SETTINGS)
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
def describe_command(as_json: bool) -> None:
    """List the benchmark types this adapter solves, their formats and variants."""
    rows = [
        {
            "benchmark": benchmark_id,
            "format": solver.FORMAT,
            "variants": list(solver.VARIANTS),
            "aliases": dict(solver.VARIANT_ALIASES),
            "default_variant": solver.DEFAULT_VARIANT,
        }
        for benchmark_id, solver in sorted(protocol.SOLVERS.items())
    ]
    if as_json:
        click.echo(json.dumps({"adapter": NAME, "version": __version__, "benchmarks": rows}, indent=2, sort_keys=True))
        return
    for row in rows:
        aliases = "".join(f"; '{alias}' is an alias of {name}" for alias, name in row["aliases"].items())
        click.echo(
            f"{row['benchmark']} ({row['format']}): variants {', '.join(row['variants'])}"
            f" (default: {row['default_variant']}{aliases})"
        )
