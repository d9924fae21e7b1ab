"""Byte-deterministic, compact PNG files.

Pillow writes no timestamp, but it copies metadata it finds in `image.info` (text chunks, DPI,
ICC profiles, gamma) into the file. Saving a copy with the metadata removed, at the highest
compression, gives the same bytes for the same pixels (with Pillow and its bundled zlib pinned).
"""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

# Palette and alpha modes are left out on purpose: their bytes depend on palette order and
# transparency chunks that differ between otherwise identical images.
PNG_MODES = ("1", "L", "RGB")


def png_bytes(image: Image.Image, *, level: int | None = None) -> bytes:
    """The PNG encoding of `image` with no metadata chunks.

    By default the smallest file (`optimize`, zlib level 9); `level` (0-9) trades a few per cent
    of size for speed: level 6 encodes large antialiased images about ten times faster.
    """
    if image.mode not in PNG_MODES:
        raise ValueError(f"write grayscale ('L'), 1-bit ('1') or 'RGB' images, not {image.mode!r}")
    clean = image.copy()
    clean.info = {}
    buffer = io.BytesIO()
    if level is None:
        clean.save(buffer, format="PNG", optimize=True)
    else:
        clean.save(buffer, format="PNG", compress_level=level)
    return buffer.getvalue()


def write_png(path: str | Path, image: Image.Image, *, level: int | None = None) -> int:
    """Write `image` as a PNG file; returns the number of bytes written."""
    data = png_bytes(image, level=level)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return len(data)
