"""benchmarks/reference_scores.py's split sections run, fast: the script that writes the Extract v2
and Legal tables of docs/reference-scores.md must not rot between two measurements (issue 20
found a benchmark script that no longer ran). Here on a few cases of the shipped v1 Extract
datasets (`--split`), so the check does not wait on the v2 datasets: every baseline of every
Extract spec in benchmarks/extract_specs scores with its interval, and a reference run through
core lands in its section, which a second run replaces instead of appending."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "benchmarks" / "reference_scores.py"
SPECS = REPO / "benchmarks" / "extract_specs"
V1 = "v1=envirobench/{benchmark}-synthetic-v1"


def run(*args: str, cwd: Path) -> str:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *args], cwd=cwd, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stderr


def extract_specs() -> list[str]:
    return sorted(
        p.stem.replace("_", "-") for p in SPECS.glob("*.py") if not p.stem.startswith("_")
    )


def test_the_record_types_have_their_specs():
    assert {"document-extraction", "table-records"} <= set(extract_specs())


def test_every_extract_baseline_scores_with_an_interval(tmp_path):
    output = tmp_path / "reference-scores.md"
    output.write_text("# Reference scores\n\nThe v1 tables.\n", encoding="utf-8")
    args = [arg for benchmark in extract_specs() for arg in ("--extract", benchmark)]
    err = run(
        *args,
        "--split",
        V1,
        "--no-reference",
        "--limit",
        "3",
        "--output",
        str(output),
        "--results",
        str(tmp_path / "r"),
        cwd=tmp_path,
    )
    text = output.read_text(encoding="utf-8")
    # The page's title, then the summary table, then what the page held, kept.
    assert text.startswith("# Reference scores\n\n<!-- summary:begin")
    assert text.partition("<!-- summary:end -->\n")[2].startswith("\nThe v1 tables.\n")
    for benchmark in extract_specs():
        assert f"wrote the Extract v2 section of {benchmark}" in err
        assert (
            text.count(f"<!-- extract-{benchmark}:begin") == 1
            and f"<!-- extract-{benchmark}:end -->" in text
        )
        rows = json.loads(
            (tmp_path / "r" / f"extract-{benchmark}.json").read_text(encoding="utf-8")
        )
        assert (
            [row["split"] for row in rows] == ["v1"]
            and rows[0]["cases"] == 3
            and rows[0]["reference"] is None
        )
        assert rows[0]["baselines"]
        for name, baseline in rows[0]["baselines"].items():
            primary = rows[0]["headline_metrics"][0]
            low, high = baseline["intervals"][primary]
            assert low <= baseline["headline"][primary] <= high, (benchmark, name)
            assert f"| v1 | {name} |" in text
    assert (
        "| v1 | no records (empty output) | 0.000 [0.000, 0.000] |" in text
    )  # record_f1 first, the floor
    # Numbers on part of a split say so where they are read.
    assert "**A sample, not the whole split:** v1 the first 3 of 40 cases (`--limit`)" in text


def test_a_section_is_rewritten_from_saved_rows_without_running(tmp_path):
    output = tmp_path / "reference-scores.md"
    rows = tmp_path / "rows.json"
    row = {"split": "test", "dataset": "d", "profile": "semantic", "headline_metrics": ["record_f1"],
           "cases": 210, "split_cases": 210, "adapter_wall_time_s": 12.0,
           "reference": {"headline": {"record_f1": 0.5}, "intervals": {"record_f1": [0.4, 0.6]}},
           "baselines": {}, "groups": {}}
    rows.write_text(json.dumps([row]), encoding="utf-8")
    run("--extract", "document-extraction", "--rows", str(rows), "--output", str(output), cwd=tmp_path)
    text = output.read_text(encoding="utf-8")
    assert "| test | reference adapter | 0.500 [0.400, 0.600] |" in text and "A sample" not in text


def test_the_summary_row_pits_the_reference_against_the_best_shortcut(tmp_path):
    # One row per task at the top: the best baseline that copies no key (report-metadata's
    # key-copying baseline scores higher and is left out), the paired interval and the rule.
    output = tmp_path / "reference-scores.md"
    output.write_text("# Reference scores\n\nThe v1 tables.\n", encoding="utf-8")

    def system(value, low, high, paired=None):
        out = {"headline": {"fields_right": value}, "intervals": {"fields_right": [low, high]}}
        return out | ({"paired": {"fields_right": paired}} if paired else {})

    def split(name, reference, baselines):
        return {"split": name, "dataset": "d", "profile": "fields", "headline_metrics": ["fields_right"],
                "cases": 210, "split_cases": 210, "adapter_wall_time_s": 1.0, "reference": reference,
                "baselines": baselines, "groups": {}}

    baselines = {
        'every report "final", every other field empty': system(0.1, 0.05, 0.15, [0.10, 0.30]),
        'the dev split\'s commonest laboratory, client and project, every report "final"': system(0.2, 0.15, 0.25, [0.05, 0.15]),
        'the key\'s names and dates, every report "final" (copies the key)': system(0.9, 0.85, 0.95, [-0.7, -0.5]),
    }
    rows = [split("dev", system(0.75, 0.7, 0.8), {}), split("test", system(0.3, 0.25, 0.35), baselines)]
    saved = tmp_path / "rows.json"
    saved.write_text(json.dumps(rows), encoding="utf-8")
    run("--extract", "report-metadata", "--rows", str(saved), "--output", str(output), cwd=tmp_path)
    line = next(x for x in output.read_text(encoding="utf-8").splitlines() if x.startswith("| extract: report-metadata |"))
    assert line == (
        "| extract: report-metadata | 210 reports | fields right | 0.300 [0.250, 0.350] | 0.200 [0.150, 0.250] (the dev "
        "split's commonest laboratory, client and project, every report \"final\") | +0.100 [+0.050, +0.150] | "
        "0.750 → 0.300 | passes |"
    )
    # The paired interval reaching zero fails the rule; a rewrite keeps one table and one row.
    baselines['every report "final", every other field empty'] = system(0.28, 0.2, 0.3, [-0.01, 0.05])
    saved.write_text(json.dumps(rows), encoding="utf-8")
    run("--extract", "report-metadata", "--rows", str(saved), "--output", str(output), cwd=tmp_path)
    text = output.read_text(encoding="utf-8")
    assert text.count("<!-- summary:begin") == 1 and text.count("| extract: report-metadata |") == 1
    assert "| +0.020 [-0.010, +0.050] | 0.750 → 0.300 | fails: the interval reaches 0 |" in text


def test_a_reference_run_fills_its_section_and_a_rerun_replaces_it(tmp_path):
    output = tmp_path / "reference-scores.md"
    args = (
        "--extract",
        "document-extraction",
        "--split",
        V1,
        "--limit",
        "1",
        "--output",
        str(output),
        "--results",
        str(tmp_path / "r"),
    )
    run(*args, cwd=tmp_path)
    text = output.read_text(encoding="utf-8")
    assert "| v1 | reference adapter |" in text and "Reference adapter wall time: v1" in text
    rows = json.loads(
        (tmp_path / "r" / "extract-document-extraction.json").read_text(encoding="utf-8")
    )
    assert rows[0]["reference"]["intervals"]["record_f1"] and rows[0]["groups"]
    # Every baseline carries its paired interval against the reference, on the same cases.
    assert all(b["paired"]["record_f1"] for b in rows[0]["baselines"].values())
    run(*args, cwd=tmp_path)
    assert output.read_text(encoding="utf-8").count("<!-- extract-document-extraction:begin") == 1


def test_a_site_section_shows_every_site_with_its_cost_and_wall_time(tmp_path):
    # The Site done-when: scores per site beside cost and wall time. Baselines are scored per site
    # from the shipped datasets; the reference's usage comes from its run.json (here saved rows).
    output = tmp_path / "reference-scores.md"
    run("--site", "recognized-conditions", "--no-reference", "--output", str(output),
        "--results", str(tmp_path / "r"), cwd=tmp_path)
    text = output.read_text(encoding="utf-8")
    header = next(line for line in text.splitlines() if line.startswith("| split | site |"))
    assert header.startswith("| split | site | every kind a REC citing page 1 | no conditions | ")  # then any later baseline
    assert header.endswith(" | cost (USD) | wall time (s) |")
    for site in ("st-275", "bp-540", "dc-806", "dev-former-station"):
        assert f"| {site} | " in text
    assert "| test | dc-806 | " in text and " | 0.000 | — | — |" in text  # "no conditions" scores 0
    rows = json.loads((tmp_path / "r" / "site-recognized-conditions.json").read_text(encoding="utf-8"))
    test = next(r for r in rows if r["split"] == "test")
    test["reference"] = {"headline": {"condition_f1": 0.5}, "intervals": {}}
    test["sites"]["st-275"]["headlines"]["reference adapter"] = {"condition_f1": 0.75}
    test["sites"]["st-275"]["usage"] = {"case": "st-275", "cost_usd": 0.0, "wall_time_s": 138.4,
                                        "cost_averaged": False, "wall_averaged": True}
    saved = tmp_path / "rows.json"
    saved.write_text(json.dumps(rows), encoding="utf-8")
    run("--site", "recognized-conditions", "--rows", str(saved), "--output", str(output), cwd=tmp_path)
    line = next(x for x in output.read_text(encoding="utf-8").splitlines() if x.startswith("| test | st-275 |"))
    assert line.endswith("| 0.750 | 0.00 | 138 (averaged) |"), line


def test_a_section_made_before_the_summary_gets_a_row_read_from_its_table():
    # Sections written before the summary-row lines existed (another category's, not rerun yet)
    # still get a row: the reference and the best shortcut read from the section's first table
    # (a Site section's per-site table after it is not read), no paired interval, and a pointer
    # to the command that makes one.
    sys.path.insert(0, str(REPO / "benchmarks"))
    import _summary

    page = "\n".join([
        "# Reference scores", "", "Intro.", "",
        "<!-- site-site-timeline:begin (benchmarks/reference_scores.py --site site-timeline) -->",
        "## Site: site-timeline", "",
        "| split | system | event F1 | precision |", "| --- | --- | --- | --- |",
        "| dev | reference adapter | 0.975 [0.950, 0.990] | 0.9 |",
        "| test | reference adapter | 0.743 [0.648, 0.826] | 0.8 |",
        "| test | every kind once, in the record's last year | 0.030 [0.000, 0.087] | 0.1 |",
        "| test | the oracle's events (copies the key) | 1.000 [1.000, 1.000] | 1.0 |", "",
        "Reference adapter wall time: dev 795 s (4 cases), test 627 s (3 cases).", "",
        "| split | site | reference adapter | cost (USD) | wall time (s) |", "| --- | --- | --- | --- | --- |",
        "| test | st-275 | 0.900 | 0.00 | 200 |",
        "<!-- site-site-timeline:end -->", "",
    ])
    text = _summary.place(page, ("legal", "extract", "locate", "verify", "research", "site"))
    assert text.startswith("# Reference scores\n\n<!-- summary:begin") and "\nIntro.\n" in text
    line = next(x for x in text.splitlines() if x.startswith("| site: site-timeline |"))
    assert line == (
        "| site: site-timeline | 3 cases | event F1 | 0.743 [0.648, 0.826] | 0.030 [0.000, 0.087] (every kind once, in the "
        "record's last year) | +0.713 | 0.975 → 0.743 | no paired interval yet (an older section): rerun `--site site-timeline`; "
        "the reference's interval is 0.178 wide (over 0.150) |"
    )
    assert _summary.place(text, ("site",)) == text  # rebuilding changes nothing


def test_a_shortcut_reads_the_sizes_of_the_split_it_scores(tmp_path):
    # missing-information's dev and test splits name their files alike (assets/record-001-doc-01.pdf):
    # the size shortcut reads the files of the split being scored, which the script names to it.
    output = tmp_path / "reference-scores.md"
    run("--research", "missing-information", "--no-reference", "--limit", "2", "--output", str(output),
        "--results", str(tmp_path / "r"), cwd=tmp_path)
    rows = json.loads((tmp_path / "r" / "research-missing-information.json").read_text(encoding="utf-8"))
    assert [row["split"] for row in rows] == ["dev", "test"]
    for row in rows:
        assert "file names, file sizes + question shape, fitted on dev (reads no PDF)" in row["baselines"]
    sys.path.insert(0, str(REPO / "benchmarks"))
    import _shortcuts

    _shortcuts._SCORED_ROOT.clear()
    with pytest.raises(RuntimeError, match="no split is being scored"):
        _shortcuts.scored_file_size("assets/record-001-doc-01.pdf")
    _shortcuts.scoring_split(tmp_path)
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "x.pdf").write_bytes(b"12345")
    assert _shortcuts.scored_file_size("assets/x.pdf") == 5


def test_a_made_run_that_is_not_a_finished_run_is_refused_without_a_traceback(tmp_path):
    (tmp_path / "unfinished").mkdir()
    (tmp_path / "unfinished" / "run.json").write_text("{}", encoding="utf-8")  # metrics.json not written yet
    done = subprocess.run([sys.executable, str(SCRIPT), "--legal", "instrument-execution", "--output", str(tmp_path / "out.md"),
                           "--made", f"dev={tmp_path / 'unfinished'}", "--made", f"test={tmp_path / 'missing'}"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"--made dev={tmp_path / 'unfinished'}, test={tmp_path / 'missing'}: not a finished run directory" in done.stderr
    assert not (tmp_path / "out.md").exists()
