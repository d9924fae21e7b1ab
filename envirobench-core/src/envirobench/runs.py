"""One run: one benchmark, one system (DESIGN §5), and offline rescoring of a finished run.

A run is assembled in a hidden staging directory next to its final place and renamed into
place at the end, so `results/<run-id>/` only ever appears whole: `completed` with scores, or
`failed` with the reason and nothing scored. An existing run directory is never overwritten.
"""

from __future__ import annotations

import datetime as _dt
import json
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from . import __version__
from . import datasets as ds
from .adapters import Workspace, copy_source_file, run_adapter
from .benchmark import BenchmarkType, Case, CaseScore
from .converter import converter, structure, unstructure
from .errors import EnviroBenchError, TechnicalFailure
from .jsonio import atomic_write_text, dumps, gc_paused, read_json, write_json
from .outputs import write_outputs
from .pairing import overall_status, pair_profile
from .plugins import Registry, resolve_adapter
from .protocol import (
    PROTOCOL,
    REQUEST_FORMAT,
    RESULT_FILE,
    AdapterRequest,
    AdapterResult,
    RequestBenchmark,
    RequestCase,
    RequestDataset,
)

RUN_FORMAT = "envirobench.run.v1"
RUN_FILE = "run.json"
ADAPTER_DIR = "adapter"
ADAPTER_LOG = "adapter.log"
_RUN_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")

RunScores = dict[str, dict[str, CaseScore | None]]


def now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


@attrs.frozen
class RunSpec:
    """Everything `envirobench run` was asked to do."""

    adapter: str
    run_id: str
    model: str
    benchmark: str
    dataset: str
    budget_usd: float
    options: Mapping[str, str] = attrs.field(factory=dict)
    baseline: Path | None = None
    controls: tuple[Path, ...] = ()
    targets: tuple[str, ...] = ()
    gates: tuple[str, ...] = ()
    require_no_regressions: bool = False
    results_dir: Path = Path("results")
    timeout_s: float | None = None


@attrs.frozen
class Outcome:
    run_dir: Path
    status: str  # "completed" or "failed"
    gate: dict[str, Any] | None
    message: str = ""


# -- loading what exists -----------------------------------------------------------------------


def read_run(run_dir: Path) -> dict[str, Any]:
    path = run_dir / RUN_FILE
    if not path.is_file():
        raise EnviroBenchError("not a run directory (no run.json)", file=run_dir)
    data = read_json(path)
    if not isinstance(data, dict) or data.get("format") != RUN_FORMAT:
        raise EnviroBenchError(f"not an EnviroBench run record (format must be {RUN_FORMAT})", file=path, field="$.format")
    return data


def read_completed_run(run_dir: Path) -> dict[str, Any]:
    run = read_run(run_dir)
    if run.get("status") != "completed":
        reason = (run.get("failure") or {}).get("message", "")
        raise EnviroBenchError(f"run {run.get('run_id')!r} did not complete (status {run.get('status')!r}{': ' + reason if reason else ''}); it has no scores", file=run_dir / RUN_FILE, field="$.status")
    return run


def read_adapter_result(output_dir: Path, btype: BenchmarkType) -> AdapterResult:
    path = output_dir / RESULT_FILE
    if not path.is_file():
        raise TechnicalFailure(f"the adapter wrote no {RESULT_FILE}", file=path)
    try:
        return structure(read_json(path), AdapterResult, file=str(path))
    except TechnicalFailure:
        raise
    except EnviroBenchError as exc:
        raise TechnicalFailure(exc.message, file=exc.file, line=exc.line, field=exc.field) from None


