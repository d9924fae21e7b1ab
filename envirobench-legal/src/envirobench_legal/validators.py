"""attrs field validators the Legal types share. Each raises ValueError naming the field."""

from __future__ import annotations

from typing import Any

import attrs


def pdf_path(instance: Any, attribute: attrs.Attribute, value: str) -> None:
    if not value.lower().endswith(".pdf"):
        raise ValueError(f"{attribute.name} must name a PDF file, got {value!r}")


def not_blank(instance: Any, attribute: attrs.Attribute, value: str) -> None:
    if not value.strip():
        raise ValueError(f"{attribute.name} is empty")
