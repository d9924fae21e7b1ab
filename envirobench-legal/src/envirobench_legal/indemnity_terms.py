"""Benchmark type `indemnity-terms`: who protects whom against what, for how much and how long.

A case is one contract as a PDF (`Input.document`), born digital or scanned: a purchase and
sale agreement with an environmental indemnity article among unrelated ones (price, closing,
title, inspections, brokers, limitations), or a stand-alone environmental indemnity agreement
delivered at a closing; and the date the contract is read on (`Input.as_of`, ISO 8601). A
system returns the environmental indemnity's terms (`Prediction`):

    indemnitor, indemnitee   the party that indemnifies and the party protected, by name, or
                             null when the system cannot find it (not found: never overstating).
                             Names are compared after normalisation (`normalize_party`): case,
                             punctuation and "&"/"and" ignored, a leading "The" and entity
                             suffixes (LLC, L.L.C., Inc., Corp., Corporation, Company, Co., LP,
                             L.P., LLP, Ltd., N.A., P.C., PLLC; "Trust" is kept) dropped, so
                             "Redfern Petroleum Co." and "REDFERN PETROLEUM COMPANY" are one
                             party.
    scope                    one of, narrowest first (SCOPE_BREADTH):
                             scheduled-matters-only (the listed conditions and no others),
                             breach-of-representations (losses from untrue environmental
                             representations), pre-closing-conditions (conditions existing at
                             or before the closing), all-environmental-liabilities (whenever
                             arising). A "notwithstanding" clause that narrows or widens the
                             indemnity decides.
    cap                      the most the indemnitor pays, whole dollars, or null (uncapped). A
                             cap stated as a percentage of the purchase price is answered as the
                             dollar amount (percentage × the purchase price stated in the
                             contract; always whole dollars here). A cap on other claims (the
                             representations only) that the contract says does not reach the
                             environmental indemnity is not its cap.
    basket                   {"type": "tipping" | "deductible", "amount": dollars} or null. A
                             deductible: the indemnitor pays only the losses above the amount; a
                             tipping basket: once the losses pass the amount, it pays them all
                             from the first dollar.
    de_minimis               the per-claim threshold below which a claim is disregarded, dollars,
                             or null.
    survival_months          how long the indemnity survives the closing, in months (years × 12),
                             or null when it survives without limit of time. A survival clause of
                             another article is not the indemnity's.
    survival_end             the closing date (stated in the contract; not the date the contract
                             was signed) plus survival_months: the same day of the month, the
                             last day of a shorter month; null with survival_months null.
    exclusions               the set (sorted, distinct) of carve-outs the contract makes, from
                             EXCLUSIONS: buyer-initiated-testing (conditions found by testing the
                             buyer initiates, unless a regulator requires it),
                             change-to-residential-use (losses caused by converting the property
                             to residential or similar sensitive use), late-notice (no liability
                             for a claim not noticed within a stated period; a notice clause
                             that forfeits nothing is no exclusion), risk-based-remedy (the
                             indemnitor chooses the remedy and may clean up only to risk-based,
                             commercial or industrial standards, with institutional or
                             engineering controls).
    executed                 true when every party's signature is on the copy, in ink or
                             conformed ("/s/": a closing set's record that the parties signed);
                             false for a draft marker, bracketed or underscored blanks, or any
                             party's signature line left blank. Here the question is whether
                             the terms read are those of a signed agreement; instrument-execution
                             asks the stricter question of what a copy proves for recording.

Scoring (the one profile, `terms`, is the default gate). A contract is *exact* when every field
is right, and *overstating* when some error belongs to the declared set of errors that make the
environmental protection look larger than it is (each names its error key):

    ("wrong-indemnitee", truth, predicted)   someone other than the protected party named
    ("scope-wider", truth, predicted)        a broader scope (SCOPE_BREADTH) than the truth
    ("cap-ignored", truth)                   null predicted where a cap exists
    ("cap-higher", truth, predicted)         a higher cap
    ("basket-ignored", truth type)           null predicted where a basket exists
    ("basket-lower", truth, predicted)       a lower basket amount
    ("deductible-read-as-tipping",)          the indemnitor pays from the first dollar instead
    ("de-minimis-ignored", truth)            null predicted where a threshold exists
    ("de-minimis-lower", truth, predicted)   a lower threshold
    ("survival-longer", truth, predicted)    more months, or unlimited (null), than the truth
    ("expired-survival-read-as-live", truth end, predicted end)
                                             the true end date is before as_of, the predicted
                                             one on or after it (or null: never ending)
    ("exclusion-missed", literal)            a carve-out of the contract not reported
    ("draft-read-as-binding",)               executed true on an unexecuted contract

Every other error makes the contract not exact without overstating (it understates or misreads):
("indemnitor-not-found", t) and ("indemnitee-not-found", t) (a party answered null: a system that
cannot find the indemnity can say so, and answer the narrowest terms, without overstating),
("wrong-indemnitor", t, p), ("scope-narrower", t, p), ("cap-invented", p), ("cap-lower", t, p),
("basket-invented", p type), ("basket-higher", t, p), ("tipping-read-as-deductible",),
("de-minimis-invented", p), ("de-minimis-higher", t, p), ("survival-shorter", t, p) (a period
predicted for an unlimited survival included), ("wrong-survival-end", t, p) (an end date wrong
in a way that is not an expired survival read as live), ("exclusion-invented", literal),
("executed-read-as-draft",). Amounts and months in errors are numbers, null as None.

Per case the metrics are `contract_exact`, `contract_overstating`, `contract` (1) and one
`<field>_right` per field (FIELDS). Headline (sums over the run): `indemnity_score` (primary; the
category's formula, 100 × max(0, (contracts_exact − 5 × contracts_overstating) ÷ contracts)),
`indemnity_score_unclipped` (without max(0, ·), so two systems that both score 0 can still be
told apart), `contracts_exact`, `contracts_overstating`, `contracts`, `exact_share` and
`<field>_accuracy` for each field.

Break-even: a system unsure whether a term (a cap, a carve-out, the execution) is there gains 1
for an exact contract when a bold reading is right and loses 5 when it overstates; the bold
reading pays only when it is right more than 5 in 6 times (p − 5(1 − p) > 0 ⇔ p > 5/6). So
"all liabilities, uncapped, no basket, unlimited survival, no exclusions, executed" scores 0 on
any dataset where more than a sixth of the contracts have narrower terms.

Predictions are data: the strict converter reads them into `Prediction` (literals from the closed
sets, non-negative whole dollars, ISO dates) and the scorer only compares them with the answer;
nothing a system returns is evaluated.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from typing import Any, Literal

import attrs

import envirobench
from envirobench import Case, CaseScore, iso_date, pdf_path

from .copies import ScannedPage
from .scores import penalised_score

DATASETS = {
    "synthetic-dev-v1": "envirobench/indemnity-terms-synthetic-dev-v1",
    "synthetic-test-v1": "envirobench/indemnity-terms-synthetic-test-v1",
}

Scope = Literal["scheduled-matters-only", "breach-of-representations", "pre-closing-conditions", "all-environmental-liabilities"]
# Narrowest first: a prediction later in this order than the truth reads the scope wider.
SCOPE_BREADTH: tuple[str, ...] = (
    "scheduled-matters-only",
    "breach-of-representations",
    "pre-closing-conditions",
    "all-environmental-liabilities",
)
BasketType = Literal["tipping", "deductible"]
Exclusion = Literal["buyer-initiated-testing", "change-to-residential-use", "late-notice", "risk-based-remedy"]
EXCLUSIONS: tuple[str, ...] = ("buyer-initiated-testing", "change-to-residential-use", "late-notice", "risk-based-remedy")
Form = Literal["purchase-and-sale", "indemnity-agreement"]
FIELDS: tuple[str, ...] = (
    "indemnitor", "indemnitee", "scope", "cap", "basket", "de_minimis", "survival_months", "survival_end",
    "exclusions", "executed",
)
PENALTY = 5  # categories.INDEMNITY_TERMS: one overstating contract cancels five exact ones

ENTITY_SUFFIXES = frozenset(
    {"llc", "inc", "incorporated", "corp", "corporation", "co", "company", "lp", "llp", "ltd", "limited", "na",
     "pc", "pllc", "plc"}
)


def normalize_party(name: str) -> str:
    """A party's name for comparison: upper case, "&" as "and", punctuation dropped (so "L.L.C."
    is "LLC"), a leading "The" and trailing entity suffixes removed."""
    text = name.replace("&", " and ").replace(".", "").lower()
    words = re.sub(r"[^\w\s]", " ", text).split()
    if words and words[0] == "the":
        words = words[1:]
    while len(words) > 1 and words[-1] in ENTITY_SUFFIXES:
        words.pop()
    return " ".join(words).upper()


def parse_date(value: str) -> dt.date:
    return dt.date.fromisoformat(value)


def _dollars(instance: Any, attribute: attrs.Attribute, value: int | None) -> None:
    if value is not None and value < 0:
        raise ValueError(f"{attribute.name} is an amount in whole dollars, not negative: {value}")


def _months(instance: Any, attribute: attrs.Attribute, value: int | None) -> None:
    if value is not None and value < 1:
        raise ValueError(f"{attribute.name} is a positive number of months or null, got {value}")


def _exclusions(instance: Any, attribute: attrs.Attribute, value: tuple[str, ...]) -> None:
    if list(value) != sorted(set(value)):
        raise ValueError(f"{attribute.name} must be sorted and distinct, got {list(value)}")


def _name(instance: Any, attribute: attrs.Attribute, value: str) -> None:
    if not normalize_party(value):
        raise ValueError(f"{attribute.name} must name a party, got {value!r}")


def _survival_pair(instance: Any) -> None:
    if (instance.survival_months is None) != (instance.survival_end is None):
        raise ValueError("survival_months and survival_end are both null (unlimited survival) or both given")


@attrs.frozen
class Basket:
    """A threshold on the aggregate of losses before the indemnitor pays."""

    type: BasketType
    amount: int = attrs.field(validator=_dollars)


@attrs.frozen
class Input:
    """One case: a contract (a dataset-relative PDF path) and the date it is read on."""

    document: str = attrs.field(validator=pdf_path)
    as_of: str = attrs.field(validator=iso_date)


@attrs.frozen
class Terms:
    """The environmental indemnity's terms, as the answer holds them and a system predicts them."""

    indemnitor: str = attrs.field(validator=_name)
    indemnitee: str = attrs.field(validator=_name)
    scope: Scope
    cap: int | None = attrs.field(validator=_dollars)
    basket: Basket | None
    de_minimis: int | None = attrs.field(validator=_dollars)
    survival_months: int | None = attrs.field(validator=_months)
    survival_end: str | None = attrs.field(validator=iso_date)
    exclusions: tuple[Exclusion, ...] = attrs.field(validator=_exclusions)
    executed: bool

    def __attrs_post_init__(self) -> None:
        _survival_pair(self)


