"""The jinja2 environment of core's own templates (`templates/`: report.html, summary.md and the
leaderboard page): strict about undefined names, escaping HTML and leaving Markdown as written."""

from __future__ import annotations

import contextlib
from typing import Any

import jinja2
import jinja2.bccache


def fmt(value: Any) -> str:
    """A number as the pages show it: four decimals for a float, n/a for nothing."""
    return "n/a" if value is None else (f"{value:.4f}" if isinstance(value, float) else str(value))


class _BytecodeCache(jinja2.FileSystemBytecodeCache):
    """Compiled templates kept between commands: compiling report.html.j2 and summary.md.j2 costs
    about 0.4 s of CPU in every run (docs/performance.md, "Start-up"). jinja2's own per-user
    directory in the temporary directory (mode 0700, refused if anyone else owns it), each entry
    keyed by the template's name and file and checked against its source, so an edited template
    is compiled again. A cache that cannot be written is no error: the template is compiled."""

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        with contextlib.suppress(OSError):
            super().dump_bytecode(bucket)


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    try:
        return _BytecodeCache()
    except (RuntimeError, OSError):  # no safe directory: compile every time
        return None


def environment(*, html: bool) -> jinja2.Environment:
    """HTML templates are autoescaped; Markdown ones are not (their callers escape what they insert)
    and keep their trailing newline."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("envirobench", "templates"),
        autoescape=html,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=not html,
        trim_blocks=True,
        lstrip_blocks=True,
        bytecode_cache=_bytecode_cache(),
    )
    env.filters["fmt"] = fmt
    return env
