"""Looking a record up by its name in a table of records (templates, styles, wordings)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, TypeVar


class _Named(Protocol):
    @property
    def name(self) -> str: ...


NamedT = TypeVar("NamedT", bound=_Named)


def by_name(items: Iterable[NamedT], name: str, what: str) -> NamedT:
    """The item of `items` called `name`; a KeyError naming `what` was asked for if none is."""
    for item in items:
        if item.name == name:
            return item
    raise KeyError(f"no {what} {name!r}")
