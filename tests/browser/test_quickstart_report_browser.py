"""The report of the README quickstart's second run, in headless Chromium from file://.

Real plugins, the real table-separators dataset and the reference adapter: what a new user opens
after `bin/demo`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from envirobench import plugins

ENVIROBENCH = str(Path(sys.executable).with_name("envirobench"))
DATASET = "table-separators=envirobench/table-separators-synthetic-v1"


@pytest.fixture(autouse=True)
def _no_installed_plugins():
    """Overrides the directory's fixture: this test uses the installed category plugins."""


@pytest.fixture(scope="module")
def quickstart_runs(tmp_path_factory):
    results = tmp_path_factory.mktemp("quickstart-report") / "results"
    env = {k: v for k, v in os.environ.items() if k != plugins.LOAD_PLUGINS_ENV}
    common = [ENVIROBENCH, "run", "--adapter", "reference", "--model", "reference/projection-profiles",
              "--benchmark", "table-separators", "--dataset", DATASET, "--budget", "0", "--results", str(results)]
    base = subprocess.run([*common, "--run", "ts-baseline", "--adapter-option", "variant=baseline"], capture_output=True, text=True, env=env, timeout=300)
    assert base.returncode == 0, base.stderr
    cand = subprocess.run([*common, "--run", "ts-candidate", "--baseline-run", str(results / "ts-baseline"),
                           "--gate", "logical", "--require-no-regressions"], capture_output=True, text=True, env=env, timeout=300)
    assert cand.returncode == 3, cand.stderr
    return results


def shown(page):
    return page.eval_on_selector_all("#eb-list details.eb-case", "els => els.map(e => e.dataset.case)")


def test_quickstart_report_in_chromium(watched, quickstart_runs):
    run_dir = quickstart_runs / "ts-candidate"
    metrics = json.loads((run_dir / "metrics.json").read_text())
    worse = sorted(metrics["profiles"]["logical"]["regressions"])
    assert worse

    page = watched.open(run_dir / "report.html")
    assert "Gate failed" in page.inner_text("#verdict")
    assert "separator_f1" in page.inner_text("#headline")

    page.select_option("#eb-bucket", "worse")
    assert sorted(shown(page)) == worse
    category = metrics["cases"][worse[0]]["category"]
    page.select_option("#eb-category", category)
    assert sorted(shown(page)) == sorted(c for c in worse if metrics["cases"][c]["category"] == category)

    # The image-overlay viewer draws the answer's and each run's separators over the case image.
    case_id = worse[0]
    page = watched.open(run_dir / "report.html", f"#q={case_id}")
    case = page.locator(f"details.eb-case[data-case={case_id}]")
    case.locator(".eb-overlay").wait_for()
    page.wait_for_function(f"() => document.querySelector('details[data-case={case_id}] .eb-overlay').dataset.loaded === '1'")
    img = case.locator("img.eb-overlay-img")
    assert img.get_attribute("src").startswith("report-assets/")
    assert img.evaluate("i => i.complete && i.naturalWidth > 0")
    answer = json.loads((run_dir / "comparison.json").read_text())
    gold = next(c["answer"] for c in answer["cases"] if c["id"] == case_id)
    drawn = case.locator("g.eb-overlay-layer[data-layer=answer] line[data-axis=row]").count()
    assert drawn == len(gold["rows"])
    assert case.locator("g.eb-overlay-layer[data-layer=candidate] line").count() > 0
    assert case.locator("g.eb-overlay-layer[data-layer=baseline] line").count() > 0

    assert watched.non_file_requests() == []
    assert watched.csp_violations() == []
    assert watched.errors == []
