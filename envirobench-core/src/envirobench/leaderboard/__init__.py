"""Leaderboards: category scores of systems from finished run directories.

`runs` finds and reads run directories and rescores each from its saved predictions, `pins`
pins one dataset identity per task (and loads that dataset to rescore against), `sources` says
where each run directory came from (and what no board can know: `TRUST_NOTE`), `board` builds
the category scores (and states the rules), `rendering` writes Markdown, JSON or HTML.
"""

from __future__ import annotations

from .board import (
    Board,
    CategoryCell,
    Refusal,
    TaskCell,
    build_board,
    build_leaderboard,
    pareto_front,
)
from .pins import Pin, load_pinned, parse_pin, resolve_pins
from .rendering import (
    LEADERBOARD_FORMAT,
    board_json,
    format_cell,
    format_cost,
    format_score,
    format_task,
    format_time,
    render,
    render_html,
    render_json,
    render_markdown,
    scatter,
)
from .runs import (
    Identity,
    RunEntry,
    RunRefused,
    RunResult,
    System,
    find_run_dirs,
    read_run,
    rescore,
)
from .sources import TRUST_NOTE, Source, read_source

__all__ = [
    "LEADERBOARD_FORMAT",
    "TRUST_NOTE",
    "Board",
    "CategoryCell",
    "Identity",
    "Pin",
    "Refusal",
    "RunEntry",
    "RunRefused",
    "RunResult",
    "Source",
    "System",
    "TaskCell",
    "board_json",
    "build_board",
    "build_leaderboard",
    "find_run_dirs",
    "format_cell",
    "format_cost",
    "format_score",
    "format_task",
    "format_time",
    "load_pinned",
    "pareto_front",
    "parse_pin",
    "read_run",
    "read_source",
    "render",
    "render_html",
    "render_json",
    "render_markdown",
    "rescore",
    "resolve_pins",
    "scatter",
]
