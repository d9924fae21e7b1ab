"""Benchmark type `use-limitations`: what activity and use limitations, covenants and liens burden a parcel now?

A case is one parcel's title search (`Input`): the subject parcel (`parcel.apn`, its assessor's
parcel number, and `parcel.legal_description`) and the instruments the county search returned
(`documents`, 3 to 5 dataset-relative PDFs, recorded copies, some scanned). A system returns
every activity and use limitation, environmental covenant and lien recorded against the subject
parcel that is in force, each as

    type          environmental-covenant (a UECA covenant), activity-use-limitation (a notice
                  of activity and use limitation), deed-restriction (a declaration of
                  restrictions or restrictive covenants), environmental-lien (a CERCLA §107(l)
                  lien, a state cleanup-cost lien) or notice-of-contamination
    restrictions  what it imposes, from RESTRICTIONS: no-residential-use,
                  no-groundwater-extraction, maintain-engineered-control,
                  no-excavation-without-plan, vapor-mitigation-required, no-agricultural-use,
                  no-sensitive-use (schools, day care, hospitals, playgrounds); empty for a
                  lien or a notice, which restrict no use
    holder        the holder or beneficiary: a covenant's Holder, the party a restriction
                  benefits or that may enforce it, a lien's lienholder, the agency a notice is
                  given to (compared case-insensitively, punctuation and a leading "the" aside)
    reference     the recording reference of the instrument, from its recorder's stamp: the
                  instrument number where the stamp prints one (Instrument No., AFN,
                  Reception #, CFN, Document #), compared as its digits without leading zeros
                  ("2019-004512" = "2019004512"); else book and page written "book/page"
                  ("Deed Book 1204 Page 77" = "1204/77")

What is *not* listed (each a trap of the datasets): an instrument on another parcel (a covenant
on the adjoining parcel, a lien on another APN, even one that names the subject as its
neighbour); a lien that a later release discharges, a covenant or restriction that a later
instrument terminates (the answer lists only current limitations), and the release or
termination itself; an amendment, whose added or lifted restrictions are folded into the
instrument it amends (listed under that instrument's reference); a UECA covenant without the
agency's signature, which the Act does not make a valid environmental covenant; easements
(monitoring-well access, utilities), deeds ("subject to restrictions of record", a municipal
ordinance cited), mortgage releases.

Scoring (the one profile, `limitations`, is the default gate). A predicted item *matches* the
answer's item with the same reference (each answer item matched once); a match is *exact* when
type, restrictions (as a set) and holder are right too. Per case the counts: `answer_items`,
`predicted_items`, `exact_items`, `matched_items`, `type_right`, `restrictions_right`,
`holder_right` (among matched items), `items_not_current` (predicted items that match no current
limitation: an instrument of another parcel, a released lien, a terminated covenant, a covenant
without the agency's signature, an amendment, a release or termination, an easement, a deed, a
mortgage release, a reference no instrument of the search has, a second item for one reference),
`foreign_items` (those of them that are instruments of the search burdening another parcel, a
released lien or a terminated covenant) and `parcel_exact` (1 when every item is exact and
nothing is missing or extra).

Errors (the gate uses them; each names the mistake the same way in every run):
("missing-limitation", reference), ("wrong-type", reference, answer type, predicted type),
("wrong-restrictions", reference, "missed: ...", "extra: ..."), ("wrong-holder", reference),
("not-a-current-limitation", reference, why: other-parcel, released, terminated,
not-signed-by-agency, amendment, release-or-termination, easement, deed, mortgage-release),
("unknown-reference", reference) for a reference no instrument of the search has, and
("duplicate-limitation", reference).

Headline (pooled over the run), scoring v2: `limitations_score` (primary) = 100 × max(0,
(exact_items − 5 × items_not_current) ÷ answer_items), the Legal category's penalty form, as
chain-of-title prices a period from another parcel or invented; `limitations_score_unclipped`
(the same without max(0, ·); both 0 when the run has no current limitation), `exact_items`,
`items_not_current`, `answer_items`, `limitations_f1` (2 × exact ÷ (predicted + answer items), 1
when both are 0: v1's primary), `parcels_exact` (share of parcels read exactly),
`limitations_precision` (exact ÷ predicted, 0 when nothing is predicted), `limitations_recall`
(exact ÷ answer items), `references_found` (matched ÷ answer items), `foreign_items`,
`predicted_items`.

Why v2: under v1 (primary `limitations_f1`) a listed released lien or other parcel's covenant
cost what any wrong item costs, one false positive in the pooled F1, so a careless examiner who
read every instrument right but examined no title (listing released, terminated and other-parcel
instruments) scored level with a reader that examines title. Telling a client that a parcel is
burdened by what does not burden it now is this task's costly mistake; v2 prices it at five.
Break-even: listing an item that is exact with probability p and not a current limitation
otherwise gains when p > 5/6; leaving a limitation out costs only that limitation. An item that
matches a current limitation with a wrong field is neither exact nor penalised. A blind system
that lists nothing scores 0 and gets exactly the parcels with nothing recorded.

Predictions are data: the strict converter reads them into `Prediction` (literals for type and
restrictions, strings for holder and reference) and the scorer only compares them with the
answer; nothing a system returns is ever evaluated or executed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Literal

import attrs

import envirobench
from envirobench import Case, CaseScore, not_blank

from .copies import ScannedPage
from .scores import penalised_score

# Each dataset folder under benchmarks/<type ID>/datasets/ -> its dataset ID.
DATASETS = {
    "synthetic-dev-v1": "envirobench/use-limitations-synthetic-dev-v1",
    "synthetic-test-v1": "envirobench/use-limitations-synthetic-test-v1",
}

LimitationType = Literal[
    "environmental-covenant", "activity-use-limitation", "deed-restriction", "environmental-lien",
    "notice-of-contamination",
]
Restriction = Literal[
    "no-residential-use", "no-groundwater-extraction", "maintain-engineered-control", "no-excavation-without-plan",
    "vapor-mitigation-required", "no-agricultural-use", "no-sensitive-use",
]
Reason = Literal[
    "other-parcel", "released", "terminated", "not-signed-by-agency", "release-or-termination", "amendment",
    "easement", "deed", "mortgage-release",
]
FOREIGN_REASONS = frozenset({"other-parcel", "released", "terminated"})


def normalize_reference(text: str) -> str:
    """A recording reference compared by its numbers: `book/page` for a book and a page (a slash
    or the word page between two numbers), else the digits without leading zeros."""
    runs = re.findall(r"\d+", text)
    if len(runs) == 2 and re.search(r"/|\b(page|pg)\b", text, re.I):
        return f"{int(runs[0])}/{int(runs[1])}"
    digits = "".join(runs)
    return str(int(digits)) if digits else text.strip().casefold()


def normalize_name(text: str) -> str:
    text = text.casefold().replace("&", " and ")
    text = re.sub(r"[^\w\s]", " ", text)
    text = re.sub(r"\s+", " ", text).strip()
    return text[4:] if text.startswith("the ") else text


def _pdf_paths(instance: Any, attribute: attrs.Attribute, value: tuple[str, ...]) -> None:
    if not value:
        raise ValueError(f"{attribute.name} is empty: a search returns at least one instrument")
    for path in value:
        if not path.lower().endswith(".pdf"):
            raise ValueError(f"{attribute.name} must name PDF files, got {path!r}")
    if len(set(value)) != len(value):
        raise ValueError(f"{attribute.name} names a file twice")


def _distinct(instance: Any, attribute: attrs.Attribute, value: tuple[str, ...]) -> None:
    if len(set(value)) != len(value):
        raise ValueError(f"{attribute.name} lists a restriction twice: {list(value)}")


def _sorted_distinct(instance: Any, attribute: attrs.Attribute, value: tuple[str, ...]) -> None:
    if list(value) != sorted(set(value)):
        raise ValueError(f"{attribute.name} must be sorted and distinct, got {list(value)}")


@attrs.frozen
class Parcel:
    apn: str = attrs.field(validator=not_blank)
    legal_description: str = attrs.field(validator=not_blank)


@attrs.frozen
class Input:
    """One case: the subject parcel and the instruments its title search returned (PDF paths)."""

    parcel: Parcel
    documents: tuple[str, ...] = attrs.field(validator=_pdf_paths)


@attrs.frozen
class Limitation:
    """One limitation as the answer states it: restrictions sorted, reference normalised."""

    type: LimitationType
    restrictions: tuple[Restriction, ...] = attrs.field(validator=_sorted_distinct)
    holder: str = attrs.field(validator=not_blank)
    reference: str = attrs.field(validator=not_blank)


@attrs.frozen
class Excluded:
    """An instrument of the search that is not a current limitation, and why."""

    reference: str = attrs.field(validator=not_blank)
    reason: Reason


@attrs.frozen
class Answer:
    """The truth: the current limitations; every other instrument of the search with the reason
    it is not one; the traps of the search and its scanned copies (for breakdowns, not scored)."""

    limitations: tuple[Limitation, ...]
    excluded: tuple[Excluded, ...]
    traps: tuple[str, ...]
    scanned_documents: int
    scan_pages: tuple[ScannedPage, ...] = ()  # what each scanned page went through (copies.py)


@attrs.frozen
class PredictedLimitation:
    type: LimitationType
    restrictions: tuple[Restriction, ...] = attrs.field(validator=_distinct)
    holder: str = attrs.field(validator=not_blank)
    reference: str = attrs.field(validator=not_blank)


@attrs.frozen
class Prediction:
    """A system's reading: the current limitations of the subject parcel (possibly none)."""

    limitations: tuple[PredictedLimitation, ...]


