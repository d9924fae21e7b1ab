"""Benchmark type `document-type`: each document of a site file classified by its kind.

A case is one document of a site file as a PDF (`Input.document`), born digital or scanned. A
system returns its kind (`Prediction.kind`), one of KINDS:

    laboratory-report  a laboratory's report of analytical results (whatever its title: a
                       "certificate of analysis" is a laboratory report, not a certificate)
    phase-i-report     a Phase I environmental site assessment (records, reconnaissance,
                       recognized environmental conditions; no sampling)
    phase-ii-report    a Phase II assessment or subsurface investigation (borings, sampling)
    monitoring-report  a periodic groundwater monitoring or sampling report
    letter             correspondence (whatever it encloses or refers to)
    invoice            a bill for goods or services
    permit             a permit, licence or authorization issued by an agency
    certificate        a certificate of disposal, completion, destruction, insurance ...
    deed               a recorded conveyance of real property
    lease              a lease of real property
    contract           an agreement between parties other than a lease or a deed
    boring-log         the log of a soil boring or well
    photo-page         a page of site photographs with captions
    chain-of-custody   a chain-of-custody record for samples
    transmittal        a transmittal form listing what is sent
    remedial-action-plan  a plan proposing cleanup (remedial action plan, corrective action
                       plan, remediation work plan): goals, alternatives, a remedy to come
    closure-report     a report of cleanup completed (confirmation sampling, disposal, wells to
                       decommission) asking for closure / no further action
    data-validation-report  a reviewer's evaluation of a laboratory's data (qualifiers,
                       holding times, blanks, usability), not the laboratory's own report

The truth is what the document *is* (purpose, scope, sections), never what its first page,
title or body names (envirobench_synth.locate.documents.sample_document):
    - a document behind a cover letter or a fax cover sheet is the document behind it; a
      report's table of contents changes nothing;
    - an excerpt (a report's middle pages only: no letterhead, title or signature) is the kind of
      the report it comes from;
    - a limited site investigation is a phase-ii-report (a Phase I collects no samples; a
      monitoring report is one event of a standing program; a remedial action plan proposes
      the cleanup; a closure report documents it done);
    - a no-further-action (closure) letter and a notice of violation are letters;
    - an easement and an environmental covenant are deeds (recorded instruments burdening the
      land); a lease amendment is a lease;
    - an agency's tank registration certificate is a permit; a tank tightness-test certificate
      is a certificate; a laboratory's bill is an invoice;
    - a title naming another kind (a laboratory report titled "Certificate of analysis", a
      monitoring report titled as an investigation) does not change the kind.

Scoring (the one profile, `kind`, is the default gate). Per document: the error
("wrong-kind", answer kind, predicted kind) when the kinds differ, and counts from which the
run's measures are pooled: `correct` (1 or 0), `truth <kind>`, `predicted <kind>`, `right <kind>` and, for a wrong
kind, `confused <answer kind> as <predicted kind>`.

Headline: `macro_f1` (primary): the mean over kinds of each kind's F1 (2 TP / (2 TP + FP + FN),
pooled over the run), over the kinds that occur in the answers or the predictions of the run
(a kind neither present nor predicted has no F1 and is left out); `accuracy` (share of
documents of the right kind); `documents`. Beside them, for the report: `f1 <kind>` for each
kind, and the confusion matrix as the count of each confusion that occurred,
`confused <answer kind> as <predicted kind>` (the diagonal is `right <kind>`; a cell absent from
the headline is 0).

Predictions are data: the strict converter reads them into `Prediction` (one of the KINDS
literals; anything else is refused, naming the field); nothing is evaluated.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import attrs

import envirobench
from envirobench import Case, CaseScore, pdf_path

# Each dataset folder under benchmarks/<type ID>/datasets/ -> its dataset ID.
DATASETS = {
    "synthetic-dev-v1": "envirobench/document-type-synthetic-dev-v1",
    "synthetic-test-v1": "envirobench/document-type-synthetic-test-v1",
}

Kind = Literal[
    "laboratory-report",
    "phase-i-report",
    "phase-ii-report",
    "monitoring-report",
    "letter",
    "invoice",
    "permit",
    "certificate",
    "deed",
    "lease",
    "contract",
    "boring-log",
    "photo-page",
    "chain-of-custody",
    "transmittal",
    "remedial-action-plan",
    "closure-report",
    "data-validation-report",
]
KINDS: tuple[str, ...] = Kind.__args__  # type: ignore[attr-defined]
TRAPS = (
    "cover-letter",
    "cross-reference",
    "certificate-title",
    "untitled",
    "scanned",
    "fax-cover",
    "contents",
    "excerpt",
    "misleading-title",
    "heavy-scan",
)


def _traps(instance: Any, attribute: attrs.Attribute, value: tuple[str, ...]) -> None:
    unknown = [t for t in value if t not in TRAPS]
    if unknown:
        raise ValueError(f"{attribute.name}: unknown trap(s) {unknown}; known: {', '.join(TRAPS)}")


@attrs.frozen
class Input:
    """One case: one document of a site file, a dataset-relative PDF path."""

    document: str = attrs.field(validator=pdf_path)


@attrs.frozen
class Answer:
    """The truth: the document's kind; `pages`, `scanned` and `traps` describe the document (for
    breakdowns) and are not scored."""

    kind: Kind
    pages: int = attrs.field(validator=attrs.validators.ge(1))
    scanned: bool
    traps: tuple[str, ...] = attrs.field(validator=_traps)


@attrs.frozen
class Prediction:
    """A system's reading: the document's kind."""

    kind: Kind


class DocumentType(envirobench.BenchmarkType):
    ID = "document-type"
    FORMAT = "envirobench.document-type.v1"
    LABEL = "Document type"
    SCORING_VERSION = "envirobench.document-type.scores.v1"
    TIER = "document"
    PROFILES = ("kind",)
    HEADLINE = ("macro_f1", "accuracy", "documents")
    SOURCE_FIELDS = ("document",)

    def score_case(
        self, case: Case, answer: Answer, prediction: Prediction
    ) -> dict[str, CaseScore]:
        truth, predicted = answer.kind, prediction.kind
        metrics = {
            "document": 1.0,
            "correct": 1.0 if truth == predicted else 0.0,
            f"truth {truth}": 1.0,
            f"predicted {predicted}": 1.0,
        }
        if truth == predicted:
            metrics[f"right {truth}"] = 1.0
            errors: tuple[tuple[str, ...], ...] = ()
        else:
            metrics[f"confused {truth} as {predicted}"] = 1.0
            errors = (("wrong-kind", truth, predicted),)
        return {"kind": CaseScore(errors=errors, metrics=metrics)}

    def summarize_totals(
        self, profile: str, totals: Mapping[str, float], cases: int
    ) -> dict[str, float]:
        f1s = {}
        for kind in KINDS:
            truth, predicted = (
                totals.get(f"truth {kind}", 0.0),
                totals.get(f"predicted {kind}", 0.0),
            )
            if truth == 0 and predicted == 0:
                continue
            right = totals.get(f"right {kind}", 0.0)
            f1s[kind] = 2 * right / (truth + predicted)  # = 2TP / (2TP + FP + FN)
        headline = {
            "macro_f1": sum(f1s.values()) / len(f1s),
            "accuracy": totals["correct"] / totals["document"],
            "documents": totals["document"],
        }
        headline.update({f"f1 {kind}": value for kind, value in f1s.items()})
        headline.update(
            {name: value for name, value in totals.items() if name.startswith("confused ")}
        )
        return headline
