"""Joining the shards of a run into one run: `envirobench merge` (docs/runs.md, "Repeats, shards
and merging"; docs/scale-out.md).

The shards (`run --shard I/N`, shards.py) must be complete runs of one configuration: every index
from 0 to N-1 once, each completed, all with the same dataset identity, adapter (name and
version), model, options, benchmark (and scoring version), core version, budget, gate, targets,
baseline and controls (by run ID), and group; their cases must not overlap and must cover every
unretired case of the dataset. A missing, duplicated, failed or foreign shard is refused, naming
it (and, when shards are missing, which to make again).

The merged run is made as any run is (docs/architecture.md, "One run"), in a hidden staging
directory renamed into place, never over an existing run:

    adapter/<data>              the shards' saved predictions, joined (in dataset order)
    adapter/adapter-result.json the shards' results joined: each system's cost and counts summed
    adapter/shards/<I>/...      every other file shard I's adapter wrote, its result included
    shards/<I>/shard-run.json   shard I's run.json, and its adapter-request.json beside it
    adapter.log                 the shards' logs one after another, each under a header line

Every file of adapter/ is recorded with its size and SHA-256 like any adapter output, and the
predictions are read back from it against those digests. It is then scored, paired and written
by the steps every run ends with (`runs.score_and_gate`, `runs.write_scored`), so its metrics.json
and comparison.json are the unsharded run's, byte for byte, given the same predictions. Cost is the sum of the shards' costs; the wall times are the
slowest shard's (the time the run took with its shards side by side; each shard's own is kept in
shards/<I>/shard-run.json).

Shards may come from a store (`shards.pull_shards`: `runs/<benchmark>/<RUN>.shard-I-of-N/`, each file
verified against the archive's listing), so the machines that made them share nothing else.
"""

from __future__ import annotations

import datetime as _dt
import math
import os
import shutil
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from . import datasets as ds
from .benchmark import BenchmarkType, Case
from .compared import ComparedRun, load_compared_run, read_saved_predictions
from .converter import unstructure
from .errors import EnviroBenchError, TechnicalFailure
from .jsonio import atomic_write_bytes, dir_mode, dumps, read_bytes
from .pairing import check_gates_and_targets
from .plugins import Registry
from .protocol import RESULT_FILE, AdapterInfo, AdapterResult, SystemUsage
from .rundir import (
    ADAPTER_DIR,
    ADAPTER_LOG,
    MAX_OUTPUT_MB,
    REQUEST_FILE,
    RUN_FILE,
    RUN_FORMAT,
    AdapterOutput,
    AdapterRecord,
    CaseCounts,
    OutputFile,
    Pairing,
    RunDataset,
    RunRecord,
    RunRef,
    SandboxRecord,
    SkippedOutput,
    TimeoutRecord,
    check_run_id,
    read_run,
    write_run,
)
from .runs import (
    Outcome,
    Progress,
    dataset_source,
    now,
    pairing_record,
    run_dataset,
    score_and_gate,
    write_scored,
)
from .scoring import parse_output_json, read_adapter_result, read_output_bytes, some
from .shards import ShardRun, check_shards, read_shard
from .stores import sha256_bytes

SHARDS_DIR = "shards"  # in a merged run: shards/<I>/ holds shard I's run.json and request
SHARD_RUN_FILE = "shard-run.json"


# -- merging -----------------------------------------------------------------------------------


