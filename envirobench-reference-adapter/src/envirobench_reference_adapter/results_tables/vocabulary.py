"""What results pages print, as the reader tells it apart: the gaps (in ems) that separate columns,
rows and header lines; footnotes, dates and page numbers; laboratory quality-control words and
abbreviations; the labels that name a sample or a unit.
"""

from __future__ import annotations

import re

from ..headers import (
    FIELD_BLANK,
)

COLUMN_GAP_EMS = 0.6  # a blank this many ems wide between words separates two columns
PHRASE_GAP_EMS = 0.6
ROW_GAP_EMS = 2.5  # a body row is at most this far (top to top, in ems) below the line above
HEADER_GAP_EMS = 1.2  # a header continuation line starts at most this far below the one above
HEADER_LINES = 3  # a header block has at most this many lines
TITLE_WORDS_MAX = 8  # a title is a short line

FOOTNOTE = re.compile(
    r"^(?P<marker>[a-hA-H\*†‡§])\s+(?P<code>[A-Z]{1,2}[+-]?)\s*[–—\-:]\s*\S", re.U
)
DATE_LIKE = re.compile(
    r"(\d{1,2}/\d{1,2}/\d{2,4}|\d{4}-\d{2}-\d{2}|\d{1,2}-[A-Za-z]{3}-\d{2,4}|"
    r"(January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{1,2},?\s+\d{4})"
)
PAGE_NUMBER = re.compile(r"^page \d+( of \d+)?\b", re.I)

# Laboratory quality control, as reports of any laboratory name it: words and abbreviations.
QC_PHRASES = re.compile(
    r"\b(method|lab|laboratory|prep|preparation|reagent|instrument|calibration|batch|extraction)\s+blanks?\b|"
    r"\bcontrol\s+samples?\b|\bquality\s+control\b|\bmatrix\s+spikes?\b|\bblank\s+spikes?\b|\bspike[ds]?\b|"
    r"\b(lab|laboratory|matrix|sample)\s+duplicates?\b|\bsurrogates?\b|\brecover(y|ies)\b|"
    r"\bcalibration\b|\binternal\s+standards?\b|\breference\s+material\b|\bcontinuing\b|\btune\b",
    re.I,
)
QC_TOKENS = frozenset(
    {
        "QC",
        "LCS",
        "LCSD",
        "MS",
        "MSD",
        "MB",
        "BS",
        "BSD",
        "LCSDUP",
        "CCV",
        "ICV",
        "CCB",
        "ICB",
        "BLK",
        "SRM",
        "CRM",
        "LD",
        "LDUP",
    }
)
FIELD_QC = FIELD_BLANK
# Pages a report keeps only for reference: the originals behind a revised report. A condition
# printed on every page ("Void if altered", "void unless signed") marks no page as void.
SUPERSEDED = re.compile(
    r"\bsuperseded\b|\bvoid(ed)?\b(?!\s+(if|unless|when|where|without)\b)|\bobsolete\b|\breplaced\s+by\b|\bfor\s+reference\s+only\b",
    re.I,
)
NEW_REPORT = re.compile(r"\breport\b|\bnarrative\b", re.I)
RESULTS_TITLE = re.compile(r"\b(results?|data)\b", re.I)
# A surrogate compound's row: "(S)", "Surr", "surrogate", a deuterated tag (-d8), and the same
# words as OCR of a poor scan reads them ("(sur)", "(sun)").
SURROGATE = re.compile(
    r"\(\s*s\s*\)|\bsur[rn]?\b|\bsurrogate\b|-d\d{1,2}\b|\(\s*sur[rn]?\.?\s*\)", re.I
)
CONTROL_RANGE = re.compile(r"^\d{1,3}(\.\d+)?\s*[-\u2013]\s*\d{1,3}(\.\d+)?$")
# Sample labels: words that say a label names a sample, and words that say it names something else.
SAMPLE_LABEL_WORDS = frozenset(
    {"sample", "field", "client", "location", "station", "well", "boring", "point"}
)
NOT_SAMPLE_LABEL_WORDS = frozenset(
    {
        "lab",
        "laboratory",
        "date",
        "time",
        "matrix",
        "type",
        "received",
        "collected",
        "count",
        "samples",
        "number of",
        "delivery",
        "group",
        "depth",
        "method",
        "batch",
        "by",
        "units",
        "unit",
        "project",
        "order",
        "job",
        "po",
        "account",
        "contact",
    }
)
UNIT_LABEL_WORDS = frozenset({"unit", "units"})
LABEL = re.compile(r"^(?P<label>[A-Za-z][A-Za-z#./() -]{0,40}?)\s*[:;]\s*(?P<value>.*)$")


