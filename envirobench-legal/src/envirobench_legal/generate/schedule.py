"""What the Legal generators' plans share: a split's cases take their categories in a seeded
shuffled order, the split's document families in turn, and every n-th document is a scanned copy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from envirobench_synth.rng import make_random


def by_shares(shares: Mapping[str, int], size: int) -> list[str]:
    """Each name of `shares` on `share` in every 100 of `size` cases (rounded down), in turn."""
    return [name for name, share in shares.items() for _ in range(share * size // 100)]


def shuffled(categories: list[str], seed: int, split: str) -> list[str]:
    """`categories` in the split's seeded order, make_random(seed, split, "order") (shuffled in place)."""
    make_random(seed, split, "order").shuffle(categories)
    return categories


def in_turn(index: int, templates: Sequence[str], recorders: Sequence[str]) -> tuple[str, str]:
    """The template and recorder style of a split's index-th case: the templates in turn, and the
    next recorder style each time the templates come round, so every template meets every style."""
    return templates[index % len(templates)], recorders[(index // len(templates)) % len(recorders)]


def is_scanned(index: int, every: int) -> bool:
    """Whether a split's index-th document (counted from 0) is a scanned copy: every `every`-th one."""
    return index % every == every - 1
