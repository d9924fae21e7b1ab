"""Render every case of a report.html in headless Chromium, as a reader would open them.

Uses Playwright's Python package with Chromium: $ENVIROBENCH_CHROMIUM, else `chromium` on PATH
(Debian's package), else Playwright's own download. Without them the check is skipped with the
reason. Every request the page makes is routed: file: URLs load, anything else is aborted and
recorded.
"""

from __future__ import annotations

import concurrent.futures
import os
import shutil
import time
from pathlib import Path
from typing import Any

import attrs

CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
TIMEOUT_MS = 60_000

# Images report their failure through a capturing listener (error events do not bubble).
_WATCH_IMAGES = """
() => document.addEventListener('error', (event) => {
  if (event.target instanceof HTMLImageElement) event.target.dataset.ebFailed = '1';
}, true)
"""
_OPEN_ALL = "() => { for (const d of document.querySelectorAll('#eb-list details.eb-case')) d.open = true; }"
# How far rendering has got: cases whose viewer is not there yet (a case opened while the page
# still loads waits for DOMContentLoaded), images neither decoded nor failed. A viewer may make
# its images loading="lazy" (a long page strip); one far from the viewport would never load, and
# every image is to be checked, so each poll turns lazy images eager (which starts their load).
_PENDING = """
() => {
  for (const img of document.images) if (img.loading === 'lazy') img.loading = 'eager';
  return {
    cases: Array.from(document.querySelectorAll('#eb-list details.eb-case'))
      .filter((d) => d.dataset.rendered !== '1' || !d.querySelector('.eb-viewer')).length,
    images: Array.from(document.images).filter((img) => img.dataset.ebFailed !== '1' && !(img.complete && img.naturalWidth > 0)).length,
  };
}
"""
# For each case of the list: its viewer's element, warnings the report wrote, images that failed.
_COLLECT = """
(viewer) => Array.from(document.querySelectorAll('#eb-list details.eb-case')).map((details) => {
  const box = details.querySelector('.eb-viewer[data-viewer="' + viewer + '"]');
  return {
    id: details.dataset.case,
    viewer: !!box && box.childElementCount > 0,
    warnings: Array.from(details.querySelectorAll('.eb-warning')).map((w) => w.textContent),
    broken_images: Array.from(details.querySelectorAll('img'))
      .filter((img) => img.dataset.ebFailed === '1' || img.naturalWidth === 0)
      .map((img) => img.getAttribute('src')),
  };
})
"""


@attrs.frozen
class Rendered:
    cases: list[dict[str, Any]] = attrs.field(factory=list)
    page_errors: list[str] = attrs.field(factory=list)
    requests: list[str] = attrs.field(factory=list)
    skipped: str | None = None


def chromium_executable() -> str | None:
    for candidate in (os.environ.get("ENVIROBENCH_CHROMIUM"), shutil.which("chromium"), "/usr/bin/chromium"):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


def render_every_case(report: Path, viewer: str) -> Rendered:
    """Open report.html, open every case, and say what each case's viewer rendered (in a browser
    started for this report alone; `Browser` keeps one for many reports)."""
    with Browser() as browser:
        return browser.render_every_case(report, viewer)


class Browser:
    """Headless Chromium, started on first use and kept until `close()`: each report is opened in
    a browser context of its own (its own cookies, cache, storage and routes), as in a freshly
    started browser, without starting Playwright and Chromium again for every report.

    Playwright runs in a thread of its own: its sync API refuses to start in a thread where an
    event loop already runs (a test session that uses Playwright itself, say), and its objects
    must be used from the thread that made them."""

    def __init__(self) -> None:
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="envirobench-browser")
        self._playwright: Any = None
        self._browser: Any = None
        self._executable: str | None = None
        self._closed = False

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def render_every_case(self, report: Path, viewer: str) -> Rendered:
        """Open report.html, open every case, and say what each case's viewer rendered."""
        if self._closed:
            raise RuntimeError("the browser is closed")
        return self._pool.submit(self._render_every_case, report, viewer).result()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self._pool.submit(self._stop).result()
        finally:
            self._pool.shutdown()

    # -- in the browser's thread -------------------------------------------------------------------

    def _stop(self) -> None:
        try:
            if self._browser is not None:
                self._browser.close()
        finally:
            self._browser = None
            if self._playwright is not None:
                self._playwright.stop()
                self._playwright = None

    def _launch(self, sync_playwright: Any, PlaywrightError: type[Exception]) -> str | None:  # noqa: N803 (Playwright's names)
        """Chromium running (started again if it died or the executable changed), or why not."""
        executable = chromium_executable()
        if self._browser is not None and self._executable == executable and self._browser.is_connected():
            return None
        self._stop()
        self._playwright = sync_playwright().start()
        try:
            self._browser = self._playwright.chromium.launch(executable_path=executable, args=list(CHROMIUM_ARGS))
        except PlaywrightError as exc:
            self._stop()
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            return f"headless Chromium could not be started (install Debian's chromium, or run `playwright install chromium`): {first}"
        self._executable = executable
        return None

    def _render_every_case(self, report: Path, viewer: str) -> Rendered:
        # Imported here: Playwright is optional (a plugin's tests may not have it) and heavy.
        try:
            from playwright.sync_api import Error as PlaywrightError
            from playwright.sync_api import sync_playwright
        except ImportError:
            return Rendered(skipped="rendering cases needs Playwright's Python package (pip install playwright) and Chromium")
        problem = self._launch(sync_playwright, PlaywrightError)
        if problem:
            return Rendered(skipped=problem)
        page_errors: list[str] = []
        refused: list[str] = []
        context = self._browser.new_context(viewport={"width": 1280, "height": 900})
        try:

            def refuse(request_route):
                refused.append(request_route.request.url)
                request_route.abort()

            # file: URLs load directly (routing them through Python makes image loads flaky);
            # every other request is aborted and recorded.
            context.route(lambda url: not url.startswith("file:"), refuse)
            page = context.new_page()
            page.on("pageerror", lambda exc: page_errors.append(str(exc)))
            page.goto(report.resolve().as_uri())
            page.wait_for_function("() => document.body.dataset.ready === '1' && document.readyState === 'complete'", timeout=TIMEOUT_MS)
            more = page.locator("#eb-more")
            while more.count() and more.is_visible():
                more.click()
            page.evaluate(_WATCH_IMAGES.strip())
            page.evaluate(_OPEN_ALL)
            _settle(page)
            cases = page.evaluate(_COLLECT.strip(), viewer)
        finally:
            context.close()
        return Rendered(cases=cases, page_errors=page_errors, requests=refused)


def _settle(page: Any) -> None:
    """Wait until every case is rendered and every image has loaded or failed, twice in a row.

    A report that stops making progress fails: nothing more rendered or loaded for TIMEOUT_MS. One
    that is slow but moving does not (a large report on a busy machine: page-locate's test split
    is ~20,000 thumbnails, which took 38 s on a quiet two-core machine and more than 60 at load 4)."""
    last_progress = time.monotonic()
    fewest = None
    settled = 0
    while settled < 2:
        pending = page.evaluate(_PENDING.strip())
        settled = settled + 1 if pending == {"cases": 0, "images": 0} else 0
        left = pending["cases"] + pending["images"]
        if fewest is None or left < fewest:
            fewest, last_progress = left, time.monotonic()
        elif time.monotonic() - last_progress > TIMEOUT_MS / 1000:
            raise TimeoutError(f"the report stopped rendering: nothing more rendered or loaded in {TIMEOUT_MS / 1000:g} s "
                               f"(still pending: {pending})")
        page.wait_for_timeout(50)
