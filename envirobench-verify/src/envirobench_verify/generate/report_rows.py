"""What the generators of Verify's result-row types share (qualifier-flags, unit-normalisation):
a case is one synthetic laboratory report of the split's families, drawn from its own stream."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from envirobench import GeneratedCase, split_of
from envirobench_synth.rng import make_random


def draw_reports(
    seed: int,
    prefix: str,
    folder: str,
    count: int,
    sample: Callable[[random.Random, str, int, int], Any],
    rows: tuple[int, int],
) -> list[tuple[str, Any]]:
    """The `count` reports of dataset `folder`, each with its case ID (`<prefix>-<split>-0001`):
    the index-th is sample(rng, split, index, row count) with rng = make_random(seed, split,
    case ID) and rows[0] to rows[1] rows, the count drawn first."""
    split = split_of(folder)
    drawn = []
    for index in range(count):
        case_id = f"{prefix}-{split}-{index + 1:04d}"
        rng = make_random(seed, split, case_id)
        drawn.append((case_id, sample(rng, split, index, rng.randint(*rows))))
    return drawn


def report_cases(
    drawn: list[tuple[str, Any]], case_of: Callable[[Any], tuple[Any, Any]]
) -> Callable[[Path], Iterator[GeneratedCase]]:
    """The cases a dataset writer writes: each drawn report in order, its `family` the category
    and case_of(report) its input and answer."""

    def cases(root: Path) -> Iterator[GeneratedCase]:
        for case_id, report in drawn:
            case_input, answer = case_of(report)
            yield case_id, report.family, case_input, answer

    return cases
