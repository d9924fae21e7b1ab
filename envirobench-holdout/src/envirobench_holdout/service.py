"""The scoring service: a Starlette application over a Store.

    POST /v1/submissions   a run's predictions and run.json (API key; Idempotency-Key header)
    GET  /v1/datasets      the sealed datasets held: identity and number of cases (API key)
    GET  /                 the public leaderboard page (no key; no per-case data)

Every API request is authenticated by a bearer key (keys.py). A submission is checked and scored
outside the ledger's lock (judge.py); then, in one transaction holding it (store.py), its
idempotency key is looked up (a retried upload gets the first answer back, never counted twice),
the key's quota for the dataset and UTC day is counted (429 with Retry-After when used up), the
Ladder decides the release (ladder.py) and the ledger row and its index row are written. A
response carries the released score, the round and the quota, never a per-case result, the
unreleased score or anything else drawn from the answers. A refusal is one line, in JSON.
"""

from __future__ import annotations

import datetime as _dt
import json
import re
import threading
from collections.abc import Callable
from typing import Any

import attrs
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from envirobench import Registry

from . import ladder
from .judge import Checked, HeldDataset, Refused, WrongDataset, check_submission
from .keys import KeyCheck, parse_key
from .page import render_page
from .store import Store, SubmissionRow

IDEMPOTENCY_KEY = re.compile(r"^[A-Za-z0-9._:-]{8,200}$")


@attrs.frozen
class Settings:
    daily_quota: int = 3  # submissions per key, dataset and UTC day
    ladder_step: float = 1.0  # score points (0-100 scale)
    max_upload_bytes: int = 32 << 20


