"""Reference solver for `unit-normalisation`: unit tables, a weight-basis rule and molar masses.

1. The value: the number beside any qualifier ("<0.50", "0.52 J", "ND<0.50"). Which mark is
   decimal is read from the whole report (`decimal_mark`): a comma or point that cannot group
   thousands (not three digits after it, a leading zero before it, or the other mark after it)
   is decimal, and the other mark then groups thousands; spaces always group. Scientific notation
   is read as such.
2. The unit: µg (also ug, μg), mg, ng per L or per kg, case-insensitive; ppm and ppb by the row's
   medium (water: mg/L and µg/L; soil: mg/kg and µg/kg), per litre in a soil's leachate (a basis
   naming TCLP, SPLP, a leachate, an extract or methods 1311/1312) and by volume in air (ppbv and
   nL/L too, ppmv and µL/L); a percent sign is 10,000 mg/kg.
3. Gases: µg/m³ = ppbv × molecular weight ÷ molar volume, the molar volume 22.414 L/mol at 0 °C
   scaled to the temperature the note states (in °C or K), else 25 °C; the molecular weight from
   the formula of the compound (`COMPOUNDS`, the common names, synonyms and abbreviations of
   the volatile compounds air laboratories report) and IUPAC atomic weights.
4. The weight basis: converting to dry weight divides by the solids fraction, to wet weight
   multiplies by it; the fraction is read from the note (a number beside "solid", or 100 minus
   the number beside "moist"). The basis a value is printed on is read from the basis column or
   from the unit ("mg/kg dry"): a value already on the target's basis is not converted again.
5. Species: the form printed (an ion formula NO3, NO2, NH3 or PO4 in the basis or the analyte
   name, else the element) is converted to the target's by molar mass (N 14.007, O 15.999,
   H 1.008, P 30.974).

Variants: `v1` (the default; `default` is its alias).

What it knows and what it reads: its tables (units, atomic weights, the compounds' names and
standard abbreviations, the weight bases' words and abbreviations dry, DW, wet, WW, as received)
are a chemist's general knowledge, written down without a document; how notes, values and bases
are worded was read on the dev split only.

Weaknesses: a solids or moisture line worded without those two word stems is read as percent
solids; a weight basis worded otherwise is taken as the opposite of the target's; units outside the table are copied unconverted; a gas
whose compound is not in `COMPOUNDS` is copied unconverted; a report whose every grouped value
is ambiguous (1,230 and nothing else with a comma) is read with a decimal point.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..serves import Jitter, Prediction, Serves, Sources

SERVES = Serves("unit-normalisation")

MASS = {"ng": 1e-3, "ug": 1.0, "mg": 1e3, "g": 1e6}  # in µg
ATOMIC = {"N": 14.007, "O": 15.999, "H": 1.008, "P": 30.974, "C": 12.011, "Cl": 35.45,
          "Br": 79.904, "F": 18.998, "S": 32.06}  # fmt: skip
IONS = {"NO3": ("N", 3), "NO2": ("N", 2), "NH3": ("N", 3), "PO4": ("P", 4)}
MOLAR_VOLUME_0C = 22.41396954  # L/mol, ideal gas at 273.15 K and 1 atm
# Volatile compounds as air laboratories (EPA TO-15 and the like) name them: formula -> names.
COMPOUNDS = {
    "C6H6": ("benzene",),
    "C7H8": ("toluene", "methylbenzene"),
    "C8H10": ("ethylbenzene", "xylenes", "xylene", "o-xylene", "m-xylene", "p-xylene", "m,p-xylene"),
    "C8H8": ("styrene",),
    "C9H12": ("1,2,4-trimethylbenzene", "1,3,5-trimethylbenzene", "cumene", "isopropylbenzene"),
    "C10H8": ("naphthalene",),
    "C5H12O": ("methyl tert-butyl ether", "methyl tertiary butyl ether", "mtbe"),
    "C2Cl4": ("tetrachloroethene", "tetrachloroethylene", "perchloroethylene", "pce", "perc"),
    "C2HCl3": ("trichloroethene", "trichloroethylene", "tce"),
    "C2H2Cl2": ("cis-1,2-dichloroethene", "cis-1,2-dichloroethylene", "cis-1,2-dce",
                "trans-1,2-dichloroethene", "trans-1,2-dichloroethylene", "trans-1,2-dce",
                "1,1-dichloroethene", "1,1-dichloroethylene", "1,1-dce", "vinylidene chloride"),
    "C2H3Cl": ("vinyl chloride", "chloroethene", "chloroethylene", "vc"),
    "CH2Cl2": ("methylene chloride", "dichloromethane", "dcm"),
    "CHCl3": ("chloroform", "trichloromethane"),
    "CCl4": ("carbon tetrachloride", "tetrachloromethane"),
    "C2H4Cl2": ("1,2-dichloroethane", "1,2-dca", "ethylene dichloride", "1,1-dichloroethane", "1,1-dca"),
    "C2H3Cl3": ("1,1,1-trichloroethane", "1,1,1-tca", "1,1,2-trichloroethane", "1,1,2-tca"),
    "C6H5Cl": ("chlorobenzene",),
    "C6H4Cl2": ("1,2-dichlorobenzene", "1,3-dichlorobenzene", "1,4-dichlorobenzene"),
    "CHBrCl2": ("bromodichloromethane",),
    "C3H6O": ("acetone",),
    "C4H8O": ("2-butanone", "methyl ethyl ketone", "mek"),
    "C6H14": ("hexane", "n-hexane"),
    "C6H12": ("cyclohexane",),
    "C7H16": ("heptane", "n-heptane"),
    "C4H6": ("1,3-butadiene",),
    "C2H6O": ("ethanol",),
    "C3H8O": ("isopropanol", "2-propanol", "isopropyl alcohol"),
}  # fmt: skip
LEACHATE = re.compile(r"tclp|splp|leach|extract|\b131[12]\b", re.IGNORECASE)
DRY = re.compile(r"\bdry\b|\bdw\b", re.IGNORECASE)
WET = re.compile(r"\bwet\b|\bww\b|as received", re.IGNORECASE)
NUMBER = re.compile(r"\d[\d.,\s]*(?:[eE][+-]?\d+)?")


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", re.sub(r"\btotal\b", "", name.lower()))


def formula_mass(formula: str) -> float:
    return sum(ATOMIC[e] * int(n or 1) for e, n in re.findall(r"([A-Z][a-z]?)(\d*)", formula))


MOLECULAR_WEIGHT = {_key(name): formula_mass(f) for f, names in COMPOUNDS.items() for name in names}


def ion_mass(ion: str) -> float:
    element, count = IONS[ion]
    other = "H" if ion == "NH3" else "O"
    return ATOMIC[element] + count * ATOMIC[other]


MOLAR_MASS = {**{ion: ion_mass(ion) for ion in IONS}, **ATOMIC}  # g/mol of each ion and element


def as_species(value: float, row: Any, goal: str) -> float:
    """`value` of the row's species as printed (`printed_form`) re-expressed as `goal` (an ion
    formula or element symbol) by molar mass; unchanged when the printed form is unknown or is
    already `goal`."""
    form = printed_form(row)
    return value * MOLAR_MASS[goal] / MOLAR_MASS[form] if form and form != goal else value


def _number_text(text: str) -> str:
    """The number of a printed value without its qualifier or grouping spaces."""
    match = NUMBER.search(text)
    if not match:
        raise ValueError(f"no number in {text!r}")
    return re.sub(r"\s", "", match.group(0)).rstrip(".,")


def _evidence(number: str) -> str | None:
    """"," or "." when `number` shows that mark to be the decimal one, else None."""
    mantissa = re.split(r"[eE]", number)[0]
    marks = [c for c in mantissa if c in ",."]
    if not marks:
        return None
    if len(set(marks)) == 2:
        return marks[-1]  # 1.234,5: the last mark is decimal
    mark = marks[0]
    if len(marks) > 1:  # 1,234,567: a repeated mark groups
        return "." if mark == "," else ","
    whole, fraction = mantissa.split(mark)
    if len(fraction) != 3 or whole in ("", "0") or "e" in number.lower():
        return mark
    return None  # 1,230: either


def decimal_mark(values: Iterable[str]) -> str:
    """The decimal mark of a report's printed values: the one its unambiguous values show."""
    votes = {",": 0, ".": 0}
    for value in values:
        try:
            shown = _evidence(_number_text(value))
        except ValueError:
            continue
        if shown:
            votes[shown] += 1
    return "," if votes[","] > votes["."] else "."