def merge_shards(
    shard_dirs: Sequence[Path],
    run_id: str,
    registry: Registry,
    *,
    results_dir: Path = Path("results"),
    dataset: str | None = None,
    on_progress: Progress | None = None,
) -> Outcome:
    """Merge the shard runs in `shard_dirs` into the run `results_dir/run_id`, scored as any run
    (see the module docstring). `dataset` says where the dataset is on this machine (a registered
    ID or a directory; default: where the shards found it). `on_progress` receives ("scoring",
    done, total)."""
    check_run_id(run_id)
    final = Path(results_dir) / run_id
    if final.exists() or final.is_symlink():
        raise EnviroBenchError(f"run directory {final} already exists; choose another --run (runs are never overwritten)")
    shards = check_shards([read_shard(Path(p)) for p in shard_dirs])
    first = shards[0].record
    assert first.shard is not None and first.gate is not None
    btype = registry.benchmark_type(first.benchmark.id)
    contents, source = _load_dataset(first, [s.record.dataset.source for s in shards], dataset, registry)
    cases, answers, data = contents.cases, contents.answers, contents.dataset
    gates = check_gates_and_targets(btype, first.gate.profiles, first.shard.targets, cases, data.retired, None)
    baseline = _compared([s.record.pairing.baseline for s in shards], results_dir, btype, data, cases, answers, source, "baseline")
    controls = [_compared([s.record.pairing.controls[i] for s in shards], results_dir, btype, data, cases, answers, source, c.label)
                for i, c in enumerate(first.pairing.controls)]
    raw, data_name = _joined_predictions(shards, btype, cases)

    final.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{run_id}.incomplete-", dir=final.parent))
    os.chmod(staging, dir_mode())  # mkdtemp makes it 0700; a run is for others to read too
    try:
        output = _write_adapter_dir(staging, shards, btype, raw, data_name)
        del raw
        _write_shard_records(staging, shards)
        record = _merged_record(run_id, shards, run_dataset(data, source), output, len(cases), len(data.retired), pairing_record(baseline, controls))
        write_run(staging, record)
        # Read back from the merged adapter/ against the digests just recorded, as a rescore reads.
        predictions = read_saved_predictions(staging, btype, cases, "the merged run's")
        on_scoring = None if on_progress is None else lambda d, t: on_progress("scoring", d, t)
        scored = score_and_gate(btype, cases, answers, predictions, baseline, controls, gates, first.shard.targets, on_scoring)
        record = attrs.evolve(record, status="completed", finished_at=now(), gate=scored[1].record(), cases=attrs.evolve(record.cases, scored=len(cases)))
        write_scored(staging, record, btype, data, cases, answers, predictions, scored, baseline, controls, registry)
        try:
            staging.rename(final)  # an existing non-empty directory makes rename fail: never replaced
        except OSError:
            raise EnviroBenchError(f"run directory {final} appeared while the shards were merged; choose another --run") from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return Outcome(final, "completed", scored[1])


def _load_dataset(first: RunRecord, sources: Sequence[str], given: str | None, registry: Registry) -> tuple[ds.Contents, str]:
    """The shards' dataset on this machine: `given`, or where a shard found it; the same revision."""
    want = first.dataset
    problems = []
    for source in [given] if given else list(dict.fromkeys(sources)):
        try:
            contents = ds.load_contents(source, registry)
        except EnviroBenchError as exc:
            problems.append(f"{source}: {exc}")
            continue
        found = contents.dataset.identity
        if found.digest == want.digest:
            return contents, dataset_source(source, registry)
        problems.append(f"{source} is {found.id} v{found.version} ({found.digest})")
    raise EnviroBenchError(
        f"the shards were made on {want.id} v{want.version} ({want.digest}), which is not on this machine ({'; '.join(problems)}); "
        "give its directory or registered ID with --dataset"
    )


def _compared(refs: Sequence[RunRef | None], results_dir: Path, btype: BenchmarkType, dataset: ds.Dataset, cases: Mapping[str, Case],
              answers: Mapping[str, Any], source: str, label: str) -> ComparedRun | None:
    """The baseline or a control the shards were paired with, found on this machine (where a
    shard found it, or in results_dir), rescored on every case as the unsharded run's would be."""
    if refs[0] is None:
        return None
    run_id = refs[0].run_id
    candidates = list(dict.fromkeys([*(Path(r.path) for r in refs if r is not None), Path(results_dir) / run_id]))
    for path in candidates:
        if (path / RUN_FILE).is_file() and read_run(path).run_id == run_id:
            return load_compared_run(path, label, btype, dataset, cases, answers, source)
    raise EnviroBenchError(
        f"the {label} run {run_id!r} the shards were paired with is not on this machine (looked in {', '.join(str(p) for p in candidates)}); "
        f"put it in {results_dir} (envirobench bench restore, or a copy) and merge again"
    )


def _data_relative(data: str) -> str:
    return "/".join(p for p in data.split("/") if p not in ("", "."))


