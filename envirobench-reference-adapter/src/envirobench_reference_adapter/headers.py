"""Header understanding for results tables: which role a column plays, from its title and cells.

Laboratories title the same column many ways and no list of titles is ever complete, so a
column's role is scored rather than looked up:

- `title_scores(title)`: the title's words, each a piece of general domain knowledge with a
  weight (a result is a *result*, *concentration*, *amount*, *value* ...; a limit is *reporting*,
  *quantitation* or *detection*; a date is *analyzed*, *prepared*, *date* ...). Laboratory
  abbreviations are read by how they are built, not by name: an upper-case abbreviation ending
  in L (Limit or Level) or holding a Q (Quantitation) is a reporting limit when its letters say
  Reporting, Practical or Quantitation (R, P, Q), the method's lower limit when they say
  Detection (D) and not Reporting, a screening value when they say Screening or Contaminant (S, C).
- `content_scores(cells)`: what the column's body cells hold: numbers and non-detects, units,
  CAS numbers, qualifier codes, dates, method codes, names.
- `assign_roles(titles, cells)`: both combined, one role per column (a role goes to the
  best-scoring column; a title decides over cells except where the cells are unmistakable:
  units, CAS numbers, dates). Numeric columns left without a role are sample columns when there
  is no result column and their titles look like sample IDs (samples as columns), else the
  first of them is the result.

Weaknesses: a title none of whose words is known, over cells like another role's (a column of
limits titled with an unknown word reads as the result when no result column is found); a
screening-level column with an unknown title reads as a sample column or is ignored.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .quantities import find_cas, find_unit, is_qualifier_text, normalize_unit, parse_result

# Roles a column can play. Those after "value roles" carry nothing a record keeps, but knowing
# them keeps their cells from being read as results.
VALUE_ROLES = ("analyte", "cas", "result", "rl", "mdl", "unit", "qual")
OTHER_ROLES = (
    "sample",
    "lab_id",
    "df",
    "method",
    "date",
    "batch",
    "screening",
    "recovery",
    "control",
    "basis",
    "matrix",
)
QC_ROLES = ("recovery", "control")  # a table with such a column reports quality control

# Words of column titles, with the role each points to and how strongly. General knowledge of
# laboratory tables, written for this reader (not taken from any generator).
TITLE_WORDS: dict[str, tuple[tuple[str, float], ...]] = {
    "analyte": (("analyte", 3),),
    "analytes": (("analyte", 3),),
    "parameter": (("analyte", 3),),
    "parameters": (("analyte", 3),),
    "compound": (("analyte", 3),),
    "compounds": (("analyte", 3),),
    "chemical": (("analyte", 3),),
    "component": (("analyte", 3),),
    "substance": (("analyte", 3),),
    "contaminant": (("analyte", 2),),
    "element": (("analyte", 2),),
    "test": (("analyte", 1),),
    "name": (("analyte", 1), ("sample", 0.5)),
    "target": (("analyte", 1),),
    "cas": (("cas", 4),),
    "casrn": (("cas", 4),),
    "registry": (("cas", 3),),
    "result": (("result", 3),),
    "results": (("result", 3),),
    "conc": (("result", 3),),
    "concentration": (("result", 3),),
    "amount": (("result", 2),),
    "measured": (("result", 2),),
    "detected": (("result", 2),),
    "found": (("result", 2),),
    "value": (("result", 2),),
    "reading": (("result", 2),),
    "final": (("result", 1),),
    "reported": (("result", 1),),
    "level": (("result", 1),),
    "sample": (("sample", 2), ("result", 0.5)),
    "reporting": (("rl", 3),),
    "quantitation": (("rl", 3),),
    "quantification": (("rl", 3),),
    "practical": (("rl", 2),),
    "limit": (("rl", 2),),
    "report": (("rl", 1),),
    "detection": (("mdl", 4),),
    "detect": (("mdl", 4),),
    "unit": (("unit", 4),),
    "units": (("unit", 4),),
    "measure": (("unit", 2),),
    "q": (("qual", 4),),
    "qual": (("qual", 4),),
    "qualifier": (("qual", 4),),
    "qualifiers": (("qual", 4),),
    "code": (("qual", 2),),
    "codes": (("qual", 2),),
    "validation": (("qual", 2),),
    "dilution": (("df", 4),),
    "df": (("df", 4),),
    "factor": (("df", 2),),
    "method": (("method", 2),),
    "methods": (("method", 2),),
    "technique": (("method", 2),),
    "date": (("date", 3),),
    "analyzed": (("date", 3),),
    "analysed": (("date", 3),),
    "prepared": (("date", 3),),
    "extracted": (("date", 3),),
    "digested": (("date", 3),),
    "time": (("date", 2),),
    "collected": (("date", 3),),
    "received": (("date", 3),),
    "run": (("date", 1),),
    "batch": (("batch", 4),),
    "sequence": (("batch", 3),),
    "lot": (("batch", 2),),
    "screening": (("screening", 5),),
    "criteria": (("screening", 5),),
    "criterion": (("screening", 5),),
    "standard": (("screening", 4),),
    "standards": (("screening", 4),),
    "guideline": (("screening", 5),),
    "action": (("screening", 5),),
    "cleanup": (("screening", 5),),
    "regulatory": (("screening", 5),),
    "objective": (("screening", 4),),
    "background": (("screening", 4),),
    "threshold": (("screening", 4),),
    "exceedance": (("screening", 4),),
    "maximum": (("screening", 2),),
    "rec": (("recovery", 5),),
    "recovery": (("recovery", 5),),
    "spike": (("recovery", 4),),
    "spiked": (("recovery", 4),),
    "added": (("recovery", 2),),
    "rpd": (("recovery", 5),),
    "control": (("control", 4),),
    "acceptance": (("control", 4),),
    "limits": (("control", 2), ("rl", 1)),
    "basis": (("basis", 4),),
    "dry": (("basis", 2),),
    "wet": (("basis", 2),),
    "matrix": (("matrix", 4),),
    "location": (("sample", 3),),
    "station": (("sample", 3),),
    "well": (("sample", 2),),
    "field": (("sample", 2),),
    "client": (("sample", 2),),
    "boring": (("sample", 2),),
}
# Words that make a title name the laboratory's own ID, not a result or a sample.
LAB_WORDS = frozenset({"lab", "laboratory"})
ID_WORDS = frozenset({"id", "no", "number", "num", "#", "name", "code"})
PERCENT = "%"


def title_words(title: str) -> list[str]:
    """A title's words, lower case; a percent sign is a word of its own; a unit is no word."""
    unit = find_unit(title)
    text = title
    if unit is not None:
        text = re.sub(r"[(\[]?\s*" + re.escape(unit) + r"\s*[)\]]?", " ", text, flags=re.I)
    return re.findall(r"%|#|[a-z0-9]+", text.lower())


