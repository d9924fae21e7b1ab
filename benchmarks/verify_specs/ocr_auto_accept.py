"""docs/reference-scores.md's Verify table for `ocr-auto-accept`: blind baselines and columns
(read by benchmarks/reference_scores.py --verify)."""

from functools import cache

from _shortcuts import best_threshold, dev_split
from _spec_parts import count, share

from envirobench_verify.ocr_auto_accept import PENALTY

BENCHMARK = "ocr-auto-accept"
UNIT = "tables (the cells of one image resampled together)"
INTRO = (
    "The reference adapter (`solvers/ocr_auto_accept.py`, developed on the dev split only: it reads the pinned OCR "
    "readings and confidences, never the image, and accepts a cell when its form is recognised (a number with "
    "qualifier flags, a CAS number whose check digit is right, a unit of the usual vocabulary, an identifier, a "
    "name), nothing in the table makes it suspect (a decimal-comma table read with points, a space inside a number) "
    "and the OCR confidence reaches the form's threshold) on both splits; the test split's report families and table "
    "looks never occur in dev. Score: max(0, (correct accepts - 10 x wrong accepts) / readable cells); accepting "
    "pays only above 10/11 = 0.909 probability of being right. Beside it, the blind baselines: accept nothing "
    "(0 by construction) and accept everything (the share of right readings, times 11, minus 10, clipped at 0); and "
    "the confidence shortcuts, which read the pinned OCR confidence alone: accept at 0.999 or more (the audit's "
    "shortcut, issue 32), and accept at or above the threshold that scores best on the dev split."
)


def _by_confidence(threshold: float):
    def accept_confident(case_input, answer):
        return {
            "cells": [
                {"decision": "accept" if cell.confidence >= threshold else "review", "confidence": cell.confidence}
                for cell in case_input.cells
            ]
        }

    return accept_confident


@cache
def dev_threshold() -> float:
    """The confidence threshold that scores best on the dev split (pooled: right − 10 × wrong)."""
    cells = [(cell.confidence, truth.right) for case_input, answer in dev_split("ocr-auto-accept")
             for cell, truth in zip(case_input.cells, answer.cells, strict=True)]

    def gain(threshold):
        return sum(1 if right else -PENALTY for confidence, right in cells if confidence >= threshold)

    return best_threshold(sorted({c for c, _ in cells}), gain)


def _dev_fitted(case_input, answer):
    return _by_confidence(dev_threshold())(case_input, answer)


# Why the task fails the rule for now (the summary table shows it on the row): issue 32.
SHORTCUT_NOTE = (
    "the pinned OCR confidences carry most of the answer (accepting at 0.999 alone scores 0.330) and 87 tables give "
    "an interval 0.31 wide; needs the data (3x the tables, confidences withheld or calibrated)"
)
BASELINES = {
    "accept nothing": lambda case_input, answer: {
        "cells": [{"decision": "review"} for _ in case_input.cells]
    },
    "accept where the OCR confidence is 0.999 or more": _by_confidence(0.999),
    "accept at or above the OCR confidence threshold fitted on dev": _dev_fitted,
    "accept everything": lambda case_input, answer: {
        "cells": [
            {"decision": "accept", "confidence": cell.confidence} for cell in case_input.cells
        ]
    },
}
COLUMNS = (
    share("score", "score"),
    share("score_unclipped", "unclipped"),
    count("correct_accepts", "correct accepts"),
    count("wrong_accepts", "wrong accepts"),
    share("accept_rate", "accept rate"),
    count("readable_cells", "readable cells"),
)
GROUP_METRIC = ("wrong_accepts", "readable_cells")
GROUP_TITLE = "Wrong accepts of the reference adapter per readable cell, by report family and copy"


def groups(case_id, category, answer):
    return [category or "-", f"{answer.copy} copy"]
