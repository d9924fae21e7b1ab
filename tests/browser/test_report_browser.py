"""report.html in headless Chromium, opened from file:// with every request routed."""

from __future__ import annotations

import json

import pytest
import reportkit
from click.testing import CliRunner

from envirobench import plugins
from envirobench.cli import main


@pytest.fixture(scope="module")
def separator_runs(tmp_path_factory):
    """One paired run (baseline, control, candidate) shared by the read-only tests below."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(plugins.LOAD_PLUGINS_ENV, "")
        return reportkit.make_separator_runs(tmp_path_factory.mktemp("separators"))


def visible_case_ids(page):
    return page.eval_on_selector_all("#eb-list details.eb-case", "els => els.map(e => e.dataset.case)")


def test_watcher_catches_a_network_request(watched):
    # The no-network assertions below are only worth something if a request would be seen.
    watched.page.goto("about:blank")
    watched.page.evaluate("fetch('http://127.0.0.1:9/probe').catch(() => null)")
    watched.page.wait_for_timeout(200)
    assert any("127.0.0.1:9/probe" in url for url in watched.non_file_requests())


def test_report_opens_from_file_filters_and_makes_no_network_request(watched, separator_runs):
    report = separator_runs["cand"] / "report.html"
    page = watched.open(report)

    verdict = page.inner_text("#verdict")
    assert "Gate failed" in verdict and "2 case(s) got worse than the baseline run base" in verdict
    assert "separator_f1" in page.inner_text("#headline")
    assert "8 case(s) scored of 8 requested" in page.inner_text("#coverage")
    assert page.locator("#chart figure[data-profile=logical] svg rect").count() > 0
    assert len(visible_case_ids(page)) == 8
    # Grouped by bucket in the fixed order, then by category.
    groups = page.eval_on_selector_all("#eb-list h3.eb-group", "els => els.map(e => e.dataset.bucket)")
    assert groups == ["worse", "better", "noisy", "remaining", "unchanged-correct"]

    page.select_option("#eb-bucket", "worse")
    assert sorted(visible_case_ids(page)) == ["t000", "t002"]
    assert "bucket=worse" in page.evaluate("location.hash")
    page.select_option("#eb-category", "ruled")
    assert visible_case_ids(page) == ["t000"]
    page.select_option("#eb-bucket", "")
    assert sorted(visible_case_ids(page)) == ["t000", "t003", "t006"]
    page.select_option("#eb-category", "")
    page.fill("#eb-search", "T00")
    page.wait_for_function("() => document.querySelectorAll('#eb-list details.eb-case').length === 8")
    page.fill("#eb-search", "t004")
    page.wait_for_function("() => document.querySelectorAll('#eb-list details.eb-case').length === 1")
    assert visible_case_ids(page) == ["t004"]
    assert "remaining" in page.inner_text("#eb-list")

    # A deep link (as summary.md writes them) applies its filters on load.
    page = watched.open(report, "#bucket=better")
    assert visible_case_ids(page) == ["t001"]

    assert watched.errors == []
    assert watched.csp_violations() == []
    assert watched.non_file_requests() == []


def test_image_overlay_draws_separators_over_the_image_from_report_assets(watched, separator_runs):
    page = watched.open(separator_runs["cand"] / "report.html", "#q=t002")
    case = page.locator("details.eb-case[data-case=t002]")  # #q= naming one case opens it
    overlay = case.locator(".eb-overlay")
    overlay.wait_for()
    page.wait_for_function("() => document.querySelector('details[data-case=t002] .eb-overlay').dataset.loaded === '1'")
    img = case.locator("img.eb-overlay-img")
    assert img.get_attribute("src") == "report-assets/assets/t002.png"
    assert img.evaluate("i => [i.complete, i.naturalWidth, i.naturalHeight]") == [True, 240, 160]

    gold = reportkit.gold_separators(2)
    answer = case.locator("g.eb-overlay-layer[data-layer=answer]")
    assert sorted(float(y) for y in answer.locator("line[data-axis=row]").evaluate_all("ls => ls.map(l => l.getAttribute('y1'))")) == gold["rows"]
    assert sorted(float(x) for x in answer.locator("line[data-axis=column]").evaluate_all("ls => ls.map(l => l.getAttribute('x1'))")) == gold["columns"]
    candidate = case.locator("g.eb-overlay-layer[data-layer=candidate]")
    assert sorted(float(x) for x in candidate.locator("line[data-axis=column]").evaluate_all("ls => ls.map(l => l.getAttribute('x1'))")) == [*gold["columns"], 200]
    # One colour per layer (answer, candidate, baseline, control-1), all drawn over the image.
    strokes = case.locator("g.eb-overlay-layer").evaluate_all("gs => gs.map(g => g.getAttribute('stroke'))")
    assert len(strokes) == 4 and len(set(strokes)) == 4
    box_img = img.bounding_box()
    box_svg = case.locator("svg.eb-overlay-svg").bounding_box()
    assert box_img and box_svg and abs(box_img["width"] - box_svg["width"]) < 1 and abs(box_img["height"] - box_svg["height"]) < 1
    # The errors of every profile, side by side for candidate, baseline and control.
    headers = case.locator("table.eb-errors thead th").all_inner_texts()
    assert [h.strip() for h in headers] == ["profile", "candidate", "baseline", "control-1"]
    assert "extra-separator column 1" in case.locator("table.eb-errors").inner_text()

    image_requests = [u for u in watched.requests if u.endswith("report-assets/assets/t002.png")]
    assert image_requests and all(u.startswith("file:") for u in image_requests)
    assert watched.non_file_requests() == []
    assert watched.csp_violations() == []
    assert watched.errors == []


def test_injected_markup_shows_as_text_and_runs_nothing(watched, separator_runs):
    page = watched.open(separator_runs["cand"] / "report.html")
    case = page.locator("details.eb-case[data-case=t000]")
    case.locator(":scope > summary").click()
    case.locator("table.eb-errors").wait_for()
    assert reportkit.INJECTED_NOTE in case.locator("table.eb-errors").inner_text()
    raw = case.locator("details.eb-raw")
    raw.locator(":scope > summary").click()
    raw.locator(".eb-json").wait_for()
    assert json.dumps(reportkit.INJECTED_NOTE) in raw.inner_text()  # shown as a JSON string
    # The hostile category shows as text in the filter, the group headings and the chart.
    page.select_option("#eb-category", reportkit.INJECTED_CATEGORY)
    assert sorted(visible_case_ids(page)) == ["t002", "t005"]
    assert reportkit.INJECTED_CATEGORY in page.inner_text("#eb-list")
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert page.locator("img[src=x]").count() == 0
    assert page.locator("script:not([type])").count() == len(page.evaluate("Object.keys(window.EnviroBench.viewers)")) + 1
    assert watched.errors == []
    assert watched.non_file_requests() == []


def test_json_viewer_shows_a_structural_diff(watched, separator_runs):
    page = watched.open(separator_runs["cand"] / "report.html", "#q=t003")
    case = page.locator("details.eb-case[data-case=t003]")
    raw = case.locator("details.eb-raw")
    raw.locator(":scope > summary").click()
    candidate = raw.locator("section.eb-json-run[data-run=candidate]")
    candidate.wait_for()
    rows = candidate.locator("table.eb-json-diff tr.eb-json-extra").all_inner_texts()
    # The prediction has an extra separator and a `note` field the answer does not have.
    assert [r.split("\t")[:2] for r in rows] == [["$.columns[2]", "extra"], ["$.note", "extra"]] and "210" in rows[0]
    control = raw.locator("section.eb-json-run[data-run=control-1] table.eb-json-diff tr.eb-json-missing").all_inner_texts()
    assert [r.split("\t")[:2] for r in control] == [["$.columns[1]", "missing"]] and "150" in control[0]


def test_table_grid_marks_wrong_cells(watched, tmp_path):
    runs = reportkit.make_grid_runs(tmp_path)
    page = watched.open(runs["cand"] / "report.html")
    assert "Gate failed" in page.inner_text("#verdict")
    case = page.locator("details.eb-case[data-case=g000]")
    case.locator(":scope > summary").click()
    block = case.locator("section.eb-grid-block[data-run=candidate]")
    block.wait_for()
    wrong = block.locator("td.eb-cell-wrong")
    assert wrong.count() == 1 and wrong.inner_text() == "21" and wrong.get_attribute("title") == "answer: 12"
    assert case.locator("section.eb-grid-block[data-run=baseline] td.eb-cell-wrong").count() == 0
    other = page.locator("details.eb-case[data-case=g001]")
    other.locator(":scope > summary").click()
    other.locator("section.eb-grid-block[data-run=candidate]").wait_for()
    assert other.locator("section.eb-grid-block[data-run=candidate] td.eb-cell-missing").count() == 1
    assert watched.non_file_requests() == [] and watched.errors == []


def test_report_shows_the_interpretation(use_registry, watched, tmp_path, monkeypatch):
    runs = reportkit.make_separator_runs(tmp_path)
    cand = runs["cand"]
    runner = CliRunner()
    use_registry(runs["registry"])
    assert runner.invoke(main, ["review", "draft", "--run", str(cand)]).exit_code == 0
    interpretation = json.loads((cand / "interpretation.json").read_text())
    interpretation["findings"][0]["cases"][0].update(examined=True, verdict="real regression", evidence="the note holds markup </script><b>x</b>")
    (cand / "interpretation.json").write_text(json.dumps(interpretation))
    result = runner.invoke(main, ["review", "check", "--run", str(cand)])
    assert result.exit_code == 0, result.output
    page = watched.open(cand / "report.html")
    review = page.inner_text("#review")
    assert "Finding 1" in review and "real regression" in review and "</script><b>x</b>" in review
    page.click("#review a.eb-case-link >> nth=0")
    page.wait_for_function("() => document.querySelectorAll('#eb-list details.eb-case').length === 1")
    assert page.locator("#eb-list details.eb-case").get_attribute("open") is not None
    assert watched.non_file_requests() == [] and watched.errors == []


def test_rows_render_a_page_at_a_time(watched, tmp_path):
    run = reportkit.make_count_run(tmp_path, 450)
    page = watched.open(run / "report.html")
    assert "Baseline required" in page.inner_text("#verdict")
    rows = page.locator("#eb-list details.eb-case")
    assert rows.count() == 200
    more = page.locator("#eb-more")
    assert more.is_visible() and "250 not shown" in more.inner_text()
    more.click()
    assert rows.count() == 400
    more.click()
    assert rows.count() == 450 and not more.is_visible()
    # Nothing of a case's data is rendered until it is opened.
    assert page.locator(".eb-viewer").count() == 0
    page.select_option("#eb-bucket", "remaining")
    assert rows.count() == 150 and not more.is_visible()
    assert page.locator("#eb-list h4.eb-subgroup").all_inner_texts() == ["long", "short"]
    assert watched.non_file_requests() == [] and watched.errors == []


@pytest.fixture(scope="module")
def usage_run(tmp_path_factory):
    """A candidate whose adapter reported each case's cost and wall time, with one case (t005)
    of seven errors in a profile, beside a baseline that is right everywhere."""
    from envirobench.runs import RunSpec, execute_run

    tmp = tmp_path_factory.mktemp("usage")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(plugins.LOAD_PLUGINS_ENV, "")
        dataset = reportkit.write_separator_dataset(tmp / "separators-v1", 8)
        registry = reportkit.registry_for({reportkit.SEPARATORS_DATASET: dataset})
        preds = reportkit.separator_predictions(8)
        common = {"benchmark": reportkit.ImageSeparators.ID, "dataset": reportkit.SEPARATORS_DATASET, "results": tmp / "results"}
        base = reportkit.make_run(tmp, registry, "base", preds["baseline"], **common)
        cand = json.loads(json.dumps(preds["candidate"]))
        cand["t005"] = {"rows": [1, 2], "columns": [3], "note": ""}  # 3 + 2 missing, 2 extra: 7 errors
        (tmp / "cand.json").write_text(json.dumps(cand))
        usage = [{"id": f"t{i:03d}", "cost_usd": round(0.01 * (i % 4), 2), "wall_s": 0.5 + i} for i in range(8)]
        (tmp / "usage.json").write_text(json.dumps(usage))
        spec = RunSpec(adapter=str(reportkit.fixture_adapter(tmp)), run_id="cand", model="test/model", benchmark=common["benchmark"],
                       dataset=common["dataset"], budget_usd=1.0, results_dir=common["results"], sandbox="none", baseline=base,
                       options={"predictions": str(tmp / "cand.json"), "usage": str(tmp / "usage.json"), "cost": str(sum(u["cost_usd"] for u in usage))})
        outcome = execute_run(spec, registry)
        assert outcome.status == "completed", outcome.message
        return outcome.run_dir


def test_long_error_lists_fold_and_cases_sort_by_errors_cost_and_time(watched, usage_run):
    """Issue 36, point 7: more than five errors in a cell show as counts by kind with the list
    folded under them; the case list sorts by errors, by errors gained, by the cost and by the
    wall time the adapter reported per case (shown in each row), and by ID."""
    report = usage_run / "report.html"
    data = reportkit.embedded_data(report.read_text())
    assert data["cost"][:4] == [0.0, 0.01, 0.02, 0.03] and data["wall"][7] == 7.5
    page = watched.open(report, "#q=t005")
    case = page.locator("details.eb-case[data-case=t005]")
    folded = case.locator(".eb-folded").first
    folded.wait_for()
    assert folded.locator(".eb-error-kinds li").all_inner_texts() == ["5 × missing-separator", "2 × extra-separator"]
    listing = folded.locator("details.eb-error-list")
    assert listing.locator("summary").inner_text() == "all 7 errors" and listing.get_attribute("open") is None
    row = case.locator(":scope > summary").inner_text()
    assert "$0.0100" in row and "5.5 s" in row

    page = watched.open(report)
    options = page.eval_on_selector_all("#eb-sort option", "els => els.map(e => e.value)")
    assert options == ["", "errors", "change", "cost", "wall", "id"]
    page.select_option("#eb-sort", "errors")
    assert visible_case_ids(page)[0] == "t005" and page.locator("#eb-list h3.eb-group").count() == 0
    assert "sort=errors" in page.evaluate("location.hash")
    page.select_option("#eb-sort", "wall")
    assert visible_case_ids(page) == [f"t{i:03d}" for i in reversed(range(8))]
    page.select_option("#eb-sort", "cost")
    assert visible_case_ids(page)[:2] == ["t003", "t007"]
    page.select_option("#eb-sort", "id")
    assert visible_case_ids(page) == [f"t{i:03d}" for i in range(8)]
    page.select_option("#eb-sort", "")
    assert page.locator("#eb-list h3.eb-group").count() > 0
    assert watched.errors == [] and watched.csp_violations() == [] and watched.non_file_requests() == []
