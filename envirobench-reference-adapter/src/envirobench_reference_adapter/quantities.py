"""Reading laboratory values as printed: numbers, non-detects, qualifiers, units, CAS numbers.

This is the adapter's own reader. It deliberately shares no code with the benchmark package (the
benchmark's scoring is what measures this adapter, so borrowing it would hide the adapter's
mistakes). It understands the notations laboratory reports use:

- numbers with thousands separators (`1,250`), leading dots (`.50`), decimal commas (`0,52`,
  `1.250,5`; `1,250` stays a thousands separator unless the caller knows the report writes
  decimal commas), scientific notation (`1.2E-03`, `1.2e+2`, `1.2x10-3`, `1.2×10⁻³`) and OCR's
  usual look-alikes inside a number (`O`/`o` for 0, `l`/`I` for 1, `S` for 5 when the rest is
  digits);
- non-detects: `ND`, `<0.50` or `< 0.50` (less than the reporting limit: the number is the limit),
  `<RL`, `<MDL` (less than the limit in its column: a non-detect without a number of its own),
  `0.50 U` (the limit with the `U` qualifier), `BRL`/`BDL`;
- qualifier codes after a number (`0.52 J`, `0.52J`, `12 B`, `3.1 J+`, `UJ`, `JN`) and in their
  own column: upper-case codes of one to three letters, a `+` or `-` allowed at the end;
- units, keeping the report's spelling of micro (`µg/L` or `ug/L`; OCR's Greek `μ` becomes `µ`)
  and writing cubic metres as `m³`.

Weaknesses: a number OCR misreads as another number (`8` for `3`) cannot be caught here; a
qualifier letter that OCR joins to the number's last digit is only found when it is one of the
known codes; footnote markers are read as markers (letters or symbols) and resolved by the caller.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

MICRO = "\u00b5"  # MICRO SIGN, as reports print it
QUALIFIER_CODES = ("U", "J", "B", "E", "D", "H", "R", "UJ", "JB")  # the commonest; any code of CODE's shape is read
CODE = re.compile(r"^[A-Z]{1,3}[+-]?$")
SINGLE_CODES = "UJBEDHRNPXQ"  # one-letter codes laboratories and validators print
NONDETECT_WORDS = ("ND", "BRL", "BDL", "N.D.", "NOT DETECTED")

_OCR_DIGITS = str.maketrans({"O": "0", "o": "0", "l": "1", "I": "1", "|": "1", "S": "5", "B": "8"})
_NUMBER = re.compile(r"^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?$")
_SCIENTIFIC = re.compile(r"^(?P<m>[+-]?\d+(?:[.,]\d+)?)\s*(?:[eE]\s*(?P<e>[+-]?\d{1,3})|[x×\*]\s*10\s*\^?\s*(?P<p>[+-−]?\d{1,3}))$")
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_DECIMAL_COMMA = re.compile(r"^[+-]?(?:\d{1,3}(?:\.\d{3})+|\d+),\d+$")
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


def parse_number(text: str, *, decimal_comma: bool = False) -> float | None:
    """A printed number (`1,250`, `0.050`, `.5`, `0,52`, `1.2E-03`), forgiving OCR look-alikes;
    None if not a number. With `decimal_comma` (the report writes them), `1,250` is 1.25."""
    cleaned = text.strip().replace(" ", "").replace("\u2212", "-").translate(_SUPERSCRIPTS)
    if not cleaned:
        return None
    scientific = _SCIENTIFIC.match(cleaned)
    if scientific:
        exponent = scientific.group("e") or scientific.group("p").replace("\u2212", "-")
        mantissa = Decimal(scientific.group("m").replace(",", "."))
        return float(mantissa.scaleb(int(exponent)))
    if _DECIMAL_COMMA.match(cleaned) and (decimal_comma or not re.match(r"^[+-]?[1-9]\d{0,2},\d{3}$", cleaned)):
        return float(cleaned.replace(".", "").replace(",", "."))
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
    match = re.match(r"^([<>]?[\d.,]+)([A-Za-z*†‡§]+[+-]?)$", token)
    return (match.group(1), match.group(2)) if match else (token, "")


def parse_result(text: str, *, decimal_comma: bool = False) -> ReadValue | None:
    """Read a result cell. None when the cell holds no recognisable result (a dash, a label).

    `<0.50` is a non-detect at a limit of 0.50, `0.50 U` too (qualifier U), `ND` a non-detect
    without a limit; `0.52 J` a detect with qualifier J; a trailing lone letter or symbol that
    is no known code is returned as a footnote marker.
    """
    raw = re.sub(r"([<\u2264>])\s+(?=[\d.])", r"\1", text.strip().replace("\u2009", " "))
    if not raw:
        return None
    below = re.match(r"^[<\u2264]\s*([A-Za-z]{1,5})\b\s*(.*)$", raw)
    if below and parse_number(below.group(1)) is None:
        # "<RL", "< MDL": below the limit its column gives; no number of its own.
        qualifier, marker = _qualifier_and_marker(below.group(2).split())
        return ReadValue(None, True, qualifier, None, marker)
    upper = raw.upper().replace(" ", "")
    if upper in (w.replace(" ", "") for w in NONDETECT_WORDS):
        return ReadValue(None, True, None, None)
    tokens = raw.split()
    if len(tokens) >= 2 and re.match(r"^([eE][+-]?\d{1,3}|[x×]10\S*)$", tokens[1]):
        tokens = [tokens[0] + tokens[1], *tokens[2:]]  # "1.2 E-03": one number in two words
    head, tail = tokens[0], tokens[1:]
    if len(tokens) == 1:
        head, letters = _split_tail(head)
        tail = [letters] if letters else []
    if head.upper() in ("ND", "BRL", "BDL"):
        qualifier, marker = _qualifier_and_marker(tail)
        return ReadValue(None, True, qualifier, None, marker)
    less_than = head.startswith("<") or head.startswith("\u2264")
    number = parse_number(head.lstrip("<\u2264>"), decimal_comma=decimal_comma)
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
        # A lone capital that is no common code is more likely a footnote marker OCR read upper-case.
        if CODE.match(cleaned) and (len(cleaned.rstrip("+-")) > 1 or cleaned[0] in SINGLE_CODES):
            qualifier = cleaned if qualifier is None else qualifier + cleaned
        elif marker is None:
            marker = cleaned
    return qualifier, marker


def parse_qualifier(text: str) -> str | None:
    """A qualifier column's cell: the code(s) it holds, None when blank or a dash."""
    cleaned = text.strip().strip("()[]")
    if not cleaned or cleaned in ("-", "\u2013", "\u2014"):
        return None
    codes = [token for token in re.split(r"[\s,;/]+", cleaned) if token]
    if codes and all(CODE.match(code) for code in codes):
        return "".join(codes)
    return cleaned


def is_qualifier_text(text: str) -> bool:
    """Is a cell a qualifier column's (codes such as `J`, `UJ`, `J+`, `J, B`; a dash: none)?"""
    cleaned = text.strip().strip("()[]")
    if re.fullmatch(r"[-\u2013\u2014]*", cleaned):
        return True
    codes = [token for token in re.split(r"[\s,;/]+", cleaned) if token]
    return bool(codes) and len(codes) <= 3 and all(CODE.match(code) for code in codes)


def normalize_unit(text: str) -> str | None:
    """A unit as the report spells it (µ or u kept), or None when `text` is not a unit."""
    cleaned = text.strip().replace(" ", "").replace("\u03bc", MICRO)
    if cleaned == "%":
        return "%"
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
