"""Two category viewers in headless Chromium, on a partial run of their type's shipped dev
dataset: Extract's table-structure and Locate's ranked-list. Both build each run's section with
the report's context.runSection and table-structure shows the case image with context.caseImage,
so these also check that contract from outside core."""

from __future__ import annotations

import json

import reportkit

from envirobench import plugins

TABLE_STRUCTURE = "envirobench/table-structure-synthetic-dev-v2"
PASSAGE_RERANK = "envirobench/passage-rerank-synthetic-dev-v1"


def registry_of(monkeypatch, distribution):
    # The folder's autouse fixture loads no installed plugin; these tests need this one's types.
    monkeypatch.setenv(plugins.LOAD_PLUGINS_ENV, distribution)
    return plugins.build_registry()


def answers(registry, dataset_id, case_ids):
    path = registry.datasets[dataset_id].path / "answers.jsonl"
    rows = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines())
    return {row["id"]: row["answer"] for row in rows if row["id"] in case_ids}


def open_case(page, case_id, section):
    case = page.locator(f"details.eb-case[data-case={case_id}]")
    case.locator(":scope > summary").click()
    case.locator(section).first.wait_for()
    return case


def heading_in_run_colour(page, section):
    """The section's <h4> names its run and is edged in that run's colour from the report."""
    return section.evaluate(
        """(s) => {
            const probe = document.createElement('span');
            probe.style.borderLeftColor = EnviroBench.context.colors[s.dataset.run];
            const h = s.querySelector(':scope > h4');
            return h.textContent === s.dataset.run && h.style.borderLeftColor !== '' && h.style.borderLeftColor === probe.style.borderLeftColor;
        }"""
    )


def test_table_structure_marks_cells_not_in_the_answer_beside_the_case_image(watched, tmp_path, monkeypatch):
    registry = registry_of(monkeypatch, "envirobench-extract")
    cases = ("tsr-dev-0001", "tsr-dev-0002")
    gold = answers(registry, TABLE_STRUCTURE, cases)
    merged = json.loads(json.dumps(gold["tsr-dev-0001"]))
    # Header cells (0,0) and (0,1) read as one cell spanning two columns: one cell the answer lacks.
    merged["cells"] = [c for c in merged["cells"] if (c["row"], c["column"]) != (0, 1)]
    next(c for c in merged["cells"] if (c["row"], c["column"]) == (0, 0))["column_span"] = 2
    header = {**gold["tsr-dev-0002"], "header_rows": gold["tsr-dev-0002"]["header_rows"] + 1}
    run = reportkit.make_run(tmp_path, registry, "ts", {"tsr-dev-0001": merged, "tsr-dev-0002": header},
                             benchmark="table-structure", dataset=TABLE_STRUCTURE, results=tmp_path / "results", cases=cases)
    page = watched.open(run / "report.html")

    case = open_case(page, "tsr-dev-0001", "section.ebx-ts-block[data-run=candidate]")
    viewer = case.locator(".ebx-ts")
    page.wait_for_function("(v) => v.dataset.loaded !== undefined", arg=viewer.element_handle())
    assert viewer.get_attribute("data-loaded") == "1"
    image = viewer.locator("figure.ebx-ts-image img.ebx-ts-img")
    assert image.get_attribute("src") == "report-assets/assets/tsr-dev-0001.png"
    assert image.evaluate("(img) => img.naturalWidth") > 0
    candidate = viewer.locator("section.ebx-ts-block[data-run=candidate]")
    assert heading_in_run_colour(page, candidate)
    wrong = candidate.locator(".ebx-ts-wrong")
    assert wrong.count() == 1 and wrong.inner_text() == "0,0 1\u00d72" and wrong.get_attribute("title") == "not a cell of the answer"
    assert "1 cell(s) not in the answer" in candidate.locator("p.ebx-ts-note").inner_text()
    answer = viewer.locator("section.ebx-ts-block[data-run=answer]")
    assert answer.locator("h4").inner_text() == "answer" and answer.locator(".ebx-ts-wrong").count() == 0

    other = open_case(page, "tsr-dev-0002", "section.ebx-ts-block[data-run=candidate]")
    note = other.locator("section.ebx-ts-block[data-run=candidate] p.ebx-ts-note").inner_text()
    expected_header_rows = gold["tsr-dev-0002"]["header_rows"]
    assert "every cell is a cell of the answer" in note and f"header rows differ from the answer's {expected_header_rows}" in note

    # A case whose image is not in report-assets/ shows its grids and no figure, as before caseImage.
    shown = page.evaluate(
        """() => {
            const box = document.createElement('div');
            EnviroBench.viewers['table-structure'].render(box, {id: 'x', input: {image: 'elsewhere.png'}, assets: [], answer: {rows: 1, columns: 1, header_rows: 0, cells: [{row: 0, column: 0}]}, runs: []}, EnviroBench.context);
            return [box.querySelectorAll('figure, img').length, box.querySelectorAll('section.ebx-ts-block').length];
        }"""
    )
    assert shown == [0, 1]
    assert watched.non_file_requests() == [] and watched.errors == []


