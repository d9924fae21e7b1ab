"""Reference solver for `screening-exceedances`: the report's results read as records and
compared with the rows of the named tables in force on each sample's collection date.

1. Records: every page in order (`pdftext.read_pdf`, OCR for scanned pages) through one
   `results_tables.TableReader`, as the `document-extraction` solver reads a report (reportable
   results only, rejected and voided results dropped).
2. Collection dates: a date (m/d/Y, Y-m-d, d.m.Y, d-Mon-Y, Mon d, Y) on a line that names the
   sample, or within the two lines after one, on a line whose words speak of collecting or
   sampling when there is one; otherwise the date printed most often in the report.
3. Which results are screened: not blanks (a sample ID with "blank", TB, EB, FB, RB, rinsate), not
   leachates (TCLP, SPLP) or percent rows; "dissolved" in the analyte's name makes it the
   dissolved fraction, otherwise total.
4. The table row: the case's named tables, rows of the same CAS number (from the record) or of
   the same name after general synonyms (ethylene/ethene spellings, PCE, TCE, DCE, MTBE, BaP,
   dichloromethane, ethylene dichloride, xylenes), on the same basis (nitrate: as N), in
   force on the date.
5. Units converted (ng, µg, mg per L or kg); nitrate read as NO3 when its name says NO3.
6. A detection above the level exceeds it (factor result ÷ level); a non-detect whose reporting
   limit is above the level cannot be ruled out.

Variants: `v1` (the default; `default` is its alias).

Weaknesses: those of `results_tables`, `pdftext` and `ocr`; an analyte named otherwise than the
table and without its CAS number beside it is not screened; a date in an unlisted format, or
printed far from its sample's name, falls back to the report's commonest date.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .. import pdftext
from ..layout import group_lines
from ..results_tables import TableReader
from ..serves import Jitter, Prediction, Serves, Sources

SERVES = Serves("screening-exceedances")

MONTHS = {m: i + 1 for i, m in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"))}  # fmt: skip
DATE = re.compile(
    r"(?P<mdy>\b(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})\b)"
    r"|(?P<iso>\b(\d{4})-(\d{2})-(\d{2})\b)"
    r"|(?P<dmy>\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b)"
    r"|(?P<dmon>\b(\d{1,2})[- ]([A-Za-z]{3})[a-z]*[- ,]+(\d{4})\b)"
    r"|(?P<mond>\b([A-Za-z]{3})[a-z]*\.? (\d{1,2}),? (\d{4})\b)"
)
UG = {"ng": 1e-3, "ug": 1.0, "mg": 1e3}
SYNONYMS = (
    (r"ethylene dichloride|\b1,2-dca\b", "1,2-dichloroethane"),
    (r"ethylene\b", "ethene"),
    (r"\bperchloroethene\b|\bpce\b", "tetrachloroethene"),
    (r"\btce\b", "trichloroethene"),
    (r"\bdce\b", "dichloroethene"),
    (r"\bmtbe\b|methyl t(?:ert)?-?butyl ether", "methyl tert butyl ether"),
    (r"\bbap\b|benzo\[a\]pyrene", "benzo a pyrene"),
    (r"\bdichloromethane\b", "methylene chloride"),
    (r"\bxylene\b", "xylenes"),
    (r"\bchloroethene\b", "vinyl chloride"),
    (r"\btrichloromethane\b", "chloroform"),
)
BLANK_SAMPLE = re.compile(r"blank|rinsate|\b(?:tb|eb|fb|rb)\b", re.IGNORECASE)


def parse_date(match: re.Match[str]) -> dt.date | None:
    g = match.groups()
    try:
        if match.group("mdy"):
            a, b, y = int(g[1]), int(g[2]), int(g[3])
            y = y + 2000 if y < 100 else y
            month, day = (b, a) if a > 12 else (a, b)
            return dt.date(y, month, day)
        if match.group("iso"):
            return dt.date(int(g[5]), int(g[6]), int(g[7]))
        if match.group("dmy"):
            return dt.date(int(g[11]), int(g[10]), int(g[9]))
        if match.group("dmon"):
            return dt.date(int(g[15]), MONTHS[g[14].lower()], int(g[13]))
        if match.group("mond"):
            return dt.date(int(g[19]), MONTHS[g[17].lower()], int(g[18]))
    except (KeyError, ValueError):
        return None
    return None


def dates_in(text: str) -> list[dt.date]:
    return [d for m in DATE.finditer(text) if (d := parse_date(m)) is not None]


def names_sample(line: str, sample: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(sample)}(?![\w-])", line, re.IGNORECASE) is not None


def collection_dates(lines: list[str], samples: set[str]) -> dict[str, dt.date | None]:
    counts = Counter(
        d for line in lines if not re.search(r"receiv|report|print", line, re.I)
        for d in dates_in(line)
    )  # fmt: skip
    fallback = counts.most_common(1)[0][0] if counts else None
    out: dict[str, dt.date | None] = {}
    for sample in samples:
        found = None
        for i, line in enumerate(lines):
            if not names_sample(line, sample):
                continue
            window = lines[i : i + 3]
            preferred = [w for w in window if re.search(r"collect|sampl", w, re.I)]
            for candidate in preferred + window:
                if re.search(r"receiv|report", candidate, re.I):
                    continue
                dates = dates_in(candidate)
                if dates:
                    found = dates[0]
                    break
            if found:
                break
        out[sample] = found or fallback
    return out


def name_key(name: str) -> frozenset[str]:
    text = name.lower()
    for pattern, replacement in SYNONYMS:
        text = re.sub(pattern, replacement, text)
    words = set(re.findall(r"[a-z]+|\d+", text)) - {"total", "as", "n", "no", "dissolved"}
    return frozenset(words)


def unit_of(unit: str | None) -> tuple[float, str] | None:
    if not unit:
        return None
    u = unit.strip().lower().replace("µ", "u").replace("μ", "u")
    match = re.fullmatch(r"(ng|ug|mg)\s*/\s*(l|kg)", u)
    return (UG[match.group(1)], match.group(2)) if match else None


def in_force(row: Mapping[str, Any], day: dt.date | None) -> bool:
    start, end = row.get("in_force_from"), row.get("in_force_to")
    if day is None:
        return end is None  # no date read: the value in force now
    return (start is None or dt.date.fromisoformat(start) <= day) and (
        end is None or day <= dt.date.fromisoformat(end)
    )


def screen(
    records: list[dict[str, Any]],
    rows: list[Mapping[str, Any]],
    tables: tuple[str, ...],
    dates: Mapping[str, dt.date | None],
) -> list[dict[str, Any]]:
    findings: list[dict[str, Any]] = []
    seen: set[tuple[Any, ...]] = set()
    for record in records:
        sample, analyte = record.get("sample_id") or "", record.get("analyte") or ""
        unit = unit_of(record.get("unit"))
        if not sample or BLANK_SAMPLE.search(sample) or unit is None:
            continue
        if re.search(r"tclp|splp", analyte, re.I):
            continue
        fraction = "dissolved" if re.search(r"dissolved", analyte, re.I) else "total"
        nitrate = re.search(r"nitrate", analyte, re.I) is not None
        key = name_key(re.sub(r"\((dissolved|total)\)", "", analyte, flags=re.I))
        for table in tables:
            candidates = [
                r
                for r in rows
                if r["table"] == table
                and ((record.get("cas") and r.get("cas") == record["cas"])
                     or name_key(r["analyte"]) == key)
                and (r["basis"] == "as N" if nitrate else r["basis"] == fraction)
                and in_force(r, dates.get(sample))
            ]  # fmt: skip
            if not candidates:
                continue
            row = candidates[0]
            level_unit = unit_of(row["unit"])
            if level_unit is None or level_unit[1] != unit[1]:
                continue
            scale = unit[0] / level_unit[0]
            if nitrate and re.search(r"no\s*3", analyte, re.I):
                scale *= 14.007 / (14.007 + 3 * 15.999)
            level = float(row["value"])
            base = {
                "sample": sample,
                "substance": row["analyte"],
                "fraction": fraction,
                "screening_table": table,
            }
            if record.get("nondetect"):
                limit = record.get("reporting_limit")
                if limit is not None and limit * scale > level:
                    finding = {**base, "status": "cannot-be-ruled-out"}
                else:
                    continue
            else:
                result = record.get("result")
                if result is None or result * scale <= level:
                    continue
                finding = {**base, "status": "exceeds", "factor": result * scale / level}
            ident = (sample.lower(), row["analyte"], fraction, table, finding["status"])
            if ident not in seen:
                seen.add(ident)
                findings.append(finding)
    return findings


def solve(case_input: Any, sources: Sources, variant: str, jitter: Jitter = None) -> Prediction:
    catalogue = json.loads(Path(sources[case_input.standards]).read_text(encoding="utf-8"))
    rows = [r for r in catalogue["rows"] if r["table"] in case_input.tables]
    pages = pdftext.read_pdf(sources[case_input.document], jitter=jitter, straighten=True)
    reader = TableReader()
    lines: list[str] = []
    for page in pages:
        reader.read_page(page.words)
        lines += [" ".join(w.text for w in line.words) for line in group_lines(page.words)]
    records = reader.finish()
    dates = collection_dates(lines, {r["sample_id"] for r in records if r.get("sample_id")})
    return {"findings": screen(records, rows, case_input.tables, dates)}
