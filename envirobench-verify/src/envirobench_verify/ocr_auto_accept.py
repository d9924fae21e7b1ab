"""Benchmark type `ocr-auto-accept`: which OCR-read table cells may be accepted without review.

A case is one page image of a laboratory results table (`Input.image`: grayscale PNG, a scanned
grayscale JPEG, or a black-and-white PNG) with an OCR reading of each of its readable cells
(`Input.cells`: the cell's box in image pixels and the text the OCR engine read). The readings
come from a real OCR run (RapidOCR, PP-OCR models) over the very image shipped, pinned in the
dataset: their errors are the engine's own (0/O, 1/l, µ/u, a decimal comma read as a point, a
dropped decimal point or minus sign, a neighbouring cell merged in).

The engine's confidence is withheld (format v2; v1 shipped it in the input, and accepting every
reading at 0.999 or more, reading nothing else, scored near the reference): a system that wants
to know how sure a reading is looks at the image. The dataset does not keep it at all: its
fourth decimal differs between machines, and a dataset must regenerate byte for byte.

A *readable cell* is a body cell of the table (not a header) to which the OCR run assigned text:
some detected text line has its box centre inside the cell's box. Cells the engine found no text
in are not part of the case (nothing to accept).

The truth per cell (`Answer.cells[i].right`): the reading equals the printed text after both are
folded the same way: Unicode NFKC (the Greek mu equals the micro sign, full-width digits equal
ASCII), then every whitespace character removed ("0.50 U" equals "0.50U"). Case, punctuation,
signs and decimal marks count: "0,25" read as "0.25" is wrong, "mg/L" read as "mg/l" is wrong.

A system says, per readable cell in the input's order, `accept` or `review`, optionally with a
`confidence` in [0, 1] that the reading is right.

Scoring (one profile, `accept`). Per case, over its readable cells:

    correct_accepts   accepted cells whose reading is right
    wrong_accepts     accepted cells whose reading is wrong
    readable_cells    the case's readable cells
    score             max(0, (correct_accepts − 10 × wrong_accepts) ÷ readable_cells)  (pooled)
    score_unclipped   (correct_accepts − 10 × wrong_accepts) ÷ readable_cells  (may be negative)
    accept_rate       accepted ÷ readable_cells

`score` is the category formula (envirobench.categories, OCR_AUTO_ACCEPT) over the run's pooled
counts. One wrong accept cancels ten right ones: accepting a cell pays only when its probability
of being right exceeds 10/11 ≈ 0.909 (expected gain p − 10 (1 − p) > 0). Accepting nothing
scores 0; accepting everything scores max(0, 11 × share right − 10), 0 unless more than 90.9 %
of the readings are right.

Risk-coverage (when confidences are given). Each cell with a confidence falls in one of 20 bins
(bin i holds confidences in [i/20, (i+1)/20), 1.0 in the last); the per-case metrics count the
right and wrong cells of each bin (`bin_right_NN`, `bin_wrong_NN`), so the run's curve is
computed from the pooled counts: accepting the highest-confidence bins first, after bins 19..k
the coverage is their cells ÷ the cells with a confidence and the risk their wrong cells ÷ their
cells. `aurc`, the area under that curve at bin resolution, is Σ over non-empty bins from the top
of (the bin's cells ÷ the cells with a confidence) × (the risk once that bin is accepted): the
mean over cells of the risk at the point where the cell is accepted, cells of one bin tied.
Lower is better; it is in the summary (not the headline) only when some cell had a confidence,
and `curves` gives the report the curve.

Errors (the gate): ("wrong-accept", i) per accepted wrong cell i (0-based in the input's order).

A decision list whose length is not the case's number of readable cells is refused, never scored:
the type's `check_prediction` compares it with the input's cells, and the run fails as a technical
failure naming the case, `$.cells` and both lengths, before anything is scored. (Scoring
version v1 took a missing decision as a review and ignored a decision past the last cell, so a
list one short of the cells, or twice as long, still scored: the decisions no longer said which
cell they were about.)

Traps: high-confidence misreadings (a decimal comma the engine turns into a point at 0.98);
merged cells whose reading holds both neighbours; units with the micro sign; short cells (a
qualifier "U", "--") the engine reads as something else with high confidence.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Mapping
from typing import Any, Literal

import attrs

import envirobench
from envirobench import Case, CaseScore, share

DATASETS = {
    "synthetic-dev-v1": "envirobench/ocr-auto-accept-synthetic-dev-v1",
    "synthetic-test-v1": "envirobench/ocr-auto-accept-synthetic-test-v1",
}
PENALTY = 10
BINS = 20
BREAK_EVEN = PENALTY / (PENALTY + 1)
Copy = Literal["clean", "scan", "bitonal"]
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")


def fold(text: str) -> str:
    """The comparison form of a cell's text: NFKC, every whitespace character removed."""
    return "".join(unicodedata.normalize("NFKC", text).split())


