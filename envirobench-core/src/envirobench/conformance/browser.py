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
    """Open report.html, open every case, and say what each case's viewer rendered.

    It runs in a thread of its own: Playwright's sync API refuses to start in a thread where an
    event loop already runs (a test session that uses Playwright itself, say)."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="envirobench-browser") as pool:
        return pool.submit(_render_every_case, report, viewer).result()


def _render_every_case(report: Path, viewer: str) -> Rendered:
    # Imported here: Playwright is optional (a plugin's tests may not have it) and heavy.
    try:
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import sync_playwright
    except ImportError:
        return Rendered(skipped="rendering cases needs Playwright's Python package (pip install playwright) and Chromium")
    executable = chromium_executable()
    page_errors: list[str] = []
    refused: list[str] = []
    with sync_playwright() as pw:
        try:
            browser = pw.chromium.launch(executable_path=executable, args=list(CHROMIUM_ARGS))
        except PlaywrightError as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            return Rendered(skipped=f"headless Chromium could not be started (install Debian's chromium, or run `playwright install chromium`): {first}")
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 900})

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
            context.close()
        finally:
            browser.close()
    return Rendered(cases=cases, page_errors=page_errors, requests=refused)


def _settle(page: Any) -> None:
    """Wait until every case is rendered and every image has loaded or failed, twice in a row."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    settled = 0
    while settled < 2:
        pending = page.evaluate(_PENDING.strip())
        settled = settled + 1 if pending == {"cases": 0, "images": 0} else 0
        if time.monotonic() > deadline:
            raise TimeoutError(f"the report did not finish rendering within {TIMEOUT_MS / 1000:g} s (still pending: {pending})")
        page.wait_for_timeout(50)