def test_ranked_list_shows_each_ranking_beside_the_ideal_one(watched, tmp_path, monkeypatch):
    registry = registry_of(monkeypatch, "envirobench-locate")
    cases = ("pr-dev-0001", "pr-dev-0002")
    gold = answers(registry, PASSAGE_RERANK, cases)

    def ideal(answer):
        return [j["passage"] for j in sorted(answer["judgments"], key=lambda j: -j["grade"])]

    reversed_ranking = ideal(gold["pr-dev-0001"])[::-1]  # the essential passages fall past rank 10
    with_stranger = ideal(gold["pr-dev-0002"])
    with_stranger.insert(1, "not-offered")
    predictions = {"pr-dev-0001": {"ranking": reversed_ranking}, "pr-dev-0002": {"ranking": with_stranger}}
    run = reportkit.make_run(tmp_path, registry, "pr", predictions, benchmark="passage-rerank", dataset=PASSAGE_RERANK,
                             results=tmp_path / "results", cases=cases)
    page = watched.open(run / "report.html")

    case = open_case(page, "pr-dev-0001", "section.ebl-rl-column[data-run=candidate]")
    columns = case.locator("section.ebl-rl-column")
    assert [columns.nth(i).get_attribute("data-run") for i in range(columns.count())] == ["ideal", "candidate"]
    candidate = case.locator("section.ebl-rl-column[data-run=candidate]")
    assert heading_in_run_colour(page, candidate)
    essential = sorted(gold["pr-dev-0001"]["essential"])
    assert essential and all(reversed_ranking.index(p) >= 10 for p in essential)
    note = candidate.locator(":scope > p.ebl-rl-note").inner_text()
    assert note.startswith("nDCG@10 0.") and "essential not in the top 10: " in note
    assert sorted(note.split("essential not in the top 10: ")[1].split(", ")) == essential
    top = candidate.locator(":scope > div > ol.ebl-rl-list > li code")
    assert top.all_inner_texts() == reversed_ranking[:10]
    more = candidate.locator(":scope > div > details")
    assert more.locator("summary").inner_text() == f"ranks 11-{len(reversed_ranking)}"
    more.locator("summary").click()
    folded = more.locator(":scope > ol.ebl-rl-list > li code")
    assert folded.all_inner_texts() == reversed_ranking[10:]
    ideal_note = case.locator("section.ebl-rl-column[data-run=ideal] > p.ebl-rl-note")
    assert ideal_note.count() == 0  # the ideal ranking is not scored against itself

    other = open_case(page, "pr-dev-0002", "section.ebl-rl-column[data-run=candidate]")
    stranger = other.locator("section.ebl-rl-column[data-run=candidate] li.ebl-rl-item").nth(1)
    assert stranger.get_attribute("data-grade") == "unknown"
    assert stranger.locator("p.ebl-rl-note").inner_text() == "not a passage of this question"
    assert watched.non_file_requests() == [] and watched.errors == []
