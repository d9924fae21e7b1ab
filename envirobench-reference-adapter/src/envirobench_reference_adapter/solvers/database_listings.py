"""Reference solver for `database-listings`: each listing of a database report put on its site.

The report is read line by line (`pdftext`: the text layer, or OCR of a scanned page, levelled).
Running headers (a line on every page) and page numbers are dropped. Each listing is found by
its record number (letters and digits compared; on OCR text one misread character is forgiven)
and its *block* is the visual block that holds it (lines set apart from the others by a gap of
more than GAP line pitches); where one visual block holds several record numbers (a table's
rows), the record's line and the lines down to the next record's.

The client's sites (subject and neighbours) are parsed from the case input: street number (or
range "1200-1250"), directional, street name, suffix (USPS abbreviations and their full words
are one suffix), city, and names (the name, a former name, a d/b/a name; corporate suffixes such
as Inc./Incorporated, Co./Company, Corp., LLC dropped).

A listing is judged as an assessor would:

1. a known street (one of the sites' street names, or its first five letters or more, with an
   equivalent suffix) in the block, with a number or a range of numbers: the site on that
   street whose number (or range) it meets and whose directional does not differ, when the
   block names no other city (a "City, ST" that is not the subject's city); "other" when none;
2. a known street without a number: the site on that street whose name occurs in the block;
   "unmappable" when none;
3. no known street: "other" when the block has another full street address, else "unmappable"
   (a geocoded point or no address).

Variants: `v1` (the default; `default` is its alias) as above; `name-first` puts a listing on
the site whose name it carries before looking at the address (the mistake the traps target).

Weaknesses: OCR of a 150 dpi scan misreads digits of a record number or street number now and
then; a street written with an unknown suffix form, or a number run into its street, is not
read; a block that a layout splits differently (the address above the record number in a report
that prints the number first) is misjudged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import pdftext
from ..layout import group_lines
from ..serves import Jitter, Prediction, Serves, Sources

SERVES = Serves("database-listings", variants=("name-first", "v1"))

# USPS Publication 28 street suffixes (the common ones): every form -> the standard abbreviation.
SUFFIX_FORMS = {
    "ST": ("ST", "STREET", "STR"),
    "AVE": ("AVE", "AVENUE", "AV", "AVN"),
    "RD": ("RD", "ROAD"),
    "DR": ("DR", "DRIVE", "DRV"),
    "BLVD": ("BLVD", "BOULEVARD", "BOUL"),
    "PKWY": ("PKWY", "PARKWAY", "PKY", "PARKWY"),
    "HWY": ("HWY", "HIGHWAY", "HIWAY"),
    "LN": ("LN", "LANE"),
    "CT": ("CT", "COURT"),
    "PL": ("PL", "PLACE"),
    "WAY": ("WAY",),
    "CIR": ("CIR", "CIRCLE"),
}
SUFFIX = {form: standard for standard, forms in SUFFIX_FORMS.items() for form in forms}
DIRECTIONAL = {
    "N": "N",
    "NORTH": "N",
    "S": "S",
    "SOUTH": "S",
    "E": "E",
    "EAST": "E",
    "W": "W",
    "WEST": "W",
}
CORPORATE = {"INC", "INCORPORATED", "CORP", "CORPORATION", "CO", "COMPANY", "LLC", "LC", "LTD", "LIMITED", "LP",
             "LLP", "PLLC", "LIABILITY"}  # fmt: skip
ANY_ADDRESS = re.compile(
    r"\b\d{1,6}\s+(?:[NSEW]\.?\s+|NORTH\s+|SOUTH\s+|EAST\s+|WEST\s+)?[A-Z][A-Z]+\s+(?:"
    + "|".join(sorted(SUFFIX, key=len, reverse=True))
    + r")\b",
    re.I,
)
CITY_AT_END = re.compile(r"\b[A-Za-z][A-Za-z.]+,?\s+([A-Z]{2})(?:\s+\d{5})?\s*$", re.M)
PAGE_NUMBER = re.compile(r"^\s*page \d+ of \d+\s*$", re.I)
GAP = 1.3
PREFIX = 5  # the shortest cut of a long street name still read as that street


@dataclass(frozen=True)
class Site:
    id: str
    low: int | None
    high: int | None
    predir: str
    street: str  # upper case
    suffix: str  # standard abbreviation
    city: str  # upper case
    names: tuple[tuple[str, ...], ...]  # each name as its significant words


def _words(text: str) -> list[str]:
    return re.findall(r"[A-Z0-9]+", text.upper().replace("&", " AND "))


def name_words(name: str) -> tuple[str, ...]:
    """A business name's significant words: upper case, corporate suffixes dropped."""
    return tuple(w for w in _words(name.replace("L.L.C.", "LLC")) if w not in CORPORATE)


