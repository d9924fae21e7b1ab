"""Typed answers to questions about a record: the declared normalisation, and the records both
`missing-information` and `cited-answers` share.

An answer is text. How it is read depends on the question's declared answer type (never on what
the text looks like), and the rules are fixed here, deterministic, and involve no model:

    every type  Unicode NFKC, case folded, runs of whitespace made one space, surrounding
                whitespace and a final full stop dropped.
    abstention  the answer that the record does not hold the fact ("not in the record"). Its
                declared forms are ABSTENTIONS, compared after the common step with surrounding
                quotes, brackets and final punctuation (. ! ; :) dropped: empty text, "not in
                the record" and its variants ("not in record", "not stated in the record", "the
                record does not say", "the record does not state this", "not found in the
                record", ...), "unknown", "N/A", "n/a", "none stated", "not stated", "not
                available", "cannot be determined", "-". Any other text is an answer, read by
                the question's type (so "no" to a yes-no question is an answer, not an
                abstention).
    date        ISO (2019-05-14), US numeric (05/14/2019, 5/14/2019), or with the month's name
                (May 14, 2019; 14 May 2019; May 14 2019; Sept./Sep. abbreviations): one calendar
                day. Any other text is not a date (and so a wrong answer).
    quantity    a number (thousands separators allowed, a leading "$" allowed) and an optional unit
                from UNITS; a bare number is read in the question's unit. The value is converted
                to the question's unit with UNITS' factors and equals the truth when
                math.isclose(value, truth, rel_tol=1e-4, abs_tol=0.005) (USD: exact to the
                cent, rel_tol=0). A unit of another
                dimension, a second number, "NaN" or "inf" are not a quantity.
    name        additionally "&" read as "and", the punctuation . , ' " ( ) dropped, a leading "the"
                dropped, and a legal entity's suffix words spelled one way (ENTITY_WORDS:
                company/co, incorporated/inc, corporation/corp, limited/ltd, L.L.C./LLC,
                L.P./LP, L.L.P./LLP; the punctuation is already gone): "Tidewater Tank
                Removal Co." = "tidewater tank removal company" = "tidewater tank removal co".
    instrument  a leading label dropped (instrument no., instrument number, case no., permit no.,
                registration no., reg. no., no., number, #), then only letters and digits kept:
                "Instrument No. 2011-312772" = "2011312772"; "WQ-1295-17" = "wq129517".
    yes-no      the first word: yes / y / true mean yes; no / n / false mean no; any other
                first word is not a yes-no answer.
    list        items separated by ";", ",", "/", a newline or " and ", each read as a name; the
                answer equals the truth when the two sets are equal (order and repeats ignored).

Text is never evaluated: it is matched against these patterns and nothing else. An answer that
fits no pattern of its type is simply wrong.
"""

from __future__ import annotations

import datetime as dt
import math
import re
import unicodedata
from typing import Any, Literal

import attrs

from envirobench import not_blank, pdf_path

