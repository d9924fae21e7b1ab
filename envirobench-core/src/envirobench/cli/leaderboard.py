"""`envirobench categories` and `envirobench leaderboard`.

Added to the main `envirobench` group by cli/main.py. User mistakes are `ClickException` (exit 1),
usage errors exit 2, diagnostics (refused runs, notes) go to stderr.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from .. import categories as cats
from .. import leaderboard as lb
from ..errors import EnviroBenchError
from ..jsonio import atomic_write_text
from ..plugins import get_registry
from .common import CONTEXT_SETTINGS, registry


@click.command("categories", context_settings=CONTEXT_SETTINGS)
@click.option("--markdown", is_flag=True, help="The definition as Markdown (docs/categories.md is this output).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable definition.")
def categories_command(markdown: bool, as_json: bool) -> None:
    """The six categories: tasks, weights and component-score formulas.

    Regenerate the docs with: envirobench categories --markdown > docs/categories.md
    """
    if markdown and as_json:
        raise click.UsageError("choose one of --markdown and --json")
    if markdown:
        click.echo(cats.render_markdown(), nl=False)
        return
    if as_json:
        click.echo(json.dumps(cats.definition_json(), indent=2, sort_keys=True, ensure_ascii=False))
        return
    try:
        installed: set[str] | None = set(get_registry().benchmark_types)
    except EnviroBenchError as exc:
        click.echo(f"warning: cannot load the plugins, so installation is not shown: {exc}", err=True)
        installed = None
    click.echo(cats.render_text(installed), nl=False)


@click.command("leaderboard", context_settings=CONTEXT_SETTINGS)
@click.argument("paths", nargs=-1, required=True, metavar="RUN_DIR|RESULTS_DIR...", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["md", "html", "json"]), default=None, help="Output format (default: md).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output: the same as --format json.")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), help="Write here (atomically) instead of stdout.")
@click.option("--tasks", is_flag=True, help="Show component (task) scores too; JSON always has them.")
@click.option("--pin", "pins", multiple=True, metavar="TASK=DATASET", help="Pin a task's dataset: a digest (sha256:...), a registered dataset ID or a dataset directory. Repeatable.")
def leaderboard_command(paths: tuple[Path, ...], fmt: str | None, as_json: bool, output: Path | None, tasks: bool, pins: tuple[str, ...]) -> None:
    """Category scores of every system in RUN_DIR or RESULTS_DIR (folders of run directories).

    One row per system (adapter + model + options), one column per category; no overall score.
    A category a system has not run in full is Incomplete (n of m tasks). Each task is pinned to
    one dataset identity: --pin, else the installed registered dataset, else the one its runs
    agree on (the highest revision of one dataset ID). Every run is rescored from its saved
    predictions against the pinned dataset with the installed type (its metrics.json is not
    read); cost, wall time and sites are the run's own report. Runs that failed, used another
    dataset identity, are of a type not installed, whose pinned dataset is not on this machine,
    or that cannot be scored are refused, and so are partial runs (run --case or --limit); each
    is listed on stderr with its reason.

    Each row says where its runs came from: a local directory, or a store archive (a run restored
    by bench run/restore that still holds exactly the archive's files). A row is only as
    trustworthy as those directories: a run directory whose predictions are the answers, with
    its hashes recomputed, is ranked like any other; only a sealed, server-scored holdout (none
    exists yet) could prevent that. Every format says so.
    """
    if as_json and fmt not in (None, "json"):
        raise click.UsageError(f"--json and --format {fmt} contradict each other")
    fmt = "json" if as_json else fmt or "md"
    explicit: dict[str, str] = {}
    for text in pins:
        try:
            task_id, value = lb.parse_pin(text)
        except EnviroBenchError as exc:
            raise click.BadParameter(exc.message, param_hint="--pin") from None
        if task_id in explicit and explicit[task_id] != value:
            raise click.BadParameter(f"task {task_id!r} is pinned twice", param_hint="--pin")
        explicit[task_id] = value
    try:
        board = lb.build_leaderboard(paths, explicit, registry())
    except EnviroBenchError as exc:
        raise click.ClickException(str(exc)) from None
    for note in board.notes:
        click.echo(f"note: {note}", err=True)
    if board.refused:
        click.echo(f"refused {len(board.refused)} run(s):", err=True)
        for refusal in board.refused:
            click.echo(f"  {refusal.describe()}", err=True)
    text = lb.render(board, fmt, tasks=tasks)
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        atomic_write_text(output, text)
    except OSError as exc:
        raise click.ClickException(f"{output}: cannot write: {exc.strerror}") from None
    click.echo(f"wrote {output} ({len(board.systems)} system(s), {len(board.refused)} run(s) refused)", err=True)
