"""The public leaderboard page: server-rendered, one file, no network requests, the report's look.

Core's report stylesheet (envirobench/templates/report.css) is inlined, so the page looks like a
run's report; a Content-Security-Policy (in the page and the response header) forbids every
request. Each held dataset has a table of its current round (team, system, released score,
submissions used, date) and, once a round is closed, that round's private scores. All text is
escaped by jinja2's autoescape.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from typing import Any

import jinja2

_ENV = jinja2.Environment(loader=jinja2.PackageLoader("envirobench_holdout", "templates"), autoescape=True,
                          undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def report_css() -> str:
    return resources.files("envirobench.templates").joinpath("report.css").read_text(encoding="utf-8")


def render_page(boards: Sequence[dict[str, Any]], settings: Any) -> str:
    """The page of every held dataset's board (service.Holdout.boards gives them)."""
    return _ENV.get_template("leaderboard.html.j2").render(css=report_css(), boards=boards, settings=settings)