def load_predictions(output_dir: Path, result: AdapterResult, btype: BenchmarkType, case_ids: Sequence[str], *, exact: bool = True) -> dict[str, Any]:
    """The adapter's predictions, exactly one per requested case, each valid for the type.

    With exact=False (a saved run read for comparison), cases it lacks are left out and cases
    it has beyond `case_ids` are ignored; the profiles that then lack a score are unavailable.
    """
    data_path = _data_path(output_dir, result)
    try:
        raw = json.loads(data_path.read_text(encoding="utf-8"), object_pairs_hook=_refuse_duplicate_keys)
    except FileNotFoundError:
        raise TechnicalFailure(f"the predictions file {result.data!r} named by {RESULT_FILE} does not exist", file=data_path) from None
    except _DuplicateKey as exc:
        raise TechnicalFailure(f"case ID {exc.key!r} appears more than once", file=data_path) from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise TechnicalFailure(f"not valid JSON: {exc}", file=data_path) from None
    if not isinstance(raw, dict):
        raise TechnicalFailure("predictions must be a JSON object mapping case IDs to predictions", file=data_path)
    wanted = set(case_ids)
    missing = [cid for cid in case_ids if cid not in raw]
    extra = sorted(set(raw) - wanted)
    if not exact:
        case_ids, missing, extra = [cid for cid in case_ids if cid in raw], [], []
    if missing:
        raise TechnicalFailure(f"{len(missing)} requested case(s) have no prediction: {_some(missing)}", file=data_path)
    if extra:
        raise TechnicalFailure(f"{len(extra)} prediction(s) for cases that were not requested: {_some(extra)}", file=data_path)
    try:
        # The common case, fast: every prediction valid. Only a failure pays for locating it.
        return {cid: converter.structure(raw[cid], btype.Prediction) for cid in case_ids}
    except Exception:  # any structuring failure is located and reported below
        pass
    for cid in case_ids:
        try:
            structure(raw[cid], btype.Prediction, file=str(data_path), path=f"$[{json.dumps(cid)}]")
        except EnviroBenchError as exc:
            raise TechnicalFailure(f"the prediction for case {cid!r} is not a valid {btype.FORMAT} prediction: {exc.message}", file=exc.file, field=exc.field) from None
    raise TechnicalFailure("a prediction could not be read", file=data_path)  # pragma: no cover


class _DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _refuse_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):  # only then look for the key that repeats
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return out


def _data_path(output_dir: Path, result: AdapterResult) -> Path:
    try:
        ds.check_relative_path(result.data, file=output_dir / RESULT_FILE, field="$.data")
    except EnviroBenchError as exc:
        raise TechnicalFailure(exc.message, file=exc.file, field=exc.field) from None
    path = output_dir / result.data
    if output_dir.resolve() not in path.resolve().parents:
        raise TechnicalFailure(f"{result.data!r} leaves the adapter's output directory", file=output_dir / RESULT_FILE, field="$.data")
    return path


def _some(ids: Sequence[str], limit: int = 5) -> str:
    shown = ", ".join(repr(i) for i in ids[:limit])
    return shown + (f" and {len(ids) - limit} more" if len(ids) > limit else "")


def check_result(result: AdapterResult, btype: BenchmarkType, budget_usd: float) -> float:
    """Every rule of DESIGN §5 step 4 except the predictions themselves; returns total cost."""
    where = {"file": RESULT_FILE}
    if result.status != "completed":
        raise TechnicalFailure(f"the adapter reported status {result.status!r}: {result.error or 'no reason given'}", field="$.status", **where)
    if result.id != btype.ID:
        raise TechnicalFailure(f"result is for benchmark {result.id!r}, this run is {btype.ID!r}", field="$.id", **where)
    if result.format != btype.FORMAT:
        raise TechnicalFailure(f"result format {result.format!r} is not {btype.FORMAT!r}", field="$.format", **where)
    if not result.systems:
        raise TechnicalFailure("the result lists no systems, so its cost is unknown", field="$.systems", **where)
    for index, system in enumerate(result.systems):
        field = f"$.systems[{index}]"
        if system.execution_failures:
            raise TechnicalFailure(f"system {system.model!r} ({system.role}) had {system.execution_failures} unresolved execution failure(s); fix or retry them, a failure is never scored", field=field + ".execution_failures", **where)
        if system.unpriced_attempts:
            raise TechnicalFailure(f"system {system.model!r} ({system.role}) made {system.unpriced_attempts} unpriced attempt(s); every call must be priced", field=field + ".unpriced_attempts", **where)
        if system.cost_usd < 0:
            raise TechnicalFailure(f"negative cost {system.cost_usd}", field=field + ".cost_usd", **where)
    cost = sum(s.cost_usd for s in result.systems)
    if cost > budget_usd + 1e-9:
        raise TechnicalFailure(f"spent ${cost:.4f}, over the budget of ${budget_usd:.4f}", field="$.systems", **where)
    return cost


