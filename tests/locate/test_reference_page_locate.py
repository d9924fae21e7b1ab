"""The reference adapter's `page-locate` solver: dates and identifiers read as one term in any
common form, pages chosen by anchors and words, and (slow) a partial run through core."""

from __future__ import annotations

import json

import pytest
from locate_kit import reference_run

from envirobench_locate.package import PACKAGE
from envirobench_reference_adapter.solvers.page_locate import choose, terms
from envirobench_reference_adapter.terms import identifier_key


@pytest.mark.parametrize(
    "text",
    ["2019-05-14", "05/14/2019", "May 14, 2019", "14 May 2019", "14 May. 2019", "May. 14, 2019"],
)
def test_dates_in_common_forms_are_one_term(text):
    anchors, _ = terms(f"sampled {text} at the site")
    assert anchors == {"date:2019-05-14"}


def test_identifiers_drop_punctuation_and_leading_zeros():
    assert identifier_key("MW-03") == identifier_key("MW3") == identifier_key("mw-3") == "mw3"
    assert identifier_key("GW-1719-80") == "gw171980"


def test_the_pages_holding_every_anchor_and_the_words_are_chosen():
    pages = [
        "Cover letter for the groundwater report",  # no anchors
        "Client Sample ID: MW-03 Date Sampled: 05/14/2019 Analyte Result benzene 12 toluene ND",
        "Client Sample ID: MW-3 Date Sampled: 08/20/2019 Analyte Result benzene 4.1",  # another day
        "Table 2. Results, May 14, 2019 Well benzene toluene MW-1 ND ND MW-3 12 ND",
        "Chain of custody MW-3 05/14/2019 10:42 GW 8260B",  # the sample without results
    ]
    question = "The page that reports benzene in MW-3 on 2019-05-14."
    assert choose(question, pages, "v1") == [2, 4]
    assert len(choose(question, pages, "bm25-top")) == 1


def test_a_question_without_anchors_takes_the_best_worded_pages():
    pages = [
        "Invoice 123 amount due",
        "ENVIRONMENTAL COVENANT Instrument No. 2019-000123 recorded",
        "The covenant runs with the land",
        "Deed Instrument No. 2001-000777 recorded",
    ]
    assert choose(
        "The page stating the recording number of the environmental covenant.", pages, "v1"
    ) == [2]


@pytest.mark.slow
def test_a_partial_run_through_core_scores_dev_questions(tmp_path):
    dev = PACKAGE.layout("page-locate").dataset_dir("synthetic-dev-v1")
    cases = [json.loads(line) for line in (dev / "cases.jsonl").read_text().splitlines()]
    first_file = [
        c["id"] for c in cases if c["input"]["document"] == cases[0]["input"]["document"]
    ][:4]
    metrics = reference_run(tmp_path, "page-locate", first_file)
    headline = metrics["profiles"]["pages"]["headline"]
    assert headline["questions"] == 4 and headline["page_f1"] > 0.5
