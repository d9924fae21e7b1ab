"""Seeded generators of the Locate category's synthetic datasets.

`generate/<type module>.py` is the generator of each type listed in `envirobench_locate.package`:
`generate(output_dir, dataset)` writes the dataset in folder `dataset` (a key of the type
module's DATASETS) and `write_fixtures(dataset_dir, fixtures_dir)` its correct.json and
wrong.json. The documents themselves come from `envirobench_synth.locate`. Run

    python -m envirobench_locate.generate TYPE [--dataset FOLDER] [--output DIR] [--fixtures DIR]

without --output to regenerate the shipped datasets and their fixtures in place.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Protocol, TypeVar

from envirobench import EnviroBenchError, iter_jsonl


class Mistake(Protocol):
    why: str  # what the deliberate mistake is, for the message when no case fits it


M = TypeVar("M", bound=Mistake)


def read_categories(dataset_dir: Path) -> dict[str, str]:
    """Case ID -> its category, in the dataset's order."""
    return {
        record["id"]: record["category"]
        for _, record in iter_jsonl(Path(dataset_dir) / "cases.jsonl")
    }


def plant(
    mistakes: Sequence[M],
    case_ids: Iterable[str],
    fits: Callable[[M, str], bool],
    unit: str = "case",
) -> dict[str, M]:
    """Case ID -> the deliberate mistake wrong.json makes there: each mistake on the first case (in
    `case_ids` order) that `fits` it and no other mistake took. EnviroBenchError when none fits."""
    ids = list(case_ids)
    taken: dict[str, M] = {}
    for mistake in mistakes:
        case_id = next((c for c in ids if c not in taken and fits(mistake, c)), None)
        if case_id is None:
            raise EnviroBenchError(f"no {unit} fits the deliberate mistake: {mistake.why}")
        taken[case_id] = mistake
    return taken
