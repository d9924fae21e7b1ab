"""A loopback OpenAI-compatible server for the adapter's tests: `http.server` in a thread on
127.0.0.1, answering `POST /v1/chat/completions` in the API's documented format (a
`chat.completion` object with `choices[0].message` and `usage`, or an error object) with the
responses a test scripts, and recording every request it received.

A response is made by one of the functions below (`right`, `malformed`, `refused`, `rate_limited`,
`slow`, `server_error`, `no_usage`); the server takes them in order from the test's script, the
last one standing for every later request.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Answer:
    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    usage: tuple[int, int] | None = None  # the tokens this answer reports, as the test will count them


def completion(content: str | None, *, usage: tuple[int, int] | None = (1000, 50), refusal: str | None = None,
               finish_reason: str = "stop") -> dict[str, Any]:
    """A chat.completion object as the API documents it."""
    document: dict[str, Any] = {
        "id": "chatcmpl-loopback",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": "loopback-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content, "refusal": refusal}, "logprobs": None,
                     "finish_reason": finish_reason}],
    }
    if usage is not None:
        document["usage"] = {"prompt_tokens": usage[0], "completion_tokens": usage[1], "total_tokens": sum(usage)}
    return document


def right(prediction: Any, usage: tuple[int, int] = (1000, 50)) -> Answer:
    return Answer(200, completion(json.dumps(prediction), usage=usage), usage=usage)


def malformed(usage: tuple[int, int] = (1000, 50)) -> Answer:
    return Answer(200, completion('{"rows": [12, 30], "columns": [', usage=usage), usage=usage)


def refused(usage: tuple[int, int] = (1000, 10)) -> Answer:
    return Answer(200, completion(None, usage=usage, refusal="I'm sorry, I can't help with that."), usage=usage)


def no_usage(prediction: Any) -> Answer:
    return Answer(200, completion(json.dumps(prediction), usage=None))


def error(status: int, message: str, headers: dict[str, str] | None = None) -> Answer:
    return Answer(status, {"error": {"message": message, "type": "loopback_error", "param": None, "code": None}}, headers or {})


def rate_limited(retry_after_s: int = 1) -> Answer:
    return error(429, "Rate limit reached for requests", {"Retry-After": str(retry_after_s)})


def server_error() -> Answer:
    return error(500, "The server had an error while processing your request.")


def slow(answer: Answer, delay_s: float) -> Answer:
    return Answer(answer.status, answer.body, answer.headers, delay_s, answer.usage)


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: Any
    at: float  # time.monotonic() when it arrived
    answer: Answer


class Loopback:
    """The server: `url` is its API root (`http://127.0.0.1:PORT/v1`), `received` its requests."""

    def __init__(self, script: list[Answer] | Callable[[dict[str, Any]], Answer]) -> None:
        self.script = script
        self.received: list[Received] = []
        self.lock = threading.Lock()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"null")
                answer = owner._next(body)
                with owner.lock:
                    owner.received.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body, time.monotonic(), answer))
                if answer.delay_s:
                    time.sleep(answer.delay_s)
                data = json.dumps(answer.body).encode()
                try:
                    self.send_response(answer.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in answer.headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (its timeout)
                    pass

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def _next(self, body: dict[str, Any]) -> Answer:
        if callable(self.script):
            return self.script(body)
        with self.lock:
            return self.script.pop(0) if len(self.script) > 1 else self.script[0]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> Loopback:
        self.thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)
