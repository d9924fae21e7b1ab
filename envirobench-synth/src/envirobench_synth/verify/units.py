"""Seeded result values to convert to a target unit and basis: the cases of Verify's
`unit-normalisation` type (envirobench_verify.unit_normalisation holds the scoring rules).

A report is drawn in one of the laboratory-report families of its split
(envirobench_synth.labreport.families: decimal comma, scientific notation), its analytes and
typical values from the catalogue. Each row is a result as printed (value, unit, the basis it is
reported on, the sample's percent solids or moisture where a soil's weight basis matters) and the
unit and basis a reviewer wants it in. Conversions: µg/L, mg/L and ng/L; mg/kg, µg/kg and percent;
ppm and ppb by medium (mass per volume for water, mass per mass for soil); wet and dry weight with
percent solids or percent moisture; nitrogen and phosphorus species as the element or as the ion
(nitrate as N or as NO3, nitrite as N or as NO2, ammonia as N or as NH3, phosphate as P or as PO4);
and rows already in the target unit. The dev and test splits print units, bases and species in
disjoint spellings (`UNIT_SPELLINGS`, `BASIS_SPELLINGS`, `SPECIES_SPELLINGS`).

Traps of real practice, in both splits (each split its own spellings):
- gases: a soil-gas or indoor-air row in parts per billion or per million *by volume* (printed
  ppbv, nL/L, or bare ppb and ppm, which in air mean volume, not mass), wanted in µg/m³: µg/m³ =
  ppbv × molecular weight ÷ molar volume, at 25 °C and 1 atm unless the row's note states other
  reference conditions (20 °C or 0 °C); the molecular weight from the compound's formula
  (`FORMULA`, atomic weights C 12.011, H 1.008, Cl 35.45, O 15.999);
- leachates: a soil sample's TCLP or SPLP extract, whose ppm and ppb are per litre of extract
  (mg/L and µg/L), printed beside the sample's percent solids line (which does not apply to it);
- the weight basis printed inside the unit ("mg/kg dry", "µg/Kg-ww") and none in the basis
  column, wanted on the other basis or on the same one (then the solids line must not be applied);
- printed values as labs print them: a qualifier beside the number ("<0.50", "0.52 J", "ND<0.50")
  and, in about half the reports, thousands grouped (12,300 where the decimal mark is a point,
  12.300 or 12 300 where it is a comma): the report's own values say which mark is decimal.

Truth: exact decimal arithmetic on the value as printed, with the molar masses of `MOLAR`
(IUPAC standard atomic weights: N 14.007, O 15.999, H 1.008, P 30.974), then rounded to six
significant figures.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from decimal import Decimal

from .. import catalogue
from ..labreport.families import families_of

N, OX, H, P = Decimal("14.007"), Decimal("15.999"), Decimal("1.008"), Decimal("30.974")
C, CL = Decimal("12.011"), Decimal("35.45")
MOLAR = {
    "nitrate": (N, N + 3 * OX),  # (the element, the ion)
    "nitrite": (N, N + 2 * OX),
    "ammonia": (N, N + 3 * H),
    "phosphate": (P, P + 4 * OX),
}
ELEMENT = {"nitrate": "N", "nitrite": "N", "ammonia": "N", "phosphate": "P"}
ION = {"nitrate": "NO3", "nitrite": "NO2", "ammonia": "NH3", "phosphate": "PO4"}
SPECIES_NAMES = {"nitrate": "Nitrate", "nitrite": "Nitrite", "ammonia": "Ammonia", "phosphate":
                 "Orthophosphate"}  # fmt: skip

# Mass per volume (water) and mass per mass (soil), in µg per litre or per kilogram.
FACTOR = {"ng": Decimal("0.001"), "µg": Decimal(1), "mg": Decimal(1000)}
UNIT_SPELLINGS: dict[str, dict[str, tuple[str, ...]]] = {
    "dev": {
        "µg/L": ("ug/L", "µg/L"),
        "mg/L": ("mg/L",),
        "ng/L": ("ng/L",),
        "µg/kg": ("ug/kg", "µg/kg"),
        "mg/kg": ("mg/kg",),
        "ppm-water": ("ppm",),
        "ppb-water": ("ppb",),
        "ppm-soil": ("ppm",),
        "ppb-soil": ("ppb",),
        "%": ("%",),
    },
    "test": {
        "µg/L": ("µg/l", "ug/l", "UG/L"),
        "mg/L": ("mg/l", "MG/L"),
        "ng/L": ("ng/l",),
        "µg/kg": ("ug/Kg", "µg/Kg", "UG/KG"),
        "mg/kg": ("mg/Kg", "MG/KG"),
        "ppm-water": ("PPM",),
        "ppb-water": ("PPB",),
        "ppm-soil": ("PPM",),
        "ppb-soil": ("PPB",),
        "%": ("wt%", "percent"),
    },
}
BASIS_SPELLINGS = {
    "dev": {"wet": ("wet weight", "as received"), "dry": ("dry weight", "dry wt.")},
    "test": {"wet": ("wet basis", "WW"), "dry": ("dry basis", "DW", "corrected for moisture")},
}
SPECIES_SPELLINGS = {
    "dev": {"element": ("as {e}", "{name}-{e}"), "ion": ("as {i}", "{name} ({i})")},
    "test": {"element": ("{e}", "{name}, reported as {e}"), "ion": ("{i}", "total {i}")},
}
SOLIDS_NOTES = {
    "dev": ("Percent solids: {s}", "% Solids = {s}"),
    "test": ("Total solids {s} %", "Solids content: {s}%"),
}
MOISTURE_NOTES = {
    "dev": ("Percent moisture: {m}", "% Moisture = {m}"),
    "test": ("Moisture content {m} %", "Water content: {m}%"),
}
# Gases: parts by volume, by split (bare ppb and ppm in air are by volume too).
GAS_SPELLINGS = {
    "dev": {"ppbv": ("ppbv", "ppb"), "ppmv": ("ppmv", "ppm")},
    "test": {"ppbv": ("PPBV", "nL/L", "PPB"), "ppmv": ("µL/L", "PPM", "ppm(v)")},
}
# Reference conditions other than 25 °C and 1 atm, as a note states them (kelvin, degrees Celsius).
GAS_CONDITIONS = {
    "dev": ("Reported at {c} °C and 1 atm", "Conversion at {c} degrees C"),
    "test": ("Reference conditions: {k} K, 101.325 kPa", "Standard temperature {c}°C"),
}
# Each catalogue compound measured in air, by CAS number: its formula as (atomic weight, count) pairs.
FORMULA: dict[str, tuple[tuple[Decimal, int], ...]] = {
    "71-43-2": ((C, 6), (H, 6)),  # benzene
    "108-88-3": ((C, 7), (H, 8)),  # toluene
    "100-41-4": ((C, 8), (H, 10)),  # ethylbenzene
    "1330-20-7": ((C, 8), (H, 10)),  # xylenes
    "95-47-6": ((C, 8), (H, 10)),  # o-xylene
    "1634-04-4": ((C, 5), (H, 12), (OX, 1)),  # MTBE
    "95-63-6": ((C, 9), (H, 12)),  # 1,2,4-trimethylbenzene
    "127-18-4": ((C, 2), (CL, 4)),  # tetrachloroethene
    "79-01-6": ((C, 2), (H, 1), (CL, 3)),  # trichloroethene
    "156-59-2": ((C, 2), (H, 2), (CL, 2)),  # cis-1,2-dichloroethene
    "156-60-5": ((C, 2), (H, 2), (CL, 2)),  # trans-1,2-dichloroethene
    "75-35-4": ((C, 2), (H, 2), (CL, 2)),  # 1,1-dichloroethene
    "75-01-4": ((C, 2), (H, 3), (CL, 1)),  # vinyl chloride
    "75-09-2": ((C, 1), (H, 2), (CL, 2)),  # methylene chloride
    "67-66-3": ((C, 1), (H, 1), (CL, 3)),  # chloroform
    "107-06-2": ((C, 2), (H, 4), (CL, 2)),  # 1,2-dichloroethane
}
MOLAR_VOLUME_0C = Decimal("22.41396954")  # litres per mole of an ideal gas at 0 °C and 1 atm
# Leachates: the extract a soil sample gives, as the basis column names it.
LEACHATE_SPELLINGS = {
    "dev": ("TCLP extract", "SPLP leachate"),
    "test": ("EPA 1311 leachate", "synthetic precipitation leachate (1312)"),
}
# The weight basis inside the unit string ({u}: the mass unit as the split prints it).
UNIT_BASIS_SPELLINGS = {
    "dev": {"wet": ("{u} wet", "{u} wet wt"), "dry": ("{u} dry", "{u} dry wt")},
    "test": {"wet": ("{u}-ww", "{u} (wet)"), "dry": ("{u}-dw", "{u} (dry)")},
}
# A qualifier printed beside the number ({v}: the number as printed).
QUALIFIED = {
    "dev": ("<{v}", "{v} J", "{v} U"),
    "test": ("< {v}", "{v}J", "ND<{v}", "{v} (U)"),
}
QUALIFIED_SHARE = 0.15
GROUPED_SHARE = 0.5  # of reports that group thousands
KINDS = (
    "mass-volume",
    "mass-mass",
    "ppm-ppb",
    "wet-to-dry",
    "dry-to-wet",
    "moisture-to-dry",
    "species",
    "species-and-unit",
    "percent",
    "wet-to-dry-and-unit",
    "unchanged",
    "gas-volume",
    "leachate",
    "unit-basis",
)


@dataclass(frozen=True)
class UnitRow:
    id: str
    analyte: str
    medium: str  # "water", "soil" or "air"
    value: str  # as printed
    unit: str  # as printed
    basis: str  # as printed, "" when the report prints none
    note: str  # the sample's percent solids or moisture line, "" when not printed
    target_unit: str  # canonical: µg/L, mg/L, ng/L, µg/kg, mg/kg, µg/m³
    target_basis: str  # "", "dry weight", "wet weight", "as N", "as NO3", ...
    truth: float
    kind: str


@dataclass(frozen=True)
class UnitReport:
    family: str
    rows: tuple[UnitRow, ...]


def _printed(value: Decimal, comma: bool, scientific: bool, group: str = "") -> str:
    """`value` to three significant figures as the report prints it: its decimal mark, scientific
    notation for large values where the report uses it, else thousands grouped by `group`."""
    if scientific and value >= 1000:
        mantissa = value.scaleb(-(value.adjusted()))
        text = f"{mantissa:.2f}E+{value.adjusted():02d}"
        return text.replace(".", ",") if comma else text
    whole, _, fraction = catalogue.significant(value, 3).partition(".")
    if group and len(whole) > 3:
        whole = f"{int(whole):,}".replace(",", group)
    return whole + (("," if comma else ".") + fraction if fraction else "")


def molecular_weight(cas: str) -> Decimal:
    return sum((element * count for element, count in FORMULA[cas]), Decimal(0))


def molar_volume(celsius: int) -> Decimal:
    """Litres per mole of an ideal gas at `celsius` and 1 atm."""
    return MOLAR_VOLUME_0C * (Decimal("273.15") + celsius) / Decimal("273.15")


def _read(text: str) -> Decimal:
    """The number of a value printed without grouping (its decimal mark a point or a comma)."""
    return Decimal(text.replace(",", "."))


def _six(value: Decimal) -> float:
    return float(f"{value:.6g}")


def sample_unit_report(rng: random.Random, split: str, index: int, results: int) -> UnitReport:
    """One report's rows to convert, drawn from `rng` in the families of `split`."""
    family = families_of(split)[index % len(families_of(split))]  # type: ignore[arg-type]
    comma = rng.random() < max(family.decimal_comma, 0.15)
    scientific = rng.random() < max(family.scientific, 0.15)
    group = ""
    if rng.random() < GROUPED_SHARE:
        group = "," if not comma else ("." if split == "dev" else rng.choice((".", " ")))
    units = UNIT_SPELLINGS[split]
    rows: list[UnitRow] = []
    for r in range(results):
        kind = rng.choice(KINDS)
        rid = f"r{r + 1:02d}"
        magnitude = Decimal(rng.randint(101, 999)) / 100 * Decimal(10) ** rng.randint(-3, 3)
        plain = _printed(magnitude, comma, scientific)
        value = _read(plain)
        value_text = _printed(magnitude, comma, scientific, group)
        basis, note, target_basis = "", "", ""
        if kind == "gas-volume":
            medium = "air"
            compound = rng.choice(catalogue.analytes_for("soil-gas"))
            assert compound.cas is not None  # every compound measured in air has one
            analyte = compound.name if split == "dev" else (compound.abbreviation or compound.name.upper())
            src = rng.choice(("ppbv", "ppmv"))
            unit = rng.choice(GAS_SPELLINGS[split][src])
            dst = "µg/m³"
            celsius = 25
            if rng.random() < 0.3:
                celsius = rng.choice((20, 0))
                note = rng.choice(GAS_CONDITIONS[split]).format(c=celsius, k=Decimal("273.15") + celsius)
            per_volume = 1000 if src == "ppmv" else 1
            truth = value * per_volume * molecular_weight(compound.cas) / molar_volume(celsius)
        elif kind == "leachate":
            medium = "soil"
            analyte = rng.choice(catalogue.analytes_for("groundwater")).name
            basis = rng.choice(LEACHATE_SPELLINGS[split])
            solids = Decimal(rng.randint(550, 960)) / 10
            note = rng.choice(SOLIDS_NOTES[split]).format(s=_printed(solids, comma, False))
            src = rng.choice(("ppm", "ppb", "mg/L", "µg/L"))
            unit = rng.choice(units[f"{src}-water"] if src.startswith("pp") else units[src])
            dst = rng.choice(("µg/L", "mg/L"))
            base = "mg" if src in ("ppm", "mg/L") else "µg"
            truth = value * FACTOR[base] / FACTOR[dst[:2]]
        elif kind == "unit-basis":
            medium = "soil"
            analyte = rng.choice(catalogue.analytes_for("soil")).name
            solids = Decimal(rng.randint(550, 960)) / 10
            if rng.random() < 0.5:
                note = rng.choice(SOLIDS_NOTES[split]).format(s=_printed(solids, comma, False))
            else:
                note = rng.choice(MOISTURE_NOTES[split]).format(m=_printed(100 - solids, comma, False))
            src = rng.choice(("mg/kg", "µg/kg"))
            printed, wanted = rng.choice(("wet", "dry")), rng.choice(("wet", "dry"))
            unit = rng.choice(UNIT_BASIS_SPELLINGS[split][printed]).format(u=rng.choice(units[src]))
            dst = rng.choice(("mg/kg", "µg/kg"))
            target_basis = f"{wanted} weight"
            truth = value * FACTOR[src[:2]] / FACTOR[dst[:2]]
            if printed != wanted:
                truth = truth * 100 / solids if wanted == "dry" else truth * solids / 100
        elif kind in ("species", "species-and-unit"):
            species = rng.choice(sorted(MOLAR))
            element, ion = MOLAR[species]
            form = rng.choice(("element", "ion"))
            spelled = rng.choice(SPECIES_SPELLINGS[split][form]).format(
                e=ELEMENT[species], i=ION[species], name=SPECIES_NAMES[species]
            )
            analyte = SPECIES_NAMES[species]
            basis = spelled
            medium = "water"
            src = "mg/L"
            dst = "mg/L" if kind == "species" else rng.choice(("µg/L", "mg/L"))
            if kind == "species-and-unit" and dst == "mg/L":
                src = "µg/L"
            factor = ion / element if form == "element" else element / ion
            target_basis = f"as {ION[species]}" if form == "element" else f"as {ELEMENT[species]}"
            truth = value * FACTOR[src[:2]] / FACTOR[dst[:2]] * factor
            unit = rng.choice(units[src])
        else:
            medium = "water" if kind in ("mass-volume",) else "soil"
            if kind == "ppm-ppb":
                medium = rng.choice(("water", "soil"))
            analyte = rng.choice(catalogue.analytes_for("groundwater" if medium == "water"
                                                        else "soil")).name  # fmt: skip
            per = "L" if medium == "water" else "kg"
            if kind == "mass-volume":
                src, dst = rng.choice((("µg/L", "mg/L"), ("mg/L", "µg/L"), ("ng/L", "µg/L")))
                unit = rng.choice(units[src])
                truth = value * FACTOR[src[:2]] / FACTOR[dst[:2]]
            elif kind == "mass-mass":
                src, dst = rng.choice((("µg/kg", "mg/kg"), ("mg/kg", "µg/kg")))
                unit = rng.choice(units[src])
                truth = value * FACTOR[src[:2]] / FACTOR[dst[:2]]
            elif kind == "ppm-ppb":
                src = rng.choice(("ppm", "ppb"))
                unit = rng.choice(units[f"{src}-{medium}"])
                base = "mg" if src == "ppm" else "µg"
                dst = rng.choice((f"µg/{per}", f"mg/{per}"))
                truth = value * FACTOR[base] / FACTOR[dst[:2]]
            elif kind == "percent":
                unit = rng.choice(units["%"])
                dst = "mg/kg"
                value = value / 100 if value > 10 else value
                value_text = _printed(value, comma, False)
                value = _read(value_text)
                truth = value * 10000
            elif kind == "unchanged":
                dst = rng.choice((f"µg/{per}", f"mg/{per}"))
                unit = rng.choice(units[dst])
                truth = value
            else:  # the weight basis
                solids = Decimal(rng.randint(550, 960)) / 10
                src = rng.choice(("mg/kg", "µg/kg"))
                dst = src if kind != "wet-to-dry-and-unit" else ("µg/kg" if src == "mg/kg"
                                                                 else "mg/kg")  # fmt: skip
                unit = rng.choice(units[src])
                scale = FACTOR[src[:2]] / FACTOR[dst[:2]]
                if kind == "moisture-to-dry":
                    moisture = 100 - solids
                    note = rng.choice(MOISTURE_NOTES[split]).format(
                        m=_printed(moisture, comma, False)
                    )
                else:
                    note = rng.choice(SOLIDS_NOTES[split]).format(s=_printed(solids, comma, False))
                if kind == "dry-to-wet":
                    basis = rng.choice(BASIS_SPELLINGS[split]["dry"])
                    target_basis = "wet weight"
                    truth = value * scale * solids / 100
                else:
                    basis = rng.choice(BASIS_SPELLINGS[split]["wet"])
                    target_basis = "dry weight"
                    truth = value * scale * 100 / solids
        if rng.random() < QUALIFIED_SHARE:  # a qualifier beside the number, as labs print it
            value_text = rng.choice(QUALIFIED[split]).format(v=value_text)
        rows.append(
            UnitRow(
                id=rid,
                analyte=analyte,
                medium=medium,
                value=value_text,
                unit=unit,
                basis=basis,
                note=note,
                target_unit=dst,
                target_basis=target_basis,
                truth=_six(truth),
                kind=kind,
            )
        )
    return UnitReport(family.name, tuple(rows))
