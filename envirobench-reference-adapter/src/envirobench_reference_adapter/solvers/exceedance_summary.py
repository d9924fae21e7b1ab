"""Reference solver for `exceedance-summary`: every governing result above the governing
screening level in force on its sampling date.

1. The site's results are read and reconciled as the `site-results` solver does
   (`site_record`): only governing values, never a superseded, draft or rejected one.
2. The governing table of each medium is read from the record: sentences that speak of comparing
   or screening results (compare, screen, cleanup, standard, level, criteria) and name a medium
   (groundwater, soil, vapor, air) are matched to the tables of the standards asset by their
   words: each table's ID, program, jurisdiction, medium and exposure, weighted by how rare a
   word is among the tables (so `industrial`, `tapwater` or `1.0` decide), with acronyms of the
   sentence's word runs added (`Regional Screening Levels` also reads as `rsl`). Only tables of a
   fitting medium compete (groundwater: groundwater, tap or drinking water; soil: soil). The last
   such statement in the record governs (a later letter may change the table).
3. For each governing detection, the table's row of its analyte (CAS number, else name; the
   total basis) in force on the sampling date; an exceedance when the value, converted to the
   standard's unit, is strictly above it.

Variants: `v1` (default) as above; `any-table` screens every result against the lowest value
any fitting table gives (a reader who skips the agency's letters).

Weaknesses: those of `site_record`; a table named only by a citation number (40 CFR 141) and
no words shared with the asset's descriptions is not found; a statement that limits a table to a
period (from a date on) is taken as governing throughout.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from pathlib import Path
from typing import Any

from .. import site_record
from ..serves import Jitter, Prediction, Serves, Sources

SERVES = Serves("exceedance-summary", variants=("any-table", "v1"))

COMPARE = re.compile(
    r"\bcompar\w*|\bscreen\w*|\bcleanup\b|\bclean-up\b|\bstandards?\b|\bcriteri\w*|\blevels?\b|"
    r"\bevaluated\s+against\b|\bapplicable\b|\bgovern\w*|\bgoals?\b",
    re.I,
)
MEDIA_OF = {
    "groundwater": ("groundwater", "tap water", "drinking water"),
    "surface-water": ("groundwater", "tap water", "drinking water", "surface water"),
    "soil": ("soil",),
    "sediment": ("soil", "sediment"),
    "soil-vapor": ("soil gas", "soil vapor", "air"),
    "sub-slab-vapor": ("soil gas", "sub-slab", "air"),
    "indoor-air": ("indoor air", "air"),
}
MEDIUM_WORDS = (
    ("groundwater", re.compile(r"\bground[\s-]?water\b", re.I)),
    ("soil", re.compile(r"\bsoils?\b(?![\s-]+(gas|vapou?r))", re.I)),
    ("indoor-air", re.compile(r"\bindoor\s+air\b", re.I)),
    ("sub-slab-vapor", re.compile(r"\bsub[\s-]?slab\b", re.I)),
    ("soil-vapor", re.compile(r"\bsoil[\s-]+(gas|vapou?r)\b", re.I)),
)
UNIT_FACTORS = {"g/l": 1e6, "mg/l": 1e3, "ug/l": 1.0, "ng/l": 1e-3, "g/kg": 1e6, "mg/kg": 1e3,
                "ug/kg": 1.0, "ng/kg": 1e-3, "mg/m3": 1e3, "ug/m3": 1.0, "ng/m3": 1e-3}  # fmt: skip


def tokens(text: str) -> list[str]:
    return re.findall(r"[a-z]+|\d+(?:\.\d+)?", text.lower().replace("-", " "))


def with_acronyms(text: str) -> set[str]:
    """The words of `text` and the initials of its runs of two to four words."""
    words = re.findall(r"[A-Za-z]+", text)
    out = set(tokens(text))
    for size in (2, 3, 4):
        for k in range(len(words) - size + 1):
            out.add("".join(w[0] for w in words[k : k + size]).lower())
    return out


def load_standards(path: Path) -> list[dict[str, Any]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    rows = data.get("rows") if isinstance(data, dict) else data
    if not isinstance(rows, list):
        raise ValueError(f"{path.name}: no rows of screening levels")
    return [r for r in rows if isinstance(r, dict) and "table" in r and "value" in r]


def describe(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    tables: dict[str, dict[str, Any]] = {}
    for row in rows:
        entry = tables.setdefault(
            row["table"], {"words": set(), "medium": str(row.get("medium") or "")}
        )
        for part in (
            row["table"],
            row.get("program"),
            row.get("jurisdiction"),
            row.get("medium"),
            row.get("exposure"),
        ):
            if part:
                entry["words"] |= set(tokens(str(part)))
    return tables


def governing_tables(
    pages: list[site_record.SitePage], tables: dict[str, dict[str, Any]]
) -> dict[str, str]:
    """Medium -> the table the record's last comparison statement names for it."""
    weight = Counter(w for t in tables.values() for w in t["words"])
    chosen: dict[str, str] = {}
    for page in pages:
        text = " ".join(page.lines)
        for sentence in re.split(r"(?<=[.!?])\s+", text):
            if not COMPARE.search(sentence):
                continue
            spans = sorted(
                (m.start(), medium)
                for medium, pattern in MEDIUM_WORDS
                for m in pattern.finditer(sentence)
            )
            for k, (start, medium) in enumerate(spans):
                end = spans[k + 1][0] if k + 1 < len(spans) else len(sentence)
                clause = sentence[start:end]
                words = with_acronyms(clause)
                fitting = [
                    t
                    for t, info in tables.items()
                    if any(m in info["medium"] for m in MEDIA_OF.get(medium, ()))
                ]
                scored = sorted(
                    (
                        (sum(1.0 / weight[w] for w in info_words if w in words), t)
                        for t in fitting
                        for info_words in [tables[t]["words"] - set(tokens(tables[t]["medium"]))]
                    ),
                    reverse=True,
                )
                if (
                    scored
                    and scored[0][0] >= 1.0
                    and (len(scored) == 1 or scored[0][0] > scored[1][0])
                ):
                    chosen[medium] = scored[0][1]
    return chosen


