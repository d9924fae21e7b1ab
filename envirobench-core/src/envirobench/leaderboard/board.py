"""The board: category scores of systems, from the runs that take part.

A *system* is an adapter name + model + adapter options. Each accepted run is one component
score of its task (`runs`). Rules:

- Complete or nothing: a system without an accepted run for every task of a category shows
  `Incomplete (n of m tasks)`; a missing task is never zero and never dropped.
- Repeats: the category score is the weighted mean of each task's mean over its runs; its range
  is the weighted mean of each task's lowest and of each task's highest run.
- Intervals (docs/runs.md, "Statistics"): each task's score is bootstrapped over the pinned
  dataset's cases (a system's repeats on the same resampled cases), and a category's interval is
  the percentile interval of the weighted mean of its tasks' resampled scores.
- No overall score: categories are never combined.
- Scores are computed here, never taken from the run: each run is rescored from its saved,
  checked predictions against the pinned dataset with the installed type (`runs.rescore`).
- Every run says where its directory came from, and so every row (`sources`): a row is only as
  trustworthy as those directories, and a forged one is ranked like any other (`TRUST_NOTE`).
- Runs that did not complete, whose task's type is not installed, whose dataset identity
  differs from the version pinned for their task (`pins`), whose pinned dataset is not on this
  machine, or that cannot be scored are refused, each with its reason.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from .. import categories as cats
from .. import statistics
from ..categories import Category, ScoreRefused, Task
from ..errors import EnviroBenchError
from ..plugins import Registry, get_registry
from ..rundir import Interval
from ..statistics import percentile_interval
from .pins import Pin, load_pinned, resolve_pins
from .runs import RunEntry, RunRefused, RunResult, System, find_run_dirs, read_run, rescore
from .sources import Source


@attrs.frozen
class Refusal:
    """A run directory left off the board, and why."""

    path: Path
    run_id: str | None
    reason: str

    def describe(self) -> str:
        name = f" (run {self.run_id})" if self.run_id else ""
        return f"{self.path}{name}: {self.reason}"

    def to_json(self) -> dict[str, Any]:
        return {"path": str(self.path), "run_id": self.run_id, "reason": self.reason}


def _weighted(values: Sequence[tuple[int, float]]) -> float:
    return sum(w * v for w, v in values) / sum(w for w, _ in values)


def _interval(resamples: Sequence[float | None] | None) -> Interval | None:
    return None if resamples is None else percentile_interval(v for v in resamples if v is not None)


@attrs.frozen
class TaskCell:
    """One system on one task: its repeats."""

    task: Task
    runs: tuple[RunResult, ...]

    @property
    def scores(self) -> list[float]:
        return [run.score for run in self.runs]

    @property
    def mean(self) -> float:
        return sum(self.scores) / len(self.runs)

    @property
    def low(self) -> float:
        return min(self.scores)

    @property
    def high(self) -> float:
        return max(self.scores)

    @property
    def resamples(self) -> list[float | None] | None:
        """The task's score (the mean over repeats) on each resample; None where a repeat has none."""
        vectors = [run.resamples for run in self.runs]
        if any(v is None for v in vectors):
            return None
        return [None if None in values else math.fsum(values) / len(values) for values in zip(*vectors, strict=True)]  # type: ignore[arg-type]

    @property
    def interval(self) -> Interval | None:
        """The 95 % interval of the task's score, from resampling its cases."""
        return _interval(self.resamples)

    def _per_site(self, attr: str) -> float | None:
        values = [getattr(run, attr) for run in self.runs]
        if any(v is None for v in values):
            return None
        return sum(values) / len(values)

    @property
    def cost_per_site(self) -> float | None:
        return self._per_site("cost_per_site")

    @property
    def wall_time_per_site(self) -> float | None:
        return self._per_site("wall_time_per_site")


