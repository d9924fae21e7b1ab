"""Leaderboards (DESIGN §8): category scores of systems from finished run directories.

A *system* is an adapter name + model + adapter options. Runs are read from run directories
(`run.json` + `metrics.json`), each scored as a component score of its task by the formula in
`envirobench.categories`. Rules:

- Complete or nothing: a system without an accepted run for every task of a category shows
  `Incomplete (n of m tasks)`; a missing task is never zero and never dropped.
- Repeats: the category score is the weighted mean of each task's mean over its runs; its range
  is the weighted mean of each task's lowest and of each task's highest run.
- No overall score: categories are never combined.
- Runs that did not complete, cannot be scored, or whose dataset identity differs from the
  version pinned for their task are refused, each with its reason.

Pinning (one dataset identity per task), in this order:

1. `--pin TASK=DATASET`: a digest (`sha256:...`, compared with the run's `dataset.digest`) or a
   registered dataset ID / dataset directory, which is loaded and verified; its identity is pinned.
2. The dataset the installed plugins register for the task (verified by loading it). Several
   registered datasets for one task are ambiguous: choose one with `--pin`.
3. Otherwise, from the runs themselves: their one identity when they agree; when they differ only
   by revision of one dataset ID, the highest revision (older runs must be re-keyed with
   `envirobench score`); anything else is ambiguous and needs `--pin`.

A run of a task whose type is installed must also carry the installed type's scoring version.
"""

from __future__ import annotations

import json
import math
import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
import jinja2

from . import categories as cats
from .categories import Category, ScoreRefused, Task
from .errors import EnviroBenchError
from .jsonio import dumps, read_json

LEADERBOARD_FORMAT = "envirobench.leaderboard.v1"
RUN_FORMAT = "envirobench.run.v1"
METRICS_FORMAT = "envirobench.metrics.v1"
RUN_FILE = "run.json"
METRICS_FILE = "metrics.json"


class RunRefused(Exception):
    """Internal: why a run directory cannot take part in the leaderboard."""

    def __init__(self, reason: str, run_id: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.run_id = run_id


# -- records ----------------------------------------------------------------------------------


@attrs.frozen(order=True)
class System:
    """What is being measured: adapter name, model and adapter options (canonical JSON)."""

    adapter: str
    model: str
    options: str = "{}"

    @classmethod
    def of(cls, adapter: str, model: str, options: Mapping[str, Any] | None = None) -> System:
        return cls(adapter, model, json.dumps(dict(options or {}), sort_keys=True, ensure_ascii=False))

    @property
    def options_dict(self) -> dict[str, Any]:
        return json.loads(self.options)

    @property
    def label(self) -> str:
        options = self.options_dict
        parts = [self.adapter, self.model]
        if options:
            parts.append(", ".join(f"{k}={v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)}" for k, v in options.items()))
        return " · ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {"adapter": self.adapter, "model": self.model, "options": self.options_dict, "label": self.label}


@attrs.frozen
class Identity:
    """A dataset identity as recorded in a run (or pinned); id/version are None for a digest pin."""

    id: str | None
    version: int | None
    digest: str
    input_digest: str | None = None
    answer_digest: str | None = None

    @property
    def key(self) -> tuple[str | None, int | None, str]:
        return (self.id, self.version, self.digest)

    def describe(self) -> str:
        if self.id is None:
            return self.digest
        return f"{self.id} v{self.version} ({self.digest})"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "version": self.version,
            "digest": self.digest,
            "input_digest": self.input_digest,
            "answer_digest": self.answer_digest,
        }


@attrs.frozen
class Pin:
    task: str
    identity: Identity
    source: str  # how it was chosen, for readers

    def accepts(self, identity: Identity) -> bool:
        if self.identity.id is None:
            return identity.digest == self.identity.digest
        return identity.key == self.identity.key

    def mismatch(self, identity: Identity) -> str:
        pinned = self.identity
        head = f"dataset {identity.describe()} differs from the version pinned for {self.task}: {pinned.describe()} ({self.source})"
        if pinned.id is not None and identity.id == pinned.id and identity.version == pinned.version:
            if pinned.input_digest and identity.input_digest == pinned.input_digest:
                return head + "; same inputs, another answer key: re-key the run with `envirobench score`"
            return head + "; same ID and version but other content"
        if pinned.id is not None and identity.id == pinned.id and identity.version != pinned.version:
            return head + "; another revision: re-key or rerun it on the pinned revision"
        return head

    def to_json(self) -> dict[str, Any]:
        return {"task": self.task, "dataset": self.identity.to_json(), "source": self.source}