def _joined_predictions(shards: Sequence[ShardRun], btype: BenchmarkType, cases: Mapping[str, Case]) -> tuple[dict[str, Any], str]:
    """Every case's prediction as its shard's adapter wrote it (JSON), and the predictions file's
    name; shards whose cases overlap, or that leave a case out, are refused."""
    owner: dict[str, ShardRun] = {}
    raw: dict[str, Any] = {}
    names = set()
    for shard in shards:
        # Checked as a rescore checks them: every file of adapter/ against run.json, every prediction with the type.
        checked = read_saved_predictions(shard.path, btype, cases, f"{shard.describe()}")
        output_dir = shard.path / ADAPTER_DIR
        output = shard.record.adapter_output
        try:
            relative = _data_relative(read_adapter_result(output_dir, btype, output=output).data)
            entry = output.files.get(relative) if output is not None else None
            values = parse_output_json(read_output_bytes(output_dir, relative, expected=entry, max_bytes=MAX_OUTPUT_MB << 20), output_dir / relative)
        except TechnicalFailure as exc:
            raise EnviroBenchError(f"cannot read the saved predictions of {shard.describe()}: {exc}") from None
        names.add(relative)
        for cid in checked:
            if cid in owner:
                raise EnviroBenchError(
                    f"case {cid!r} has a prediction in {owner[cid].describe()} and in {shard.describe()}: the shards overlap "
                    "(were they made with different numbers of shards, or on different revisions?)"
                )
            owner[cid] = shard
            raw[cid] = values[cid]
        del checked, values
    missing = [cid for cid in cases if cid not in owner]
    if missing:
        raise EnviroBenchError(f"no shard has a prediction for {len(missing)} case(s) of the dataset: {some(missing)}; the shards are incomplete")
    name = names.pop() if len(names) == 1 else "predictions.json"
    if name == RESULT_FILE or name.split("/")[0] == SHARDS_DIR:
        name = "predictions.json"
    return {cid: raw[cid] for cid in cases}, name


def _write_adapter_dir(staging: Path, shards: Sequence[ShardRun], btype: BenchmarkType, raw: dict[str, Any], data_name: str) -> AdapterOutput:
    """adapter/ of the merged run (see the module docstring), each file recorded with its digest."""
    output_dir = staging / ADAPTER_DIR
    output_dir.mkdir()
    files: dict[str, OutputFile] = {}
    skipped: list[SkippedOutput] = []

    def put(relative: str, data: bytes) -> None:
        path = output_dir / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path, data)
        files[relative] = OutputFile(len(data), sha256_bytes(data))

    put(data_name, dumps(raw, indent=None).encode("utf-8"))
    first = shards[0].record
    result = AdapterResult(
        id=btype.ID,
        status="completed",
        format=btype.FORMAT,
        data=data_name,
        adapter=AdapterInfo(first.adapter.name or "unknown", first.adapter.version or "unknown"),
        systems=_joined_systems(s.record.systems for s in shards),
    )
    put(RESULT_FILE, dumps(unstructure(result)).encode("utf-8"))
    for shard in shards:
        source_dir = shard.path / ADAPTER_DIR
        output = shard.record.adapter_output
        if output is None:
            continue
        data_file = _data_relative(read_adapter_result(source_dir, btype, output=output).data)
        for relative, entry in sorted(output.files.items()):
            if relative == data_file:
                continue
            # run.json names the file: it must stay inside adapter/ (as core's copy made it).
            ds.check_relative_path(relative, file=shard.path / RUN_FILE, field=f"$.adapter_output.files[{relative!r}]")
            try:
                content = read_output_bytes(source_dir, relative, expected=entry, max_bytes=entry.size)
            except TechnicalFailure as exc:
                raise EnviroBenchError(f"cannot copy the output of {shard.describe()}: {exc}") from None
            put(f"{SHARDS_DIR}/{shard.index}/{relative}", content)
        skipped += [SkippedOutput(f"{SHARDS_DIR}/{shard.index}/{s.path}", s.reason) for s in output.skipped]
    return AdapterOutput(files, tuple(skipped))


def _joined_systems(per_shard: Iterable[Sequence[SystemUsage]]) -> tuple[SystemUsage, ...]:
    """Each system (role and model) once, in the order first seen, its cost and counts summed."""
    joined: dict[tuple[str, str], list[SystemUsage]] = {}
    for systems in per_shard:
        for system in systems:
            joined.setdefault((system.role, system.model), []).append(system)
    return tuple(
        SystemUsage(role, model, math.fsum(s.cost_usd for s in same), sum(s.execution_failures for s in same), sum(s.unpriced_attempts for s in same))
        for (role, model), same in joined.items()
    )


