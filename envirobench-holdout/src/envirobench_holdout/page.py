"""The public leaderboard page: server-rendered, one file, no network requests, the report's look.

Core's report stylesheet (envirobench/templates/report.css) is inlined, so the page looks like a
run's report; a Content-Security-Policy (in the page and the response header) forbids every
request. Each held dataset has a table of its current round (team, system, released score,
submissions used, date) and, once a round is closed, that round's private scores. All text is
escaped by jinja2's autoescape.
"""

from __future__ import annotations

from importlib import resources
from typing import TYPE_CHECKING

import jinja2

if TYPE_CHECKING:
    from .service import Holdout

_ENV = jinja2.Environment(loader=jinja2.PackageLoader("envirobench_holdout", "templates"), autoescape=True,
                          undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def report_css() -> str:
    return resources.files("envirobench.templates").joinpath("report.css").read_text(encoding="utf-8")


def render_page(holdout: Holdout) -> str:
    boards = []
    for held in holdout.reload().values():
        round_, current, closed = holdout.store.board(held.row.digest)
        boards.append({"row": held.row, "round": round_, "current": current, "closed": closed,
                       "public": len(held.public_cases), "private": len(held.private_cases)})
    return _ENV.get_template("leaderboard.html.j2").render(css=report_css(), boards=boards, settings=holdout.settings)
