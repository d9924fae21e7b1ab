"""The board as Markdown, JSON or one offline HTML page (templates/leaderboard.html.j2)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .. import categories as cats
from .. import statistics
from ..categories import Category
from ..jsonio import dumps
from ..rundir import Interval
from ..templating import environment
from .board import Board, CategoryCell, TaskCell
from .runs import RunResult, System
from .sources import TRUST_NOTE, describe_summary, summarize

LEADERBOARD_FORMAT = "envirobench.leaderboard.v1"
# How the intervals were computed (docs/runs.md, "Statistics"); the JSON records it.
BOOTSTRAP = {
    "method": statistics.METHOD,
    "resamples": statistics.RESAMPLES,
    "seed": statistics.SEED,
    "confidence": statistics.CONFIDENCE,
}
SOURCE_NOTE = (
    "Each row says where its runs came from: a local directory (a run directory on this machine, "
    "however it got there), or a store archive (restored from a store and still holding exactly "
    "the archive's files, each checksum-verified); Runs lists every run with its directory."
)
RUNS_NOTE = "Every run on the board, where it came from and its component score (the 95 % interval in parentheses)."
INTERVAL_NOTE = (
    f"(low–high) is the 95 % interval from resampling each task's cases ({statistics.METHOD} bootstrap, "
    f"{statistics.RESAMPLES:,} resamples of the component score, a system's repeats drawn together; a category combines "
    "its tasks' with the weights; a run's own report.html brackets each headline metric's interval from that run's "
    "bootstrap alone, clustered where its type says so, so the two can differ a little);"
)


# -- formatting ---------------------------------------------------------------------------------


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 6)


def format_score(score: float, low: float | None = None, high: float | None = None, interval: Interval | None = None) -> str:
    """A score, its 95 % interval in parentheses and its range over repeats in brackets:
    "80.0 (74.5–85.0) [70.0–90.0]"."""
    text = f"{score:.1f}"
    if interval is not None:
        text += f" ({interval.low:.1f}–{interval.high:.1f})"
    if low is not None and high is not None and f"{low:.1f}" != f"{high:.1f}":
        text += f" [{low:.1f}–{high:.1f}]"
    return text


def _interval_json(interval: Interval | None) -> list[float | None] | None:
    return None if interval is None else [_round(interval.low), _round(interval.high)]


def format_cost(value: float | None) -> str:
    if value is None:
        return "—"
    return f"${value:,.2f}" if value >= 1 else f"${value:.4f}"


def format_time(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:,.1f} s"


def format_task(cell: TaskCell | None) -> str:
    if cell is None:
        return "missing"
    text = format_score(cell.mean, cell.low, cell.high, cell.interval)
    return text + (f" ×{len(cell.runs)}" if len(cell.runs) > 1 else "")


def format_cell(cell: CategoryCell) -> str:
    """A category cell as every format shows it: score [range], or Incomplete (n of m tasks)."""
    if not cell.complete:
        return f"Incomplete ({cell.done} of {cell.total} tasks)"
    return format_score(cell.score, cell.low, cell.high, cell.interval)


def done_tasks(cell: CategoryCell) -> list[tuple[str, str]]:
    """The tasks an Incomplete category's system has run, with their scores (the category's own
    score stays withheld): [(task ID, "95.5 (92.0–98.0)")]; empty for a complete category."""
    if cell.complete:
        return []
    return [(task.id, format_task(tc)) for task, tc in zip(cell.category.tasks, cell.tasks, strict=True) if tc is not None]


def format_cell_with_tasks(cell: CategoryCell, code: str = "`") -> str:
    """`format_cell`, an Incomplete one followed by the scores of the tasks that were run:
    "Incomplete (1 of 5 tasks): `chain-of-title` 95.5 (92.0–98.0)"."""
    done = done_tasks(cell)
    if not done:
        return format_cell(cell)
    return format_cell(cell) + ": " + "; ".join(f"{code}{task}{code} {score}" for task, score in done)


def plot_waiting(board: Board) -> list[str]:
    """Why each system of the board is not on the cost–score chart: what the chart waits for."""
    site = _site_category()
    out = []
    for cell in board.rows(site):
        if not cell.complete:
            out.append(f"{cell.system.label}: {cell.done} of {cell.total} {site.name} tasks run")
        elif cell.cost_per_site is None:
            out.append(f"{cell.system.label}: no cost per site (its adapter reported no cost)")
    return out


def system_source(board: Board, system: System) -> str:
    """Where a system's runs came from, in words (every category's row of it)."""
    return describe_summary(summarize(run.source for run in board.runs_of(system)))


def cell_source(cell: CategoryCell) -> str:
    """Where the runs behind one row of a category came from, in words."""
    return describe_summary(summarize(cell.sources))


def format_run(run: RunResult) -> str:
    return format_score(run.score, interval=run.interval)


def _site_category() -> Category:
    return next(c for c in cats.CATEGORIES if c.per_site)


# -- JSON ---------------------------------------------------------------------------------------


def _task_json(cell: TaskCell, per_site: bool) -> dict[str, Any]:
    out = {
        "task": cell.task.id,
        "weight": cell.task.weight,
        "score": _round(cell.mean),
        "range": [_round(cell.low), _round(cell.high)],
        "interval": _interval_json(cell.interval),
        "repeats": len(cell.runs),
        "runs": [
            {"run_id": r.run_id, "path": str(r.path), "score": _round(r.score), "interval": _interval_json(r.interval), "source": r.source.to_json()}
            for r in cell.runs
        ],
    }
    if per_site:
        out["cost_per_site_usd"] = _round(cell.cost_per_site)
        out["wall_time_per_site_s"] = _round(cell.wall_time_per_site)
    return out


def board_json(board: Board) -> dict[str, Any]:
    """Machine-readable board; always carries component scores (no overall score, by design).

    Where the runs came from: `trust` (what no board can know), each run's `source`
    (`sources.Source.to_json`), and a summary of its runs' sources on each row and system."""
    out_categories = []
    for category in cats.CATEGORIES:
        rows = []
        for cell in board.rows(category):
            row: dict[str, Any] = {
                "system": cell.system.to_json(),
                "complete": cell.complete,
                "tasks_done": cell.done,
                "tasks_total": cell.total,
                "display": format_cell(cell),
                "score": _round(cell.score),
                "range": None if not cell.complete else [_round(cell.low), _round(cell.high)],
                "interval": _interval_json(cell.interval),
                "source": summarize(cell.sources),
                "tasks": {
                    task.id: (None if tc is None else _task_json(tc, category.per_site))
                    for task, tc in zip(category.tasks, cell.tasks, strict=True)
                },
            }
            if category.per_site:
                row["cost_per_site_usd"] = _round(cell.cost_per_site)
                row["wall_time_per_site_s"] = _round(cell.wall_time_per_site)
                row["pareto"] = board.on_front(cell)
            rows.append(row)
        out_categories.append(
            {
                "id": category.id,
                "name": category.name,
                "per_site": category.per_site,
                "total_weight": category.total_weight,
                "tasks": [{"id": t.id, "weight": t.weight, "formula": t.formula.name} for t in category.tasks],
                "rows": rows,
            }
        )
    return {
        "format": LEADERBOARD_FORMAT,
        "scoring_version": cats.SCORING_VERSION,
        "trust": TRUST_NOTE,
        "bootstrap": BOOTSTRAP,
        "systems": [{**s.to_json(), "source": summarize(run.source for run in board.runs_of(s))} for s in board.systems],
        "categories": out_categories,
        "pins": {task: pin.to_json() for task, pin in sorted(board.pins.items())},
        "refused": [r.to_json() for r in board.refused],
        "notes": list(board.notes),
    }


