"""The seeded generator of the `indemnity-terms` datasets (dev and test), and their fixtures.

Each split holds purchase and sale agreements (seven in ten) and stand-alone environmental
indemnity agreements (envirobench_synth.legal.contracts), in the execution scenarios of
EXECUTION_SHARES, drafted in the split's own styles: the dev split uses the dev law-firm
templates and wording, the test split only the others (contracts.CONTRACT_SPLITS and
contracts.WORDING). Every fifth contract is a scanned copy. The case category is the scope of
the indemnity (the truth), so a run's report groups contracts by it.

Each contract draws from its own stream, make_random(SEED, split, case_id); regenerating
reproduces every file byte for byte.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import attrs

from envirobench import (
    FixturePlan,
    Manifest,
    copy_fields,
    dataset_writer,
    document_cases,
    iter_jsonl,
    plant_mistakes,
    split_of,
    unstructure,
)
from envirobench_synth.legal import NEUTRAL_TITLE, SPLITS, recorder, render_instrument
from envirobench_synth.legal.contracts import (
    CONTRACT_SPLITS,
    Contract,
    add_months,
    contract_template,
    sample_contract,
)
from envirobench_synth.rng import make_random

from ..copies import ScannedPage, scanned_pages
from ..indemnity_terms import Answer, Basket, IndemnityTerms, Input, Prediction, parse_date
from .schedule import in_turn, is_scanned, shuffled

SEED = 20261201
VERSION = 1
# Contracts per execution scenario in every 100: executed ones (signed, conformed, recorded) are
# three in five, so "every contract executed" overstates two in five.
EXECUTION_SHARES = {
    "unrecorded": 46,
    "conformed-unrecorded": 10,
    "recorded": 4,
    "draft-marker": 12,
    "bracketed-blanks": 10,
    "execution-version-unsigned": 10,
    "covenant-missing-signature": 8,
}
STAND_ALONE_EVERY = (2, 5, 9)  # positions in every ten that are stand-alone indemnity agreements
SIZES = {"dev": 60, "test": 600}
SCANNED_EVERY = 5  # every fifth contract is a scanned copy


@dataclass(frozen=True)
class PlannedCase:
    case_id: str
    execution: str
    form: str
    template: str
    recorder: str
    scanned: bool


def plan(folder: str) -> list[PlannedCase]:
    """The cases of dataset `folder`, in order: scenarios shuffled, forms, templates and scans in turn."""
    split = split_of(folder)
    size = SIZES[split]
    executions = [name for name, share in EXECUTION_SHARES.items() for _ in range(round(share * size / 100))]
    executions = shuffled((executions + ["unrecorded"] * size)[:size], SEED, split)
    templates = CONTRACT_SPLITS[split]
    recorders = SPLITS[split][1]
    return [
        PlannedCase(
            f"it-{split}-{index + 1:04d}",
            execution,
            "indemnity-agreement" if execution == "recorded" or index % 10 in STAND_ALONE_EVERY else "purchase-and-sale",
            *in_turn(index, templates, recorders),
            is_scanned(index, SCANNED_EVERY),
        )
        for index, execution in enumerate(executions)
    ]


def answer_of(contract: Contract, scanned: bool, scan_pages: tuple[ScannedPage, ...] = ()) -> Answer:
    t = contract.terms
    end = t.survival_end
    return copy_fields(
        Answer,
        t,
        basket=None if t.basket is None else Basket(type=t.basket[0], amount=t.basket[1]),
        survival_end=None if end is None else end.isoformat(),
        exclusions=tuple(sorted(t.exclusions)),
        closing_date=t.closing_date.isoformat(),
        scanned=scanned,
        traps=tuple(sorted(set(t.traps))),
        scan_pages=scan_pages,
    )


def render_case(folder: str, planned: PlannedCase) -> tuple[bytes, str, Input, Answer]:
    """The contract's PDF (at assets/<case ID>.pdf), its category (the indemnity's scope), input
    and answer."""
    split = split_of(folder)
    rng = make_random(SEED, split, planned.case_id)
    contract = sample_contract(rng, split, contract_template(planned.template), planned.execution, planned.form,
                               recorder(planned.recorder))
    rendered = render_instrument(contract.instrument, SEED, split, planned.case_id, scanned=planned.scanned,
                                 pdf_title=NEUTRAL_TITLE, archival=True)
    case_input = Input(document=f"assets/{planned.case_id}.pdf", as_of=contract.terms.as_of.isoformat())
    answer = answer_of(contract, planned.scanned, scanned_pages(1, rendered.scan_pages))
    return rendered.pdf, answer.scope, case_input, answer


def describe(folder: str, cases: list[PlannedCase], answers: list[Answer]) -> str:
    split = split_of(folder)
    executions = Counter(case.execution for case in cases)
    forms = Counter(case.form for case in cases)
    scopes = Counter(a.scope for a in answers)
    traps = Counter(trap for a in answers for trap in a.traps)
    return (
        f"{len(cases)} synthetic contracts with an environmental indemnity, the {split} split "
        f"({forms['purchase-and-sale']} purchase and sale agreements, {forms['indemnity-agreement']} stand-alone "
        f"indemnity agreements): law-firm templates {', '.join(CONTRACT_SPLITS[split])} and the {split} drafting "
        f"styles. Execution: {', '.join(f'{k} {executions[k]}' for k in EXECUTION_SHARES)}. Scopes: "
        f"{', '.join(f'{k} {v}' for k, v in sorted(scopes.items()))}. Traps: "
        f"{', '.join(f'{k} {v}' for k, v in sorted(traps.items()))}. Scanned copies: {sum(c.scanned for c in cases)}. "
        "The answer is the indemnity's terms: parties, scope, cap, basket, de minimis, survival and its end, "
        "exclusions, and whether the contract is executed."
    )


def generate(output_dir: Path, dataset: str = "synthetic-dev-v1") -> Manifest:
    """Write dataset `dataset` (its folder, a key of DATASETS) into `output_dir` (absent or
    empty) and return its manifest."""
    write = dataset_writer(IndemnityTerms, dataset, seed=SEED, version=VERSION)
    cases = plan(dataset)
    # Rendered before writing: the manifest's description counts the traps the answers hold.
    rendered = {planned.case_id: render_case(dataset, planned) for planned in cases}
    return write(
        output_dir,
        document_cases(cases, lambda planned, path: rendered[planned.case_id]),
        title=f"Indemnity terms, synthetic {split_of(dataset)} v1",
        description=describe(dataset, cases, [answer for *_, answer in rendered.values()]),
    )


# -- fixtures -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TermsMistake:
    """A deliberate change in wrong.json, on the first contract that fits and no other change took."""

    name: str
    overstating: bool | None  # None: a variant that must still score exact
    why: str


MISTAKES: tuple[TermsMistake, ...] = (
    TermsMistake("scope-wider", True, "a scheduled-matters indemnity read as covering all liabilities"),
    TermsMistake("percent-cap-ignored", True, "a cap stated as a percentage of the price read as no cap"),
    TermsMistake("draft-read-as-binding", True, "a draft's terms read as executed"),
    TermsMistake("exclusion-missed", True, "a carve-out of the contract not reported"),
    TermsMistake("exclusion-invented", False, "a carve-out reported that the contract does not make"),
    TermsMistake("survival-shorter", False, "a survival period read six months short (its end date with it)"),
    TermsMistake("name-variant", None, "the indemnitee's name in capitals with its suffix dropped: still exact"),
)


def fits(name: str, answer: dict[str, Any]) -> bool:
    return {
        "scope-wider": answer["scope"] == "scheduled-matters-only",
        "percent-cap-ignored": "percent-cap" in answer["traps"],
        "draft-read-as-binding": not answer["executed"],
        "exclusion-missed": bool(answer["exclusions"]),
        "exclusion-invented": len(answer["exclusions"]) < 4,
        "survival-shorter": (answer["survival_months"] or 0) > 6,
        "name-variant": True,
    }[name]


def apply(name: str, prediction: dict[str, Any], answer: Answer) -> dict[str, Any]:
    out = dict(prediction)
    if name == "scope-wider":
        out["scope"] = "all-environmental-liabilities"
    elif name == "percent-cap-ignored":
        out["cap"] = None
    elif name == "draft-read-as-binding":
        out["executed"] = True
    elif name == "exclusion-missed":
        out["exclusions"] = out["exclusions"][1:]
    elif name == "exclusion-invented":
        missing = [e for e in ("buyer-initiated-testing", "change-to-residential-use", "late-notice", "risk-based-remedy")
                   if e not in out["exclusions"]]
        out["exclusions"] = sorted([*out["exclusions"], missing[0]])
    elif name == "survival-shorter":
        out["survival_months"] = answer.survival_months - 6
        out["survival_end"] = add_months(parse_date(answer.closing_date), out["survival_months"]).isoformat()
    elif name == "name-variant":
        words = answer.indemnitee.upper().replace(",", "").split()
        out["indemnitee"] = " ".join(words[:-1]) if len(words) > 2 else answer.indemnitee.upper()
    return out


def prediction_of(answer: Answer) -> dict[str, Any]:
    """The right prediction: the answer's terms, without what only describes the contract (its
    form, closing date, traps, scanned pages)."""
    data = unstructure(answer)
    return {field.name: data[field.name] for field in attrs.fields(Prediction)}


def planted(dataset_dir: Path) -> dict[str, TermsMistake]:
    """Case ID -> the change wrong.json makes there."""
    answers = {record["id"]: record["answer"] for _, record in iter_jsonl(Path(dataset_dir) / "answers.jsonl")}
    return plant_mistakes(MISTAKES, answers, lambda mistake, case_id: fits(mistake.name, answers[case_id]))


FIXTURES = FixturePlan(
    Answer,
    correct=prediction_of,
    planted=lambda dataset_dir, answers: planted(dataset_dir),
    wrong=lambda mistake, answer, prediction: apply(mistake.name, prediction, answer),
)
