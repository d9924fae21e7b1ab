"""Reading what an adapter made and scoring it: the result checks, the predictions, case scores.

Everything here is shared by a new run (`runs.execute_run`), offline rescoring (`runs.rescore_run`) and
the compared runs both pair with: a baseline or control is a finished run whose saved predictions
are read back and rescored with the current code and answer key (see docs/architecture.md, "One
run"). A problem with what an adapter wrote is a `TechnicalFailure`: never scored.

Length: the path of an adapter's output from bytes to case scores is one chain of checks (file,
JSON, result, predictions, each prediction against its case, scores); split, each half would need
the other's failure wording to stay one voice.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import itertools
import json
import math
import os
import stat
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import chain, compress, repeat
from operator import is_, not_
from pathlib import Path
from typing import Any

from . import datasets as ds
from .benchmark import BenchmarkType, Case, CaseScore
from .converter import structure, structurer
from .errors import EnviroBenchError, TechnicalFailure
from .jsonio import JSONInputError, kind_of, loads
from .protocol import RESULT_FILE, AdapterResult
from .rundir import (
    MAX_OUTPUT_MB,
    RUN_FILE,
    AdapterOutput,
    OutputFile,
    Partial,
)
from .unchanged import unchanged

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
    if refuse_duplicates and "\\u003" not in text:
        # Without a Python call per object: parsed by the decoder alone, then its objects' members
        # counted against the text's (see _without_duplicates). Anything else, or a doubt, is read
        # the checked way below, which gives every refusal.
        try:
            value = loads(text)
            if _without_duplicates(text, value):
                return value
        except Exception:  # noqa: S110 - read again below, where every failure is named
            pass
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


def _without_duplicates(text: str, value: Any, limit: int = MAX_JSON_DEPTH) -> bool:
    """True when `value`, parsed from `text` (which has no \\u003X escape, so every ':' inside a
    string is a ':' in the text), nests no deeper than `limit` and no object in the text repeats a
    key: outside strings, JSON has one ':' per object member, so the text's members are its ':'s
    less those in strings, and each object's distinct keys are its dict's length; they are equal
    exactly when no key repeats (when the ':'s are as many as the dicts' keys, no string holds
    one). Level by level, in C (no Python step per value)."""
    members, strings = _members(value, limit, count_colons=False)
    if members < 0:
        return False  # nested too deeply: refused below
    if text.count(":") != members:
        members, strings = _members(value, limit, count_colons=True)
    return text.count(":") - strings == members


def _members(value: Any, limit: int, *, count_colons: bool) -> tuple[int, int]:
    """The members of every object in `value` and (with count_colons) the ':'s in its strings,
    keys included; (-1, 0) when arrays and objects nest deeper than `limit`."""
    members = colons = depth = 0
    level = [value]
    while level:
        kinds = list(map(type, level))
        present = set(kinds)
        dicts = list(compress(level, map(is_, kinds, repeat(dict)))) if dict in present else []
        lists = list(compress(level, map(is_, kinds, repeat(list)))) if list in present else []
        if depth >= limit and (dicts or lists):
            return -1, 0
        members += sum(map(len, dicts))
        if count_colons:
            colons += sum(map(str.count, compress(level, map(is_, kinds, repeat(str))), repeat(":")))
            colons += sum(map(str.count, chain.from_iterable(dicts), repeat(":")))
        level = list(chain(chain.from_iterable(map(dict.values, dicts)), chain.from_iterable(lists)))
        depth += 1
    return members, colons


def _depth_over(value: Any, limit: int) -> bool:
    """Whether arrays and objects nest deeper than `limit` (level by level, no recursion)."""
    D, L = dict, list
    if type(value) is not D and type(value) is not L:
        return False
    level = [value]
    for _ in range(limit):
        deeper = [member for item in level for member in (item.values() if type(item) is D else item) if type(member) is D or type(member) is L]
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
    cases: Mapping[str, Case] | None = None,
    held: bool = False,
) -> dict[str, Any]:
    """The adapter's predictions, exactly one per requested case, each valid for the type, read
    from core's copy of its output (checked against `output`, run.json's record of the copy).
    With `cases`, each prediction is also checked against its case's input by the type's
    `check_prediction` (a decision list as long as the cells, say).

    With exact=False (a saved run read for comparison), cases it lacks are left out and cases
    it has beyond `case_ids` are ignored; the profiles that then lack a score are unavailable.
    With held=True predictions that nest arrays or objects come as a `datasets.HeldValues` (a
    compared run's, kept to the end of the run: held as their JSON text, made where looked up).
    """
    relative = predictions_path(output_dir, result)
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
    # Set operations in C; a case-by-case walk only when some requested case has no prediction.
    wanted = set(case_ids)
    complete = wanted.issubset(raw)  # (faster than <= raw.keys())
    missing = [] if complete else [cid for cid in case_ids if cid not in raw]
    extra = sorted(raw.keys() - wanted) if len(raw) > len(wanted) or not complete else []
    if not exact:
        case_ids, missing, extra = case_ids if complete else [cid for cid in case_ids if cid in raw], [], []
    if missing:
        raise TechnicalFailure(f"{len(missing)} requested case(s) have no prediction: {some(missing)}", file=data_path)
    if extra:
        raise TechnicalFailure(f"{len(extra)} prediction(s) for cases that were not requested: {some(extra)}", file=data_path)
    try:
        # The common case, fast: every prediction valid. Only a failure pays for locating it.
        predictions = dict(zip(case_ids, map(structurer(btype.Prediction), map(raw.__getitem__, case_ids)), strict=True))
    except Exception:  # any structuring failure is located and reported below
        pass
    else:
        if cases is not None and type(btype).check_prediction is not BenchmarkType.check_prediction:
            for cid, prediction in predictions.items():
                try:
                    btype.check_prediction(cases[cid], prediction)
                except ValueError as exc:
                    raise TechnicalFailure(f"the prediction for case {cid!r} does not fit the case: {exc}", file=data_path, field=f"$[{json.dumps(cid)}]") from None
        if held and case_ids and ds.HeldValues.worth_it(raw[case_ids[0]]):
            kept = ds.HeldValues(ds.structurer_of(btype.Prediction))
            for cid, prediction in predictions.items():
                kept.hold(cid, prediction, raw[cid])
            return kept  # type: ignore[return-value]
        return predictions
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


def predictions_path(output_dir: Path, result: AdapterResult) -> str:
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
    # A budget of 0 is free: any cost over 0 is over it; a positive one allows 1e-9 of itself more (float sums: 0.1 + 0.2 > 0.3).
    if cost > budget_usd * (1 + 1e-9):
        raise TechnicalFailure(f"spent ${cost:.12g}, over the budget of ${budget_usd:.12g}", field="$.systems", **where)
    return cost


def check_case_usage(result: AdapterResult, case_ids: Sequence[str], cost_usd: float) -> None:
    """The adapter's per-case cost and wall time (optional): only requested cases, each once,
    finite and not negative, and costs that add up to no more than the run's total."""
    if result.cases is None:
        return
    where = {"file": RESULT_FILE}
    wanted = set(case_ids)
    seen: set[str] = set()
    spent = 0.0
    for index, usage in enumerate(result.cases):
        field = f"$.cases[{index}]"
        if usage.id not in wanted:
            raise TechnicalFailure(f"gives the usage of case {usage.id!r}, which was not requested", field=field + ".id", **where)
        if usage.id in seen:
            raise TechnicalFailure(f"gives the usage of case {usage.id!r} twice", field=field + ".id", **where)
        seen.add(usage.id)
        for name in ("cost_usd", "wall_s"):
            value = getattr(usage, name)
            if value is not None and not (math.isfinite(value) and value >= 0):
                raise TechnicalFailure(f"{name} must be a finite number of at least 0, not {value!r}", field=f"{field}.{name}", **where)
        spent += usage.cost_usd or 0.0
    if spent > cost_usd + 1e-9 * max(1.0, cost_usd):
        raise TechnicalFailure(f"the cases' costs add up to ${spent:.4f}, more than the ${cost_usd:.4f} its systems report", field="$.cases", **where)


def score_run(btype: BenchmarkType, cases: Mapping[str, Case], answers: Mapping[str, Any], predictions: Mapping[str, Any],
              *, on_progress: Callable[[int, int], None] | None = None, like: tuple[Mapping[str, Any], RunScores] | None = None) -> RunScores:
    """Every case scored in every profile (None where it has no prediction); `on_progress`
    receives (done, total) every PROGRESS_EVERY cases and at the end. With `like` (the baseline's
    predictions and scores), a case whose prediction is unchanged (unchanged.py) takes its score."""
    scores: RunScores = {}
    shared = SharedScores(btype.PROFILES)
    ids, items = list(cases), list(cases.values())
    total = len(ids)
    score_case, of_case = btype.score_case, shared.of_case
    unscored: dict[str, CaseScore | None] = {}  # a case without a prediction: None in every profile
    # A thousand cases at a time, by map (no Python loop per case): each case scored in order.
    for start in range(0, total, PROGRESS_EVERY):
        if on_progress is not None:
            on_progress(start, total)
        some_ids = ids[start : start + PROGRESS_EVERY]
        found = list(map(predictions.get, some_ids))
        if any(map(is_, found, repeat(None))):
            by_profile: Iterable[Mapping[str, CaseScore | None]] = [
                unscored if prediction is None else score_case(case, answers[cid], prediction)
                for cid, case, prediction in zip(some_ids, items[start : start + PROGRESS_EVERY], found, strict=True)
            ]
        elif like is not None and any(same := unchanged(found, list(map(like[0].get, some_ids)))):
            made = list(map(like[1].__getitem__, some_ids))  # theirs where unchanged; the changed scored into their places
            changed, batch = list(compress(range(len(some_ids)), map(not_, same))), items[start : start + PROGRESS_EVERY]
            for i, mapping in zip(changed, map(of_case, map(score_case, map(batch.__getitem__, changed), map(answers.__getitem__, map(some_ids.__getitem__, changed)),
                                                            map(found.__getitem__, changed))), strict=True):
                made[i] = mapping
            scores.update(zip(some_ids, made, strict=True))
            continue
        else:
            by_profile = map(score_case, items[start : start + PROGRESS_EVERY], map(answers.__getitem__, some_ids), found)
        scores.update(zip(some_ids, map(of_case, by_profile), strict=True))
    if on_progress is not None:
        on_progress(total, total)
    return scores


PROGRESS_EVERY = 1000


class SharedScores:
    """Equal scores shared: most cases of a run score alike (correct cases all do), so a
    100,000-case run keeps a few thousand score objects, and one {profile: score} mapping per
    distinct combination, instead of one of each per case. The mappings are never modified."""

    def __init__(self, profiles: Sequence[str]):
        self.profiles = tuple(profiles)
        self._scores: dict[Any, CaseScore] = {}
        self._cases: dict[tuple[int, ...], dict[str, CaseScore | None]] = {}
        # The same mappings found by the scores' values (`of_case`): one look-up a case.
        self._by_value: dict[tuple[Any, ...], dict[str, CaseScore | None]] = {}
        self._value_key = _value_key(self.profiles)

    def score(self, score: CaseScore | None) -> CaseScore | None:
        if score is None:
            return None
        try:
            return self._scores.setdefault((score.errors, tuple(score.metrics.items())), score)
        except TypeError:  # an unhashable error value: keep the score as it is
            return score

    def case(self, scores: Iterable[CaseScore | None]) -> dict[str, CaseScore | None]:
        """The {profile: score} mapping of one case, given its scores in profile order."""
        shared = [self.score(s) for s in scores]
        # Every score in a stored mapping stays alive with it, so no other object takes its id.
        key = tuple(map(id, shared))
        found = self._cases.get(key)
        if found is None:
            found = self._cases[key] = dict(zip(self.profiles, shared, strict=True))
        return found

    def of_case(self, by_profile: Mapping[str, CaseScore | None]) -> dict[str, CaseScore | None]:
        """`case` of a type's {profile: score} (a profile it lacks: None), found in one look-up
        by the scores' values when an equal combination was seen before. The same mapping as
        `case` gives: a combination's scores are the shared ones its first sighting made."""
        try:
            key = self._value_key(by_profile)
            found = self._by_value.get(key)
        except TypeError:  # an unhashable error value
            return self.case(map(by_profile.get, self.profiles))
        if found is None:
            found = self._by_value[key] = self.case(map(by_profile.get, self.profiles))
        return found


def _value_key(profiles: Sequence[str]) -> Callable[[Mapping[str, Any]], tuple[Any, ...]]:
    """A function of a {profile: score} giving, profile by profile, None or (errors, metric
    items): the values that make two cases' scores equal (it runs once for every case scored)."""

    def key(by_profile: Mapping[str, Any]) -> tuple[Any, ...]:
        # A list made by a comprehension, then a tuple: quicker than tuple() of a generator.
        return tuple([None if (s := by_profile.get(p)) is None else (s.errors, tuple(s.metrics.items())) for p in profiles])

    return key


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
