"""The seeded generator of the `qualifier-flags` datasets (dev and test), and their fixtures.

Each case is one laboratory report's result rows and qualifier legend
(envirobench_synth.verify.qualifiers.sample_qualifier_report), in the laboratory-report families
of its split (dev and test families, legend wordings and footnote symbols are disjoint). Reports
carry 9 to 14 rows; the test split holds over 1,000 results. The case category is the family.
Each report draws from its own stream, make_random(SEED, split, case_id); regenerating
reproduces every file byte for byte.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from envirobench import FixturePlan, Manifest, copy_fields, dataset_writer, split_of, unstructure
from envirobench_synth.verify.qualifiers import QualifierReport, sample_qualifier_report

from ..qualifier_flags import (
    Answer,
    Input,
    Meaning,
    QualifierFlags,
    ResultRow,
    RowTrap,
)
from .report_rows import draw_reports, report_cases

SEED = 20261601
VERSION = 1
SIZES = {"dev": 48, "test": 96}  # reports; 9 to 14 results each


def case_of(report: QualifierReport) -> tuple[Input, Answer]:
    rows = tuple(copy_fields(ResultRow, row) for row in report.rows)
    meanings = tuple(Meaning(result=row.id, **row.meanings) for row in report.rows)  # type: ignore[arg-type]
    traps = tuple(RowTrap(row.id, trap) for row in report.rows for trap in row.traps)
    return Input(legend=report.legend, results=rows), Answer(results=meanings, traps=traps)


def generate(output_dir: Path, dataset: str = "synthetic-dev-v1") -> Manifest:
    """Write dataset `dataset` (a key of DATASETS) into `output_dir` and return its manifest."""
    write = dataset_writer(QualifierFlags, dataset, seed=SEED, version=VERSION)
    split = split_of(dataset)
    drawn = draw_reports(SEED, "qf", dataset, SIZES[split], sample_qualifier_report, rows=(9, 14))
    results = sum(len(r.rows) for _, r in drawn)
    traps = Counter(t for _, r in drawn for row in r.rows for t in row.traps)

    return write(
        output_dir,
        report_cases(drawn, case_of),
        title=f"Qualifier flags, synthetic {split} v1",
        description=(
            f"{len(drawn)} synthetic laboratory reports of the {split} split's families with "
            f"{results} results: each result's laboratory and validator qualifiers and the "
            "report's qualifier legend. Results with traps: "
            + ", ".join(f"{t} {n}" for t, n in sorted(traps.items()))
            + ". The answer is what each result's flags mean (detected, estimated and its bias, "
            "blank contamination, over range, diluted, rejected, tentatively identified)."
        ),
    )


# -- fixtures -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class FlagMistake:
    """A deliberate mistake in wrong.json: on the first result with `trap` (in a case no other
    mistake took), `meaning` is given the wrong value `value`."""

    trap: str
    meaning: str
    value: object
    why: str


MISTAKES: tuple[FlagMistake, ...] = (
    FlagMistake("footnote-flag", "estimated", None, "a footnote-defined flag read wrongly"),
    FlagMistake("redefined-B", "blank_contamination", True, "a CLP-convention B read as a blank"),
    FlagMistake("redefined-E", "over_range", True, "a CLP-convention E read as over range"),
    FlagMistake("combined-flags", "diluted", None, "one of two flags missed"),
    FlagMistake("rejected", "detected", True, "a rejected result called detected"),
    FlagMistake("validator-flag", "estimate_bias", None, "a validator's bias missed"),
    FlagMistake("tic", "tentatively_identified", False, "a tentative identification missed"),
)


def _target(answer: Answer, mistake: FlagMistake) -> Meaning | None:
    """The first result of the answer with the mistake's trap whose meaning the mistake changes."""
    for meaning in answer.results:
        value = _wrong_value(meaning, mistake)
        if value != getattr(meaning, mistake.meaning) and mistake.trap in _row_traps(
            answer, meaning
        ):
            return meaning
    return None


def _row_traps(answer: Answer, meaning: Meaning) -> tuple[str, ...]:
    return tuple(t.trap for t in answer.traps if t.result == meaning.result)


def _wrong_value(meaning: Meaning, mistake: FlagMistake) -> object:
    current = getattr(meaning, mistake.meaning)
    if mistake.value is not None:
        return mistake.value
    if mistake.meaning == "estimate_bias":
        return "none" if current != "none" else current
    return not current


# Case ID -> the mistake wrong.json makes there: each on the first report with a result it fits.
planted = FixturePlan.first_fitting(
    MISTAKES, lambda mistake, answer: _target(answer, mistake) is not None, answer=Answer, unit="report"
)


def wrong_prediction(mistake: FlagMistake, answer: Answer, prediction: dict) -> dict:
    target = _target(answer, mistake)
    assert target is not None  # plant_mistakes chose the case because it fits
    return {
        "results": [
            {**row, mistake.meaning: _wrong_value(target, mistake)} if row["result"] == target.result else row
            for row in prediction["results"]
        ]
    }


FIXTURES = FixturePlan(
    Answer,
    correct=lambda answer: {"results": [unstructure(m) for m in answer.results]},
    planted=planted,
    wrong=wrong_prediction,
)