def _write_shard_records(staging: Path, shards: Sequence[ShardRun]) -> None:
    """shards/<I>/: each shard's run.json and adapter-request.json; adapter.log: their logs."""
    log = []
    for shard in shards:
        target = staging / SHARDS_DIR / str(shard.index)
        target.mkdir(parents=True)
        atomic_write_bytes(target / SHARD_RUN_FILE, read_bytes(shard.path / RUN_FILE))
        if (shard.path / REQUEST_FILE).is_file():
            atomic_write_bytes(target / REQUEST_FILE, read_bytes(shard.path / REQUEST_FILE))
        log.append(f"== shard {shard.index}/{shard.count}: run {shard.record.run_id} ==\n".encode())
        if (shard.path / ADAPTER_LOG).is_file():
            text = read_bytes(shard.path / ADAPTER_LOG)
            log.append(text if not text or text.endswith(b"\n") else text + b"\n")
    atomic_write_bytes(staging / ADAPTER_LOG, b"".join(log))


def _merged_record(run_id: str, shards: Sequence[ShardRun], dataset: RunDataset, output: AdapterOutput, cases: int, retired: int, pairing: Pairing) -> RunRecord:
    """run.json of the merged run before it is scored (status `running`)."""
    records = [s.record for s in shards]
    first = records[0]
    assert first.shard is not None

    def slowest(values: Iterable[float | None]) -> float | None:
        known = [v for v in values if v is not None]
        return max(known) if known else None

    costs = [r.cost_usd for r in records]
    sites = [r.cases.sites for r in records]
    timeouts = [r.timeout for r in records]
    return RunRecord(
        format=RUN_FORMAT,
        run_id=run_id,
        status="running",
        failure=None,
        created_at=min((r.created_at for r in records), key=_dt.datetime.fromisoformat),
        finished_at=None,
        core=first.core,
        benchmark=first.benchmark,
        dataset=dataset,
        adapter=AdapterRecord(first.adapter.requested, first.adapter.command, first.adapter.name, first.adapter.version),
        model=first.model,
        options=dict(first.options),
        budget_usd=first.shard.budget_usd,
        cost_usd=None if any(c is None for c in costs) else math.fsum(costs),  # type: ignore[arg-type]
        systems=_joined_systems(r.systems for r in records),
        wall_time_s=slowest(r.wall_time_s for r in records),
        adapter_wall_time_s=slowest(r.adapter_wall_time_s for r in records),
        cases=CaseCounts(requested=cases, scored=0, retired=retired, sites=None if any(s is None for s in sites) else sum(sites)),  # type: ignore[misc]
        pairing=pairing,
        gate=None,
        require_no_regressions=first.require_no_regressions,
        sandbox=_weakest_sandbox([r.sandbox for r in records]),
        adapter_output=output,
        merged_from=tuple(r.run_id for r in records),
        # Each shard shared its own totals among its own sites: those figures stand as they are.
        per_site=None if any(r.per_site is None for r in records) else tuple(u for r in records for u in r.per_site or ()),
        group=first.group,
        # Each shard had its own limit (the default grows with its cases): the longest stands for all.
        timeout=None if any(t is None for t in timeouts) else TimeoutRecord(max(t.seconds for t in timeouts), all(t.default for t in timeouts)),  # type: ignore[union-attr]
    )


def _weakest_sandbox(sandboxes: Sequence[SandboxRecord | None]) -> SandboxRecord | None:
    """The least isolation any shard had: no sandbox if one ran without, the network if one had it,
    every path any shard was allowed."""
    known = [s for s in sandboxes if s is not None]
    if len(known) < len(sandboxes) or not known:
        return None
    kind = "none" if any(s.kind == "none" for s in known) else "bwrap"
    env = tuple(dict.fromkeys(name for s in known for name in s.env))
    allow = tuple(dict.fromkeys(path for s in known for path in s.allow))
    caches = {s.cache for s in known}
    return SandboxRecord(kind, any(s.network for s in known), env, allow, caches.pop() if len(caches) == 1 else None)  # type: ignore[arg-type]
