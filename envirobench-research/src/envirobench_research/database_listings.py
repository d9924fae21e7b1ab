"""Benchmark type `database-listings`: a regulatory database report's listings mapped to sites.

A case is one database report (`Input.document`, a PDF of two to six pages; about one in eight is
scanned, its pages after the first images without a text layer) of the kind a Phase I assessor
orders: the subject property, then every record found in each searched database (underground
tanks, leaking tanks, spills, hazardous-waste generators, permits, enforcement), each with a site
name, an address, a distance and direction from the subject and the elevation relative to it.
The case input gives what the client knows: the subject property's name and address
(`Input.subject`, id "subject") and the neighbours' (`Input.neighbours`, ids "N1", "N2", ...;
a name may carry a former name or a d/b/a), and the record numbers of the listings to map
(`Input.listings`, each printed in the report).

A system answers, for every listing, the site it is (`Prediction.sites`, record number -> label):
"subject", a neighbour's id, "other" (a site at another address) or "unmappable" (the listing
cannot be placed).

The key (the truth rule of envirobench_synth.research.listings):

- a listing with a full street address is the site at that address: the same number (or a
  number inside a site's range, "1200-1250 Main St"; a listing's own range, "1415-1421", is the
  site whose number it holds), street name, directional and city, however the suffix,
  directional or unit is written ("St"/"Street", "N."/"North", "Suite 200"/"#200"), however a
  database's short field cut a long street name (COMMER or CMMRC for Commerce), and *under
  whatever name* (a former occupant at the subject's address is the subject); another number,
  directional, street or city is "other", even under a known site's name;
- a listing with a street but no number is the site on that street whose name, former name or
  d/b/a it carries (any corporate suffix form, "Inc."/"Incorporated"); "unmappable" when no known
  site on that street has its name;
- a listing without a street (a geocoded point, "address not reported") is "unmappable".

Scoring (one profile, `listings`, the default gate), per listing with t its true label and p the
predicted one (a listing the prediction leaves out has no label, which is never right):

    correct          1 when p = t
    match_tp         t is a known site (subject or neighbour) and p = t
    match_fp         p is a known site and p != t (a listing put on a site it is not)
    match_fn         t is a known site and p != t (a listing of a site not put on it)

Headline: `match_f1` (primary: 2 TP / (2 TP + FP + FN) pooled over the run's listings, the F1 of
putting listings on the subject and the neighbours, so confusing "other" with "unmappable" costs
nothing here but an accuracy point), `listing_accuracy` (pooled share of listings labelled
right, all four kinds of label), `match_precision`, `match_recall` (each left out (n/a) where undefined: precision when nothing was claimed, recall when nothing was to be found), `listings`, `reports`.
Component score = 100 x match_f1.

Errors (the gate uses them): ("wrong-site", record, predicted label), ("missing-listing",
record) and ("unknown-listing", record) for a record number the case does not list (ignored
otherwise).

Blind baselines (docs/reference-scores.md): every listing "other" (match F1 0) and every
listing the subject; neither reads the report.

Traps, counted per listing in `Answer.traps`: address-variant, other-occupant, in-range,
named-street-only, same-name-elsewhere, near-number, other-directional, other-city, other-site,
unmappable-point, unmappable-street, truncated-street, listing-range (their meaning in
envirobench_synth.research.listings).

Predictions are data: labels must be "subject", "other", "unmappable" or a neighbour id
("N" and digits); record numbers are strings of at most 40 characters.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import attrs

import envirobench
from envirobench import Case, CaseScore, f1, not_blank, pdf_path, precision_recall, share

DATASETS = {
    "synthetic-dev-v1": "envirobench/database-listings-synthetic-dev-v1",
    "synthetic-test-v1": "envirobench/database-listings-synthetic-test-v1",
}
FIXED_LABELS = ("subject", "other", "unmappable")
NEIGHBOUR_ID = re.compile(r"N[1-9][0-9]?")
RECORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9.\-]{0,39}")
TRAPS = (
    "address-variant", "other-occupant", "in-range", "named-street-only", "same-name-elsewhere",
    "near-number", "other-directional", "other-city", "other-site", "unmappable-point",
    "unmappable-street", "truncated-street", "listing-range",
)  # fmt: skip


def is_label(label: str) -> bool:
    return label in FIXED_LABELS or NEIGHBOUR_ID.fullmatch(label) is not None


def _labels(instance: Any, attribute: attrs.Attribute, value: Mapping[str, str]) -> None:
    for record, label in value.items():
        if RECORD.fullmatch(record) is None:
            raise ValueError(f"{attribute.name}: {record[:60]!r} is not a record number")
        if not is_label(label):
            raise ValueError(
                f"{attribute.name}[{record!r}]: {label[:60]!r} is not a label (subject, other, "
                "unmappable or a neighbour id such as N1)"
            )


def _records(instance: Any, attribute: attrs.Attribute, value: tuple[str, ...]) -> None:
    if not value:
        raise ValueError(f"{attribute.name} is empty")
    if len(set(value)) != len(value):
        raise ValueError(f"{attribute.name} repeats a record number")
    for record in value:
        if RECORD.fullmatch(record) is None:
            raise ValueError(f"{attribute.name}: {record[:60]!r} is not a record number")


@attrs.frozen
class SiteRef:
    """A site as the client names it: `id` ("subject", "N1"...), name and address."""

    id: str
    name: str = attrs.field(validator=not_blank)
    address: str = attrs.field(validator=not_blank)


@attrs.frozen
class Input:
    """One report (dataset-relative PDF), the client's subject and neighbours, and the record
    numbers of the listings to map."""

    document: str = attrs.field(validator=pdf_path)
    subject: SiteRef
    neighbours: tuple[SiteRef, ...]
    listings: tuple[str, ...] = attrs.field(validator=_records)

    def __attrs_post_init__(self) -> None:
        if self.subject.id != "subject":
            raise ValueError("subject.id must be 'subject'")
        ids = [n.id for n in self.neighbours]
        if any(NEIGHBOUR_ID.fullmatch(i) is None for i in ids) or len(set(ids)) != len(ids):
            raise ValueError(f"neighbours: ids must be distinct N1, N2, ..., got {ids}")


@attrs.frozen
class Answer:
    """The truth: each listing's label (`sites`); `traps` (each listing's trap), `scanned` and
    `pages` describe the case for breakdowns and are not scored."""

    sites: dict[str, str] = attrs.field(validator=_labels)
    traps: dict[str, str]
    scanned: bool
    pages: int

    def __attrs_post_init__(self) -> None:
        if set(self.traps) != set(self.sites):
            raise ValueError("traps: must name exactly the listings of sites")
        unknown = sorted(set(self.traps.values()) - set(TRAPS))
        if unknown:
            raise ValueError(f"traps: unknown trap(s) {unknown}")


@attrs.frozen
class Prediction:
    """A system's labels: record number -> "subject", a neighbour id ("N1"), "other" or
    "unmappable". A listing left out has no label (scored wrong)."""

    sites: dict[str, str] = attrs.field(validator=_labels)


def known_sites(case_input: Input) -> set[str]:
    return {"subject", *(n.id for n in case_input.neighbours)}


class DatabaseListings(envirobench.BenchmarkType):
    ID = "database-listings"
    FORMAT = "envirobench.database-listings.v1"
    LABEL = "Database listings"
    SCORING_VERSION = "envirobench.database-listings.scores.v1"
    TIER = "document"
    PROFILES = ("listings",)
    HEADLINE = (
        "match_f1",
        "listing_accuracy",
        "match_precision",
        "match_recall",
        "listings",
        "reports",
    )
    SOURCE_FIELDS = ("document",)

    def score_case(
        self, case: Case, answer: Answer, prediction: Prediction
    ) -> dict[str, CaseScore]:
        known = known_sites(case.input)
        tp = fp = fn = correct = 0
        errors: list[tuple] = []
        # The answer key names the listings scored (a corrected key may re-key a case's listings).
        for record, truth in answer.sites.items():
            predicted = prediction.sites.get(record)
            if predicted is None:
                errors.append(("missing-listing", record))
            elif predicted != truth:
                errors.append(("wrong-site", record, predicted))
            correct += predicted == truth
            tp += truth in known and predicted == truth
            fn += truth in known and predicted != truth
            fp += predicted in known and predicted != truth
        errors += [
            ("unknown-listing", r) for r in sorted(set(prediction.sites) - set(answer.sites))
        ]
        metrics = {
            "correct": float(correct),
            "match_tp": float(tp),
            "match_fp": float(fp),
            "match_fn": float(fn),
            "listing": float(len(answer.sites)),
            "report": 1.0,
        }
        return {"listings": CaseScore(errors=tuple(sorted(errors, key=repr)), metrics=metrics)}

    def summarize_totals(
        self, profile: str, totals: Mapping[str, float], cases: int
    ) -> dict[str, float]:
        tp, fp, fn = totals["match_tp"], totals["match_fp"], totals["match_fn"]
        return {
            "match_f1": f1(tp, fp, fn),
            "listing_accuracy": share(totals["correct"], totals["listing"]),
            **precision_recall("match", tp, fp, fn),
            "listings": totals["listing"],
            "reports": totals["report"],
        }