def _name_or_none(instance: Any, attribute: attrs.Attribute, value: str | None) -> None:
    if value is not None:
        _name(instance, attribute, value)


@attrs.frozen
class Prediction(Terms):
    """A system's reading of the contract's environmental indemnity. A party it cannot find is
    null: not found claims no one is protected, so it is never a wrong indemnitee."""

    indemnitor: str | None = attrs.field(validator=_name_or_none)
    indemnitee: str | None = attrs.field(validator=_name_or_none)


@attrs.frozen
class Answer(Terms):
    """The truth. `form`, `closing_date`, `scanned` and `traps` (the traps this contract sets, for
    breakdowns) describe the contract and are not scored."""

    form: Form
    closing_date: str = attrs.field(validator=iso_date)
    scanned: bool
    traps: tuple[str, ...]
    scan_pages: tuple[ScannedPage, ...] = ()  # what each scanned page went through (copies.py)


def _amount_errors(name: str, truth: int | None, predicted: int | None) -> tuple[tuple, bool] | None:
    """(error, overstating) for a cap-like amount (a lower or missing amount protects more)."""
    if truth == predicted:
        return None
    if predicted is None:
        return (f"{name}-ignored", truth), True
    if truth is None:
        return (f"{name}-invented", predicted), False
    if predicted > truth:
        return (f"{name}-higher", truth, predicted), name == "cap"
    return (f"{name}-lower", truth, predicted), name != "cap"


