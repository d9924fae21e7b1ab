"""Seeded generators of the Extract category's synthetic datasets.

`generate/<type module>.py` is the generator of each type listed in `envirobench_extract.package`:
`generate(output_dir, dataset)` writes the dataset in folder `dataset` (a key of the type
module's DATASETS) and FIXTURES, its FixturePlan, its correct.json and wrong.json. The other
modules here are what they share, and `layout_case_ids` below the case IDs of every v1 dataset.
Run

    python -m envirobench_extract.generate TYPE [--dataset FOLDER] [--output DIR] [--fixtures DIR]

with TYPE a type ID (`table-separators`, ...); without --output it regenerates the shipped dataset
and its fixtures in place.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


class LayoutCase(NamedTuple):
    """A v1 case: its ID and its layout (the case category)."""

    case_id: str
    layout: str


def layout_case_ids(prefix: str, layouts: Sequence[str], per_layout: int) -> list[LayoutCase]:
    """(case ID, layout) of every case of a v1 dataset, in file order: `per_layout` cases of each
    layout, numbered from <prefix>-0001 on."""
    return [
        LayoutCase(f"{prefix}-{k * per_layout + i + 1:04d}", layout)
        for k, layout in enumerate(layouts)
        for i in range(per_layout)
    ]
