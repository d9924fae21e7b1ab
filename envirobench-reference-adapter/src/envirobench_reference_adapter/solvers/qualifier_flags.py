"""Reference solver for `qualifier-flags`: each result's flags read with the EPA National
Functional Guidelines (NFG) table and the report's own legend.

1. The legend. A line holds one or more entries, each a flag and its definition. The flag is
   the line's first short token (up to five characters: `J`, `J+`, `H1`, `*`, `**`, `a`), bare,
   bracketed (`(a)`, `[a]`) or after a word such as "Qualifier" or "Footnote", separated from
   the definition by `-`, `–`, `—`, `=`, `:`, `.`, `)` or a space; or, where the line opens with
   its definition, a bracketed short token at the line's end ("Estimated value (J)"). A line
   listing several entries ("U = ...; J = ...") is split where a new `FLAG =` or `FLAG - `
   begins.
2. A definition is read clause by clause for what it says about the result, by the words
   laboratories and validators use (not detected / undetected / ND; estimated / approximate /
   below the reporting limit; biased high / low, recovery above / below its limits, over- /
   under-estimated; found in a blank; above the calibration range / curve / highest standard /
   linear range; diluted; rejected / unusable; tentative / presumptive / TIC / library search;
   a quality-control criterion missed (recovery, RPD, precision, control limits, holding time)
   makes the value an estimate). A definition naming the IDL and CRDL (or any value between a
   detection limit and a quantitation limit) is the CLP "between the limits" estimate, not a
   blank detection. A TIC (or a library-search identification) is tentative and estimated.
3. The report governs: a flag the legend defines means what its definition says. A standard
   flag (U, J, J+, J-, UJ, R, N, NJ, JN, B, E, D) whose definition the solver reads as saying
   nothing keeps its NFG meaning (a reworded "J = the value is approximate" is still J, not a
   flag without meaning); a footnote flag read as saying nothing ("confirmed on a second
   column") means nothing.
4. A result's flags: the laboratory qualifier, flags printed after the number (or after "ND")
   in the result cell, and the validator's qualifier (NFG meanings only: a validator does not
   use the laboratory's legend), split on commas and spaces and then greedily into known flags
   (longest first), so "JB" is J and B and "UJ" stays UJ. A result printed as "ND", "N.D.",
   "BDL", "BRL", "not detected" or "<0.50" is a non-detect.
5. The union of the meanings, with a non-detect over detection and R over everything.

Variants: `v1` (the default; `default` is its alias).

Weaknesses: the definition reader knows words, not sentences: a definition that says what a
flag means in words none of its patterns know reads as nothing (a standard flag then keeps its
NFG meaning, a footnote flag is lost), and a negation it does not expect ("not diluted" is
known, "no dilution was needed" is not) is read as the positive. A legend line whose flag is
neither first nor bracketed at the end is lost; a flag the solver cannot split is ignored.
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


def _any(*patterns: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns))


# The words of a definition, per meaning (matched on the lower-cased clause).
LIMIT = r"(?:reporting|quantitation|quantification|practical quantitation|method reporting) limit|\b(?:rl|mrl|pql|loq|lloq|crql|sql|ql)\b"
DETECTION_LIMIT = r"detection limit|\b(?:mdl|dl|lod|idl|edl)\b"
# The CLP inorganic convention and its kin: a value between a detection limit and a quantitation
# (or contract-required) limit is an estimate, whatever letter prints it.
ANY_LIMIT = rf"{DETECTION_LIMIT}|{LIMIT}|limit"
BETWEEN_LIMITS = _any(
    r"\bcrdl\b|contract[- ]required|\bidl\b|instrument detection limit",
    rf"between\b.{{0,30}}?(?:{ANY_LIMIT}).{{0,40}}?\band\b.{{0,30}}?(?:{ANY_LIMIT})",
    # below one limit and above another, in either order
    rf"(?:below|less than|under|<)\s.{{0,40}}?(?:{ANY_LIMIT}).{{0,40}}?(?:above|greater than|exceed\w*|>|≥)\s.{{0,40}}?(?:{ANY_LIMIT})",
    rf"(?:above|greater than|exceed\w*|>|≥)\s.{{0,40}}?(?:{ANY_LIMIT}).{{0,40}}?(?:below|less than|under|<)\s.{{0,40}}?(?:{ANY_LIMIT})",
)
NONDETECT = _any(
    r"\bnot\s+(?:been\s+|be\s+)?detected|non-?detect|\bundetected|\bnd\b|\bn\.d\.",
    r"\bnot\s+(?:found|present|observed)\b|\babsent\b",
    rf"(?:below|less than|under) (?:the )?(?:method |sample |instrument )?(?:{DETECTION_LIMIT})",
    rf"(?:result|value|concentration)\s*<\s*(?:the )?(?:{DETECTION_LIMIT})",
)
ESTIMATED = _any(
    r"estimat|approximat|imprecise|inexact|semi-?quantitative|\bqualitative\b",
    r"\bmay be (?:inaccurate|imprecise)|uncertain (?:value|quantitation|concentration|result)",
    r"quantitation (?:is )?uncertain|(?:accuracy|precision) (?:is |was )?(?:questionable|uncertain|not met|affected)",
    rf"(?:below|less than|under|<)\s*(?:the )?(?:{LIMIT})|(?:below|less than) (?:the )?lowest (?:\w+ )?(?:standard|calibration)",
)
# A quality-control criterion missed: the NFG qualify the value as an estimate.
QC_MISSED = _any(
    r"(?:outside|exceed\w*|not within|out of|beyond|failed|did not meet|does not meet|not meet)\s+(?:the\s+)?(?:[\w/-]+\s+){0,3}(?:control|acceptance|qc|quality control|method)\s+(?:limits?|criteria|criterion|range|windows?)",
    r"(?:qc|quality control|acceptance) (?:criteria|criterion|limits?) (?:were |was )?(?:not met|exceeded|failed|missed)",
    r"\brecover|\brpd\b|relative percent difference|precision not met|holding time|hold time|past (?:the )?hold",
)
HOLDING_TIME = re.compile(r"holding time|hold time|past (?:the )?hold")
HIGH = _any(
    r"biased?\s+(?:\w+\s+)?(?:high|upward|positive)|(?:high|upward|positive)(?:\s+|-)bias",
    r"over-?estimat|overstat|may be (?:high|elevated|overstated)",
)
LOW = _any(
    r"biased?\s+(?:\w+\s+)?(?:low|downward|negative)|(?:low|downward|negative)(?:\s+|-)bias",
    r"under-?estimat|understat|may be (?:low|understated)",
)
RECOVERY = re.compile(r"recover")
RECOVERY_HIGH = re.compile(r"\b(?:above|exceed\w*|greater than|over|higher than|high)\b")
RECOVERY_LOW = re.compile(r"\b(?:below|less than|under|lower than|low)\b")
BLANK = re.compile(r"\bblanks?\b")
NOT_BLANK = re.compile(r"\bnot (?:detected|found|present) in (?:the |any )?(?:\w+ )?blank")
OVER = r"(?:exceed\w*|above|greater than|over|beyond|outside|higher than)"
RANGE = r"calibrat\w* (?:range|curve|standards?|limit)|(?:quantitation|quantitative|measurement|analytical) range|linear(?: dynamic)? range|working range|dynamic range|highest (?:\w+ )?standard|upper (?:limit of )?quantitation|\buloq\b"
OVER_RANGE = _any(
    rf"{OVER}\b.{{0,40}}?(?:{RANGE})",
    r"over-?range|saturat",
)
DILUTED = re.compile(r"dilut")
NOT_DILUTED = re.compile(r"undiluted|not diluted|without dilution")
REJECTED = _any(
    r"reject|unusable|not usable|should not be used|invalid",
    r"presence or absence (?:of the analyte )?cannot be",
)
TENTATIVE = _any(
    r"tentativ|presumptive|presumed|library search|spectral library|library match|\btics?\b"
)
NOT_CONFIRMED = _any(
    r"\bnot (?:been )?confirmed|unconfirmed|confirmation (?:was |is )?not (?:performed|done|possible)"
)
# A TIC, or an identification by library search, is tentative and its value estimated (the type's
# rule); "presumptive evidence" alone (NFG N) is tentative only.
TIC = _any(
    r"\btics?\b|tentatively identified compound|library search|spectral library|library match"
)


def read_definition(text: str) -> Meanings:
    """Meanings of a legend definition, read clause by clause by the words that carry them."""
    m = Meanings()
    clauses = [c for c in re.split(r"[;.]\s+|\.$|;", text.lower()) if c.strip()]
    for clause in clauses:
        nondetect = bool(NONDETECT.search(clause))
        if not nondetect and BETWEEN_LIMITS.search(clause):
            m.estimated = True  # between two limits: an estimate, nothing else
            continue
        m.nondetect |= nondetect
        # "Not detected above the reporting limit" names the limit; it is no estimate.
        if ESTIMATED.search(clause) and not (
            nondetect and not re.search(r"estimat|approximat", clause)
        ):
            m.estimated = True
        if QC_MISSED.search(clause):
            m.estimated = True
            if HOLDING_TIME.search(clause) and m.bias == "none":
                m.bias = "low"  # a sample analysed late has lost analyte (NFG)
        if RECOVERY.search(clause):
            if RECOVERY_HIGH.search(clause) and not RECOVERY_LOW.search(clause):
                m.bias = "high"
            elif RECOVERY_LOW.search(clause) and not RECOVERY_HIGH.search(clause):
                m.bias = "low"
        if HIGH.search(clause):
            m.estimated, m.bias = True, "high"
        elif LOW.search(clause):
            m.estimated, m.bias = True, "low"
        if BLANK.search(clause) and not NOT_BLANK.search(clause):
            m.blank = True
        if OVER_RANGE.search(clause):
            m.over_range = m.estimated = True
        if DILUTED.search(clause) and not NOT_DILUTED.search(clause):
            m.diluted = True
        if REJECTED.search(clause):
            m.rejected = True
        if TENTATIVE.search(clause) or NOT_CONFIRMED.search(clause):
            m.tentative = True
            if TIC.search(clause):
                m.estimated = True
    return m


# A legend entry: an optional word naming it, the flag (bare or bracketed, up to five characters),
# then a separator; a dash separates only with a space after it, since J- and J+ are flags.
ENTRY = re.compile(
    r"""\s*(?:[•·▪]\s*)?(?:(?:qualifier|flag|footnote|note|code)s?\s*:?\s+)?
        [(\["'“]?(?P<flag>[^\s=:()\[\]"'“”]{1,5})[)\]"'”]?
        (?:\s*[=:]\s*|\s*[-–—]\s+|[.)]\s+|\s+)(?P<definition>\S.*)$""",
    re.I | re.X,
)
# A definition first and its flag bracketed at the end: "Estimated value (J)".
TRAILING = re.compile(r"(?P<definition>.*\S)\s*[(\[](?P<flag>[^\s()\[\]]{1,5})[)\]]\s*\.?\s*$")
# Where a line lists several entries, each begins "FLAG =", "FLAG:" or "FLAG - ".
NEXT_ENTRY = re.compile(r"(?:[;,|]|\s{2,})\s*(?=[^\s=:;,|]{1,4}\s*(?:[=:]|\s[-–—]\s))")


def legend_entries(line: str) -> list[tuple[str, str]]:
    """The (flag, definition) pairs of one legend line."""
    entries = []
    for piece in NEXT_ENTRY.split(line):
        first = piece.strip().split(maxsplit=1)[0] if piece.strip() else ""
        trailing = TRAILING.match(piece)
        if trailing and len(first.strip("([)]")) > 5:
            entries.append((trailing.group("flag"), trailing.group("definition")))
            continue
        match = ENTRY.match(piece)
        if match:
            flag = match.group("flag")
            entries.append((flag.rstrip(".") or flag, match.group("definition")))
    return entries


def read_legend(lines: tuple[str, ...]) -> dict[str, Meanings]:
    """Each flag the legend defines -> its meanings. A standard flag whose definition reads as
    nothing is left out, so its NFG meaning stands (step 3 of the module docstring)."""
    out: dict[str, Meanings] = {}
    for line in lines:
        for flag, definition in legend_entries(line):
            meanings = read_definition(definition)
            if flag in NFG and meanings == Meanings():
                continue
            out[flag] = meanings
    return out


def split_flags(text: str, known: set[str]) -> list[str]:
    """The flags of a qualifier text: separators removed, then greedily into known flags."""
    flags: list[str] = []
    ordered = sorted(known, key=len, reverse=True)
    for chunk in re.split(r"[,\s/;]+", text.strip()):
        rest = chunk
        while rest:
            found = next((k for k in ordered if rest.startswith(k)), None)
            if found is None:
                rest = rest[1:]  # an unknown character: skipped
                continue
            flags.append(found)
            rest = rest[len(found) :]
    return flags


NUMBER = re.compile(r"^\s*<?\s*[0-9][0-9.,]*(?:[eE][+-]?[0-9]+)?")
# A result cell that says "not detected" in words (the flags printed after it still count).
NOT_DETECTED_CELL = re.compile(r"^\s*(?:not detected|n\.d\.|nd|bdl|brl|<\s*\w+)(?![\w.])", re.I)


def meanings_of(row: Any, legend: dict[str, Meanings]) -> dict[str, Any]:
    """The prediction for one result row of the input (the type's record: its id, printed value,
    laboratory and validation qualifiers are read)."""
    table = {**NFG, **legend}
    known = set(table)
    printed = row.printed.strip()
    number = NUMBER.match(printed)
    words = None if number else NOT_DETECTED_CELL.match(printed)
    inline = printed[number.end() :] if number else printed[words.end() :] if words else ""
    nondetect = printed.startswith("<") or words is not None
    flags = split_flags(row.lab_qualifier, known) + split_flags(inline, known)
    read = [table[f] for f in flags]
    # The validator writes the NFG's flags, not the laboratory's legend.
    read += [NFG[f] for f in split_flags(row.validation_qualifier, set(NFG))]
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
