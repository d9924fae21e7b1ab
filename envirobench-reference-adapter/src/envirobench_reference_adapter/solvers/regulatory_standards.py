"""Reference solver for `regulatory-standards`: the standard in force for a result.

The case's tables file holds the screening policy (for each jurisdiction, medium and land use,
the tables to consult in order) and every table's rows (analyte, CAS number, basis, level, dates
in force). The solver reads the look-up's free-text fields into the policy's terms by their
structure and the meaning of their words, then applies the file's own rule. Developed on the dev
split only (its wordings and the general rules below; no list of the generator's wordings).

Structure, every field (`parts`): footnote marks are dropped (superscripts, * † ‡ §, a trailing
one-character "(a)", "[2]" or " b"), text is folded (NFKC, case, µ as u), a unit is read out of
the text ("(µg/L)", "[mg/kg]", "in ppb") and dropped; what stands before the first qualifier
(a parenthesis or bracket, " - ", ": ", " / ") is the *head*, the rest qualifies it. The head
is read first and the whole text only when the head says nothing, so "drinking water
(groundwater source)" is drinking water and "well water (monitoring)" groundwater. Words are
those of letters and digits; a hyphenated word counts as its parts and joined ("Ground-water":
ground, water, groundwater), a word longer than three letters also without a final s.

1. *Jurisdiction*: the policy jurisdiction whose distinctive word (a state's name) the text uses,
   or a state agency's acronym made of the state's initial and a common agency abbreviation
   (DEQ, DEP, DEC, DNR, ...: "FDEQ"); failing that, the federal one.
2. *Medium* by meaning words, each a phrase with its joined form and its initials as general
   variants ("ground water", "groundwater", "GW"; "public water supply", "PWS"): tap; drinking,
   potable, public water supply; groundwater, aquifer, monitoring well; soil. Nothing read: soil
   when the result is per kilogram, else none.
3. *Land use* (soil): the stem resid-, "res" or unrestricted is residential unless negated (non-,
   not); industrial, "ind", commercial, worker, restricted or a negated residential word is
   industrial; otherwise residential.
4. *Basis*: a word beginning diss-, or a filtered word not negated (un-, "no"), is dissolved;
   total, tot-, unfiltered, "t": total; nothing: total.
5. *Analyte*: a CAS number anywhere in the text (dashed, or its digits alone); else the name,
   with a CAS index-style inversion turned back ("Dichloroethene, 1,1-" is "1,1-Dichloroethene",
   "Ethene, trichloro-" "trichloroethene"), compared by its words in any order or by its letters
   run together, the -ylene names of chlorinated ethenes as -ene, "tertiary" as "tert", and two
   common names (chloroethene for vinyl chloride, methyl chloroform for 1,1,1-trichloroethane);
   then without a trailing parenthesis, then with the same words once qualifier words (total,
   compounds, and, inorganic) and plural s are dropped from both; then as an abbreviation
   (`acronyms`): the initials of the name's parts (di-, tri-, tetra-, chloro-, ethene, methyl,
   butyl, ether, ...; tetrachloro as perchloro, "P"; ethane as "A", the chemists' TCA against
   TCE) after its locants ("cis-1,2-DCE", "PCE", "BaP"), checked on dev's "Name (ABBR)" wordings.
6. The first table of the policy entry with a row for the analyte whose basis fits (a total
   row fits any result, a dissolved row only a dissolved result) in force on the sampling date;
   its level and the table's unit. No row anywhere: null (no standard applies).

Variants: `v1` (the default; `default` is its alias) as above; `latest` ignores the dates in
force and takes each table's latest row (the mistake of reading today's table for an old
sample).

Weaknesses: a word whose meaning the dev split never showed is not read (a medium called
"finished water" gets no standard; a common name outside the two above, "vinylidene chloride",
is not found); the common names are looked up before the -ylene rule, so "Chloroethylene" is
not read as chloroethene (found on test, left as it was); a qualifier that contradicts its head
is ignored; an abbreviation is read by its
initials only, so one that is not (a trade name) is not found.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..serves import Jitter, Prediction, Serves, Sources

SERVES = Serves("regulatory-standards", variants=("latest", "v1"))

CAS = re.compile(r"(?<!\d)(\d{2,7})-(\d{2})-(\d)(?!\d)")
CAS_DIGITS = re.compile(r"^(?:cas\s*(?:no\.?|rn|number|#)?\s*)?(\d{5,10})(?:\s*\(cas\))?$")
FEDERAL_WORDS = {"federal", "epa", "us", "usepa", "united", "national"}
JURISDICTION_STOP = {
    "state",
    "of",
    "the",
    "fictitious",
    "states",
    "united",
    "federal",
    "commonwealth",
}
# Common abbreviations of state environmental agencies (the state's initial comes first: FDEQ).
AGENCY_ACRONYMS = {"deq", "dep", "dec", "dnr", "dem", "des", "deh", "doh", "epd", "dtsc", "ecy"}
# Footnote marks: superscript letters and digits (Unicode 'Lm' modifiers and the superscripts
# block), the printer's marks, a trailing one-character note in brackets or after a space.
_MARK_CHARS = re.compile(r"[*†‡§¶#\u00b9\u00b2\u00b3\u2070-\u209f\u1d2c-\u1dbf]+")
_TRAILING_NOTE = re.compile(
    r"(?:\s*[(\[]\s*[a-z0-9]\s*[)\]]|\s+[a-z]|\s*\^\s*[a-z0-9])\s*$", re.IGNORECASE
)
_UNIT = re.compile(
    r"[\s,]*(?:in\s+)?[(\[]?\s*(?:[mun]g|ug|µg)\s*/\s*(?:l|kg|dl)\s*[)\]]?|[\s,]*[(\[]?\s*\bpp[mbt]\b\s*[)\]]?",
    re.IGNORECASE,
)
_QUALIFIER = re.compile(r"\s[(\[]|\s[-–—]\s|:\s|\s/\s|;\s")

# Meaning phrases (the dev split's words and their general variants: the joined phrase and its initials).
MEDIUM_PHRASES = {
    "tap water": ("tap", "tap water"),
    "drinking water": ("drinking water", "drinking", "potable", "public water supply", "dw"),
    "groundwater": ("ground water", "aquifer", "monitoring well"),
    "soil": ("soil", "so", "surface soil"),
}
NEGATIONS = {"non", "not", "no", "un"}


def fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold().replace("µ", "u").replace("μ", "u")


def strip_marks(text: str) -> str:
    """The text without its footnote marks (read before folding: NFKC turns ᵃ into a)."""
    text = _MARK_CHARS.sub("", text).strip()
    while True:
        shorter = _TRAILING_NOTE.sub("", text).strip()
        if shorter == text or not shorter:
            return text
        text = shorter


def parts(text: str) -> tuple[str, str, str | None]:
    """(head, whole, unit dimension 'l' or 'kg' or None): the folded text without marks and unit."""
    text = fold(strip_marks(text))
    dimension = None
    unit = _UNIT.search(text)
    if unit:
        dimension = "kg" if "kg" in unit.group(0) else "l"
        text = (text[: unit.start()] + text[unit.end() :]).strip()
    head = _QUALIFIER.split(" " + text, maxsplit=1)[0].strip()
    return head, text, dimension


def words(text: str) -> set[str]:
    """Letters-and-digits words; a hyphenated word also joined; a word over three letters also
    without its final s."""
    out: set[str] = set()
    for chunk in re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)*", fold(text)):
        pieces = chunk.split("-")
        out.update(pieces)
        if len(pieces) > 1:
            out.add("".join(pieces))
    out.update(w[:-1] for w in list(out) if len(w) > 3 and w.endswith("s"))
    return out


def phrase_forms(phrase: str) -> list[set[str]]:
    """A meaning phrase as word sets: its words, its words joined, its initials."""
    split = phrase.split()
    forms = [set(split)]
    if len(split) > 1:
        forms += [{"".join(split)}, {"".join(w[0] for w in split)}]
    return forms


def _medium_in(text: str) -> str | None:
    said = words(text)
    for medium, phrases in MEDIUM_PHRASES.items():
        if any(form <= said for phrase in phrases for form in phrase_forms(phrase)):
            return medium
    return None


def pick_medium(text: str, result_unit: str = "") -> str | None:
    head, whole, dimension = parts(text)
    medium = _medium_in(head) or _medium_in(whole)
    if medium is None and "kg" in (dimension or result_unit.lower()):
        return "soil"
    return medium


def pick_jurisdiction(text: str, jurisdictions: list[str]) -> str | None:
    said = words(parts(text)[1])
    for candidate in jurisdictions:
        distinctive = words(candidate) - JURISDICTION_STOP
        if distinctive & said:
            return candidate
        initials = {w[0] for w in distinctive if w.isalpha()}
        if any(w[0] in initials and w[1:] in AGENCY_ACRONYMS for w in said if len(w) > 2):
            return candidate
    federal = [j for j in jurisdictions if words(j) & FEDERAL_WORDS]
    return federal[0] if federal else None


def _negated(tokens: list[str], i: int) -> bool:
    return i > 0 and tokens[i - 1] in NEGATIONS


def _land_use_in(text: str) -> str | None:
    tokens = re.findall(r"[a-z]+", text)
    for i, token in enumerate(tokens):
        if token.startswith("nonresid") or (token.startswith("resid") and _negated(tokens, i)):
            return "industrial"
        if token.startswith("resid") or token in ("res", "unrestricted"):
            return "residential"
        if token in ("industrial", "ind", "commercial", "worker", "restricted"):
            return "industrial"
    return None


def pick_land_use(text: str | None) -> str | None:
    if text is None:
        return None
    head, whole, _ = parts(text)
    return _land_use_in(head) or _land_use_in(whole) or "residential"


def _basis_in(text: str) -> str | None:
    tokens = re.findall(r"[a-z]+", text)
    for i, token in enumerate(tokens):
        if token.startswith("diss") or token == "d":
            return "dissolved"
        if token.startswith("unfilt") or (("filt" in token) and _negated(tokens, i)):
            return "total"
        if "filt" in token:
            return "dissolved"
        if token.startswith("tot") or token == "t":
            return "total"
    return None


def pick_basis(text: str | None) -> str:
    if text is None:
        return "total"
    head, whole, _ = parts(text)
    return _basis_in(head) or _basis_in(whole) or "total"


# -- analytes --------------------------------------------------------------------------------------

# Two common names a dev wording uses for a name in the tables (other synonyms are read as words).
COMMON_NAMES = {"chloroethene": "vinyl chloride", "methylchloroform": "1,1,1-trichloroethane"}
QUALIFIER_WORDS = {"total", "and", "compounds", "inorganic"}
# Parts of systematic names, for initials (longest first when a word is cut into parts).
NAME_PARTS = (
    "tetra", "penta", "hexa", "tri", "di", "mono", "chloro", "bromo", "fluoro", "iodo", "methyl",
    "ethyl", "propyl", "butyl", "tert", "ether", "ethene", "ethane", "ethylene", "methane", "vinyl",
    "chloride", "benzo", "benzene", "pyrene", "dioxane", "phenol", "toluene", "xylene",
)  # fmt: skip
_LOCANTS = re.compile(r"^((?:(?:cis|trans|[0-9](?:,[0-9])*)-)*)(.*)$")


def _ylene(token: str) -> str:
    if token.endswith("ethylene"):
        token = token[: -len("ethylene")] + "ethene"
    return {"tertiary": "tert"}.get(token, token)


def uninvert(text: str) -> str:
    """A CAS index-style name turned back: 'Dichloroethene, 1,1-' -> '1,1-Dichloroethene'."""
    head, sep, tail = text.rpartition(", ")
    if sep and tail.endswith("-") and head:
        return tail + head
    return text


def name_keys(text: str) -> set[tuple[str, ...]]:
    """The keys a name is compared by: its words in any order, and its letters and digits run
    together (the -ylene ending of chlorinated ethenes as -ene, "tertiary" as "tert")."""
    text = fold(text)
    compact = re.sub(r"[^a-z0-9]", "", text)
    text = COMMON_NAMES.get(compact, text)
    tokens = [_ylene(t) for t in re.findall(r"[a-z]+|[0-9]+", text)]
    return {tuple(sorted(tokens)), ("".join(_ylene(t) for t in re.findall(r"[a-z0-9]+", text)),)}


def loose_words(text: str) -> frozenset[str]:
    """A name's words without qualifier words and final s: for the containment match."""
    out = set()
    for token in re.findall(r"[a-z]+|[0-9]+", fold(text)):
        token = _ylene(token)
        if token in QUALIFIER_WORDS:
            continue
        out.add(token[:-1] if len(token) > 3 and token.endswith("s") else token)
    return frozenset(out)


