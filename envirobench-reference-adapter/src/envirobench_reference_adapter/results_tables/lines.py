"""Classifying the lines of a page: values, header blocks, titles, body rows and section rows.
"""

from __future__ import annotations

import re

from ..headers import (
    looks_like_sample_id,
    title_scores,
)
from ..layout import (
    Line,
    Phrase,
    normalize_space,
    split_phrases,
)
from ..quantities import (
    find_cas,
    parse_number,
)
from .vocabulary import (
    DATE_LIKE,
    FOOTNOTE,
    HEADER_GAP_EMS,
    HEADER_LINES,
    LABEL,
    PAGE_NUMBER,
    PHRASE_GAP_EMS,
    ROW_GAP_EMS,
    TITLE_WORDS_MAX,
    is_sample_label,
)


def phrases_of(line: Line, em: float) -> list[Phrase]:
    return split_phrases(line, PHRASE_GAP_EMS * em)


def has_value(line: Line) -> bool:
    """Does the line hold a number, a non-detect or a CAS number (so it is no title)?"""
    for word in line.words:
        text = word.text.strip("()")
        if find_cas(text) or parse_number(text) is not None or text.upper() in ("ND", "--"):
            return True
        if text.startswith("<") and (parse_number(text[1:]) is not None or len(text) == 1):
            return True
    return False


def header_value_free(line: Line) -> bool:
    """A header line holds no values: no CAS number, number or non-detect outside its dates
    (dates sit under sample IDs; times beside them)."""
    text = DATE_LIKE.sub(" ", line.text)
    for token in text.split():
        token = token.strip("(),;")
        if not token or re.fullmatch(r"\d{1,2}:\d{2}(:\d{2})?", token):
            continue
        if find_cas(token) or parse_number(token) is not None or token.upper() == "ND":
            return False
        if token.startswith("<") and parse_number(token[1:]) is not None:
            return False
    return True


def header_roles(texts: list[str]) -> tuple[set[str], int]:
    """The roles the texts of a header block score, and how many look like sample IDs."""
    roles: set[str] = set()
    ids = 0
    for text in texts:
        scores = title_scores(text)
        if scores:
            roles.add(max(scores, key=lambda r: scores[r]))
        elif looks_like_sample_id(text):
            ids += 1
    return roles, ids


def header_lines(lines: list[Line], index: int, em: float) -> int:
    """How many lines from `index` make a table header (0: none)."""
    first = lines[index]
    if len(phrases_of(first, em)) < 2 or not header_value_free(first):
        return 0
    if LABEL.match(normalize_space(first.text)) and len(phrases_of(first, em)) < 3:
        return 0
    block = [first]
    while len(block) < HEADER_LINES and index + len(block) < len(lines):
        nxt = lines[index + len(block)]
        if nxt.top - block[-1].top > HEADER_GAP_EMS * 1.6 * em or not header_value_free(nxt):
            break
        if len(phrases_of(nxt, em)) == 1 and not title_scores(nxt.text):
            break  # a group title over the rows ("Dissolved Metals"), not a wrapped column title
        block.append(nxt)
    # The block ends where the body starts: a line of values follows it, or a section row does.
    end = index + len(block)
    if end < len(lines) and not has_value(lines[end]) and len(phrases_of(lines[end], em)) == 1:
        end += 1
    if end >= len(lines) or not has_value(lines[end]):
        return 0
    texts = [normalize_space(p.text) for line in block for p in phrases_of(line, em)]
    if sum(len(phrases_of(line, em)) for line in block) < 3:
        return 0
    roles, ids = header_roles(texts)
    value_roles = roles & {"analyte", "result", "cas", "rl", "mdl", "unit", "qual"}
    if (
        len(roles) >= 2
        and value_roles
        and ("analyte" in roles or "cas" in roles or "result" in roles)
    ) or ("analyte" in roles and ids >= 2):
        return len(block)
    return 0


def is_title(line: Line, em: float) -> bool:
    """A short line of one or two phrases without values (a one-phrase title may hold a method
    number: "Volatile Organic Compounds by 8260")."""
    text = normalize_space(line.text)
    if len(text.split()) > TITLE_WORDS_MAX or text.endswith(".") or text[:1].islower():
        return False  # a sentence (or its last line) is prose, not a title
    phrases = len(phrases_of(line, em))
    return (phrases <= 2 and not has_value(line)) or (phrases == 1 and not find_cas(text))


def is_body_row(line: Line, above: Line, em: float) -> bool:
    if line.top - above.top > ROW_GAP_EMS * em:
        return False
    text = normalize_space(line.text)
    if FOOTNOTE.match(text) or PAGE_NUMBER.match(text):
        return False
    match = LABEL.match(text)
    if match and is_sample_label(match.group("label")):
        return False
    return has_value(line) and len(phrases_of(line, em)) >= 2


def is_section_row(lines: list[Line], index: int, em: float) -> bool:
    """A one-phrase line (or a short one without values) between rows of a table: a group title
    (method, "Surrogates", a unit)."""
    line = lines[index]
    if index == 0 or index + 1 >= len(lines):
        return False
    if line.top - lines[index - 1].top > ROW_GAP_EMS * 1.5 * em:
        return False
    # One phrase; or a short line of words without values that OCR's wider word spaces split.
    if len(phrases_of(line, em)) != 1 and (
        has_value(line) or len(line.text.split()) > TITLE_WORDS_MAX
    ):
        return False
    text = normalize_space(line.text)
    if FOOTNOTE.match(text) or PAGE_NUMBER.match(text) or find_cas(text) or LABEL.match(text):
        return False
    return is_body_row(lines[index + 1], line, em)