def compare(answer: Terms, prediction: Terms, as_of: dt.date) -> tuple[list[tuple], bool, dict[str, bool]]:
    """(errors, overstating, field -> right) of a prediction against the truth."""
    errors: list[tuple] = []
    over = False
    right = dict.fromkeys(FIELDS, True)

    def err(field: str, error: tuple, overstating: bool) -> None:
        nonlocal over
        errors.append(error)
        right[field] = False
        over = over or overstating

    if prediction.indemnitor is None:
        err("indemnitor", ("indemnitor-not-found", answer.indemnitor), False)
    elif normalize_party(prediction.indemnitor) != normalize_party(answer.indemnitor):
        err("indemnitor", ("wrong-indemnitor", answer.indemnitor, prediction.indemnitor), False)
    if prediction.indemnitee is None:
        err("indemnitee", ("indemnitee-not-found", answer.indemnitee), False)
    elif normalize_party(prediction.indemnitee) != normalize_party(answer.indemnitee):
        err("indemnitee", ("wrong-indemnitee", answer.indemnitee, prediction.indemnitee), True)
    if prediction.scope != answer.scope:
        wider = SCOPE_BREADTH.index(prediction.scope) > SCOPE_BREADTH.index(answer.scope)
        err("scope", ("scope-wider" if wider else "scope-narrower", answer.scope, prediction.scope), wider)
    cap = _amount_errors("cap", answer.cap, prediction.cap)
    if cap:
        err("cap", *cap)
    truth_basket, basket = answer.basket, prediction.basket
    if truth_basket != basket:
        if basket is None:
            err("basket", ("basket-ignored", truth_basket.type), True)
        elif truth_basket is None:
            err("basket", ("basket-invented", basket.type), False)
        else:
            if truth_basket.type != basket.type:
                tipping = basket.type == "tipping"
                err("basket", ("deductible-read-as-tipping",) if tipping else ("tipping-read-as-deductible",), tipping)
            amount = _amount_errors("basket", truth_basket.amount, basket.amount)
            if amount:
                err("basket", *amount)
    de_minimis = _amount_errors("de-minimis", answer.de_minimis, prediction.de_minimis)
    if de_minimis:
        err("de_minimis", *de_minimis)
    truth_months, months = answer.survival_months, prediction.survival_months
    if truth_months != months:
        longer = months is None or (truth_months is not None and months > truth_months)
        err("survival_months", ("survival-longer" if longer else "survival-shorter", truth_months, months), longer)
    if answer.survival_end != prediction.survival_end:
        truth_end = parse_date(answer.survival_end) if answer.survival_end else None
        end = parse_date(prediction.survival_end) if prediction.survival_end else None
        expired_live = truth_end is not None and truth_end < as_of and (end is None or end >= as_of)
        name = "expired-survival-read-as-live" if expired_live else "wrong-survival-end"
        err("survival_end", (name, answer.survival_end, prediction.survival_end), expired_live)
    for missed in sorted(set(answer.exclusions) - set(prediction.exclusions)):
        err("exclusions", ("exclusion-missed", missed), True)
    for invented in sorted(set(prediction.exclusions) - set(answer.exclusions)):
        err("exclusions", ("exclusion-invented", invented), False)
    if prediction.executed != answer.executed:
        binding = prediction.executed
        err("executed", ("draft-read-as-binding",) if binding else ("executed-read-as-draft",), binding)
    return errors, over, right


