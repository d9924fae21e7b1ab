"""Strict checks of a case's input, shared by the solver modules.

The adapter checks requests itself (it does not import the benchmark packages' schemas: it is
the system under test and must stand on its own). Each check raises ValueError naming the field
(`$.cases[3].input.width: must be a positive integer`), which the protocol turns into a refusal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def fields(raw: Any, where: str, required: Iterable[str], optional: Iterable[str] = ()) -> Mapping[str, Any]:
    """`raw` as a mapping with every required key, no unknown key (a null optional key is absent)."""
    if not isinstance(raw, Mapping):
        raise ValueError(f"{where}: must be an object")
    required, optional = set(required), set(optional)
    extra = sorted(set(raw) - required - optional)
    missing = sorted(required - set(raw))
    if extra:
        raise ValueError(f"{where}: unknown field(s) {', '.join(extra)}")
    if missing:
        raise ValueError(f"{where}: missing field(s) {', '.join(missing)}")
    return {key: value for key, value in raw.items() if value is not None or key in required}


def string(value: Any, where: str, *, suffix: str | None = None) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError(f"{where}: must be a non-empty string")
    if suffix is not None and not value.lower().endswith(suffix):
        raise ValueError(f"{where}: must name a {suffix} file, got {value!r}")
    return value


def positive_int(value: Any, where: str) -> int:
    # bool is an int in Python; a true/false size is a malformed request, not a 1-pixel image.
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"{where}: must be a positive integer")
    return value


def non_negative_int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{where}: must be a non-negative integer")
    return value