@attrs.frozen
class CategoryCell:
    """One system in one category: complete with a score and range, or Incomplete (n of m)."""

    category: Category
    system: System
    tasks: tuple[TaskCell | None, ...]  # aligned with category.tasks

    @property
    def done(self) -> int:
        return sum(cell is not None for cell in self.tasks)

    @property
    def total(self) -> int:
        return len(self.category.tasks)

    @property
    def complete(self) -> bool:
        return self.done == self.total

    def _weighted(self, attr: str) -> float | None:
        if not self.complete:
            return None
        return _weighted([(cell.task.weight, getattr(cell, attr)) for cell in self.tasks if cell is not None])

    @property
    def score(self) -> float | None:
        return self._weighted("mean")

    @property
    def low(self) -> float | None:
        return self._weighted("low")

    @property
    def high(self) -> float | None:
        return self._weighted("high")

    @property
    def interval(self) -> Interval | None:
        """The 95 % interval of the category score: the weighted mean of its tasks' scores on each
        resample (the tasks resampled independently), where every task has one."""
        if not self.complete:
            return None
        weighted = [(cell.task.weight, cell.resamples) for cell in self.tasks if cell is not None]
        if any(r is None for _, r in weighted):
            return None
        total = sum(w for w, _ in weighted)
        combined = [
            None if None in values else math.fsum(w * v for (w, _), v in zip(weighted, values, strict=True)) / total
            for values in zip(*(r for _, r in weighted), strict=True)  # type: ignore[arg-type]
        ]
        return _interval(combined)

    def _sum(self, attr: str) -> float | None:
        if not self.complete:
            return None
        values = [getattr(cell, attr) for cell in self.tasks if cell is not None]
        return None if any(v is None for v in values) else sum(values)

    @property
    def runs(self) -> list[RunResult]:
        """Every run behind the cell, in the order of the category's tasks."""
        return [run for cell in self.tasks if cell is not None for run in cell.runs]

    @property
    def sources(self) -> list[Source]:
        """Where each run behind the cell came from."""
        return [run.source for run in self.runs]

    @property
    def cost_per_site(self) -> float | None:
        """Per-site cost of the whole category: the sum over its tasks (complete systems only)."""
        return self._sum("cost_per_site")

    @property
    def wall_time_per_site(self) -> float | None:
        return self._sum("wall_time_per_site")

    def sort_key(self) -> tuple[Any, ...]:
        if not self.complete:
            return (1, -self.done, self.system.label)
        if self.category.per_site:
            cost = self.cost_per_site
            wall = self.wall_time_per_site
            return (0, -self.score, math.inf if cost is None else cost, math.inf if wall is None else wall, self.system.label)
        return (0, -self.score, self.system.label)


@attrs.frozen
class Board:
    """Every system's cell in every category, with the pins, refusals and notes behind them."""

    systems: tuple[System, ...]  # sorted by label; categories are never combined, so no rank
    cells: Mapping[tuple[str, System], CategoryCell]
    pins: Mapping[str, Pin]
    refused: tuple[Refusal, ...]
    pareto: frozenset[tuple[str, System]]
    notes: tuple[str, ...] = ()

    def cell(self, category: Category | str, system: System) -> CategoryCell:
        category_id = category if isinstance(category, str) else category.id
        return self.cells[(category_id, system)]

    def rows(self, category: Category) -> list[CategoryCell]:
        """The systems of one category's board, best first (Site: score desc, then cost asc)."""
        return sorted((self.cell(category, s) for s in self.systems), key=CategoryCell.sort_key)

    def on_front(self, cell: CategoryCell) -> bool:
        return (cell.category.id, cell.system) in self.pareto

    def runs_of(self, system: System) -> list[RunResult]:
        """Every accepted run of a system, category by category (a task of two categories once)."""
        runs = {str(run.path): run for category in cats.CATEGORIES for run in self.cell(category, system).runs}
        return list(runs.values())

    def runs(self) -> list[tuple[System, RunResult]]:
        """Every accepted run on the board, system by system."""
        return [(system, run) for system in self.systems for run in self.runs_of(system)]


def pareto_front(points: Mapping[Any, tuple[float, float]]) -> set[Any]:
    """Keys of (score, cost) points no other point beats: score >= and cost <=, one strictly."""
    front = set()
    for key, (score, cost) in points.items():
        dominated = any(
            other != key and s >= score and c <= cost and (s > score or c < cost)
            for other, (s, c) in points.items()
        )
        if not dominated:
            front.add(key)
    return front


def build_board(
    runs: Sequence[RunResult],
    pins: Mapping[str, Pin] | None = None,
    refused: Sequence[Refusal] = (),
    notes: Sequence[str] = (),
) -> Board:
    """Category cells of every system that has an accepted run (runs must already be filtered)."""
    systems = tuple(sorted({run.system for run in runs}, key=lambda s: (s.label, s)))
    by_key: dict[tuple[System, str], list[RunResult]] = {}
    for run in runs:
        by_key.setdefault((run.system, run.task), []).append(run)
    cells: dict[tuple[str, System], CategoryCell] = {}
    front: set[tuple[str, System]] = set()
    for category in cats.CATEGORIES:
        for system in systems:
            task_cells = tuple(
                TaskCell(task, tuple(sorted(by_key[(system, task.id)], key=lambda r: (r.run_id, str(r.path)))))
                if (system, task.id) in by_key
                else None
                for task in category.tasks
            )
            cells[(category.id, system)] = CategoryCell(category, system, task_cells)
        if category.per_site:
            points = {}
            for system in systems:
                cell = cells[(category.id, system)]
                if cell.complete and cell.cost_per_site is not None:
                    points[(category.id, system)] = (cell.score, cell.cost_per_site)
            front |= pareto_front(points)
    return Board(systems, cells, dict(pins or {}), tuple(refused), frozenset(front), tuple(notes))


