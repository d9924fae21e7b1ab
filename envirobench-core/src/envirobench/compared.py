"""Compared runs: a baseline or control is a finished run whose saved predictions are read back
(checked against the SHA-256s its run.json recorded) and whose per-case scores are taken from its
own metrics.json when they are exactly what rescoring would give, else rescored with the current
code and answer key (docs/runs.md, "Compared runs"). Shared by a new run, a rescore, a merge and
the leaderboard (which reads saved predictions only).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from . import datasets as ds
from .benchmark import BenchmarkType, Case, CaseScore
from .errors import EnviroBenchError, TechnicalFailure
from .json_members import read_file_members
from .protocol import RESULT_FILE
from .rundir import (
    ADAPTER_DIR,
    METRICS_FILE,
    METRICS_FORMAT,
    RUN_FILE,
    read_completed_run,
    read_run,
    refuse_partial,
)
from .salvage import join_predictions, read_salvaged
from .scoring import (
    RunScores,
    SharedScores,
    load_predictions,
    predictions_path,
    read_adapter_result,
    score_run,
    verify_saved_output,
)


@attrs.frozen
class ComparedRun:
    """A baseline or control: a finished run's predictions and per-case scores, taken from its
    own metrics.json where they are what rescoring would give, else rescored (`rescored_because`)."""

    label: str
    run_id: str
    path: Path
    predictions: Mapping[str, Any]  # a datasets.HeldValues (held to the end of the run: the comparison shows them)
    scores: RunScores
    rescored_because: str | None = None


def load_compared_run(path: Path, label: str, btype: BenchmarkType, dataset: ds.Dataset, cases: Mapping[str, Case], answers: Mapping[str, Any], dataset_source: str,
                      *, like: ComparedRun | None = None) -> ComparedRun:
    """A baseline or control, checked to be a run of every case (never a partial run) of this
    benchmark and dataset revision, rescored on `cases` (a partial candidate's selection, or all);
    where rescored, a case whose prediction is unchanged from `like`'s (the baseline's) takes its score."""
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
    predictions = read_saved_predictions(path, btype, cases, f"the {label} run's", held=True)
    scores, why = saved_scores(path, run.metrics_sha256, run.benchmark.scoring_version, btype, dataset, cases)
    if scores is None:
        scores = score_run(btype, cases, answers, predictions, like=(like.predictions, like.scores) if like is not None else None)
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
    shared = SharedScores(btype.PROFILES)
    saved: RunScores = {}

    def keep(cid: str, entry: Any) -> None:
        # Case by case: the whole file as one tree would take ten times its size in memory.
        if cid in cases:
            own = entry["runs"]["candidate"]
            saved[cid] = shared.case(_saved_score(own[profile]) for profile in btype.PROFILES)

    # Read a window at a time and hashed as it is read (never the whole file, or its text, in
    # memory: a 100,000-case metrics.json is hundreds of megabytes); a file that is not the one
    # run.json recorded is that, whatever else is wrong with it.
    digest = hashlib.sha256()
    unread = malformed = f"its {METRICS_FILE} lacks scores of some case or profile, or holds malformed ones"
    try:
        with open(path / METRICS_FILE, "rb") as fh:
            try:
                data = read_file_members(fh, "cases", keep, digest)
                unread = None
            except ValueError as exc:  # the words, not the exception (its traceback would hold this frame)
                unread = f"its {METRICS_FILE} does not read ({exc})"
            except (KeyError, TypeError, AttributeError):
                pass
    except OSError as exc:
        return None, f"its {METRICS_FILE} does not read ({exc})"
    if digest.hexdigest() != metrics_sha256:
        return None, f"its {METRICS_FILE} is not the file its run.json recorded (changed since it was scored)"
    if unread is not None:
        return None, unread
    try:
        if data["format"] != METRICS_FORMAT or data["benchmark"]["scoring_version"] != btype.SCORING_VERSION:
            return None, f"its {METRICS_FILE} is not of this format and scoring version"
        if data["dataset"]["digest"] != dataset.identity.digest:
            return None, f"its {METRICS_FILE} was scored on another dataset revision"
        # Keyed by the run's own case IDs: the strings read from the file (scattered among the
        # parser's freed objects, which they would keep in memory) go with `saved`.
        scores: RunScores = {cid: saved[cid] for cid in cases}
        saved.clear()
    except ValueError as exc:
        return None, f"its {METRICS_FILE} does not read ({exc})"
    except (KeyError, TypeError, AttributeError):
        return None, malformed
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


def read_saved_predictions(run_dir: Path, btype: BenchmarkType, cases: Mapping[str, Case], whose: str, *, held: bool = False) -> Mapping[str, Any]:
    """A finished run's predictions for the cases it has, checked with the current type (with
    `held`, as a datasets.HeldValues: see scoring.load_predictions).

    The files of adapter/ must still be those run.json recorded when the run was made (size and
    SHA-256): a run whose saved output was changed is refused, never rescored or compared with."""
    output_dir = run_dir / ADAPTER_DIR
    try:
        record = read_run(run_dir)
        output = record.adapter_output
        result = read_adapter_result(output_dir, btype, output=output)
        predictions = load_predictions(output_dir, result, btype, list(cases), exact=False, output=output, held=held)
        if output is not None:
            verify_saved_output(output_dir, output, skip=(RESULT_FILE, predictions_path(output_dir, result)))
        if record.resumed is not None:  # a resumed run: with the cases salvaged from the attempt it continued
            predictions = join_predictions(btype, list(cases), read_salvaged(run_dir, record, btype, cases), predictions)
        return predictions
    except TechnicalFailure as exc:
        raise EnviroBenchError(f"cannot read {whose} saved predictions: {exc}") from None