# -- scoring -----------------------------------------------------------------------------------


def score_run(btype: BenchmarkType, cases: Mapping[str, Case], answers: Mapping[str, Any], predictions: Mapping[str, Any]) -> RunScores:
    scores: RunScores = {}
    interned: dict[Any, CaseScore] = {}
    for cid, case in cases.items():
        prediction = predictions.get(cid)
        if prediction is None:
            scores[cid] = {profile: None for profile in btype.PROFILES}
            continue
        by_profile = btype.score_case(case, answers[cid], prediction)
        scores[cid] = {profile: _intern(interned, by_profile.get(profile)) for profile in btype.PROFILES}
    return scores


def _intern(table: dict[Any, CaseScore], score: CaseScore | None) -> CaseScore | None:
    """Share equal scores (most correct cases score alike): a 100,000-case run keeps far fewer objects."""
    if score is None:
        return None
    try:
        return table.setdefault((score.errors, tuple(score.metrics.items())), score)
    except TypeError:  # an unhashable error value: keep the score as it is
        return score


@attrs.frozen
class ComparedRun:
    """A baseline or control: a finished run rescored with the current code and answer key."""

    label: str
    run_id: str
    path: Path
    predictions: dict[str, Any]
    scores: RunScores


def load_compared_run(path: Path, label: str, btype: BenchmarkType, dataset: ds.Dataset, cases: Mapping[str, Case], answers: Mapping[str, Any], dataset_source: str) -> ComparedRun:
    run = read_completed_run(path)
    if run["benchmark"]["id"] != btype.ID:
        raise EnviroBenchError(f"the {label} run is a {run['benchmark']['id']!r} run, not {btype.ID!r}", file=path / RUN_FILE, field="$.benchmark.id")
    theirs, ours = run["dataset"], unstructure(dataset.identity)
    if theirs.get("digest") != ours["digest"]:
        raise EnviroBenchError(
            f"the {label} run was scored on dataset {theirs.get('id')} v{theirs.get('version')} ({theirs.get('digest')}), "
            f"this run uses {ours['id']} v{ours['version']} ({ours['digest']}); re-key it first: "
            f"envirobench score --run {path} --rekey {dataset_source}",
            file=path / RUN_FILE,
            field="$.dataset.digest",
        )
    predictions = read_saved_predictions(path, btype, cases, f"the {label} run's")
    return ComparedRun(label, run["run_id"], path.resolve(), predictions, score_run(btype, cases, answers, predictions))


def read_saved_predictions(run_dir: Path, btype: BenchmarkType, cases: Mapping[str, Case], whose: str) -> dict[str, Any]:
    """A finished run's predictions for the cases it has, checked with the current type."""
    output_dir = run_dir / ADAPTER_DIR
    try:
        result = read_adapter_result(output_dir, btype)
        return load_predictions(output_dir, result, btype, list(cases), exact=False)
    except TechnicalFailure as exc:
        raise EnviroBenchError(f"cannot read {whose} saved predictions: {exc}") from None