@attrs.frozen
class RunResult:
    """One accepted run: its component score and what it cost."""

    path: Path
    run_id: str
    task: str
    system: System
    identity: Identity
    scoring_version: str | None
    score: float
    cost_usd: float | None
    wall_time_s: float | None
    sites: float | None  # cases.sites, falling back to cases.scored

    @property
    def cost_per_site(self) -> float | None:
        return None if self.cost_usd is None or not self.sites else self.cost_usd / self.sites

    @property
    def wall_time_per_site(self) -> float | None:
        return None if self.wall_time_s is None or not self.sites else self.wall_time_s / self.sites


@attrs.frozen
class Refusal:
    path: Path
    run_id: str | None
    reason: str

    def describe(self) -> str:
        name = f" (run {self.run_id})" if self.run_id else ""
        return f"{self.path}{name}: {self.reason}"

    def to_json(self) -> dict[str, Any]:
        return {"path": str(self.path), "run_id": self.run_id, "reason": self.reason}


# -- finding and reading runs -----------------------------------------------------------------


def find_run_dirs(paths: Iterable[str | Path]) -> list[Path]:
    """Run directories named directly, or found under results directories (any folder with run.json).

    A run directory is not searched further (its adapter/ folder belongs to the adapter), and
    links to directories are not followed.
    """
    found: dict[Path, Path] = {}
    for given in paths:
        root = Path(given)
        if (root / RUN_FILE).is_file():
            found.setdefault(root.resolve(), root)
            continue
        if not root.is_dir():
            raise EnviroBenchError("not a run directory nor a results directory", file=root)
        before = len(found)
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            if RUN_FILE in filenames:
                found.setdefault(Path(dirpath).resolve(), Path(dirpath))
                dirnames[:] = []
        if len(found) == before:
            raise EnviroBenchError(f"no run directory (a folder holding {RUN_FILE}) found here", file=root)
    return sorted(found.values(), key=lambda p: str(p))


_MISSING = object()


def _field(data: Any, path: str, kind: str, file: str, *, optional: bool = False) -> Any:
    """`$.a.b` of a JSON object, checked to be of `kind` (str, int, number, object, list)."""
    current = data
    for key in path.split("."):
        if not isinstance(current, dict) or key not in current:
            current = _MISSING
            break
        current = current[key]
    if current is _MISSING or current is None:
        if optional:
            return None
        raise RunRefused(f"{file} has no $.{path}")
    ok = {
        "str": isinstance(current, str) and current != "",
        "int": isinstance(current, int) and not isinstance(current, bool),
        "number": isinstance(current, (int, float)) and not isinstance(current, bool) and math.isfinite(current),
        "object": isinstance(current, dict),
        "list": isinstance(current, list) and bool(current) and all(isinstance(v, str) for v in current),
    }[kind]
    if not ok:
        expected = {"str": "a non-empty string", "int": "an integer", "number": "a finite number", "object": "an object", "list": "a non-empty list of strings"}[kind]
        raise RunRefused(f"{file} $.{path} is {json.dumps(current)[:80]}, expected {expected}")
    return current


def read_run(run_dir: str | Path) -> RunResult:
    """Read and score one run directory; RunRefused (with the reason) when it cannot take part."""
    run_dir = Path(run_dir)
    try:
        run = read_json(run_dir / RUN_FILE)
    except EnviroBenchError as exc:
        raise RunRefused(exc.message) from None
    if not isinstance(run, dict):
        raise RunRefused(f"{RUN_FILE} is not a JSON object")
    run_id = run.get("run_id") if isinstance(run.get("run_id"), str) else None
    try:
        return _read_run(run_dir, run, run_id)
    except RunRefused as exc:
        exc.run_id = run_id
        raise