AnswerType = Literal["date", "quantity", "name", "instrument", "yes-no", "list"]
ANSWER_TYPES = ("date", "quantity", "name", "instrument", "yes-no", "list")
Status = Literal["answerable", "superseded", "never-stated", "underspecified", "stale"]
ANSWERABLE = ("answerable", "superseded")
NOT_IN_RECORD = "not in the record"
# The declared forms of an abstention, as `abstention_key` leaves them (see the module docstring).
ABSTENTIONS = frozenset(
    {
        "",
        "not in the record",
        "not in record",
        "not in the records",
        "not stated in the record",
        "not stated in record",
        "not found in the record",
        "not in the file",
        "the record does not say",
        "the record does not state",
        "the record does not state this",
        "the record does not state it",
        "the record does not answer this",
        "the record does not answer",
        "record does not state",
        "unknown",
        "n/a",
        "na",
        "none stated",
        "not stated",
        "not available",
        "not specified",
        "cannot be determined",
        "cannot be determined from the record",
        "-",
        "--",
        "—",
        "–",
    }
)
# A legal entity's suffix words, each spelled one way once punctuation is dropped.
ENTITY_WORDS = {"company": "co", "incorporated": "inc", "corporation": "corp", "limited": "ltd"}
MAX_ANSWER_CHARS = 2000
MAX_ANSWERS = 500
# unit spelling -> (the question unit it converts to, factor into that unit)
UNITS: dict[str, tuple[str, float]] = {
    "ft": ("ft", 1.0),
    "feet": ("ft", 1.0),
    "foot": ("ft", 1.0),
    "ft bgs": ("ft", 1.0),
    "feet bgs": ("ft", 1.0),
    "m": ("ft", 1 / 0.3048),
    "meters": ("ft", 1 / 0.3048),
    "metres": ("ft", 1 / 0.3048),
    "in": ("ft", 1 / 12),
    "inches": ("ft", 1 / 12),
    "gal": ("gal", 1.0),
    "gallon": ("gal", 1.0),
    "gallons": ("gal", 1.0),
    "l": ("gal", 1 / 3.785411784),
    "liters": ("gal", 1 / 3.785411784),
    "litres": ("gal", 1 / 3.785411784),
    "ug/l": ("ug/L", 1.0),
    "µg/l": ("ug/L", 1.0),
    "μg/l": ("ug/L", 1.0),
    "ppb": ("ug/L", 1.0),
    "mg/l": ("ug/L", 1000.0),
    "ppm": ("ug/L", 1000.0),
    "ng/l": ("ug/L", 0.001),
    "usd": ("USD", 1.0),
    "dollars": ("USD", 1.0),
}
QUANTITY_UNITS = ("ft", "gal", "ug/L", "USD")
_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        1,
    )
    for name in names
}
_NUMBER = re.compile(r"^(\$)?\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*(.*)$")
_LABEL = re.compile(
    r"^(instrument (no|number)|case (no|number)|permit (no|number)|registration (no|number)|"
    r"reg\.? no|no|number|#)\.?:?\s*"
)
_LIST_SPLIT = re.compile(r";|,|/|\n| and ")


def fold(text: str) -> str:
    """Every type's first step: NFKC, case fold, whitespace folded, a final full stop dropped."""
    text = " ".join(unicodedata.normalize("NFKC", text).casefold().split())
    return text[:-1].rstrip() if text.endswith(".") else text


def abstention_key(text: str) -> str:
    """The text as compared with ABSTENTIONS: the common step, then surrounding quotes and
    brackets and final punctuation dropped."""
    text = fold(text)
    previous = None
    while text != previous:
        previous = text
        text = text.strip().strip("\"'“”‘’()[]").rstrip(".!;:").strip()
    return text


def is_not_in_record(text: str) -> bool:
    """Whether `text` is one of the declared forms of an abstention ("not in the record")."""
    return abstention_key(text) in ABSTENTIONS


def parse_date(text: str) -> dt.date | None:
    t = fold(text).replace(",", " ").replace(".", " ")
    parts = t.split()
    try:
        if len(parts) == 1 and re.fullmatch(r"\d{4}-\d{2}-\d{2}", parts[0]):
            return dt.date.fromisoformat(parts[0])
        if len(parts) == 1 and re.fullmatch(r"\d{1,2}/\d{1,2}/\d{4}", parts[0]):
            month, day, year = (int(p) for p in parts[0].split("/"))
            return dt.date(year, month, day)
        if len(parts) == 3:
            if parts[0] in _MONTHS and parts[1].isdigit() and re.fullmatch(r"\d{4}", parts[2]):
                return dt.date(int(parts[2]), _MONTHS[parts[0]], int(parts[1]))
            if parts[1] in _MONTHS and parts[0].isdigit() and re.fullmatch(r"\d{4}", parts[2]):
                return dt.date(int(parts[2]), _MONTHS[parts[1]], int(parts[0]))
    except ValueError:  # 02/30/2019: no such day
        return None
    return None


def parse_quantity(text: str, unit: str) -> float | None:
    """The quantity in `unit`, or None when the text is not one quantity of that dimension."""
    match = _NUMBER.match(fold(text))
    if match is None:
        return None
    dollar, whole, fraction, rest = match.groups()
    value = float(whole.replace(",", "") + (fraction or ""))
    rest = rest.strip()
    if dollar:
        if rest and UNITS.get(rest, ("", 0))[0] != "USD":
            return None
        return value if unit == "USD" else None
    if not rest:
        return value
    target, factor = UNITS.get(rest, ("", 0.0))
    if target != unit:
        return None
    return value * factor