def pair_and_gate(
    btype: BenchmarkType,
    case_ids: Sequence[str],
    candidate: RunScores,
    baseline: ComparedRun | None,
    controls: Sequence[ComparedRun],
    gates: Sequence[str],
    targets: Sequence[str],
) -> dict[str, Any]:
    by_profile = {
        profile: pair_profile(
            btype,
            profile,
            case_ids,
            candidate,
            baseline.scores if baseline else None,
            [c.scores for c in controls],
            targets,
        )
        for profile in btype.PROFILES
    }
    status = overall_status([by_profile[p]["status"] for p in gates])
    return {"status": status, "profiles": list(gates), "targets": list(targets), "by_profile": by_profile}


def check_gates_and_targets(btype: BenchmarkType, gates: Sequence[str], targets: Sequence[str], cases: Mapping[str, Case], retired: Mapping[str, str]) -> tuple[str, ...]:
    for profile in gates:
        if profile not in btype.PROFILES:
            raise EnviroBenchError(f"--gate {profile!r} is not a profile of {btype.ID} ({', '.join(btype.PROFILES)})")
    for cid in targets:
        if cid in retired:
            raise EnviroBenchError(f"--target-case {cid!r} is retired from the dataset ({retired[cid]})")
        if cid not in cases:
            raise EnviroBenchError(f"--target-case {cid!r} is not a case of the dataset")
    return tuple(gates) or (btype.PROFILES[0],)


# -- one run -----------------------------------------------------------------------------------


def build_request(spec: RunSpec, btype: BenchmarkType, contents: ds.Contents, workspace: Workspace) -> AdapterRequest:
    """The input-only view: copy each checked source file a case uses; the request holds inputs only,
    each exactly as cases.jsonl has it."""
    dataset = contents.dataset
    request_cases = []
    for cid, case in contents.cases.items():  # retired cases are not in `cases`
        for relative in btype.source_files(case.input):
            copy_source_file(dataset.root, relative, workspace.input_dir)
        request_cases.append(RequestCase(cid, contents.raw_inputs[cid]))
    identity = dataset.identity
    return AdapterRequest(
        format=REQUEST_FORMAT,
        protocol=PROTOCOL,
        run_id=spec.run_id,
        model=spec.model,
        budget_usd=spec.budget_usd,
        options=dict(spec.options),
        benchmark=RequestBenchmark(btype.ID, btype.FORMAT),
        dataset=RequestDataset(identity.id, identity.version, identity.input_digest),
        input_dir=str(workspace.input_dir),
        cases=tuple(request_cases),
    )


def _type_record(btype: BenchmarkType, registry: Registry) -> dict[str, Any]:
    plugin = registry.benchmark_types[btype.ID][1]
    info = next((p for p in registry.plugins if p.name == plugin), None)
    return {
        **btype.describe(),
        "plugin": {"name": plugin, "distribution": info.distribution if info else plugin, "version": info.version if info else "unknown"},
    }


def _staging_dir(final: Path) -> Path:
    final.parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f".{final.name}.incomplete-", dir=final.parent))


def _publish(staging: Path, final: Path) -> None:
    """Rename the finished staging directory into place, never over an existing run."""
    try:
        staging.rename(final)  # an existing non-empty directory makes rename fail: never replaced
    except OSError:
        raise EnviroBenchError(f"run directory {final} appeared while this run was working; the run is kept in {staging}") from None


def execute(spec: RunSpec, registry: Registry, *, on_progress: Callable[[int, int], None] | None = None) -> Outcome:
    """Make one run (see _execute). Scores and outputs form no reference cycles: see gc_paused."""
    with gc_paused():
        return _execute(spec, registry, on_progress=on_progress)


