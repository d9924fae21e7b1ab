"""Repeats and shards of a run: their run IDs, which cases a shard runs, and what `--shard auto`
reads from a batch system (docs/runs.md, "Repeats, shards and merging"; docs/scale-out.md).

Repeats (`run --repeats N`) are N runs of one configuration, `RUN-1` ... `RUN-N`, sharing the
group `RUN` (run.json's `group`).

A shard (`run --shard I/N`, I from 0) is one of N parts of a run of every case, made on its own
machine as the run `RUN.shard-I-of-N`, and joined with the others by `envirobench merge`
(`merge.py`). Which cases a shard holds depends on the dataset's unretired case IDs alone, never
on their order in cases.jsonl nor on when or where a shard runs: the IDs are ordered by the
SHA-256 of the ID and dealt round-robin, the k-th to shard k mod N. Dealing was chosen over the
plain hash modulo N so that shards differ in size by one case at most and none is empty (a
12-case dataset in 4 shards would leave one shard empty about one time in eight).

`envirobench merge` (merge.py) finds the shards of a run (`local_shards`, and `pull_shards` from a
store) and checks them (`check_shards`) with what is here.

A shard is recorded as a partial run (`Partial`, selected by `--shard I/N`) with its
`ShardRecord`: like any partial run it is never a baseline, a control, promoted or on a
leaderboard until merged. It is given its share of the budget (budget x its cases / the dataset's
cases) and its gate checks the target cases among its own; the whole budget and every target are
kept in the record for the merge.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from .benchmark import Case
from .converter import unstructure
from .errors import EnviroBenchError
from .jsonio import dumps
from .rundir import RUN_FILE, Partial, RunRecord, ShardRecord, check_run_id, read_run
from .scoring import select_cases
from .stores import Store
from .stores.transfer import Progress, restore_run, run_prefix

# What `--shard auto` reads (docs/scale-out.md).
K8S_INDEX_ENV = "JOB_COMPLETION_INDEX"  # a Kubernetes Indexed Job: the index only
SLURM_INDEX_ENV = "SLURM_ARRAY_TASK_ID"  # a Slurm job array: the task's ID...
SLURM_COUNT_ENV = "SLURM_ARRAY_TASK_COUNT"  # ...and how many tasks the array has
SHARD_COUNT_ENV = "ENVIROBENCH_SHARD_COUNT"  # the number of shards, where the batch system gives none

_SHARD = re.compile(r"^([0-9]+)/([0-9]+)$")
_STORED_SHARD = re.compile(r"^(?P<index>[0-9]+)-of-(?P<count>[0-9]+)/run\.json$")
_NUMBER = re.compile(r"^[0-9]+$")
SHARD_ID = re.compile(r"^(?P<run>.+)\.shard-(?P<index>[0-9]+)-of-(?P<count>[0-9]+)$")


@attrs.frozen
class Shard:
    """Shard `index` (0-based) of `count`."""

    index: int
    count: int

    def describe(self) -> str:
        return f"{self.index}/{self.count}"


def shard_run_id(run_id: str, shard: Shard) -> str:
    """The run ID of one shard of the run `run_id`: `RUN.shard-I-of-N`."""
    shard_id = f"{run_id}.shard-{shard.index}-of-{shard.count}"
    check_run_id(shard_id)
    return shard_id


def repeat_run_ids(run_id: str, repeats: int) -> list[str]:
    """The run IDs of `repeats` repeats of the run `run_id`: `RUN-1` ... `RUN-N`."""
    if repeats < 1:
        raise EnviroBenchError(f"--repeats must be at least 1, not {repeats}")
    ids = [f"{run_id}-{k}" for k in range(1, repeats + 1)]
    for rid in ids:
        check_run_id(rid)
    return ids


def _check(index: int, count: int, where: str) -> Shard:
    if count < 2:
        raise EnviroBenchError(f"{where}: a sharded run needs at least 2 shards, not {count}")
    if index >= count:
        raise EnviroBenchError(f"{where}: shard {index} does not exist: the shards of {count} are numbered 0 to {count - 1}")
    return Shard(index, count)


def parse_shard(value: str, *, count: int | None = None, environ: Mapping[str, str] | None = None) -> Shard:
    """`--shard I/N` (I from 0 to N-1), or `--shard auto`: the index from the batch system
    (`shard_from_environment`, with `count` from `--shard-count`)."""
    if value == "auto":
        return shard_from_environment(os.environ if environ is None else environ, count=count)
    if count is not None:
        raise EnviroBenchError("--shard-count goes with --shard auto only (--shard I/N names the count)")
    match = _SHARD.match(value)
    if not match:
        raise EnviroBenchError(f"--shard {value!r} must be I/N (shard I of N, I from 0 to N-1, e.g. 0/4) or auto")
    return _check(int(match.group(1)), int(match.group(2)), f"--shard {value}")


def _number(environ: Mapping[str, str], name: str) -> int:
    value = environ[name]
    if not _NUMBER.match(value):
        raise EnviroBenchError(f"--shard auto: {name}={value!r} is not a number")
    return int(value)


def shard_from_environment(environ: Mapping[str, str], *, count: int | None = None) -> Shard:
    """The shard a batch task is: the index from `JOB_COMPLETION_INDEX` (a Kubernetes Indexed Job)
    or `SLURM_ARRAY_TASK_ID` (a Slurm job array, numbered from 0); the count from `count`
    (`--shard-count`), else `ENVIROBENCH_SHARD_COUNT`, else, in a Slurm array,
    `SLURM_ARRAY_TASK_COUNT`."""
    k8s, slurm = K8S_INDEX_ENV in environ, SLURM_INDEX_ENV in environ
    if k8s and slurm:
        raise EnviroBenchError(f"--shard auto: both {K8S_INDEX_ENV} (Kubernetes) and {SLURM_INDEX_ENV} (Slurm) are set, so which one numbers the shards is unclear; give --shard I/N")
    if not (k8s or slurm):
        raise EnviroBenchError(
            f"--shard auto: neither {K8S_INDEX_ENV} (a Kubernetes Indexed Job) nor {SLURM_INDEX_ENV} (a Slurm job array) is set; "
            "give --shard I/N outside a batch system"
        )
    index_env = K8S_INDEX_ENV if k8s else SLURM_INDEX_ENV
    index = _number(environ, index_env)
    where = f"--shard auto ({index_env}={index}"
    if count is not None:
        where += f", --shard-count {count})"
    elif SHARD_COUNT_ENV in environ:
        count = _number(environ, SHARD_COUNT_ENV)
        where += f", {SHARD_COUNT_ENV}={count})"
    elif slurm and SLURM_COUNT_ENV in environ:
        count = _number(environ, SLURM_COUNT_ENV)
        where += f", {SLURM_COUNT_ENV}={count})"
        if count < 2 or index >= count:
            # A rerun of some tasks of an array (`sbatch --array=2`) is an array of their own size.
            raise EnviroBenchError(
                f"{where}: this array has {count} task(s) and its task IDs must run from 0 to {count - 1}; "
                f"number a sharded array from 0 (--array=0-{max(count, 2) - 1}), and when rerunning some of its tasks "
                f"alone give the number of shards: --shard-count N or {SHARD_COUNT_ENV}=N"
            )
    else:
        raise EnviroBenchError(
            f"{where}): a Kubernetes Indexed Job gives each task only its index; give the number of shards "
            f"(the Job's completions) with --shard-count N or {SHARD_COUNT_ENV}=N"
        )
    return _check(index, count, where)


def assign_shards(case_ids: Sequence[str], count: int) -> dict[str, int]:
    """Case ID -> its shard (0 to count-1): the IDs ordered by their SHA-256 and dealt round-robin."""
    order = sorted(case_ids, key=lambda cid: (hashlib.sha256(cid.encode("utf-8")).digest(), cid))
    return {cid: k % count for k, cid in enumerate(order)}


@attrs.frozen
class Selection:
    """What a run sends to its adapter and scores: its cases (dataset order), the partial-run and
    shard records, the targets its gate checks, and the budget its adapter is given and held to."""

    cases: Mapping[str, Case]
    partial: Partial | None
    shard: ShardRecord | None
    targets: tuple[str, ...]
    budget_usd: float

    @property
    def target_scope(self) -> Mapping[str, Case] | None:
        """The cases `--target-case` must be among: a partial run's own; None (the dataset's) for a
        run of every case and for a shard, whose targets are the whole run's."""
        return self.cases if self.partial is not None and self.shard is None else None


