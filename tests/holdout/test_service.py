"""The holdout service end to end, on SQLite and on PostgreSQL (`store_url`): a sealed run is made
unscored, submitted and scored with core's code; keys, quotas, idempotency, the Ladder, rounds,
refusals that record nothing, and no response carrying answer content."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from holdout_kit import answer_strings, correct_cases, new_key, post, submit_run, unscored_run

from envirobench.rundir import read_run
from envirobench_holdout.client import submission_of
from envirobench_holdout.judge import component_score
from envirobench_holdout.ledger import verify_rows


def expected_public(held_dataset, predictions) -> float:
    return component_score(held_dataset.btype, held_dataset.cases, held_dataset.answers, held_dataset.public_cases, predictions)


def test_a_sealed_run_is_unscored_and_its_submission_gets_a_released_score(tmp_path, registry, held, service, team_key):
    store, row, public = held
    assert not (public / "answers.jsonl").exists() and (public / "sealed.json").is_file()
    run_dir = unscored_run(tmp_path, registry, public, "sealed-1")
    record = read_run(run_dir)
    assert record.status == "unscored" and record.gate is None and record.dataset.digest == row.digest
    assert not (run_dir / "metrics.json").exists()  # nothing scored locally: there is no answer key
    response = submit_run(service, team_key, run_dir)
    assert response.status_code == 201, response.text
    answer = response.json()
    held_dataset = service.holdout.reload()[row.digest]
    body, _ = submission_of(run_dir)
    measured = expected_public(held_dataset, {cid: held_dataset.btype.Prediction(**p) for cid, p in body["predictions"].items()})
    assert answer["released_score"] == round(measured)  # step 1: rounded to a whole point
    assert answer["round"] == 1 and answer["submissions_used_today"] == 1 and answer["daily_quota"] == 3
    assert set(answer) == {"submission", "dataset", "version", "dataset_digest", "round", "released_score", "ladder_step",
                           "submissions_used_today", "daily_quota", "replayed", "raised"}
    rows = list(store.rows())
    assert verify_rows(rows) == len(rows) and rows[-1].kind == "submission"
    assert rows[-1].body["public_score"] == pytest.approx(measured)


def test_a_retried_upload_is_answered_again_and_never_counted_twice(tmp_path, registry, held, service, team_key):
    run_dir = unscored_run(tmp_path, registry, held[2], "retry")
    first = submit_run(service, team_key, run_dir)
    again = submit_run(service, team_key, run_dir)
    assert first.status_code == 201 and again.status_code == 200
    assert again.json()["submission"] == first.json()["submission"] and again.json()["replayed"] is True
    assert again.json()["submissions_used_today"] == 1
    assert len(held[0].submissions()) == 1
    # The same key with other predictions is a conflict, not a silent replay.
    other = unscored_run(tmp_path, registry, held[2], "retry-other", off={"c000001": 2})
    body, _ = submission_of(other)
    _, used_key = submission_of(run_dir)
    conflict = post(service, team_key, body, used_key)
    assert conflict.status_code == 409 and len(held[0].submissions()) == 1


def test_the_fourth_submission_of_a_day_gets_429_with_retry_after(tmp_path, registry, held, service, team_key):
    for n in range(3):
        response = submit_run(service, team_key, unscored_run(tmp_path, registry, held[2], f"q{n}", off={"c000001": n + 1}))
        assert response.status_code == 201, response.text
    fourth = submit_run(service, team_key, unscored_run(tmp_path, registry, held[2], "q3", off={"c000001": 9}))
    assert fourth.status_code == 429
    assert 0 < int(fourth.headers["retry-after"]) <= 86_401
    assert "quota" in fourth.json()["error"] and "\n" not in fourth.json()["error"]
    assert len(held[0].submissions()) == 3
    # Another key, even of the same team, has its own quota.
    assert submit_run(service, new_key(held[0], "alpha"), unscored_run(tmp_path, registry, held[2], "q4", off={"c000002": 1})).status_code == 201


def test_the_ladder_releases_only_a_gain_of_a_step_and_rounds_it(tmp_path, registry, held, service, team_key, settings):
    store, row, public = held
    held_dataset = service.holdout.reload()[row.digest]
    public_ids = correct_cases(held_dataset.public_cases)
    # Worse first (two public cases wrong), then the plain run (better by two cases of ten = 20 points).
    worse = submit_run(service, team_key, unscored_run(tmp_path, registry, public, "l1", off={public_ids[0]: 5, public_ids[1]: 5}))
    better = submit_run(service, team_key, unscored_run(tmp_path, registry, public, "l2"))
    # A change on a private case only: the public score is unchanged, so the released one is too.
    private_only = submit_run(service, team_key, unscored_run(tmp_path, registry, public, "l3", off={correct_cases(held_dataset.private_cases)[0]: 3}))
    released = [r.json()["released_score"] for r in (worse, better, private_only)]
    subs = store.submissions()
    assert released[1] > released[0] and released[2] == released[1]
    assert [s.released for s in subs] == released
    assert [r.json()["raised"] for r in (worse, better, private_only)] == [True, True, False]
    assert subs[2].private_score < subs[1].private_score  # scored on every submission, never returned
    for response, sub in zip((worse, better, private_only), subs, strict=True):
        assert str(sub.private_score) not in response.text or sub.private_score == sub.released


def test_refusals_are_one_line_and_record_nothing(tmp_path, registry, held, service, team_key, full_dataset):
    store, row, public = held
    run_dir = unscored_run(tmp_path, registry, public, "refused")
    body, _ = submission_of(run_dir)
    before = len(list(store.rows()))
    wrong_dataset = json.loads(json.dumps(body))
    wrong_dataset["run"]["dataset"]["digest"] = "sha256:" + "1" * 64
    short = json.loads(json.dumps(body))
    short["predictions"].pop("c000004")
    extra = json.loads(json.dumps(body))
    extra["predictions"]["c999999"] = {"count": 1}
    invalid = json.loads(json.dumps(body))
    invalid["predictions"]["c000004"] = {"count": "4"}
    unknown_field = {**body, "answers": {}}
    cases = [
        (post(service, team_key, None, raw=b"{not json"), 400, "not JSON"),
        (post(service, team_key, None, raw=b"[" * 100_000 + b"]" * 100_000), 400, "not JSON"),
        (post(service, team_key, {"format": "other"}), 400, "malformed"),
        (post(service, team_key, unknown_field), 400, "unknown field"),
        (post(service, team_key, {**body, "run": {"run_id": "x"}}), 400, "malformed"),
        (post(service, team_key, None, raw=b"[" + b"1," * (1 << 20) + b"1]"), 413, "too large"),
        (post(service, team_key, wrong_dataset), 422, "wrong dataset"),
        (post(service, team_key, short), 422, "wrong length"),
        (post(service, team_key, extra), 422, "wrong length"),
        (post(service, team_key, invalid), 422, "invalid prediction"),
        (post(service, None, body), 401, "API key"),
        (post(service, team_key[:-2] + "xx", body), 401, "not valid"),
        (post(service, team_key, body, idempotency_key="short"), 400, "Idempotency-Key"),
    ]
    for response, status, words in cases:
        assert response.status_code == status, (status, response.text)
        error = response.json()["error"]
        assert words in error and "\n" not in error, error
    assert len(list(store.rows())) == before and store.submissions() == []
    # A scored run (not of the sealed part) is refused too.
    scored = json.loads(json.dumps(body))
    scored["run"]["status"] = "completed"
    assert post(service, team_key, scored).status_code == 422
    assert store.submissions() == []


def test_no_response_carries_answer_content(tmp_path, registry, held, service, team_key, full_dataset):
    store, row, public = held
    responses = []
    for n, off in enumerate([None, {"c000001": 1}, {"c000002": -1}, {"c000005": 4}]):
        responses.append(submit_run(service, team_key, unscored_run(tmp_path, registry, public, f"a{n}", off=off)))
    body, key = submission_of(unscored_run(tmp_path, registry, public, "a-bad"))
    body["predictions"]["c000003"] = {"count": -1.5}
    responses.append(post(service, team_key, body, key))
    responses.append(service.get("/v1/datasets", headers={"Authorization": f"Bearer {team_key}"}))
    responses.append(service.get("/"))
    store.close_round(row.digest)
    responses.append(service.get("/"))
    secrets = answer_strings(full_dataset)
    assert secrets
    for response in responses:
        for secret in secrets:
            assert secret not in response.text, (response.request.url, secret)
        # No per-case result: no case ID appears in an answer (a refusal may name the team's own
        # invalid prediction, which says nothing about the answers).
        if response.status_code < 400:
            assert "c0000" not in response.text


def test_every_api_request_needs_a_key(service):
    assert service.get("/v1/datasets").status_code == 401
    assert service.post("/v1/submissions", content=b"{}").status_code == 401
    assert service.get("/").status_code == 200  # the public page


def test_keys_are_stored_only_as_salted_hashes(held, team_key, store_url):
    secret = team_key.split("_", 2)[2]
    store = held[0]
    import sqlalchemy as sa

    from envirobench_holdout.store import api_keys

    with store.engine.connect() as conn:
        rows = conn.execute(sa.select(api_keys)).all()
    assert rows and all(secret.encode() not in bytes(r.hashed) and secret.encode() not in bytes(r.salt) for r in rows)
    if store_url.startswith("sqlite"):
        path = store_url.removeprefix("sqlite:///")
        with sqlite3.connect(path) as conn:
            conn.execute("PRAGMA wal_checkpoint(FULL)")
        data = Path(path).read_bytes()
        assert secret.encode() not in data and team_key.encode() not in data
    assert all(team_key not in json.dumps(r.body) for r in store.rows())


def test_closing_a_round_reveals_private_scores_and_starts_the_next(tmp_path, registry, held, service, team_key):
    store, row, public = held
    assert submit_run(service, team_key, unscored_run(tmp_path, registry, public, "r1")).status_code == 201
    page = service.get("/").text
    assert "alpha" in page and "private scores" not in page
    _, round_, revealed = store.close_round(row.digest)
    assert round_ == 1 and [r["team"] for r in revealed] == ["alpha"]
    assert revealed[0]["private_score"] == store.submissions()[0].private_score
    page = service.get("/").text
    assert "Round 1, closed: private scores" in page and f"{revealed[0]['private_score']:.2f}" in page
    again = submit_run(service, team_key, unscored_run(tmp_path, registry, public, "r2", off={"c000001": 1}))
    assert again.json()["round"] == 2
    assert verify_rows(list(store.rows())) == len(list(store.rows()))
