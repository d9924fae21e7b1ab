"""The adapter: one predict function per type that has a prompt file, on the adapter kit.

Each case is one chat-completions call: the system prompt, then one user message holding the
type's prompt, the case's input as JSON and every source file of the case as images (data URLs) or text,
with `response_format` asking for JSON that follows the type's prediction schema. The kit does
the rest (concurrency, retries of `Transient`, validation, the budget, the cache, the result).

The budget's worst case of a call, reserved before it is sent: `max_tokens` output tokens (the
server is told the same limit) and, as input, one token per UTF-8 byte of its text (system and
user prompt, input, labels and the schema: a byte-level tokenizer never makes more tokens than
bytes; text files count by their bytes too) plus a margin per message part, plus `max_image_tokens`
per image. A server that reports
more input tokens than that (an image dearer than `max_image_tokens`) stops the run, as the kit
does for any attempt that spends past its bound. A reply without `usage` is charged its worst case.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, NoReturn

from envirobench_adapter_kit import Adapter, Case, Context
from envirobench_adapter_kit.benchmarks import find_type

from . import __version__
from .client import chat, client
from .options import DEFAULTS, Settings, price_table, read_settings
from .prompts import SYSTEM, prompts, prompts_digest, served_types
from .schema import ResponseSchema, response_schema
from .sources import Image, parts, sizes

NAME = "openai-compatible"
PART_MARGIN_TOKENS = 16  # per message part: roles, separators and the like, generously
REQUEST_MARGIN_TOKENS = 64


class InvalidAnswer(ValueError):
    """The model answered, but with no usable prediction (a refusal, a cut reply, text that is not
    JSON). Not retried: the case is an execution failure, as the protocol wants a prediction that
    cannot be read to be (never scored)."""


@cache
def schema_of(type_id: str, strict: str) -> ResponseSchema:
    btype = find_type(type_id)
    if btype is None:
        raise ValueError(f"the benchmark type {type_id!r} is not installed where this adapter runs")
    return response_schema(type_id, btype.Prediction, strict)


def user_text(type_id: str, case: Case) -> str:
    case_input = json.dumps(case.input, ensure_ascii=False, sort_keys=True, indent=1)
    return f"{prompts()[type_id].text}\n\nThe case's input (JSON):\n{case_input}"


def request_body(type_id: str, case: Case, settings: Settings, model: str) -> dict[str, Any]:
    content: list[dict[str, Any]] = [{"type": "text", "text": user_text(type_id, case)}]
    for part in parts(case.sources, max_pages=settings.max_pages, dpi=settings.dpi):
        if isinstance(part, Image):
            content.append({"type": "text", "text": f"Image: {part.label}"})
            content.append({"type": "image_url", "image_url": {"url": part.data_url, "detail": settings.image_detail}})
        else:
            content.append({"type": "text", "text": f"File {part.label}:\n{part.text}"})
    return {
        "model": settings.model or model,
        "messages": [{"role": "system", "content": prompts()[SYSTEM].text}, {"role": "user", "content": content}],
        "temperature": settings.temperature,
        settings.max_tokens_field: settings.max_tokens,
        "response_format": schema_of(type_id, settings.strict).response_format(),
    }


def input_bound(type_id: str) -> Callable[[Case, Mapping[str, str]], int]:
    """The most input tokens one call for a case of `type_id` may use (see the module's docstring)."""

    def bound(case: Case, options: Mapping[str, str]) -> int:
        settings = read_settings(options)
        sent = sizes(case.sources, settings.max_pages)
        text = prompts()[SYSTEM].text + user_text(type_id, case) + json.dumps(schema_of(type_id, settings.strict).sent)
        # Each part's label: "Image: FILE, page i of n (pages ... are not shown ...)" or "File FILE:".
        labels = (max((len(r.encode()) for r in case.sources), default=0) + 120) * (sent.images + len(case.sources))
        count = 2 + 2 * sent.images + len(case.sources)
        return (len(text.encode("utf-8")) + sent.text_bytes + labels + count * PART_MARGIN_TOKENS + REQUEST_MARGIN_TOKENS
                + sent.images * settings.max_image_tokens)

    return bound


def output_bound(case: Case, options: Mapping[str, str]) -> int:
    return read_settings(options).max_tokens


def predict_for(type_id: str) -> Callable[[Case, Context], Any]:
    def predict(case: Case, ctx: Context) -> Any:
        settings = read_settings(ctx.options)
        body = request_body(type_id, case, settings, ctx.model)
        reply = chat(client(settings.base_url, settings.timeout_s), body, settings.api_key())
        if reply.usage is None:
            ctx.log("the server reported no usage: the call is charged its worst case")
            ctx.usage(input_tokens=input_bound(type_id)(case, ctx.options), output_tokens=settings.max_tokens)
        else:
            ctx.usage(input_tokens=reply.usage.input_tokens, output_tokens=reply.usage.output_tokens)
        if reply.refusal is not None:
            raise InvalidAnswer(f"the model refused: {reply.refusal[:300]}")
        if reply.finish_reason == "content_filter":
            raise InvalidAnswer("the server's content filter stopped the reply")
        if reply.content is None:
            raise InvalidAnswer(f"the reply has no content (finish_reason {reply.finish_reason!r})")
        try:
            value = json.loads(reply.content)
        except json.JSONDecodeError as exc:
            cut = f"; the reply was cut at max_tokens ({settings.max_tokens})" if reply.finish_reason == "length" else ""
            raise InvalidAnswer(f"the reply is not JSON ({exc.msg} at character {exc.pos}){cut}") from None
        return schema_of(type_id, settings.strict).clean(value)

    return predict


def resolve_options(type_id: str, options: Mapping[str, str]) -> Mapping[str, str]:
    """Checks every option before any case starts (a ValueError refuses the request, naming the
    option), and writes the served type's prompt identity to the run's log."""
    settings = read_settings(options)
    schema = schema_of(type_id, settings.strict)
    for name in (SYSTEM, type_id):
        print(f"{NAME}: {prompts()[name].identity()}", file=sys.stderr, flush=True)
    if settings.api_key() is None:
        print(f"{NAME}: ${settings.api_key_env} is not set here (pass it with --adapter-env {settings.api_key_env}); "
              "calling without an Authorization header", file=sys.stderr, flush=True)
    print(f"{NAME}: structured output {'strict' if schema.strict else 'not strict'} ({type_id} prediction schema)", file=sys.stderr, flush=True)
    return options


def make_adapter(*, backoff_s: float = 1.0, max_backoff_s: float = 60.0) -> Adapter:
    """The adapter (`backoff_s`, `max_backoff_s`: the kit's retry delays; a test shortens them)."""
    kit = Adapter(NAME, f"{__version__}+prompts.{prompts_digest()[:12]}", options=DEFAULTS, max_concurrency=4, max_attempts=4,
                  backoff_s=backoff_s, max_backoff_s=max_backoff_s, resolve_options=resolve_options, prices_from_options=price_table)
    for type_id in served_types():
        kit.predict(type_id, max_input_tokens=input_bound(type_id), max_output_tokens=output_bound)(predict_for(type_id))
    return kit


def main() -> NoReturn:
    make_adapter().main()
