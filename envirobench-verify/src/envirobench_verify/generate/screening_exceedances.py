"""The seeded generator of the `screening-exceedances` datasets (dev and test), and their
fixtures.

Each case is one laboratory report (envirobench_synth.verify.screening.sample_screening_report:
a report of the laboratory-report families of its split, dates moved into the window its
screening scenario tests, some detections moved near the levels) and the tables its scenario
names; every case reads the same pinned catalogue of screening tables (`assets/standards.json`,
envirobench_synth.standards as JSON). Scenarios (MCLs alone or with secondary MCLs, RSL tap water
and soils in THQ 1.0 and 0.1, residential and industrial, the State of Franklin's tables) are
dealt in turn; every tenth report has its results pages scanned. The case category is the
scenario. Each report draws from its own stream, make_random(SEED, split, case_id); regenerating
reproduces every file byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from envirobench import FixturePlan, GeneratedCase, Manifest, dataset_writer, split_of
from envirobench_synth import standards
from envirobench_synth.rng import make_random
from envirobench_synth.verify.screening import SCENARIOS, ScreeningReport, sample_screening_report

from ..screening_exceedances import (
    Answer,
    Input,
    ScreeningExceedances,
    TrueFinding,
)

SEED = 20261603
VERSION = 1
SIZES = {"dev": 50, "test": 110}  # reports: eleven scenarios in turn
SCANNED_EVERY = 10
STANDARDS_FILE = "assets/standards.json"


def draw(folder: str, index: int) -> tuple[str, ScreeningReport]:
    split = split_of(folder)
    case_id = f"se-{split}-{index + 1:04d}"
    scenario = SCENARIOS[index % len(SCENARIOS)]
    scanned = index % SCANNED_EVERY == SCANNED_EVERY - 1
    report = sample_screening_report(
        make_random(SEED, split, case_id),
        split,
        index // len(SCENARIOS),
        scenario,
        scanned,
        SEED,
        (split, case_id),
    )
    return case_id, report


def answer_of(report: ScreeningReport) -> Answer:
    return Answer(
        findings=tuple(
            TrueFinding(
                sample=f.sample,
                substance=f.analyte,
                substance_cas=f.cas,
                fraction=f.fraction,  # type: ignore[arg-type]
                screening_table=f.table,
                status=f.status,  # type: ignore[arg-type]
                factor=f.factor,
                level_value=f.level,
                level_unit=f.unit,
            )
            for f in report.findings
        ),
        compared=report.compared,
        traps=report.traps,
        scanned="scanned" in report.traps,
    )


def generate(output_dir: Path, dataset: str = "synthetic-dev-v1") -> Manifest:
    """Write dataset `dataset` (a key of DATASETS) into `output_dir` and return its manifest."""
    write = dataset_writer(ScreeningExceedances, dataset, seed=SEED, version=VERSION)
    split = split_of(dataset)

    def cases(root: Path) -> Iterator[GeneratedCase]:
        rows = standards.as_json(standards.STANDARDS)
        text = json.dumps({"format": "envirobench.screening-tables.v1", "rows": rows},
                          ensure_ascii=False, separators=(",", ":"), sort_keys=True)  # fmt: skip
        (root / STANDARDS_FILE).write_text(text + "\n", encoding="utf-8")
        for index in range(SIZES[split]):
            case_id, report = draw(dataset, index)
            path = f"assets/{case_id}.pdf"
            (root / path).write_bytes(report.pdf)
            yield (
                case_id,
                report.scenario.name,
                Input(document=path, standards=STANDARDS_FILE, tables=report.scenario.tables),
                answer_of(report),
            )

    return write(
        output_dir,
        cases,
        title=f"Screening exceedances, synthetic {split} v1",
        description=_DESCRIPTIONS[split],
    )


_DESCRIPTIONS = {
    split: (
        f"{SIZES[split]} synthetic laboratory reports of the {split} split's families (every "
        f"{SCANNED_EVERY}th with its results pages scanned), each screened against the tables its "
        "scenario names from a pinned catalogue of screening levels with their sources and dates "
        "in force (EPA MCLs with arsenic's 2006-01-23 change and the lead action level, secondary "
        "MCLs, RSLs for tap water and residential and industrial soil in THQ 1.0 and 0.1 with the "
        "2024-01-17 residential soil lead level, and the fictitious State of Franklin's tables in "
        "two editions). Traps: units (µg/L results, MCLs in mg/L), nitrate as NO3 against a level "
        "as N, values in force by sampling date (samples on both sides of a change), THQ 0.1 vs "
        "1.0, residential vs industrial, secondary MCLs where only primary ones are named, total "
        "vs dissolved metals, non-detects whose reporting limit is above the level. The answer is "
        "every exceedance with its factor and every non-detect that cannot be ruled out."
    )
    for split in ("dev", "test")
}


# -- fixtures -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScreeningMistake:
    """A deliberate mistake in wrong.json, on the first report with a finding of `status` (and
    `table_part` in its table ID) no other mistake took: "drop" leaves the finding out,
    "factor" multiplies its factor by 1000 (a unit confused)."""

    status: str
    table_part: str
    change: str
    why: str


MISTAKES: tuple[ScreeningMistake, ...] = (
    ScreeningMistake("exceeds", "epa-mcl", "factor", "µg/L compared with an MCL in mg/L as is"),
    ScreeningMistake("cannot-be-ruled-out", "", "drop", "a non-detect above the level missed"),
    ScreeningMistake("exceeds", "thq0.1", "drop", "a THQ 0.1 exceedance missed"),
    ScreeningMistake("exceeds", "franklin", "drop", "a State of Franklin exceedance missed"),
)


def _target(answer: Answer, mistake: ScreeningMistake) -> TrueFinding | None:
    return next(
        (
            f
            for f in answer.findings
            if f.status == mistake.status and mistake.table_part in f.screening_table
        ),
        None,
    )


# Case ID -> the mistake wrong.json makes there: each on the first report with a finding it fits.
planted = FixturePlan.first_fitting(
    MISTAKES, lambda mistake, answer: _target(answer, mistake) is not None, answer=Answer, unit="report"
)


def prediction_of(finding: TrueFinding) -> dict[str, object]:
    out: dict[str, object] = {
        "sample": finding.sample,
        "substance": finding.substance,
        "fraction": finding.fraction,
        "screening_table": finding.screening_table,
        "status": finding.status,
    }
    if finding.factor is not None:
        out["factor"] = finding.factor
    return out


def wrong_prediction(mistake: ScreeningMistake, answer: Answer, prediction: dict) -> dict:
    target = _target(answer, mistake)
    assert target is not None  # plant_mistakes chose the case because it fits
    changed = []
    for f in answer.findings:
        if f is not target:
            changed.append(prediction_of(f))
        elif mistake.change == "factor":
            changed.append({**prediction_of(f), "factor": (f.factor or 1.0) * 1000})
    return {"findings": changed}


FIXTURES = FixturePlan(
    Answer,
    correct=lambda answer: {"findings": [prediction_of(f) for f in answer.findings]},
    planted=planted,
    wrong=wrong_prediction,
)