def _execute(spec: RunSpec, registry: Registry, *, on_progress: Callable[[int, int], None] | None = None) -> Outcome:
    """Make one run. Raises EnviroBenchError for a bad request (nothing written); a technical
    failure of the adapter gives Outcome(status="failed") with nothing scored."""
    if not _RUN_ID.match(spec.run_id):
        raise EnviroBenchError(f"run ID {spec.run_id!r} must be letters, digits, '.', '_' or '-' (not starting with '.' or '-')")
    final = spec.results_dir / spec.run_id
    if final.exists() or final.is_symlink():
        raise EnviroBenchError(f"run directory {final} already exists; choose another --run (runs are never overwritten)")
    if spec.budget_usd < 0:
        raise EnviroBenchError("--budget must not be negative")
    btype = registry.benchmark_type(spec.benchmark)
    argv = resolve_adapter(registry, spec.adapter)
    contents = ds.load_contents(spec.dataset, registry)
    dataset, cases, answers = contents.dataset, contents.cases, contents.answers
    if dataset.manifest.benchmark != btype.ID:
        raise EnviroBenchError(f"dataset {dataset.id!r} is for benchmark {dataset.manifest.benchmark!r}, not {btype.ID!r}")
    gates = check_gates_and_targets(btype, spec.gates, spec.targets, cases, dataset.retired)
    # Baselines and controls are checked before the adapter spends anything.
    source = _dataset_source(spec.dataset, registry)
    baseline = load_compared_run(spec.baseline, "baseline", btype, dataset, cases, answers, source) if spec.baseline else None
    controls = [load_compared_run(p, f"control-{i}", btype, dataset, cases, answers, source) for i, p in enumerate(spec.controls, 1)]

    started = time.monotonic()
    staging = _staging_dir(final)
    record: dict[str, Any] = {
        "format": RUN_FORMAT,
        "run_id": spec.run_id,
        "status": "running",
        "failure": None,
        "created_at": now(),
        "finished_at": None,
        "core": {"version": __version__},
        "benchmark": _type_record(btype, registry),
        "dataset": {**unstructure(dataset.identity), "source": source},
        "adapter": {"requested": spec.adapter, "command": list(argv), "name": None, "version": None},
        "model": spec.model,
        "options": dict(spec.options),
        "budget_usd": spec.budget_usd,
        "cost_usd": None,
        "systems": [],
        "wall_time_s": None,
        "adapter_wall_time_s": None,
        "cases": {"requested": len(cases), "scored": 0, "retired": len(dataset.retired), "sites": None},
        "pairing": _pairing_record(baseline, controls),
        "gate": None,
        "require_no_regressions": spec.require_no_regressions,
        "history": [],
    }
    write_json(staging / RUN_FILE, record)
    workspace = Workspace.create()
    try:
        # Serialised once, compact (a 100,000-case request is megabytes), written twice.
        request_text = dumps(unstructure(build_request(spec, btype, contents, workspace)), indent=None)
        atomic_write_text(workspace.request, request_text)
        atomic_write_text(staging / "adapter-request.json", request_text)
        del request_text
        with (staging / ADAPTER_LOG).open("wb") as log:
            record["adapter_wall_time_s"] = run_adapter(argv, workspace, log, timeout=spec.timeout_s, on_progress=on_progress)
        result = read_adapter_result(workspace.output_dir, btype)
        record["adapter"].update(name=result.adapter.name, version=result.adapter.version)
        record["systems"] = [unstructure(s) for s in result.systems]
        record["cost_usd"] = check_result(result, btype, spec.budget_usd)
        predictions = load_predictions(workspace.output_dir, result, btype, list(cases))
    except TechnicalFailure as exc:
        failure: TechnicalFailure | None = exc
    except BaseException as exc:
        # Interrupted (Ctrl-C) or a bug: keep what there is, clearly marked as not a run.
        record.update(status="failed", failure={"message": f"interrupted: {type(exc).__name__}: {exc}"}, finished_at=now())
        write_json(staging / RUN_FILE, record)
        raise
    else:
        failure = None
    finally:
        # The adapter has exited: its output becomes adapter/ in the run, read-only for core.
        _move_output(workspace, staging)
        workspace.remove()
    if failure is not None:
        record.update(status="failed", failure={"message": str(failure)}, finished_at=now(), wall_time_s=round(time.monotonic() - started, 3))
        write_json(staging / RUN_FILE, record)
        _publish(staging, final)
        return Outcome(final, "failed", None, str(failure))

    scores = score_run(btype, cases, answers, predictions)
    case_ids = list(cases)
    gate = pair_and_gate(btype, case_ids, scores, baseline, controls, gates, spec.targets)
    record.update(
        status="completed",
        finished_at=now(),
        wall_time_s=round(time.monotonic() - started, 3),
        gate=_gate_record(gate),
    )
    record["cases"]["scored"] = len(case_ids)
    write_outputs(staging, record, btype, dataset, cases, answers, predictions, scores, baseline, controls, gate, registry)
    write_json(staging / RUN_FILE, record)
    _publish(staging, final)
    return Outcome(final, "completed", gate)


