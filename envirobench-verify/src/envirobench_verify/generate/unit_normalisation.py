"""The seeded generator of the `unit-normalisation` datasets (dev and test), and their fixtures.

Each case is one laboratory report's rows to convert (envirobench_synth.verify.units
.sample_unit_report), in the laboratory-report families of its split (dev and test families and
the spellings of units, bases, species, solids notes, gas units and conditions, leachates and
qualifiers are disjoint), with the traps of real practice the sampler lists (gases by volume,
leachates, the basis in the unit, qualifiers and thousands grouped). Reports carry 10 to 14
rows; the test split holds over 1,000 values. The case category is the family. Each report draws
from its own stream, make_random(SEED, split, case_id); regenerating reproduces every file byte
for byte.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from envirobench import FixturePlan, Manifest, copy_fields, dataset_writer, split_of
from envirobench_synth.verify.units import UnitReport, sample_unit_report

from ..unit_normalisation import Answer, Input, TruthRow, UnitNormalisation, UnitRow
from .report_rows import draw_reports, report_cases

SEED = 20261602
VERSION = 1
SIZES = {"dev": 50, "test": 120}  # reports; 10 to 14 rows each


def case_of(report: UnitReport) -> tuple[Input, Answer]:
    rows = tuple(copy_fields(UnitRow, r) for r in report.rows)
    truth = tuple(TruthRow(result=r.id, value=r.truth, kind=r.kind) for r in report.rows)  # type: ignore[arg-type]
    return Input(results=rows), Answer(results=truth)


def generate(output_dir: Path, dataset: str = "synthetic-dev-v1") -> Manifest:
    """Write dataset `dataset` (a key of DATASETS) into `output_dir` and return its manifest."""
    write = dataset_writer(UnitNormalisation, dataset, seed=SEED, version=VERSION)
    split = split_of(dataset)
    drawn = draw_reports(SEED, "un", dataset, SIZES[split], sample_unit_report, rows=(10, 14))
    kinds = Counter(row.kind for _, r in drawn for row in r.rows)

    return write(
        output_dir,
        report_cases(drawn, case_of),
        title=f"Unit normalisation, synthetic {split} v1",
        description=(
            f"{len(drawn)} synthetic laboratory reports of the {split} split's families with "
            f"{sum(kinds.values())} result values to convert to a target unit and basis. "
            "Conversions: "
            + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
            + ". The answer is each value in its target unit and basis (relative tolerance 0.5 %)."
        ),
    )


# -- fixtures -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class UnitMistake:
    """A deliberate mistake in wrong.json: on the first row of `kind` (in a case no other mistake
    took), the value is multiplied by `factor`."""

    kind: str
    factor: float
    why: str


MISTAKES: tuple[UnitMistake, ...] = (
    UnitMistake("mass-volume", 1000.0, "µg/L and mg/L confused"),
    UnitMistake("wet-to-dry", 0.8, "the wet-weight value left unconverted to dry weight"),
    UnitMistake("species", 4.427, "nitrate as N and as NO3 confused"),
    UnitMistake("ppm-ppb", 0.001, "ppm and ppb confused"),
    UnitMistake("moisture-to-dry", 1.25, "percent moisture taken for percent solids"),
    UnitMistake("gas-volume", 0.25, "a gas's ppbv copied as µg/m³ (benzene's factor is 3.19)"),
    UnitMistake("unit-basis", 1.25, "a value printed dry in its unit taken as wet"),
)


def _target(answer: Answer, mistake: UnitMistake) -> TruthRow | None:
    return next((r for r in answer.results if r.kind == mistake.kind), None)


# Case ID -> the mistake wrong.json makes there: each on the first report with a result it fits.
planted = FixturePlan.first_fitting(
    MISTAKES, lambda mistake, answer: _target(answer, mistake) is not None, answer=Answer, unit="report"
)


def wrong_prediction(mistake: UnitMistake, answer: Answer, prediction: dict) -> dict:
    target = _target(answer, mistake)
    assert target is not None  # plant_mistakes chose the case because it fits
    return {
        "results": [
            {"result": r["result"], "value": r["value"] * mistake.factor} if r["result"] == target.result else r
            for r in prediction["results"]
        ]
    }


FIXTURES = FixturePlan(
    Answer,
    correct=lambda answer: {"results": [{"result": r.result, "value": r.value} for r in answer.results]},
    planted=planted,
    wrong=wrong_prediction,
)
