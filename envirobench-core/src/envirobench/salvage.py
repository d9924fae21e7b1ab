"""Salvage and resume: the cases an unfinished run finished, kept and continued (docs/runs.md,
"Salvage and resume").

An adapter may append one line per finished case to `cases.jsonl` in its output directory
(`protocol.CaseLine`: the case's ID, its prediction, optionally its cost and wall time). Whatever
ends a run (a signal, a crash of core, a technical failure), core copies the adapter's output into
the unfinished run as it does for a finished one, so those lines are kept. `run --resume` then
continues the run: it reads them back from core's copy (checked against the size and SHA-256 that
run.json recorded), checks every line as it checks any adapter output (untrusted: bounded in size,
a malformed line, a case not in the run, a case twice, a prediction that does not validate are
each an error naming the file and the line), and asks the adapter only for the other cases. An
unfinished line at the end (the adapter was killed while writing it) is not a case and is left.

The salvaged cases go into the resumed run as salvaged.json, written by core, its size and SHA-256
in run.json's `resumed`; a rescore or a comparison reads them with the adapter's predictions. The
answers never cross: the resumed request is built like any other, from inputs alone.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

import attrs

from .benchmark import BenchmarkType
from .converter import structure, structurer, unstructure
from .errors import EnviroBenchError, TechnicalFailure
from .jsonio import dumps
from .protocol import CASES_FILE, CaseLine
from .rundir import (
    ADAPTER_DIR,
    RUN_FILE,
    SALVAGED_FILE,
    AdapterOutput,
    OutputFile,
    Resumed,
    RunRecord,
    read_run,
)
from .scoring import _file_of, parse_output_json, read_output_bytes
from .system import is_locked

SALVAGED_FORMAT = "envirobench.salvaged.v1"
MAX_LINE_BYTES = 16 << 20  # one case's line of cases.jsonl (a site record's prediction is large, not this large)
INCOMPLETE = ".incomplete-"  # a staging directory: `.RUN_ID.incomplete-XXXXXXXX` (runs._staging_dir)
UNFINISHED = ("failed", "running")  # the statuses of a run that can be resumed (`running`: its maker was killed)


@attrs.frozen
class Salvage:
    """The finished cases of an unfinished run: `lines` by case ID, in the run's case order."""

    from_run: str
    from_path: Path
    lines: Mapping[str, CaseLine]

    @property
    def cost_usd(self) -> float:
        return math.fsum(line.cost_usd or 0.0 for line in self.lines.values())

    def joined(self, btype: BenchmarkType, case_ids: Collection[str], predictions: Mapping[str, Any]) -> dict[str, Any]:
        """The salvaged predictions (as the type's records) with the adapter's, in the run's case order."""
        return join_predictions(btype, case_ids, self.lines, predictions)


def join_predictions(btype: BenchmarkType, case_ids: Collection[str], lines: Mapping[str, CaseLine], predictions: Mapping[str, Any]) -> dict[str, Any]:
    """A resumed run's predictions: the salvaged ones and the adapter's, in the order of `case_ids`
    (a case in neither is left out, as a saved run read for comparison leaves it)."""
    make = structurer(btype.Prediction)
    return {cid: make(lines[cid].prediction) if cid in lines else predictions[cid] for cid in case_ids if cid in lines or cid in predictions}


def read_case_lines(output_dir: Path, btype: BenchmarkType, wanted: Collection[str], *, output: AdapterOutput | None, max_bytes: int) -> dict[str, CaseLine]:
    """The checked lines of `output_dir/cases.jsonl` (a copy core made), by case ID; {} when the
    adapter wrote none. Raises TechnicalFailure naming the file and line of the first bad one."""
    path = output_dir / CASES_FILE
    if output is not None and CASES_FILE not in output.files and not any(s.path == CASES_FILE for s in output.skipped):
        return {}
    try:
        data = read_output_bytes(output_dir, CASES_FILE, expected=_file_of(output, output_dir, CASES_FILE), max_bytes=max_bytes)
    except TechnicalFailure as exc:
        if exc.message.startswith("does not exist"):
            return {}
        raise
    *complete, _unfinished = data.split(b"\n")  # after the last newline: a line cut short by a kill, or nothing
    return parse_case_lines(complete, path, btype, wanted)