def _initials(word: str) -> list[str]:
    """The initials of a word cut into NAME_PARTS ('tetrachloroethene' -> ['p', 'c', 'e']: tetra
    before a halogen is per-); [] when the word is not made of them."""
    out, rest = [], word
    while rest:
        part = next(
            (p for p in sorted(NAME_PARTS, key=len, reverse=True) if rest.startswith(p)), None
        )
        if part is None:
            return []
        out.append(part)
        rest = rest[len(part) :]
    letters = []
    for i, part in enumerate(out):
        halo = i + 1 < len(out) and out[i + 1] in ("chloro", "bromo", "fluoro")
        letters.append("p" if part == "tetra" and halo else "a" if part == "ethane" else part[0])
    return letters


def acronyms(name: str) -> set[tuple[str, str]]:
    """(locants, initials) a name is abbreviated by: '1,1-Dichloroethene' -> ('1,1-', 'dce');
    'Benzo(a)pyrene' -> ('', 'bap')."""
    locants, rest = _LOCANTS.match(fold(name)).groups()
    letters = []
    for piece in re.findall(r"\([a-z]\)|[a-z]+", rest):
        if piece.startswith("("):
            letters.append(piece[1])
            continue
        initials = _initials(piece)
        if not initials:
            return set()
        letters += initials
    return {(locants, "".join(letters))} if len(letters) > 1 else set()


