"""The category definitions: formulas on hand-worked counts, weights, docs generated from code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from envirobench import categories as cats
from envirobench.categories import ScoreRefused
from envirobench.cli.leaderboard import categories_command

DOCS = Path(__file__).resolve().parents[2] / "docs" / "categories.md"


def score(task_id, **headline):
    return cats.task(task_id).component_score(headline, primary=next(iter(headline), "x"))


# -- the definition ---------------------------------------------------------------------------


def test_six_categories_in_order_and_definitions_consistent():
    assert [c.name for c in cats.CATEGORIES] == ["Extract", "Verify", "Locate", "Research", "Legal", "Site"]
    assert cats.check_definitions() == []
    assert cats.SCORING_VERSION == "envirobench.categories.v4"


def test_site_has_the_four_site_tier_tasks_and_shows_cost_per_site():
    site = cats.category_of("site-results")
    assert site.name == "Site" and site.per_site
    assert [(t.id, t.tier, t.weight) for t in site.tasks] == [
        ("site-results", "site", 1),
        ("recognized-conditions", "site", 1),
        ("site-timeline", "site", 1),
        ("exceedance-summary", "site", 1),
    ]


def test_extract_tasks_and_weights():
    extract = cats.category_of("table-separators")
    assert extract.name == "Extract"
    assert [(t.id, t.weight) for t in extract.tasks] == [
        ("document-extraction", 4),
        ("table-separators", 1),
        ("table-structure", 1),
        ("table-cells", 1),
        ("table-records", 1),
        ("report-metadata", 1),
    ]
    assert extract.total_weight == 9  # document extraction is 4 of Extract's 9


def test_every_other_task_weighs_one():
    weights = {t.id: t.weight for c in cats.CATEGORIES for t in c.tasks}
    assert weights.pop("document-extraction") == 4
    assert set(weights.values()) == {1}


def test_published_formulas_belong_to_their_tasks():
    expected = {
        "ocr-auto-accept": cats.OCR_AUTO_ACCEPT,
        "instrument-execution": cats.INSTRUMENT_EXECUTION,
        "party-roles": cats.PARTY_ROLES,
        "indemnity-terms": cats.INDEMNITY_TERMS,
        "chain-of-title": cats.CHAIN_OF_TITLE,
        "use-limitations": cats.USE_LIMITATIONS,
        "missing-information": cats.MISSING_INFORMATION,
    }
    for task_id, formula in expected.items():
        assert cats.task(task_id).formula is formula
    others = [t for c in cats.CATEGORIES for t in c.tasks if t.id not in expected]
    assert others and all(t.formula is cats.PRIMARY for t in others)
    assert cats.category_of("ocr-auto-accept").name == "Verify"
    assert {cats.category_of(t).name for t in ("instrument-execution", "party-roles", "indemnity-terms", "chain-of-title")} == {"Legal"}
    assert cats.category_of("missing-information").name == "Research"  # the seed puts it there (docs/categories.md)
    assert cats.category_of("passage-rerank").name == "Locate"


# -- component scores on hand-worked counts -----------------------------------------------------


def test_default_formula_is_100_times_primary():
    assert score("table-separators", separator_f1=0.93, tables_exact=0.5) == pytest.approx(93.0)
    assert score("table-separators", separator_f1=0) == 0
    assert score("table-separators", separator_f1=1) == 100


@pytest.mark.parametrize("value", [1.2, 3, -0.1])
def test_default_formula_refuses_a_primary_outside_0_1(value):
    with pytest.raises(ScoreRefused):
        score("table-separators", separator_f1=value)


@pytest.mark.parametrize("value", ["0.5", True, None, float("nan")])
def test_default_formula_refuses_non_numbers(value):
    with pytest.raises(ScoreRefused):
        score("table-separators", separator_f1=value)


def test_default_formula_names_a_missing_primary():
    with pytest.raises(ScoreRefused, match="separator_f1"):
        cats.task("table-separators").component_score({"tables_exact": 0.5}, "separator_f1")


def ocr(c, w, n):
    return score("ocr-auto-accept", correct_accepts=c, wrong_accepts=w, readable_cells=n)


def test_ocr_auto_accept():
    assert ocr(90, 1, 100) == pytest.approx(80.0)  # (90 − 10×1) ÷ 100
    assert ocr(100, 0, 100) == pytest.approx(100.0)
    assert ocr(45, 2, 60) == pytest.approx(100 * 25 / 60)


def test_one_wrong_accept_cancels_ten_correct_ones():
    assert ocr(20, 1, 40) == pytest.approx(ocr(10, 0, 40)) == pytest.approx(25.0)
    assert ocr(10, 1, 20) == 0.0  # ten correct, one wrong: nothing left


def test_ocr_clamps_at_zero():
    assert ocr(5, 1, 20) == 0.0  # (5 − 10) ÷ 20 < 0
    assert ocr(0, 7, 20) == 0.0


def test_instrument_execution():
    f = lambda c, b, n: score("instrument-execution", correct_statuses=c, false_executed=b, instruments=n)  # noqa: E731
    assert f(18, 2, 20) == pytest.approx(40.0)  # (18 − 5×2) ÷ 20
    assert f(20, 0, 20) == pytest.approx(100.0)
    assert f(3, 1, 10) == 0.0  # clamp


def test_party_roles():
    f = lambda c, b, n: score("party-roles", parties_all_roles_right=c, non_owners_called_owners=b, parties=n)  # noqa: E731
    assert f(9, 1, 12) == pytest.approx(100 * 4 / 12)  # (9 − 5) ÷ 12
    assert f(4, 1, 12) == 0.0
    assert f(2, 3, 12) == 0.0  # clamp


def test_indemnity_terms():
    f = lambda c, b, n: score("indemnity-terms", contracts_exact=c, contracts_overstating=b, contracts=n)  # noqa: E731
    assert f(7, 1, 8) == pytest.approx(25.0)  # (7 − 5) ÷ 8
    assert f(8, 0, 8) == pytest.approx(100.0)
    assert f(1, 2, 8) == 0.0  # clamp


def test_chain_of_title():
    f = lambda c, b, n: score("chain-of-title", periods_exact=c, periods_foreign_or_invented=b, periods=n)  # noqa: E731
    assert f(10, 1, 10) == pytest.approx(50.0)  # (10 − 5) ÷ 10
    assert f(4, 1, 10) == 0.0  # clamp
    assert f(6, 3, 10) == 0.0  # invented periods may outnumber the real ones: still 0, never negative


def test_missing_information():
    f = lambda c, b, n: score("missing-information", questions_right=c, invented_answers=b, questions=n)  # noqa: E731
    assert f(45, 3, 50) == pytest.approx(60.0)  # (45 − 15) ÷ 50
    assert f(4, 1, 10) == 0.0  # clamp


def test_formula_counts_may_be_per_case_means():
    # Headline metrics are usually means over cases: a ratio of means equals a ratio of totals.
    assert ocr(90 / 4, 1 / 4, 100 / 4) == pytest.approx(ocr(90, 1, 100))


def test_formula_refusals_name_the_counts():
    task = cats.task("ocr-auto-accept")
    with pytest.raises(ScoreRefused, match="wrong_accepts"):
        task.component_score({"correct_accepts": 3, "readable_cells": 10}, "correct_accepts")
    with pytest.raises(ScoreRefused, match="readable_cells.*0"):
        ocr(0, 0, 0)
    with pytest.raises(ScoreRefused, match="exceeds"):
        ocr(11, 0, 10)
    with pytest.raises(ScoreRefused, match="below 0"):
        ocr(5, -1, 10)
    with pytest.raises(ScoreRefused, match="finite number"):
        ocr(5, True, 10)


def test_formula_text_states_the_published_formula():
    assert cats.OCR_AUTO_ACCEPT.text == "100 × max(0, (correct accepts − 10 × wrong accepts) ÷ readable cells)"
    assert cats.INSTRUMENT_EXECUTION.text == "100 × max(0, (correct statuses − 5 × instruments called executed when not) ÷ instruments)"
    assert cats.PARTY_ROLES.text == "100 × max(0, (parties with every role right − 5 × non-owners called owners) ÷ parties)"
    assert cats.INDEMNITY_TERMS.text == "100 × max(0, (contracts read exactly right − 5 × contracts overstating environmental protection) ÷ contracts)"
    assert cats.CHAIN_OF_TITLE.text == "100 × max(0, (periods exactly right − 5 × periods from another parcel or invented) ÷ periods)"
    assert cats.MISSING_INFORMATION.text == "100 × max(0, (questions right − 5 × invented answers) ÷ questions)"
    assert cats.OCR_AUTO_ACCEPT.required == ("correct_accepts", "wrong_accepts", "readable_cells")


# -- category scores ----------------------------------------------------------------------------


def test_category_score_weights_document_extraction_four():
    extract = cats.category_of("document-extraction")
    scores = {t.id: 60.0 for t in extract.tasks} | {"document-extraction": 90.0}
    assert cats.category_score(scores, extract) == pytest.approx((4 * 90 + 5 * 60) / 9)


def test_category_score_is_none_not_zero_when_a_task_is_missing():
    extract = cats.category_of("document-extraction")
    scores = {t.id: 80.0 for t in extract.tasks}
    del scores["report-metadata"]
    assert cats.category_score(scores, extract) is None


def test_no_overall_score_in_the_definition():
    definition = cats.definition_json()
    text = json.dumps(definition).lower()
    assert "overall" not in set(definition) and "overall_score" not in text
    assert not any(hasattr(cats, name) for name in ("overall_score", "overall", "total_score"))


# -- docs and CLI ---------------------------------------------------------------------------------


def test_docs_are_generated_from_the_definition():
    assert DOCS.is_file(), f"missing {DOCS}; run `{cats.REGENERATE}`"
    assert DOCS.read_text(encoding="utf-8") == cats.render_markdown(), (
        f"docs/categories.md differs from envirobench/categories.py; regenerate with `{cats.REGENERATE}`"
    )


def test_markdown_lists_every_task_and_formula():
    text = cats.render_markdown()
    for category in cats.CATEGORIES:
        assert f"## {category.name}" in text
        for t in category.tasks:
            assert f"`{t.id}`" in text
    for formula in cats.PUBLISHED_FORMULAS:
        assert formula.text in text and formula.metric_text in text
    assert "4 of 9" in text


def test_cli_markdown_is_the_docs_file():
    result = CliRunner().invoke(categories_command, ["--markdown"])
    assert result.exit_code == 0, result.output
    assert result.output == DOCS.read_text(encoding="utf-8")


def test_cli_json():
    result = CliRunner().invoke(categories_command, ["--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["scoring_version"] == cats.SCORING_VERSION
    extract = data["categories"][0]
    assert extract["name"] == "Extract" and extract["total_weight"] == 9
    ocr_task = next(t for c in data["categories"] for t in c["tasks"] if t["id"] == "ocr-auto-accept")
    assert ocr_task["formula"]["required"] == ["correct_accepts", "wrong_accepts", "readable_cells"]


def test_cli_text_lists_tasks_of_uninstalled_categories():
    result = CliRunner().invoke(categories_command, [])
    assert result.exit_code == 0, result.output
    for category in cats.CATEGORIES:
        assert category.name in result.output
        for t in category.tasks:
            assert t.id in result.output
    assert "[not installed]" in result.output


def test_cli_refuses_both_formats():
    result = CliRunner().invoke(categories_command, ["--markdown", "--json"])
    assert result.exit_code == 2


def test_main_cli_has_the_commands():
    from envirobench.cli import main

    result = CliRunner().invoke(main, ["categories", "--markdown"])
    assert result.exit_code == 0 and result.output == cats.render_markdown()


def test_a_type_must_agree_with_its_task_in_the_definition():
    # The conformance suite holds every installed type to this; here, the rule itself.
    assert cats.disagreements("table-separators", "Table separators", "component") == []
    problems = cats.disagreements("table-separators", "Table seps", "document")
    assert len(problems) == 2 and "LABEL 'Table seps'" in problems[0] and "TIER 'document'" in problems[1]
    assert cats.disagreements("acme-well-ids", "Anything", "site") == []  # a private type: no task


def test_a_type_may_not_declare_its_own_categories():
    from envirobench.benchmark import check_type_class
    from envirobench.testing import CountWords

    class Declares(CountWords):
        CATEGORIES = ("extract",)

    assert any("CATEGORIES" in p for p in check_type_class(Declares))
    assert check_type_class(CountWords) == []
