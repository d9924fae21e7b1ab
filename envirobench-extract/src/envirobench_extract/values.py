"""Printed laboratory result notation, parsed: the value, whether it is a non-detect, its
qualifier flags and its unit.

A results table prints one result in many ways. `parse_value(text)` reads a whole cell and
returns a `Reading`, or None when the cell is not a result (a name, a CAS number, a method, a
header): the cell must match the notation below from its first character to its last, so
"1,4-Dioxane", "71-43-2", "SW-846 8260D" and "Aroclor 1254" are never read as numbers.

Before parsing, text is normalised by `normalise_text`: Unicode NFC, every run of whitespace
(spaces, tabs, line breaks) made one space, and the ends stripped. Then, with `n` a number,
`u` a unit and `F` qualifier flags (each optional part in brackets, `_` an optional space):

    notation            example            value   nondetect  qualifiers  limit
    n                   12.5, 0.0050        12.5    no         -           -
    n with thousands    1,250  250,000      1250    no         -           -
    n in E notation     1.2E+03, 1.2e-3     1200    no         -           -
    n_F                 1.2 J, 1.2J, 12 B   1.2     no         J           -
                        0.50 U, 0.50U       0.50    yes (U)    U           -
                        3.1 JB, 3.1 J B     3.1     no         B, J        -
    n_u[_F], n_F_u      12 mg/L, 4.1 J µg/L 12      no         -           -
    <_n[_u][_F]         <0.50, < 0.50       0.50    yes        -           -
    <_L                 <RL, < MDL          none    yes        -           RL, MDL
    ND                  ND                  none    yes        -           -
    ND_(n[_u])          ND (0.5), ND(0.5)   0.5     yes        -           -
    BRL, BDL            BRL                 none    yes        -           RL, DL

- Numbers: an optional sign (`-`, or U+2212 MINUS SIGN), digits with an optional decimal point
  and fraction (`.5` too), optionally grouped in thousands by commas (`1,250`, `1,250.5`; the
  groups must be whole: `1,25` is not a number), optionally followed by an exponent (`E+03`).
  Decimal commas (`0,50`) are not read. Values compare as decimals, so `0.5` equals `0.50` and
  `1,250` equals `1250`, but `0.05` does not equal `0.50`.
- Qualifier flags: the letters U, J, B, E, H and R (laboratory data qualifiers: not detected,
  estimated, found in the blank, over range, hold time, rejected), alone or run together
  (`UJ`, `JB`), in tokens after the number; their order is not significant. U marks a
  non-detect: `0.50 U` is not detected at 0.50. Flags may touch the number only when they are
  U and J (`0.50U`, `1.2J`, `0.2UJ`); B, E, H and R need a space (`12 B`), because `8260B` and
  `8270E` are method codes, not flagged results.
- `<` marks a non-detect below the printed number, or below a named limit: RL, MDL, PQL, MRL,
  LOQ, LOD, DL, EQL, SQL. `ND` is not detected, optionally with its limit in parentheses; `BRL`
  (below the reporting limit) reads as `<RL` and `BDL` (below the detection limit) as `<DL`.
- Units (see `parse_unit`) may follow the number, before or after the flags, and inside the
  parentheses of `ND (n u)`.

Two readings agree when value, non-detect, qualifiers, unit and named limit are all equal.
So `<0.005` and `< 0.005` agree, `ND (0.5)` and `<0.5` agree (not detected below 0.5, no flag),
but `0.50 U` does not agree with `<0.50` (the U flag is a qualifier the report printed), and
`ND` does not agree with `<RL` (only one names its limit).

`parse_unit(text)` reads a cell that is only a unit and returns its canonical spelling: a mass
(g, mg, µg, ng, pg; also `ug`, `mcg` and the Greek small letter mu U+03BC for U+00B5 MICRO
SIGN) per a mass (kg, g, mg) or a volume (L, mL, m³ or m3), in any letter case, with an optional
basis suffix `dry` or `wet` (`mg/kg dry`, `mg/kg-dry`); or one of %, ppm, ppb, ppt, ppmv, ppbv,
pCi/L. So `ug/L`, `µg/L` and `μg/L` are all `µg/L`, and `mg/Kg` is `mg/kg`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

MICRO = "\u00b5"  # MICRO SIGN, the canonical spelling (as envirobench_synth.catalogue prints it)
QUALIFIER_LETTERS = "UJBEHR"
NAMED_LIMITS = ("RL", "MDL", "PQL", "MRL", "LOQ", "LOD", "DL", "EQL", "SQL")
BELOW_WORDS = {"BRL": "RL", "BDL": "DL"}

_NUMBER = (
    r"[-\u2212]?"
    r"(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d*)?|\.\d+)"
    r"(?:[eE][+-]?\d+)?"
)
_NUMBER_RE = re.compile(_NUMBER)
_FLAGS_RE = re.compile(rf"[{QUALIFIER_LETTERS}]{{1,3}}")
ATTACHED_LETTERS = "UJ"  # the flags that may touch the number
_MASS = r"(?P<mass>(?:mc|[mµμunp])?g)"
_PER = r"(?P<per>kg|g|mg|l|ml|m3|m³)"
_BASIS = r"(?:[ -](?P<basis>dry|wet))?"
_UNIT_RE = re.compile(
    rf"{_MASS}/{_PER}{_BASIS}|(?P<word>%|ppm|ppb|ppt|ppmv|ppbv|pci/l)", re.IGNORECASE
)
_LIMITS_RE = "|".join(NAMED_LIMITS)
_LESS_LIMIT_RE = re.compile(rf"<\s?(?P<limit>{_LIMITS_RE})")
_ND_RE = re.compile(r"ND(?:\s?\((?P<inner>[^()]*)\))?")
_WORDS = {"ppm": "ppm", "ppb": "ppb", "ppt": "ppt", "ppmv": "ppmv", "ppbv": "ppbv", "%": "%"}


@dataclass(frozen=True)
class Reading:
    """A result as printed: compare readings with ==.

    `value` is the printed number (for a non-detect, the limit it is below), None when none is
    printed (`ND`, `<RL`); `qualifiers` the flags as sorted single letters; `unit` the canonical
    unit or None; `limit` the named limit of `<RL`-style non-detects.
    """

    value: Decimal | None
    nondetect: bool = False
    qualifiers: tuple[str, ...] = ()
    unit: str | None = None
    limit: str | None = None


def normalise_text(text: str) -> str:
    """Unicode NFC, every run of whitespace made one space, the ends stripped."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def parse_unit(text: str) -> str | None:
    """The canonical spelling of a cell that is only a unit, or None (see the module docstring)."""
    match = _UNIT_RE.fullmatch(normalise_text(text))
    return None if match is None else _canonical_unit(match)


