"""The reference adapter's `document-split` solver: page marks (the fax counter dropped), blank
pages, the decision from page cues, and a partial run through core on dev bundles."""

from __future__ import annotations

import json

import numpy as np
import pytest
from locate_kit import reference_run

from envirobench_locate.package import PACKAGE
from envirobench_reference_adapter.solvers.document_split import (
    PageCues,
    decide,
    layout_cues,
    page_mark,
    read_cues,
)


@pytest.mark.parametrize(
    ("top", "bottom", "mark"),
    [
        ("", "Page 1 of 3", 1),
        ("", "Pige 2 ol 3", 2),  # OCR misreadings of a footer
        ("Sheet 1 of 2", "", 1),
        ("Mrs. Quist 12/04/2013 Page 2", "", 2),
        ("", "- 4 -", 4),
        (
            "MAY-14-2019 10:42 FROM: 503-555-0142 HARROW P.003/005",
            "",
            None,
        ),  # a fax counter is not a page mark
        ("Recorded 06/28/2014 10:02 AM Instrument No. 2014-764144", "", None),
        ("Ju 24 2014", "", None),
    ],
)
def test_page_marks(top, bottom, mark):
    assert page_mark(top, bottom) == mark


def cue(*, blank=False, mark=None, heading=False, opening=False, top=""):
    return PageCues(blank, mark, heading, np.zeros(240), top, "", opening)


def test_the_decision_follows_blanks_marks_and_headings():
    pages = [
        cue(mark=1, top="alpha lab report"),
        cue(mark=2, top="alpha lab report"),
        cue(blank=True),
        cue(heading=True, top="harbor invoice"),  # after a blank: a new document
        cue(heading=True, top="harbor invoice"),  # the same header again: the same document
        cue(heading=True, top="certificate of disposal"),  # a new heading: a new document
        cue(opening=True, top="harbor invoice"),  # a letter's opening under a known letterhead
        cue(mark=5, heading=True, top="findings"),  # a later page by its mark
    ]
    assert decide(pages, layout=True) == [1, 4, 6, 7]
    assert decide(pages, layout=False) == [1, 4]


def test_a_blank_page_is_found_by_its_ink():
    white = np.full((1100, 850), 255, dtype=np.uint8)
    assert read_cues(white, None, layout=True).blank
    page = white.copy()
    page[100:130, 80:700] = 0  # a heading
    for top in range(200, 700, 20):
        page[top : top + 10, 80:780] = 0  # body lines
    heading, opening = layout_cues(page < 128)
    assert heading and not opening


def test_a_partial_run_through_core_scores_dev_bundles(tmp_path):
    dev = PACKAGE.layout("document-split").dataset_dir("synthetic-dev-v1")
    answers = [json.loads(line) for line in (dev / "answers.jsonl").read_text().splitlines()]
    small = sorted(answers, key=lambda a: a["answer"]["pages"])[:2]
    metrics = reference_run(tmp_path, "document-split", [a["id"] for a in small])
    headline = metrics["profiles"]["split"]["headline"]
    assert set(metrics["cases"]) == {a["id"] for a in small}
    assert 0.0 <= headline["boundary_f1"] <= 1.0 and headline["boundaries"] >= 2