def abbreviation_of(text: str) -> tuple[str, str] | None:
    """A wording read as an abbreviation: ('cis-1,2-', 'dce') for 'cis-1,2-DCE'; None for a word."""
    locants, rest = _LOCANTS.match(fold(text).strip()).groups()
    letters = re.sub(r"[()\[\]]", "", rest)
    if 2 <= len(letters) <= 6 and letters.isalpha() and not any(_initials(letters)):
        return locants, letters
    return None


_CACHE: dict[tuple[str, int, int], dict] = {}


def load_tables(path: Path) -> dict:
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    if key not in _CACHE:
        _CACHE.clear()
        _CACHE[key] = json.loads(path.read_text(encoding="utf-8"))
    return _CACHE[key]


def analyte_matcher(analyte: str, names: list[str]):
    """A test of a row (its name and CAS number) for the look-up's analyte: the first way of
    reading (CAS; the name; the name without a trailing parenthesis; its words contained; an
    abbreviation) that matches a name of the tables."""
    text = strip_marks(analyte)
    cas = CAS.search(text)
    if cas:
        number = f"{cas.group(1)}-{cas.group(2)}-{cas.group(3)}"
        return lambda name, row_cas: row_cas == number
    digits = CAS_DIGITS.match(fold(text).strip())
    if digits:
        number = digits.group(1)
        return lambda name, row_cas: (row_cas or "").replace("-", "") == number
    name = uninvert(text)
    plain = re.sub(r"\s+[(\[][^()\[\]]*[)\]]\s*$", "", name)
    for candidate in dict.fromkeys((name, plain)):
        keys = name_keys(uninvert(candidate))
        if any(name_keys(n) & keys for n in names):
            return lambda row_name, row_cas, keys=keys: bool(name_keys(row_name) & keys)
    said = loose_words(plain)
    chosen = {n for n in names if said and loose_words(n) == said}
    if chosen:
        return lambda row_name, row_cas: row_name in chosen
    abbreviation = abbreviation_of(text)
    if abbreviation:
        return lambda row_name, row_cas: abbreviation in acronyms(row_name)
    return lambda row_name, row_cas: False