def read_number(text: str, mark: str | None = None) -> float:
    number = _number_text(text)
    mark = mark or _evidence(number) or "."
    group = "." if mark == "," else ","
    return float(number.replace(group, "").replace(mark, "."))


def _leachate(row: Any) -> bool:
    return row.medium == "soil" and bool(LEACHATE.search(row.basis))


def unit_scale(unit: str, medium: str) -> tuple[float, str] | None:
    """(µg per unit of the denominator, "L" or "kg"), or (parts per billion by volume per unit,
    "v/v") in air, of a printed unit; None if unknown. `medium` "leachate" is a soil's extract."""
    u = unit.strip().lower().replace("µ", "u").replace("μ", "u")
    if medium == "air":
        if re.fullmatch(r"ppbv?|ppb\s*\(v\)|ppb\s*v/v|nl/l", u):
            return 1.0, "v/v"
        if re.fullmatch(r"ppmv?|ppm\s*\(v\)|ppm\s*v/v|ul/l", u):
            return 1e3, "v/v"
        if re.fullmatch(r"ug/m3|ug/m³|ug/cu\.?\s*m", u):
            return 1.0, "m3"
    if u in ("ppm", "ppb"):
        per = "L" if medium in ("water", "leachate") else "kg"
        return (MASS["mg"] if u == "ppm" else MASS["ug"]), per
    if "%" in u or "percent" in u:
        return 1e4 * MASS["mg"], "kg"
    match = re.match(r"(ng|ug|mg|g)\s*/\s*(l|kg)\b", u)
    if not match:
        return None
    return MASS[match.group(1)], "L" if match.group(2) == "l" else "kg"