def name_key(text: str) -> str:
    t = fold(text).replace("&", " and ")
    t = re.sub(r"[.,'\"()]", "", t)
    t = " ".join(ENTITY_WORDS.get(word, word) for word in t.split())
    return t[4:] if t.startswith("the ") else t


def instrument_key(text: str) -> str:
    t = fold(text)
    t = _LABEL.sub("", t, count=1)
    return re.sub(r"[^0-9a-z]", "", t)


def yes_no(text: str) -> str | None:
    words = re.findall(r"[a-z]+", fold(text))
    if not words:
        return None
    if words[0] in ("yes", "y", "true"):
        return "yes"
    if words[0] in ("no", "n", "false"):
        return "no"
    return None


def list_key(text: str) -> frozenset[str]:
    return frozenset(k for k in (name_key(item) for item in _LIST_SPLIT.split(fold(text))) if k)


def matches(answer_type: str, unit: str, truth: str, items: tuple[str, ...], text: str) -> bool:
    """Whether answer `text` equals the truth (`truth`, or `items` for a list) after the declared
    normalisation of `answer_type`."""
    # the truth is read by the same rules as the answer: an answer key whose value does not read
    # as its question's type (a corrected key gone wrong) matches nothing rather than failing
    if answer_type == "date":
        day = parse_date(truth)
        return day is not None and parse_date(text) == day
    if answer_type == "quantity":
        value, true = parse_quantity(text, unit), parse_quantity(truth, unit)
        if value is None or true is None:
            return False
        # money is exact to the cent; measures allow a conversion's rounding
        rel_tol = 0.0 if unit == "USD" else 1e-4
        return math.isclose(value, true, rel_tol=rel_tol, abs_tol=0.005)
    if answer_type == "name":
        return bool(name_key(truth)) and name_key(text) == name_key(truth)
    if answer_type == "instrument":
        return bool(instrument_key(text)) and instrument_key(text) == instrument_key(truth)
    if answer_type == "yes-no":
        return yes_no(truth) is not None and yes_no(text) == yes_no(truth)
    if answer_type == "list":
        return list_key(text) == frozenset(name_key(item) for item in items)
    raise ValueError(f"unknown answer type {answer_type!r}")


# -- the records both types share ------------------------------------------------------------------


def check_answer(where: str, value: str, *, empty_abstains: bool = False) -> None:
    """A predicted answer: at most MAX_ANSWER_CHARS, no NUL or other control character but
    newline and tab (such text is no answer to a question about a record), and non-empty unless
    `empty_abstains` (missing-information, where empty text is a declared abstention)."""
    if not value.strip() and not empty_abstains:
        raise ValueError(
            f"{where} is empty: give a value, or {NOT_IN_RECORD!r} where the record does "
            "not hold the fact"
        )
    if len(value) > MAX_ANSWER_CHARS:
        raise ValueError(f"{where} has {len(value)} characters, more than {MAX_ANSWER_CHARS}")
    bad = next((c for c in value if unicodedata.category(c) == "Cc" and c not in "\n\t"), None)
    if bad is not None:
        raise ValueError(f"{where} contains the control character {bad!r}")


def document_paths(instance: Any, attribute: attrs.Attribute, value: tuple[str, ...]) -> None:
    if not value:
        raise ValueError(f"{attribute.name} is empty")
    for path in value:
        pdf_path(instance, attribute, path)
    if len(set(value)) != len(value):
        raise ValueError(f"{attribute.name} repeat a file")


def answer_map(instance: Any, attribute: attrs.Attribute, value: dict[str, Any]) -> None:
    if len(value) > MAX_ANSWERS:
        raise ValueError(f"{attribute.name} has {len(value)} entries, more than {MAX_ANSWERS}")
    for key in value:
        if not key.strip() or len(key) > 100:
            raise ValueError(f"{attribute.name}: {key[:40]!r} is not a question ID")


