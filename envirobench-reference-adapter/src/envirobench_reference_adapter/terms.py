"""A text as retrieval terms: the *anchors* it names and its *words*, shared by the solvers that
match questions to pages and lines (page-locate, and the property-record reader of
missing-information and cited-answers).

- anchors: dates in the common written forms (2019-05-14, 05/14/2019, May 14, 2019, 14 May 2019,
  14 May. 2019) as one ISO term `date:YYYY-MM-DD`; identifiers (any token holding a digit: "MW-03",
  "GW-1719-80", invoice numbers) as `id:` + their letters and digits, lower-cased, with leading
  zeros dropped per digit run, so "MW-03" and "MW-3" are one term;
- words: the remaining words, lower-cased and cut to their first `stem` letters ("recorded" and
  "recording" meet), less the `stop` words the caller names.

FUNCTION_WORDS are the English function words every question is made with (articles,
prepositions, question words); each caller adds the words its own questions all have.
"""

from __future__ import annotations

import re

MONTHS = {m: i + 1 for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"))}
MONTH = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
DATE_PATTERNS = (
    (re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b"), ("y", "m", "d")),
    (re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b"), ("m", "d", "y")),
    (re.compile(rf"\b{MONTH}\s+(\d{{1,2}}),?\s+(\d{{4}})\b", re.I), ("mon", "d", "y")),
    (re.compile(rf"\b(\d{{1,2}})\s+{MONTH},?\s+(\d{{4}})\b", re.I), ("d", "mon", "y")),
)
FUNCTION_WORDS = frozenset({
    "a", "an", "and", "at", "be", "by", "for", "from", "how", "in", "is", "it", "its", "of", "on",
    "or", "that", "the", "there", "this", "to", "was", "what", "when", "where", "which", "with",
})  # fmt: skip
IDENTIFIER = re.compile(r"\b[A-Za-z]*[-#]?\d[\w-]*\b")
WORD = re.compile(r"[A-Za-z][A-Za-z']+")


def dates_in(text: str) -> tuple[list[str], str]:
    """ISO dates found in `text` (in order of pattern, then position), and the text with them
    blanked out. A match that is no calendar date (month 13, day 32) stays text."""
    found: list[str] = []
    for pattern, order in DATE_PATTERNS:

        def replace(match: re.Match, order=order) -> str:
            parts = dict(zip(order, match.groups(), strict=True))
            month = MONTHS.get(parts["mon"][:3].lower()) if "mon" in parts else int(parts["m"])
            try:
                year, day = int(parts["y"]), int(parts["d"])
            except ValueError:
                return match.group(0)
            if not month or not (1 <= month <= 12 and 1 <= day <= 31):
                return match.group(0)
            found.append(f"{year:04d}-{month:02d}-{day:02d}")
            return " "

        text = pattern.sub(replace, text)
    return found, text


def identifier_key(token: str) -> str:
    """Letters and digits of an identifier, each digit run without leading zeros, lower-cased."""
    compact = re.sub(r"[^0-9A-Za-z]", "", token).lower()
    return re.sub(r"\d+", lambda m: str(int(m.group(0))), compact)


def terms(text: str, stem: int, stop: frozenset[str] = frozenset()) -> tuple[set[str], list[str]]:
    """(anchors, words) of a text."""
    dates, rest = dates_in(text)
    anchors = {f"date:{d}" for d in dates}
    for token in IDENTIFIER.findall(rest):
        key = identifier_key(token)
        if key and any(c.isdigit() for c in key):
            anchors.add(f"id:{key}")
    rest = IDENTIFIER.sub(" ", rest)
    words = [w.lower()[:stem] for w in WORD.findall(rest) if w.lower() not in stop]
    return anchors, words
