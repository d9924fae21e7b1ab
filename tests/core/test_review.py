"""`envirobench review draft|check` and `--from-review RUN_DIR --recommendation N`."""

from __future__ import annotations

import json

import pytest
import reportkit
from click.testing import CliRunner

from envirobench.cli import main
from envirobench.review import INTERPRETATION_FORMAT


@pytest.fixture
def runs(use_registry, tmp_path, monkeypatch):
    made = reportkit.make_separator_runs(tmp_path)
    use_registry(made["registry"])
    return made


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def load(path):
    return json.loads(path.read_text())


def draft(run_dir):
    result = invoke("review", "draft", "--run", run_dir)
    assert result.exit_code == 0, result.output
    return load(run_dir / "interpretation.json")


def test_draft_has_one_numbered_unexamined_finding_per_group(runs):
    cand = runs["cand"]
    result = invoke("review", "draft", "--run", cand)
    assert result.exit_code == 0, result.output
    assert "4 finding(s) covering 5 case(s), none examined yet" in result.output
    interpretation = load(cand / "interpretation.json")
    assert interpretation["format"] == INTERPRETATION_FORMAT and interpretation["status"] == "draft"
    assert interpretation["run_id"] == "cand" and interpretation["baseline"] == "base" and interpretation["gate"] == "failed"
    findings = interpretation["findings"]
    assert [(f["number"], f["profile"], f["group"]) for f in findings] == [
        (1, "logical", "worse"), (2, "logical", "better"), (3, "logical", "noisy"), (4, "logical", "remaining"),
    ]
    assert [c["id"] for c in findings[0]["cases"]] == ["t002", "t000"]  # by category, as in review-brief.json
    assert findings[0]["cases"][0]["category"] == reportkit.INJECTED_CATEGORY
    assert all(not c["examined"] and c["evidence"] is None for f in findings for c in f["cases"])
    recs = interpretation["recommendations"]
    assert [(r["number"], r["finding"], r["cases"]) for r in recs] == [(f["number"], f["number"], [c["id"] for c in f["cases"]]) for f in findings]
    # A draft is valid as it stands, and is never written over.
    assert invoke("review", "check", "--run", cand).exit_code == 0
    again = invoke("review", "draft", "--run", cand)
    assert again.exit_code == 1 and "already exists" in again.output


def test_draft_to_another_file_and_check_it(runs, tmp_path):
    out = tmp_path / "mine.json"
    assert invoke("review", "draft", "--run", runs["cand"], "--output", out).exit_code == 0
    assert not (runs["cand"] / "interpretation.json").exists()
    result = invoke("review", "check", "--run", runs["cand"], "--file", out, "--json")
    assert result.exit_code == 0, result.output
    verdict = json.loads(result.output)
    assert verdict["valid"] and verdict["findings"] == 4 and verdict["examined"] == 0 and verdict["report"] is None


def test_edited_review_then_recommendation_targets_exactly_those_cases(runs, tmp_path):
    cand = runs["cand"]
    interpretation = draft(cand)
    finding = interpretation["findings"][0]
    for case in finding["cases"]:
        case.update(examined=True, verdict="real regression", evidence=f"{case['id']}: the candidate adds a column line the image does not have")
    finding["summary"] = "Extra separators and a stray note."
    interpretation.update(status="reviewed", reviewer="a.reviewer")
    (cand / "interpretation.json").write_text(json.dumps(interpretation, indent=2))
    checked = invoke("review", "check", "--run", cand)
    assert checked.exit_code == 0, checked.output
    assert "valid (reviewed): 4 finding(s), 2 of 5 case(s) examined, 4 recommendation(s)" in checked.output

    fixture = tmp_path / "next.json"
    fixture.write_text(json.dumps(runs["predictions"]["baseline"]))
    result = invoke(
        "run", "--adapter", reportkit.fixture_adapter(tmp_path), "--run", "next", "--model", "m", "--benchmark", "test-separators",
        "--dataset", f"test-separators={reportkit.SEPARATORS_DATASET}", "--budget", "1", "--adapter-option", f"predictions={fixture}",
        "--baseline-run", runs["base"], "--results", runs["results"], "--from-review", cand, "--recommendation", "1",
        # A trusted test adapter that replays a fixture from the test's /tmp directory, which the
        # sandbox hides whole.
        "--sandbox", "none",
    )
    assert result.exit_code == 0, result.output
    record = load(runs["results"] / "next" / "run.json")
    assert record["gate"]["targets"] == [c["id"] for c in finding["cases"]] == ["t002", "t000"]
    assert record["gate"]["failing_targets"] == {"logical": []}

    # The reviewer narrows recommendation 2 to one case: exactly that case is targeted, on `score` too
    # (added to the run's saved targets).
    interpretation["recommendations"][1]["cases"] = ["t001"]
    (cand / "interpretation.json").write_text(json.dumps(interpretation))
    scored = invoke("score", "--run", runs["results"] / "next", "--from-review", cand, "--recommendation", "2")
    assert scored.exit_code == 0, scored.output
    assert load(runs["results"] / "next" / "run.json")["gate"]["targets"] == ["t002", "t000", "t001"]
    scored = invoke("score", "--run", runs["results"] / "next", "--target-case", "t007", "--from-review", cand, "--recommendation", "2")
    assert scored.exit_code == 0, scored.output
    assert load(runs["results"] / "next" / "run.json")["gate"]["targets"] == ["t007", "t001"]