def select_run_cases(
    cases: Mapping[str, Case],
    retired: Mapping[str, str],
    *,
    ids: Sequence[str] = (),
    limit: int | None = None,
    shard: Shard | None = None,
    targets: Sequence[str] = (),
    budget_usd: float,
) -> Selection:
    """Every case, a partial run's (`ids`, `limit`: scoring.select_cases) or a shard's."""
    if shard is None:
        chosen, partial = select_cases(cases, retired, ids=ids, limit=limit)
        return Selection(chosen, partial, None, tuple(targets), budget_usd)
    if ids or limit is not None:
        raise EnviroBenchError("--shard cannot be combined with --case or --limit: a shard's cases are chosen by --shard")
    if shard.count > len(cases):
        raise EnviroBenchError(f"--shard {shard.describe()}: the dataset has {len(cases)} case(s), fewer than {shard.count} shards")
    assigned = assign_shards(list(cases), shard.count)
    chosen = {cid: case for cid, case in cases.items() if assigned[cid] == shard.index}
    partial = Partial(len(chosen), len(cases), f"--shard {shard.describe()}")
    record = ShardRecord(shard.index, shard.count, len(chosen), len(cases), budget_usd, tuple(targets))
    share = budget_usd * len(chosen) / len(cases)
    return Selection(chosen, partial, record, tuple(t for t in targets if t in chosen), share)