def find_row(
    table: Mapping[str, Any], matches, basis: str, day: dt.date, latest: bool
) -> Mapping[str, Any] | None:
    found = []
    for row in table.get("rows", []):
        if not matches(str(row.get("analyte", "")), row.get("cas")):
            continue
        if row.get("basis") not in (basis, "total"):
            continue
        start = row.get("in_force_from")
        end = row.get("in_force_to")
        if not latest:
            if start and day < dt.date.fromisoformat(start):
                continue
            if end and day > dt.date.fromisoformat(end):
                continue
        found.append(row)
    if not found:
        return None
    return max(found, key=lambda r: r.get("in_force_from") or "") if latest else found[0]


def solve(case_input: Any, sources: Sources, variant: str, jitter: Jitter = None) -> Prediction:
    document = load_tables(sources[case_input.tables])
    policies = document.get("policy", [])
    jurisdiction = pick_jurisdiction(
        case_input.jurisdiction, list(dict.fromkeys(p["jurisdiction"] for p in policies))
    )
    medium = pick_medium(case_input.medium, case_input.result_unit)
    land_use = pick_land_use(case_input.land_use) if medium == "soil" else None
    entry = next(
        (
            p
            for p in policies
            if (p["jurisdiction"], p["medium"], p.get("land_use"))
            == (jurisdiction, medium, land_use)
        ),
        None,
    )
    none = {"table": None, "value": None, "unit": None}
    if entry is None:
        return none
    tables = {t["id"]: t for t in document.get("tables", [])}
    names = sorted({str(r.get("analyte", "")) for t in tables.values() for r in t.get("rows", [])})
    matches = analyte_matcher(case_input.analyte, names)
    day = dt.date.fromisoformat(case_input.sampled)
    basis = pick_basis(case_input.basis)
    for table_id in entry["tables"]:
        table = tables.get(table_id)
        if table is None:
            continue
        row = find_row(table, matches, basis, day, latest=variant == "latest")
        if row is not None:
            return {"table": table_id, "value": float(row["level"]), "unit": table["level_unit"]}
    return none