def test_check_rejects_an_examined_case_without_evidence_naming_the_field(runs):
    cand = runs["cand"]
    interpretation = draft(cand)
    case = interpretation["findings"][1]["cases"][0]
    case["examined"] = True
    del case["evidence"]
    (cand / "interpretation.json").write_text(json.dumps(interpretation))
    result = invoke("review", "check", "--run", cand)
    assert result.exit_code == 1
    assert "$.findings[1].cases[0].evidence" in result.output and "examined case 't001' has no evidence field" in result.output
    case["evidence"] = "   "
    (cand / "interpretation.json").write_text(json.dumps(interpretation))
    result = invoke("review", "check", "--run", cand)
    assert result.exit_code == 1 and "$.findings[1].cases[0].evidence" in result.output and "empty evidence" in result.output


def test_check_names_unknown_cases_and_recommendations_without_cases(runs):
    cand = runs["cand"]
    interpretation = draft(cand)
    interpretation["findings"][0]["cases"][1]["id"] = "t999"
    interpretation["recommendations"][0]["cases"] = []
    interpretation["recommendations"][1]["cases"] = ["t001", "nope"]
    interpretation["recommendations"][2]["finding"] = 42
    interpretation["findings"][3]["group"] = "sideways"
    (cand / "interpretation.json").write_text(json.dumps(interpretation))
    result = invoke("review", "check", "--run", cand, "--json")
    assert result.exit_code == 1
    problems = json.loads(result.output[: result.output.rindex("}") + 1])["problems"]
    text = "\n".join(problems)
    assert "$.findings[0].cases[1].id: case 't999' is not a case of this run" in text
    assert "$.recommendations[0].cases: a recommendation must name the cases it is about" in text
    assert "$.recommendations[1].cases[1]: case 'nope' is not a case of this run" in text
    assert "$.recommendations[2].finding: there is no finding 42" in text
    assert "$.findings[3].group: must be one of worse, better, noisy, remaining" in text
    assert len(problems) == 5


def test_check_refuses_unknown_fields_and_wrong_types(runs):
    cand = runs["cand"]
    interpretation = draft(cand)
    interpretation["findings"][0]["cases"][0]["examined"] = "yes"
    (cand / "interpretation.json").write_text(json.dumps(interpretation))
    result = invoke("review", "check", "--run", cand)
    assert result.exit_code == 1 and "$.findings[0].cases[0].examined" in result.output and "expected true or false" in result.output
    interpretation["findings"][0]["cases"][0]["examined"] = False
    interpretation["surprise"] = 1
    (cand / "interpretation.json").write_text(json.dumps(interpretation))
    result = invoke("review", "check", "--run", cand)
    assert result.exit_code == 1 and "unknown field(s) surprise" in result.output


def test_reviews_never_change_scores_or_the_gate(runs):
    cand = runs["cand"]
    names = ("run.json", "metrics.json", "comparison.json", "review-brief.json", "summary.md")
    before = {name: (cand / name).read_bytes() for name in names}
    interpretation = draft(cand)
    interpretation["findings"][0]["cases"][0].update(examined=True, verdict="noise", evidence="looks fine to me")
    (cand / "interpretation.json").write_text(json.dumps(interpretation))
    assert invoke("review", "check", "--run", cand).exit_code == 0
    assert {name: (cand / name).read_bytes() for name in names} == before


def test_from_review_usage_and_refusals(runs, tmp_path):
    cand = runs["cand"]
    alone = invoke("score", "--run", cand, "--recommendation", "1")
    assert alone.exit_code == 2 and "--from-review and --recommendation go together" in alone.output
    no_review = invoke("score", "--run", cand, "--from-review", runs["base"], "--recommendation", "1")
    assert no_review.exit_code == 1 and "no interpretation to check" in no_review.output
    interpretation = draft(cand)
    missing = invoke("score", "--run", cand, "--from-review", cand, "--recommendation", "9")
    assert missing.exit_code == 1 and "has no recommendation 9 (it has: 1, 2, 3, 4)" in missing.output
    interpretation["findings"][0]["cases"][0].update(examined=True)
    (cand / "interpretation.json").write_text(json.dumps(interpretation))
    invalid = invoke("score", "--run", cand, "--from-review", cand, "--recommendation", "1")
    assert invalid.exit_code == 1 and "is not valid" in invalid.output and "evidence" in invalid.output


def test_unpaired_run_drafts_its_remaining_errors(use_registry, make_run, results, toy_registry, monkeypatch):
    use_registry(toy_registry)
    make_run("solo", off="c000001:1,c000002:2")
    interpretation = draft(results / "solo")
    assert [(f["group"], [c["id"] for c in f["cases"]]) for f in interpretation["findings"]] == [("remaining", ["c000001", "c000002"])]
    assert interpretation["baseline"] is None and interpretation["gate"] == "baseline required"
