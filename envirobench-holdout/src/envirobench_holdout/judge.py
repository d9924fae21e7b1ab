"""Checking and scoring a submission with the installed type and core's own scoring code.

A held dataset is a full dataset (answer key included) the service keeps; its cases are split, by
a seeded draw kept on the service, into a public part (scored and, by the Ladder, released) and a
private part (scored on every submission, revealed when the operator closes a round). A
submission is refused, with one line, when it is not well formed, names another dataset or a run
that is not an unscored run of it, lacks or adds cases, or holds a prediction its type refuses;
a refusal says nothing about answers and records nothing. A score is computed exactly as the
leaderboard computes a task's component score from a run (envirobench.leaderboard.runs): every
case scored by the type (`score_case`), its default profile summarized, and the task's formula
applied to the primary headline measure.

Core's public API is all it uses: the names `envirobench` exports, and `envirobench.categories`,
the tasks' component-score formulas (docs/api.md, Categories and their formulas), with which the
service computes the leaderboard's number (tests/holdout/test_public_api.py holds it to that).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

import envirobench.categories as cats  # public, not re-exported (docs/api.md)
from envirobench import (
    BenchmarkType,
    Case,
    Dataset,
    EnviroBenchError,
    Registry,
    RunRecord,
    load_dataset,
    structure,
)

from .store import HeldDatasetRow

SUBMISSION_FORMAT = "envirobench.holdout.submission.v1"


class Refused(Exception):
    """A submission refused: `status` the HTTP status, the message one line (never an answer)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class WrongDataset(Refused):
    """The submission names a dataset the service does not hold."""


@attrs.frozen
class Scores:
    public: float
    private: float


@attrs.frozen
class Checked:
    """A well-formed submission of a held dataset: what the ledger records of it."""

    held: HeldDataset
    run_id: str
    system: str  # the adapter and model, as the run names them
    predictions: dict[str, Any] = attrs.field(repr=False)
    predictions_sha256: str


@attrs.define
class HeldDataset:
    """A dataset the service holds, loaded and validated once (answers included)."""

    row: HeldDatasetRow
    btype: BenchmarkType
    dataset: Dataset
    cases: dict[str, Case]  # retired cases left out
    answers: dict[str, Any]
    public_cases: tuple[str, ...]
    private_cases: tuple[str, ...]

    @classmethod
    def load(cls, row: HeldDatasetRow, registry: Registry) -> HeldDataset:
        dataset = load_dataset(Path(row.path), registry)
        if dataset.sealed or dataset.identity.digest != row.digest:
            raise EnviroBenchError(f"the held dataset at {row.path} is not {row.dataset_id} v{row.version} ({row.digest}) with its answer key")
        btype = registry.benchmark_type(row.benchmark)
        cases, answers = dataset.cases(btype), dataset.answers(btype)
        private = set(row.private_cases)
        return cls(row, btype, dataset, cases, answers, tuple(c for c in cases if c not in private), tuple(c for c in cases if c in private))

    def score(self, predictions: Mapping[str, Any]) -> Scores:
        return Scores(component_score(self.btype, self.cases, self.answers, self.public_cases, predictions),
                      component_score(self.btype, self.cases, self.answers, self.private_cases, predictions))


def component_score(btype: BenchmarkType, cases: Mapping[str, Case], answers: Mapping[str, Any], case_ids: Sequence[str], predictions: Mapping[str, Any]) -> float:
    """The task's component score (0-100) of these cases, as the leaderboard computes it."""
    profile, primary = btype.PROFILES[0], btype.HEADLINE[0]
    case_scores = [btype.score_case(cases[cid], answers[cid], predictions[cid])[profile] for cid in case_ids]
    if any(score is None for score in case_scores):
        raise Refused(422, f"the {btype.ID} type's default profile {profile!r} does not score every case; nothing is recorded")
    headline = btype.summarize(profile, case_scores)
    task = cats.task(btype.ID)
    try:
        return round((task.formula if task else cats.PRIMARY).evaluate(headline, primary), 6)
    except cats.ScoreRefused as exc:
        raise Refused(422, f"no {btype.ID} score: {exc.message}; nothing is recorded") from None


def predictions_digest(predictions: Mapping[str, Any]) -> str:
    text = json.dumps(predictions, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def check_submission(payload: Any, held: Mapping[str, HeldDataset]) -> Checked:
    """The submission checked against the dataset it names; Refused with one line otherwise."""
    if not isinstance(payload, dict) or payload.get("format") != SUBMISSION_FORMAT:
        raise Refused(400, f"malformed submission: a JSON object with \"format\": \"{SUBMISSION_FORMAT}\" is expected")
    extra = sorted(set(payload) - {"format", "run", "predictions"})
    if extra:
        raise Refused(400, f"malformed submission: unknown field(s) {', '.join(extra)}")
    try:
        run = structure(payload.get("run"), RunRecord, file="run.json")
    except EnviroBenchError as exc:
        raise Refused(400, f"malformed submission: {exc}") from None
    dataset = held.get(run.dataset.digest)
    if dataset is None:
        names = ", ".join(f"{h.row.dataset_id} v{h.row.version}" for h in held.values()) or "none"
        raise WrongDataset(422, f"wrong dataset: the run is of {run.dataset.id} v{run.dataset.version} ({run.dataset.digest}); this service holds {names}")
    if run.status != "unscored":
        raise Refused(422, f"the run's status is {run.status!r}: only an unscored run of the sealed dataset (envirobench run on its public part) is accepted")
    if run.benchmark.id != dataset.btype.ID or run.benchmark.format != dataset.btype.FORMAT:
        raise Refused(422, f"the run is of {run.benchmark.id} ({run.benchmark.format}); the dataset's type is {dataset.btype.ID} ({dataset.btype.FORMAT})")
    if run.partial is not None or run.shard is not None:
        raise Refused(422, "the run is partial (--case, --limit or a shard): only a run of every case is accepted")
    predictions = payload.get("predictions")
    if not isinstance(predictions, dict):
        raise Refused(400, "malformed submission: predictions must be a JSON object mapping case IDs to predictions")
    expected = len(dataset.cases)
    if len(predictions) != expected or set(predictions) != dataset.cases.keys():
        missing = len(dataset.cases.keys() - predictions.keys())
        unknown = len(predictions.keys() - dataset.cases.keys())
        raise Refused(422, f"wrong length: {len(predictions)} prediction(s) for the dataset's {expected} cases ({missing} missing, {unknown} not cases of it)")
    structured = {}
    for cid in dataset.cases:
        try:
            structured[cid] = structure(predictions[cid], dataset.btype.Prediction, file="predictions", path=f"$[{json.dumps(cid)}]")
        except EnviroBenchError as exc:
            raise Refused(422, f"invalid prediction: {exc} (not a valid {dataset.btype.FORMAT} prediction)") from None
        try:
            # The same check a local run makes against the case's input (never the answer).
            dataset.btype.check_prediction(dataset.cases[cid], structured[cid])
        except ValueError as exc:
            raise Refused(422, f"invalid prediction: the prediction for a case does not fit it: {exc}") from None
    system = f"{run.adapter.name or run.adapter.requested} / {run.model}"
    return Checked(dataset, run.run_id, system[:400], structured, predictions_digest(predictions))