def _read_run(run_dir: Path, run: dict[str, Any], run_id: str | None) -> RunResult:
    if run.get("format") != RUN_FORMAT:
        raise RunRefused(f"{RUN_FILE} has format {run.get('format')!r}, expected {RUN_FORMAT!r}")
    if run_id is None:
        raise RunRefused(f"{RUN_FILE} has no run_id")
    status = run.get("status")
    if status != "completed":
        raise RunRefused(f"run status is {status!r}, not 'completed': a run that failed or did not finish has no score")
    task_id = _field(run, "benchmark.id", "str", RUN_FILE)
    found = cats.all_tasks().get(task_id)
    if found is None:
        raise RunRefused(f"benchmark {task_id!r} is not a task of any category in {cats.SCORING_VERSION}")
    _, task = found
    profile = _field(run, "benchmark.profiles", "list", RUN_FILE)[0]
    primary = _field(run, "benchmark.headline", "list", RUN_FILE)[0]
    scoring_version = _field(run, "benchmark.scoring_version", "str", RUN_FILE, optional=True)
    system = System.of(
        _field(run, "adapter.name", "str", RUN_FILE),
        _field(run, "model", "str", RUN_FILE),
        _field(run, "options", "object", RUN_FILE, optional=True),
    )
    identity = Identity(
        _field(run, "dataset.id", "str", RUN_FILE),
        _field(run, "dataset.version", "int", RUN_FILE),
        _field(run, "dataset.digest", "str", RUN_FILE),
        _field(run, "dataset.input_digest", "str", RUN_FILE, optional=True),
        _field(run, "dataset.answer_digest", "str", RUN_FILE, optional=True),
    )
    cost = _field(run, "cost_usd", "number", RUN_FILE, optional=True)
    wall = _field(run, "wall_time_s", "number", RUN_FILE, optional=True)
    sites = _field(run, "cases.sites", "number", RUN_FILE, optional=True)
    if sites is None:
        sites = _field(run, "cases.scored", "number", RUN_FILE, optional=True)

    try:
        metrics = read_json(run_dir / METRICS_FILE)
    except EnviroBenchError as exc:
        raise RunRefused(exc.message) from None
    if not isinstance(metrics, dict) or metrics.get("format") != METRICS_FORMAT:
        got = metrics.get("format") if isinstance(metrics, dict) else None
        raise RunRefused(f"{METRICS_FILE} has format {got!r}, expected {METRICS_FORMAT!r}")
    if not isinstance(metrics.get("profiles"), dict) or profile not in metrics["profiles"]:
        raise RunRefused(f"{METRICS_FILE} has no metrics for the default profile {profile!r}")
    profile_metrics = metrics["profiles"][profile]
    if not isinstance(profile_metrics, dict) or profile_metrics.get("available") is not True:
        raise RunRefused(f"profile {profile!r} is unavailable in this run, so it has no {task.id} score")
    headline = profile_metrics.get("headline")
    if not isinstance(headline, dict):
        raise RunRefused(f"{METRICS_FILE} $.profiles.{profile}.headline is not an object")
    try:
        score = task.component_score(headline, primary)
    except ScoreRefused as exc:
        raise RunRefused(f"no {task.id} score: {exc.message}") from None
    return RunResult(
        path=run_dir,
        run_id=run_id,
        task=task.id,
        system=system,
        identity=identity,
        scoring_version=scoring_version,
        score=score,
        cost_usd=None if cost is None else float(cost),
        wall_time_s=None if wall is None else float(wall),
        sites=None if sites is None else float(sites),
    )


# -- pinning ----------------------------------------------------------------------------------


def parse_pin(text: str) -> tuple[str, str]:
    """`TASK=DATASET` -> (task, dataset); EnviroBenchError when malformed or not a task."""
    task_id, sep, value = text.partition("=")
    task_id, value = task_id.strip(), value.strip()
    if not sep or not task_id or not value:
        raise EnviroBenchError(f"--pin {text!r}: expected TASK=DIGEST or TASK=DATASET")
    if task_id not in cats.all_tasks():
        raise EnviroBenchError(f"--pin {text!r}: {task_id!r} is not a task of any category in {cats.SCORING_VERSION}")
    return task_id, value


