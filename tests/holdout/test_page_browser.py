"""The public leaderboard page in headless Chromium (Debian's chromium, driven by Playwright): it
shows each team's row (team, system, released score, submissions used, date), makes no request
beyond the page itself, and looks like the report (core's stylesheet)."""

from __future__ import annotations

import pytest
from holdout_kit import submit_run, unscored_run

pytestmark = pytest.mark.browser


def test_the_page_shows_the_row_and_requests_nothing_else(tmp_path, registry, held, service, team_key, browser):
    store, row, public = held
    response = submit_run(service, team_key, unscored_run(tmp_path, registry, public, "page"))
    assert response.status_code == 201
    released = response.json()["released_score"]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page_url = str(service.base_url).rstrip("/") + "/"
    requests: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    context.add_init_script("window.__csp = []; document.addEventListener('securitypolicyviolation',"
                            " (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(page_url)
        cells = page.locator("table.eb-board tbody tr").first.locator("td").all_inner_texts()
        assert cells[0] == "alpha"
        assert cells[1] == "fake-adapter / test/fake"
        assert cells[2] == f"{released:.2f}"
        assert cells[3] == "1"
        assert cells[4] == store.submissions()[0].at[:10]
        # The report's look: core's stylesheet is applied (its table border colour and font).
        border = page.locator("table.eb-board td").first.evaluate("e => getComputedStyle(e).borderTopColor")
        assert border == "rgb(217, 217, 222)"  # report.css: --line #d9d9de
        assert requests == [page_url], requests
        assert page.evaluate("window.__csp") == [] and errors == []
    finally:
        context.close()
