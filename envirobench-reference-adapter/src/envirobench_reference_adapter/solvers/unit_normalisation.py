"""Reference solver for `unit-normalisation`: unit tables, a weight-basis rule and molar masses.

1. The value: a decimal comma is a decimal point when no point is printed; scientific notation
   is read as such.
2. The unit: µg (also ug, μg), mg, ng per L or per kg, case-insensitive; ppm and ppb by the row's
   medium (water: mg/L and µg/L; soil: mg/kg and µg/kg); a percent sign is 10,000 mg/kg.
3. The weight basis: converting to dry weight divides by the solids fraction, to wet weight
   multiplies by it; the fraction is read from the note (a number beside "solid", or 100 minus
   the number beside "moist"). A row whose printed basis already names the target's wet or dry
   is not converted again.
4. Species: the form printed (an ion formula NO3, NO2, NH3 or PO4 in the basis or the analyte
   name, else the element) is converted to the target's by molar mass (N 14.007, O 15.999,
   H 1.008, P 30.974).

Variants: `v1` (the default; `default` is its alias).

Weaknesses: a solids or moisture line worded without those two word stems is read as percent
solids; units outside the table are copied unconverted.
"""

from __future__ import annotations

import re
from typing import Any

from ..serves import Jitter, Prediction, Serves, Sources

SERVES = Serves("unit-normalisation")

MASS = {"ng": 1e-3, "ug": 1.0, "mg": 1e3, "g": 1e6}  # in µg
ATOMIC = {"N": 14.007, "O": 15.999, "H": 1.008, "P": 30.974}
IONS = {"NO3": ("N", 3), "NO2": ("N", 2), "NH3": ("N", 3), "PO4": ("P", 4)}


def ion_mass(ion: str) -> float:
    element, count = IONS[ion]
    other = "H" if ion == "NH3" else "O"
    return ATOMIC[element] + count * ATOMIC[other]


def read_number(text: str) -> float:
    t = text.strip().replace(" ", "")
    if "," in t and "." not in t:
        t = t.replace(",", ".")
    t = t.replace(",", "")
    return float(t)


def unit_scale(unit: str, medium: str) -> tuple[float, str] | None:
    """(µg per unit of the denominator, "L" or "kg") of a printed unit, or None if unknown."""
    u = unit.strip().lower().replace("µ", "u").replace("μ", "u")
    if u in ("ppm", "ppb"):
        per = "L" if medium == "water" else "kg"
        return (MASS["mg"] if u == "ppm" else MASS["ug"]), per
    if "%" in u or "percent" in u:
        return 1e4 * MASS["mg"], "kg"
    match = re.fullmatch(r"(ng|ug|mg|g)\s*/\s*(l|kg)", u)
    if not match:
        return None
    return MASS[match.group(1)], "L" if match.group(2) == "l" else "kg"


def solids_fraction(note: str) -> float | None:
    number = re.search(r"(\d+(?:[.,]\d+)?)", note)
    if not number:
        return None
    value = read_number(number.group(1))
    return (100 - value) / 100 if re.search(r"moist", note, re.IGNORECASE) else value / 100


def printed_form(row: Any) -> str | None:
    """The ion formula the row is printed as, or the element symbol."""
    for ion in IONS:
        if ion in row.basis or ion in row.analyte:
            return ion
    for element in ("N", "P"):
        if re.search(rf"(?<![A-Za-z]){element}(?![A-Za-z0-9])", row.basis):
            return element
    return None


def convert(row: Any) -> float:
    """The row's value in its target unit and basis (`row`: one of the input's result rows, the
    type's record: value, unit, medium, basis, note, analyte, target unit and basis are read)."""
    value = read_number(row.value)
    source = unit_scale(row.unit, row.medium)
    target = unit_scale(row.target_unit, row.medium)
    if source and target:
        value = value * source[0] / target[0]
    wanted = row.target_basis.strip()
    if wanted in ("dry weight", "wet weight"):
        fraction = solids_fraction(row.note)
        already = re.search(wanted.split()[0], row.basis, re.IGNORECASE)
        if fraction and not already:
            value = value / fraction if wanted == "dry weight" else value * fraction
    elif wanted.startswith("as "):
        goal = wanted[3:]
        form = printed_form(row)
        if form and form != goal:
            mass = {**{k: ion_mass(k) for k in IONS}, **ATOMIC}
            value = value * mass[goal] / mass[form]
    return value


def solve(case_input: Any, sources: Sources, variant: str, jitter: Jitter = None) -> Prediction:
    return {"results": [{"result": row.id, "value": convert(row)} for row in case_input.results]}
