"""What the shortcut baselines of the specs share: the dev split a near-blind model is fitted on,
and the files a case names (read for their sizes, never their content).

A shortcut reads no content, or barely: sizes, positions, lengths, metadata, file
names, confidences, priors. Where it has a parameter (a threshold, a prior, a regression), the
parameter is fitted on the dev split's cases and answers, as a system developed on dev would fit
it, and then applied unchanged to the test split. Fits are cached per process.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path


@cache
def _dataset(dataset_id: str):
    from envirobench import build_registry, load_dataset

    registry = build_registry()
    return registry, load_dataset(dataset_id, registry)


def dev_split(type_id: str, version: str = "v1") -> list[tuple[object, object]]:
    """The dev split's (case input, answer) pairs, in order: what a shortcut is fitted on."""
    return list(_pairs(f"envirobench/{type_id}-synthetic-dev-{version}", type_id))


@cache
def _pairs(dataset_id: str, type_id: str) -> tuple[tuple[object, object], ...]:
    registry, dataset = _dataset(dataset_id)
    btype = registry.benchmark_type(type_id)
    answers = dataset.answers(btype)
    return tuple((case.input, answers[cid]) for cid, case in dataset.cases(btype).items())


def case_file(type_id: str, relative: str, version: str = "v1") -> Path:
    """A file a case names (dataset-relative), found in the type's dev or test split (their
    assets are named apart: "ds-dev-0001", "ds-test-0001")."""
    for split in ("dev", "test"):
        path = _dataset(f"envirobench/{type_id}-synthetic-{split}-{version}")[1].root / relative
        if path.is_file():
            return path
    raise FileNotFoundError(f"{relative} is in neither the dev nor the test split of {type_id}")


def file_size(type_id: str, relative: str, version: str = "v1") -> int:
    """The size in bytes of a file a case names: metadata, not content."""
    return case_file(type_id, relative, version).stat().st_size


# The root of the split whose cases the baselines are scoring now: reference_scores.py sets it
# before it runs a spec's baselines on a split (`scoring_split`), for types whose dev and test
# splits name their files alike ("assets/record-001-doc-01.pdf" in both).
_SCORED_ROOT: list[Path] = []


def scoring_split(root: Path) -> None:
    """Say which split's files `scored_file_size` reads: the dataset being scored."""
    _SCORED_ROOT[:] = [Path(root)]


def scored_file_size(relative: str) -> int:
    """The size in bytes of a file a case of the split being scored names: metadata, not content."""
    if not _SCORED_ROOT:
        raise RuntimeError("no split is being scored: reference_scores.py calls scoring_split(dataset.root) first")
    return (_SCORED_ROOT[0] / relative).stat().st_size


def best_threshold(candidates, score) -> float:
    """The candidate with the highest `score(candidate)` (the first of equals): a one-parameter
    fit on dev."""
    best, best_score = None, float("-inf")
    for candidate in candidates:
        value = score(candidate)
        if value > best_score:
            best, best_score = candidate, value
    return best
