"""What the grid types' generators share (table-separators, table-structure, table-cells): a
dataset is one PNG crop of a table per case.

The v1 datasets hold tables drawn by layout, `per_layout` of each (`layout_case_ids`), written as
drawn (envirobench_synth.png); the v2 datasets the tables of a split's report families
(`grid_families.plan`), written compact (`grid_damage.write_compact_png`). A type says how one of
its tables is drawn and what its input and answer are (`GridDatasets.case_of`); `write` does the
rest, so the three generators differ only in what is theirs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from envirobench import BenchmarkType, GeneratedCase, Manifest, dataset_writer, split_of
from envirobench_synth.png import write_png

from . import grid_damage, grid_families

# A table to draw: (case ID, category, a function that draws it).
Table = tuple[str, str, Callable[[], Any]]


def layout_case_ids(prefix: str, layouts: Sequence[str], per_layout: int) -> list[tuple[str, str]]:
    """(case ID, layout) of every v1 case, in file order: `per_layout` tables of each layout."""
    return [
        (f"{prefix}-{k * per_layout + i + 1:04d}", layout)
        for k, layout in enumerate(layouts)
        for i in range(per_layout)
    ]


def family_tables(dataset: str, prefix: str, draw: Callable[..., Any]) -> list[Table]:
    """The tables of v2 dataset `dataset`, drawn by draw(case_id, family, split, scan kind)."""
    split = split_of(dataset)
    return [
        (p.case_id, p.category, lambda p=p: draw(p.case_id, p.family, split, p.scan))
        for p in grid_families.plan(dataset, prefix)
    ]


@dataclass(frozen=True)
class GridDatasets:
    """One grid type's datasets: the type, their version, and
    case_of(drawn table, image path) -> (input, answer)."""

    benchmark: type[BenchmarkType]
    version: int
    case_of: Callable[[Any, str], tuple[Any, Any]]

    def write(
        self, output_dir: Path, dataset: str, tables: list[Table], *, seed: int, title: str, description: str
    ) -> Manifest:
        """Write dataset `dataset` of these tables into `output_dir`; a v2 (split) dataset's
        images compact."""
        write = dataset_writer(self.benchmark, dataset, seed=seed, version=self.version)
        write_image = write_png if split_of(dataset) is None else grid_damage.write_compact_png

        def cases(root: Path) -> Iterator[GeneratedCase]:
            for case_id, category, draw in tables:
                table = draw()
                image_path = f"assets/{case_id}.png"
                write_image(root / image_path, table.image)
                case_input, answer = self.case_of(table, image_path)
                yield case_id, category, case_input, answer

        return write(output_dir, cases, title=title, description=description)
