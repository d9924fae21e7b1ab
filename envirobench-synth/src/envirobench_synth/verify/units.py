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
)


@dataclass(frozen=True)
class UnitRow:
    id: str
    analyte: str
    medium: str  # "water" or "soil"
    value: str  # as printed
    unit: str  # as printed
    basis: str  # as printed, "" when the report prints none
    note: str  # the sample's percent solids or moisture line, "" when not printed
    target_unit: str  # canonical: µg/L, mg/L, ng/L, µg/kg, mg/kg
    target_basis: str  # "", "dry weight", "wet weight", "as N", "as NO3", ...
    truth: float
    kind: str


@dataclass(frozen=True)
class UnitReport:
    family: str
    rows: tuple[UnitRow, ...]


def _printed(value: Decimal, comma: bool, scientific: bool) -> str:
    if scientific and value >= 1000:
        mantissa = value.scaleb(-(value.adjusted()))
        text = f"{mantissa:.2f}E+{value.adjusted():02d}"
    else:
        text = catalogue.significant(value, 3)
    return text.replace(".", ",") if comma else text


def _read(text: str) -> Decimal:
    return Decimal(text.replace(",", "."))


def _six(value: Decimal) -> float:
    return float(f"{value:.6g}")


def sample_unit_report(rng: random.Random, split: str, index: int, results: int) -> UnitReport:
    """One report's rows to convert, drawn from `rng` in the families of `split`."""
    family = families_of(split)[index % len(families_of(split))]  # type: ignore[arg-type]
    comma = rng.random() < max(family.decimal_comma, 0.15)
    scientific = rng.random() < max(family.scientific, 0.15)
    units = UNIT_SPELLINGS[split]
    rows: list[UnitRow] = []
    for r in range(results):
        kind = rng.choice(KINDS)
        rid = f"r{r + 1:02d}"
        magnitude = Decimal(rng.randint(101, 999)) / 100 * Decimal(10) ** rng.randint(-3, 3)
        value_text = _printed(magnitude, comma, scientific)
        value = (
            _read(value_text) if "E" not in value_text else Decimal(value_text.replace(",", "."))
        )
        basis, note, target_basis = "", "", ""
        if kind in ("species", "species-and-unit"):
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