def _identity_of(dataset: Any) -> Identity:
    ident = dataset.identity
    return Identity(ident.id, ident.version, ident.digest, ident.input_digest, ident.answer_digest)


def _explicit_pin(task_id: str, value: str, registry: Any) -> Pin:
    if value.startswith("sha256:"):
        return Pin(task_id, Identity(None, None, value), f"--pin {task_id}={value}")
    if registry is None:
        raise EnviroBenchError(f"--pin {task_id}={value}: loading a dataset needs the plugin registry")
    from . import datasets

    dataset = datasets.load_dataset(value, registry)
    if dataset.manifest.benchmark != task_id:
        raise EnviroBenchError(f"--pin {task_id}={value}: that dataset is for benchmark {dataset.manifest.benchmark!r}, not {task_id!r}")
    return Pin(task_id, _identity_of(dataset), f"--pin {task_id}={value}")


def _registered_by_task(registry: Any, notes: list[str]) -> dict[str, list[str]]:
    from . import datasets

    by_task: dict[str, list[str]] = {}
    for dataset_id, source in sorted(registry.datasets.items()):
        try:
            manifest = datasets.read_manifest(Path(source.path))
        except EnviroBenchError as exc:
            notes.append(f"registered dataset {dataset_id!r} is unreadable and pins nothing: {exc}")
            continue
        by_task.setdefault(manifest.benchmark, []).append(dataset_id)
    return by_task


def resolve_pins(
    runs: Sequence[RunResult],
    explicit: Mapping[str, str] | None = None,
    registry: Any = None,
    notes: list[str] | None = None,
) -> dict[str, Pin]:
    """The dataset identity pinned for every task that has runs (or an explicit pin)."""
    from . import datasets

    notes = notes if notes is not None else []
    pins = {task_id: _explicit_pin(task_id, value, registry) for task_id, value in (explicit or {}).items()}
    tasks_with_runs = sorted({run.task for run in runs})
    registered = _registered_by_task(registry, notes) if registry is not None and any(t not in pins for t in tasks_with_runs) else {}
    for task_id in tasks_with_runs:
        if task_id in pins:
            continue
        candidates = registered.get(task_id, [])
        if len(candidates) > 1:
            raise EnviroBenchError(
                f"task {task_id!r} has several registered datasets ({', '.join(candidates)}): "
                f"choose the one to pin with --pin {task_id}=DATASET"
            )
        if candidates:
            try:
                dataset = datasets.load_dataset(candidates[0], registry)
            except EnviroBenchError as exc:
                raise EnviroBenchError(f"cannot pin task {task_id!r}: the registered dataset {candidates[0]!r} is not valid: {exc}") from None
            pins[task_id] = Pin(task_id, _identity_of(dataset), f"installed registered dataset {candidates[0]}")
            continue
        pins[task_id] = _pin_from_runs(task_id, [run for run in runs if run.task == task_id])
    return pins


def _pin_from_runs(task_id: str, runs: Sequence[RunResult]) -> Pin:
    counts = Counter(run.identity.key for run in runs)
    by_key = {run.identity.key: run.identity for run in runs}
    if len(counts) == 1:
        return Pin(task_id, next(iter(by_key.values())), "the one dataset its runs used (no registered dataset)")
    ids = {key[0] for key in counts}
    if len(ids) == 1:
        latest = max(key[1] for key in counts)
        at_latest = [key for key in counts if key[1] == latest]
        if len(at_latest) == 1:
            return Pin(task_id, by_key[at_latest[0]], "the highest revision its runs used (no registered dataset)")
    listing = "; ".join(f"{by_key[key].describe()}: {n} run(s)" for key, n in sorted(counts.items(), key=lambda kv: str(kv[0])))
    raise EnviroBenchError(
        f"task {task_id!r} has runs on several datasets and none is registered ({listing}): "
        f"choose one with --pin {task_id}=DIGEST"
    )