def parse_case_lines(raw_lines: list[bytes], path: Path, btype: BenchmarkType, wanted: Collection[str] | None) -> dict[str, CaseLine]:
    """Each line checked (see the module docstring); `wanted`: the run's case IDs (None: any)."""
    found: dict[str, CaseLine] = {}
    for number, raw in enumerate(raw_lines, 1):
        if len(raw) > MAX_LINE_BYTES:
            raise TechnicalFailure(f"the line is {len(raw)} bytes, over the limit of {MAX_LINE_BYTES} bytes for one case", file=path, line=number)
        if not raw.strip():
            raise TechnicalFailure("an empty line; each line is one finished case", file=path, line=number)
        try:
            value = parse_output_json(raw, path, refuse_duplicates=True)
            line = structure(value, CaseLine, file=str(path), line=number)
        except EnviroBenchError as exc:
            raise TechnicalFailure(exc.message, file=path, line=number, field=exc.field) from None
        if wanted is not None and line.id not in wanted:
            raise TechnicalFailure(f"names case {line.id!r}, which is not a case of this run", file=path, line=number, field="$.id")
        if line.id in found:
            raise TechnicalFailure(f"gives case {line.id!r} a second time", file=path, line=number, field="$.id")
        for name in ("cost_usd", "wall_s"):
            amount = getattr(line, name)
            if amount is not None and not (math.isfinite(amount) and amount >= 0):
                raise TechnicalFailure(f"{name} must be a finite number of at least 0, not {amount!r}", file=path, line=number, field=f"$.{name}")
        try:
            structure(line.prediction, btype.Prediction, file=str(path), line=number, path="$.prediction")
        except EnviroBenchError as exc:
            raise TechnicalFailure(f"the prediction for case {line.id!r} is not a valid {btype.FORMAT} prediction: {exc.message}", file=path,
                                   line=number, field=exc.field) from None
        found[line.id] = line
    return found


# -- finding what to resume ------------------------------------------------------------------------


def incomplete_dirs(parent: Path, run_id: str | None = None) -> list[Path]:
    """The hidden staging directories in `parent` (of `run_id`, or of any run) that no living run
    holds: what an interrupted run or a crash left."""
    prefix = f".{run_id}{INCOMPLETE}" if run_id else "."
    found = []
    with contextlib.suppress(OSError), os.scandir(parent) as entries:
        for entry in entries:
            if entry.name.startswith(prefix) and INCOMPLETE in entry.name and entry.is_dir(follow_symlinks=False) and not is_locked(Path(entry.path)):
                found.append(Path(entry.path))
    return sorted(found)


def resumable(results_dir: Path, run_id: str) -> Path | None:
    """The unfinished attempt at `run_id` to continue: the newest (by run.json's created_at) of
    the failed run RESULTS/RUN_ID and the hidden directories interrupted attempts left; None when
    there is none. A completed run (or an unscored one) is not unfinished: the caller skips it."""
    candidates: list[tuple[str, Path]] = []
    final = results_dir / run_id
    for path in [*([final] if final.is_dir() and not final.is_symlink() else []), *incomplete_dirs(results_dir, run_id)]:
        try:
            record = read_run(path)
        except EnviroBenchError:
            continue  # an attempt stopped before its run.json was written holds nothing to salvage
        if record.status in UNFINISHED and record.run_id == run_id:
            candidates.append((record.created_at, path))
    return max(candidates)[1] if candidates else None


# What must be the same for one run to continue another; each pair: the name shown, the value.
def run_identity(record: RunRecord) -> dict[str, Any]:
    return {
        "benchmark": record.benchmark.id,
        "scoring version": record.benchmark.scoring_version,
        "dataset": f"{record.dataset.id} v{record.dataset.version} ({record.dataset.digest})",
        "adapter": record.adapter.requested,
        "model": record.model,
        "adapter options": dict(sorted(record.options.items())),
        "case selection": record.partial.selected_by if record.partial else "every case",
        "shard": f"{record.shard.index}/{record.shard.count}" if record.shard else None,
    }