def in_force(row: dict[str, Any], day: str) -> bool:
    start, end = row.get("in_force_from"), row.get("in_force_to")
    return (start is None or start <= day) and (end is None or day <= end)


def to_unit(value: float, unit: str, target: str) -> float | None:
    source, goal = site_record.unit_key(unit), site_record.unit_key(target)
    if source == goal:
        return value
    if source in UNIT_FACTORS and goal in UNIT_FACTORS and source[-2:] == goal[-2:]:
        return value * UNIT_FACTORS[source] / UNIT_FACTORS[goal]
    return None


def standard_for(
    rows: list[dict[str, Any]], table: str, result: site_record.SiteResult
) -> dict[str, Any] | None:
    analyte, day = result.key[3], result.key[2]
    for row in rows:
        if row["table"] != table or not in_force(row, day) or row.get("basis", "total") != "total":
            continue
        if (result.cas and row.get("cas") == result.cas) or str(
            row.get("analyte", "")
        ).lower() == analyte.lower():
            return row
    return None


def solve(
    case_input: site_record.SiteCase, sources: Sources, variant: str, jitter: Jitter = None
) -> Prediction:
    results, reading = site_record.site_results(case_input, sources, jitter)
    rows = load_standards(sources[case_input.standards])
    tables = describe(rows)
    chosen = governing_tables(reading.pages, tables)
    out = []
    for result in results:
        if result.value is None or not result.unit:
            continue
        matrix = result.key[4]
        if variant == "v1":
            medium = (
                matrix
                if matrix in chosen
                else (
                    "groundwater"
                    if matrix == "surface-water"
                    else "soil"
                    if matrix == "sediment"
                    else matrix
                )
            )
            candidates = [chosen[medium]] if medium in chosen else []
        else:
            candidates = [
                t
                for t, info in tables.items()
                if any(m in info["medium"] for m in MEDIA_OF.get(matrix, ()))
            ]
        best = None
        for table in candidates:
            row = standard_for(rows, table, result)
            if row is None:
                continue
            level = float(row["value"])
            value = to_unit(result.value, result.unit, str(row["unit"]))
            if value is None or not math.isfinite(level) or level <= 0:
                continue
            if value > level and (best is None or level < best[1]):
                best = (table, level, str(row["unit"]))
        if best is None:
            continue
        point, depth, day, analyte, _ = result.key
        out.append({
            "location": point, "depth": depth or None, "sample_date": day,
            "analyte": result.cas or analyte, "matrix": matrix,
            "standard": {"table": best[0], "value": best[1], "unit": best[2]},
            "value": result.value, "unit": result.unit,
            "source": {"file": result.source.file, "page": result.source.page},
        })  # fmt: skip
    return {"exceedances": out}
