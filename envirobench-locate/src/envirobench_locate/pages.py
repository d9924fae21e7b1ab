"""What page-locate and document-split share about page numbers: the validator of a list of them."""

from __future__ import annotations

from typing import Any

import attrs


def page_numbers(instance: Any, attribute: attrs.Attribute, value: tuple[int, ...]) -> None:
    """An attrs validator: 1-based page numbers, distinct and in increasing order."""
    if any(page < 1 for page in value):
        raise ValueError(
            f"{attribute.name} are 1-based page numbers (the first page is 1), got {list(value)}"
        )
    if list(value) != sorted(set(value)):
        raise ValueError(
            f"{attribute.name} must be distinct and in increasing order, got {list(value)}"
        )
