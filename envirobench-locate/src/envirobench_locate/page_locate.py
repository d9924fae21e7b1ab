"""Benchmark type `page-locate`: the page(s) of a long PDF that state a requested fact.

A case is one question (`Input.question`) about one long PDF of a site file (`Input.document`,
30 to 150 pages: a cover letter, a report with results tables, appendices of boring logs,
laboratory reports, chain-of-custody forms, photographs, a permit, recorded instruments and
invoices; the recorded instruments are scans, and in some files the boring logs). Several
questions share a file, and a small image of every page of it (`Input.thumbnails`, the same for
all its questions) that the report's page strip draws; the images are a rendering of the pages,
no answer, and nothing is scored on them. A system returns the *pages that state the fact*:
1-based page numbers (the PDF's first page is 1), any number of them, possibly none.

Which pages are the answer (envirobench_synth.locate.pagefacts): *every* page that states the
fact, i.e. prints its value together with what identifies it. A laboratory result asked for by
well, analyte and day is stated on the laboratory's results page of that sample, on the report's
results table that holds that well and day, and in a findings sentence that gives the value; all
of them are answers, and a system that finds only the laboratory page has recall 1/2 or 1/3.
Near misses are not answers: the same well on another day, another well on the same day, a chain
of custody that lists the sample without results, the deed's recording number when the
covenant's is asked for.

Scoring (one profile, `pages`, the default gate). Per question, with T the answer's pages and P
the predicted ones:

    true_positives   |P ∩ T|;  false_positives  |P − T|;  false_negatives  |T − P|
    page_f1          2|P ∩ T| ÷ (|P| + |T|) (0 for an empty prediction: T is never empty)
    exact            1 when P = T
    question         1 (the case's weight)

Errors (the gate uses them): ("missed-page", page) and ("extra-page", page).

Headline: `page_f1` (primary; the mean of the per-question F1, so every question weighs the
same however many pages state its fact), `page_precision` and `page_recall` (pooled over the
run's pages), `questions_exact` (share of questions answered with exactly the right pages) and
`questions`.

Positional baselines (docs/reference-scores.md): "the first page", "the last page" and the empty
answer (which scores 0: unlike a page-index default, saying nothing earns nothing).

The bootstrap resamples whole documents (`cluster`): questions about one file are not
independent.

Predictions are data: the strict converter reads them into `Prediction` (distinct page numbers
>= 1 in increasing order); a page past the end of the PDF is simply a page that states nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import attrs

import envirobench
from envirobench import Case, CaseScore, not_blank, pdf_path, set_counts, share

from .pages import page_numbers
from .thumbnails import thumbnail_paths

DATASETS = {
    "synthetic-dev-v1": "envirobench/page-locate-synthetic-dev-v1",
    "synthetic-test-v1": "envirobench/page-locate-synthetic-test-v1",
}
QuestionKind = Literal["result", "depth", "invoice", "permit-expiry", "covenant-recording"]


def _answer_pages(instance: Any, attribute: attrs.Attribute, value: tuple[int, ...]) -> None:
    if not value:
        raise ValueError(f"{attribute.name} is empty: every question's fact is stated on some page")
    page_numbers(instance, attribute, value)


@attrs.frozen
class Input:
    """One case: a question and the long PDF (dataset-relative path) it asks about.
    `thumbnails` are a small image of every page of the PDF (dataset-relative paths, page 1
    first) for the report; empty when the dataset has none."""

    document: str = attrs.field(validator=pdf_path)
    question: str = attrs.field(validator=not_blank)
    thumbnails: tuple[str, ...] = attrs.field(default=(), validator=thumbnail_paths)


@attrs.frozen
class Answer:
    """The truth: every page (1-based) that states the fact. `kind` (the question's kind),
    `near_misses` (pages of the same well and analyte on other days), `scanned` (an answer page is
    a scan) and `document_pages` (the PDF's length) describe the case for breakdowns and baselines
    and are not scored."""

    pages: tuple[int, ...] = attrs.field(validator=_answer_pages)
    kind: QuestionKind
    near_misses: tuple[int, ...] = attrs.field(validator=page_numbers)
    scanned: bool
    document_pages: int

    def __attrs_post_init__(self) -> None:
        if self.pages[-1] > self.document_pages:
            raise ValueError(
                f"pages: page {self.pages[-1]} is past the document's {self.document_pages} pages"
            )
        if set(self.pages) & set(self.near_misses):
            raise ValueError("near_misses: a page that states the fact is not a near miss")


@attrs.frozen
class Prediction:
    """A system's pages: every page it says states the fact. Pages are 1-based (the PDF's first
    page is 1), distinct and in increasing order; an empty list says no page does."""

    pages: tuple[int, ...] = attrs.field(validator=page_numbers)


class PageLocate(envirobench.BenchmarkType):
    ID = "page-locate"
    FORMAT = "envirobench.page-locate.v1"
    LABEL = "Page locate"
    SCORING_VERSION = "envirobench.page-locate.scores.v1"
    TIER = "document"
    PROFILES = ("pages",)
    HEADLINE = ("page_f1", "page_precision", "page_recall", "questions_exact", "questions")
    VIEWER = "page-strip"
    # The thumbnails are images, so core copies them into the report's report-assets/.
    SOURCE_FIELDS = ("document", "thumbnails")
    CLUSTER_UNIT = "document"

    def cluster(self, case: Case) -> str | None:
        return case.input.document

    def score_case(
        self, case: Case, answer: Answer, prediction: Prediction
    ) -> dict[str, CaseScore]:
        truth, predicted = set(answer.pages), set(prediction.pages)
        tp = len(truth & predicted)
        errors = sorted(
            [("missed-page", page) for page in truth - predicted]
            + [("extra-page", page) for page in predicted - truth],
            key=lambda error: (error[1], error[0]),
        )
        metrics = {
            **set_counts(truth, predicted),
            "page_f1": 2 * tp / (len(truth) + len(predicted)),
            "exact": 1.0 if truth == predicted else 0.0,
            "question": 1.0,
        }
        return {"pages": CaseScore(errors=tuple(errors), metrics=metrics)}

    def summarize_totals(
        self, profile: str, totals: Mapping[str, float], cases: int
    ) -> dict[str, float]:
        tp, fp, fn = totals["true_positives"], totals["false_positives"], totals["false_negatives"]
        return {
            "page_f1": totals["page_f1"] / totals["question"],
            "page_precision": share(tp, tp + fp) if tp + fp else 0.0,
            "page_recall": share(tp, tp + fn),
            "questions_exact": totals["exact"] / totals["question"],
            "questions": totals["question"],
        }