def words_of(text: str) -> list[str]:
    return re.findall(r"[a-z0-9#]+", text.lower())


def is_sample_label(label: str) -> bool:
    words = set(words_of(label))
    return (
        bool(words & SAMPLE_LABEL_WORDS)
        and not (words & NOT_SAMPLE_LABEL_WORDS)
        and len(words) <= 4
    )


def is_unit_label(label: str) -> bool:
    words = words_of(label)
    return (
        bool(words)
        and set(words) <= UNIT_LABEL_WORDS | {"reporting", "result", "results"}
        and bool(set(words) & UNIT_LABEL_WORDS)
    )


def is_qc_text(text: str) -> bool:
    """Does a title (or sample ID, or analyte) name laboratory quality control?"""
    if FIELD_QC.search(text):
        return False
    if QC_PHRASES.search(text):
        return True
    return any(token in QC_TOKENS for token in re.findall(r"[A-Za-z]+", text))


# What a heading names besides quality control: an analytical method (a method code, `EPA 8260D`,
# `SW-846 6010`, `Method 200.8`), a technique or instrument (GC, HPLC, ICP, mass spectrometry,
# selected-ion monitoring) or a group of analytes (volatile organics, metals, PAHs, pesticides,
# petroleum hydrocarbons, anions ...). General knowledge of laboratory reports, written for this
# reader. A heading that names one of them before any QC word is a method's heading.
METHOD_CODE = re.compile(
    r"\b(EPA|SW-?846|ASTM|ISO|NIOSH|SM|APHA|OIA|DIN)\b|\b\d{3,4}[A-Z]\b|\b\d{3}\.\d\b|"
    r"\b[Mm]ethods?\s+[A-Z]{0,4}-?\d"
)
TECHNIQUE = re.compile(
    r"\b(GC|LC|HPLC|UPLC|IC|ICP|AES|OES|CVAA|CVAFS|GFAA|FAAS|AAS|FID|ECD|PID|NPD|ELCD|FPD|TCD|"
    r"HRGC|HRMS|SIM|FTIR|ISE|XRF)\b|"
    r"(?i:\b(chromatograph(y|ic)|spectrometr(y|ic)|spectroscop(y|ic)|spectrophotometr(y|ic)|"
    r"colorimetr(y|ic)|gravimetr(y|ic)|titrimetr(y|ic)|titration|absorption|emission|"
    r"plasma|cold\s+vapou?r|purge\s+and\s+trap|headspace)\b)"
)
ANALYTE_GROUP = re.compile(
    r"\b(semi-?)?volatiles?\b|\borganics?\b|\binorganics?\b|\bmetals?\b|\bmercury\b|"
    r"\bcyanides?\b|\banions?\b|\bnutrients?\b|\bpesticides?\b|\bherbicides?\b|"
    r"\bfungicides?\b|\bPCBs?\b|\bpolychlorinated\b|\baroclors?\b|\bPAHs?\b|"
    r"\bpoly(nuclear|cyclic)\b|\bhydrocarbons?\b|\bpetroleum\b|\bTPH\b|\bGRO\b|\bDRO\b|"
    r"\bORO\b|\bS?VOCs?\b|\bBTEX\b|\bPFAS\b|\bperfluor\w*|\bdioxins?\b|\bfurans?\b|"
    r"\bexplosives?\b|\bphenol(s|ics)?\b|\b(general|wet)\s+chemistry\b|\bsolids\b|"
    r"\bmoisture\b|\boil\s+(and|&)\s+grease\b|\bleachate\b|\bTCLP\b|\bSPLP\b|\bdissolved\b",
    re.I,
)
# Letters joined by "/" or "-" into one token: a technique when one of them is no QC abbreviation
# ("GC/MS", "ICP-MS", "LC/MS/MS", "HRGC/HRMS": MS is mass spectrometry there), a pair of QC runs
# when all are ("MS/MSD", "LCS/LCSD").
JOINED = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]+(?:[/-][A-Za-z0-9]+)+")
LETTERS = re.compile(r"(?<![A-Za-z])[A-Za-z]+(?![A-Za-z])")


