"""The seeded generator of the `instrument-execution` datasets (dev and test), and their fixtures.

Each split holds instruments of every execution scenario (envirobench_synth.legal.instruments:
recorded, recorded conformed copies, unrecorded, drafts, unsigned execution versions, bracketed
blanks, blank notary blocks, covenants missing a signature, conformed copies without recording
data, copies missing their signature pages) in the proportions of SCENARIO_SHARES, in document
families of its own: the dev split uses the dev law-firm templates and county recorder styles,
the test split only the others (envirobench_synth.legal.families.SPLITS). Every fourth
instrument is a scanned copy. The case category is the scenario.

Each instrument draws from its own stream, make_random(SEED, split, case_id); regenerating
reproduces every file byte for byte.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from envirobench import FixturePlan, Manifest, dataset_writer, document_cases, split_of
from envirobench_synth.legal import (
    NEUTRAL_TITLE,
    SPLITS,
    recorder,
    render_instrument,
    sample_instrument,
    template,
)
from envirobench_synth.rng import make_random

from ..copies import scanned_pages
from ..instrument_execution import Answer, Input, InstrumentExecution
from .schedule import by_shares, in_turn, is_scanned, shuffled

SEED = 20261130
VERSION = 1
# Instruments per scenario in every 100: executed ones (recorded or not) are a little over half,
# so that "everything executed and recorded" scores 0 by the published formula.
SCENARIO_SHARES = {
    "recorded": 28,
    "recorded-conformed": 6,
    "unrecorded": 20,
    "draft-marker": 8,
    "execution-version-unsigned": 7,
    "bracketed-blanks": 7,
    "blank-notary": 7,
    "covenant-missing-signature": 5,
    "conformed-unrecorded": 7,
    "missing-signature-pages": 5,
}
SIZES = {"dev": 100, "test": 600}
SCANNED_EVERY = 4  # every fourth instrument is a scanned copy


@dataclass(frozen=True)
class PlannedCase:
    case_id: str
    scenario: str
    template: str
    recorder: str
    scanned: bool


def plan(folder: str) -> list[PlannedCase]:
    """The cases of dataset `folder`, in order: scenarios shuffled, families and scans in turn."""
    split = split_of(folder)
    scenarios = shuffled(by_shares(SCENARIO_SHARES, SIZES[split]), SEED, split)
    templates, recorders = SPLITS[split]
    return [
        PlannedCase(f"ie-{split}-{index + 1:04d}", scenario, *in_turn(index, templates, recorders),
                    is_scanned(index, SCANNED_EVERY))
        for index, scenario in enumerate(scenarios)
    ]


def render_case(folder: str, planned: PlannedCase, path: str) -> tuple[bytes, str, Input, Answer]:
    """The instrument's PDF (to be written at `path`), its category, input and answer."""
    split = split_of(folder)
    rng = make_random(SEED, split, planned.case_id)
    instrument = sample_instrument(rng, planned.scenario, template(planned.template), recorder(planned.recorder))
    rendered = render_instrument(instrument, SEED, split, planned.case_id, scanned=planned.scanned, pdf_title=NEUTRAL_TITLE,
                                 archival=True)
    answer = Answer(
        status=rendered.status, evidence_pages=rendered.evidence_pages, kind=instrument.kind, scanned=planned.scanned,
        scan_pages=scanned_pages(1, rendered.scan_pages),
    )
    return rendered.pdf, planned.scenario, Input(document=path), answer


def describe(folder: str, cases: list[PlannedCase]) -> str:
    split = split_of(folder)
    templates, recorders = SPLITS[split]
    counts = Counter(case.scenario for case in cases)
    scanned = sum(case.scanned for case in cases)
    traps = ", ".join(f"{name} {counts[name]}" for name in SCENARIO_SHARES)
    return (
        f"{len(cases)} synthetic recorded instruments (deeds, releases, easements, environmental covenants), the "
        f"{split} split: law-firm templates {', '.join(templates)}; recorder styles {', '.join(recorders)}. "
        f"Scenarios (traps): {traps}. Scanned copies: {scanned}. The answer is the execution status and the "
        "pages that show it."
    )


def generate(output_dir: Path, dataset: str = "synthetic-dev-v1") -> Manifest:
    """Write dataset `dataset` (its folder, a key of DATASETS) into `output_dir` (absent or
    empty) and return its manifest."""
    write = dataset_writer(InstrumentExecution, dataset, seed=SEED, version=VERSION)
    cases = plan(dataset)
    return write(
        output_dir,
        document_cases(cases, partial(render_case, dataset)),
        title=f"Instrument execution, synthetic {split_of(dataset)} v1",
        description=describe(dataset, cases),
    )


# -- fixtures -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ExecutionMistake:
    """A deliberate mistake in wrong.json, on the first case of `scenario` no other mistake took."""

    scenario: str
    status: str | None  # the status predicted instead (None: keep the right one)
    evidence_page: str  # "right", "none" or "past-end" (a page after the last)
    why: str


MISTAKES: tuple[ExecutionMistake, ...] = (
    ExecutionMistake("draft-marker", "executed-unrecorded", "right", "a draft called executed (a false executed)"),
    ExecutionMistake("blank-notary", "executed-recorded", "right", "a blank notary block missed (a false executed)"),
    ExecutionMistake("conformed-unrecorded", "executed-unrecorded", "right", "a conformed copy taken for a signed one"),
    ExecutionMistake("recorded", "executed-unrecorded", "right", "the recording stamp missed"),
    ExecutionMistake("unrecorded", "cannot-tell", "none", "an abstention on a signed copy, without evidence"),
    ExecutionMistake("missing-signature-pages", None, "past-end", "the right status on a page the copy lacks"),
)


# Case ID -> the mistake wrong.json makes there: each on the first case of its scenario.
planted = FixturePlan.first_fitting(MISTAKES, category=lambda mistake: mistake.scenario)


def wrong_prediction(mistake: ExecutionMistake, answer: Answer, prediction: dict) -> dict:
    prediction = dict(prediction)
    if mistake.status is not None:
        prediction["status"] = mistake.status
    if mistake.evidence_page == "none":
        prediction["evidence_page"] = None
    elif mistake.evidence_page == "past-end":
        prediction["evidence_page"] = max(answer.evidence_pages) + 1
    return prediction


FIXTURES = FixturePlan(
    Answer,
    correct=lambda answer: {"status": answer.status, "evidence_page": answer.evidence_pages[0]},
    planted=planted,
    wrong=wrong_prediction,
)