def _move_output(workspace: Workspace, staging: Path) -> None:
    target = staging / ADAPTER_DIR
    if workspace.output_dir.exists() and not target.exists():
        shutil.copytree(workspace.output_dir, target, symlinks=True)


def _dataset_source(spec_dataset: str, registry: Registry) -> str:
    return spec_dataset if spec_dataset in registry.datasets else str(Path(spec_dataset).resolve())


def _pairing_record(baseline: ComparedRun | None, controls: Sequence[ComparedRun]) -> dict[str, Any]:
    def ref(run: ComparedRun) -> dict[str, Any]:
        return {"label": run.label, "run_id": run.run_id, "path": str(run.path)}

    return {"baseline": ref(baseline) if baseline else None, "controls": [ref(c) for c in controls]}


def _gate_record(gate: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "status": gate["status"],
        "profiles": gate["profiles"],
        "targets": gate["targets"],
        "by_profile": {p: g["status"] for p, g in gate["by_profile"].items()},
        "regressions": {p: gate["by_profile"][p]["regressions"] for p in gate["profiles"]},
        "failing_targets": {p: gate["by_profile"][p]["failing_targets"] for p in gate["profiles"]},
    }


# -- offline rescoring -------------------------------------------------------------------------

_KEEP = object()


def rescore(*args: Any, **kwargs: Any) -> Outcome:
    """Rescore a finished run from its saved predictions (see _rescore), the collector paused."""
    with gc_paused():
        return _rescore(*args, **kwargs)