def _image(instance: Any, attribute: attrs.Attribute, value: str) -> None:
    if not value.lower().endswith(IMAGE_SUFFIXES):
        raise ValueError(f"{attribute.name} must name a PNG or JPEG image, got {value!r}")


def _box(instance: Any, attribute: attrs.Attribute, value: tuple[int, ...]) -> None:
    if len(value) != 4 or not (0 <= value[0] < value[2] and 0 <= value[1] < value[3]):
        raise ValueError(
            f"{attribute.name} must be [x0, y0, x1, y1] with x0 < x1 and y0 < y1, got {list(value)}"
        )


def _unit_interval(instance: Any, attribute: attrs.Attribute, value: float | None) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise ValueError(f"{attribute.name} must be a number in [0, 1], got {value!r}")


def _positive(instance: Any, attribute: attrs.Attribute, value: int) -> None:
    if value <= 0:
        raise ValueError(f"{attribute.name} must be positive, got {value}")


@attrs.frozen
class OcrCell:
    """One readable cell: its box in image pixels (half-open) and the OCR text."""

    box: tuple[int, int, int, int] = attrs.field(validator=_box)
    text: str

    def __attrs_post_init__(self) -> None:
        if not self.text.strip():
            raise ValueError("text is empty: a readable cell has OCR text")


@attrs.frozen
class Input:
    """One table image (dataset-relative path), its size, and its readable cells in order."""

    image: str = attrs.field(validator=_image)
    width: int = attrs.field(validator=_positive)
    height: int = attrs.field(validator=_positive)
    cells: tuple[OcrCell, ...]

    def __attrs_post_init__(self) -> None:
        if not self.cells:
            raise ValueError("cells is empty: a case has at least one readable cell")
        for index, cell in enumerate(self.cells):
            if cell.box[2] > self.width or cell.box[3] > self.height:
                raise ValueError(
                    f"cells[{index}].box {list(cell.box)} leaves the {self.width} x {self.height} image"
                )


@attrs.frozen
class CellTruth:
    """A readable cell's truth: the printed text, whether the reading is right, its role."""

    printed: str
    right: bool
    role: str


@attrs.frozen
class Answer:
    """The truth per readable cell (the input's order). `family`, `layout`, `copy`, `font_size`
    and `unreadable_cells` (cells the OCR found no text in) describe the case, unscored."""

    cells: tuple[CellTruth, ...]
    family: str
    layout: str
    copy: Copy
    font_size: int
    unreadable_cells: int

    def __attrs_post_init__(self) -> None:
        if not self.cells:
            raise ValueError("cells is empty")
        if self.unreadable_cells < 0:
            raise ValueError("unreadable_cells must not be negative")


@attrs.frozen
class Decision:
    """A system's decision on one cell: accept or review, with an optional confidence in [0, 1]
    that the reading is right."""

    decision: Literal["accept", "review"]
    confidence: float | None = attrs.field(default=None, validator=_unit_interval)


@attrs.frozen
class Prediction:
    """One decision per readable cell, in the input's order."""

    cells: tuple[Decision, ...]


def bin_of(confidence: float) -> int:
    return min(BINS - 1, int(confidence * BINS))


def bin_names(kind: str) -> list[str]:
    return [f"bin_{kind}_{i:02d}" for i in range(BINS)]


RIGHT_BINS, WRONG_BINS = bin_names("right"), bin_names("wrong")


def risk_coverage(summary: Mapping[str, float]) -> list[tuple[float, float]]:
    """(coverage, risk) after accepting the highest-confidence bins first, one point per
    non-empty bin, from the pooled bin counts of a summary; [] when no cell had a confidence."""
    right = [summary.get(name, 0.0) for name in RIGHT_BINS]
    wrong = [summary.get(name, 0.0) for name in WRONG_BINS]
    total = sum(right) + sum(wrong)
    if total <= 0:
        return []
    points = []
    accepted_right = accepted_wrong = 0.0
    for i in reversed(range(BINS)):
        if right[i] + wrong[i] <= 0:
            continue
        accepted_right += right[i]
        accepted_wrong += wrong[i]
        accepted = accepted_right + accepted_wrong
        points.append((accepted / total, accepted_wrong / accepted))
    return points


