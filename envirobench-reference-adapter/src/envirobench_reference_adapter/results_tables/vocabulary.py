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
# Pages a report keeps only for reference: the originals behind a revised report.
SUPERSEDED = re.compile(
    r"\bsuperseded\b|\bvoid(ed)?\b|\bobsolete\b|\breplaced\s+by\b|\bfor\s+reference\s+only\b", re.I
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
