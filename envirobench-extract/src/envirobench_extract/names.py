"""How names compare: a sample ID or an analyte name as the Extract scorers compare it.

Shared by the record scorers (`records`), the synonym table (`analytes`) and report metadata, so
that a name is normalised one way everywhere.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_QUOTES = str.maketrans({"‘": "'", "’": "'", "′": "'", "“": '"', "”": '"', "″": '"'})
_SPACE = re.compile(r"\s+")


@lru_cache(maxsize=65536)
def normalise_name(text: str) -> str:
    """A sample ID or analyte name as compared: NFKC, ASCII quotes, one space, case-folded."""
    return (
        _SPACE.sub(" ", unicodedata.normalize("NFKC", text).translate(_QUOTES)).strip().casefold()
    )