def salvage(source: Path, expected: RunRecord, btype: BenchmarkType, case_ids: Collection[str], *, max_bytes: int) -> Salvage:
    """The finished cases of the unfinished run in `source`, which must be an attempt at the run
    `expected` describes (same type, dataset, adapter, model, options and cases), each checked."""
    record = read_run(source)
    was, now = run_identity(record), run_identity(expected)
    for name, value in was.items():
        if value != now[name]:
            raise EnviroBenchError(f"cannot resume {record.run_id!r} from {source}: it was made with {name} {value!r}, this run has {now[name]!r}; "
                                   "resume it with the command that made it, or choose another --run", file=source / RUN_FILE)
    wanted = frozenset(case_ids)
    lines: dict[str, CaseLine] = {}
    try:
        if record.resumed is not None:
            lines.update(read_salvaged(source, record, btype, wanted))
        if record.adapter_output is not None:
            for cid, line in read_case_lines(source / ADAPTER_DIR, btype, wanted, output=record.adapter_output, max_bytes=max_bytes).items():
                if cid in lines:
                    raise TechnicalFailure(f"gives case {cid!r}, which an earlier attempt had already finished (salvaged.json)", file=source / ADAPTER_DIR / CASES_FILE)
                lines[cid] = line
    except TechnicalFailure as exc:
        raise EnviroBenchError(f"cannot resume {record.run_id!r}: {exc}") from None
    ordered = {cid: lines[cid] for cid in case_ids if cid in lines}
    return Salvage(record.run_id, source, ordered)


# -- salvaged.json -------------------------------------------------------------------------------


def write_salvaged(directory: Path, found: Salvage) -> Resumed:
    """salvaged.json in a resumed run's directory, and run.json's record of it."""
    document = {"format": SALVAGED_FORMAT, "from_run": found.from_run, "cases": [unstructure(line) for line in found.lines.values()]}
    data = dumps(document, indent=None).encode("utf-8")
    path = directory / SALVAGED_FILE
    with open(path, "xb") as fh:  # the run's own, new directory: never replaces anything
        fh.write(data)
    return Resumed(found.from_run, str(found.from_path), len(found.lines), found.cost_usd, len(data), hashlib.sha256(data).hexdigest())


def read_salvaged(run_dir: Path, record: RunRecord, btype: BenchmarkType, wanted: Collection[str]) -> dict[str, CaseLine]:
    """The salvaged cases of a resumed run, checked against run.json's size and SHA-256 and, each,
    against the type; those not in `wanted` are left out."""
    assert record.resumed is not None
    path = run_dir / SALVAGED_FILE
    data = read_output_bytes(run_dir, SALVAGED_FILE, expected=OutputFile(record.resumed.size, record.resumed.sha256), max_bytes=record.resumed.size)
    value = parse_output_json(data, path)
    if not isinstance(value, dict) or value.get("format") != SALVAGED_FORMAT or not isinstance(value.get("cases"), list):
        raise TechnicalFailure(f"not a {SALVAGED_FORMAT} document", file=path)
    raw_lines = [json.dumps(item).encode("utf-8") for item in value["cases"]]
    lines = parse_case_lines(raw_lines, path, btype, None)  # written by core for the run's cases; a rescore may score fewer
    return {cid: line for cid, line in lines.items() if cid in wanted}


def keep_failed(final: Path) -> Path:
    """Rename the failed run `final` to the first free RUN_ID.failed-N beside it, whole, so its ID
    can be used again; returns where it now is. A completed run is never moved."""
    record = read_run(final)
    if record.status not in UNFINISHED:
        raise EnviroBenchError(f"run directory {final} holds a {record.status} run; choose another --run (runs are never overwritten)")
    for n in range(1, 10_000):
        kept = final.with_name(f"{final.name}.failed-{n}")
        if kept.exists() or kept.is_symlink():
            continue
        final.rename(kept)  # onto a name that does not exist: nothing is replaced
        return kept
    raise EnviroBenchError(f"too many failed runs kept beside {final}")
