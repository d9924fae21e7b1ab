"""docs/reference-scores.md's Verify table for `ocr-auto-accept`: blind and near-blind baselines
and columns (read by benchmarks/reference_scores.py --verify).

The shortcuts read no pixel and no character of a reading beyond its length: the image's file
format (a JPEG is a scan, a 1-bit PNG a thresholded scan, an 8-bit PNG a clean print: metadata),
each cell's box (its height is the type size, its left edge the column) and the reading's length.
The models are fitted on the dev split and applied to test unchanged; each accepts a cell when
its fitted probability of being right reaches the break-even 10/11. The engine's confidence is
withheld (format v2), so no shortcut can read it; on format v1, accepting at 0.999 or more alone
scored 0.330 on test against the reference's 0.429 (issue 32).
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from functools import cache

import numpy as np
from _shortcuts import case_file, dev_split
from _spec_parts import count, share
from PIL import Image

from envirobench_verify.ocr_auto_accept import BREAK_EVEN, PENALTY

BENCHMARK = "ocr-auto-accept"
UNIT = "tables (the cells of one image resampled together)"
INTRO = (
    "The reference adapter (`solvers/ocr_auto_accept.py`, developed on the dev split only: the engine's confidence "
    "is withheld from the input, so it reads each cell's crop of the image again with its own recogniser "
    "and accepts a reading when its second reading agrees with it, the recogniser is sure of it, its form is "
    "recognised (a number with qualifier flags, a CAS number whose check digit is right, a unit of the usual "
    "vocabulary, an identifier, a name) and nothing in the table makes it suspect (a decimal-comma table read with "
    "points, a space inside a number)) on both splits; the test split's report families and table looks never "
    "occur in dev. Score: max(0, (correct accepts - 10 x wrong accepts) / readable cells); accepting pays only "
    "above 10/11 = 0.909 probability of being right. Beside it, the blind baselines: accept nothing (0 by "
    "construction) and accept everything (the share of right readings, times 11, minus 10, clipped at 0); the "
    "near-blind shortcuts, fitted on dev, which read no pixel and no character beyond a reading's length: accept "
    "every cell of a clean print (the image's format: a JPEG is a scan, a 1-bit PNG a thresholded scan), and a "
    "logistic model over the image's format, the reading's length, the box's height and the column, and a table "
    "of dev's right-rates per format, length and column, each accepting where dev says it pays (10/11 or more). The engine's confidence is "
    "withheld since format v2 (on v1, accepting at 0.999 or more alone scored 0.330 on test, the reference 0.429)."
)


# -- features a shortcut may read: the image's format, the box, the reading's length ------------


@cache
def copy_kind(image: str) -> str:
    """clean, scan or bitonal from the image file's format and mode (metadata, no pixel read)."""
    if image.lower().endswith((".jpg", ".jpeg")):
        return "scan"
    with Image.open(case_file(BENCHMARK, image)) as opened:
        return "bitonal" if opened.mode == "1" else "clean"


def _length(text: str) -> int:
    return len("".join(unicodedata.normalize("NFKC", text).split()))


def _columns(case_input) -> list[int]:
    """Each cell's column: the rank of its box's left edge among the table's distinct left edges
    (edges within half a type size are one column)."""
    lefts = sorted({cell.box[0] for cell in case_input.cells})
    heights = sorted(cell.box[3] - cell.box[1] for cell in case_input.cells)
    tolerance = heights[len(heights) // 2] / 2
    starts: list[int] = []
    for left in lefts:
        if not starts or left - starts[-1] > tolerance:
            starts.append(left)
    return [
        sum(1 for start in starts if start <= cell.box[0] + tolerance) - 1
        for cell in case_input.cells
    ]


def _features(case_input) -> list[tuple[str, int, int, int]]:
    """(copy kind, reading length, box height in px, column) per cell."""
    kind = copy_kind(case_input.image)
    return [
        (kind, _length(cell.text), cell.box[3] - cell.box[1], column)
        for cell, column in zip(case_input.cells, _columns(case_input), strict=True)
    ]


def _dev_cells():
    for case_input, answer in dev_split(BENCHMARK):
        yield from zip(_features(case_input), answer.cells, strict=True)


def _decisions(accepts) -> dict:
    return {"cells": [{"decision": "accept" if a else "review"} for a in accepts]}


# -- the logistic model ------------------------------------------------------------------------

KINDS = ("clean", "scan", "bitonal")


def _vector(feature) -> list[float]:
    kind, length, height, column = feature
    one_hot = [float(kind == k) for k in KINDS[1:]]
    short = float(length <= 2)
    return [
        1.0,
        *one_hot,
        length / 10,
        (length / 10) ** 2,
        short,
        height / 20,
        min(column, 8) / 8,
        float(column == 0),
    ]


@cache
def logistic_weights() -> np.ndarray:
    """Logistic regression of `right` on the features (Newton's method, a small ridge), on dev."""
    cells = list(_dev_cells())
    x = np.array([_vector(f) for f, _ in cells])
    y = np.array([float(t.right) for _, t in cells])
    w = np.zeros(x.shape[1])
    ridge = 1e-3 * np.eye(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-x @ w))
        gradient = x.T @ (y - p) - ridge @ w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + ridge
        step = np.linalg.solve(hessian, gradient)
        w += step
        if np.abs(step).max() < 1e-9:
            break
    return w


def _logistic(case_input, answer):
    w = logistic_weights()
    return _decisions(
        1 / (1 + np.exp(-float(np.dot(_vector(f), w)))) >= BREAK_EVEN for f in _features(case_input)
    )


# -- the table of right-rates ------------------------------------------------------------------


def _bucket(feature) -> tuple:
    kind, length, height, column = feature
    return (kind, min(length, 12), min(column, 5))


@cache
def accepted_buckets() -> frozenset:
    """The (copy kind, length, column) buckets whose dev cells pay to accept: right − 10 × wrong
    > 0 over at least 5 dev cells."""
    gain: dict[tuple, int] = defaultdict(int)
    size: dict[tuple, int] = defaultdict(int)
    for feature, truth in _dev_cells():
        key = _bucket(feature)
        gain[key] += 1 if truth.right else -PENALTY
        size[key] += 1
    return frozenset(key for key in gain if gain[key] > 0 and size[key] >= 5)


def _by_bucket(case_input, answer):
    buckets = accepted_buckets()
    return _decisions(_bucket(f) in buckets for f in _features(case_input))


BASELINES = {
    "accept nothing": lambda case_input, answer: _decisions(False for _ in case_input.cells),
    "accept everything": lambda case_input, answer: _decisions(True for _ in case_input.cells),
    "accept every cell of a clean print (the image's format and mode)": lambda case_input, answer: (
        _decisions(copy_kind(case_input.image) == "clean" for _ in case_input.cells)
    ),
    "logistic model on format, reading length, box height and column (fitted on dev)": _logistic,
    "dev's right-rate per format, reading length and column (accepted where it pays on dev)": _by_bucket,
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