def seconds_to_midnight(at: _dt.datetime) -> int:
    tomorrow = (at + _dt.timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
    return max(1, int((tomorrow - at).total_seconds()) + 1)


def refusal(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


class Holdout:
    """The service's state: the store, the held datasets (loaded once) and the settings."""

    def __init__(self, store: Store, registry: Registry, settings: Settings, clock: Callable[[], _dt.datetime] | None = None) -> None:
        self.store, self.registry, self.settings = store, registry, settings
        self.clock = clock or (lambda: _dt.datetime.now(_dt.UTC))
        self.keys = KeyCheck()
        self._held: dict[str, HeldDataset] = {}
        self._lock = threading.Lock()
        self.reload()

    def reload(self) -> dict[str, HeldDataset]:
        """The held datasets, loading any the store gained since (`holdout dataset add` while serving)."""
        with self._lock:
            for row in self.store.held_datasets():
                if row.digest not in self._held:
                    self._held[row.digest] = HeldDataset.load(row, self.registry)
            return dict(self._held)

    def boards(self) -> list[dict[str, Any]]:
        """What the public page shows of each held dataset: its round, the released scores of the
        current round and those of closed rounds, and its public and private case counts."""
        boards = []
        for held in self.reload().values():
            round_, current, closed = self.store.board(held.row.digest)
            boards.append({"row": held.row, "round": round_, "current": current, "closed": closed,
                           "public": len(held.public_cases), "private": len(held.private_cases)})
        return boards

    def team_of(self, request: Request) -> tuple[str, str]:
        """(team, key ID) of the request's bearer key; Refused(401) otherwise."""
        header = request.headers.get("authorization", "")
        scheme, _, presented = header.partition(" ")
        parsed = parse_key(presented.strip()) if scheme.lower() == "bearer" else None
        if parsed is None:
            raise Refused(401, "an API key is required: Authorization: Bearer ebh_...")
        key_id, secret = parsed
        stored = self.store.key(key_id)
        if stored is None or not self.keys.matches(key_id, secret, stored[1], stored[2]):
            raise Refused(401, "the API key is not valid")
        return stored[0], key_id

    def submit(self, team: str, key_id: str, idempotency_key: str, payload: Any) -> tuple[int, dict[str, Any], dict[str, str]]:
        try:
            checked = check_submission(payload, dict(self._held))
        except WrongDataset:  # perhaps one added while serving
            checked = check_submission(payload, self.reload())
        with self.store.engine.connect() as conn:
            earlier = self.store.submission_for(conn, key_id, idempotency_key)
        if earlier is None:
            scores = checked.held.score(checked.predictions)  # outside the lock: scoring is the slow part
        return self._record(team, key_id, idempotency_key, checked, earlier, None if earlier else scores)

    def _record(self, team: str, key_id: str, idempotency_key: str, checked: Checked, earlier: SubmissionRow | None, scores: Any) -> tuple[int, dict[str, Any], dict[str, str]]:
        settings, digest = self.settings, checked.held.row.digest
        at = self.clock()
        day = at.date().isoformat()
        with self.store.appending() as conn:
            earlier = self.store.submission_for(conn, key_id, idempotency_key)
            if earlier is not None:
                if earlier.predictions_sha256 != checked.predictions_sha256 or earlier.dataset_digest != digest:
                    raise Refused(409, "this Idempotency-Key was used for another submission; use a new key for new predictions")
                used = self.store.used_today(conn, key_id, digest, day)
                return 200, self._answer(earlier, used, replayed=True), {}
            if scores is None:  # first seen inside the lock after all: score it now
                scores = checked.held.score(checked.predictions)
            used = self.store.used_today(conn, key_id, digest, day)
            if used >= settings.daily_quota:
                wait = seconds_to_midnight(at)
                raise Refused(429, f"quota used: {settings.daily_quota} submission(s) a day per key and dataset; try again in {wait} s (after 00:00 UTC)") from _Wait(wait)
            round_ = self.store.current_round(conn, digest)
            best = self.store.best_released(conn, team, digest, round_)
            released = ladder.release(scores.public, best, settings.ladder_step)
            at_text = at.isoformat(timespec="microseconds")
            body = {"team": team, "key_id": key_id, "dataset": checked.held.row.dataset_id, "version": checked.held.row.version,
                    "dataset_digest": digest, "run_id": checked.run_id, "system": checked.system, "idempotency_key": idempotency_key,
                    "predictions_sha256": checked.predictions_sha256, "round": round_, "public_score": scores.public,
                    "private_score": scores.private, "released": released, "raised": released != best,
                    "daily_quota": settings.daily_quota, "ladder_step": settings.ladder_step}
            row = self.store.append(conn, "submission", body, at_text)
            made = SubmissionRow(row.seq, key_id, team, digest, idempotency_key, checked.predictions_sha256, round_, checked.system,
                                 scores.public, scores.private, released, at_text)
            self.store.record_submission(conn, made, day)
        return 201, self._answer(made, used + 1, replayed=False, raised=released != best), {}

    def _answer(self, made: SubmissionRow, used: int, *, replayed: bool, raised: bool | None = None) -> dict[str, Any]:
        # What a team is told: the released score only (never the measured public or private
        # score, never anything per case).
        held = self._held[made.dataset_digest].row
        answer = {"submission": made.seq, "dataset": held.dataset_id, "version": held.version, "dataset_digest": held.digest,
                  "round": made.round, "released_score": made.released, "ladder_step": self.settings.ladder_step,
                  "submissions_used_today": used, "daily_quota": self.settings.daily_quota, "replayed": replayed}
        if raised is not None:
            answer["raised"] = raised
        return answer


class _Wait(Exception):
    def __init__(self, seconds: int) -> None:
        super().__init__(seconds)
        self.seconds = seconds


async def _read_body(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise Refused(413, f"upload too large: more than {limit} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise Refused(413, f"upload too large: more than {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def make_app(holdout: Holdout) -> Starlette:
    async def submissions(request: Request) -> Response:
        try:
            team, key_id = await run_in_threadpool(holdout.team_of, request)
            idempotency_key = request.headers.get("idempotency-key", "")
            if not IDEMPOTENCY_KEY.match(idempotency_key):
                raise Refused(400, "an Idempotency-Key header is required: 8 to 200 letters, digits or . _ : -")
            body = await _read_body(request, holdout.settings.max_upload_bytes)
            try:
                payload = json.loads(body)
            except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: nested too deep to read
                raise Refused(400, "malformed submission: the body is not JSON") from None
            status, answer, headers = await run_in_threadpool(holdout.submit, team, key_id, idempotency_key, payload)
            return JSONResponse(answer, status_code=status, headers=headers)
        except Refused as exc:
            wait = exc.__cause__.seconds if isinstance(exc.__cause__, _Wait) else None
            return refusal(exc.status, exc.message, {"Retry-After": str(wait)} if wait else ({"WWW-Authenticate": "Bearer"} if exc.status == 401 else None))

    async def datasets(request: Request) -> Response:
        try:
            await run_in_threadpool(holdout.team_of, request)
        except Refused as exc:
            return refusal(exc.status, exc.message, {"WWW-Authenticate": "Bearer"})
        held = await run_in_threadpool(holdout.reload)
        return JSONResponse({"datasets": [{"dataset": h.row.dataset_id, "version": h.row.version, "digest": h.row.digest,
                                           "benchmark": h.row.benchmark, "cases": len(h.cases)} for h in held.values()]})

    async def page(request: Request) -> Response:
        html = await run_in_threadpool(lambda: render_page(holdout.boards(), holdout.settings))
        return HTMLResponse(html, headers={"Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'"})

    return Starlette(routes=[
        Route("/v1/submissions", submissions, methods=["POST"]),
        Route("/v1/datasets", datasets, methods=["GET"]),
        Route("/", page, methods=["GET"]),
    ])
