"""Which records are reportable (`reportable`): results voided by the report's prose, rejected
qualifiers, fractions (dissolved, TCLP, SPLP), and the cell helpers the reader shares with it.
"""

from __future__ import annotations

import re
from typing import Any

from ..headers import (
    REANALYSIS,
)
from ..quantities import (
    QUALIFIER_CODES,
)

VOIDING = re.compile(
    r"\bnot\s+valid\b|\binvalid(ated)?\b|\b(must|should)\s+not\s+be\s+used\b|\bunusable\b|\bdo\s+not\s+use\b|"
    r"\bdisregard(ed)?\b|\bnot\s+(be\s+)?reportable\b|\bwithdrawn\b",
    re.I,
)


FRACTION = re.compile(r"\b(dissolved|TCLP|SPLP)\b", re.I)


def fraction_of(text: str) -> str | None:
    """The fraction a title names: dissolved (as a word), TCLP or SPLP (as abbreviations)."""
    match = FRACTION.search(text)
    if match is None:
        return None
    word = match.group(1)
    return word.lower() if word.lower() == "dissolved" else word.upper()


def mentions(sentence: str, name: str) -> bool:
    """Does the sentence name `name` as a whole (not inside a longer ID or name, and a name
    without a fraction not where the sentence names one: "Lead" is not "Lead (TCLP)")?"""
    tail = r"(?![\w-])" if "(" in name else r"(?![\w-])(?!\s*\()"
    return re.search(r"(?<![\w-])" + re.escape(name) + tail, sentence, re.I) is not None


def voided_results(prose: str, records: list[dict[str, Any]]) -> set[int]:
    """Indices of records a sentence of the report declares invalid (it names their sample and
    analyte beside words such as "not valid", "must not be used")."""
    voided: set[int] = set()
    for sentence in re.split(r"(?<=[.;])\s+", prose):
        if not VOIDING.search(sentence):
            continue
        for k, record in enumerate(records):
            if mentions(sentence, record["analyte"]) and mentions(sentence, record["sample_id"]):
                voided.add(k)
    return voided


def ocr_id(sample: str) -> str:
    """A sample ID with the space OCR puts after a lone initial letter taken out (`B 18-6` is
    `B18-6`: IDs do not start with a letter standing alone before a number)."""
    return re.sub(r"^([A-Z]) (?=\d+[-\w])", r"\1", sample)


def rejected(qualifier: str | None) -> bool:
    """A result a validator rejected (R, alone or among other codes) is no result."""
    return qualifier is not None and "R" in re.findall(r"[A-Z]", qualifier)


def reportable(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The reportable results of re-analysed samples, as laboratories report them: a re-analysis
    (RE, RA) replaces the original run's results of the analytes it reports; a dilution (DL)
    gives the result of an analyte whose original result exceeded the calibration range (E) and
    replaces it, its other results being no records; records keep the sample's own ID."""
    runs: dict[tuple[str, str], dict[str, dict[str, Any]]] = {}
    for record in records:
        match = REANALYSIS.match(record["sample_id"])
        run = match.group("run") if match else ""
        base = match.group("base") if match else record["sample_id"]
        runs.setdefault((base, record["analyte"]), {})[run] = record
    kept: list[dict[str, Any]] = []
    for record in records:
        match = REANALYSIS.match(record["sample_id"])
        run = match.group("run") if match else ""
        base = match.group("base") if match else record["sample_id"]
        others = runs[(base, record["analyte"])]
        if run in ("RE", "RA"):
            kept.append({**record, "sample_id": base})
        elif run == "DL":
            original = others.get("")
            if original is not None and "E" in (original["qualifier"] or ""):
                kept.append({**record, "sample_id": base})
        elif (
            "RE" in others
            or "RA" in others
            or "DL" in others
            and "E" in (record["qualifier"] or "")
        ):
            continue
        else:
            kept.append(record)
    return kept


DECIMAL_COMMA = re.compile(r"^[<]?\s*\d+,(\d{1,2}|\d{4,})(\s+[A-Z]{1,3}[+-]?)?$|^[<]?\s*0,\d+")


def cell_roles_taken(roles: list[str | None], index: int) -> set[str]:
    """Roles an earlier column already holds: the first column of a repeated role is read."""
    return {r for r in roles[:index] if r is not None}


def is_code(qualifier: str) -> bool:
    return bool(re.fullmatch(r"([A-Z]{1,3}[+-]?)+", qualifier)) and len(qualifier) <= 4


def qualifier_codes(qualifier: str) -> list[str]:
    return [qualifier] if qualifier in QUALIFIER_CODES else list(qualifier)
