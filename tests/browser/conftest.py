"""The report's browser tests: Debian's `chromium` driven by Playwright.

bin/test installs chromium when it is missing, so in CI these tests run; they skip, saying
why, only where /usr/bin/chromium is absent.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from toy_fixtures import no_installed_plugins  # noqa: F401 (a fixture of this folder)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))  # reportkit
# The session's headless Chromium, `browser`, is tests/conftest.py's (shared with Locate's page strip).


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.browser)


class Watched:
    """A page whose every request is routed: file: requests go through, anything else is
    aborted and recorded. Page errors and Content-Security-Policy violations are recorded too."""

    def __init__(self, browser):
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.requests: list[str] = []
        self.refused: list[str] = []
        self.errors: list[str] = []
        self.context.route("**/*", self._route)
        self.context.on("request", lambda request: self.requests.append(request.url))
        self.context.add_init_script(
            "window.__csp = []; document.addEventListener('securitypolicyviolation',"
            " (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));"
        )
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    def _route(self, route):
        url = route.request.url
        if url.startswith("file:"):
            route.continue_()
        else:
            self.refused.append(url)
            route.abort()

    def open(self, path: Path, fragment: str = ""):
        self.page.goto(path.resolve().as_uri() + fragment)
        self.page.wait_for_function("() => document.body.dataset.ready === '1'", timeout=10000)
        return self.page

    def non_file_requests(self) -> list[str]:
        return self.refused + [u for u in self.requests if not u.startswith("file:")]

    def csp_violations(self) -> list[str]:
        return self.page.evaluate("window.__csp")

    def close(self):
        self.context.close()


@pytest.fixture
def watched(browser):
    w = Watched(browser)
    yield w
    w.close()