def _rescore(
    run_dir: Path,
    registry: Registry,
    *,
    baseline: Path | None | object = _KEEP,
    controls: Sequence[Path] | object = _KEEP,
    gates: Sequence[str] | None = None,
    targets: Sequence[str] | None = None,
    rekey: str | None = None,
) -> Outcome:
    """Rescore a finished run from its saved predictions; the adapter is never called."""
    record = read_completed_run(run_dir)
    btype = registry.benchmark_type(record["benchmark"]["id"])
    previous = {k: record[k] for k in ("dataset", "pairing", "gate")}
    if rekey is not None:
        contents = ds.load_contents(rekey, registry)
        dataset = contents.dataset
        _check_rekey(record, dataset, btype, run_dir, registry)
        source = _dataset_source(rekey, registry)
    else:
        source = record["dataset"]["source"]
        contents = ds.load_contents(source, registry)
        dataset = contents.dataset
        if dataset.identity.digest != record["dataset"]["digest"]:
            raise EnviroBenchError(
                f"dataset {source!r} is now {dataset.id} v{dataset.identity.version} ({dataset.identity.digest}), "
                f"not the revision this run was scored on ({record['dataset']['digest']}); use --rekey to move the run to it",
                file=run_dir / RUN_FILE,
                field="$.dataset.digest",
            )
    cases, answers = contents.cases, contents.answers
    gates = check_gates_and_targets(btype, gates if gates is not None else record["gate"]["profiles"], targets if targets is not None else record["gate"]["targets"], cases, dataset.retired)
    targets = targets if targets is not None else record["gate"]["targets"]
    pairing = record["pairing"]
    baseline_path = (Path(pairing["baseline"]["path"]) if pairing["baseline"] else None) if baseline is _KEEP else baseline
    control_paths = [Path(c["path"]) for c in pairing["controls"]] if controls is _KEEP else list(controls)  # type: ignore[arg-type]
    base_run = load_compared_run(baseline_path, "baseline", btype, dataset, cases, answers, source) if baseline_path else None  # type: ignore[arg-type]
    control_runs = [load_compared_run(p, f"control-{i}", btype, dataset, cases, answers, source) for i, p in enumerate(control_paths, 1)]

    predictions = read_saved_predictions(run_dir, btype, cases, "this run's")
    missing = [cid for cid in cases if cid not in predictions]
    if missing:
        raise EnviroBenchError(f"the run has no prediction for {len(missing)} case(s) of {dataset.id} v{dataset.identity.version}: {_some(missing)}; it cannot be rescored on this revision", file=run_dir / RUN_FILE)
    scores = score_run(btype, cases, answers, predictions)
    gate = pair_and_gate(btype, list(cases), scores, base_run, control_runs, gates, targets)
    record["dataset"] = {**unstructure(dataset.identity), "source": source}
    record["pairing"] = _pairing_record(base_run, control_runs)
    record["gate"] = _gate_record(gate)
    record["cases"].update(requested=len(cases), scored=len(cases), retired=len(dataset.retired))
    changed = {k: record[k] for k in previous}
    if changed != previous:
        record["history"].append({"at": now(), "action": "rekey" if rekey else "rescore", "core_version": __version__, "before": previous})
    write_outputs(run_dir, record, btype, dataset, cases, answers, predictions, scores, base_run, control_runs, gate, registry)
    write_json(run_dir / RUN_FILE, record)
    return Outcome(run_dir, "completed", gate)


def _check_rekey(record: Mapping[str, Any], dataset: ds.Dataset, btype: BenchmarkType, run_dir: Path, registry: Registry) -> None:
    old = record["dataset"]
    if dataset.manifest.benchmark != btype.ID:
        raise EnviroBenchError(f"cannot re-key: dataset {dataset.id!r} is for benchmark {dataset.manifest.benchmark!r}, the run is {btype.ID!r}")
    if dataset.identity.input_digest != old["input_digest"]:
        changed = _changed_inputs(old.get("source"), dataset, record, registry)
        raise EnviroBenchError(
            f"cannot re-key to {dataset.id} v{dataset.identity.version}: its inputs differ from the ones this run saw "
            f"(input digest {dataset.identity.input_digest}, the run's {old['input_digest']}){changed}. "
            "Re-keying only moves a run to a corrected answer key; changed inputs need a new run.",
            file=run_dir / RUN_FILE,
            field="$.dataset.input_digest",
        )


def _changed_inputs(old_source: str | None, dataset: ds.Dataset, record: Mapping[str, Any], registry: Registry) -> str:
    """Name the input files that differ, when the revision the run saw is still at hand."""
    try:
        old_manifest = ds.read_manifest(ds.resolve(old_source, registry)[0]) if old_source else None
    except EnviroBenchError:
        old_manifest = None
    if old_manifest is None or old_manifest.input_digest != record["dataset"]["input_digest"]:
        return ""
    old_files = {e.path: e.sha256 for e in old_manifest.files if e.role != "answers"}
    new_files = {e.path: e.sha256 for e in dataset.manifest.files if e.role != "answers"}
    differing = sorted(p for p in old_files.keys() | new_files.keys() if old_files.get(p) != new_files.get(p))
    return f"; changed input files: {_some(differing)}" if differing else ""
