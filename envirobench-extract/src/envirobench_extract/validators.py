"""attrs field validators the Extract types share (each raises ValueError naming the field), and
the input the grid types' cases start from, a table image."""

from __future__ import annotations

from typing import Any

import attrs


def positive(instance: Any, attribute: attrs.Attribute, value: int) -> None:
    if value <= 0:
        raise ValueError(f"{attribute.name} must be positive, got {value}")


def not_negative(instance: Any, attribute: attrs.Attribute, value: int) -> None:
    if value < 0:
        raise ValueError(f"{attribute.name} must not be negative, got {value}")


def positive_pixels(instance: Any, attribute: attrs.Attribute, value: int) -> None:
    if value <= 0:
        raise ValueError(f"{attribute.name} must be a positive number of pixels, got {value}")


@attrs.frozen
class ImageInput:
    """A grid type's case (table-separators', table-structure', and table-cells' with its cells):
    the table image (a dataset-relative PNG path) and its size in pixels."""

    image: str
    width: int = attrs.field(validator=positive_pixels)
    height: int = attrs.field(validator=positive_pixels)