def client_names(text: str) -> tuple[tuple[str, ...], ...]:
    """The names a client's line gives: the name, a former name ("formerly ..."), both sides of
    a d/b/a."""
    parts = re.split(r"\(formerly|\bd/?b/?a\b|\bdoing business as\b", text, flags=re.I)
    return tuple(words for part in parts if (words := name_words(part.strip(" ()"))))


def parse_address(text: str) -> tuple[int | None, int | None, str, str, str, str]:
    """(low, high, directional, street, suffix, city) of "1200-1250 N. Main Street, Suite 2,
    Dunmore, PA 18512"."""
    parts = [p.strip() for p in text.split(",")]
    street = parts[0].upper().replace(".", "")
    city = parts[-2].upper() if len(parts) >= 3 else ""
    match = re.match(r"^(\d+)(?:\s*-\s*(\d+))?\s+(.*)$", street)
    low = high = None
    if match:
        low = int(match.group(1))
        high = int(match.group(2)) if match.group(2) else low
        street = match.group(3)
    tokens = street.split()
    predir = ""
    if len(tokens) > 2 and tokens[0] in DIRECTIONAL:
        predir = DIRECTIONAL[tokens.pop(0)]
    suffix = ""
    if len(tokens) > 1 and tokens[-1] in SUFFIX:
        suffix = SUFFIX[tokens.pop()]
    return low, high, predir, " ".join(tokens), suffix, city


def client_sites(case_input: Any) -> tuple[Site, ...]:
    """The client's sites of the case input (the type's record: its subject, then its
    neighbours, each an id, a name and an address), each read into the address parts and names
    a listing is judged by."""
    sites = []
    for site in (case_input.subject, *case_input.neighbours):
        low, high, predir, street, suffix, city = parse_address(site.address)
        sites.append(Site(site.id, low, high, predir, street, suffix, city, client_names(site.name)))
    return tuple(sites)


# -- reading -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TextLine:
    page: int
    top: float
    text: str


def read_lines(path: Path, jitter: Any = None) -> tuple[list[TextLine], bool]:
    """The report's lines without its running header and page numbers, and whether any page
    was read by OCR."""
    lines: list[TextLine] = []
    ocr = False
    for page in pdftext.read_pdf(path, jitter=jitter, straighten=True):
        ocr = ocr or page.source == "ocr"
        lines += [TextLine(page.index, line.top, line.text) for line in group_lines(page.words)]
    # A running header: a line among the first two of at least two pages, the same text each time.
    tops: dict[str, set[int]] = {}
    for page in {line.page for line in lines}:
        for line in [line for line in lines if line.page == page][:2]:
            tops.setdefault(line.text, set()).add(page)
    headers = {text for text, pages in tops.items() if len(pages) >= 2}
    return [
        line for line in lines if line.text not in headers and not PAGE_NUMBER.match(line.text)
    ], ocr


