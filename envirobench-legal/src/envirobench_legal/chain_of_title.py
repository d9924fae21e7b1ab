"""Benchmark type `chain-of-title`: the ownership periods of one parcel, from its title packet.

A case is one title packet as an abstractor assembles it (`Input.packet`, one PDF): a cover page
(the abstractor's index: the subject parcel's APN and legal description and the instruments
enclosed, which may leave one out or mistype a reference) followed by copies of the recorded
instruments in recording order, some of them scanned. `Input.apn` and `Input.parcel` (a short
legal description, "Lot 7, Block 3, WILLOW CREEK ADDITION") name the subject parcel. A system
returns the subject parcel's *ownership periods*, oldest first:

    grantee      the owner, named as the vesting instrument names the grantee
    from_date    the day the owner took title: the *recording date* of the vesting instrument
                 (ISO, YYYY-MM-DD). Recording, not signing, is what the record shows and what
                 orders competing deeds, so every period runs from recording to recording.
    to_date      the recording date of the next vesting instrument, or null for the owner of
                 record (the current owner)
    instrument   the vesting instrument's recording reference as its stamp shows it: the
                 instrument number where the recorder numbers instruments ("Reception #
                 0012345", "CFN 200400123456"), else its book and page ("Deed Book 838 Page
                 558"). Where the stamp shows both, either is accepted.

What starts a period (the decisions a title examiner makes, and this benchmark's rules):

- a deed of the subject parcel from its owner of record to a new owner: a warranty, special
  warranty or quitclaim deed (a quitclaim from the owner conveys whatever the owner has, which is
  the title); the first deed in the packet starts the first period even though its grantor's own
  title is not in the packet (the search stops there: a gap before the chain, not in it);
- a sheriff's deed or a trustee's deed after the foreclosure of the owner's mortgage or deed of
  trust: the sale conveys the owner's title although the owner does not sign.

What does not:

- a corrective deed: it re-records an earlier deed between the same parties to fix a clerical
  error; the period stays the earlier deed's, with its reference and date;
- a wild deed: a deed of the subject parcel from a grantor who is not in the chain (neither the
  owner of record nor a sheriff or trustee foreclosing the owner's security);
- a deed of another parcel: the adjoining lot in the same block, a tax lot whose number happens
  to be the subject's plat lot number ("Tax Lot 7" is not "Lot 7, Block 3"), or a deed whose
  caption lists the subject's APN beside the neighbour's while its body conveys only the
  neighbour's lot (the body, not the caption, says what is conveyed);
- a mortgage, a deed of trust (it "grants" to a trustee, as security) or an easement: none
  conveys ownership;
- a change of the owner's name or a merger: no deed records it; the owner's next deed names it
  ("Successor Co., successor by merger to Old Co.", "Jane Roe, formerly known as Jane Doe"), the
  deed is not wild, and the period keeps the name its vesting deed gives the grantee.

Matching (per packet). References are normalised first: a reference that names a book (Book,
Bk, Vol., Volume, Liber, OR BK) and a page (Page, Pg, P) is the pair of those two numbers;
any other reference is all its digits, run together, with leading zeros dropped (so
"Instrument No. 1998-004512" and "1998004512" are one reference, "Reception # 0012345" and
"12345" another). Grantee names are normalised: case, punctuation and
spacing ignored, "&" read as "and", a leading "the" dropped. Each predicted period, in order, is
matched to a true period not yet matched: first the one whose reference it names, else the one
with the same normalised grantee and the same from_date. A matched period is *exact* when its
grantee, from_date, to_date and reference are all right. A predicted period that matches no true
period is *foreign or invented*: it comes from another parcel's deed, a wild deed, a corrective
deed, a mortgage or easement, or nothing; a second period naming an already matched reference (a
duplicate) is foreign or invented too.

Scoring (one profile, `chain`, the default gate). Per packet:

    periods_exact                matched predicted periods that are exact
    periods_foreign_or_invented  predicted periods matching no true period
    periods                      true periods (the packet's weight)
    predicted                    predicted periods

Errors (each names the mistake the same way in every run): ("missing-period", reference) for a
true period no prediction matched, ("foreign-or-invented-period", the prediction's normalised
reference), and for a matched period that is not exact ("wrong-grantee", reference),
("wrong-from-date", reference), ("wrong-to-date", reference), ("wrong-instrument", reference).

Headline (sums over the run): `chain_score` (primary; the published component score,
100 × max(0, (periods_exact − 5 × periods_foreign_or_invented) ÷ periods)),
`chain_score_unclipped` (the same without max(0, ·)), `periods_exact`,
`periods_foreign_or_invented`, `periods`, `period_precision` (exact ÷ predicted),
`period_recall` (exact ÷ periods) and `packets_exact` (share of packets whose every period is
exact with nothing foreign or invented).

Break-even: a doubtful instrument answered as a period gains 1 when it is a true period and costs
5 when it is not; listing it pays only when it is right more than 5 in 6 times
(p − 5(1 − p) > 0 ⇔ p > 5/6). Leaving it out never costs more than the one period it misses, so
"every deed in the packet is a period" scores 0 on packets full of corrective, wild and foreign
deeds.

The bootstrap resamples packets (cases); packets are independent by construction (each drawn
from its own seeded stream), the periods within one packet are not.

Predictions are data: the strict converter reads them into `Prediction` (periods with strings
and ISO dates) and the scorer only compares them with the answer.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import attrs

import envirobench
from envirobench import Case, CaseScore, iso_date, not_blank, pdf_path

from .copies import ScannedPage
from .scores import penalised_score

DATASETS = {
    "synthetic-dev-v1": "envirobench/chain-of-title-synthetic-dev-v1",
    "synthetic-test-v1": "envirobench/chain-of-title-synthetic-test-v1",
}
PENALTY = 5  # categories.CHAIN_OF_TITLE: one foreign or invented period cancels five exact ones

BOOK_WORD = re.compile(r"\b(book|bk|vol|volume|liber|o\.?\s?r\.?)\b", re.I)
PAGE_WORD = re.compile(r"\b(page|pg|p)\b", re.I)
NUMBERS = re.compile(r"\d+")


def reference_key(text: str) -> str:
    """A recording reference normalised: "B838P558" for a book and page, else the digits
    without leading zeros ("" when there are none)."""
    numbers = NUMBERS.findall(text)
    if BOOK_WORD.search(text) and PAGE_WORD.search(text) and len(numbers) >= 2:
        return f"B{int(numbers[0])}P{int(numbers[1])}"
    digits = "".join(numbers).lstrip("0")
    return digits


def name_key(name: str) -> str:
    """A grantee's name normalised: case, punctuation and spacing ignored, "&" as "and", no leading "the"."""
    text = name.casefold().replace("&", " and ")
    text = re.sub(r"[^\w\s]", " ", text)
    words = text.split()
    if words and words[0] == "the":
        words = words[1:]
    return " ".join(words)