def _joined_parts(token: str) -> list[str]:
    return [part for part in re.split(r"[/-]", token) if part.isalpha()]


def is_technique_token(token: str) -> bool:
    """A token joining a QC abbreviation to letters that are none: `GC/MS`, `ICP-MS`."""
    parts = _joined_parts(token)
    return any(p.upper() in QC_TOKENS for p in parts) and not all(
        p.upper() in QC_TOKENS for p in parts
    )


def qc_position(text: str) -> int | None:
    """Where a heading first names laboratory quality control (None: it does not): a QC phrase
    or a QC abbreviation, not the MS of a technique's name (`GC/MS`)."""
    if FIELD_QC.search(text):
        return None
    found = [m.start() for m in QC_PHRASES.finditer(text)]
    inside = [(m.start(), m.end()) for m in JOINED.finditer(text) if is_technique_token(m.group())]
    for m in LETTERS.finditer(text):
        if m.group() in QC_TOKENS and not any(a <= m.start() < b for a, b in inside):
            found.append(m.start())
    return min(found) if found else None


def subject_position(text: str) -> int | None:
    """Where a heading first names a method, a technique or a group of analytes (None: never)."""
    found = [
        m.start()
        for pattern in (METHOD_CODE, TECHNIQUE, ANALYTE_GROUP)
        for m in pattern.finditer(text)
    ]
    found += [m.start() for m in JOINED.finditer(text) if is_technique_token(m.group())]
    return min(found) if found else None


def is_qc_heading(text: str) -> bool:
    """Does a heading (a title or a section row) head a section of laboratory QC? It names QC
    ("Method Blank", "LCS/LCSD", "Quality Control Summary", "Surrogates") before anything else.
    A method's heading is no QC heading, whatever QC words follow its subject ("Volatile Organic
    Compounds by GC/MS", "EPA 8260D Volatiles - Method Blank and LCS", "Metals: Results and
    Quality Control Summary"): results under it are read, and each row is judged on its own."""
    qc = qc_position(text)
    if qc is None:
        return False
    subject = subject_position(text)
    return subject is None or qc < subject


def is_qc_sample(sample: str) -> bool:
    """A sample ID that names lab QC: a QC abbreviation or word (`LCS-2401`, `MB 12/1`,
    `MW-01 MS`), or a base ID followed by a duplicate word (`MW-01 DUP`). An ID that starts with
    a duplicate word (`DUP-1`, a blind field duplicate) or names a field blank is a sample."""
    text = sample.strip()
    if FIELD_QC.search(text) or re.match(r"^(dup|duplicate|fd|tb|eb|fb|rb)\b", text, re.I):
        return False
    if is_qc_text(text) or re.search(r"\bblank\b", text, re.I):
        return True
    return (
        bool(re.search(r"\S\s*[-_ ]\s*(dup|duplicate|lab\s*dup)\s*\d*$", text, re.I))
        and len(text.split()) >= 2
    )