def render_json(board: Board) -> str:
    return dumps(board_json(board))


# -- Markdown -----------------------------------------------------------------------------------


def _md(text: str) -> str:
    # Labels, paths and reasons come from run directories: nothing in them may open a table
    # cell, an HTML tag or a code span.
    return (
        text.replace("\\", "\\\\")
        .replace("|", "\\|")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("`", "\\`")
        .replace("\r", " ")
        .replace("\n", " ")
    )


def _md_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def render_markdown(board: Board, *, tasks: bool = False) -> str:
    lines = [
        "# EnviroBench leaderboard",
        "",
        f"Scoring version `{cats.SCORING_VERSION}`. One row per system (adapter · model · options), one "
        f"column per category. Scores are 0–100; {INTERVAL_NOTE} [low–high] is the range over repeats. A category "
        "a system has not run in full shows Incomplete. There is no overall score.",
        "",
        f"**Trust.** {SOURCE_NOTE} {TRUST_NOTE}",
        "",
        "## Categories",
        "",
    ]
    if not board.systems:
        lines += ["No accepted runs.", ""]
    else:
        header = ["System"] + [c.name for c in cats.CATEGORIES] + ["Source"]
        rows = [[_md(s.label)] + [format_cell_with_tasks(board.cell(c, s)) for c in cats.CATEGORIES] + [system_source(board, s)] for s in board.systems]
        lines += _md_table(header, rows) + [""]
    site = _site_category()
    lines += [
        f"## {site.name} board",
        "",
        "Sorted by score (descending), then cost per site (ascending). ◆ marks the systems on the "
        "cost–score Pareto front.",
        "",
    ]
    waiting = plot_waiting(board)
    if board.systems and waiting:
        lines += [f"Not on the cost–score chart yet (a system is plotted once it has run every {site.name} task and its cost is known): "
                  + "; ".join(_md(w) for w in waiting) + ".", ""]
    if board.systems:
        header = ["#", "System", site.name, "Cost per site", "Wall time per site", "Pareto"]
        if tasks:
            for t in site.tasks:
                header += [f"`{t.id}` (w {t.weight})", "cost/site", "time/site"]
        header.append("Source")
        rows = []
        for rank, cell in enumerate(board.rows(site), start=1):
            row = [str(rank), _md(cell.system.label), format_cell(cell), format_cost(cell.cost_per_site), format_time(cell.wall_time_per_site), "◆" if board.on_front(cell) else ""]
            if tasks:
                for tc in cell.tasks:
                    row += [format_task(tc), format_cost(tc and tc.cost_per_site), format_time(tc and tc.wall_time_per_site)]
            row.append(cell_source(cell))
            rows.append(row)
        lines += _md_table(header, rows) + [""]
    if tasks and board.systems:
        for category in cats.CATEGORIES:
            if category.per_site:
                continue
            lines += [f"## {category.name} tasks", ""]
            header = ["System", category.name] + [f"`{t.id}` (w {t.weight})" for t in category.tasks] + ["Source"]
            rows = [[_md(cell.system.label), format_cell(cell)] + [format_task(tc) for tc in cell.tasks] + [cell_source(cell)] for cell in board.rows(category)]
            lines += _md_table(header, rows) + [""]
    if board.systems:
        runs = board.runs()
        lines += [f"## Runs ({len(runs)})", "", RUNS_NOTE, ""]
        rows = [[_md(system.label), f"`{run.task}`", _md(run.run_id), format_run(run), _md(run.source.describe()), _md(str(run.path))] for system, run in runs]
        lines += _md_table(["System", "Task", "Run ID", "Score", "Source", "Run directory"], rows) + [""]
    lines += ["## Pinned datasets", ""]
    if board.pins:
        rows = [
            [f"`{task}`", _md(pin.identity.id or "—"), "—" if pin.identity.version is None else str(pin.identity.version), f"`{pin.identity.digest}`", _md(pin.source)]
            for task, pin in sorted(board.pins.items())
        ]
        lines += _md_table(["Task", "Dataset", "Version", "Digest", "Pinned by"], rows) + [""]
    else:
        lines += ["None.", ""]
    if board.refused:
        lines += [f"## Refused runs ({len(board.refused)})", ""]
        rows = [[_md(str(r.path)), _md(r.run_id or "—"), _md(r.reason)] for r in board.refused]
        lines += _md_table(["Run directory", "Run ID", "Reason"], rows) + [""]
    return "\n".join(lines).rstrip("\n") + "\n"