@attrs.frozen
class QuestionInput:
    """One question as a system sees it: its ID within the case, its text, the type its answer
    is read as, and for a quantity the unit a bare number is read in."""

    id: str = attrs.field(validator=not_blank)
    text: str = attrs.field(validator=not_blank)
    answer_type: AnswerType
    unit: str = ""

    def __attrs_post_init__(self) -> None:
        if self.answer_type == "quantity" and self.unit not in QUANTITY_UNITS:
            raise ValueError(
                f"unit must be one of {list(QUANTITY_UNITS)} for a quantity, got {self.unit!r}"
            )
        if self.answer_type != "quantity" and self.unit:
            raise ValueError(
                f"unit is only for quantities, got {self.unit!r} for {self.answer_type}"
            )


def unique_ids(instance: Any, attribute: attrs.Attribute, value: tuple[Any, ...]) -> None:
    ids = [q.id for q in value]
    if len(set(ids)) != len(ids):
        raise ValueError(f"{attribute.name} repeat a question ID: {sorted(ids)}")
    if not value:
        raise ValueError(f"{attribute.name} is empty")


@attrs.frozen
class Evidence:
    """Where the record states an answer: a document (dataset-relative path), its 1-based page,
    and the passage printed there ("" where the fact sits in a results-table cell)."""

    document: str = attrs.field(validator=pdf_path)
    page: int = attrs.field(validator=attrs.validators.ge(1))
    passage: str = ""


def question_id(number: int) -> str:
    """The ID of a case's `number`-th question (from 1): q01, q02, ..."""
    return f"q{number:02d}"


def answerable_items(instance: Any, attribute: attrs.Attribute, value: tuple[Any, ...]) -> None:
    if not value:
        raise ValueError(f"{attribute.name} is empty")


@attrs.frozen
class GoldAnswer:
    """The truth of one question (the case's questions in order). `status` says whether the
    record answers it (answerable, superseded) or not (never-stated, underspecified, stale);
    `value` is the canonical answer (ISO date, number in the question's unit, name, instrument,
    "yes"/"no") and `items` a list's items, both empty when the record does not answer;
    `evidence` every place the record states it; `trap` the superseded value a stale or
    superseded question's record also prints. `kind` and `trap` describe, and are not scored."""

    kind: str
    status: Status
    value: str = ""
    items: tuple[str, ...] = ()
    evidence: tuple[Evidence, ...] = ()
    trap: str = ""

    @property
    def answerable(self) -> bool:
        return self.status in ANSWERABLE

    def __attrs_post_init__(self) -> None:
        if self.answerable and not (self.value or self.items):
            raise ValueError(f"{self.kind}: an answerable question needs its value")
        if not self.answerable and (self.value or self.items or self.evidence):
            raise ValueError(
                f"{self.kind}: a question the record does not answer has no value or evidence"
            )

    def accepts(self, question: QuestionInput, text: str) -> bool:
        """Whether `text` is the right answer to `question` (for an unanswerable question: "not
        in the record")."""
        if not self.answerable:
            return is_not_in_record(text)
        if is_not_in_record(text):
            return False
        return matches(question.answer_type, question.unit, self.value, self.items, text)


def paired(
    questions: tuple[QuestionInput, ...], golds: tuple[GoldAnswer, ...]
) -> list[tuple[QuestionInput, GoldAnswer]]:
    """The case's questions with their truths, which the answer key lists in the same order."""
    if len(questions) != len(golds):
        raise ValueError(
            f"the answer key has {len(golds)} answers for the case's {len(questions)} questions"
        )
    return list(zip(questions, golds, strict=True))


__all__ = [
    "ANSWERABLE",
    "ANSWER_TYPES",
    "MAX_ANSWER_CHARS",
    "ABSTENTIONS",
    "ENTITY_WORDS",
    "NOT_IN_RECORD",
    "UNITS",
    "Evidence",
    "GoldAnswer",
    "QuestionInput",
    "abstention_key",
    "fold",
    "instrument_key",
    "is_not_in_record",
    "list_key",
    "matches",
    "name_key",
    "paired",
    "parse_date",
    "question_id",
    "parse_quantity",
    "yes_no",
]
