"""Bundled fonts, so a rendered image is the same on every machine.

The Bitstream Vera TrueType fonts ship inside the reportlab wheel, and Pillow's wheels bundle
FreeType; with both pinned by uv.lock, text renders to identical pixels everywhere. System fonts
are never used. Layout is forced to Pillow's BASIC engine: the RAQM engine (HarfBuzz, FriBiDi)
is used when the system happens to provide libraqm and would position glyphs differently.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path
from typing import Literal

from PIL import ImageFont

FontStyle = Literal["regular", "bold", "italic", "bold-italic"]

FONT_FILES: dict[str, str] = {
    "regular": "Vera.ttf",
    "bold": "VeraBd.ttf",
    "italic": "VeraIt.ttf",
    "bold-italic": "VeraBI.ttf",
}


def font_path(style: FontStyle = "regular") -> Path:
    """The TrueType file of a Vera style inside the installed reportlab package."""
    try:
        name = FONT_FILES[style]
    except KeyError:
        raise ValueError(
            f"unknown font style {style!r}; choose from {', '.join(FONT_FILES)}"
        ) from None
    path = Path(str(resources.files("reportlab") / "fonts" / name))
    if not path.is_file():
        raise FileNotFoundError(
            f"{path} is missing: the installed reportlab no longer ships {name}"
        )
    return path


@cache
def font(size: int, style: FontStyle = "regular") -> ImageFont.FreeTypeFont:
    """A Vera font of `size` pixels (em height), loaded once per process."""
    if size <= 0:
        raise ValueError(f"font size must be positive, got {size}")
    return ImageFont.truetype(str(font_path(style)), size, layout_engine=ImageFont.Layout.BASIC)
