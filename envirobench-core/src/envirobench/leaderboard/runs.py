"""Finding run directories, reading one run for the leaderboard, and rescoring it.

A run takes part in two steps (docs/architecture.md, "Categories and leaderboards"):

1. `read_run` reads run.json (through `envirobench.rundir`, so a malformed file is refused with
   the file and `$.field` named) into a `RunEntry`: the system that made the run, the dataset
   identity it says it used, and what it reports it cost. The task's type must be installed,
   and the run must be a run of every case (a partial run, `run --case`/`--limit`, is refused).
2. `rescore` gives the `RunResult`: the component score, computed here from the run's saved,
   checked predictions (`compared.read_saved_predictions`) against the pinned dataset's answers
   with the installed type, in that type's default profile (`PROFILES[0]`) and primary measure
   (`HEADLINE[0]`), as `envirobench score --run` would score it.

Nothing the run says about its own scores is read: not metrics.json (it may be missing or
edited), not run.json's profiles, headline measures or scoring version. Cost, wall time and
sites are the run's own report: they are not scores and cannot be recomputed. Each result says
where its directory came from (`sources`): a local directory, or a store archive it still
matches. Nothing here can tell a real run from a forged one (`sources.TRUST_NOTE`).

A run that cannot take part raises `RunRefused` with the reason.
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
from ..benchmark import BenchmarkType, CaseScore
from ..categories import ScoreRefused, Task
from ..compared import read_saved_predictions
from ..datasets import Contents
from ..errors import EnviroBenchError
from ..pairing import profile_available
from ..plugins import Registry
from ..rundir import RUN_FILE, Interval
from ..scoring import score_run, some
from ..statistics import percentile_interval
from .sources import Source, read_source


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
class RunEntry:
    """A completed run of an installed task's type, read from run.json and not yet scored."""

    path: Path
    run_id: str
    task: str
    system: System
    identity: Identity
    dataset_source: str  # where the run found its dataset: a registered ID or a directory
    cost_usd: float | None
    wall_time_s: float | None
    sites: int | None  # the run's cases.sites


@attrs.frozen
class RunResult:
    """One rescored run: its component score and what it reports it cost."""

    path: Path
    run_id: str
    task: str
    system: System
    identity: Identity
    scoring_version: str  # the installed type's, which scored it
    score: float
    cost_usd: float | None
    wall_time_s: float | None
    sites: float | None  # cases.sites, falling back to the number of cases scored
    source: Source  # where the run directory came from: a local directory or a store archive
    # The default profile's scores, one per case of the pinned dataset in its order: kept until
    # the board has bootstrapped the run with its repeats (docs/runs.md, "Statistics").
    case_scores: tuple[CaseScore, ...] | None = attrs.field(default=None, eq=False, repr=False)
    # The component score on each resample of the cases (None where it has none), drawn with the
    # system's other repeats of the task; None when not computed.
    resamples: tuple[float | None, ...] | None = attrs.field(default=None, eq=False, repr=False)

    @property
    def interval(self) -> Interval | None:
        """The 95 % interval of this run's component score (from its resamples)."""
        return None if self.resamples is None else percentile_interval(v for v in self.resamples if v is not None)

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
            # Hidden directories are runs in the making (.x.incomplete-*) or rescores (.x.rescore-*).
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            if RUN_FILE in filenames:
                found.setdefault(Path(dirpath).resolve(), Path(dirpath))
                dirnames[:] = []
        if len(found) == before:
            raise EnviroBenchError(f"no run directory (a folder holding {RUN_FILE}) found here", file=root)
    return sorted(found.values(), key=lambda p: str(p))


def read_run(run_dir: str | Path, registry: Registry) -> RunEntry:
    """Read one run directory's run.json; RunRefused (with the reason) when it cannot take part."""
    run_dir = Path(run_dir)
    try:
        run = rundir.read_run(run_dir)
    except EnviroBenchError as exc:
        # A leaderboard reads many runs: one malformed file is a refusal, not the end of it.
        raise RunRefused(str(exc)) from None
    if run.status != "completed":
        reason = f" ({run.failure.message})" if run.failure else ""
        raise RunRefused(f"run status is {run.status!r}{reason}, not 'completed': a run that failed or did not finish has no score", run.run_id)
    try:
        rundir.refuse_partial(run, run_dir, "the", "on a leaderboard")
    except EnviroBenchError as exc:
        raise RunRefused(exc.message, run.run_id) from None
    found = cats.all_tasks().get(run.benchmark.id)
    if found is None:
        raise RunRefused(f"benchmark {run.benchmark.id!r} is not a task of any category in {cats.SCORING_VERSION}", run.run_id)
    category, task = found
    if task.id not in registry.benchmark_types:
        raise RunRefused(
            f"the {task.id} type is not installed, so the run cannot be rescored from its saved predictions "
            f"(the board never takes a run's own scores): install {category.package} ({category.name} category)",
            run.run_id,
        )
    if run.adapter.name is None:
        raise RunRefused(f"{run_dir / RUN_FILE} $.adapter.name: null (the adapter did not name itself), so the run has no system", run.run_id)
    dataset = run.dataset
    return RunEntry(
        path=run_dir,
        run_id=run.run_id,
        task=task.id,
        system=System.of(run.adapter.name, run.model, run.options),
        identity=Identity(dataset.id, dataset.version, dataset.digest, dataset.input_digest, dataset.answer_digest),
        dataset_source=dataset.source,
        cost_usd=run.cost_usd,
        wall_time_s=run.wall_time_s,
        sites=run.cases.sites,
    )


def rescore(entry: RunEntry, btype: BenchmarkType, contents: Contents) -> RunResult:
    """The run's component score from its saved predictions, scored against the pinned dataset.

    `btype` is the installed type of the entry's task and `contents` the pinned dataset (one
    load shared by every run of the task). RunRefused when the predictions do not read (or fail
    their check), miss a case, or do not give a score.
    """
    task: Task = cats.all_tasks()[entry.task][1]
    cases = contents.cases
    try:
        predictions = read_saved_predictions(entry.path, btype, cases, "the run's")
    except EnviroBenchError as exc:
        raise RunRefused(str(exc), entry.run_id) from None
    missing = [cid for cid in cases if cid not in predictions]
    if missing:
        raise RunRefused(f"the run has no saved prediction for {len(missing)} case(s) of the pinned dataset: {some(missing)}", entry.run_id)
    scores = score_run(btype, cases, contents.answers, predictions)
    # The installed type's first profile is its default and its first headline measure the primary one.
    profile, primary = btype.PROFILES[0], btype.HEADLINE[0]
    case_ids = list(cases)
    if not profile_available(profile, case_ids, [scores]):
        raise RunRefused(f"the {task.id} type's default profile {profile!r} does not score every case of this run, so it has no {task.id} score", entry.run_id)
    headline = btype.summarize(profile, [scores[cid][profile] for cid in case_ids])  # type: ignore[misc]
    try:
        score = task.component_score(headline, primary)
    except ScoreRefused as exc:
        raise RunRefused(f"no {task.id} score: {exc.message}", entry.run_id) from None
    return RunResult(
        path=entry.path,
        run_id=entry.run_id,
        task=task.id,
        system=entry.system,
        identity=entry.identity,
        scoring_version=btype.SCORING_VERSION,
        score=score,
        cost_usd=entry.cost_usd,
        wall_time_s=entry.wall_time_s,
        sites=float(entry.sites if entry.sites is not None else len(case_ids)),
        source=read_source(entry.path),
        case_scores=tuple(scores[cid][profile] for cid in case_ids),  # type: ignore[misc]
    )
