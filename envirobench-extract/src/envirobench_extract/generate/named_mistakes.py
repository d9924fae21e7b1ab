"""Where the grid types' wrong.json makes its mistakes: each deliberate mistake names its case.

table-separators, table-structure and table-cells state every deliberate mistake of their
wrong.json by case ID (with the cell, band or grid change it makes there), one list for the v1
dataset and one per v2 folder; `planted_by_name` is the `planted` of their FixturePlan. A
dataset written anywhere is known by its manifest's ID.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

from envirobench import EnviroBenchError, read_manifest


class NamedMistake(Protocol):
    case: str  # the case ID the mistake is made on
    why: str


N = TypeVar("N", bound=NamedMistake)


def planted_by_name(
    datasets: Mapping[str, str], by_folder: Mapping[str, Sequence[N]], default: Sequence[N]
) -> Callable[[Path, dict[str, Any]], dict[str, N]]:
    """planted(dataset_dir, answers) -> {case ID: its mistake}: the list of the dataset's folder
    (`by_folder`, else `default`), each case in the dataset and given one mistake at most."""

    def planted(dataset_dir: Path, answers: dict[str, Any]) -> dict[str, N]:
        dataset_id = read_manifest(dataset_dir).id
        folder = next(f for f, i in datasets.items() if i == dataset_id)
        taken: dict[str, N] = {}
        for mistake in by_folder.get(folder, default):
            if mistake.case not in answers:
                raise EnviroBenchError(f"fixture case {mistake.case!r} is not in the dataset")
            if mistake.case in taken:
                raise EnviroBenchError(
                    f"cannot build the deliberate mistake for {mistake.case} ({mistake.why}): "
                    "the case already has one"
                )
            taken[mistake.case] = mistake
        return taken

    return planted