class IndemnityTerms(envirobench.BenchmarkType):
    ID = "indemnity-terms"
    FORMAT = "envirobench.indemnity-terms.v1"
    LABEL = "Indemnity terms"
    SCORING_VERSION = "envirobench.indemnity-terms.scores.v1"
    TIER = "document"
    PROFILES = ("terms",)
    HEADLINE = (
        "indemnity_score",
        "indemnity_score_unclipped",
        "contracts_exact",
        "contracts_overstating",
        "contracts",
        "exact_share",
        *(f"{field}_accuracy" for field in FIELDS),
    )
    SOURCE_FIELDS = ("document",)

    def score_case(self, case: Case, answer: Answer, prediction: Prediction) -> dict[str, CaseScore]:
        errors, over, right = compare(answer, prediction, parse_date(case.input.as_of))
        metrics = {
            "contract_exact": 0.0 if errors else 1.0,
            "contract_overstating": 1.0 if over else 0.0,
            "contract": 1.0,
            **{f"{field}_right": 1.0 if ok else 0.0 for field, ok in right.items()},
        }
        return {"terms": CaseScore(errors=tuple(errors), metrics=metrics)}

    def summarize_totals(self, profile: str, totals: Mapping[str, float], cases: int) -> dict[str, float]:
        exact, over, contracts = totals["contract_exact"], totals["contract_overstating"], totals["contract"]
        return {
            **penalised_score("indemnity", exact, over, contracts, PENALTY),
            "contracts_exact": exact,
            "contracts_overstating": over,
            "contracts": contracts,
            "exact_share": exact / contracts,
            **{f"{field}_accuracy": totals[f"{field}_right"] / contracts for field in FIELDS},
        }
