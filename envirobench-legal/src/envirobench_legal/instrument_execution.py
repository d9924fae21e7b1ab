"""Benchmark type `instrument-execution`: does the copy show the instrument executed, and recorded?

A case is one recorded instrument as a PDF copy (`Input.document`): a deed (warranty, special
warranty, quitclaim), a release, an easement or an environmental covenant (UECA), born digital
or scanned. A system returns its *status* and the *evidence page*, the page of the copy that
shows it:

    executed-recorded     every required signature is on the copy (in ink, or conformed "/s/"),
                          every acknowledgment is completed, and the copy bears the recorder's
                          data: an instrument (reception, document...) number or a book and page,
                          with the date and time of recording. Evidence: a page with that data.
    executed-unrecorded   signed in ink by every party and every acknowledgment completed (notary
                          signature, seal, commission), with no recording data. Evidence: a page
                          with the signatures or acknowledgments.
    not-executed          the copy shows it is not (yet) executed: a draft marker ("DRAFT", "FOR
                          DISCUSSION ONLY"), bracketed or underscored blanks ("[NAME OF GRANTEE]",
                          "this ___ day of ____, 20__"), an unsigned signature block (an "Execution
                          Version" left unsigned included), a blank notary block, or a covenant
                          missing one of its required signatures (owner, holder or agency).
                          Evidence: a page showing the marker, the blanks or the blank block.
    cannot-tell           the copy cannot show it: a conformed copy ("/s/") without recording
                          data (the copy says someone signed; it does not show it), or a copy that
                          stops where its signature pages would begin. Evidence: the conformed
                          page, or the copy's last page.

Recording data proves execution: a recorder records only an executed, acknowledged instrument,
so a conformed copy that bears it is `executed-recorded`.

Scoring (the one profile, `execution`, is the default gate). Per case:

    correct_status   1 when the status is the answer's
    false_executed   1 when the system said executed (recorded or not) and the answer is
                     not-executed or cannot-tell: the mistake that misleads a client
    instrument       1 (the case's weight in the counts)
    evidence_right   1 when the evidence page is one of the answer's evidence pages

Errors (the gate uses them; each names the mistake the same way in every run):
("wrong-status", answer status, predicted status) and ("wrong-evidence-page",).

Headline (sums over the run): `execution_score` (primary; the component score of the published
formula, 100 × max(0, (correct_statuses − 5 × false_executed) ÷ instruments)),
`execution_score_unclipped` (the same without max(0, ·), so two systems that both score 0 can
still be told apart), `correct_statuses`, `false_executed`, `instruments`, `status_accuracy`
(correct ÷ instruments) and `evidence_pages_right` (share of instruments with a right evidence
page).

Break-even: on an instrument a system is unsure of, answering "executed" gains 1 when right and
costs 5 when the instrument is not executed; it pays only when the answer is right more than 5
in 6 times (p − 5(1 − p) > 0 ⇔ p > 5/6). An abstention ("cannot-tell", "not-executed") never
costs more than the one status it misses, so calling every instrument executed and recorded
scores 0 on any dataset where at least a sixth of the instruments are not executed.

Predictions are data: the strict converter reads them into `Prediction` (a status from the four
literals, a positive page number or null) and the scorer only compares them with the answer;
nothing a system returns is ever evaluated or executed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import attrs

import envirobench
from envirobench import Case, CaseScore, pdf_path

from .copies import ScannedPage
from .scores import penalised_score

# Each dataset folder under benchmarks/<type ID>/datasets/ -> its dataset ID.
DATASETS = {
    "synthetic-dev-v1": "envirobench/instrument-execution-synthetic-dev-v1",
    "synthetic-test-v1": "envirobench/instrument-execution-synthetic-test-v1",
}

Status = Literal["executed-recorded", "executed-unrecorded", "not-executed", "cannot-tell"]
STATUSES: tuple[str, ...] = ("executed-recorded", "executed-unrecorded", "not-executed", "cannot-tell")
EXECUTED = frozenset({"executed-recorded", "executed-unrecorded"})
Kind = Literal[
    "warranty-deed", "special-warranty-deed", "quitclaim-deed", "release", "easement", "environmental-covenant"
]
PENALTY = 5  # categories.INSTRUMENT_EXECUTION: one false "executed" cancels five correct statuses


def _page_number(instance: Any, attribute: attrs.Attribute, value: int | None) -> None:
    if value is not None and value < 1:
        raise ValueError(f"{attribute.name} is a 1-based page number, got {value}")


def _evidence_pages(instance: Any, attribute: attrs.Attribute, value: tuple[int, ...]) -> None:
    if not value:
        raise ValueError(f"{attribute.name} is empty: every status is shown on some page")
    if any(page < 1 for page in value):
        raise ValueError(f"{attribute.name} are 1-based page numbers, got {list(value)}")
    if list(value) != sorted(set(value)):
        raise ValueError(f"{attribute.name} must be sorted and distinct, got {list(value)}")


@attrs.frozen
class Input:
    """One case: the copy of one instrument, a dataset-relative PDF path."""

    document: str = attrs.field(validator=pdf_path)


@attrs.frozen
class Answer:
    """The truth: the status and the pages that show it; `kind` and `scanned` describe the copy
    (for per-kind and per-copy breakdowns) and are not scored."""

    status: Status
    evidence_pages: tuple[int, ...] = attrs.field(validator=_evidence_pages)
    kind: Kind
    scanned: bool
    scan_pages: tuple[ScannedPage, ...] = ()  # what each scanned page went through (copies.py)


@attrs.frozen
class Prediction:
    """A system's reading: the status and the page (1-based) that shows it, or null."""

    status: Status
    evidence_page: int | None = attrs.field(validator=_page_number)


class InstrumentExecution(envirobench.BenchmarkType):
    ID = "instrument-execution"
    FORMAT = "envirobench.instrument-execution.v1"
    LABEL = "Instrument execution"
    SCORING_VERSION = "envirobench.instrument-execution.scores.v1"
    TIER = "document"
    PROFILES = ("execution",)
    HEADLINE = (
        "execution_score",
        "execution_score_unclipped",
        "correct_statuses",
        "false_executed",
        "instruments",
        "status_accuracy",
        "evidence_pages_right",
    )
    SOURCE_FIELDS = ("document",)

    def score_case(self, case: Case, answer: Answer, prediction: Prediction) -> dict[str, CaseScore]:
        right = prediction.status == answer.status
        false_executed = prediction.status in EXECUTED and answer.status not in EXECUTED
        evidence = prediction.evidence_page is not None and prediction.evidence_page in answer.evidence_pages
        errors: list[tuple[str, ...]] = []
        if not right:
            errors.append(("wrong-status", answer.status, prediction.status))
        if not evidence:
            errors.append(("wrong-evidence-page",))
        metrics = {
            "correct_status": 1.0 if right else 0.0,
            "false_executed": 1.0 if false_executed else 0.0,
            "instrument": 1.0,
            "evidence_right": 1.0 if evidence else 0.0,
        }
        return {"execution": CaseScore(errors=tuple(errors), metrics=metrics)}

    def summarize_totals(self, profile: str, totals: Mapping[str, float], cases: int) -> dict[str, float]:
        correct, false, instruments = totals["correct_status"], totals["false_executed"], totals["instrument"]
        return {
            **penalised_score("execution", correct, false, instruments, PENALTY),
            "correct_statuses": correct,
            "false_executed": false,
            "instruments": instruments,
            "status_accuracy": correct / instruments,
            "evidence_pages_right": totals["evidence_right"] / instruments,
        }
