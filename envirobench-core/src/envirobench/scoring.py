"""Reading what an adapter made and scoring it: the result checks, the predictions, case scores.

Everything here is shared by a new run (`runs.execute_run`), offline rescoring (`runs.rescore_run`) and
the compared runs both pair with: a baseline or control is a finished run whose saved predictions
are read back and rescored with the current code and answer key (see docs/architecture.md, "One
run"). A problem with what an adapter wrote is a `TechnicalFailure`: never scored.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import itertools
import json
import os
import stat
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from . import datasets as ds
from .benchmark import BenchmarkType, Case, CaseScore
from .converter import converter, structure
from .errors import EnviroBenchError, TechnicalFailure
from .jsonio import JSONInputError, kind_of, loads, read_document_members
from .protocol import RESULT_FILE, AdapterResult
from .rundir import (
    ADAPTER_DIR,
    MAX_OUTPUT_MB,
    METRICS_FILE,
    METRICS_FORMAT,
    RUN_FILE,
    AdapterOutput,
    OutputFile,
    Partial,
    read_completed_run,
    read_run,
    refuse_partial,
)

RunScores = dict[str, dict[str, CaseScore | None]]  # case ID -> profile -> score (None: not scored)


# -- reading what an adapter wrote ----------------------------------------------------------------
# Everything here is the adapter's: it is read from core's verified copy (adapter/ in the staging
# or run directory), without following links or blocking, within a size limit, and parsed so that
# no input gives a traceback (docs/architecture.md, "One run").

MAX_JSON_DEPTH = 64  # arrays and objects inside each other: deeper is refused before anything uses it
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_READ_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_NOFOLLOW | os.O_CLOEXEC
def read_output_bytes(output_dir: Path, relative: str, *, expected: OutputFile | None = None, max_bytes: int) -> bytes:
    """The bytes of `output_dir/relative` (a '/'-separated path), each component opened without
    following links; anything but a regular file is refused without blocking. With `expected`
    (run.json's record of the copy), the size and SHA-256 must match it."""
    path = output_dir / relative
    parts = relative.split("/")
    try:
        fd = os.open(output_dir, _DIR_FLAGS)
        for part in parts[:-1]:
            try:
                inner = os.open(part, _DIR_FLAGS, dir_fd=fd)
            finally:
                os.close(fd)
            fd = inner
        try:
            handle = os.open(parts[-1], _READ_FLAGS, dir_fd=fd)
        finally:
            os.close(fd)
    except FileNotFoundError:
        raise TechnicalFailure("does not exist", file=path) from None
    except OSError as exc:
        what = "a symbolic link (never followed)" if exc.errno == errno.ELOOP else exc.strerror
        raise TechnicalFailure(f"cannot be read: {what}", file=path) from None
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode):
            raise TechnicalFailure(f"is {kind_of(info.st_mode)}, not a regular file", file=path)
        if expected is not None and info.st_size != expected.size:
            raise TechnicalFailure(f"is {info.st_size} bytes, not the {expected.size} recorded in {RUN_FILE} when the run was made: it was changed since; refusing to use it", file=path)
        limit = expected.size if expected is not None else max_bytes
        if info.st_size > limit:
            raise TechnicalFailure(f"is {info.st_size} bytes, over the limit of {limit} (--max-output-mb)", file=path)
        chunks, size = [], 0
        while chunk := os.read(handle, min(1 << 24, limit + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise TechnicalFailure(f"grew past the limit of {limit} bytes while it was read", file=path)
        data = b"".join(chunks)
        del chunks
    except MemoryError:
        raise TechnicalFailure("is too large to read in the memory available", file=path) from None
    finally:
        os.close(handle)
    if expected is not None and hashlib.sha256(data).hexdigest() != expected.sha256:
        raise TechnicalFailure(f"does not match the SHA-256 recorded in {RUN_FILE} when the run was made: it was changed since; refusing to use it", file=path)
    return data


def parse_output_json(data: bytes, path: Path, *, refuse_duplicates: bool = False) -> Any:
    """One JSON document an adapter wrote, as a TechnicalFailure (one line, no traceback) when it
    is not UTF-8, not JSON, nested deeper than MAX_JSON_DEPTH, too large for memory, or holds text
    that cannot be encoded (a lone surrogate)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TechnicalFailure(f"not UTF-8 text ({exc.reason} at byte {exc.start})", file=path) from None
    too_deep = f"not usable JSON: arrays and objects nested deeper than {MAX_JSON_DEPTH} levels"
    try:
        value = loads(text, object_pairs_hook=_refuse_duplicate_keys if refuse_duplicates else None)
    except _DuplicateKey as exc:
        raise TechnicalFailure(f"case ID {exc.key!r} appears more than once", file=path) from None
    except RecursionError:  # in the duplicate-key hook's frames; loads catches the parser's own
        raise TechnicalFailure(too_deep, file=path) from None
    except JSONInputError as exc:
        raise TechnicalFailure(exc.message if exc.field or "memory" in exc.message else too_deep, file=path, field=exc.field) from None
    except ValueError as exc:
        raise TechnicalFailure(f"not valid JSON: {exc}", file=path) from None
    if _depth_over(value, MAX_JSON_DEPTH):
        raise TechnicalFailure(too_deep, file=path)
    return value


def _depth_over(value: Any, limit: int) -> bool:
    """Whether arrays and objects nest deeper than `limit` (level by level, no recursion)."""
    D, L = dict, list
    if type(value) is not D and type(value) is not L:
        return False
    level = [value]
    for _ in range(limit):
        deeper: list[Any] = []
        keep = deeper.append
        for item in level:
            for member in item.values() if type(item) is D else item:
                kind = type(member)
                if kind is D or kind is L:
                    keep(member)
        if not deeper:
            return False
        level = deeper
    return True


def _file_of(output: AdapterOutput | None, output_dir: Path, relative: str) -> OutputFile | None:
    """run.json's record of one file of adapter/ (None for runs that recorded none); a file that
    was skipped or not copied is a TechnicalFailure saying so."""
    if output is None:
        return None
    entry = output.files.get(relative)
    if entry is None:
        reason = next((s.reason for s in output.skipped if s.path == relative), None)
        if reason is not None:
            raise TechnicalFailure(f"is {reason}: only regular files are copied, so it was not", file=output_dir / relative)
        with contextlib.suppress(OSError):
            raise TechnicalFailure(f"is {kind_of(os.lstat(output_dir / relative).st_mode)}, not a regular file", file=output_dir / relative)
        raise TechnicalFailure("does not exist", file=output_dir / relative)
    return entry


def read_adapter_result(output_dir: Path, btype: BenchmarkType, *, output: AdapterOutput | None = None, max_bytes: int = MAX_OUTPUT_MB << 20) -> AdapterResult:
    """adapter-result.json from core's copy of the adapter's output (checked against `output`)."""
    path = output_dir / RESULT_FILE
    try:
        entry = _file_of(output, output_dir, RESULT_FILE)
        data = read_output_bytes(output_dir, RESULT_FILE, expected=entry, max_bytes=max_bytes)
    except TechnicalFailure as exc:
        if exc.message.startswith("does not exist"):
            raise TechnicalFailure(f"the adapter wrote no {RESULT_FILE}", file=path) from None
        raise
    value = parse_output_json(data, path)
    try:
        return structure(value, AdapterResult, file=str(path))
    except EnviroBenchError as exc:
        raise TechnicalFailure(exc.message, file=exc.file, line=exc.line, field=exc.field) from None


def load_predictions(
    output_dir: Path,
    result: AdapterResult,
    btype: BenchmarkType,
    case_ids: Sequence[str],
    *,
    exact: bool = True,
    output: AdapterOutput | None = None,
    max_bytes: int = MAX_OUTPUT_MB << 20,
) -> dict[str, Any]:
    """The adapter's predictions, exactly one per requested case, each valid for the type, read
    from core's copy of its output (checked against `output`, run.json's record of the copy).

    With exact=False (a saved run read for comparison), cases it lacks are left out and cases
    it has beyond `case_ids` are ignored; the profiles that then lack a score are unavailable.
    """
    relative = _data_path(output_dir, result)
    data_path = output_dir / relative
    try:
        data = read_output_bytes(output_dir, relative, expected=_file_of(output, output_dir, relative), max_bytes=max_bytes)
    except TechnicalFailure as exc:
        if exc.message.startswith("does not exist"):
            raise TechnicalFailure(f"the predictions file {result.data!r} named by {RESULT_FILE} {exc.message}", file=data_path) from None
        raise
    raw = parse_output_json(data, data_path, refuse_duplicates=True)
    del data
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


def _data_path(output_dir: Path, result: AdapterResult) -> str:
    """The predictions file `data` names, relative to the output directory, never leaving it."""
    try:
        ds.check_relative_path(result.data, file=output_dir / RESULT_FILE, field="$.data")
    except EnviroBenchError as exc:
        raise TechnicalFailure(exc.message, file=exc.file, field=exc.field) from None
    parts = [p for p in result.data.split("/") if p not in ("", ".")]
    if not parts or ".." in parts:
        raise TechnicalFailure(f"{result.data!r} leaves the adapter's output directory", file=output_dir / RESULT_FILE, field="$.data")
    return "/".join(parts)


def verify_saved_output(output_dir: Path, output: AdapterOutput, *, skip: Sequence[str] = ()) -> None:
    """Every file run.json records for adapter/ is there with its recorded size and SHA-256."""
    for relative, entry in output.files.items():
        if relative in skip:
            continue
        path = output_dir / relative
        digest = hashlib.sha256()
        try:
            fd = os.open(path, _READ_FLAGS)
        except OSError:
            raise TechnicalFailure(f"is missing or not a regular file, but {RUN_FILE} records it", file=path) from None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise TechnicalFailure(f"is not a regular file, but {RUN_FILE} records one", file=path)
            size = 0
            while chunk := os.read(fd, 1 << 20):
                digest.update(chunk)
                size += len(chunk)
        finally:
            os.close(fd)
        if size != entry.size or digest.hexdigest() != entry.sha256:
            raise TechnicalFailure(f"does not match the size and SHA-256 recorded in {RUN_FILE} when the run was made: it was changed since; refusing to use it", file=path)


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


def score_run(btype: BenchmarkType, cases: Mapping[str, Case], answers: Mapping[str, Any], predictions: Mapping[str, Any],
              *, on_progress: Callable[[int, int], None] | None = None) -> RunScores:
    """Every case scored in every profile (None where it has no prediction); `on_progress`
    receives (done, total) every PROGRESS_EVERY cases and at the end."""
    scores: RunScores = {}
    interned: dict[Any, CaseScore] = {}
    total = len(cases)
    for n, (cid, case) in enumerate(cases.items()):
        if on_progress is not None and n % PROGRESS_EVERY == 0:
            on_progress(n, total)
        prediction = predictions.get(cid)
        if prediction is None:
            scores[cid] = {profile: None for profile in btype.PROFILES}
            continue
        by_profile = btype.score_case(case, answers[cid], prediction)
        scores[cid] = {profile: _intern(interned, by_profile.get(profile)) for profile in btype.PROFILES}
    if on_progress is not None:
        on_progress(total, total)
    return scores


PROGRESS_EVERY = 1000


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
    """A baseline or control: a finished run's predictions and per-case scores, taken from its
    own metrics.json where they are what rescoring would give, else rescored (`rescored_because`)."""

    label: str
    run_id: str
    path: Path
    predictions: dict[str, Any]
    scores: RunScores
    rescored_because: str | None = None


def select_cases(cases: Mapping[str, Case], retired: Mapping[str, str], *, ids: Sequence[str] = (), limit: int | None = None) -> tuple[Mapping[str, Case], Partial | None]:
    """The cases a run sends to its adapter and scores, in dataset order: every unretired case, or
    a partial run's selection (`ids`: `--case ID ...`; `limit`: `--limit N`, the first N) with its
    record for run.json. A selection that holds every case is a run of every case (no record)."""
    if ids and limit is not None:
        raise EnviroBenchError("--case and --limit cannot be combined: name the cases, or say how many of the first to run")
    if limit is not None:
        if limit < 1:
            raise EnviroBenchError(f"--limit must be at least 1, not {limit}")
        chosen = set(itertools.islice(cases, limit))
        how = f"--limit {limit}"
    elif ids:
        for cid in ids:
            if cid in retired:
                raise EnviroBenchError(f"--case {cid!r} is retired from the dataset ({retired[cid]})")
            if cid not in cases:
                raise EnviroBenchError(f"--case {cid!r} is not a case of the dataset")
        unique = list(dict.fromkeys(ids))
        chosen = set(unique)
        how = " ".join(f"--case {cid}" for cid in unique[:5]) + (f" and {len(unique) - 5} more" if len(unique) > 5 else "")
    else:
        return cases, None
    if len(chosen) == len(cases):
        return cases, None
    selected = {cid: case for cid, case in cases.items() if cid in chosen}
    return selected, Partial(len(selected), len(cases), how)


def load_compared_run(path: Path, label: str, btype: BenchmarkType, dataset: ds.Dataset, cases: Mapping[str, Case], answers: Mapping[str, Any], dataset_source: str) -> ComparedRun:
    """A baseline or control, checked to be a run of every case (never a partial run) of this
    benchmark and dataset revision, rescored on `cases` (a partial candidate's selection, or all)."""
    run = read_completed_run(path)
    refuse_partial(run, path, f"the {label}", "a baseline or a control")
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
    scores, why = saved_scores(path, run.metrics_sha256, run.benchmark.scoring_version, btype, dataset, cases)
    if scores is None:
        scores = score_run(btype, cases, answers, predictions)
    return ComparedRun(label, run.run_id, path.resolve(), predictions, scores, why)


def saved_scores(path: Path, metrics_sha256: str | None, scoring_version: str, btype: BenchmarkType, dataset: ds.Dataset,
                 cases: Mapping[str, Case]) -> tuple[RunScores | None, str | None]:
    """A compared run's per-case scores as its metrics.json holds them (its own, `candidate`),
    when they are what rescoring it now would give: metrics.json still has the bytes run.json
    recorded (`metrics_sha256`), scored by this type's scoring version on this dataset revision
    (its answers), every profile of every case present and well formed. Its predictions have been
    checked against run.json's digests before this is asked. Otherwise (None, why), and the caller
    rescores: reuse saves time, never changes a number."""
    if not btype.REUSE_SCORES:
        return None, f"{btype.ID} scores a case faster than its score is read back (REUSE_SCORES is False)"
    if metrics_sha256 is None:
        return None, f"its run.json records no digest of its {METRICS_FILE} (a run scored before core 0.2.0)"
    if scoring_version != btype.SCORING_VERSION:
        return None, f"it was scored by {btype.ID} scoring version {scoring_version}, this is {btype.SCORING_VERSION}"
    try:
        with open(path / METRICS_FILE, "rb") as fh:
            raw = fh.read()
        if hashlib.sha256(raw).hexdigest() != metrics_sha256:
            return None, f"its {METRICS_FILE} is not the file its run.json recorded (changed since it was scored)"
        text = raw.decode("utf-8")
        del raw
        interned: dict[Any, CaseScore] = {}
        saved: RunScores = {}

        def keep(cid: str, entry: Any) -> None:
            # Case by case: the whole file as one tree would take ten times its size in memory.
            if cid in cases:
                own = entry["runs"]["candidate"]
                saved[cid] = {profile: _intern(interned, _saved_score(own[profile])) for profile in btype.PROFILES}

        data = read_document_members(text, "cases", keep)
        del text
        if data["format"] != METRICS_FORMAT or data["benchmark"]["scoring_version"] != btype.SCORING_VERSION:
            return None, f"its {METRICS_FILE} is not of this format and scoring version"
        if data["dataset"]["digest"] != dataset.identity.digest:
            return None, f"its {METRICS_FILE} was scored on another dataset revision"
        scores: RunScores = {cid: saved[cid] for cid in cases}
    except (OSError, ValueError) as exc:
        return None, f"its {METRICS_FILE} does not read ({exc})"
    except (KeyError, TypeError, AttributeError):
        return None, f"its {METRICS_FILE} lacks scores of some case or profile, or holds malformed ones"
    return scores, None


def _saved_score(value: Any) -> CaseScore | None:
    """A CaseScore as metrics.json writes it ({"errors": [[...]], "metrics": {...}}), or None."""
    if value is None:
        return None
    errors = tuple(tuple(_scalar(part) for part in error) for error in value["errors"])
    metrics = value["metrics"]
    if not isinstance(metrics, dict) or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in metrics.values()):
        raise TypeError("metrics must be numbers")
    return CaseScore(errors=errors, metrics=dict(metrics))


def _scalar(value: Any) -> Any:
    if value is not None and not isinstance(value, str | int | float | bool):
        raise TypeError("an error's parts are JSON scalars")
    return value


def read_saved_predictions(run_dir: Path, btype: BenchmarkType, cases: Mapping[str, Case], whose: str) -> dict[str, Any]:
    """A finished run's predictions for the cases it has, checked with the current type.

    The files of adapter/ must still be those run.json recorded when the run was made (size and
    SHA-256): a run whose saved output was changed is refused, never rescored or compared with."""
    output_dir = run_dir / ADAPTER_DIR
    try:
        record = read_run(run_dir)
        output = record.adapter_output
        result = read_adapter_result(output_dir, btype, output=output)
        predictions = load_predictions(output_dir, result, btype, list(cases), exact=False, output=output)
        if output is not None:
            verify_saved_output(output_dir, output, skip=(RESULT_FILE, _data_path(output_dir, result)))
        return predictions
    except TechnicalFailure as exc:
        raise EnviroBenchError(f"cannot read {whose} saved predictions: {exc}") from None
