"""docs/reference-scores.md's Site table for `site-timeline`: blind baselines and columns (read by
benchmarks/reference_scores.py --site)."""

from _spec_parts import count, f1_precision_recall, share
from _units import CLUSTERED_SPLITS, PER_SITE, SUMMARY_SPLIT, unit_intervals  # noqa: F401  (the script reads all four)

BENCHMARK = "site-timeline"
UNIT = "events of the split (units, not sites; see benchmarks/site_specs/_units.py)"
INTRO = (
    "The reference adapter (`solvers/site_timeline.py`, developed on the dev split only) on both splits. Primary: "
    "event F1 (kind, subject and date at the truth's precision); the list's date order (pairs in order) beside "
    "it. Baselines from the answer key: only the events stated on a volume's first page (a stand-in for the dates "
    "of the cover pages, what a reader of covers alone could list), and every listed kind once in the record's "
    "final year."
)


def cover_pages_only(case_input, answer):
    return {
        "events": [
            {
                "kind": e.kind,
                "date": e.date,
                "subject": e.subject,
                "source": {"file": e.source.file, "page": 1},
            }
            for e in answer.events
            if e.source.page == 1
        ]
    }


def every_kind_in_the_last_year(case_input, answer):
    return {
        "events": [{"kind": kind, "date": case_input.as_of[:4]} for kind in case_input.event_kinds]
    }


BASELINES = {
    "only the dates of the cover pages": cover_pages_only,
    "every kind once, in the record's last year": every_kind_in_the_last_year,
}
COLUMNS = (
    *f1_precision_recall("event", "event F1"),
    share("order_agreement", "in order"),
    share("source_accuracy", "source page"),
    count("events"),
)