def visual_blocks(lines: list[TextLine]) -> list[int]:
    """The visual block of each line: a new block starts on a new page or after a vertical gap
    wider than GAP times the page's usual line pitch."""
    pitches: dict[int, list[float]] = {}
    for a, b in zip(lines, lines[1:], strict=False):
        if a.page == b.page and b.top > a.top:
            pitches.setdefault(a.page, []).append(b.top - a.top)
    usual = {page: sorted(values)[len(values) // 2] for page, values in pitches.items()}
    block, out = 0, []
    for i, line in enumerate(lines):
        if i and (
            line.page != lines[i - 1].page
            or line.top - lines[i - 1].top > GAP * usual.get(line.page, 1e9)
        ):
            block += 1
        out.append(block)
    return out


def _compact(text: str) -> str:
    return re.sub(r"[^0-9A-Z]", "", text.upper())


def _near(needle: str, hay: str) -> bool:
    """`needle` in `hay` with at most one character substituted (OCR)."""
    n = len(needle)
    for start in range(0, len(hay) - n + 1):
        if sum(a != b for a, b in zip(needle, hay[start : start + n], strict=True)) <= 1:
            return True
    return False


def record_lines(lines: list[TextLine], records: tuple[str, ...], fuzzy: bool) -> dict[str, int]:
    compact = [_compact(line.text) for line in lines]
    where: dict[str, int] = {}
    for record in records:
        key = _compact(record)
        hit = next((i for i, text in enumerate(compact) if key in text), None)
        if hit is None and fuzzy and len(key) >= 6:
            hit = next((i for i, text in enumerate(compact) if _near(key, text)), None)
        if hit is not None:
            where[record] = hit
    return where


def blocks(lines: list[TextLine], where: dict[str, int]) -> dict[str, str]:
    """Each listing's text: the visual block (lines set apart by space) holding its record
    number; where one visual block holds several record numbers (a table), the record's line
    and the lines up to the next record's."""
    visual = visual_blocks(lines)
    members: dict[int, list[int]] = {}
    for i in where.values():
        members.setdefault(visual[i], []).append(i)
    out = {}
    for record, i in where.items():
        block = visual[i]
        if len(members[block]) == 1:
            chosen = [line.text for j, line in enumerate(lines) if visual[j] == block]
        else:
            later = [j for j in members[block] if j > i]
            end = later[0] if later else max(j for j in range(len(lines)) if visual[j] == block) + 1
            chosen = [line.text for line in lines[i:end]]
        out[record] = "\n".join(chosen)
    return out


# -- judging -------------------------------------------------------------------------------------


def _street_pattern(site: Site) -> re.Pattern:
    """A site's street in a listing: an optional number or number range, an optional
    directional, the street name (or a cut of it: its first PREFIX letters or more, as short
    database fields hold long names) and any form of its suffix."""
    forms = SUFFIX_FORMS.get(site.suffix, (site.suffix,))
    words = site.street.split()
    last = words[-1]
    cuts = [last[:n] for n in range(len(last), PREFIX - 1, -1)] if len(last) > PREFIX else [last]
    name = r"\s+".join(
        [*(re.escape(w) for w in words[:-1]), "(?:" + "|".join(map(re.escape, cuts)) + ")"]
    )
    return re.compile(
        r"(?:(?<![#\d])\b(\d{1,6})(?:\s*-\s*(\d{1,6}))?\s+)?(?:\b(N|S|E|W|NORTH|SOUTH|EAST|WEST)\.?\s+)?\b"
        + name
        + r"\s+(?:"
        + "|".join(forms)
        + r")\b\.?",
        re.I,
    )


def _has_name(site: Site, block_words: list[str]) -> bool:
    joined = " " + " ".join(block_words) + " "
    return any(" " + " ".join(words) + " " in joined for words in site.names)


def _other_city(block: str, city: str) -> bool:
    """The block names a city (a "City, ST" at a line's end) and not the subject's."""
    if not city or city in block.upper():
        return False
    # A street's suffix ends a line as a state code would ("MAIN ST"): it is no city.
    return any(m.group(1) not in SUFFIX for m in CITY_AT_END.finditer(block))


def judge(block: str, sites: tuple[Site, ...], variant: str) -> str:
    words = _words(block)
    if variant == "name-first":
        named = [s for s in sites if _has_name(s, words)]
        if named:
            return named[0].id
    subject_city = sites[0].city
    for site in sites:
        for match in _street_pattern(site).finditer(block):
            number = int(match.group(1)) if match.group(1) else None
            last = int(match.group(2)) if match.group(2) else number
            predir = DIRECTIONAL.get((match.group(3) or "").upper(), "")
            on_street = [s for s in sites if (s.street, s.suffix) == (site.street, site.suffix)
                         and not (predir and s.predir and predir != s.predir)]  # fmt: skip
            if number is None:
                named = [s for s in on_street if _has_name(s, words)]
                return named[0].id if named else "unmappable"
            if _other_city(block, subject_city):
                return "other"
            # The site whose number (or range) the listing's number (or range) meets.
            holding = [
                s
                for s in on_street
                if s.low is not None and s.low <= last and number <= (s.high or s.low)
            ]
            return holding[0].id if holding else "other"
    return "other" if ANY_ADDRESS.search(block) else "unmappable"


def solve(case_input: Any, sources: Sources, variant: str, jitter: Jitter = None) -> Prediction:
    lines, ocr = read_lines(sources[case_input.document], jitter)
    where = record_lines(lines, case_input.listings, fuzzy=ocr)
    texts = blocks(lines, where)
    sites = client_sites(case_input)
    return {"sites": {record: judge(text, sites, variant) for record, text in texts.items()}}
