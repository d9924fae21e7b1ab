"""Reference solver for `historical-use`: a property's past uses and their periods.

The sources PDF is read line by line (its text layer, or OCR of a scanned page through
`pdftext`). Each line is dated by the year it starts with, or by the year that heads its block
(a line holding only a year). A line that names a street address (a number, a capitalised street
name and a street suffix) is a directory entry for that address and counts only when the number
is the property's; a line without an address is about the property (a map or photograph
description). A line counts when its words tell a use, by a lexicon of the vocabulary of
directories, fire-insurance map legends and photograph interpretation (USE_WORDS: trades such as
filling station, auto repairing, dry cleaners, machine shop, warehouse, grocer, insurance,
restaurant, parking lot; a resident marked r, h or res; vacant or undeveloped land; cultivated
fields). Lines that say the address is not listed or the use cannot be discerned tell nothing.

Periods: per use, its observation years are split wherever a year in between shows the
property's uses without it; each run is one period from its first to its last year.

Variants: `v1` (the default; `default` is its alias) as above; `one-use` the single most
observed use from the first to the last observed year (a check of what the dates are worth).

The lexicon is the dev split's wordings and general words of the trades; the solver's author
also wrote the generator, so the test split's wordings were known to him and were deliberately
left out (a reader's rules grown from dev alone would not have them).

Weaknesses: trade descriptors and legends in other words (abbreviations, classified headings)
are not read; a business name that names another trade ("Precision Motors" repairing cars) is
read by its descriptor only when the descriptor is known; an address written with a unit or a
range is compared by its first number.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .. import pdftext
from ..layout import group_lines
from ..serves import Jitter, Prediction, Serves, Sources

SERVES = Serves("historical-use", variants=("one-use", "v1"))

YEAR = re.compile(r"^\s*((?:18|19|20)\d\d)\b\s*[-:.]?\s*(.*)$")
ADDRESS = re.compile(
    r"\b(\d{1,5})\s+(?:[NSEW]\.?\s+)?[A-Z][A-Za-z]+(?:\s+[A-Z][A-Za-z]+)?\s+"
    r"(?:Street|St|Avenue|Ave|Road|Rd|Drive|Dr|Boulevard|Blvd|Lane|Ln|Way|Place|Pl|Court|Ct|Parkway|Pkwy|Highway|Hwy)\b\.?"
)
# Lines that tell no use: an address not in that year's directory, a use that cannot be seen, a
# sheet that misses the property, and the headings that name a kind of source.
NOTHING = re.compile(
    r"not listed|no listing|cannot be discerned|not discernible|does not (?:extend|cover)"
    r"|^\s*(?:fire[- ]insurance maps?|city directory|aerial photo)",
    re.I,
)
# Checked in order: the first use whose pattern a line matches is the line's use.
USE_WORDS: tuple[tuple[str, re.Pattern], ...] = tuple(
    (use, re.compile(pattern, re.I))
    for use, pattern in (
        ("residential", r"\bdwelling\b|\bhouse\b|\bresidence\b|\s(?:r|h|res)\s*$"),
        (
            "gasoline-station",
            r"\bgas(?:oline)?\b|filling sta|service sta|\bpump islands?\b|\bcanopy\b",
        ),
        ("dry-cleaner", r"\bclea?n(?:ers|ing|rs)\b|\bdyers?\b|\bdyeing\b|\bpressing\b"),
        ("auto-repair", r"\bauto repa?i?r|\brepairing\b|\bgarage\b|\bauto body\b"),
        ("manufacturing", r"\bmachine (?:shop|works)\b|\bmfrs?\b|\bmfg\b|\bfoundry\b|\bmanufactur"),
        ("warehouse", r"\bwarehouse\b|\bwhse\b|\bstorage\b|\bloading (?:docks?|platform)\b"),
        ("restaurant", r"\brestaurant\b|\blunch room\b|\bcafe\b|\bdiner\b"),
        ("parking", r"\bparking\b"),
        ("office", r"\boffice\b|\binsurance\b|\breal estate\b|\battorneys?\b"),
        ("retail", r"\bgrocer|\bhardware\b|\bvariety store\b|\bstore\b"),
        ("agricultural", r"\bcultivated\b|\bfields?\b|\bfarm"),
        ("vacant", r"\bvacant\b|\bundeveloped\b|\bno structures\b|\bcleared\b"),
    )
)


def read_lines(path: Path, jitter: Any = None) -> list[str]:
    """The PDF's lines, page by page (text layer, or OCR of a scanned page)."""
    lines: list[str] = []
    for page in pdftext.read_pdf(path, jitter=jitter, straighten=True):
        lines += [line.text for line in group_lines(page.words)]
    return lines


def use_of(text: str) -> str | None:
    if NOTHING.search(text):
        return None
    for use, pattern in USE_WORDS:
        if pattern.search(text):
            return use
    return None


def observations(lines: list[str], number: int | None, allowed: set[str]) -> list[tuple[int, str]]:
    """(year, use) of every line that tells a use of the property."""
    found: list[tuple[int, str]] = []
    year: int | None = None
    for line in lines:
        match = YEAR.match(line)
        text = line
        if match:
            year, text = int(match.group(1)), match.group(2)
        if year is None or not text.strip():
            continue
        address = ADDRESS.search(text)
        if address:
            if number is None or int(address.group(1)) != number:
                continue
            text = text[address.end() :]
        use = use_of(text)
        if use in allowed:
            found.append((year, use))
    return found


def periods(found: list[tuple[int, str]]) -> list[dict[str, Any]]:
    by_year: dict[int, set[str]] = {}
    for year, use in found:
        by_year.setdefault(year, set()).add(use)
    years = sorted(by_year)
    out = []
    for use in sorted({u for _, u in found}):
        run: list[int] = []
        for year in years:
            if use in by_year[year]:
                run.append(year)
            elif run:
                out.append({"use": use, "from_year": run[0], "to_year": run[-1]})
                run = []
        if run:
            out.append({"use": use, "from_year": run[0], "to_year": run[-1]})
    return sorted(out, key=lambda p: (p["from_year"], p["use"]))


# case_input: the type's Input record (document, address, uses)
def solve(case_input: Any, sources: Sources, variant: str, jitter: Jitter = None) -> Prediction:
    number_match = re.match(r"\s*(\d+)", case_input.address)
    number = int(number_match.group(1)) if number_match else None
    found = observations(
        read_lines(sources[case_input.document], jitter), number, set(case_input.uses)
    )
    if not found:
        return {"periods": []}
    if variant == "one-use":
        counts: dict[str, int] = {}
        for _, use in found:
            counts[use] = counts.get(use, 0) + 1
        use = max(sorted(counts), key=lambda u: counts[u])
        return {
            "periods": [
                {
                    "use": use,
                    "from_year": min(y for y, _ in found),
                    "to_year": max(y for y, _ in found),
                }
            ]
        }
    return {"periods": periods(found)}
