"""The jinja2 environment of core's own templates (`templates/`: report.html, summary.md and the
leaderboard page): strict about undefined names, escaping HTML and leaving Markdown as written."""

from __future__ import annotations

from typing import Any

import jinja2


def fmt(value: Any) -> str:
    """A number as the pages show it: four decimals for a float, n/a for nothing."""
    return "n/a" if value is None else (f"{value:.4f}" if isinstance(value, float) else str(value))


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
    )
    env.filters["fmt"] = fmt
    return env