def abbreviation_role(token: str) -> str | None:
    """An upper-case laboratory abbreviation read by its letters (see the module docstring)."""
    if not re.fullmatch(r"[A-Z]{2,5}", token) or not ("L" in token or "Q" in token):
        return None
    letters = set(token)
    if "Q" in letters:
        return "rl"
    if "D" in letters:
        return "rl" if "R" in letters else "mdl"
    if letters & {"S", "C"}:
        return "screening"
    if letters & {"R", "P"}:
        return "rl"
    return None


def title_scores(title: str) -> dict[str, float]:
    """Role -> score of a column title (empty when nothing in it is known)."""
    scores: dict[str, float] = {}
    words = title_words(title)
    if not words:
        return scores
    for word in words:
        for role, weight in TITLE_WORDS.get(word, ()):
            scores[role] = scores.get(role, 0.0) + weight
    for token in re.findall(r"[A-Za-z]+", title):
        role = abbreviation_role(token)
        if role is not None:
            scores[role] = scores.get(role, 0.0) + 4
    has_id = bool(ID_WORDS & set(words))
    if LAB_WORDS & set(words):
        if has_id or "sample" in words:
            scores["lab_id"] = scores.get("lab_id", 0.0) + 6
        elif "qual" in scores or "qualifier" in words or "qualifiers" in words:
            scores["qual"] = scores.get("qual", 0.0) + 1
    if has_id and "sample" in scores and "lab_id" not in scores:
        scores["sample"] += 2
    if PERCENT in words:
        if len(words) == 1 or "rec" in words or "recovery" in words:
            scores["recovery"] = scores.get("recovery", 0.0) + 4
        elif "solids" in words or "moisture" in words:
            scores["basis"] = scores.get("basis", 0.0) + 4
    if "detection" in words or "detect" in words:
        scores.pop("rl", None)
        scores.pop("result", None)
    if "limit" in words and ("control" in scores or "screening" in scores):
        scores.pop("rl", None)
    return scores