@attrs.frozen
class Input:
    """One case: the packet (a dataset-relative PDF path) and the subject parcel's APN and short
    legal description."""

    packet: str = attrs.field(validator=pdf_path)
    apn: str = attrs.field(validator=not_blank)
    parcel: str = attrs.field(validator=not_blank)


@attrs.frozen
class Period:
    """One ownership period, as a system states it."""

    grantee: str = attrs.field(validator=not_blank)
    from_date: str = attrs.field(validator=iso_date)
    to_date: str | None = attrs.field(validator=iso_date)
    instrument: str = attrs.field(validator=not_blank)


@attrs.frozen
class TruePeriod:
    """One true ownership period; `other_references` are further forms the stamp shows (a book
    and page beside the instrument number), accepted as the reference too."""

    grantee: str = attrs.field(validator=not_blank)
    from_date: str = attrs.field(validator=iso_date)
    to_date: str | None = attrs.field(validator=iso_date)
    instrument: str = attrs.field(validator=not_blank)
    other_references: tuple[str, ...] = ()

    def reference_keys(self) -> frozenset[str]:
        return frozenset(reference_key(ref) for ref in (self.instrument, *self.other_references))


def _chain(instance: Any, attribute: attrs.Attribute, value: tuple[TruePeriod, ...]) -> None:
    if not value:
        raise ValueError(f"{attribute.name} is empty: every packet has a first deed")
    for earlier, later in zip(value, value[1:], strict=False):
        if earlier.to_date != later.from_date:
            raise ValueError(
                f"{attribute.name}: a period must end where the next begins ({earlier.to_date} != {later.from_date})"
            )
    if value[-1].to_date is not None:
        raise ValueError(f"{attribute.name}: the last period is the owner of record's; its to_date is null")