# -- the board --------------------------------------------------------------------------------


def _weighted(values: Sequence[tuple[int, float]]) -> float:
    return sum(w * v for w, v in values) / sum(w for w, _ in values)


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

    def to_json(self, per_site: bool) -> dict[str, Any]:
        out = {
            "task": self.task.id,
            "weight": self.task.weight,
            "score": _round(self.mean),
            "range": [_round(self.low), _round(self.high)],
            "repeats": len(self.runs),
            "runs": [{"run_id": r.run_id, "path": str(r.path), "score": _round(r.score)} for r in self.runs],
        }
        if per_site:
            out["cost_per_site_usd"] = _round(self.cost_per_site)
            out["wall_time_per_site_s"] = _round(self.wall_time_per_site)
        return out


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

    def _sum(self, attr: str) -> float | None:
        if not self.complete:
            return None
        values = [getattr(cell, attr) for cell in self.tasks if cell is not None]
        return None if any(v is None for v in values) else sum(values)

    @property
    def cost_per_site(self) -> float | None:
        """Per-site cost of the whole category: the sum over its tasks (complete systems only)."""
        return self._sum("cost_per_site")

    @property
    def wall_time_per_site(self) -> float | None:
        return self._sum("wall_time_per_site")

    def display(self) -> str:
        if not self.complete:
            return f"Incomplete ({self.done} of {self.total} tasks)"
        return format_score(self.score, self.low, self.high)

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
    registry: Any = None,
) -> Board:
    """Find, read, pin-check and score every run under `paths`; the refused ones carry reasons."""
    refused: list[Refusal] = []
    readable: list[RunResult] = []
    for run_dir in find_run_dirs(paths):
        try:
            readable.append(read_run(run_dir))
        except RunRefused as exc:
            refused.append(Refusal(run_dir, exc.run_id, exc.reason))
    notes: list[str] = []
    installed = dict(registry.benchmark_types) if registry is not None else {}
    scorable = []
    for run in readable:
        if run.task in installed:
            version = installed[run.task][0].SCORING_VERSION
            if run.scoring_version != version:
                refused.append(Refusal(run.path, run.run_id, f"scored with {run.scoring_version!r}, but the installed {run.task} type scores with {version!r}: rescore it with `envirobench score`"))
                continue
        scorable.append(run)
    pinned = resolve_pins(scorable, pins, registry, notes)
    accepted: list[RunResult] = []
    seen: dict[tuple[str, str, System], RunResult] = {}
    for run in scorable:
        pin = pinned[run.task]
        if not pin.accepts(run.identity):
            refused.append(Refusal(run.path, run.run_id, pin.mismatch(run.identity)))
            continue
        key = (run.run_id, run.task, run.system)
        if key in seen:
            refused.append(Refusal(run.path, run.run_id, f"duplicate of {seen[key].path} (same run ID, task and system)"))
            continue
        seen[key] = run
        accepted.append(run)
    refused.sort(key=lambda r: str(r.path))
    return build_board(accepted, pinned, refused, notes)


# -- formatting -------------------------------------------------------------------------------


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 6)


def format_score(score: float, low: float | None = None, high: float | None = None) -> str:
    text = f"{score:.1f}"
    if low is not None and high is not None and f"{low:.1f}" != f"{high:.1f}":
        text += f" [{low:.1f}–{high:.1f}]"
    return text


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
    text = format_score(cell.mean, cell.low, cell.high)
    return text + (f" ×{len(cell.runs)}" if len(cell.runs) > 1 else "")


