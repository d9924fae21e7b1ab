"""A domain catalogue for synthetic environmental laboratory reports, and samplers over it.

Analytes carry their CAS Registry Number (None for petroleum fractions, which have none) and a
group that decides the EPA SW-846 method and the units. Laboratories are invented. Samplers take
a `random.Random` (see `rng.make_random`) and return plain values, so the same stream gives the
same report everywhere. Grow the catalogue by appending: samplers pick by position, so inserting
in the middle would change every dataset generated from it.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

Group = Literal["voc", "tph", "metal", "mercury", "pah", "svoc", "pcb"]
MatrixName = Literal["soil", "groundwater", "soil-gas"]
NondetectStyle = Literal["U", "ND", "<RL"]


@dataclass(frozen=True)
class Analyte:
    name: str  # as a report prints it
    cas: str | None  # CAS Registry Number; None for mixtures such as petroleum fractions
    group: Group
    abbreviation: str | None = None  # the short name reports also use (PCE, MTBE, BaP)


ANALYTES: tuple[Analyte, ...] = (
    # Volatile organic compounds (BTEX, oxygenates, chlorinated solvents)
    Analyte("Benzene", "71-43-2", "voc"),
    Analyte("Toluene", "108-88-3", "voc"),
    Analyte("Ethylbenzene", "100-41-4", "voc"),
    Analyte("Xylenes, Total", "1330-20-7", "voc"),
    Analyte("o-Xylene", "95-47-6", "voc"),
    Analyte("Methyl tert-butyl ether", "1634-04-4", "voc", "MTBE"),
    Analyte("1,2,4-Trimethylbenzene", "95-63-6", "voc"),
    Analyte("Tetrachloroethene", "127-18-4", "voc", "PCE"),
    Analyte("Trichloroethene", "79-01-6", "voc", "TCE"),
    Analyte("cis-1,2-Dichloroethene", "156-59-2", "voc", "cis-1,2-DCE"),
    Analyte("trans-1,2-Dichloroethene", "156-60-5", "voc", "trans-1,2-DCE"),
    Analyte("1,1-Dichloroethene", "75-35-4", "voc", "1,1-DCE"),
    Analyte("Vinyl chloride", "75-01-4", "voc", "VC"),
    Analyte("Methylene chloride", "75-09-2", "voc"),
    Analyte("Chloroform", "67-66-3", "voc"),
    Analyte("1,2-Dichloroethane", "107-06-2", "voc", "1,2-DCA"),
    # Total petroleum hydrocarbons: carbon ranges, not compounds, so no CAS number
    Analyte("TPH-Gasoline Range Organics (C6-C10)", None, "tph", "TPH-GRO"),
    Analyte("TPH-Diesel Range Organics (C10-C28)", None, "tph", "TPH-DRO"),
    Analyte("TPH-Oil Range Organics (C28-C40)", None, "tph", "TPH-ORO"),
    # Metals
    Analyte("Arsenic", "7440-38-2", "metal"),
    Analyte("Barium", "7440-39-3", "metal"),
    Analyte("Cadmium", "7440-43-9", "metal"),
    Analyte("Chromium", "7440-47-3", "metal"),
    Analyte("Lead", "7439-92-1", "metal"),
    Analyte("Selenium", "7782-49-2", "metal"),
    Analyte("Silver", "7440-22-4", "metal"),
    Analyte("Mercury", "7439-97-6", "mercury"),
    # Polycyclic aromatic hydrocarbons
    Analyte("Naphthalene", "91-20-3", "pah"),
    Analyte("Acenaphthene", "83-32-9", "pah"),
    Analyte("Phenanthrene", "85-01-8", "pah"),
    Analyte("Anthracene", "120-12-7", "pah"),
    Analyte("Fluoranthene", "206-44-0", "pah"),
    Analyte("Pyrene", "129-00-0", "pah"),
    Analyte("Benzo(a)anthracene", "56-55-3", "pah"),
    Analyte("Chrysene", "218-01-9", "pah"),
    Analyte("Benzo(b)fluoranthene", "205-99-2", "pah"),
    Analyte("Benzo(a)pyrene", "50-32-8", "pah", "BaP"),
    Analyte("Indeno(1,2,3-cd)pyrene", "193-39-5", "pah"),
    Analyte("Dibenz(a,h)anthracene", "53-70-3", "pah"),
    # Other semivolatiles and PCBs
    Analyte("1,4-Dioxane", "123-91-1", "svoc"),
    Analyte("Aroclor 1254", "11097-69-1", "pcb", "PCB-1254"),
    Analyte("Aroclor 1260", "11096-82-5", "pcb", "PCB-1260"),
)


@dataclass(frozen=True)
class Method:
    code: str  # the SW-846 (or TO) method number with its revision letter
    title: str


METHODS: dict[str, Method] = {
    m.code: m
    for m in (
        Method("8260D", "Volatile organic compounds by GC/MS"),
        Method("8015D", "Nonhalogenated organics by GC/FID"),
        Method("6010D", "Metals by ICP-AES"),
        Method("6020B", "Metals by ICP-MS"),
        Method("7471B", "Mercury in solid waste (cold-vapour AA)"),
        Method("7470A", "Mercury in liquid waste (cold-vapour AA)"),
        Method("8270E", "Semivolatile organic compounds by GC/MS"),
        Method("8082A", "Polychlorinated biphenyls by GC"),
        Method("TO-15", "VOCs in air collected in canisters, by GC/MS"),
    )
}


@dataclass(frozen=True)
class Matrix:
    name: MatrixName
    groups: tuple[Group, ...]  # what is analysed in this medium
    units: dict[Group, str]
    methods: dict[Group, tuple[str, ...]]  # a lab uses one of these per group
    reporting_limits: dict[Group, tuple[str, ...]]  # typical undiluted RLs, as printed


MATRICES: dict[str, Matrix] = {
    "soil": Matrix(
        "soil",
        ("voc", "tph", "metal", "mercury", "pah", "pcb"),
        {
            "voc": "mg/kg",
            "tph": "mg/kg",
            "metal": "mg/kg",
            "mercury": "mg/kg",
            "pah": "mg/kg",
            "svoc": "mg/kg",
            "pcb": "mg/kg",
        },
        {
            "voc": ("8260D",),
            "tph": ("8015D",),
            "metal": ("6010D", "6020B"),
            "mercury": ("7471B",),
            "pah": ("8270E",),
            "svoc": ("8270E",),
            "pcb": ("8082A",),
        },
        {
            "voc": ("0.0050", "0.0010", "0.0020"),
            "tph": ("5.0", "10", "25"),
            "metal": ("0.50", "1.0", "2.5"),
            "mercury": ("0.020", "0.033"),
            "pah": ("0.010", "0.0050", "0.033"),
            "svoc": ("0.10",),
            "pcb": ("0.033", "0.050"),
        },
    ),
    "groundwater": Matrix(
        "groundwater",
        ("voc", "tph", "metal", "mercury", "pah", "svoc"),
        {
            "voc": "µg/L",
            "tph": "mg/L",
            "metal": "mg/L",
            "mercury": "mg/L",
            "pah": "µg/L",
            "svoc": "µg/L",
            "pcb": "µg/L",
        },
        {
            "voc": ("8260D",),
            "tph": ("8015D",),
            "metal": ("6010D", "6020B"),
            "mercury": ("7470A",),
            "pah": ("8270E",),
            "svoc": ("8270E", "8260D"),
            "pcb": ("8082A",),
        },
        {
            "voc": ("1.0", "0.50", "2.0"),
            "tph": ("0.050", "0.10", "0.25"),
            "metal": ("0.010", "0.0050", "0.0010"),
            "mercury": ("0.00020",),
            "pah": ("0.10", "0.20", "0.050"),
            "svoc": ("0.20", "1.0"),
            "pcb": ("0.50",),
        },
    ),
    "soil-gas": Matrix(
        "soil-gas",
        ("voc",),
        {"voc": "µg/m³"},
        {"voc": ("TO-15",)},
        {"voc": ("1.0", "2.5", "5.0")},
    ),
}

UNITS: tuple[str, ...] = ("mg/kg", "µg/kg", "µg/L", "mg/L", "µg/m³")

QUALIFIERS: dict[str, str] = {
    "U": "Not detected at or above the reporting limit",
    "J": "Estimated value: detected below the reporting limit",
    "B": "Analyte also found in the associated method blank",
    "ND": "Not detected",
    "<RL": "Less than the reporting limit",
}

LABORATORIES: tuple[str, ...] = (
    "Quillmere Analytical Laboratories",
    "Fenwick Basin Environmental Testing",
    "Tarnhollow Analytical Services",
    "Coldspring Ridge Laboratories",
    "Marrowgate Environmental Labs",
    "Vellacott Analytical, Inc.",
)

# Ways labs print a method code; each report sticks to one.
METHOD_STYLES: tuple[str, ...] = ("{code}", "EPA {code}", "SW{code}", "SW-846 {code}")


def is_valid_cas(cas: str) -> bool:
    """The CAS check-digit rule: the last digit is the sum of the other digits, each times its
    position counted from the right (starting at 1), modulo 10."""
    parts = cas.split("-")
    if len(parts) != 3 or not all(p.isascii() and p.isdigit() for p in parts):
        return False
    first, second, check = parts
    if not (2 <= len(first) <= 7 and len(second) == 2 and len(check) == 1):
        return False
    digits = (first + second)[::-1]
    return sum(i * int(d) for i, d in enumerate(digits, start=1)) % 10 == int(check)


def format_method(code: str, style: str) -> str:
    if code.startswith("TO-"):  # air methods are not SW-846; they are always printed as they are
        return code if style == "{code}" else f"EPA {code}"
    return style.format(code=code)


def significant(value: Decimal, digits: int = 3) -> str:
    """`value` to `digits` significant figures in plain notation (never 1.2E+3)."""
    if value <= 0:
        raise ValueError("laboratory results here are positive")
    exponent = value.adjusted()  # position of the leading digit, exact for Decimals
    rounded = value.quantize(Decimal(1).scaleb(exponent - digits + 1))
    if rounded.adjusted() != exponent:  # 9.995 -> 10.0: one more leading digit
        rounded = rounded.quantize(Decimal(1).scaleb(exponent - digits + 2))
    return format(rounded, "f")


@dataclass(frozen=True)
class ResultRow:
    """One line of a laboratory results table, every field as the report prints it."""

    analyte: str
    cas: str  # "" when the analyte has no CAS number
    result: str
    unit: str
    qualifier: str  # "" when unqualified
    reporting_limit: str
    method: str
    detected: bool


@dataclass(frozen=True)
class ReportStyle:
    """How one laboratory prints its results; one report uses one style throughout."""

    nondetect: NondetectStyle = "U"
    method_style: str = "{code}"
    abbreviate: bool = False  # print PCE rather than Tetrachloroethene where there is a short name


def sample_report_style(rng: random.Random) -> ReportStyle:
    return ReportStyle(
        rng.choice(("U", "ND", "<RL")), rng.choice(METHOD_STYLES), rng.random() < 0.3
    )


def analytes_for(matrix: MatrixName, groups: Sequence[Group] | None = None) -> list[Analyte]:
    """Catalogue analytes measured in `matrix` (optionally only `groups`), in catalogue order."""
    allowed = set(MATRICES[matrix].groups if groups is None else groups) & set(
        MATRICES[matrix].groups
    )
    return [a for a in ANALYTES if a.group in allowed]


def sample_analytes(rng: random.Random, matrix: MatrixName, count: int) -> list[Analyte]:
    """`count` distinct analytes in report order: whole method groups, as a lab reports them."""
    groups = list(MATRICES[matrix].groups)
    rng.shuffle(groups)
    chosen: list[Analyte] = []
    for group in groups:
        members = analytes_for(matrix, [group])
        take = min(len(members), count - len(chosen))
        # Keep catalogue order inside a group: labs list compounds in their method's order.
        picked = sorted(rng.sample(range(len(members)), take))
        chosen += [members[i] for i in picked]
        if len(chosen) == count:
            return chosen
    raise ValueError(
        f"the catalogue has only {len(chosen)} analytes for {matrix}, asked for {count}"
    )


def sample_result_row(
    rng: random.Random, analyte: Analyte, matrix: MatrixName, style: ReportStyle
) -> ResultRow:
    """A realistic result for `analyte`: detected or not, qualified, with its RL and method."""
    m = MATRICES[matrix]
    if analyte.group not in m.groups:
        raise ValueError(f"{analyte.name} is not analysed in {matrix}")
    base_rl = Decimal(rng.choice(m.reporting_limits[analyte.group]))
    dilution = rng.choice((1, 1, 1, 1, 2, 5, 10))
    rl = base_rl * dilution
    rl_text = significant(rl, 2)
    method = format_method(rng.choice(m.methods[analyte.group]), style.method_style)
    name = analyte.abbreviation if style.abbreviate and analyte.abbreviation else analyte.name

    roll = rng.random()
    if roll < 0.45:  # not detected
        detected = False
        if style.nondetect == "U":
            result, qualifier = rl_text, "U"
        elif style.nondetect == "ND":
            result, qualifier = "ND", ""
        else:
            result, qualifier = f"<{rl_text}", ""
    else:
        detected = True
        if roll < 0.6:  # between the detection limit and the RL: an estimate
            value = rl * Decimal(rng.randint(25, 95)) / 100
            qualifier = "J"
        else:
            # Detections spread over orders of magnitude: log-uniform-ish via a power of ten.
            value = (
                rl
                * Decimal(rng.randint(101, 999))
                / 100
                * Decimal(10) ** rng.choice((0, 0, 0, 1, 1, 2))
            )
            qualifier = "B" if rng.random() < 0.08 else ""
        result = significant(value, 3 if value >= 1 else 2)
    return ResultRow(
        name,
        analyte.cas or "",
        result,
        m.units[analyte.group],
        qualifier,
        rl_text,
        method,
        detected,
    )


def sample_results(
    rng: random.Random, matrix: MatrixName, count: int, style: ReportStyle
) -> list[ResultRow]:
    return [
        sample_result_row(rng, analyte, matrix, style)
        for analyte in sample_analytes(rng, matrix, count)
    ]


def sample_id(rng: random.Random, matrix: MatrixName) -> str:
    """A field sample ID as consultants write them: MW-07, SB-3 (4-6'), SS-12, SG-2."""
    number = rng.randint(1, 24)
    if matrix == "groundwater":
        return f"MW-{number:02d}"
    if matrix == "soil-gas":
        return f"SG-{number}"
    if rng.random() < 0.5:
        return f"SS-{number}"
    top = rng.choice((0, 2, 4, 6, 8, 10, 15))
    return f"SB-{number} ({top}-{top + rng.choice((1, 2))}')"


def sample_date(
    rng: random.Random, start: dt.date = dt.date(2018, 1, 1), end: dt.date = dt.date(2024, 12, 31)
) -> dt.date:
    """A sampling date, uniformly between `start` and `end` inclusive."""
    return dt.date.fromordinal(rng.randint(start.toordinal(), end.toordinal()))


def sample_laboratory(rng: random.Random) -> str:
    return rng.choice(LABORATORIES)
