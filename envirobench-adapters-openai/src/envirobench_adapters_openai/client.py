"""One chat-completions call (`POST {base_url}/chat/completions`) through httpx, and what its
answer means for the kit.

- 200 with a message: its usage is returned with its content, its refusal, or why it has none.
- 408, 409, 429 and 5xx, a timeout, a dropped or refused connection: `Transient` (the kit
  retries with backoff, waiting at least what `Retry-After` asks).
- Any other status (400, 401, 403, 404, ...) or a 200 that is not a chat completion: `CallFailed`,
  not retried: the case is an execution failure with the server's message.

The API key never leaves the Authorization header: it is in no message, log line or file, and
is cut out of any text the server sends back before that text is repeated.
"""

from __future__ import annotations

import email.utils
import json
import threading
import time
from dataclasses import dataclass
from typing import Any

import httpx

from envirobench_adapter_kit import Transient

RETRIED_STATUS = frozenset({408, 409, 429})
MAX_ERROR_TEXT = 300
_clients: dict[tuple[str, float], httpx.Client] = {}
_clients_lock = threading.Lock()


class CallFailed(RuntimeError):
    """A call that retrying will not mend (the server refused the request, or answered in another format)."""


@dataclass(frozen=True)
class Usage:
    input_tokens: int
    output_tokens: int


@dataclass(frozen=True)
class Reply:
    usage: Usage | None  # None: the server reported none
    content: str | None
    refusal: str | None
    finish_reason: str | None


def client(base_url: str, timeout_s: float) -> httpx.Client:
    """One connection pool per server and timeout for the process (httpx.Client is thread-safe)."""
    key = (base_url, timeout_s)
    with _clients_lock:
        if key not in _clients:
            _clients[key] = httpx.Client(base_url=base_url, timeout=httpx.Timeout(timeout_s), follow_redirects=False)
        return _clients[key]


def retry_after(value: str | None) -> float | None:
    """Retry-After in seconds: a number of seconds or an HTTP date."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _scrub(text: str, secret: str | None) -> str:
    text = text if not secret else text.replace(secret, "[key]")
    return text if len(text) <= MAX_ERROR_TEXT else text[: MAX_ERROR_TEXT - 3] + "..."


def _error_text(response: httpx.Response, secret: str | None) -> str:
    try:
        body = response.json()
        message = body.get("error", {}).get("message") if isinstance(body, dict) and isinstance(body.get("error"), dict) else None
        text = message if isinstance(message, str) else response.text
    except (ValueError, UnicodeDecodeError):
        text = response.text
    return _scrub(" ".join(text.split()), secret)


def chat(http: httpx.Client, body: dict[str, Any], api_key: str | None) -> Reply:
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    try:
        response = http.post("chat/completions", json=body, headers=headers)
    except httpx.TimeoutException as exc:
        raise Transient(f"the server did not answer in time ({type(exc).__name__})") from None
    except httpx.TransportError as exc:
        raise Transient(f"could not reach the server ({type(exc).__name__}: {_scrub(str(exc), api_key)})") from None
    status = response.status_code
    if status in RETRIED_STATUS or status >= 500:
        raise Transient(f"HTTP {status}: {_error_text(response, api_key)}", retry_after=retry_after(response.headers.get("retry-after")))
    if status != 200:
        hint = " (is the key in the variable api_key_env names, passed with --adapter-env?)" if status in (401, 403) else ""
        raise CallFailed(f"HTTP {status}{hint}: {_error_text(response, api_key)}")
    return parse_completion(response.content, api_key)


def parse_completion(content: bytes, api_key: str | None = None) -> Reply:
    try:
        document = json.loads(content)
        choice = document["choices"][0]
        message = choice["message"]
        if not isinstance(message, dict):
            raise TypeError("message is not an object")
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise CallFailed(f"the server's answer is not a chat completion ({type(exc).__name__}: {_scrub(str(exc), api_key)})") from None
    usage = document.get("usage")
    tokens = None
    if isinstance(usage, dict):
        given = usage.get("prompt_tokens"), usage.get("completion_tokens")
        if all(isinstance(t, int) and not isinstance(t, bool) and t >= 0 for t in given):
            tokens = Usage(*given)
    text, refusal, reason = message.get("content"), message.get("refusal"), choice.get("finish_reason")
    return Reply(tokens, text if isinstance(text, str) else None, refusal if isinstance(refusal, str) and refusal else None,
                 reason if isinstance(reason, str) else None)