def board_json(board: Board) -> dict[str, Any]:
    """Machine-readable board; always carries component scores (no overall score, by design)."""
    out_categories = []
    for category in cats.CATEGORIES:
        rows = []
        for cell in board.rows(category):
            row: dict[str, Any] = {
                "system": cell.system.to_json(),
                "complete": cell.complete,
                "tasks_done": cell.done,
                "tasks_total": cell.total,
                "display": cell.display(),
                "score": _round(cell.score),
                "range": None if not cell.complete else [_round(cell.low), _round(cell.high)],
                "tasks": {
                    task.id: (None if tc is None else tc.to_json(category.per_site))
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
        "systems": [s.to_json() for s in board.systems],
        "categories": out_categories,
        "pins": {task: pin.to_json() for task, pin in sorted(board.pins.items())},
        "refused": [r.to_json() for r in board.refused],
        "notes": list(board.notes),
    }


def render_json(board: Board) -> str:
    return dumps(board_json(board))


def _md(text: str) -> str:
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


def _site_category() -> Category:
    return next(c for c in cats.CATEGORIES if c.per_site)


def render_markdown(board: Board, *, tasks: bool = False) -> str:
    lines = [
        "# EnviroBench leaderboard",
        "",
        f"Scoring version `{cats.SCORING_VERSION}`. One row per system (adapter · model · options), one "
        "column per category. Scores are 0–100; [low–high] is the range over repeats. A category "
        "a system has not run in full shows Incomplete. There is no overall score.",
        "",
        "## Categories",
        "",
    ]
    if not board.systems:
        lines += ["No accepted runs.", ""]
    else:
        header = ["System"] + [c.name for c in cats.CATEGORIES]
        rows = [[_md(s.label)] + [board.cell(c, s).display() for c in cats.CATEGORIES] for s in board.systems]
        lines += _md_table(header, rows) + [""]
    site = _site_category()
    lines += [
        f"## {site.name} board",
        "",
        "Sorted by score (descending), then cost per site (ascending). ◆ marks the systems on the "
        "cost–score Pareto front.",
        "",
    ]
    if board.systems:
        header = ["#", "System", site.name, "Cost per site", "Wall time per site", "Pareto"]
        if tasks:
            for t in site.tasks:
                header += [f"`{t.id}` (w {t.weight})", "cost/site", "time/site"]
        rows = []
        for rank, cell in enumerate(board.rows(site), start=1):
            row = [str(rank), _md(cell.system.label), cell.display(), format_cost(cell.cost_per_site), format_time(cell.wall_time_per_site), "◆" if board.on_front(cell) else ""]
            if tasks:
                for tc in cell.tasks:
                    row += [format_task(tc), format_cost(tc and tc.cost_per_site), format_time(tc and tc.wall_time_per_site)]
            rows.append(row)
        lines += _md_table(header, rows) + [""]
    if tasks and board.systems:
        for category in cats.CATEGORIES:
            if category.per_site:
                continue
            lines += [f"## {category.name} tasks", ""]
            header = ["System", category.name] + [f"`{t.id}` (w {t.weight})" for t in category.tasks]
            rows = [[_md(cell.system.label), cell.display()] + [format_task(tc) for tc in cell.tasks] for cell in board.rows(category)]
            lines += _md_table(header, rows) + [""]
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


# -- HTML -------------------------------------------------------------------------------------


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
            "pareto": board.on_front(cell),
            "title": f"#{rank} {cell.system.label}: {cell.display()}, {format_cost(cell.cost_per_site)} per site, {format_time(cell.wall_time_per_site)} per site",
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


_HTML = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True).from_string(
    """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>EnviroBench leaderboard</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem; color: #1d2327; max-width: 1400px; }
table { border-collapse: collapse; margin: .5rem 0 1.5rem; }
th, td { border: 1px solid #d0d7de; padding: .3rem .6rem; text-align: left; vertical-align: top; }
th { background: #f3f5f7; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.incomplete, td.missing { color: #8a6d00; font-style: italic; }
.note { color: #57606a; }
code { font-size: 90%; }
svg text { font: 11px system-ui, sans-serif; fill: #1d2327; }
svg .axis { stroke: #57606a; }
svg .grid { stroke: #e5e8eb; }
svg .front { fill: none; stroke: #1f6feb; stroke-width: 1.5; stroke-dasharray: 4 3; }
svg .range { stroke: #8c959f; }
svg .point { fill: #fff; stroke: #57606a; stroke-width: 1.5; }
svg .point.pareto { fill: #1f6feb; stroke: #1f6feb; }
</style>
</head>
<body>
<h1>EnviroBench leaderboard</h1>
<p class="note">Scoring version <code>{{ scoring_version }}</code>. One row per system (adapter · model · options),
one column per category. Scores are 0–100; [low–high] is the range over repeats. A category a system has not
run in full shows Incomplete. There is no overall score.</p>

<h2>Categories</h2>
{% if systems %}
<table>
<thead><tr><th>System</th>{% for c in categories %}<th>{{ c.name }}</th>{% endfor %}</tr></thead>
<tbody>
{% for row in main_rows %}
<tr><td>{{ row.label }}</td>{% for cell in row.cells %}<td class="{{ 'num' if cell.complete else 'incomplete' }}">{{ cell.display() }}</td>{% endfor %}</tr>
{% endfor %}
</tbody>
</table>
{% else %}
<p>No accepted runs.</p>
{% endif %}

<h2>{{ site.name }} board</h2>
<p class="note">Sorted by score (descending), then cost per site (ascending). ◆ marks the systems on the cost–score Pareto front.</p>
{% if systems %}
<table>
<thead><tr><th>#</th><th>System</th><th>{{ site.name }}</th><th>Cost per site</th><th>Wall time per site</th><th>Pareto</th>
{% if show_tasks %}{% for t in site.tasks %}<th><code>{{ t.id }}</code> (w {{ t.weight }})</th><th>cost/site</th><th>time/site</th>{% endfor %}{% endif %}
</tr></thead>
<tbody>
{% for rank, cell in site_rows %}
<tr><td class="num">{{ rank }}</td><td>{{ cell.system.label }}</td><td class="{{ 'num' if cell.complete else 'incomplete' }}">{{ cell.display() }}</td>
<td class="num">{{ format_cost(cell.cost_per_site) }}</td><td class="num">{{ format_time(cell.wall_time_per_site) }}</td><td>{{ '◆' if on_front(cell) else '' }}</td>
{% if show_tasks %}{% for tc in cell.tasks %}<td class="{{ 'missing' if tc is none else 'num' }}">{{ format_task(tc) }}</td><td class="num">{{ format_cost(tc.cost_per_site if tc else none) }}</td><td class="num">{{ format_time(tc.wall_time_per_site if tc else none) }}</td>{% endfor %}{% endif %}
</tr>
{% endfor %}
</tbody>
</table>
{% endif %}
<svg xmlns="http://www.w3.org/2000/svg" width="{{ plot.width }}" height="{{ plot.height }}" viewBox="0 0 {{ plot.width }} {{ plot.height }}" role="img" aria-label="{{ site.name }} score against cost per site">
<title>{{ site.name }} score against cost per site</title>
{% for t in plot.yticks %}
<line class="grid" x1="{{ plot.left }}" x2="{{ plot.right }}" y1="{{ '%.1f' % t.y }}" y2="{{ '%.1f' % t.y }}"/>
<text x="{{ plot.left - 8 }}" y="{{ '%.1f' % (t.y + 4) }}" text-anchor="end">{{ t.label }}</text>
{% endfor %}
{% for t in plot.xticks %}
<line class="axis" x1="{{ '%.1f' % t.x }}" x2="{{ '%.1f' % t.x }}" y1="{{ plot.bottom }}" y2="{{ plot.bottom + 5 }}"/>
<text x="{{ '%.1f' % t.x }}" y="{{ plot.bottom + 18 }}" text-anchor="middle">{{ t.label }}</text>
{% endfor %}
<line class="axis" x1="{{ plot.left }}" x2="{{ plot.right }}" y1="{{ plot.bottom }}" y2="{{ plot.bottom }}"/>
<line class="axis" x1="{{ plot.left }}" x2="{{ plot.left }}" y1="{{ plot.top }}" y2="{{ plot.bottom }}"/>
<text x="{{ (plot.left + plot.right) / 2 }}" y="{{ plot.height - 8 }}" text-anchor="middle">cost per site (USD)</text>
<text x="14" y="{{ (plot.top + plot.bottom) / 2 }}" text-anchor="middle" transform="rotate(-90 14 {{ (plot.top + plot.bottom) / 2 }})">{{ site.name }} score</text>
{% if plot.front %}<polyline class="front" points="{{ plot.front }}"/>{% endif %}
{% for p in plot.points %}
<g><title>{{ p.title }}</title>
<line class="range" x1="{{ '%.1f' % p.x }}" x2="{{ '%.1f' % p.x }}" y1="{{ '%.1f' % p.ylow }}" y2="{{ '%.1f' % p.yhigh }}"/>
<circle class="point{{ ' pareto' if p.pareto else '' }}" cx="{{ '%.1f' % p.x }}" cy="{{ '%.1f' % p.y }}" r="5"/>
<text x="{{ '%.1f' % (p.x + 8) }}" y="{{ '%.1f' % (p.y - 6) }}">{{ p.rank }}</text></g>
{% endfor %}
{% if not plot.points %}
<text x="{{ (plot.left + plot.right) / 2 }}" y="{{ (plot.top + plot.bottom) / 2 }}" text-anchor="middle">No system has a complete {{ site.name }} score with a known cost yet.</text>
{% endif %}
</svg>
<p class="note">Numbers are the ranks of the {{ site.name }} board; filled points are on the Pareto front; vertical bars show the range over repeats.</p>

{% if show_tasks and systems %}
{% for category, rows in task_boards %}
<h2>{{ category.name }} tasks</h2>
<table>
<thead><tr><th>System</th><th>{{ category.name }}</th>{% for t in category.tasks %}<th><code>{{ t.id }}</code> (w {{ t.weight }})</th>{% endfor %}</tr></thead>
<tbody>
{% for cell in rows %}
<tr><td>{{ cell.system.label }}</td><td class="{{ 'num' if cell.complete else 'incomplete' }}">{{ cell.display() }}</td>
{% for tc in cell.tasks %}<td class="{{ 'missing' if tc is none else 'num' }}">{{ format_task(tc) }}</td>{% endfor %}</tr>
{% endfor %}
</tbody>
</table>
{% endfor %}
{% endif %}

<h2>Pinned datasets</h2>
{% if pins %}
<table>
<thead><tr><th>Task</th><th>Dataset</th><th>Version</th><th>Digest</th><th>Pinned by</th></tr></thead>
<tbody>
{% for task, pin in pins %}
<tr><td><code>{{ task }}</code></td><td>{{ pin.identity.id or '—' }}</td><td>{{ '—' if pin.identity.version is none else pin.identity.version }}</td><td><code>{{ pin.identity.digest }}</code></td><td>{{ pin.source }}</td></tr>
{% endfor %}
</tbody>
</table>
{% else %}
<p>None.</p>
{% endif %}

{% if refused %}
<h2>Refused runs ({{ refused | length }})</h2>
<table>
<thead><tr><th>Run directory</th><th>Run ID</th><th>Reason</th></tr></thead>
<tbody>
{% for r in refused %}
<tr><td>{{ r.path }}</td><td>{{ r.run_id or '—' }}</td><td>{{ r.reason }}</td></tr>
{% endfor %}
</tbody>
</table>
{% endif %}
</body>
</html>
"""
)


def render_html(board: Board, *, tasks: bool = False) -> str:
    """One offline file: a Content-Security-Policy forbids every request; all text is escaped."""
    site = _site_category()
    return _HTML.render(
        scoring_version=cats.SCORING_VERSION,
        systems=board.systems,
        categories=cats.CATEGORIES,
        main_rows=[{"label": s.label, "cells": [board.cell(c, s) for c in cats.CATEGORIES]} for s in board.systems],
        site=site,
        site_rows=list(enumerate(board.rows(site), start=1)),
        show_tasks=tasks,
        task_boards=[(c, board.rows(c)) for c in cats.CATEGORIES if not c.per_site],
        plot=scatter(board),
        pins=sorted(board.pins.items()),
        refused=board.refused,
        on_front=board.on_front,
        format_cost=format_cost,
        format_time=format_time,
        format_task=format_task,
    )


RENDERERS = {"md": render_markdown, "html": render_html}


def render(board: Board, fmt: str, *, tasks: bool = False) -> str:
    if fmt == "json":
        return render_json(board)
    return RENDERERS[fmt](board, tasks=tasks)
