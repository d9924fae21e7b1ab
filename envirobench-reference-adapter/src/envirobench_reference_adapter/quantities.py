"""Reading laboratory values as printed: numbers, non-detects, qualifiers, units, CAS numbers.

This is the adapter's own reader. It deliberately shares no code with the benchmark package (the
benchmark's scoring is what measures this adapter, so borrowing it would hide the adapter's
mistakes). It understands the notations laboratory reports use:

- numbers with thousands separators (`1,250`), leading dots (`.50`) and OCR's usual look-alikes
  inside a number (`O`/`o` for 0, `l`/`I` for 1, `S` for 5 when the rest is digits);
- non-detects: `ND`, `<0.50` (less than the reporting limit: the number is the limit), `0.50 U`
  (the limit with the `U` qualifier), `BRL`/`BDL`;
- qualifier codes after a number (`0.52 J`, `0.52J`, `12 B`) and in their own column;
- units, keeping the report's spelling of micro (`µg/L` or `ug/L`; OCR's Greek `μ` becomes `µ`)
  and writing cubic metres as `m³`.

Weaknesses: a number OCR misreads as another number (`8` for `3`) cannot be caught here; a
qualifier letter that OCR joins to the number's last digit is only found when it is one of the
known codes; footnote markers are read as markers (letters or symbols) and resolved by the caller.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MICRO = "\u00b5"  # MICRO SIGN, as reports print it
QUALIFIER_CODES = ("U", "J", "B", "E", "D", "H", "R", "UJ", "JB")
NONDETECT_WORDS = ("ND", "BRL", "BDL", "N.D.", "NOT DETECTED")

_OCR_DIGITS = str.maketrans({"O": "0", "o": "0", "l": "1", "I": "1", "|": "1", "S": "5", "B": "8"})
_NUMBER = re.compile(r"^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?$")
_CAS = re.compile(r"(\d{2,7})\s*[-\u2010-\u2015]\s*(\d{2})\s*[-\u2010-\u2015]\s*(\d)")
_UNIT = re.compile(r"^(?P<prefix>[mµun]?)g/(?P<den>kg|l|ml|m3|m³)$", re.IGNORECASE)
_DENOMINATORS = {"kg": "kg", "l": "L", "ml": "mL", "m3": "m³", "m³": "m³"}


@dataclass(frozen=True)
class ReadValue:
    """A result cell read: the number (None for a non-detect), what the cell says about it."""

    result: float | None
    nondetect: bool
    qualifier: str | None  # a code printed in the cell (`J`, `U`, ...); None when there is none
    limit: float | None  # the reporting limit the cell itself gives (`<0.50`, `0.50 U`)
    marker: str | None = None  # a footnote marker after the number (`a`, `*`, `1`), unresolved


def parse_number(text: str) -> float | None:
    """A printed number (`1,250`, `0.050`, `.5`), forgiving OCR look-alikes; None if not a number."""
    cleaned = text.strip().replace(" ", "")
    if not cleaned:
        return None
    if not _NUMBER.match(cleaned):
        # Only try look-alikes when the text is mostly digits already: "ND" must stay "ND".
        digits = sum(ch.isdigit() for ch in cleaned)
        if digits == 0 or digits < len(cleaned) - 2:
            return None
        cleaned = cleaned.translate(_OCR_DIGITS)
        if not _NUMBER.match(cleaned):
            return None
    if cleaned in ("", ".", "+", "-"):
        return None
    try:
        return float(cleaned.replace(",", ""))
    except ValueError:
        return None


def _split_tail(token: str) -> tuple[str, str]:
    """A token such as `0.52J` or `12.0B` as (number part, letter tail)."""
    match = re.match(r"^([<>]?[\d.,]+)([A-Za-z*†‡§]+)$", token)
    return (match.group(1), match.group(2)) if match else (token, "")


def parse_result(text: str) -> ReadValue | None:
    """Read a result cell. None when the cell holds no recognisable result (a dash, a label).

    `<0.50` is a non-detect at a limit of 0.50, `0.50 U` too (qualifier U), `ND` a non-detect
    without a limit; `0.52 J` a detect with qualifier J; a trailing lone letter or symbol that
    is no known code is returned as a footnote marker.
    """
    raw = text.strip().replace("\u2009", " ")
    if not raw:
        return None
    upper = raw.upper().replace(" ", "")
    if upper in (w.replace(" ", "") for w in NONDETECT_WORDS):
        return ReadValue(None, True, None, None)
    tokens = raw.split()
    head, tail = tokens[0], tokens[1:]
    if len(tokens) == 1:
        head, letters = _split_tail(head)
        tail = [letters] if letters else []
    if head.upper() in ("ND", "BRL", "BDL"):
        qualifier, marker = _qualifier_and_marker(tail)
        return ReadValue(None, True, qualifier, None, marker)
    less_than = head.startswith("<") or head.startswith("\u2264")
    number = parse_number(head.lstrip("<\u2264>"))
    if number is None:
        return None
    qualifier, marker = _qualifier_and_marker(tail)
    if less_than:
        return ReadValue(None, True, qualifier, number, marker)
    if qualifier is not None and "U" in qualifier:
        return ReadValue(None, True, qualifier, number, marker)
    return ReadValue(number, False, qualifier, None, marker)


def _qualifier_and_marker(tail: list[str]) -> tuple[str | None, str | None]:
    qualifier, marker = None, None
    for token in tail:
        cleaned = token.strip("()[],;")
        if not cleaned:
            continue
        if cleaned.upper() in QUALIFIER_CODES and cleaned.isupper():
            qualifier = cleaned if qualifier is None else qualifier + cleaned
        elif marker is None:
            marker = cleaned
    return qualifier, marker


def parse_qualifier(text: str) -> str | None:
    """A qualifier column's cell: the code(s) it holds, None when blank or a dash."""
    cleaned = text.strip().strip("()[]")
    if not cleaned or cleaned in ("-", "\u2013", "\u2014"):
        return None
    codes = [token for token in re.split(r"[\s,]+", cleaned) if token]
    if codes and all(code.upper() in QUALIFIER_CODES for code in codes):
        return "".join(code.upper() for code in codes)
    return cleaned


def normalize_unit(text: str) -> str | None:
    """A unit as the report spells it (µ or u kept), or None when `text` is not a unit."""
    cleaned = text.strip().replace(" ", "").replace("\u03bc", MICRO)
    match = _UNIT.match(cleaned)
    if not match:
        return None
    prefix = match.group("prefix").lower().replace(MICRO.lower(), MICRO)
    denominator = _DENOMINATORS[match.group("den").lower()]
    return f"{prefix}g/{denominator}"


def find_unit(text: str) -> str | None:
    """The first unit mentioned in some text, e.g. a header cell `Result (mg/kg)`."""
    for token in re.split(r"[\s(),;:\[\]]+", text):
        unit = normalize_unit(token)
        if unit is not None:
            return unit
    return None


def find_cas(text: str) -> str | None:
    """A CAS Registry Number in `text` (hyphen look-alikes and stray spaces allowed), if any."""
    match = _CAS.search(text)
    return "-".join(match.groups()) if match else None


def is_valid_cas(cas: str) -> bool:
    """The CAS check digit: the digits before it, each times its position from the right, mod 10."""
    parts = cas.split("-")
    if len(parts) != 3 or not all(part.isdigit() for part in parts):
        return False
    digits = (parts[0] + parts[1])[::-1]
    return sum(i * int(d) for i, d in enumerate(digits, start=1)) % 10 == int(parts[2])
