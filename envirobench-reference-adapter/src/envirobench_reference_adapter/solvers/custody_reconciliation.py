"""Reference solver for `custody-reconciliation`: a chain-of-custody form checked against its
laboratory report.

The form (a page image) is read with OCR (`ocr.recognize`), the report with its text layer
(`pdftext.read_pdf`); both are cut into lines and cells (`layout.group_lines`,
`split_phrases`). From the form: each sample row (a line holding a date and a time: the ID is
the text before the date, the analyses the comma-separated items after the container count) and
the receipt temperature (the last number on the line that names a temperature). From the
report: the sample summary rows (ID, laboratory ID, matrix, date and time collected), the
analysis rows (ID, analysis, method, date and time analysed) and the temperature.

Analyses are named by general laboratory vocabulary: method numbers (8260 VOCs, 8270 with "PAH"
in the name PAHs else SVOCs, 8015 TPH, 6010/6020 metals, dissolved/TCLP/SPLP by their words,
7470/7471 mercury, 8082 PCBs, 2540/D2216 solids, 300.0/4500-NO3 nitrate) and their common names.
Dates: month first unless the document writes one with a first part above 12 or with points
(then day first); two-digit years are 20xx; times as 14:30 or 1430. Holding times (collection to
analysis, hours): organics 14 days, metals 180 days, mercury 28 days, PCBs 1 year, solids 7 days,
nitrate 48 hours (40 CFR 136.3 Table II; SW-846 Chapter 4).

The checks then follow the task's rules: IDs folded (upper case, no spaces); an unmatched pair of
IDs equal without hyphens and leading zeros is one sample spelled two ways; temperature
acceptable above 0 and at most 6 °C.

Variants: `v1` (default). Weaknesses: an OCR misreading of a hand-filled ID or date makes a false
mismatch (and a missing plus an extra sample); a row the OCR splits over two lines is lost.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from .. import layout, ocr
from ..pdftext import read_pdf
from ..serves import Jitter, Prediction, Serves, Sources

SERVES = Serves("custody-reconciliation")

HOLDING_HOURS = {
    "voc": 14 * 24, "svoc": 14 * 24, "pah": 14 * 24, "tph": 14 * 24, "metals": 180 * 24,
    "metals-dissolved": 180 * 24, "tclp-metals": 180 * 24, "splp-metals": 180 * 24, "mercury": 28 * 24,
    "pcb": 365 * 24, "solids": 7 * 24, "nitrate": 48,
}  # fmt: skip
MONTHS = {
    m: i + 1
    for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
    )
}
# A date is a word of its own: "B16-0-031819" is a sample ID, not 16 January.
DATE = re.compile(
    r"(?<![\w\-/.])(?:(?P<a>\d{1,4})(?P<sep>[/.\-])(?P<b>\d{1,2}|[A-Za-z]{3,9})(?P=sep)(?P<c>\d{2,4})"
    r"|(?P<month>[A-Za-z]{3,9})\.? (?P<day>\d{1,2}), (?P<year>\d{4}))(?![\w\-/])"
)
TIME = re.compile(r"^(\d{1,2}):?(\d{2})$")
TEMPERATURE_WORDS = ("temp",)
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


# -- vocabulary ----------------------------------------------------------------------------------


def analysis_of(text: str) -> str | None:
    """The analysis a form item or report row names, None if unknown. Names first, then method
    numbers: a laboratory may run SVOCs by 8260 (volatile-range semivolatiles)."""
    t = text.lower()
    by_name = (
        (r"tclp", "tclp-metals"),
        (r"splp", "splp-metals"),
        (r"diss.*metal|metal.*diss", "metals-dissolved"),
        (r"mercury|\bhg\b", "mercury"),
        (r"pah|polynuclear|polycyclic", "pah"),
        (r"svoc|semi-?vol", "svoc"),
        (r"voc|volatile", "voc"),
        (r"tph|petroleum|\bgro\b|\bdro\b", "tph"),
        (r"pcb", "pcb"),
        (r"solid|moisture", "solids"),
        (r"nitrate|no3", "nitrate"),
        (r"metal", "metals"),
    )
    by_number = (
        (r"1311", "tclp-metals"),
        (r"1312", "splp-metals"),
        (r"747[01]", "mercury"),
        (r"60[12]0", "metals"),
        (r"8260", "voc"),
        (r"8270", "svoc"),
        (r"8015", "tph"),
        (r"8082", "pcb"),
        (r"2540|d2216", "solids"),
        (r"300\.0|4500", "nitrate"),
    )
    for patterns in (by_name, by_number):
        for pattern, analysis in patterns:
            if re.search(pattern, t):
                return analysis
    return None


# Items of a requested-analyses cell: split at commas and semicolons, and at a point that ends an
# item before the next method number ("6010D Metals. 8260D VOCs"), not inside "Diss. Metals".
ITEM_BREAK = re.compile(r"[,;]|\.\s+(?=\S*\d)")


def analyses_in(text: str) -> dict[str, None]:
    return {a: None for a in (analysis_of(item) for item in ITEM_BREAK.split(text)) if a}


def fold_id(sample_id: str) -> str:
    return "".join(unicodedata.normalize("NFKC", sample_id).upper().split())


def loose_id(sample_id: str) -> str:
    return re.sub(r"0+(?=\d)", "", fold_id(sample_id).replace("-", "").replace("_", ""))


# -- dates ---------------------------------------------------------------------------------------


def _year(text: str) -> int:
    value = int(text)
    return value + 2000 if value < 100 else value


def _month(text: str) -> int | None:
    return MONTHS.get(text[:3].lower()) if text.isalpha() else int(text)


def day_first_document(texts: list[str]) -> bool:
    """Does the document write dates day first? Votes of its numeric dates: a first part above
    12 says day first, a second part above 12 month first; without either, points as separators
    (03.04.2021) say day first."""
    day = month = points = slashes = 0
    for text in texts:
        for m in DATE.finditer(text):
            if not (m.group("a") and m.group("b").isdigit() and len(m.group("a")) <= 2):
                continue
            day += int(m.group("a")) > 12
            month += int(m.group("b")) > 12
            points += m.group("sep") == "."
            slashes += m.group("sep") != "."
    return day > month if day != month else points > slashes


def parse_date(match: re.Match, day_first: bool) -> dt.date | None:
    try:
        if match.group("month"):
            return dt.date(
                int(match.group("year")), _month(match.group("month")) or 0, int(match.group("day"))
            )
        a, b, c = match.group("a"), match.group("b"), match.group("c")
        if len(a) == 4:
            return dt.date(int(a), int(b), int(c))
        if not b.isdigit():
            return dt.date(_year(c), _month(b) or 0, int(a))
        month, day = (int(b), int(a)) if day_first else (int(a), int(b))
        if month > 12:  # this one is written the other way round (or misread): take it as it reads
            month, day = day, month
        return dt.date(_year(c), month, day)
    except (TypeError, ValueError):
        return None


def date_time(text: str, day_first: bool) -> tuple[dt.datetime | None, int, int]:
    """The first date in `text` with the time right after it, and where the date starts and ends."""
    match = DATE.search(text)
    if not match:
        return None, -1, -1
    day = parse_date(match, day_first)
    if day is None:
        return None, match.start(), match.end()
    rest = text[match.end() :].split()
    clock = TIME.match(rest[0]) if rest else None
    if not clock or int(clock.group(1)) > 23 or int(clock.group(2)) > 59:
        # No readable time: the date alone, marked by a second of 1 (no printed time has seconds).
        return dt.datetime(day.year, day.month, day.day, 0, 0, 1), match.start(), match.end()
    return (
        dt.datetime(day.year, day.month, day.day, int(clock.group(1)), int(clock.group(2))),
        match.start(),
        match.end(),
    )


# -- reading -------------------------------------------------------------------------------------


@dataclass
class Sample:
    sample_id: str
    collected: dt.datetime | None
    analyses: dict[str, dt.datetime | None] = field(default_factory=dict)


@dataclass
class Document:
    samples: dict[str, Sample] = field(default_factory=dict)  # folded ID -> sample, in order
    temperature: float | None = None


def _cells(lines: list[Any], gap: float) -> list[list[str]]:
    return [[p.text for p in layout.split_phrases(line, gap)] for line in lines]


def _temperature(rows: list[list[str]]) -> float | None:
    """The number on the line that names a temperature: the one before a degree sign, else the
    last one after the word (a label's "(°C)" is not a value)."""
    for cells in rows:
        joined = " ".join(cells).lower()
        if "temp" not in joined:
            continue
        after = joined.split("temp", 1)[1].replace("(°c)", " ").replace("(c)", " ")
        before_degree = NUMBER.findall(after.split("°c")[0]) if "°c" in after else []
        numbers = before_degree or NUMBER.findall(after)
        if numbers:
            return float(numbers[-1])
    return None


def read_form(path: Path, jitter: np.random.Generator | None) -> Document:
    with Image.open(path) as image:
        gray = np.asarray(image.convert("L"))
    if jitter is not None:
        gray = ocr.jitter_image(gray, jitter)
    words = ocr.recognize(gray, upscale=1.5)
    rows = _cells(layout.group_lines(words), 12)
    day_first = day_first_document([" ".join(r) for r in rows])
    document = Document(temperature=_temperature(rows))
    last: Sample | None = None
    for cells in rows:
        text = " ".join(cells)
        when, start, end = date_time(text, day_first)
        if (
            when is None
            and last is not None
            and not any(w in text.lower() for w in ("by", "date", "time"))
        ):
            # A row's analyses wrapped onto the next line.
            last.analyses.update(analyses_in(text))
            continue
        if when is None or start <= 0 or "by" in text[:start].lower():
            last = None
            continue
        sample_id = text[:start].strip()
        rest = text[end:].split()
        if rest and TIME.match(rest[0]):
            rest = rest[1:]
        items = " ".join(rest)
        # Matrix code and container count precede the analyses.
        items = re.sub(r"^[A-Za-z]{1,4}\s+\d{1,2}\s+", "", items)
        analyses = analyses_in(items)
        if sample_id:
            last = Sample(sample_id, when, analyses)  # type: ignore[arg-type]
            document.samples[fold_id(sample_id)] = last
    return document


def read_report(path: Path) -> Document:
    rows: list[list[str]] = []
    for page in read_pdf(path):
        rows += _cells(layout.group_lines(page.words), 5)
    day_first = day_first_document([" ".join(r) for r in rows])
    document = Document(temperature=_temperature(rows))
    for cells in rows:
        if len(cells) < 4:
            continue
        when, start, _ = date_time(cells[-1], day_first)
        if when is None or start != 0:
            continue
        sample_id = cells[0]
        key = fold_id(sample_id)
        analysis = analysis_of(" ".join(cells[1:3]))
        if (
            re.search(r"water|soil|sediment|solid|liquid|air|gas", cells[2].lower())
            and analysis is None
        ):
            document.samples.setdefault(key, Sample(sample_id, when))
            document.samples[key].collected = when
        elif analysis:
            document.samples.setdefault(key, Sample(sample_id, None)).analyses[analysis] = when
    return document


# -- checking ------------------------------------------------------------------------------------


def same_time(a: dt.datetime, b: dt.datetime) -> bool:
    """Equal, or the same day when either time was unreadable (see date_time)."""
    if a.second == 1 or b.second == 1:
        return a.date() == b.date()
    return a == b


# Characters OCR confuses in IDs written by hand (B/8, O/0, I/1/l, S/5, Z/2, G/6): a form ID and a
# report ID equal once these are merged are the same spelling misread, not a discrepancy.
CONFUSABLE = str.maketrans(
    {"8": "B", "0": "O", "1": "I", "L": "I", "5": "S", "2": "Z", "6": "G", "|": "I"}
)


def ocr_key(sample_id: str) -> str:
    return fold_id(sample_id).replace(".", "").translate(CONFUSABLE)


def pair_left(rows_left: list[str], samples_left: list[str], key: Callable[[str], str]) -> list[tuple[str, str]]:
    """Each form row left unpaired, in order, with the one report sample left whose `key` is the
    row's (none where several are); the pairs made leave both lists."""
    pairs = []
    for k in list(rows_left):
        alike = [s for s in samples_left if key(s) == key(k)]
        if len(alike) == 1:
            pairs.append((k, alike[0]))
            rows_left.remove(k)
            samples_left.remove(alike[0])
    return pairs


def reconcile(form: Document, report: Document) -> list[dict[str, str]]:
    found: list[tuple[str, str, str]] = []
    rows_left = [k for k in form.samples if k not in report.samples]
    samples_left = [k for k in report.samples if k not in form.samples]
    pairs = [(k, k) for k in form.samples if k in report.samples]
    # An ID OCR misread is the same sample; one written another way is a discrepancy.
    pairs += pair_left(rows_left, samples_left, ocr_key)
    alike = pair_left(rows_left, samples_left, loose_id)
    pairs += alike
    found += [("id-mismatch", form.samples[k].sample_id, "") for k, _ in alike]
    found += [("sample-missing", form.samples[k].sample_id, "") for k in rows_left]
    found += [("sample-extra", report.samples[k].sample_id, "") for k in samples_left]
    temperature = report.temperature if report.temperature is not None else form.temperature
    if temperature is not None and not 0.0 < temperature <= 6.0:
        found.append(("temperature", "", ""))
    for row_key, sample_key in pairs:
        row, sample = form.samples[row_key], report.samples[sample_key]
        # Name a sample as the report prints it where the form's spelling was only misread.
        if ocr_key(row_key) == ocr_key(sample_key) and row_key != sample_key:
            row = Sample(sample.sample_id, row.collected, row.analyses)
        if row.collected and sample.collected and not same_time(row.collected, sample.collected):
            found.append(("collection-mismatch", row.sample_id, ""))
        for analysis, when in sample.analyses.items():
            if (
                row.collected
                and when
                and when - row.collected > dt.timedelta(hours=HOLDING_HOURS[analysis])
            ):
                found.append(("holding-time", row.sample_id, analysis))
        if row.analyses:  # a row whose analyses were not read says nothing about them
            found += [
                ("analysis-not-reported", row.sample_id, a)
                for a in row.analyses
                if a not in sample.analyses
            ]
            found += [
                ("analysis-not-requested", row.sample_id, a)
                for a in sample.analyses
                if a not in row.analyses
            ]
    out, seen = [], set()
    for kind, sample_id, analysis in found:
        key = (kind, fold_id(sample_id), analysis)
        if key not in seen:
            seen.add(key)
            out.append({"kind": kind, "sample": sample_id, "analysis": analysis})
    return out


def solve(case_input: Any, sources: Sources, variant: str, jitter: Jitter = None) -> Prediction:
    form = read_form(sources[case_input.form], jitter)
    report = read_report(sources[case_input.report])
    return {"discrepancies": reconcile(form, report)}