# -- the shards of a run: finding and checking them (for merge.py) ----------------------------


@attrs.frozen
class ShardRun:
    """A completed shard run: where it is and its run.json."""

    path: Path
    record: RunRecord

    @property
    def index(self) -> int:
        assert self.record.shard is not None
        return self.record.shard.index

    @property
    def count(self) -> int:
        assert self.record.shard is not None
        return self.record.shard.count

    def describe(self) -> str:
        return f"shard {self.index}/{self.count} ({self.path})"


# -- finding shards ----------------------------------------------------------------------------


def local_shards(results_dir: Path, run_id: str) -> list[Path]:
    """The directories `RESULTS/RUN.shard-I-of-N` (hidden ones, runs still being made, are not)."""
    if not Path(results_dir).is_dir():
        return []
    found = []
    for entry in sorted(Path(results_dir).iterdir()):
        match = SHARD_ID.match(entry.name)
        if match and match.group("run") == run_id and entry.is_dir() and not entry.is_symlink():
            found.append(entry)
    return found


def stored_shards(store: Store, run_id: str, benchmark: str) -> list[str]:
    """The run IDs of the shards of `run_id` archived in the store (under runs/<benchmark>/)."""
    prefix = run_prefix(f"{run_id}.shard-", benchmark)
    found = []
    for key in store.list(prefix):
        match = _STORED_SHARD.match(key[len(prefix):])
        if match:
            found.append(f"{run_id}.shard-{match.group('index')}-of-{match.group('count')}")
    return sorted(set(found))


def pull_shards(store: Store, run_id: str, benchmark: str, results_dir: Path, *, skip: Iterable[str] = (), on_progress: Progress | None = None) -> list[Path]:
    """Restore into results_dir the shards of `run_id` that the store holds and that are neither
    in `skip` (run IDs at hand) nor already in results_dir; every file is verified against its
    archive's listing. Returns the restored directories."""
    skipped = set(skip)
    restored = []
    for shard_id in stored_shards(store, run_id, benchmark):
        if shard_id in skipped or (Path(results_dir) / shard_id).exists():
            continue
        restored.append(restore_run(shard_id, None, store, results_dir, benchmark=benchmark, on_progress=on_progress))
    return restored


# -- checking shards ---------------------------------------------------------------------------


def read_shard(path: Path) -> ShardRun:
    """A completed shard run; anything else is refused, naming it."""
    record = read_run(path)
    where = {"file": Path(path) / RUN_FILE}
    if record.shard is None:
        raise EnviroBenchError(f"run {record.run_id!r} is not a shard of a sharded run (made without --shard), so there is nothing to merge it with", field="$.shard", **where)
    if record.status != "completed" or record.gate is None:
        reason = f": {record.failure.message}" if record.failure else ""
        raise EnviroBenchError(
            f"shard {record.shard.index}/{record.shard.count} (run {record.run_id!r}) did not complete (status {record.status!r}{reason}); "
            f"make that shard again alone (runs are never overwritten: remove {path} first, or make it under other --results)",
            field="$.status",
            **where,
        )
    return ShardRun(Path(path), record)