def aurc(summary: Mapping[str, float]) -> float | None:
    """The area under the risk-coverage curve at bin resolution (see the module docstring)."""
    points = risk_coverage(summary)
    area, previous = 0.0, 0.0
    for coverage, risk in points:
        area += (coverage - previous) * risk
        previous = coverage
    return area if points else None


class OcrAutoAccept(envirobench.BenchmarkType):
    ID = "ocr-auto-accept"
    FORMAT = "envirobench.ocr-auto-accept.v2"
    LABEL = "OCR auto-accept"
    SCORING_VERSION = "envirobench.ocr-auto-accept.scores.v2"
    TIER = "component"
    PROFILES = ("accept",)
    HEADLINE = (
        "score",
        "correct_accepts",
        "wrong_accepts",
        "readable_cells",
        "score_unclipped",
        "accept_rate",
    )
    VIEWER = "cell-overlay"
    SOURCE_FIELDS = ("image",)

    def check_prediction(self, case: Case, prediction: Prediction) -> None:
        # The input lists the readable cells, so the length is checked without the answer (a
        # sealed run is refused the same way) and the run fails before anything is scored.
        if len(prediction.cells) != len(case.input.cells):
            raise ValueError(
                f"$.cells holds {len(prediction.cells)} decisions, but the case has {len(case.input.cells)} readable cells: "
                "one decision per readable cell, in the input's order"
            )

    def score_case(
        self, case: Case, answer: Answer, prediction: Prediction
    ) -> dict[str, CaseScore | None]:
        cells = len(answer.cells)
        if len(prediction.cells) != cells:
            # Only a run saved before check_prediction existed gets here (a rescore): the
            # decisions no longer say which cell they are about, so the case is not scored.
            return dict.fromkeys(self.PROFILES)
        errors: list[tuple[str, int]] = []
        metrics = dict.fromkeys(("correct_accepts", "wrong_accepts", "confident_cells"), 0.0)
        metrics["readable_cells"] = float(cells)
        metrics["right_readings"] = float(sum(truth.right for truth in answer.cells))
        bins = dict.fromkeys(RIGHT_BINS + WRONG_BINS, 0.0)
        for index, (truth, decision) in enumerate(zip(answer.cells, prediction.cells, strict=True)):
            if decision.decision == "accept":
                if truth.right:
                    metrics["correct_accepts"] += 1
                else:
                    metrics["wrong_accepts"] += 1
                    errors.append(("wrong-accept", index))
            if decision.confidence is not None:
                metrics["confident_cells"] += 1
                names = RIGHT_BINS if truth.right else WRONG_BINS
                bins[names[bin_of(decision.confidence)]] += 1
        metrics.update(bins)
        return {"accept": CaseScore(errors=tuple(errors), metrics=metrics)}

    def summarize_totals(
        self, profile: str, totals: Mapping[str, float], cases: int
    ) -> dict[str, float]:
        right, wrong, readable = (
            totals["correct_accepts"],
            totals["wrong_accepts"],
            totals["readable_cells"],
        )
        unclipped = (right - PENALTY * wrong) / readable if readable else 0.0
        summary = {
            "score": max(0.0, unclipped),
            "correct_accepts": right,
            "wrong_accepts": wrong,
            "readable_cells": readable,
            "score_unclipped": unclipped,
            "accept_rate": share(right + wrong, readable),
            "right_readings": totals["right_readings"],
            "confident_cells": totals["confident_cells"],
        }
        summary.update({name: totals.get(name, 0.0) for name in RIGHT_BINS + WRONG_BINS})
        area = aurc(summary)
        if area is not None:
            summary["aurc"] = area
        return summary

    def curves(self, profile: str, summary: Mapping[str, float]) -> tuple[envirobench.Curve, ...]:
        points = risk_coverage(summary)
        if not points:
            return ()
        return (
            envirobench.Curve(
                title="Risk-coverage",
                x_label="coverage (share of cells accepted, most confident first)",
                y_label="risk (share of accepted cells read wrong)",
                points=tuple(points),
                caption=(
                    f"Cells accepted in order of the system's confidence, 20 bins; AURC "
                    f"{summary.get('aurc', 0.0):.3f} (lower is better). Accepting pays only while the "
                    f"risk of the next cells stays under 1/11 ≈ {1 - BREAK_EVEN:.3f}."
                ),
            ),
        )