# -- HTML ---------------------------------------------------------------------------------------


def _nice_ceiling(value: float) -> float:
    if value <= 0:
        return 1.0
    magnitude = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 2.5, 5, 10):
        if step * magnitude >= value:
            return step * magnitude
    return 10 * magnitude


def scatter(board: Board) -> dict[str, Any]:
    """Geometry of the Site score-against-cost-per-site scatter (complete systems with a cost)."""
    site = _site_category()
    width, height, left, right, top, bottom = 680, 380, 64, 24, 16, 52
    plot_w, plot_h = width - left - right, height - top - bottom
    ranked = [(rank, cell) for rank, cell in enumerate(board.rows(site), start=1) if cell.complete and cell.cost_per_site is not None]
    xmax = _nice_ceiling(max((cell.cost_per_site for _, cell in ranked), default=0.0))

    def x(cost: float) -> float:
        return left + cost / xmax * plot_w

    def y(score: float) -> float:
        return top + (100 - score) / 100 * plot_h

    points = [
        {
            "rank": rank,
            "x": x(cell.cost_per_site),
            "y": y(cell.score),
            "ylow": y(cell.low),
            "yhigh": y(cell.high),
            "ci": None if cell.interval is None else (y(cell.interval.low), y(cell.interval.high)),
            "pareto": board.on_front(cell),
            "title": f"#{rank} {cell.system.label}: {format_cell(cell)}, {format_cost(cell.cost_per_site)} per site, {format_time(cell.wall_time_per_site)} per site",
        }
        for rank, cell in ranked
    ]
    front = sorted((p for p in points if p["pareto"]), key=lambda p: (p["x"], -p["y"]))
    return {
        "width": width,
        "height": height,
        "left": left,
        "top": top,
        "right": width - right,
        "bottom": height - bottom,
        "points": points,
        "front": " ".join(f"{p['x']:.1f},{p['y']:.1f}" for p in front),
        "xticks": [{"x": x(xmax * i / 4), "label": format_cost(xmax * i / 4)} for i in range(5)],
        "yticks": [{"y": y(v), "label": str(v)} for v in range(0, 101, 20)],
    }


