"""site-timeline: events matched at the truth's date precision, the list order judged."""

from __future__ import annotations

import pytest
from site_kit import headline, score, timeline_answer

from envirobench_site.site_timeline import SiteTimeline


def correct() -> dict:
    return {"events": [dict(e) for e in timeline_answer()["events"]]}


def test_the_answer_predicted_back_is_perfect():
    assert score(SiteTimeline, timeline_answer(), correct()).errors == ()
    h = headline(SiteTimeline, timeline_answer(), correct())
    assert h["event_f1"] == 1.0 and h["order_agreement"] == 1.0 and h["source_accuracy"] == 1.0


def test_a_more_precise_date_matches_but_a_less_precise_one_does_not():
    prediction = correct()
    prediction["events"][0]["date"] = "1972-04-12"  # truth: 1972
    prediction["events"][1]["date"] = "1985-07"  # truth: 1985-07-02
    s = score(SiteTimeline, timeline_answer(), prediction)
    assert set(s.errors) == {
        ("missing-event", "ownership-transfer", "-", "1985-07-02"),
        ("extra-event", "ownership-transfer", "-", "1985-07"),
    }


def test_subjects_normalise_like_locations():
    prediction = correct()
    prediction["events"][0]["subject"] = "t 01"
    assert score(SiteTimeline, timeline_answer(), prediction).errors == ()
    prediction["events"][0]["subject"] = None
    assert ("missing-event", "tank-install", "T-1", "1972") in score(
        SiteTimeline, timeline_answer(), prediction
    ).errors


def test_the_list_order_is_judged_over_ordered_pairs():
    prediction = correct()
    events = prediction["events"]
    events[0], events[1] = events[1], events[0]
    s = score(SiteTimeline, timeline_answer(), prediction)
    assert s.errors == (("out-of-order", "tank-install", "T-1", "1972"),)
    # 5 events; the pair tank-removal 1998-10 / release 1998-10-12 is equal at month precision.
    assert s.metrics["order_pairs"] == 9 and s.metrics["order_concordant"] == 8
    assert headline(SiteTimeline, timeline_answer(), prediction)[
        "order_agreement"
    ] == pytest.approx(8 / 9)


def test_cover_page_dates_only():
    prediction = {
        "events": [
            {"kind": "nfa-letter", "date": "2021-02-01"},
            {"kind": "release", "date": "2020-01-01"},
        ]
    }
    h = headline(SiteTimeline, timeline_answer(), prediction)
    assert h["event_precision"] == 0.5 and h["event_recall"] == pytest.approx(1 / 5)
    assert "source_accuracy" in h and h["source_accuracy"] == 0.0
