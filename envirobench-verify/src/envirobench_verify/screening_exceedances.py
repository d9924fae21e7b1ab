"""Benchmark type `screening-exceedances`: a laboratory report's results screened against the
tables a case names.

A case is one laboratory report as a PDF (`Input.document`: born digital, or with its results
pages scanned), the pinned catalogue of screening tables (`Input.standards`, a JSON file shared by
the dataset: every row with its table ID, jurisdiction, program, medium, land use, analyte, CAS
number, value, unit, basis, whether it is enforceable, the dates it is in force and its source)
and the IDs of the tables that apply (`Input.tables`: one, or the primary and secondary MCLs
together). A system returns its findings (`Prediction.findings`): each result that exceeds a
level, with the factor, and each non-detect whose reporting limit is above the level.

Truth rules (envirobench_synth.verify.screening.findings_of):
- screened: results of field samples and field duplicates (field blanks are not screened) in
  the total or dissolved fraction (TCLP/SPLP leachates and percent solids are not), against the
  row of each named table for that analyte (matched by CAS number) on the same basis (a total
  result with a total row, a dissolved result with a dissolved row; nitrate with its row as N),
  in force on the sample's collection date as the report prints it;
- units are converted to the table's (a VOC in µg/L against an MCL in mg/L; nitrate printed as
  NO3 is converted to as N by 14.007 ÷ 62.004);
- "exceeds": a detection strictly above the level; `factor` = result ÷ level (both in the
  table's unit and basis);
- "cannot-be-ruled-out": a non-detect whose reporting limit (the RL column, not the MDL) is
  strictly above the level; no factor;
- everything else is not a finding. Only the tables the case names count: a secondary MCL or the
  other land use's or THQ's level is not a finding unless its table is named.

A finding names the sample as the report prints it with its results (`sample`; compared case-
and space-insensitively), the analyte as the table names it or by its CAS number
(`substance`), the `fraction` ("total" or "dissolved"), the `screening_table` ID, the `status`
and, for an exceedance, the `factor`.

Scoring (one profile, `findings`, the default gate). A predicted finding matches a true one with
the same sample, substance, fraction, table and status, and for an exceedance a factor within
the relative tolerance FACTOR_TOLERANCE = 0.01 (1 %) of the truth: |f − F| ≤ 0.01 × F. Per
report, true positives, false positives and false negatives are counted (a matched exceedance
with a factor outside the tolerance is one false positive and one false negative); errors name
each ("missed-finding", ...), ("extra-finding", ...) and ("wrong-factor", ...). Headline:

    finding_f1             (primary) 2·TP ÷ (2·TP + FP + FN), pooled over the run's reports
                           (1 when there is nothing to find and nothing is found)
    finding_precision, finding_recall  left out (n/a) where undefined: precision when nothing was
                           claimed, recall when nothing was to be found
    exceedance_recall      the share of true exceedances found with the right factor
    cannot_rule_out_recall the share of true "cannot be ruled out" findings found
    factor_right           the share of exceedances found (sample, substance, fraction, table)
                           whose factor is within tolerance
    reports_exact          the share of reports whose findings are exactly right
    reports

Traps (in the answer's `traps`, per report): "unit-decides", "nitrate-decides",
"date-decides" (arsenic's MCL 0.05 mg/L before 2006-01-23 and 0.010 mg/L from then; the State of
Franklin's 2018-07-01 revision; the residential soil lead level from 2024-01-17),
"dates-straddle-change", "thq-decides" (THQ 0.1 vs 1.0), "exposure-decides" (residential vs
industrial), "secondary-not-named" (a secondary MCL exceeded where only primary MCLs are named),
"total-not-compared" / "dissolved-not-compared" (a table on one basis only),
"nondetect-limit-above", "scanned".

Blind baseline (docs): "no exceedances" (the empty prediction; finding F1 0). The bootstrap
resamples reports.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any, Literal

import attrs

import envirobench
from envirobench import Case, CaseScore, not_blank, pdf_path, precision_recall, share

DATASETS = {
    "synthetic-dev-v1": "envirobench/screening-exceedances-synthetic-dev-v1",
    "synthetic-test-v1": "envirobench/screening-exceedances-synthetic-test-v1",
}
FACTOR_TOLERANCE = 0.01
Status = Literal["exceeds", "cannot-be-ruled-out"]
Fraction = Literal["total", "dissolved"]


def _json(instance: Any, attribute: attrs.Attribute, value: str) -> None:
    if not value.lower().endswith(".json"):
        raise ValueError(f"{attribute.name} must name a JSON file, got {value!r}")


def _factor(instance: Any, attribute: attrs.Attribute, value: float | None) -> None:
    if value is not None and (isinstance(value, bool) or not math.isfinite(value) or value <= 0):
        raise ValueError(f"{attribute.name} must be a finite positive number, got {value!r}")


def _tables(instance: Any, attribute: attrs.Attribute, value: tuple[str, ...]) -> None:
    if not value or len(set(value)) != len(value) or not all(t.strip() for t in value):
        raise ValueError(f"{attribute.name} must name one or more distinct tables, got {value!r}")


@attrs.frozen
class Input:
    document: str = attrs.field(validator=pdf_path)
    standards: str = attrs.field(validator=_json)
    tables: tuple[str, ...] = attrs.field(validator=_tables)


def normal_sample(sample: str) -> str:
    return re.sub(r"\s+", "", sample).casefold()


@attrs.frozen
class Finding:
    """A predicted finding (see the module docstring). `factor` is required for an exceedance
    and ignored for a non-detect."""

    sample: str = attrs.field(validator=not_blank)
    substance: str = attrs.field(validator=not_blank)
    fraction: Fraction
    screening_table: str = attrs.field(validator=not_blank)
    status: Status
    factor: float | None = attrs.field(default=None, validator=_factor)

    def __attrs_post_init__(self) -> None:
        if self.status == "exceeds" and self.factor is None:
            raise ValueError("factor: an exceedance needs its factor (result ÷ level)")


@attrs.frozen
class TrueFinding:
    """A true finding; `substance` is the table's analyte name, `substance_cas` its CAS number,
    `level_value` and `level_unit` the level it is compared with (for display)."""

    sample: str = attrs.field(validator=not_blank)
    substance: str = attrs.field(validator=not_blank)
    substance_cas: str | None
    fraction: Fraction
    screening_table: str = attrs.field(validator=not_blank)
    status: Status
    factor: float | None = attrs.field(validator=_factor)
    level_value: float
    level_unit: str


@attrs.frozen
class Answer:
    """The true findings; `compared` (results compared with a level), `traps` and `scanned`
    describe the report and are not scored."""

    findings: tuple[TrueFinding, ...]
    compared: int
    traps: tuple[str, ...]
    scanned: bool


@attrs.frozen
class Prediction:
    """Every finding, in any order; two findings with the same sample, substance, fraction,
    table and status are refused."""

    findings: tuple[Finding, ...] = attrs.field()

    @findings.validator
    def _distinct(self, attribute: attrs.Attribute, value: tuple[Finding, ...]) -> None:
        keys = [
            (
                normal_sample(f.sample),
                f.substance.casefold(),
                f.fraction,
                f.screening_table,
                f.status,
            )  # fmt: skip
            for f in value
        ]
        if len(keys) != len(set(keys)):
            raise ValueError(f"{attribute.name}: a finding is listed twice")


def _label(f: TrueFinding) -> tuple[str, str, str, str, str]:
    return (f.sample, f.substance, f.fraction, f.screening_table, f.status)


class ScreeningExceedances(envirobench.BenchmarkType):
    ID = "screening-exceedances"
    FORMAT = "envirobench.screening-exceedances.v1"
    LABEL = "Screening exceedances"
    SCORING_VERSION = "envirobench.screening-exceedances.scores.v1"
    TIER = "document"
    PROFILES = ("findings",)
    HEADLINE = (
        "finding_f1",
        "finding_precision",
        "finding_recall",
        "exceedance_recall",
        "cannot_rule_out_recall",
        "factor_right",
        "reports_exact",
        "reports",
    )
    SOURCE_FIELDS = ("document", "standards")
    CLUSTER_UNIT = "report"

    def score_case(
        self, case: Case, answer: Answer, prediction: Prediction
    ) -> dict[str, CaseScore]:
        unmatched = list(prediction.findings)
        errors: list[tuple[Any, ...]] = []
        m = dict.fromkeys(
            (
                "tp",
                "fn",
                "true exceeds",
                "found exceeds",
                "true cbro",
                "found cbro",
                "located exceeds",
                "factor right",
            ),  # fmt: skip
            0.0,
        )
        for truth in answer.findings:
            kind = "exceeds" if truth.status == "exceeds" else "cbro"
            m[f"true {kind}"] += 1
            guess = next(
                (
                    p
                    for p in unmatched
                    if normal_sample(p.sample) == normal_sample(truth.sample)
                    and p.substance.strip().casefold()
                    in (truth.substance.casefold(), (truth.substance_cas or "").casefold())
                    and p.fraction == truth.fraction
                    and p.screening_table == truth.screening_table
                    and p.status == truth.status
                ),
                None,
            )
            if guess is None:
                m["fn"] += 1
                errors.append(("missed-finding", *_label(truth)))
                continue
            unmatched.remove(guess)
            if truth.status == "exceeds":
                assert truth.factor is not None and guess.factor is not None
                m["located exceeds"] += 1
                if abs(guess.factor - truth.factor) > FACTOR_TOLERANCE * truth.factor:
                    m["fn"] += 1
                    errors.append(("wrong-factor", *_label(truth)))
                    continue
                m["factor right"] += 1
            m["tp"] += 1
            m[f"found {kind}"] += 1
        for extra in unmatched:
            errors.append(
                (
                    "extra-finding",
                    extra.sample,
                    extra.substance,
                    extra.fraction,
                    extra.screening_table,
                    extra.status,
                )  # fmt: skip
            )
        # A wrong factor is a false negative (above) and a false positive (here).
        m["fp"] = float(len(unmatched)) + sum(1 for e in errors if e[0] == "wrong-factor")
        m["exact"] = 1.0 if not errors else 0.0
        m["report"] = 1.0
        return {"findings": CaseScore(errors=tuple(sorted(errors, key=repr)), metrics=m)}

    def summarize_totals(
        self, profile: str, totals: Mapping[str, float], cases: int
    ) -> dict[str, float]:
        tp, fp, fn = totals["tp"], totals["fp"], totals["fn"]
        return {
            "finding_f1": share(2 * tp, 2 * tp + fp + fn),
            **precision_recall("finding", tp, fp, fn),
            "exceedance_recall": share(totals["found exceeds"], totals["true exceeds"]),
            "cannot_rule_out_recall": share(totals["found cbro"], totals["true cbro"]),
            "factor_right": share(totals["factor right"], totals["located exceeds"]),
            "reports_exact": totals["exact"] / totals["report"],
            "reports": totals["report"],
        }
