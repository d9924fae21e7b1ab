"""Benchmark type `qualifier-flags`: what each result's laboratory and validation qualifiers mean.

A case is the result rows of one laboratory report (`Input.results`: an ID, the sample, the
analyte, the result cell as printed, the laboratory's qualifier and, where the data were
validated, the validator's qualifier) with the report's qualifier legend as printed
(`Input.legend`: the footnotes that define the laboratory's flags). A system returns, per
result, what its flags say (`Prediction.results`, one `Meaning` per result ID).

The meanings (every field is scored):

    detected               true: the analyte was detected; false: not detected (U, UJ, "ND",
                           "<RL"); null: cannot be said (the result is rejected, R)
    estimated              the value (or, for UJ, the reporting limit) is approximate
    estimate_bias          "high" (J+), "low" (J-), or "none" (unbiased or not estimated)
    blank_contamination    the analyte was also found in an associated blank
    over_range             the result exceeded the instrument's calibration range
    diluted                the result comes from a diluted analysis
    rejected               the result is unusable (R)
    tentatively_identified the identification is presumptive (N, JN, NJ, TICs)

What each flag means, per the EPA National Functional Guidelines (NFG) for organic and
inorganic data review, and the laboratory conventions that use the same letters:

    U    not detected above the reported (detection or quantitation) limit -> detected false
    J    detected; the value is an estimate (below the RL, or a QC criterion missed)
    J+   estimated, likely biased high;  J-  estimated, likely biased low
    UJ   not detected; the reported limit is approximate -> detected false, estimated
    R    rejected: the data are unusable, presence or absence cannot be said -> rejected,
         detected null (no other meaning is claimed for a rejected result)
    N    presumptive evidence of presence (tentative identification)
    NJ / JN  tentatively identified, value estimated
    B    (laboratory, organics) also found in the associated method blank -> blank contamination
    E    the value exceeds the calibration range -> over range and estimated
    D    the value is from a dilution -> diluted
    A result printed as "ND", "<0.50" or "0.50 U" is a non-detect whatever flag it carries.

Footnote-defined flags. Laboratories define flags of their own in the report's legend (`*`,
`^`, `H`, `Q`, `T`, ...), and some redefine the standard letters: in the legend of a report
written to the older CLP inorganic convention, "B" means a value between the instrument
detection limit and the contract required detection limit (an estimate, not a blank detection),
"E" a value estimated because of interference (not over the calibration range) and "N" a spiked
sample's recovery outside its control limits (an estimate, not a tentative identification).
The legend of the report governs: a flag means what the legend printed with it says, and a
standard letter means its NFG meaning only where the legend does not define it. A flag the legend
defines as a tentatively identified compound (TIC) means tentatively identified and estimated.

Truth rule: a result's meanings are the union of its flags' meanings (laboratory and
validator), with three precedences: a non-detect (U, UJ, "ND", "<...") is detected false even
when another flag (B, J) is printed with it; R overrides everything (rejected true, detected null,
every other meaning false / "none"); and an estimate's bias is "high" or "low" only where one
flag says so (no case flags both).

Scoring (one profile, `meanings`, the default gate). Per result, each of the eight meanings is
right or wrong; errors ("wrong-meaning", result ID, meaning) and ("missing-result", result ID)
(a result the prediction leaves out is wrong in every meaning). Headline:

    results_exact      (primary) the share of results whose eight meanings are all right
    meaning_accuracy   the share of (result, meaning) pairs right
    <meaning>_accuracy the share of results with that meaning right, one per meaning
    results            the number of results

Blind baseline (docs): "every result detected, nothing flagged" (all meanings false / "none",
detected true). Results are clustered by report for the bootstrap (a report's legend is shared).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import attrs

import envirobench
from envirobench import Case, CaseScore, not_blank, share

DATASETS = {
    "synthetic-dev-v1": "envirobench/qualifier-flags-synthetic-dev-v1",
    "synthetic-test-v1": "envirobench/qualifier-flags-synthetic-test-v1",
}
Bias = Literal["high", "low", "none"]
MEANINGS = (
    "detected",
    "estimated",
    "estimate_bias",
    "blank_contamination",
    "over_range",
    "diluted",
    "rejected",
    "tentatively_identified",
)


def _distinct_ids(instance: Any, attribute: attrs.Attribute, value: tuple[Any, ...]) -> None:
    # Input rows carry their `id`; meanings name the row they describe in `result`.
    ids = [row.id if isinstance(row, ResultRow) else row.result for row in value]
    if len(ids) != len(set(ids)):
        raise ValueError(f"{attribute.name}: result IDs must be distinct, got {ids}")


@attrs.frozen
class ResultRow:
    """One result as printed: `printed` is the result cell ("0.50 U", "<0.50", "ND", "12.4"),
    `lab_qualifier` the laboratory's flags column ("" when blank), `validation_qualifier` the
    validator's ("" when the data were not validated or the validator added nothing)."""

    id: str = attrs.field(validator=not_blank)
    sample_id: str
    analyte: str
    unit: str
    printed: str
    lab_qualifier: str
    validation_qualifier: str


