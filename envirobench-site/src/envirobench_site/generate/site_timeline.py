"""The generator of the `site-timeline` datasets (dev and test), and their fixtures.

One case per site of the split (site_records.py); the answer is `build_site(site).answers
["site-timeline"]`, typed strictly (envirobench_site.site_timeline.Answer). Every true kind must
be one the case input lists.

Fixtures: correct.json predicts every true event in order with its source; wrong.json plants,
each on its own site: an event a year off, an event left out, the first two events with
different dates listed in the wrong order.
"""

from __future__ import annotations

from typing import Any

from envirobench import FixturePlan, structure, unstructure

from ..site_timeline import Answer, SiteTimeline, TrueEvent
from . import site_records
from .site_records import SiteMistake

SEED = 15_004  # the records' seeds are the site specs' (envirobench_synth.site)


def answer_of(site: Any) -> Answer:
    """The answer of a site (a shipped site's ID or a SiteSpec)."""
    answer = structure(
        site_records.built(site).answers["site-timeline"], Answer, path="$.answer"
    )
    kinds = set(site_records.built(site).input["event_kinds"])
    stray = sorted({e.kind for e in answer.events} - kinds)
    if stray:
        raise ValueError(f"{site_records.site_id(site)}: event kinds {stray} are not in the input's list")
    return answer


def described(answers: list[Answer]) -> str:
    """What the dataset's description says of the split's answers."""
    events = [e for a in answers for e in a.events]
    partial = sum(1 for e in events if len(e.date) < 10)
    return (
        f"The answer is every dated event of the site in date order with the page that first "
        f"states it: {len(events)} events ({partial} dated only to the month or year)."
    )


generate = site_records.site_generator(SiteTimeline, seed=SEED, answer_of=answer_of, what=described)


def predicted(event: TrueEvent) -> dict[str, Any]:
    return {
        "kind": event.kind,
        "date": event.date,
        "subject": event.subject,
        "source": unstructure(event.source),
    }


MISTAKES = (
    SiteMistake("year", "an event dated a year off"),
    SiteMistake("drop", "an event left out"),
    SiteMistake("swap", "two events listed out of date order"),
)


def _swappable(answer: Answer) -> int | None:
    """The index of the first event whose next one has a later date at the coarser precision."""
    for i in range(len(answer.events) - 1):
        a, b = answer.events[i].date, answer.events[i + 1].date
        size = min(len(a), len(b))
        if a[:size] < b[:size]:
            return i
    return None


def fits(mistake: SiteMistake, answer: Answer) -> bool:
    if mistake.change == "swap":
        return _swappable(answer) is not None
    return bool(answer.events)


# Case ID -> the mistake wrong.json makes there: each on its own site.
planted = FixturePlan.first_fitting(MISTAKES, fits, answer=Answer, unit="site")


def wrong_prediction(answer: Answer, mistake: SiteMistake) -> dict[str, Any]:
    items = [predicted(e) for e in answer.events]
    if mistake.change == "drop":
        return {"events": items[1:]}
    if mistake.change == "year":
        date = items[0]["date"]
        return {"events": [{**items[0], "date": f"{int(date[:4]) - 1:04d}{date[4:]}"}, *items[1:]]}
    i = _swappable(answer)
    items[i], items[i + 1] = items[i + 1], items[i]
    return {"events": items}


correct_prediction = site_records.predicted_back("events", predicted)


FIXTURES = FixturePlan(
    Answer,
    correct=correct_prediction,
    planted=planted,
    wrong=lambda mistake, answer, prediction: wrong_prediction(answer, mistake),
)
