"""Reference solver for `ocr-auto-accept`: accept an OCR-read cell only when its reading is
very likely right.

It reads the case's cells (box, OCR text, OCR confidence) and never the image: no second OCR
run. Each reading is classified by its form, with general laboratory-report conventions:

- a number (`12`, `0.50`, `<2.0`, `1,460`, `1.2E+03`), optionally followed by qualifier flags
  from the usual alphabet (U, J, B, E, D, R, N, UJ, J+, J-, JN);
- qualifier flags alone;
- a CAS Registry Number whose check digit is right (a misread digit almost always breaks it);
- a unit of the usual vocabulary, exact case (mg/L, µg/kg, %, ...);
- a sample identifier (letters, a hyphen, digits), or a name (letters, digits and the
  punctuation of chemical names); a name with a point between locant digits (`1.2-`) or a
  number with a unit inside it (a neighbouring cell merged in) is suspect.

Table-level consistency: when any number cell of the table is written with a decimal comma
(`0,25`), the laboratory writes decimals that way, and every number cell read with a decimal
point is suspect (the engine tends to read a comma as a point); numbers read with a space
inside (`0 97`) lost a decimal mark.

A cell is accepted when its form is recognised, nothing makes it suspect and the OCR confidence
reaches the form's threshold (names need more: a misread letter keeps a word-like form). The
reported confidence is the OCR confidence, lowered for a suspect or unrecognised form.

Variants: `v1` (default) as above; `confidence-only` accepts every cell whose OCR confidence
reaches CONFIDENCE_ONLY, the bare engine-confidence rule, for comparison.

Weaknesses: the engine is often sure of wrong readings of well-formed numbers (a dropped
decimal point, `8.50` for `0.50`), which no form check catches; a name with one letter wrong
passes as a name.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from ..serves import Jitter, Prediction, Serves, Sources

SERVES = Serves("ocr-auto-accept", variants=("confidence-only", "v1"))

CONFIDENCE_ONLY = 0.95
THRESHOLDS = {
    "number": 0.95,
    "qualifier": 0.97,
    "cas": 0.9,
    "unit": 0.9,
    "identifier": 0.97,
    "name": 0.99,
}
SUSPECT_FACTOR = 0.5  # the confidence reported for a cell whose form is suspect or unknown

QUALIFIERS = r"(?:UJ|U|J\+|J-|JN|J|B|E|D|R|N|H|\*)"
NUMBER = r"[<>]?-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:[.,]\d+)?(?:[eE][+-]?\d{1,3})?"
NUMBER_CELL = re.compile(rf"^{NUMBER}(?:\s?{QUALIFIERS}(?:[ ,]?{QUALIFIERS})*)?$")
QUALIFIER_CELL = re.compile(rf"^{QUALIFIERS}(?:[ ,]?{QUALIFIERS})*$")
NOT_REPORTED = {"--", "NA", "ND", "NR", "n/a", "N/A"}
CAS_CELL = re.compile(r"^(\d{2,7})-(\d{2})-(\d)$")
UNITS = {
    f"{mass}/{per}"
    for mass in ("mg", "µg", "ug", "ng", "g")
    for per in ("L", "kg", "Kg", "m3", "mL")
} | {
    "%",
    "pCi/L",
    "mg/kg dry",
    "µg/kg dry",
    "ug/kg dry",
    "mg/kg-dry",
    "NTU",
    "SU",
    "s.u.",
    "µS/cm",
    "uS/cm",
}
IDENTIFIER_CELL = re.compile(
    r"^[A-Z]{1,4}\d{0,3}-\d{1,3}[A-Z]{0,3}(?:\s?\(\d+-\d+'\))?(?:-\d{6,8})?$"
)
NAME_CELL = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 ,()\[\]'+\-/.%]*$")
LOCANT_POINT = re.compile(r"\d\.\d[,.\-]")
UNIT_INSIDE = re.compile(r"\d\s*(?:mg|ug|µg|μg|ng)/(?:L|kg)\b")
DECIMAL_COMMA = re.compile(r"(?<![\d,])\d+,\d{1,2}(?!\d)|(?<![\d,])0,\d+")


def cas_valid(text: str) -> bool:
    match = CAS_CELL.match(text)
    if not match:
        return False
    digits = (match.group(1) + match.group(2))[::-1]
    return sum((i + 1) * int(d) for i, d in enumerate(digits)) % 10 == int(match.group(3))


def form_of(text: str) -> str | None:
    """The form of a reading (number, qualifier, cas, unit, identifier, name), None if none."""
    text = unicodedata.normalize("NFC", text.strip()).replace("\u03bc", "\u00b5")
    if text in NOT_REPORTED:
        return "qualifier"
    if NUMBER_CELL.match(text):
        return "number"
    if QUALIFIER_CELL.match(text):
        return "qualifier"
    if CAS_CELL.match(text):
        return "cas" if cas_valid(text) else None
    if text in UNITS:
        return "unit"
    if IDENTIFIER_CELL.match(text):
        return "identifier"
    if NAME_CELL.match(text) and sum(ch.isalpha() for ch in text) >= 3:
        return "name"
    return None


def suspect(text: str, form: str | None, comma_table: bool) -> bool:
    """Signs of a misreading the engine's confidence does not show."""
    if form == "name":
        # Chemical names separate locants with commas (1,2,4-); a point between digits there is a
        # misread comma. A unit inside a name is a neighbouring cell merged in.
        return bool(LOCANT_POINT.search(text) or UNIT_INSIDE.search(text))
    if form != "number":
        return False
    number = text.split()[0] if " " in text.strip() else text
    if re.search(r"\d \d", text):
        return True  # a space inside a number: a lost decimal mark
    return comma_table and "." in number and "E" not in number.upper()


def decide(case_input: Any, variant: str) -> list[dict[str, Any]]:
    decisions = []
    comma_table = any(DECIMAL_COMMA.search(cell.text) for cell in case_input.cells)
    for cell in case_input.cells:
        if variant == "confidence-only":
            accept = cell.confidence >= CONFIDENCE_ONLY
            decisions.append(
                {"decision": "accept" if accept else "review", "confidence": cell.confidence}
            )
            continue
        form = form_of(cell.text)
        doubtful = form is None or suspect(cell.text, form, comma_table)
        confidence = cell.confidence * (SUSPECT_FACTOR if doubtful else 1.0)
        accept = not doubtful and cell.confidence >= THRESHOLDS[form]  # type: ignore[index]
        decisions.append(
            {"decision": "accept" if accept else "review", "confidence": round(confidence, 4)}
        )
    return decisions


def solve(case_input: Any, sources: Sources, variant: str, jitter: Jitter = None) -> Prediction:
    return {"cells": decide(case_input, variant)}
