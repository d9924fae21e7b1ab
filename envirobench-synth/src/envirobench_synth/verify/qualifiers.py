"""Seeded result rows with laboratory and validation qualifiers, and the qualifier legend of
their report: the cases of Verify's `qualifier-flags` type (envirobench_verify.qualifier_flags
holds the truth rules; `meanings_of` here applies them).

A report is drawn in one of the laboratory-report families of its split
(envirobench_synth.labreport.families: its non-detect notation and decimal comma), with analytes,
units and reporting limits from the catalogue. Each row gets a scenario (a plain detection, a
non-detect, J, B, E, D, a tentatively identified compound, a validator's U, UJ, J+, J-, R or NJ,
a footnote-defined laboratory flag) and the report a legend: the wording of each standard flag it
explains and of its own footnote flags, in the split's wordings (the dev and test splits share no
legend wording and no footnote symbol set). Some reports print flags inside the result cell, some
omit standard flags from the legend, and about a third are written to the older CLP inorganic
convention, whose legend redefines three standard letters: "B" a value between the instrument and
the contract detection limits (an estimate, not a blank detection), "E" a value estimated because
of interference (not over the calibration range) and "N" a spiked sample's recovery outside its
control limits (an estimate, not a tentative identification). Flags combine as labs print them:
J with D, D with B, a footnote flag with B, beside a validator's flag.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from decimal import Decimal

from .. import catalogue
from ..labreport.families import families_of

Split = str


@dataclass(frozen=True)
class FlagMeaning:
    """The meanings one flag carries (see envirobench_verify.qualifier_flags)."""

    nondetect: bool = False
    estimated: bool = False
    bias: str = "none"
    blank: bool = False
    over_range: bool = False
    diluted: bool = False
    rejected: bool = False
    tentative: bool = False


# NFG meanings of the standard flags (laboratory and validator).
STANDARD: dict[str, FlagMeaning] = {
    "U": FlagMeaning(nondetect=True),
    "J": FlagMeaning(estimated=True),
    "J+": FlagMeaning(estimated=True, bias="high"),
    "J-": FlagMeaning(estimated=True, bias="low"),
    "UJ": FlagMeaning(nondetect=True, estimated=True),
    "R": FlagMeaning(rejected=True),
    "N": FlagMeaning(tentative=True),
    "NJ": FlagMeaning(tentative=True, estimated=True),
    "JN": FlagMeaning(tentative=True, estimated=True),
    "B": FlagMeaning(blank=True),
    "E": FlagMeaning(over_range=True, estimated=True),
    "D": FlagMeaning(diluted=True),
}

# Legend wordings of the standard laboratory flags, by split.
STANDARD_WORDINGS: dict[str, dict[str, tuple[str, ...]]] = {
    "dev": {
        "U": ("U - Analyte not detected above the reporting limit.",),
        "J": ("J - Estimated value; detected below the reporting limit but above the MDL.",),
        "B": ("B - Analyte detected in the associated method blank.",),
        "E": ("E - Concentration exceeds the calibration range of the instrument.",),
        "D": ("D - Result reported from a dilution.",),
        "N": ("N - Presumptive evidence of a compound.",),
    },
    "test": {
        "U": ("U = The compound was analyzed for, but was not detected at the stated limit.",),
        "J": ("J = Reported concentration is an approximate value.",),
        "B": ("B = Compound was also found in the laboratory blank.",),
        "E": ("E = Amount is above the upper limit of the calibration curve.",),
        "D": ("D = Value taken from a diluted analysis.",),
        "N": ("N = Identification is tentative (spectral library match).",),
    },
}

# Footnote-defined laboratory flags: a meaning and its legend wordings by split.
FOOTNOTES: tuple[tuple[str, FlagMeaning, dict[str, str]], ...] = (
    (
        "holding-time",
        FlagMeaning(estimated=True, bias="low"),
        {
            "dev": "Analyzed after the method holding time expired; result may be biased low.",
            "test": "Holding time exceeded prior to extraction - value is likely low.",
        },
    ),
    (
        "lcs-high",
        FlagMeaning(estimated=True, bias="high"),
        {
            "dev": "LCS recovery above the upper control limit; result may be biased high.",
            "test": "Spike recovery in the control sample was high; reported value may overstate "
            "the concentration.",
        },
    ),
    (
        "blank",
        FlagMeaning(blank=True),
        {
            "dev": "Target analyte found in the method blank above one half the reporting limit.",
            "test": "Analyte present in the preparation blank.",
        },
    ),
    (
        "tic",
        FlagMeaning(tentative=True, estimated=True),
        {
            "dev": "Tentatively identified compound (TIC); concentration is estimated.",
            "test": "Library search compound, identification and amount approximate.",
        },
    ),
    (
        "over-range",
        FlagMeaning(over_range=True, estimated=True),
        {
            "dev": "Result above the highest calibration standard.",
            "test": "Response exceeded the linear range of the detector.",
        },
    ),
    (
        "dilution",
        FlagMeaning(diluted=True),
        {
            "dev": "Sample diluted due to matrix interference; reporting limit raised.",
            "test": "Reported from a secondary dilution owing to high target concentrations.",
        },
    ),
    (
        "informational",
        FlagMeaning(),
        {
            "dev": "Result confirmed by second-column analysis.",
            "test": "Analyte was confirmed on a dissimilar column.",
        },
    ),
    (
        "rpd",
        FlagMeaning(estimated=True),
        {
            "dev": "Duplicate RPD outside control limits; result estimated.",
            "test": "Precision between duplicate analyses exceeded the laboratory limit; value is "
            "approximate.",
        },
    ),
)
# The CLP inorganic convention: the standard letters it redefines, each an estimate and nothing
# else, and the legend wordings by split (a report written to it always prints them).
CLP: dict[str, FlagMeaning] = {
    "B": FlagMeaning(estimated=True),
    "E": FlagMeaning(estimated=True),
    "N": FlagMeaning(estimated=True),
}
CLP_WORDINGS = {
    "dev": {
        "B": "B - Value is less than the contract required detection limit but greater than or "
        "equal to the instrument detection limit.",
        "E": "E - The reported value is estimated because of the presence of interference.",
        "N": "N - Spiked sample recovery not within control limits.",
    },
    "test": {
        "B": "B = Reported value was obtained from a reading that was less than the CRDL but "
        "greater than or equal to the IDL.",
        "E": "E = Reported value is estimated; the serial dilution test showed chemical or "
        "physical interference.",
        "N": "N = Matrix spike recovery fell outside the acceptance window.",
    },
}
CLP_SHARE = 0.35
SYMBOLS = {"dev": ("*", "^", "H", "Q", "X"), "test": ("#", "a", "T", "Z", "L", "@")}
SCENARIOS = (
    "plain",
    "nondetect",
    "J",
    "B",
    "JB",
    "E",
    "D",
    "N",
    "JN",
    "val-U-on-B",
    "val-UJ",
    "val-J+",
    "val-J-",
    "val-R",
    "val-NJ",
    "footnote",
    "footnote+J",
    "nondetect+footnote",
    "JD",
    "DB",
    "footnote+B",
)


@dataclass(frozen=True)
class Row:
    id: str
    sample_id: str
    analyte: str
    unit: str
    printed: str
    lab_qualifier: str
    validation_qualifier: str
    meanings: dict[str, object]
    traps: tuple[str, ...]


@dataclass(frozen=True)
class QualifierReport:
    family: str
    legend: tuple[str, ...]
    rows: tuple[Row, ...]
    traps: tuple[str, ...]


def meanings_of(flags: list[FlagMeaning], nondetect_notation: bool) -> dict[str, object]:
    """The truth rule of envirobench_verify.qualifier_flags: the union of the flags' meanings,
    non-detect wins over detection, R over everything."""
    if any(f.rejected for f in flags):
        return {
            "detected": None,
            "estimated": False,
            "estimate_bias": "none",
            "blank_contamination": False,
            "over_range": False,
            "diluted": False,
            "rejected": True,
            "tentatively_identified": False,
        }
    biases = {f.bias for f in flags} - {"none"}
    if len(biases) > 1:
        raise ValueError("a result cannot be flagged biased both high and low")
    return {
        "detected": not (nondetect_notation or any(f.nondetect for f in flags)),
        "estimated": any(f.estimated for f in flags),
        "estimate_bias": biases.pop() if biases else "none",
        "blank_contamination": any(f.blank for f in flags),
        "over_range": any(f.over_range for f in flags),
        "diluted": any(f.diluted for f in flags),
        "rejected": False,
        "tentatively_identified": any(f.tentative for f in flags),
    }


def _number(value: Decimal, comma: bool) -> str:
    text = catalogue.significant(value, 3 if value >= 1 else 2)
    return text.replace(".", ",") if comma else text


def sample_qualifier_report(
    rng: random.Random, split: Split, index: int, results: int
) -> QualifierReport:
    """One report's legend and `results` rows, drawn from `rng` in the families of `split`."""
    family = families_of(split)[index % len(families_of(split))]  # type: ignore[arg-type]
    matrix = rng.choice(("soil", "groundwater"))
    nondetect = rng.choice(family.nondetect)
    comma = rng.random() < family.decimal_comma
    inline = rng.random() < 0.3  # flags printed in the result cell, no qualifier column
    clp = rng.random() < CLP_SHARE  # the report follows the CLP inorganic convention
    symbols = list(SYMBOLS[split])
    rng.shuffle(symbols)
    footnotes = rng.sample(FOOTNOTES, 3)
    own = {symbols[i]: footnotes[i] for i in range(3)}
    used_standard: set[str] = set()
    report_traps: set[str] = set()
    analytes = catalogue.sample_analytes(rng, matrix, min(results, 14))
    samples = [catalogue.sample_id(rng, matrix) for _ in range(rng.randint(1, 3))]
    rows: list[Row] = []
    for r in range(results):
        analyte = analytes[r % len(analytes)]
        unit = catalogue.MATRICES[matrix].units[analyte.group]
        rl = Decimal(rng.choice(catalogue.MATRICES[matrix].reporting_limits[analyte.group]))
        scenario = rng.choice(SCENARIOS)
        if clp and scenario in ("B", "JB", "DB", "footnote+B") and analyte.group != "metal":
            scenario = "J"  # the CLP "between the limits" B is an inorganic notion
        inorganic = analyte.group in ("metal", "mercury")
        if scenario in ("N", "JN", "val-NJ") and inorganic and not (clp and scenario == "N"):
            scenario = "J"  # tentative identification is a mass-spectral library notion
        lab: list[str] = []
        validator = ""
        flags: list[FlagMeaning] = []
        traps: list[str] = []
        nd = scenario in ("nondetect", "val-UJ", "nondetect+footnote")
        value = rl * Decimal(rng.randint(101, 999)) / 100 * 10 ** rng.choice((0, 0, 1, 2))
        if scenario in ("J", "JB", "JN", "footnote+J", "JD"):
            value = rl * Decimal(rng.randint(25, 95)) / 100
        if scenario == "plain":
            pass
        elif scenario in ("J", "B", "E", "D", "N", "JN"):
            lab.append(scenario)
        elif scenario in ("JB", "JD", "DB"):
            lab += list(scenario)
        elif scenario == "val-U-on-B":
            lab.append("B")
            validator = "U"
            traps.append("validator-flag")
        elif scenario.startswith("val-"):
            validator = scenario[4:]
            traps.append("validator-flag")
            if validator == "R":
                lab.append(rng.choice(("", "J")))
                traps.append("rejected")
        elif scenario.startswith("footnote") or scenario == "nondetect+footnote":
            # A non-detect's footnote is one that can qualify a limit (not over range, not a TIC).
            choices = sorted(
                s for s, (_, m, _) in own.items() if not nd or not (m.over_range or m.tentative)
            )
            symbol = rng.choice(choices or sorted(own))
            lab.append(symbol)
            traps.append("footnote-flag")
            if scenario in ("footnote+J", "footnote+B"):
                lab.append(scenario[-1])
        if scenario in ("N", "JN", "val-NJ") and not clp:
            traps.append("tic")
        lab = [flag for flag in lab if flag]
        # What each printed laboratory flag means in this report.
        for flag in lab:
            if flag in own:
                flags.append(own[flag][1])
            elif flag in CLP and clp:
                flags.append(CLP[flag])
                traps.append(f"redefined-{flag}")
                used_standard.add(flag)
            else:
                flags.append(STANDARD[flag])
                used_standard.add(flag)
        if validator:
            flags.append(STANDARD[validator])
        rl_text = _number(rl, comma)
        if nd:
            if nondetect == "U":
                printed, lab = rl_text, ["U", *lab]
                flags.append(STANDARD["U"])
                used_standard.add("U")
                notation = False
            elif nondetect == "ND":
                printed, notation = "ND", True
            else:
                printed, notation = f"<{rl_text}", True
            if lab and notation:
                traps.append("nondetect-with-flag")
        else:
            printed, notation = _number(value, comma), False
        lab_text = rng.choice(("", ",", " ")).join(lab) if lab else ""
        if inline and lab_text:
            printed, lab_text = f"{printed} {lab_text}", ""
            traps.append("inline-flag")
        if len(lab) + bool(validator) >= 2:
            traps.append("combined-flags")
        rows.append(
            Row(
                id=f"r{r + 1:02d}",
                sample_id=samples[r % len(samples)],
                analyte=analyte.name,
                unit=unit,
                printed=printed,
                lab_qualifier=lab_text,
                validation_qualifier=validator,
                meanings=meanings_of(flags, notation),
                traps=tuple(traps),
            )
        )
        report_traps.update(traps)
    legend: list[str] = []
    wordings = STANDARD_WORDINGS[split]
    for flag in ("U", "J", "B", "E", "D", "N"):
        if flag in CLP and clp and (flag == "B" or flag in used_standard):
            legend.append(CLP_WORDINGS[split][flag])  # a redefinition is always printed
        elif flag in used_standard and rng.random() < 0.7:
            legend.append(rng.choice(wordings[flag]))
    for symbol, (_, _, words) in own.items():
        legend.append(f"{symbol} {words[split]}")
    if clp:
        report_traps.add("clp-legend")
    if inline:
        report_traps.add("inline-flags")
    return QualifierReport(family.name, tuple(legend), tuple(rows), tuple(sorted(report_traps)))