def configuration(run: RunRecord) -> dict[str, Any]:
    """What the shards of one run share, by where run.json has it. Not compared: where each shard
    found its dataset, baseline and controls, the adapter's command and the sandbox (one machine's
    paths and tools may differ from another's), cost, times and the shard's own cases."""
    assert run.shard is not None and run.gate is not None
    d = run.dataset
    return {
        "$.core.version": run.core.version,
        "$.benchmark": unstructure(run.benchmark),
        "$.dataset": {"id": d.id, "version": d.version, "digest": d.digest, "input_digest": d.input_digest, "answer_digest": d.answer_digest},
        "$.adapter.name": run.adapter.name,
        "$.adapter.version": run.adapter.version,
        "$.model": run.model,
        "$.options": dict(sorted(run.options.items())),
        "$.shard.count": run.shard.count,
        "$.shard.budget_usd": run.shard.budget_usd,
        "$.shard.targets": list(run.shard.targets),
        "$.gate.profiles": list(run.gate.profiles),
        "$.require_no_regressions": run.require_no_regressions,
        "$.pairing.baseline": run.pairing.baseline.run_id if run.pairing.baseline else None,
        "$.pairing.controls": [c.run_id for c in run.pairing.controls],
        "$.group": run.group,
    }


_SHARED = ("the shards of one run share the dataset, adapter, model, options, benchmark and scoring versions, core version, budget, "
           "gate, targets, baseline, controls and group")


def check_shards(shards: Sequence[ShardRun]) -> list[ShardRun]:
    """The shards in index order, checked to be every shard of one configuration once."""
    if not shards:
        raise EnviroBenchError("no shards to merge")
    unique: dict[Path, ShardRun] = {}
    for shard in shards:
        unique.setdefault(shard.path.resolve(), shard)
    ordered = sorted(unique.values(), key=lambda s: (s.index, str(s.path)))
    # The configuration most shards have is the run's; a shard with another is foreign.
    configs = {shard.path: configuration(shard.record) for shard in ordered}
    groups: dict[str, list[ShardRun]] = {}
    for shard in ordered:
        groups.setdefault(dumps(configs[shard.path]), []).append(shard)
    reference = max(groups.values(), key=len)[0]
    theirs = configs[reference.path]
    for shard in ordered:
        mine = configs[shard.path]
        if mine != theirs:
            field = next(k for k in theirs if theirs[k] != mine[k])
            raise EnviroBenchError(
                f"{shard.describe()} is a foreign shard: its {field} is {_show(mine[field])}, while {reference.describe()} has {_show(theirs[field])} "
                f"({_SHARED})",
                file=shard.path / RUN_FILE,
                field=field,
            )
    by_index: dict[int, ShardRun] = {}
    for shard in ordered:
        if shard.index in by_index:
            other = by_index[shard.index]
            raise EnviroBenchError(
                f"shard {shard.index}/{shard.count} is there twice: {other.path} (run {other.record.run_id!r}) and {shard.path} "
                f"(run {shard.record.run_id!r}); give one of them",
                file=shard.path / RUN_FILE,
                field="$.shard.index",
            )
        by_index[shard.index] = shard
    count = reference.count
    missing = [i for i in range(count) if i not in by_index]
    if missing:
        which = ", ".join(f"--shard {i}/{count}" for i in missing)
        base = SHARD_ID.match(reference.record.run_id)
        run = f" --run {base.group('run')}" if base else ""
        raise EnviroBenchError(
            f"{len(missing)} of the {count} shards are missing: {', '.join(str(i) for i in missing)} (found: {', '.join(str(i) for i in sorted(by_index)) or 'none'}); "
            f"make each of them alone, with the command that made the others ({run.strip() or 'the same --run'}) and {which} "
            "(or rerun the whole batch job with --resume: the finished shards are skipped), then merge again"
        )
    return [by_index[i] for i in range(count)]


def _show(value: Any) -> str:
    return dumps(value, indent=None).strip()