def parse_value(text: str) -> Reading | None:
    """The reading of a cell that is one printed result, or None (see the module docstring)."""
    s = normalise_text(text)
    if not s:
        return None
    if s in BELOW_WORDS:
        return Reading(None, nondetect=True, limit=BELOW_WORDS[s])
    nd = _ND_RE.fullmatch(s)
    if nd is not None:
        inner = nd.group("inner")
        if inner is None:
            return Reading(None, nondetect=True)
        reading = _number_with_tail(inner.strip(), allow_flags=False)
        return None if reading is None else Reading(reading.value, True, (), reading.unit)
    if s.startswith("<"):
        limit = _LESS_LIMIT_RE.fullmatch(s)
        if limit is not None:
            return Reading(None, nondetect=True, limit=limit.group("limit"))
        reading = _number_with_tail(s[1:].lstrip(), allow_flags=True)
        if reading is None:
            return None
        return Reading(reading.value, True, reading.qualifiers, reading.unit)
    return _number_with_tail(s, allow_flags=True)


def _number_with_tail(s: str, *, allow_flags: bool) -> Reading | None:
    number = _NUMBER_RE.match(s)
    if number is None:
        return None
    value = _decimal(number.group())
    if value is None:
        return None
    rest = s[number.end() :]
    unit: str | None = None
    flags: set[str] = set()
    first = True
    while rest:
        # Tokens follow the number after a space; the first may touch it (0.50U, 12mg/L).
        attached = not rest.startswith(" ")
        if not attached:
            rest = rest[1:]
        elif not first:
            return None
        first = False
        unit_match = _UNIT_RE.match(rest)
        if unit_match is not None and _token_ends(rest, unit_match.end()) and unit is None:
            unit = _canonical_unit(unit_match)
            rest = rest[unit_match.end() :]
            continue
        flag_match = _FLAGS_RE.match(rest)
        if (
            allow_flags
            and flag_match is not None
            and _token_ends(rest, flag_match.end())
            and not (attached and set(flag_match.group()) - set(ATTACHED_LETTERS))
        ):
            flags.update(flag_match.group())
            rest = rest[flag_match.end() :]
            continue
        return None
    return Reading(value, "U" in flags, tuple(sorted(flags)), unit)


def _token_ends(text: str, end: int) -> bool:
    return end == len(text) or text[end] == " "


def _decimal(text: str) -> Decimal | None:
    try:
        return Decimal(text.replace(",", "").replace("\u2212", "-"))
    except InvalidOperation:  # pragma: no cover - the pattern admits only valid numbers
        return None


def _canonical_unit(match: re.Match[str]) -> str:
    word = match.group("word")
    if word is not None:
        return "pCi/L" if word.lower() == "pci/l" else _WORDS[word.lower()]
    mass = match.group("mass").lower()
    prefix = mass[:-1]
    if prefix in ("mc", "u", "\u03bc", MICRO):
        prefix = MICRO
    per = match.group("per").lower()
    per = {"l": "L", "ml": "mL", "m3": "m³"}.get(per, per)
    basis = match.group("basis")
    return f"{prefix}g/{per}" + (f" {basis.lower()}" if basis else "")


def readings_agree(gold: str, predicted: str) -> bool:
    """Do two printed results agree as values? False when `gold` is not a result."""
    reading = parse_value(gold)
    return reading is not None and reading == parse_value(predicted)
