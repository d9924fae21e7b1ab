"""What the grid types' generators share (table-separators, table-structure, table-cells): a
dataset is one PNG crop of a table per case.

The v1 datasets hold tables drawn by layout, `per_layout` of each (`layout_case_ids`), written as
drawn (envirobench_synth.png); the v2 datasets the tables of a split's report families
(`grid_families.plan`), written compact (`grid_damage.write_compact_png`). A type says how one of
its tables is drawn and what its input and answer are (`GridDatasets.case_of`), with the seed,
title and description of each release; `generate` picks the release by the dataset's folder and
`write` does the rest, so the three generators differ only in what is theirs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from envirobench import BenchmarkType, GeneratedCase, Manifest, dataset_writer, split_of
from envirobench_synth.png import write_png

from . import grid_damage, grid_families
from .grid_tables import make_table

# A table to draw: (case ID, category, a function that draws it).
Table = tuple[str, str, Callable[[], Any]]


def family_tables(dataset: str, prefix: str, draw: Callable[..., Any]) -> list[Table]:
    """The tables of v2 dataset `dataset`, drawn by draw(case_id, family, split, scan kind)."""
    split = split_of(dataset)
    return [
        (p.case_id, p.category, lambda p=p: draw(p.case_id, p.family, split, p.scan))
        for p in grid_families.plan(dataset, prefix)
    ]


@dataclass(frozen=True)
class GridDatasets:
    """One grid type's datasets: the type, their version, case_of(drawn table, image path) ->
    (input, answer), and the seed, title and description of each release (v1, v2). A v2 title
    gets the split added, "(dev split)"; a v2 description is a template of the split's {size}
    (tables), {split} and {families} (their names). The seeds are a function that reads the
    generator module's SEED and SEED_V2 when called, not their values at import: the holdout
    service makes its demo split by replacing them with secret draws."""

    benchmark: type[BenchmarkType]
    version: int
    case_of: Callable[[Any, str], tuple[Any, Any]]
    seeds: Callable[[], tuple[int, int]]
    titles: tuple[str, str]
    descriptions: tuple[str, str]
    prefix_v2: str  # the v2 case IDs' prefix

    def generate(
        self,
        output_dir: Path,
        dataset: str,
        v1_case_ids: list[tuple[str, str]],
        draw_v1: Callable[[int, str, str], Any] = make_table,
        draw_v2: Callable[..., Any] = grid_families.make_grid_table,
    ) -> Manifest:
        """Write dataset `dataset` into `output_dir`: a v1 dataset (no split in its folder) of
        the tables draw_v1(seed, case ID, layout) draws for `v1_case_ids`, or the tables of a v2
        split's families, drawn by draw_v2(seed, case ID, family, split, scan kind); each with
        its release's seed. By default the tables table-structure and table-cells share."""
        split = split_of(dataset)
        seed_v1, seed_v2 = self.seeds()
        if split is None:
            tables = [(c, layout, partial(draw_v1, seed_v1, c, layout)) for c, layout in v1_case_ids]
            seed, title, description = seed_v1, self.titles[0], self.descriptions[0]
            return self.write(output_dir, dataset, tables, seed=seed, title=title, description=description)
        families = ", ".join(f.name for f in grid_families.families_of(split))
        return self.write(
            output_dir,
            dataset,
            family_tables(dataset, self.prefix_v2, partial(draw_v2, seed_v2)),
            seed=seed_v2,
            title=f"{self.titles[1]} ({split} split)",
            description=self.descriptions[1].format(size=grid_families.SIZES[split], split=split, families=families),
        )

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