def solids_fraction(note: str) -> float | None:
    number = re.search(r"(\d+(?:[.,]\d+)?)", note)
    if not number:
        return None
    value = read_number(number.group(1))
    return (100 - value) / 100 if re.search(r"moist", note, re.IGNORECASE) else value / 100


def kelvin(note: str) -> float:
    """The temperature a gas conversion is stated at (25 °C when the note gives none)."""
    k = re.search(r"(\d+(?:[.,]\d+)?)\s*K\b", note)
    if k:
        return read_number(k.group(1))
    c = re.search(r"(-?\d+(?:[.,]\d+)?)\s*(?:°|º|deg(?:rees?)?\.?)\s*C\b", note, re.IGNORECASE)
    return 273.15 + (read_number(c.group(1)) if c else 25.0)


def printed_basis(row: Any) -> str | None:
    """"dry" or "wet": the weight basis the row's value is printed on, from its basis or unit."""
    for text in (row.basis, row.unit):
        if DRY.search(text):
            return "dry"
        if WET.search(text):
            return "wet"
    return None


def printed_form(row: Any) -> str | None:
    """The ion formula the row is printed as, or the element symbol."""
    for ion in IONS:
        if ion in row.basis or ion in row.analyte:
            return ion
    for element in ("N", "P"):
        if re.search(rf"(?<![A-Za-z]){element}(?![A-Za-z0-9])", row.basis):
            return element
    return None


def convert(row: Any, mark: str | None = None) -> float:
    """The row's value in its target unit and basis (`row`: one of the input's result rows, the
    type's record: value, unit, medium, basis, note, analyte, target unit and basis are read;
    `mark`: the report's decimal mark, read from the row alone when not given)."""
    value = read_number(row.value, mark)
    medium = "leachate" if _leachate(row) else row.medium
    source = unit_scale(row.unit, medium)
    target = unit_scale(row.target_unit, medium)
    if source and target and source[1] == "v/v" and target[1] == "m3":
        weight = MOLECULAR_WEIGHT.get(_key(row.analyte))
        if weight is None:
            return value
        molar_volume = MOLAR_VOLUME_0C * kelvin(row.note) / 273.15
        return value * source[0] * weight / molar_volume
    if source and target:
        value = value * source[0] / target[0]
    wanted = row.target_basis.strip()
    if wanted in ("dry weight", "wet weight") and medium != "leachate":
        fraction = solids_fraction(row.note)
        if fraction and printed_basis(row) != wanted.split()[0]:
            value = value / fraction if wanted == "dry weight" else value * fraction
    elif wanted.startswith("as "):
        value = as_species(value, row, wanted[3:])
    return value


def solve(case_input: Any, sources: Sources, variant: str, jitter: Jitter = None) -> Prediction:
    mark = decimal_mark(row.value for row in case_input.results)
    return {"results": [{"result": row.id, "value": convert(row, mark)} for row in case_input.results]}
