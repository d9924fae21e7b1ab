"""Benchmark type `document-split`: a scanned bundle split into its documents.

A case is one scanned bundle (`Input.bundle`, one PDF): several documents of a site file
(letters, invoices, laboratory reports, certificates, permits, recorded instruments, chain of
custody forms, boring logs, photograph logs, fax cover sheets, transmittals, report excerpts) put
one after the other and scanned together. A system returns the *first page of every document*,
as 1-based page numbers (the bundle's first page is page 1). The input also names a small image of
every page (`Input.thumbnails`) that the report's page strip draws; they are a rendering of the
pages, no answer, and nothing is scored on them.

What counts as a document (the answer's rules, from envirobench_synth.locate.bundles): every
document is one however many pages it has, and a later page is never a first page even when it
reprints the letterhead or repeats the heading; a fax cover sheet is a document of its own (the
fax machine's page counter counts the transmission, not the documents); a blank separator sheet
is not a document and belongs to the document before it; a report excerpt that starts at its
page 5 is a document whose first page is that page.

Scoring (one profile, `split`, the default gate). Page 1 always starts a document, so it is not
scored: the *boundaries* of a bundle are its first pages other than page 1 (a prediction may list
page 1 or not; either way it is ignored). Per bundle:

    true_positives    predicted boundaries that are true boundaries (exactly the same page)
    false_positives   predicted boundaries that are not
    false_negatives   true boundaries not predicted
    tolerant_matches  the size of the largest one-to-one matching of predicted to true boundaries
                      in which a predicted page p may match a true page t when |p - t| <= 1
                      (computed by a sweep over both sorted lists: each true boundary, in page
                      order, takes the lowest unmatched predicted page within one page of it;
                      on a line this greedy sweep gives the largest matching). One predicted
                      page never matches two true boundaries, nor two predictions one.
    boundaries        true boundaries; predicted: predicted boundaries
    bundle_exact      1 when the predicted first pages are exactly the true ones

Errors (the gate uses them): ("missed-boundary", page) and ("false-boundary", page), strict (no
tolerance).

Headline: `boundary_f1` (primary; F1 over the run's pooled counts, 2TP ÷ (2TP + FP + FN), no
tolerance), `boundary_precision`, `boundary_recall`, `tolerant_f1` (±1 page: 2M ÷ (predicted +
boundaries), M the tolerant matches), `tolerant_precision` (M ÷ predicted), `tolerant_recall`
(M ÷ boundaries), `bundles_exact` and `boundaries`. The tolerant measure is reported beside the
primary, never instead of it: a split one page off still puts a page in the wrong document.

Baselines on any bundle set: "every page a first page" has recall 1 and a precision equal to the
share of pages that start documents; "only page 1" predicts no boundary and scores 0.

Predictions are data: the strict converter reads them into `Prediction` (distinct page numbers
>= 1, in increasing order) and the scorer only compares them with the answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

import envirobench
from envirobench import Case, CaseScore, f1, pdf_path, set_counts, share

from .pages import page_numbers
from .thumbnails import thumbnail_paths

DATASETS = {
    "synthetic-dev-v1": "envirobench/document-split-synthetic-dev-v1",
    "synthetic-test-v1": "envirobench/document-split-synthetic-test-v1",
}
TOLERANCE = 1  # pages either way for the tolerant measure


def _true_first_pages(instance: Any, attribute: attrs.Attribute, value: tuple[int, ...]) -> None:
    page_numbers(instance, attribute, value)
    if not value or value[0] != 1:
        raise ValueError(
            f"{attribute.name} must start with page 1 (the bundle's first document), got {list(value)}"
        )


@attrs.frozen
class Input:
    """One case: the scanned bundle, a dataset-relative PDF path. `thumbnails` are a small image
    of every page of the bundle (dataset-relative paths, page 1 first) for the report; empty
    when the dataset has none."""

    bundle: str = attrs.field(validator=pdf_path)
    thumbnails: tuple[str, ...] = attrs.field(default=(), validator=thumbnail_paths)


@attrs.frozen
class Answer:
    """The truth: the first page (1-based) of every document, page 1 first. `pages` (the bundle's
    length), `kinds` (each document's kind, in order) and `traps` describe the bundle for
    breakdowns and are not scored."""

    first_pages: tuple[int, ...] = attrs.field(validator=_true_first_pages)
    pages: int
    kinds: tuple[str, ...]
    traps: tuple[str, ...]

    def __attrs_post_init__(self) -> None:
        if self.first_pages[-1] > self.pages:
            raise ValueError(
                f"first_pages: page {self.first_pages[-1]} is past the bundle's {self.pages} pages"
            )
        if len(self.kinds) != len(self.first_pages):
            raise ValueError(
                f"kinds: {len(self.kinds)} kinds for {len(self.first_pages)} documents"
            )


@attrs.frozen
class Prediction:
    """A system's split: the first page of every document it found. Pages are 1-based (the
    bundle's first page is 1), distinct and in increasing order; page 1 may be listed or not
    (it always starts a document and is not scored)."""

    first_pages: tuple[int, ...] = attrs.field(validator=page_numbers)


def boundaries(first_pages: Sequence[int]) -> list[int]:
    """The scored boundaries: the first pages other than page 1, in order."""
    return [page for page in first_pages if page != 1]


def tolerant_matches(
    truth: Sequence[int], predicted: Sequence[int], tolerance: int = TOLERANCE
) -> int:
    """The size of the largest one-to-one matching with |predicted - true| <= tolerance.

    Both lists sorted; each true page, in order, takes the lowest unmatched predicted page within
    reach. For points on a line with a symmetric window this greedy sweep is optimal (an exchange
    argument: a true page never gains by skipping the lowest reachable prediction, which no later
    true page can reach more easily)."""
    matched = 0
    position = 0
    predicted = sorted(predicted)
    for page in sorted(truth):
        while position < len(predicted) and predicted[position] < page - tolerance:
            position += 1
        if position < len(predicted) and predicted[position] <= page + tolerance:
            matched += 1
            position += 1
    return matched


class DocumentSplit(envirobench.BenchmarkType):
    ID = "document-split"
    FORMAT = "envirobench.document-split.v1"
    LABEL = "Document split"
    SCORING_VERSION = "envirobench.document-split.scores.v1"
    TIER = "document"
    PROFILES = ("split",)
    HEADLINE = (
        "boundary_f1",
        "boundary_precision",
        "boundary_recall",
        "tolerant_f1",
        "tolerant_precision",
        "tolerant_recall",
        "bundles_exact",
        "boundaries",
    )
    VIEWER = "page-strip"
    # The thumbnails are images, so core copies them into the report's report-assets/.
    SOURCE_FIELDS = ("bundle", "thumbnails")

    def score_case(
        self, case: Case, answer: Answer, prediction: Prediction
    ) -> dict[str, CaseScore]:
        truth = boundaries(answer.first_pages)
        predicted = boundaries(prediction.first_pages)
        true_set, predicted_set = set(truth), set(predicted)
        errors: list[tuple[str, int]] = [
            ("missed-boundary", page) for page in truth if page not in predicted_set
        ]
        errors += [("false-boundary", page) for page in predicted if page not in true_set]
        errors.sort(key=lambda error: (error[1], error[0]))
        metrics = {
            **set_counts(true_set, predicted_set),
            "tolerant_matches": float(tolerant_matches(truth, predicted)),
            "boundaries": float(len(truth)),
            "predicted": float(len(predicted)),
            "bundle_exact": 1.0 if true_set == predicted_set else 0.0,
        }
        return {"split": CaseScore(errors=tuple(errors), metrics=metrics)}

    def summarize_totals(
        self, profile: str, totals: Mapping[str, float], cases: int
    ) -> dict[str, float]:
        tp, fp, fn = totals["true_positives"], totals["false_positives"], totals["false_negatives"]
        matches, truth, predicted = (
            totals["tolerant_matches"],
            totals["boundaries"],
            totals["predicted"],
        )
        return {
            "boundary_f1": f1(tp, fp, fn),
            "boundary_precision": share(tp, tp + fp) if predicted else 0.0,
            "boundary_recall": share(tp, truth),
            "tolerant_f1": 1.0 if truth + predicted == 0 else 2 * matches / (truth + predicted),
            "tolerant_precision": share(matches, predicted) if predicted else 0.0,
            "tolerant_recall": share(matches, truth),
            "bundles_exact": totals["bundle_exact"] / cases,
            "boundaries": truth,
        }