DATE = re.compile(
    r"^(\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}-\d{2}-\d{2}|\d{1,2}-[A-Za-z]{3}-\d{2,4}|"
    r"[A-Za-z]{3,9}\.?\s+\d{1,2},?\s+\d{4}|\d{1,2}\s+[A-Za-z]{3,9}\.?\s+\d{4})(\s+\d{1,2}:\d{2}(:\d{2})?)?$"
)
TIME = re.compile(r"^\d{1,2}:\d{2}(:\d{2})?$")
METHOD = re.compile(r"^([A-Z]{1,4}[-\s]?)*\d{3,4}(\.\d)?[A-Z]?(\s*[/-]\s*\d{3,4}[A-Z]?)*$")
RANGE = re.compile(r"^\d+(\.\d+)?\s*[-\u2013]\s*\d+(\.\d+)?$")


def content_scores(cells: Sequence[str]) -> dict[str, float]:
    """Role -> share of the column's non-empty body cells that look like that role's."""
    filled = [c for c in cells if c.strip()]
    if not filled:
        return {"qual": 0.5}  # an empty column: most often a qualifier column with nothing to say
    counts: dict[str, float] = {}

    def add(role: str) -> None:
        counts[role] = counts.get(role, 0.0) + 1

    for cell in filled:
        text = cell.strip()
        if find_cas(text) and len(text) <= 14:
            add("cas")
        elif DATE.match(text) or TIME.match(text):
            add("date")
        elif RANGE.match(text):
            add("control")
        elif normalize_unit(text) is not None or (
            find_unit(text) is not None and len(text) <= 12 and not re.search(r"[A-Za-z]{5,}", text)
        ):
            add("unit")
        elif METHOD.match(text) and parse_result(text) is None:
            add("method")
        elif parse_result(text) is not None:
            add("number")
        elif is_qualifier_text(text):
            add("qual")
        elif re.search(r"[A-Za-z]{3}", text):
            add("text")
    return {role: count / len(filled) for role, count in counts.items()}


# Field quality-control samples (client samples, unlike the laboratory's blanks).
FIELD_BLANK = re.compile(
    r"\b(trip|field|equipment|rinsate|rinse|ambient|source|filter|decon)\s+blanks?\b", re.I
)
# A laboratory re-analysis of a sample: its ID with a suffix (MW-03 DL, MW-03RE, DUP-1-DL2).
REANALYSIS = re.compile(
    r"^(?P<base>.*?[A-Za-z0-9)'])(?:\s*[-_ ]\s*|(?<=\d))(?P<run>DL|RE|RA)(?P<n>\d?)$"
)


def looks_like_sample_id(title: str, *, strict: bool = True) -> bool:
    """Could a column title be a sample ID (MW-01, SB-3 (2-4 ft), DUP-1, TB 0412, MW-03 DL)?
    Sample IDs nearly always hold a digit; without `strict`, a short upper-case code will do too."""
    text = title.strip()
    rerun = REANALYSIS.match(text)
    if rerun:
        text = rerun.group("base")
    if not text or len(text) > 30 or DATE.match(text) or find_unit(text) is not None:
        return False
    if FIELD_BLANK.search(text):
        return True  # field QC samples are samples, often named without a number
    if any(role not in ("sample", "result") for role in title_scores(text)):
        return False
    return bool(re.search(r"\d", text)) or (
        not strict and bool(re.fullmatch(r"[A-Z][A-Z0-9\-_ ]{1,15}", text))
    )