def build_leaderboard(
    paths: Iterable[str | Path],
    pins: Mapping[str, str] | None = None,
    registry: Registry | None = None,
) -> Board:
    """Find, read, pin-check and rescore every run under `paths`; the refused ones carry reasons.

    `registry` (default: the one in force) gives the installed types and datasets. Each task's
    pinned dataset is loaded once and every run of the task is scored against it.
    """
    registry = registry if registry is not None else get_registry()
    refused: list[Refusal] = []
    entries: list[RunEntry] = []
    for run_dir in find_run_dirs(paths):
        try:
            entries.append(read_run(run_dir, registry))
        except RunRefused as exc:
            refused.append(Refusal(run_dir, exc.run_id, exc.reason))
    notes: list[str] = []
    pinned = resolve_pins(entries, pins, registry, notes)
    by_task: dict[str, list[RunEntry]] = {}
    for entry in entries:
        pin = pinned[entry.task]
        if pin.accepts(entry.identity):
            by_task.setdefault(entry.task, []).append(entry)
        else:
            refused.append(Refusal(entry.path, entry.run_id, pin.mismatch(entry.identity)))
    scored: list[RunResult] = []
    units: dict[str, statistics.Units] = {}
    for task_id, task_entries in sorted(by_task.items()):
        try:
            contents = load_pinned(pinned[task_id], task_entries, registry)
        except EnviroBenchError as exc:
            refused += [Refusal(e.path, e.run_id, str(exc)) for e in task_entries]
            continue
        btype = registry.benchmark_type(task_id)
        units[task_id] = statistics.Units.of(btype, contents.cases)
        for entry in task_entries:
            try:
                scored.append(rescore(entry, btype, contents))
            except RunRefused as exc:
                refused.append(Refusal(entry.path, exc.run_id, exc.reason))
        del contents  # its runs are scored: the board keeps the pin, not the dataset
        pinned[task_id] = attrs.evolve(pinned[task_id], contents=None)
    accepted: list[RunResult] = []
    seen: dict[tuple[str, str, System], RunResult] = {}
    for run in sorted(scored, key=lambda r: str(r.path)):
        key = (run.run_id, run.task, run.system)
        if key in seen:
            refused.append(Refusal(run.path, run.run_id, f"duplicate of {seen[key].path} (same run ID, task and system)"))
            continue
        seen[key] = run
        accepted.append(run)
    accepted = _with_resamples(accepted, units, registry)
    refused.sort(key=lambda r: str(r.path))
    kept = {task_id: attrs.evolve(pin, contents=None) for task_id, pin in pinned.items()}
    return build_board(accepted, kept, refused, notes)


def _with_resamples(runs: Sequence[RunResult], units: Mapping[str, statistics.Units], registry: Registry) -> list[RunResult]:
    """Each run's component score on every resample of its task's cases, drawn for all of one
    system's repeats of the task together (their mean is the task's score), and its case scores
    dropped. A resample on which the task's formula gives no score counts as none."""
    groups: dict[tuple[str, System], list[int]] = {}
    for i, run in enumerate(runs):
        groups.setdefault((run.task, run.system), []).append(i)
    out = list(runs)
    for (task_id, _), members in groups.items():
        btype = registry.benchmark_type(task_id)
        task = cats.all_tasks()[task_id][1]
        primary = btype.HEADLINE[0]

        def component(headline: Mapping[str, float] | None, task: Task = task, primary: str = primary) -> float | None:
            if headline is None:
                return None
            try:
                return task.component_score(headline, primary)
            except ScoreRefused:
                return None

        scores = [runs[i].case_scores for i in members]
        if any(s is None for s in scores):
            continue
        rng = statistics.stream("leaderboard", task_id)
        resamples: list[list[float | None]] = [[] for _ in members]
        for headlines in statistics.resampled_headlines(btype, btype.PROFILES[0], units[task_id], scores, rng):  # type: ignore[arg-type]
            for values, headline in zip(resamples, headlines, strict=True):
                values.append(component(headline))
        for i, values in zip(members, resamples, strict=True):
            out[i] = attrs.evolve(runs[i], resamples=tuple(values))
    return [attrs.evolve(run, case_scores=None) for run in out]
