"""The adapter's options (`--adapter-option NAME=VALUE`), their defaults and their checks.

Every option is recorded in run.json, so none holds a secret: the API key is read from the
environment variable `api_key_env` names (passed with `--adapter-env`), and a `base_url` with a
user name or password in it is refused.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

DEFAULTS: dict[str, str] = {
    "base_url": "",  # required: https://api.openai.com/v1, http://127.0.0.1:8000/v1 (vLLM), ...
    "model": "",  # the model name the server knows; default: the run's --model
    "api_key_env": "OPENAI_API_KEY",  # where the key is; unset or empty: no Authorization header
    "prices": "",  # inline price table: {"MODEL": {"input_per_mtok": x, "output_per_mtok": y}}
    "price_table": "",  # the same in a JSON file (in the sandbox: show it with --sandbox-allow)
    "max_tokens": "4096",  # the reply's limit, sent to the server and reserved from the budget
    "max_tokens_field": "max_tokens",  # or max_completion_tokens (OpenAI's reasoning models)
    "max_image_tokens": "6000",  # what one image may cost in input tokens at most (reserved)
    "max_pages": "20",  # pages of each PDF sent as images; the prompt says how many were left out
    "dpi": "100",  # PDF pages are rendered at this resolution
    "image_detail": "high",  # OpenAI's image_url.detail: low, high or auto
    "temperature": "0",
    "timeout_s": "120",  # one HTTP call; a timeout is retried
    "strict": "auto",  # json_schema strict: auto (when the schema allows it), true or false
}


@dataclass(frozen=True)
class Settings:
    base_url: str
    model: str | None
    api_key_env: str
    max_tokens: int
    max_tokens_field: str
    max_image_tokens: int
    max_pages: int
    dpi: int
    image_detail: str
    temperature: float
    timeout_s: float
    strict: str

    def api_key(self) -> str | None:
        return os.environ.get(self.api_key_env) or None


def _integer(options: Mapping[str, str], name: str, low: int, high: int) -> int:
    text = options[name].strip()
    if not text.isdigit() or not low <= int(text) <= high:
        raise ValueError(f"$.options.{name}: must be a whole number from {low} to {high}, not {options[name]!r}")
    return int(text)


def _number(options: Mapping[str, str], name: str, low: float, high: float) -> float:
    try:
        value = float(options[name])
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and low <= value <= high):
        raise ValueError(f"$.options.{name}: must be a number from {low:g} to {high:g}, not {options[name]!r}")
    return value


def _choice(options: Mapping[str, str], name: str, allowed: tuple[str, ...]) -> str:
    if options[name] not in allowed:
        raise ValueError(f"$.options.{name}: must be one of {', '.join(allowed)}, not {options[name]!r}")
    return options[name]


def check_base_url(text: str) -> str:
    if not text:
        raise ValueError("$.options.base_url: give the server's API root, e.g. --adapter-option base_url=http://127.0.0.1:8000/v1")
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"$.options.base_url: must be an http:// or https:// URL, not {text!r}")
    if parts.username is not None or parts.password is not None:
        raise ValueError("$.options.base_url: must not hold a user name or password (options are recorded in run.json); "
                         "put the key in an environment variable and pass it with --adapter-env")
    if parts.query or parts.fragment:
        raise ValueError("$.options.base_url: must have no query or fragment (options are recorded in run.json)")
    return text.rstrip("/")


def read_settings(options: Mapping[str, str]) -> Settings:
    """The options checked and typed; a ValueError names the option ($.options.NAME)."""
    name = options["api_key_env"]
    if not name or not (name[0].isalpha() or name[0] == "_") or not all(c.isalnum() or c == "_" for c in name):
        raise ValueError(f"$.options.api_key_env: must name an environment variable, not {name!r}")
    return Settings(
        base_url=check_base_url(options["base_url"]),
        model=options["model"] or None,
        api_key_env=name,
        max_tokens=_integer(options, "max_tokens", 1, 1_000_000),
        max_tokens_field=_choice(options, "max_tokens_field", ("max_tokens", "max_completion_tokens")),
        max_image_tokens=_integer(options, "max_image_tokens", 1, 1_000_000),
        max_pages=_integer(options, "max_pages", 1, 10_000),
        dpi=_integer(options, "dpi", 20, 600),
        image_detail=_choice(options, "image_detail", ("low", "high", "auto")),
        temperature=_number(options, "temperature", 0.0, 2.0),
        timeout_s=_number(options, "timeout_s", 0.001, 3600.0),
        strict=_choice(options, "strict", ("auto", "true", "false")),
    )


def price_table(options: Mapping[str, str]) -> dict[str, Any]:
    """The prices the options give (`prices` inline, `price_table` a file; at most one of them),
    as the kit's `prices_from_options` wants them; the kit checks each entry."""
    inline, path = options["prices"], options["price_table"]
    if inline and path:
        raise ValueError("give the prices inline (prices=...) or in a file (price_table=...), not both")
    if inline:
        where, text = "$.options.prices", inline
    elif path:
        where = f"$.options.price_table: {path}"
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(f"{where}: cannot be read ({exc.__class__.__name__}: {exc}); in the sandbox, show it with --sandbox-allow") from None
    else:
        return {}
    try:
        table = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{where}: not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    if not isinstance(table, dict):
        raise ValueError(f'{where}: must be an object, {{"MODEL": {{"input_per_mtok": x, "output_per_mtok": y}}}}')
    return table
