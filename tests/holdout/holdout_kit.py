"""Helpers of the holdout's tests: unscored runs of the sealed public part, submissions, and a
search of response bodies for answer content."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import uvicorn
from scripted_adapters import adapter_executable

from envirobench.runs import RunSpec, execute_run
from envirobench_holdout import keys
from envirobench_holdout.client import submission_of


def unscored_run(tmp_path: Path, registry, public: Path, run_id: str, *, off: dict[str, int] | None = None, sandbox: str = "none") -> Path:
    """A run of the fake count-words adapter on the sealed public part (each case's words counted,
    plus `off` errors)."""
    fake = tmp_path / "bin" / "fake"
    if not fake.exists():
        adapter_executable(fake, "fake_adapter.py")
    options = {"off": ",".join(f"{cid}:{delta}" for cid, delta in (off or {}).items())} if off else {}
    outcome = execute_run(RunSpec(adapter=str(fake), run_id=run_id, model="test/fake", benchmark="count-words", dataset=str(public),
                                  budget_usd=1.0, options=options, results_dir=tmp_path / "results", sandbox=sandbox), registry)
    assert outcome.status == "unscored", outcome
    return outcome.run_dir


def post(client, key: str | None, body: Any, idempotency_key: str = "test-submission-0001", *, raw: bytes | None = None):
    headers = {"Idempotency-Key": idempotency_key, "Content-Type": "application/json"}
    if key is not None:
        headers["Authorization"] = f"Bearer {key}"
    content = raw if raw is not None else json.dumps(body).encode()
    return client.post("/v1/submissions", content=content, headers=headers)


def submit_run(client, key: str, run_dir: Path):
    body, idempotency_key = submission_of(run_dir)
    return post(client, key, body, idempotency_key)


def answer_strings(full_dataset: Path) -> list[str]:
    """Strings only the answer key holds: each answer as JSON, and each count that differs from
    the case's word count (the overrides), with its case ID, as a response might give them."""
    out = []
    cases = {json.loads(line)["id"]: json.loads(line)["input"]["text"] for line in (full_dataset / "cases.jsonl").read_text().splitlines()}
    for line in (full_dataset / "answers.jsonl").read_text().splitlines():
        record = json.loads(line)
        out.append(json.dumps(record["answer"]))
        out.append(json.dumps(record["answer"], separators=(",", ":")))
        count = record["answer"]["count"]
        if count != len(cases[record["id"]].split()):
            out.append(str(count))
    return out


@contextlib.contextmanager
def live_server(app) -> Iterator[str]:
    """The application served by uvicorn on a free loopback port, in a thread; its base URL."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(30)
        sock.close()


def correct_cases(case_ids) -> list[str]:
    """The cases whose answer is the word count (conftest.full_dataset overrides every third)."""
    return [cid for cid in case_ids if int(cid[1:]) % 3 != 0]


def new_key(store, team: str) -> str:
    """A new API key of `team` (made when it does not exist yet)."""
    if team not in {r.body.get("team") for r in store.rows() if r.kind == "team"}:
        store.add_team(team)
    made = keys.make_key()
    store.add_key(team, made.key_id, made.salt, made.hashed)
    return made.secret_key


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(data: Path, db: str | None, port: int, *, quota: int = 1000) -> subprocess.Popen:
    """`envirobench holdout serve` in a process of its own (db None: its default, SQLite in --data)."""
    env = {**os.environ, "ENVIROBENCH_LOAD_PLUGINS": "envirobench-holdout"}
    process = subprocess.Popen([sys.executable, str(Path(__file__).parent / "holdout_cli.py"), "holdout", "serve", "--data", str(data), *(["--db", db] if db else []),
                                "--port", str(port), "--daily-quota", str(quota)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    # Started when it accepts connections (uvicorn listens once the application is made); on a
    # loaded machine that can take a while, so the wait is generous.
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server exited: {process.stderr.read().decode()}")
        with socket.socket() as probe:
            probe.settimeout(2)
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return process
        time.sleep(0.1)
    process.kill()
    raise AssertionError("the server did not start")