@attrs.frozen
class Answer:
    """The truth: the periods, oldest first. `traps` (the packet's trap kinds), `instruments`
    and `scanned_instruments` describe the packet for breakdowns and are not scored."""

    periods: tuple[TruePeriod, ...] = attrs.field(validator=_chain)
    traps: tuple[str, ...]
    instruments: int
    scanned_instruments: int
    scan_pages: tuple[ScannedPage, ...] = ()  # what each scanned page went through (copies.py)


@attrs.frozen
class Prediction:
    """A system's chain: the subject parcel's ownership periods (any order; oldest first is usual)."""

    periods: tuple[Period, ...]


def match(truth: tuple[TruePeriod, ...], predicted: tuple[Period, ...]) -> tuple[dict[int, int], list[int]]:
    """(predicted index -> true index) for matched periods, and the predicted indexes that match none."""
    matched: dict[int, int] = {}
    taken: set[int] = set()
    unmatched: list[int] = []
    keys = [period.reference_keys() for period in truth]
    for index, period in enumerate(predicted):
        key = reference_key(period.instrument)
        found = next((t for t, k in enumerate(keys) if t not in taken and key and key in k), None)
        if found is None and not any(key and key in k for k in keys):
            # A misread reference: the same owner from the same day is still the same period.
            name = name_key(period.grantee)
            found = next(
                (
                    t
                    for t, true in enumerate(truth)
                    if t not in taken and name_key(true.grantee) == name and true.from_date == period.from_date
                ),
                None,
            )
        if found is None:
            unmatched.append(index)
        else:
            matched[index] = found
            taken.add(found)
    return matched, unmatched


class ChainOfTitle(envirobench.BenchmarkType):
    ID = "chain-of-title"
    FORMAT = "envirobench.chain-of-title.v1"
    LABEL = "Chain of title"
    SCORING_VERSION = "envirobench.chain-of-title.scores.v1"
    TIER = "document"
    PROFILES = ("chain",)
    HEADLINE = (
        "chain_score",
        "chain_score_unclipped",
        "periods_exact",
        "periods_foreign_or_invented",
        "periods",
        "period_precision",
        "period_recall",
        "packets_exact",
    )
    SOURCE_FIELDS = ("packet",)

    def score_case(self, case: Case, answer: Answer, prediction: Prediction) -> dict[str, CaseScore]:
        truth = answer.periods
        matched, unmatched = match(truth, prediction.periods)
        errors: list[tuple[str, ...]] = []
        exact = 0
        for p_index, t_index in sorted(matched.items(), key=lambda item: item[1]):
            period, true = prediction.periods[p_index], truth[t_index]
            wrong = []
            if name_key(period.grantee) != name_key(true.grantee):
                wrong.append("wrong-grantee")
            if period.from_date != true.from_date:
                wrong.append("wrong-from-date")
            if period.to_date != true.to_date:
                wrong.append("wrong-to-date")
            if reference_key(period.instrument) not in true.reference_keys():
                wrong.append("wrong-instrument")
            errors += [(kind, true.instrument) for kind in wrong]
            exact += not wrong
        found = set(matched.values())
        errors += [("missing-period", true.instrument) for t, true in enumerate(truth) if t not in found]
        errors += [
            ("foreign-or-invented-period", reference_key(prediction.periods[i].instrument) or "none") for i in unmatched
        ]
        metrics = {
            "periods_exact": float(exact),
            "periods_foreign_or_invented": float(len(unmatched)),
            "periods": float(len(truth)),
            "predicted": float(len(prediction.periods)),
            "packet_exact": 1.0 if exact == len(truth) and not unmatched else 0.0,
        }
        return {"chain": CaseScore(errors=tuple(errors), metrics=metrics)}

    def summarize_totals(self, profile: str, totals: Mapping[str, float], cases: int) -> dict[str, float]:
        exact, foreign, periods = totals["periods_exact"], totals["periods_foreign_or_invented"], totals["periods"]
        predicted = totals["predicted"]
        return {
            **penalised_score("chain", exact, foreign, periods, PENALTY),
            "periods_exact": exact,
            "periods_foreign_or_invented": foreign,
            "periods": periods,
            "period_precision": exact / predicted if predicted else 0.0,
            "period_recall": exact / periods,
            "packets_exact": totals["packet_exact"] / cases,
        }
