"""Finding run directories and reading one run for the leaderboard.

A run takes part as a `RunResult`: the system that made it, the dataset identity it was scored
on, its component score by its task's formula in `envirobench.categories`, and what it cost. A
run that cannot take part raises `RunRefused` with the reason. run.json and metrics.json are read
through `envirobench.rundir`, so a malformed file is refused with the file and `$.field` named.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import attrs

from .. import categories as cats
from .. import rundir
from ..categories import ScoreRefused, Task
from ..errors import EnviroBenchError
from ..rundir import METRICS_FILE, RUN_FILE, Metrics, RunRecord


class RunRefused(Exception):
    """Why a run directory cannot take part in the leaderboard (`run_id` when it is known)."""

    def __init__(self, reason: str, run_id: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.run_id = run_id


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
    """A dataset identity as a run recorded it (or as pinned); id/version are None for a digest pin."""

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
class RunResult:
    """One readable, scored run: its component score and what it cost."""

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


def find_run_dirs(paths: Iterable[str | Path]) -> list[Path]:
    """Run directories named directly, or found under results directories (any folder with run.json).

    A run directory is not searched further (its adapter/ folder belongs to the adapter), and
    links to directories are not followed.
    """
    found: dict[Path, Path] = {}
    for given in paths:
        root = Path(given)
        if rundir.is_run_dir(root):
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


def read_run(run_dir: str | Path) -> RunResult:
    """Read and score one run directory; RunRefused (with the reason) when it cannot take part."""
    run_dir = Path(run_dir)
    try:
        run = rundir.read_run(run_dir)
    except EnviroBenchError as exc:
        # A leaderboard reads many runs: one malformed file is a refusal, not the end of it.
        raise RunRefused(str(exc)) from None
    try:
        return _score_run(run_dir, run)
    except RunRefused as exc:
        exc.run_id = run.run_id
        raise


def _score_run(run_dir: Path, run: RunRecord) -> RunResult:
    if run.status != "completed":
        reason = f" ({run.failure.message})" if run.failure else ""
        raise RunRefused(f"run status is {run.status!r}{reason}, not 'completed': a run that failed or did not finish has no score")
    found = cats.all_tasks().get(run.benchmark.id)
    if found is None:
        raise RunRefused(f"benchmark {run.benchmark.id!r} is not a task of any category in {cats.SCORING_VERSION}")
    _, task = found
    # The first profile is the type's default and the first headline measure its primary one.
    if not run.benchmark.profiles or not run.benchmark.headline:
        empty = "profiles" if not run.benchmark.profiles else "headline"
        raise RunRefused(f"{run_dir / RUN_FILE} $.benchmark.{empty}: empty, so the run has no default profile or primary measure")
    if run.adapter.name is None:
        raise RunRefused(f"{run_dir / RUN_FILE} $.adapter.name: null (the adapter did not name itself), so the run has no system")
    try:
        metrics = rundir.read_metrics(run_dir, cases=False)
    except EnviroBenchError as exc:
        raise RunRefused(str(exc)) from None
    score = _component_score(task, metrics, run.benchmark.profiles[0], run.benchmark.headline[0], run_dir)
    sites = run.cases.sites if run.cases.sites is not None else run.cases.scored
    return RunResult(
        path=run_dir,
        run_id=run.run_id,
        task=task.id,
        system=System.of(run.adapter.name, run.model, run.options),
        identity=Identity(run.dataset.id, run.dataset.version, run.dataset.digest, run.dataset.input_digest, run.dataset.answer_digest),
        scoring_version=run.benchmark.scoring_version,
        score=score,
        cost_usd=run.cost_usd,
        wall_time_s=run.wall_time_s,
        sites=float(sites),
    )


def _component_score(task: Task, metrics: Metrics, profile: str, primary: str, run_dir: Path) -> float:
    """The task's component score from the default profile's headline metrics."""
    profile_metrics = metrics.profiles.get(profile)
    if profile_metrics is None:
        raise RunRefused(f"{run_dir / METRICS_FILE} $.profiles: no metrics for the default profile {profile!r}")
    if not profile_metrics.available or profile_metrics.headline is None:
        raise RunRefused(f"profile {profile!r} is unavailable in this run, so it has no {task.id} score")
    try:
        return task.component_score(profile_metrics.headline, primary)
    except ScoreRefused as exc:
        raise RunRefused(f"no {task.id} score: {exc.message}") from None
