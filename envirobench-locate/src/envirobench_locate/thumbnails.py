"""What page-locate and document-split share: a case's page thumbnails.

A case's input may name one small image per page of its PDF (`thumbnails`, dataset-relative
paths in page order, thumbnails[0] is page 1). They are there for the report, which shows only
image files: the page strip draws them instead of numbered boxes. They are input, not answer:
a rendering of each page and nothing else, so an adapter may read them or ignore them. An input
written before there were thumbnails has none (the field defaults to empty) and still reads.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any

import attrs

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")


def thumbnail_paths(instance: Any, attribute: attrs.Attribute, value: tuple[str, ...]) -> None:
    for path in value:
        pure = PurePosixPath(path)
        if not path.lower().endswith(IMAGE_SUFFIXES):
            raise ValueError(f"{attribute.name}: {path!r} is not a PNG, JPEG or WebP image")
        if pure.is_absolute() or ".." in pure.parts or "\\" in path:
            raise ValueError(f"{attribute.name}: {path!r} must be a path inside the dataset")
    if len(set(value)) != len(value):
        raise ValueError(f"{attribute.name}: one image per page, each named once")