@attrs.frozen
class Input:
    """The report's qualifier legend (footnote lines as printed) and its result rows."""

    legend: tuple[str, ...]
    results: tuple[ResultRow, ...] = attrs.field(validator=[_distinct_ids])

    def __attrs_post_init__(self) -> None:
        if not self.results:
            raise ValueError("results is empty")


@attrs.frozen
class Meaning:
    """What one result's flags say (see the module docstring); `result` is the result's ID."""

    result: str = attrs.field(validator=not_blank)
    detected: bool | None
    estimated: bool
    estimate_bias: Bias
    blank_contamination: bool
    over_range: bool
    diluted: bool
    rejected: bool
    tentatively_identified: bool


@attrs.frozen
class RowTrap:
    """A trap one result carries: "footnote-flag", "redefined-B", "redefined-E", "redefined-N"
    (a CLP-convention letter), "validator-flag", "rejected", "tic", "inline-flag",
    "nondetect-with-flag", "combined-flags" (two flags or more)."""

    result: str
    trap: str


@attrs.frozen
class Answer:
    """The truth per result; `traps` (the traps each result carries) describes the case for
    breakdowns and fixtures and is not scored."""

    results: tuple[Meaning, ...] = attrs.field(validator=_distinct_ids)
    traps: tuple[RowTrap, ...]


@attrs.frozen
class Prediction:
    """A system's meanings, one per result (`result`: the result's ID; distinct; a result left
    out is wrong in every meaning, an ID the case does not have is ignored)."""

    results: tuple[Meaning, ...] = attrs.field(validator=_distinct_ids)


class QualifierFlags(envirobench.BenchmarkType):
    ID = "qualifier-flags"
    FORMAT = "envirobench.qualifier-flags.v1"
    LABEL = "Qualifier flags"
    SCORING_VERSION = "envirobench.qualifier-flags.scores.v1"
    TIER = "component"
    PROFILES = ("meanings",)
    HEADLINE = (
        "results_exact",
        "meaning_accuracy",
        *(f"{m}_accuracy" for m in MEANINGS),
        "results",
    )
    CLUSTER_UNIT = "report"

    def score_case(
        self, case: Case, answer: Answer, prediction: Prediction
    ) -> dict[str, CaseScore]:
        predicted = {row.result: row for row in prediction.results}
        errors: list[tuple[str, ...]] = []
        metrics = {"result": 0.0, "exact": 0.0, **{f"right {m}": 0.0 for m in MEANINGS}}
        for truth in answer.results:
            metrics["result"] += 1
            guess = predicted.get(truth.result)
            if guess is None:
                errors.append(("missing-result", truth.result))
                continue
            wrong = [m for m in MEANINGS if getattr(guess, m) != getattr(truth, m)]
            errors += [("wrong-meaning", truth.result, m) for m in wrong]
            metrics["exact"] += not wrong
            for m in MEANINGS:
                metrics[f"right {m}"] += m not in wrong
        return {"meanings": CaseScore(errors=tuple(sorted(errors)), metrics=metrics)}

    def summarize_totals(
        self, profile: str, totals: Mapping[str, float], cases: int
    ) -> dict[str, float]:
        results = totals["result"]
        right = sum(totals[f"right {m}"] for m in MEANINGS)
        return {
            "results_exact": share(totals["exact"], results),
            "meaning_accuracy": share(right, results * len(MEANINGS)),
            **{f"{m}_accuracy": share(totals[f"right {m}"], results) for m in MEANINGS},
            "results": results,
        }