HTML_TEMPLATE = "leaderboard.html.j2"

# The same environment as the report's: autoescaping is what keeps labels, paths and reasons
# from run directories out of the markup.
_ENV = environment(html=True)


def render_html(board: Board, *, tasks: bool = False) -> str:
    """One offline file: a Content-Security-Policy forbids every request; all text is escaped."""
    site = _site_category()
    return _ENV.get_template(HTML_TEMPLATE).render(
        scoring_version=cats.SCORING_VERSION,
        systems=board.systems,
        categories=cats.CATEGORIES,
        main_rows=[{"label": s.label, "cells": [board.cell(c, s) for c in cats.CATEGORIES], "source": system_source(board, s)} for s in board.systems],
        site=site,
        site_rows=list(enumerate(board.rows(site), start=1)),
        show_tasks=tasks,
        task_boards=[(c, board.rows(c)) for c in cats.CATEGORIES if not c.per_site],
        plot=scatter(board),
        plot_waiting=plot_waiting(board),
        done_tasks=done_tasks,
        interval_note=INTERVAL_NOTE,
        source_note=SOURCE_NOTE,
        trust_note=TRUST_NOTE,
        runs_note=RUNS_NOTE,
        runs=board.runs(),
        system_source=lambda system: system_source(board, system),
        cell_source=cell_source,
        format_run=format_run,
        pins=sorted(board.pins.items()),
        refused=board.refused,
        on_front=board.on_front,
        format_cell=format_cell,
        format_cost=format_cost,
        format_time=format_time,
        format_task=format_task,
    )


RENDERERS = {"md": render_markdown, "html": render_html}


def render(board: Board, fmt: str, *, tasks: bool = False) -> str:
    """The board in `fmt`: md, html or json (JSON always has the task scores)."""
    if fmt == "json":
        return render_json(board)
    return RENDERERS[fmt](board, tasks=tasks)
