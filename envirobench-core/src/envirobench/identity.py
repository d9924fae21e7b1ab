"""Each distinct object once, by identity.

Runs share equal objects: equal scores and equal {profile: score} mappings are one object each
(scoring.SharedScores), and so are metrics.json's per-case mappings (outputs.build_metrics). A
100,000-case run then has a few distinct objects, and work done once per object, found in C by
`distinct`, is done a few times instead of once a case.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def distinct(objects: Sequence[T]) -> dict[int, T]:
    """Each object of `objects` once, keyed by its id(), in order of its first appearance (the
    dict holds every object it keys, so no other object can take its id while it is used)."""
    return dict(zip(map(id, objects), objects, strict=True))
