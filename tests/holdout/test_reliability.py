"""Reliability on loopback, on SQLite and on PostgreSQL: a bounded load of concurrent submissions
from many keys (none lost, none counted twice, every quota exact) and kill -9 of the server while
submissions arrive (after a restart the ledger verifies and every acknowledged submission is there).
"""

from __future__ import annotations

import concurrent.futures
import copy
import json
import signal
import time
from collections import Counter

import httpx
from holdout_kit import free_port, live_server, new_key, start_server, unscored_run

from envirobench_holdout.client import submission_of
from envirobench_holdout.ledger import verify_rows
from envirobench_holdout.service import Holdout, Settings, make_app
from envirobench_holdout.store import open_store

KEYS, PER_KEY, QUOTA = 20, 10, 3  # 200 submissions: 6 distinct and 2 retries each of the first two from each key
CONCURRENT = KEYS * PER_KEY  # all of them in flight at once, each on a connection of its own


def variants(body: dict, n: int) -> list[dict]:
    """n submissions of the run with different predictions (one case's count moved by 1..n)."""
    out = []
    for i in range(n):
        made = copy.deepcopy(body)
        made["predictions"]["c000001"]["count"] += i + 1
        out.append(made)
    return out


def send(client: httpx.Client, key: str, body: dict, idempotency_key: str) -> tuple[int, dict]:
    response = client.post("/v1/submissions", content=json.dumps(body).encode(),
                           headers={"Authorization": f"Bearer {key}", "Idempotency-Key": idempotency_key})
    return response.status_code, response.json()


def client_of(url: str, connections: int = 40) -> httpx.Client:
    """One client for all the test's threads (httpx.Client is thread-safe): its connections are reused."""
    return httpx.Client(base_url=url, timeout=120, limits=httpx.Limits(max_connections=connections))


def test_a_concurrent_load_loses_nothing_counts_nothing_twice_and_keeps_every_quota(tmp_path, registry, held):
    store, row, public = held
    body, _ = submission_of(unscored_run(tmp_path, registry, public, "load"))
    keys = [new_key(store, f"team-{i // 2}") for i in range(KEYS)]
    jobs = []
    for k, key in enumerate(keys):
        distinct = [(key, b, f"load-{k}-{i:02d}") for i, b in enumerate(variants(body, PER_KEY - 4))]
        jobs += distinct + [distinct[0], distinct[0], distinct[1], distinct[1]]  # two retries each of the first two uploads
    holdout = Holdout(store, registry, Settings(daily_quota=QUOTA, ladder_step=1.0))
    with live_server(make_app(holdout)) as url, client_of(url, CONCURRENT) as client, concurrent.futures.ThreadPoolExecutor(max_workers=CONCURRENT) as pool:
        results = list(pool.map(lambda job: (job[0], job[2], *send(client, *job)), jobs))
    assert len(results) == KEYS * PER_KEY
    statuses = Counter(status for _, _, status, _ in results)
    assert set(statuses) <= {200, 201, 429}, statuses
    made = {(key, idem): answer["submission"] for key, idem, status, answer in results if status == 201}
    stored = store.submissions()
    # Quotas exact: every key got exactly QUOTA submissions recorded, no more, no fewer.
    by_key = Counter(s.key_id for s in stored)
    assert sorted(by_key.values()) == [QUOTA] * KEYS
    # None lost: every 201 is stored under its idempotency key; none counted twice.
    assert len(made) == len(stored) == KEYS * QUOTA
    assert {s.seq for s in stored} == set(made.values())
    assert len({(s.key_id, s.idempotency_key) for s in stored}) == len(stored)
    # A replay (200) names the submission first made under its key.
    for key, idem, status, answer in results:
        if status == 200:
            assert answer["replayed"] and made[(key, idem)] == answer["submission"]
    rows = list(store.rows())
    assert verify_rows(rows) == len(rows)


def test_kill_9_during_submissions_loses_no_acknowledged_one(tmp_path, registry, held, store_url):
    store, row, public = held
    body, _ = submission_of(unscored_run(tmp_path, registry, public, "crash"))
    key = new_key(store, "crash-team")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = start_server(tmp_path / "service", store_url, port)
    acknowledged: dict[str, int] = {}
    bodies = variants(body, 60)
    client = client_of(url)

    def one(i: int) -> None:
        try:
            status, answer = send(client, key, bodies[i], f"crash-{i:03d}")
        except httpx.TransportError:
            return  # the server died under it: not acknowledged
        if status == 201:
            acknowledged[f"crash-{i:03d}"] = answer["submission"]

    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
            futures = [pool.submit(one, i) for i in range(len(bodies))]
            while len(acknowledged) < 10 and not all(f.done() for f in futures):
                time.sleep(0.01)
            server.send_signal(signal.SIGKILL)  # mid-stream: some uploads are under way
            server.wait(30)
            concurrent.futures.wait(futures)
    finally:
        client.close()
        if server.poll() is None:
            server.kill()
    assert 10 <= len(acknowledged) < len(bodies), len(acknowledged)
    server = start_server(tmp_path / "service", store_url, port)
    client = client_of(url)
    try:
        reopened = open_store(store_url)
        rows = list(reopened.rows())
        assert verify_rows(rows) == len(rows)
        stored = {s.idempotency_key: s.seq for s in reopened.submissions()}
        for idem, seq in acknowledged.items():
            assert stored.get(idem) == seq, idem
        # Sent again, every upload is a replay of what was stored or a new submission: never twice.
        for i in range(len(bodies)):
            status, answer = send(client, key, bodies[i], f"crash-{i:03d}")
            assert status in (200, 201)
            if f"crash-{i:03d}" in stored:
                assert status == 200 and answer["submission"] == stored[f"crash-{i:03d}"]
        final = reopened.submissions()
        assert len(final) == len(bodies) == len({s.idempotency_key for s in final})
        assert verify_rows(list(reopened.rows())) == len(list(reopened.rows()))
    finally:
        client.close()
        server.kill()
        server.wait(30)


