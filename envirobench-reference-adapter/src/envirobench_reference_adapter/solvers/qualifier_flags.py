"""Reference solver for `qualifier-flags`: each result's flags read with the EPA National
Functional Guidelines (NFG) table and the report's own legend.

1. The legend: each line is a flag (its first token, separators `-`, `=`, `:` removed) and a
   definition. A definition is read for meanings by general domain keywords (not detected,
   estimated, biased high / low, blank, calibration range or standard, dilution, rejected /
   unusable, tentative / presumptive / TIC, holding time, recovery, RPD; a
   definition naming the CRDL or IDL is the CLP "between the detection limits" estimate).
   A flag the legend defines means what its definition says.
2. Flags the legend does not define mean their NFG meaning: U, J, J+, J-, UJ, R, N, NJ, JN, B,
   E, D.
3. A result's flags: the laboratory qualifier, flags printed after the number in the result
   cell, and the validator's qualifier, split on commas and spaces and then greedily into known
   flags (longest first), so "JB" is J and B and "UJ" stays UJ. A result printed as "ND" or
   "<0.50" is a non-detect.
4. The union of the meanings, with a non-detect over detection and R over everything.

Variants: `v1` (the default; `default` is its alias).

Weaknesses: a definition worded without any of the keywords is read as meaning nothing; a
legend line that does not start with its flag is lost; a flag the solver cannot split is
ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..serves import Jitter, Prediction, Serves, Sources

SERVES = Serves("qualifier-flags")


@dataclass
class Meanings:
    nondetect: bool = False
    estimated: bool = False
    bias: str = "none"
    blank: bool = False
    over_range: bool = False
    diluted: bool = False
    rejected: bool = False
    tentative: bool = False


NFG: dict[str, Meanings] = {
    "U": Meanings(nondetect=True),
    "J": Meanings(estimated=True),
    "J+": Meanings(estimated=True, bias="high"),
    "J-": Meanings(estimated=True, bias="low"),
    "UJ": Meanings(nondetect=True, estimated=True),
    "R": Meanings(rejected=True),
    "N": Meanings(tentative=True),
    "NJ": Meanings(tentative=True, estimated=True),
    "JN": Meanings(tentative=True, estimated=True),
    "B": Meanings(blank=True),
    "E": Meanings(over_range=True, estimated=True),
    "D": Meanings(diluted=True),
}

WORD = re.compile(r"[a-z]+")


def read_definition(text: str) -> Meanings:
    """Meanings of a legend definition, by domain keywords."""
    t = text.lower()
    m = Meanings()
    if re.search(r"\bcrdl\b|\bidl\b|contract required", t):
        m.estimated = True  # the CLP inorganic convention: between the detection limits
        return m
    if re.search(r"not detected|non-?detect|was not detected|\bnd\b", t):
        m.nondetect = True
    if re.search(r"estimat", t):
        m.estimated = True
    if re.search(r"\bblank\b", t):
        m.blank = True
    if re.search(r"calibration (range|standard)", t) and re.search(r"exceed|above|greater", t):
        m.over_range = m.estimated = True
    if re.search(r"dilut", t):
        m.diluted = True
    if re.search(r"reject|unusable", t):
        m.rejected = True
    if re.search(r"tentativ|\btics?\b|presumptive", t):
        m.tentative = True
    if re.search(r"holding time", t):
        m.estimated, m.bias = True, "low"
    if re.search(r"recover", t):
        m.estimated = True
        if re.search(r"\bhigh\b|above|exceed", t):
            m.bias = "high"
        elif re.search(r"\blow\b|below", t):
            m.bias = "low"
    if re.search(r"biased? high|high bias", t):
        m.estimated, m.bias = True, "high"
    elif re.search(r"biased? low|low bias", t):
        m.estimated, m.bias = True, "low"
    if re.search(r"\brpd\b", t):
        m.estimated = True
    return m


def read_legend(lines: tuple[str, ...]) -> dict[str, Meanings]:
    out: dict[str, Meanings] = {}
    for line in lines:
        match = re.match(r"\s*(\S+?)\s*(?:[-=:]\s+|\s+)(.+)$", line)
        if match:
            out[match.group(1).strip("-=:")] = read_definition(match.group(2))
    return out


def split_flags(text: str, known: set[str]) -> list[str]:
    """The flags of a qualifier text: separators removed, then greedily into known flags."""
    flags: list[str] = []
    for chunk in re.split(r"[,\s/;]+", text.strip()):
        rest = chunk
        while rest:
            found = next(
                (k for k in sorted(known, key=len, reverse=True) if rest.startswith(k)), None
            )
            if found is None:
                rest = rest[1:]  # an unknown character: skipped
                continue
            flags.append(found)
            rest = rest[len(found) :]
    return flags


NUMBER = re.compile(r"^\s*<?\s*[0-9][0-9.,]*(?:[eE][+-]?[0-9]+)?")


def meanings_of(row: Any, legend: dict[str, Meanings]) -> dict[str, Any]:
    """The prediction for one result row of the input (the type's record: its id, printed value,
    laboratory and validation qualifiers are read)."""
    table = {**NFG, **legend}
    known = set(table)
    printed = row.printed.strip()
    number = NUMBER.match(printed)
    inline = printed[number.end() :] if number else ""
    nondetect = printed.startswith("<") or printed.upper() in ("ND", "NOT DETECTED")
    flags = split_flags(row.lab_qualifier, known) + split_flags(inline, known)
    flags += split_flags(row.validation_qualifier, set(NFG))
    read = [table[f] for f in flags]
    if any(m.rejected for m in read):
        return {
            "result": row.id,
            "detected": None,
            "estimated": False,
            "estimate_bias": "none",
            "blank_contamination": False,
            "over_range": False,
            "diluted": False,
            "rejected": True,
            "tentatively_identified": False,
        }
    biases = [m.bias for m in read if m.bias != "none"]
    return {
        "result": row.id,
        "detected": not (nondetect or any(m.nondetect for m in read)),
        "estimated": any(m.estimated for m in read),
        "estimate_bias": biases[-1] if biases else "none",
        "blank_contamination": any(m.blank for m in read),
        "over_range": any(m.over_range for m in read),
        "diluted": any(m.diluted for m in read),
        "rejected": False,
        "tentatively_identified": any(m.tentative for m in read),
    }


def solve(case_input: Any, sources: Sources, variant: str, jitter: Jitter = None) -> Prediction:
    legend = read_legend(case_input.legend)
    return {"results": [meanings_of(row, legend) for row in case_input.results]}
