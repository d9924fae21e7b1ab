"""Reading what an adapter made and scoring it: the result checks, the predictions, case scores.

Everything here is shared by a new run (`runs.execute_run`), offline rescoring (`runs.rescore_run`) and
the compared runs both pair with: a baseline or control is a finished run whose saved predictions
are read back and rescored with the current code and answer key (see docs/architecture.md, "One
run"). A problem with what an adapter wrote is a `TechnicalFailure`: never scored.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from . import datasets as ds
from .benchmark import BenchmarkType, Case, CaseScore
from .converter import converter, structure
from .errors import EnviroBenchError, TechnicalFailure
from .jsonio import read_json
from .protocol import RESULT_FILE, AdapterResult
from .rundir import ADAPTER_DIR, RUN_FILE, read_completed_run

RunScores = dict[str, dict[str, CaseScore | None]]  # case ID -> profile -> score (None: not scored)


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
        raise TechnicalFailure(f"{len(missing)} requested case(s) have no prediction: {some(missing)}", file=data_path)
    if extra:
        raise TechnicalFailure(f"{len(extra)} prediction(s) for cases that were not requested: {some(extra)}", file=data_path)
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


def some(ids: Sequence[str], limit: int = 5) -> str:
    shown = ", ".join(repr(i) for i in ids[:limit])
    return shown + (f" and {len(ids) - limit} more" if len(ids) > limit else "")


def check_result(result: AdapterResult, btype: BenchmarkType, budget_usd: float) -> float:
    """Every check of an adapter's result except the predictions themselves; returns total cost."""
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
    """A baseline or control, checked to be of this benchmark and dataset revision, rescored."""
    run = read_completed_run(path)
    if run.benchmark.id != btype.ID:
        raise EnviroBenchError(f"the {label} run is a {run.benchmark.id!r} run, not {btype.ID!r}", file=path / RUN_FILE, field="$.benchmark.id")
    theirs, ours = run.dataset, dataset.identity
    if theirs.digest != ours.digest:
        raise EnviroBenchError(
            f"the {label} run was scored on dataset {theirs.id} v{theirs.version} ({theirs.digest}), "
            f"this run uses {ours.id} v{ours.version} ({ours.digest}); re-key it first: "
            f"envirobench score --run {path} --rekey {dataset_source}",
            file=path / RUN_FILE,
            field="$.dataset.digest",
        )
    predictions = read_saved_predictions(path, btype, cases, f"the {label} run's")
    return ComparedRun(label, run.run_id, path.resolve(), predictions, score_run(btype, cases, answers, predictions))


def read_saved_predictions(run_dir: Path, btype: BenchmarkType, cases: Mapping[str, Case], whose: str) -> dict[str, Any]:
    """A finished run's predictions for the cases it has, checked with the current type."""
    output_dir = run_dir / ADAPTER_DIR
    try:
        result = read_adapter_result(output_dir, btype)
        return load_predictions(output_dir, result, btype, list(cases), exact=False)
    except TechnicalFailure as exc:
        raise EnviroBenchError(f"cannot read {whose} saved predictions: {exc}") from None
