"""Benchmark type `site-timeline`: the dated events of a site, in order, each with its source.

A case is one site's whole document record (`records.SiteInput`); `Input.event_kinds` lists the
kinds of event a system may name (ownership transfers, operations starting and ending, tank
installations, tightness tests and removals, releases, investigations, remediation, closure,
regulatory letters...). A system returns the events (`Prediction.events`) in date order: the
kind, the date (`YYYY-MM-DD`, or `YYYY-MM` or `YYYY` where the record gives no more), the subject
(a tank ID like `T-2`, a well, a parcel; null when the event has none) and optionally the page
that states it (`source`).

**Truth** (envirobench_synth.site): one event per dated occurrence the record states, at the
precision the record gives (a deed's day; "the tanks were installed in 1972"), its source the
earliest-issued document that states it; the list is in date order.

**Matching.** A predicted event matches a true one with the same kind, the same subject (null
and blank alike; otherwise normalised as records.py normalises a location: `T-02` == `t2`) and
the same date *at the truth's precision*: the predicted date cut to the truth's length equals
it, so `1972-04-12` matches a true `1972` but `1972` does not match a true `1972-04-12`.
Predicted events are taken in their order; each takes the unmatched true event it matches with
the most precise date (the first in the truth's order among equals).

**Scoring** (one profile, `events`, the default gate); units are the true events and the
unmatched predicted ones.
- event_tp: matched events; event_fp: predicted events matching none; event_fn: true events
  matched by none. event_f1 (primary), event_precision, event_recall (n/a where undefined).
- order_agreement: over the pairs of matched events whose true dates are ordered (compared at
  the coarser precision of the two; equal there: not ordered), the share that the prediction
  lists in that order (Kendall's concordance on the list order).
- source_accuracy: among matched events, the share citing the true source page.

Errors: ("missing-event", kind, subject, date), ("extra-event", kind, subject, date),
("out-of-order", kind, subject, date) for a matched event listed before an event it follows.
Headline: event_f1, event_precision, event_recall, order_agreement, source_accuracy, events.

Traps: dates at year or month precision, one event told by several documents (the earliest
states it first), tanks renamed by later owners, draft reports dated before their finals, scanned
deeds. Blind baseline (docs/reference-scores.md): "only the dates of the cover pages". The
bootstrap there resamples events within a split.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from envirobench import Case, not_blank

from .records import (
    Citation,
    SiteType,
    Unit,
    bounded_items,
    bounded_text,
    location_key,
    matching_headline,
    partial_date,
    ratio,
)
from .scans import ScannedPage

DATASETS = {
    "synthetic-dev-v1": "envirobench/site-timeline-synthetic-dev-v1",
    "synthetic-test-v1": "envirobench/site-timeline-synthetic-test-v1",
    # the many small test sites (issue 33: intervals by site); the public three stay the headline
    "synthetic-test-sites20-v1": "envirobench/site-timeline-synthetic-test-sites20-v1",
}


def subject_key(subject: str | None) -> str:
    return "" if subject is None else location_key(subject)


@attrs.frozen
class TrueEvent:
    kind: str = attrs.field(validator=not_blank)
    date: str = attrs.field(validator=partial_date)
    subject: str | None
    source: Citation


@attrs.frozen
class Answer:
    events: tuple[TrueEvent, ...]
    scan_pages: tuple[ScannedPage, ...] = ()  # the record's scanned pages as filed (scans.py): never scored

    def __attrs_post_init__(self) -> None:
        dates = [e.date for e in self.events]
        if dates != sorted(dates):
            raise ValueError("events: the truth is in date order")


@attrs.frozen
class PredictedEvent:
    kind: str = attrs.field(validator=bounded_text)
    date: str = attrs.field(validator=partial_date)
    subject: str | None = attrs.field(default=None, validator=bounded_text)
    source: Citation | None = None


@attrs.frozen
class Prediction:
    events: tuple[PredictedEvent, ...] = attrs.field(validator=bounded_items)


COUNTS = (
    "event_tp",
    "event_fp",
    "event_fn",
    "order_pairs",
    "order_concordant",
    "source_right",
    "events",
)


def _ordered(a: str, b: str) -> int:
    """-1, 0 or 1: a before, with or after b, compared at the coarser precision of the two."""
    size = min(len(a), len(b))
    return (a[:size] > b[:size]) - (a[:size] < b[:size])


def _shown(kind: str, subject: str | None, date: str) -> tuple[str, str, str]:
    return (kind[:80], (subject or "-")[:80], date)


class SiteTimeline(SiteType):
    ID = "site-timeline"
    FORMAT = "envirobench.site-timeline.v1"
    LABEL = "Site timeline"
    SCORING_VERSION = "envirobench.site-timeline.scores.v1"
    PROFILES = ("events",)
    PROFILE = "events"
    HEADLINE = (
        "event_f1",
        "event_precision",
        "event_recall",
        "order_agreement",
        "source_accuracy",
        "events",
    )
    COUNTS = COUNTS

    def units(self, case: Case, answer: Answer, prediction: Prediction) -> list[Unit]:
        truth = answer.events
        by_group: dict[tuple[str, str], list[int]] = {}
        for index, event in enumerate(truth):
            by_group.setdefault((event.kind, subject_key(event.subject)), []).append(index)
        for indices in by_group.values():  # the most precise date first, then the truth's order
            indices.sort(key=lambda i: (-len(truth[i].date), i))
        matched: dict[int, int] = {}  # true index -> predicted index
        extra: list[int] = []
        for p_index, event in enumerate(prediction.events):
            candidates = by_group.get((event.kind, subject_key(event.subject)), ())
            found = next(
                (
                    i
                    for i in candidates
                    if i not in matched
                    and len(event.date) >= len(truth[i].date)
                    and event.date[: len(truth[i].date)] == truth[i].date
                ),
                None,
            )
            if found is None:
                extra.append(p_index)
            else:
                matched[found] = p_index
        units = []
        pairs = sorted(matched)
        for i, event in enumerate(truth):
            counts = dict.fromkeys(COUNTS, 0.0)
            counts["events"] = 1.0
            shown = _shown(event.kind, event.subject, event.date)
            errors = []
            if i not in matched:
                counts["event_fn"] = 1.0
                errors.append(("missing-event", *shown))
            else:
                counts["event_tp"] = 1.0
                source = prediction.events[matched[i]].source
                if source is not None and source.key == event.source.key:
                    counts["source_right"] = 1.0
                # The pairs this event opens: with each later-dated matched event.
                for j in pairs:
                    order = _ordered(event.date, truth[j].date)
                    if order < 0:
                        counts["order_pairs"] += 1.0
                        if matched[i] < matched[j]:
                            counts["order_concordant"] += 1.0
                        elif ("out-of-order", *shown) not in errors:
                            errors.append(("out-of-order", *shown))
            units.append(Unit(errors=tuple(errors), metrics=counts))
        for p_index in extra:
            event = prediction.events[p_index]
            counts = dict.fromkeys(COUNTS, 0.0)
            counts["event_fp"] = 1.0
            units.append(
                Unit(
                    errors=(("extra-event", *_shown(event.kind, event.subject, event.date)),),
                    metrics=counts,
                )
            )
        return units

    def headline(self, totals: Mapping[str, float]) -> dict[str, float]:
        out = matching_headline(totals, "event")
        out.update(ratio(totals, "order_agreement", "order_concordant", "order_pairs"))
        out.update(ratio(totals, "source_accuracy", "source_right", "event_tp"))
        out["events"] = totals["events"]
        return out