def sample_title(title: str) -> str:
    """The line of a (multi-line) column title that names the sample: not a date, not a unit."""
    for line in title.split("\n"):
        text = line.strip()
        if text and not DATE.match(text) and find_unit(text) is None:
            return text
    return title.split("\n")[0].strip()


def assign_roles(
    titles: Sequence[str], columns: Sequence[Sequence[str]]
) -> tuple[list[str | None], list[int]]:
    """One role per column (None: unknown), and the sample columns of a samples-as-columns table.

    `titles[i]` is column i's header text (its lines joined by newlines), `columns[i]` its body
    cells."""
    n = len(titles)
    # A re-analysed sample's ID (MW-03 DL) is a sample's title, whatever its suffix's letters say.
    by_title = [
        {}
        if REANALYSIS.match(sample_title(t)) and looks_like_sample_id(sample_title(t))
        else title_scores(t.replace("\n", " "))
        for t in titles
    ]
    by_cells = [content_scores(c) for c in columns]
    candidates: list[tuple[float, int, str]] = []
    for i in range(n):
        t, c = by_title[i], by_cells[i]
        numeric = c.get("number", 0.0)
        for role, score in t.items():
            fit = 1.0
            if (
                role in ("result", "rl", "mdl", "df", "recovery", "screening")
                and numeric + c.get("qual", 0) < 0.3
            ):
                fit = 0.3  # a numeric role over cells that are no numbers: doubtful
            if role == "analyte" and c.get("text", 0.0) < 0.3:
                fit = 0.3
            if role == "unit" and c.get("unit", 0.0) < 0.3 and c:
                fit = 0.5
            candidates.append((score * fit, i, role))
        # Unmistakable cells decide whatever the title says.
        for role in ("cas", "unit", "date"):
            if c.get(role, 0.0) >= 0.6:
                candidates.append((10.0 + c[role], i, role))
        if c.get("control", 0.0) >= 0.6:
            candidates.append((8.0, i, "control"))
        if not t and c.get("method", 0.0) >= 0.6:
            candidates.append((3.0, i, "method"))
        if not t and c.get("qual", 0.0) >= 0.6 and numeric < 0.2:
            candidates.append((2.0 + c["qual"], i, "qual"))
    roles: list[str | None] = [None] * n
    taken: set[str] = set()
    for score, i, role in sorted(candidates, key=lambda x: (-x[0], x[1])):
        if score <= 0 or roles[i] is not None:
            continue
        # These roles may repeat (two date columns, a method and a prep method); the others not.
        if role in taken and role not in (
            "date",
            "method",
            "batch",
            "lab_id",
            "screening",
            "basis",
            "matrix",
        ):
            continue
        roles[i] = role
        taken.add(role)
    # The analyte column by its cells when no title names it: the first column of names.
    if "analyte" not in taken:
        for i in range(n):
            if roles[i] in (None, "sample") and by_cells[i].get("text", 0.0) >= 0.5:
                roles[i] = "analyte"
                taken.add("analyte")
                break
    samples: list[int] = []
    if "result" not in taken and "analyte" in taken:
        after = roles.index("analyte")
        numeric = [
            i
            for i in range(after + 1, n)
            if roles[i] is None
            and by_cells[i].get("number", 0.0) + by_cells[i].get("qual", 0.0) >= 0.5
        ]
        ids = [
            i
            for i in numeric
            if looks_like_sample_id(sample_title(titles[i]), strict=len(numeric) < 2)
        ]
        if len(ids) >= 2 or (ids and ids == numeric):
            samples = ids
        elif numeric:
            roles[numeric[0]] = "result"
    return roles, samples
