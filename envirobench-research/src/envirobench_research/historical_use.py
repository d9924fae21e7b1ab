"""Benchmark type `historical-use`: a property's past uses, with their periods, from its sources.

A case is one property's historical sources (`Input.document`, a text-layer PDF of one to three
pages as a Phase I report's appendix bundles them): city directory listings by year for the
property's address and its neighbours', fire-insurance (Sanborn-style) map descriptions and
aerial photograph descriptions. `Input.address` names the property; `Input.uses` is the pinned
vocabulary of uses (residential, agricultural, vacant, gasoline-station, auto-repair,
dry-cleaner, manufacturing, warehouse, retail, office, restaurant, parking).

A system answers the property's past uses as periods (`Prediction.periods`: use, from year, to
year, both inclusive). The truth (envirobench_synth.research.history) is what the sources
document: for each run of one use on the property, from the first to the last year of a source
that shows that use there (a directory entry at the property's own number, a map or photograph
describing the use). Entries for neighbouring numbers, directory years with no entry ("No
listing", "No return"), photographs whose use cannot be discerned and map sheets that miss the
property show nothing. Two uses may run at once (two occupants in one building). A new occupant
with the same use continues the period.

Matching (stated rule, `TOLERANCE` = 5 years): a predicted period matches a true one when the use
is the same and both its from-year and its to-year are within 5 years of the true one's (sources
are five to ten years apart, so a period's true start lies somewhere between two source years).
Each true period matches at most one predicted period and vice versa: per use, pairs are taken
in order of their total year difference (smallest first), which for these small sets gives a
maximum matching.

Scoring (one profile, `periods`, the default gate), per history:

    true_positives   matched pairs;  false_positives  unmatched predicted periods;
    false_negatives  unmatched true periods
    uses_tp/fp/fn    the same for the set of uses, dates ignored

Headline: `period_f1` (primary: 2 TP / (2 TP + FP + FN) pooled over the run's periods),
`period_precision`, `period_recall` (each left out (n/a) where undefined: precision when nothing was claimed, recall when nothing was to be found), `use_f1` (pooled F1 of the sets of uses, dates ignored),
`periods` (true periods) and `histories`. Component score = 100 x period_f1.

Errors (the gate uses them): ("missed-period", use, from, to) for a true period left unmatched,
("extra-period", use, from, to) for a predicted one.

Blind baselines (docs/reference-scores.md): one use for all years (residential, 1930-2020),
vacant throughout and the empty answer; all score a period F1 of 0.

Predictions are data: each use must be one of `USES`, years integers within 1800-2100 with from
<= to, at most 200 periods; a duplicate period is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

import envirobench
from envirobench import Case, CaseScore, f1, pdf_path, pooled_f1, set_counts

DATASETS = {
    "synthetic-dev-v1": "envirobench/historical-use-synthetic-dev-v1",
    "synthetic-test-v1": "envirobench/historical-use-synthetic-test-v1",
}
USES = (
    "residential", "agricultural", "vacant", "gasoline-station", "auto-repair", "dry-cleaner",
    "manufacturing", "warehouse", "retail", "office", "restaurant", "parking",
)  # fmt: skip
TOLERANCE = 5
FIRST_YEAR, LAST_YEAR = 1800, 2100
MAX_PERIODS = 200
TRAPS = (
    "adjacent-address",
    "not-listed",
    "undiscernible",
    "concurrent",
    "renamed",
    "trade-abbreviation",
)


def _use(instance: Any, attribute: attrs.Attribute, value: str) -> None:
    if value not in USES:
        raise ValueError(
            f"{attribute.name}: {value[:60]!r} is not a use of the vocabulary ({', '.join(USES)})"
        )


def _year(instance: Any, attribute: attrs.Attribute, value: int) -> None:
    if not FIRST_YEAR <= value <= LAST_YEAR:
        raise ValueError(f"{attribute.name}: {value} is not a year within {FIRST_YEAR}-{LAST_YEAR}")


@attrs.frozen
class Period:
    """One use of the property from `from_year` to `to_year` (both inclusive)."""

    use: str = attrs.field(validator=_use)
    from_year: int = attrs.field(validator=_year)
    to_year: int = attrs.field(validator=_year)

    def __attrs_post_init__(self) -> None:
        if self.from_year > self.to_year:
            raise ValueError(f"from_year {self.from_year} is after to_year {self.to_year}")


def _periods(instance: Any, attribute: attrs.Attribute, value: tuple[Period, ...]) -> None:
    if len(value) > MAX_PERIODS:
        raise ValueError(f"{attribute.name}: more than {MAX_PERIODS} periods")
    if len(set(value)) != len(value):
        raise ValueError(f"{attribute.name}: a period is repeated")


@attrs.frozen
class Input:
    """One property's historical sources (dataset-relative PDF), its address and the uses'
    vocabulary."""

    document: str = attrs.field(validator=pdf_path)
    address: str
    uses: tuple[str, ...]

    def __attrs_post_init__(self) -> None:
        if tuple(self.uses) != USES:
            raise ValueError(f"uses must be the pinned vocabulary {list(USES)}")


@attrs.frozen
class Answer:
    """The documented periods; `traps` (the history's traps) and `style` describe the case for
    breakdowns and are not scored."""

    periods: tuple[Period, ...] = attrs.field(validator=_periods)
    traps: tuple[str, ...]
    style: str

    def __attrs_post_init__(self) -> None:
        if not self.periods:
            raise ValueError("periods is empty: every history documents some use")
        unknown = sorted(set(self.traps) - set(TRAPS))
        if unknown:
            raise ValueError(f"traps: unknown trap(s) {unknown}")


@attrs.frozen
class Prediction:
    """A system's periods: each a use of the vocabulary with its from and to years."""

    periods: tuple[Period, ...] = attrs.field(validator=_periods)


def match(truth: tuple[Period, ...], predicted: tuple[Period, ...]) -> list[tuple[Period, Period]]:
    """Matched (true, predicted) pairs under TOLERANCE, one-to-one, closest pairs first."""
    candidates = sorted(
        (abs(t.from_year - p.from_year) + abs(t.to_year - p.to_year), i, j)
        for i, t in enumerate(truth)
        for j, p in enumerate(predicted)
        if t.use == p.use
        and abs(t.from_year - p.from_year) <= TOLERANCE
        and abs(t.to_year - p.to_year) <= TOLERANCE
    )
    used_t: set[int] = set()
    used_p: set[int] = set()
    pairs = []
    for _, i, j in candidates:
        if i not in used_t and j not in used_p:
            used_t.add(i)
            used_p.add(j)
            pairs.append((truth[i], predicted[j]))
    return pairs


USE_COUNTS = ("uses_tp", "uses_fp", "uses_fn")  # the matching of the set of uses, beside the periods


class HistoricalUse(envirobench.BenchmarkType):
    ID = "historical-use"
    FORMAT = "envirobench.historical-use.v1"
    LABEL = "Historical use"
    SCORING_VERSION = "envirobench.historical-use.scores.v1"
    TIER = "document"
    PROFILES = ("periods",)
    HEADLINE = ("period_f1", "period_precision", "period_recall", "use_f1", "periods", "histories")
    SOURCE_FIELDS = ("document",)

    def score_case(
        self, case: Case, answer: Answer, prediction: Prediction
    ) -> dict[str, CaseScore]:
        pairs = match(answer.periods, prediction.periods)
        matched_t = {id(t) for t, _ in pairs}
        matched_p = {id(p) for _, p in pairs}
        errors = [
            ("missed-period", t.use, t.from_year, t.to_year)
            for t in answer.periods
            if id(t) not in matched_t
        ]
        errors += [
            ("extra-period", p.use, p.from_year, p.to_year)
            for p in prediction.periods
            if id(p) not in matched_p
        ]
        true_uses = {t.use for t in answer.periods}
        predicted_uses = {p.use for p in prediction.periods}
        metrics = {
            "true_positives": float(len(pairs)),
            "false_positives": float(len(prediction.periods) - len(pairs)),
            "false_negatives": float(len(answer.periods) - len(pairs)),
            **set_counts(true_uses, predicted_uses, USE_COUNTS),
            "period": float(len(answer.periods)),
            "history": 1.0,
        }
        return {"periods": CaseScore(errors=tuple(sorted(set(errors))), metrics=metrics)}

    def summarize_totals(
        self, profile: str, totals: Mapping[str, float], cases: int
    ) -> dict[str, float]:
        return {
            **pooled_f1("period", totals),
            "use_f1": f1(*(totals[name] for name in USE_COUNTS)),
            "periods": totals["period"],
            "histories": totals["history"],
        }