def field_errors(truth: Limitation, predicted: PredictedLimitation) -> list[tuple[str, ...]]:
    errors: list[tuple[str, ...]] = []
    if predicted.type != truth.type:
        errors.append(("wrong-type", truth.reference, truth.type, predicted.type))
    said, right = set(predicted.restrictions), set(truth.restrictions)
    if said != right:
        errors.append(("wrong-restrictions", truth.reference, "missed: " + ",".join(sorted(right - said)),
                       "extra: " + ",".join(sorted(said - right))))
    if normalize_name(predicted.holder) != normalize_name(truth.holder):
        errors.append(("wrong-holder", truth.reference))
    return errors


class UseLimitations(envirobench.BenchmarkType):
    ID = "use-limitations"
    FORMAT = "envirobench.use-limitations.v1"
    LABEL = "Use limitations"
    # v2: the primary is the penalty score (a listed item that is no current limitation costs
    # five); v1's primary, limitations_f1, stays in the headline.
    SCORING_VERSION = "envirobench.use-limitations.scores.v2"
    TIER = "document"
    PROFILES = ("limitations",)
    HEADLINE = (
        "limitations_score",
        "limitations_score_unclipped",
        "exact_items",
        "items_not_current",
        "answer_items",
        "limitations_f1",
        "parcels_exact",
        "limitations_precision",
        "limitations_recall",
        "references_found",
        "foreign_items",
        "predicted_items",
    )
    SOURCE_FIELDS = ("documents",)

    def score_case(self, case: Case, answer: Answer, prediction: Prediction) -> dict[str, CaseScore]:
        truth = {item.reference: item for item in answer.limitations}
        excluded = {item.reference: item.reason for item in answer.excluded}
        claimed: dict[str, list[PredictedLimitation]] = {}
        for item in prediction.limitations:
            claimed.setdefault(normalize_reference(item.reference), []).append(item)
        errors: list[tuple[str, ...]] = []
        counts = dict.fromkeys(("exact_items", "matched_items", "type_right", "restrictions_right", "holder_right",
                                "foreign_items"), 0.0)
        for reference, items in claimed.items():
            right = truth.get(reference)
            if right is None:
                reason = excluded.get(reference)
                if reason is None:
                    errors.append(("unknown-reference", reference))
                else:
                    errors.append(("not-a-current-limitation", reference, reason))
                    counts["foreign_items"] += len(items) if reason in FOREIGN_REASONS else 0
                continue
            # The best of the items claiming this reference matches it; any other is a duplicate.
            best = min(items, key=lambda item: len(field_errors(right, item)))
            wrong = field_errors(right, best)
            counts["matched_items"] += 1
            counts["type_right"] += best.type == right.type
            counts["restrictions_right"] += set(best.restrictions) == set(right.restrictions)
            counts["holder_right"] += normalize_name(best.holder) == normalize_name(right.holder)
            counts["exact_items"] += not wrong
            errors += wrong
            errors += [("duplicate-limitation", reference)] * (len(items) - 1)
        errors += [("missing-limitation", reference) for reference in sorted(truth) if reference not in claimed]
        metrics = {
            **counts,
            "items_not_current": float(len(prediction.limitations)) - counts["matched_items"],
            "answer_items": float(len(truth)),
            "predicted_items": float(len(prediction.limitations)),
            "parcel_exact": 0.0 if errors else 1.0,
            "parcel": 1.0,
        }
        return {"limitations": CaseScore(errors=tuple(sorted(errors)), metrics=metrics)}

    def summarize_totals(self, profile: str, totals: Mapping[str, float], cases: int) -> dict[str, float]:
        exact, predicted, answer = totals["exact_items"], totals["predicted_items"], totals["answer_items"]
        not_current = totals["items_not_current"]
        return {
            **penalised_score("limitations", exact, not_current, answer, 5),
            "exact_items": exact,
            "items_not_current": not_current,
            "answer_items": answer,
            "limitations_f1": 2 * exact / (predicted + answer) if predicted + answer else 1.0,
            "parcels_exact": totals["parcel_exact"] / totals["parcel"],
            "limitations_precision": exact / predicted if predicted else 0.0,
            "limitations_recall": exact / answer if answer else 1.0,
            "references_found": totals["matched_items"] / answer if answer else 1.0,
            "foreign_items": totals["foreign_items"],
            "predicted_items": predicted,
        }
