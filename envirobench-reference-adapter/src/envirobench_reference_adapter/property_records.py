"""Reading a property's record and answering typed questions from it, or "not in the record"
when its rules find nothing: the engine of the reference solvers for `missing-information` and
`cited-answers` (each answers with it; cited-answers also cites the line a value came from).
The case input is the type's Input record (its documents; its questions, each an ID, a text, an
answer type and a unit), structured by core's converter in the adapter kit.

Reading: every page of every PDF of the case once, as lines: the text layer (pypdfium2) where the
page has one, OCR (`pdftext.ocr_page`) of a scanned page, its words grouped into lines by
`layout.group_lines`. Each line keeps its document and 1-based page.

Retrieval: a question and a line become *anchors* (dates in the common written forms made ISO;
identifiers, any token holding a digit, made letters and digits with leading zeros dropped per
digit run, so "MW-03" and "MW-3" meet) and *words* (lower-cased, cut to their first STEM
letters, less the words every question has). A line is a candidate when its page holds every
anchor of the question; candidates are ranked by BM25 (rank_bm25's Okapi) of the line, plus half
the BM25 of its page, over anchors and words together, and must share an anchor or a word with
the question themselves.

Extraction, by the question's declared answer type, from the best candidates in order: the first
date that is not an anchor of the question; the first number with a unit of the question's
dimension (or a bare number); an identifier after a "No." / "Number" label; a name after "by"
or before "(Grantee)", or a stored product from a short list of fuels; yes or no from
detection, removal and coverage wording (a negation says no); a list after "with respect to".

A result asked for a year rather than a day ("... in MW-3 in 2016?") is asked again for the one
day of that year on which the record reports a sample of the well (a day a table row starts with,
or a day on a "sampled"/"collected" line, on a page naming the well); where it reports several
such days, or none, the question stays without a day (below).

"Not in the record" when:
- an anchor of the question (a tank, well, invoice or permit number, a date) is on no page;
- the subject the question asks about (the word after "of the"/"does the", e.g. "easement",
  "covenant", "letter") heads no document (is not among the first lines of any document's first
  page);
- the question says "the tank", "the well" or "the invoice" without naming one, and the record
  names several (underspecified); or asks for a result without a day where several days are
  reported;
- it asks for a current value ("current", "now") and a line naming its anchor says the value was
  renewed, amended or modified without giving a date (stale); with a date, that date is the answer;
- no candidate yields a value of the declared type.

Variants (of the solvers): `v1` as above; `always-answer` never says "not in
the record" (its last resort is the best candidate's first value of any kind), the contrast that
shows what abstaining is worth under a five-to-one penalty.

Weaknesses: table cells (a well's depth in a construction table, a result in a results table)
are read only when the line itself carries a unit or the question's words; OCR misreads on the
scanned recorded instruments; subjects named differently from the document's title are missed.

Length: one reader with its rules. Retrieval, typed extraction and the abstention rules share the
same lines, anchors and candidates, and each abstention rule guards one kind of extraction; split
apart, a reader would have to hold both halves to know when the solver answers.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
from rank_bm25 import BM25Okapi

from . import layout, pdftext
from .terms import FUNCTION_WORDS, IDENTIFIER, dates_in, identifier_key
from .terms import terms as text_terms

NOT_IN_RECORD = "not in the record"
STEM = 5
TOP = 8  # candidates tried for a value
TITLE_LINES = 10  # the lines of a document's first page that name what it is
WRAP_CHARS = 75  # a line this long that ends mid-sentence wraps onto the next
# kinds of record documents a question may name; a question naming one is answered from the
# documents whose first lines name it, and from none when no document does
SUBJECTS = ("easement", "covenant", "deed", "permit", "no further action")
# the words every question has: function words, and those that ask or count
QUESTION_WORDS = FUNCTION_WORDS | {
    "any", "are", "been", "did", "do", "does", "had", "has", "have", "many", "much", "under",
    "were", "who", "whom",
}  # fmt: skip
# unit spellings per dimension, as documents print them
UNIT_WORDS = {
    "ft": r"(?:ft|feet|foot)\b",
    "gal": r"-?(?:gal|gallons?)\b",
    "ug/L": r"(?:[uµμ]g/l|ppb)\b",
    "USD": None,  # money: a leading "$"
}
NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
# an identifier after a "No." / "Number" label; the label's first word may be misread by OCR
# ("Wetrument No 2012717755"), so any word is taken, and the one the question names preferred
LABELLED_ID = re.compile(
    r"\b([A-Za-z]+)\.?\s*(?:no\b|number\b|#)\.?\s*:?\s*([A-Za-z]{0,4}-?\d[\w-]*)",
    re.I,
)
BY_NAME = re.compile(r"\bby ((?:[A-Z][\w&.,'-]*\s?)+?)(?=\s+(?:under|on|for|at|in)\b|[.;]|$)")
# Possessive (`*+`): under re.I every letter may start a word of the name, so a backtracking word
# could be split at every letter; on prose that never reaches "(grantee)" that took hours.
GRANTEE = re.compile(r"\bto ((?:[A-Z][\w&.,'-]*+\s?)+?)\s*\(grantee\)", re.I)
PRODUCTS = (
    "gasoline",
    "diesel",
    "waste oil",
    "used oil",
    "heating oil",
    "fuel oil",
    "kerosene",
    "jet fuel",
    "motor oil",
)
NEGATION = re.compile(
    r"\b(?:not|no longer|remains? in (?:service|use)|in use|does not|without)\b", re.I
)
CHANGED = re.compile(r"\b(?:renewed|amended|modified|superseded|replaced|extended)\b", re.I)
# a result asked for a year rather than a day ("... in MW-3 in 2016?")
IN_YEAR = re.compile(r"\b(?:in|during)\s+((?:19|20)\d{2})\b")
# a line that gives a sample's day: a table row that starts with the day, or a "sampled"/"collected" label
SAMPLE_DAY = re.compile(r"\b(?:sampled|collected|sampling)\b", re.I)
ENTITIES = {  # what "the <noun>" names without an identifier, and how the record names each one
    "tank": re.compile(r"\bT-\d+\b"),
    "well": re.compile(r"\bMW-?\d+\b", re.I),
    "invoice": re.compile(r"invoice\s+(?:no\.?|number|#)\s*:?\s*(\d+)", re.I),
}


@dataclass(frozen=True)
class Line:
    document: str
    page: int  # 1-based
    text: str


# -- terms ---------------------------------------------------------------------------------------


def terms(text: str) -> tuple[set[str], list[str]]:
    """(anchors, words) of a line or a question, less the words every question has."""
    return text_terms(text, STEM, QUESTION_WORDS)


# -- reading -------------------------------------------------------------------------------------


def read_lines(path: Path, name: str, jitter: np.random.Generator | None = None) -> list[Line]:
    """Every line of every page of one PDF (text layer, or OCR of a scanned page)."""
    lines: list[Line] = []
    for index, page, text in pdftext.text_layers(path):
        if len(text.strip()) >= pdftext.MIN_TEXT_CHARS:
            rows = join_wrapped([row.strip() for row in re.split(r"\r?\n", text) if row.strip()])
        else:
            width, height = page.get_width(), page.get_height()
            dpi = pdftext.image_dpi(page)
            scanned = pdftext.ocr_page(path, index, width, height, dpi, jitter)
            rows = [line.text for line in layout.group_lines(scanned.words)]
        lines += [Line(name, index + 1, row) for row in rows if row]
    return lines


def join_wrapped(rows: list[str]) -> list[str]:
    """Physical lines joined into the sentences a paragraph wraps: a long line (WRAP_CHARS or
    more) that does not end a sentence continues on the next."""
    out: list[str] = []
    for row in rows:
        if (
            out
            and len(out[-1].split("\n")[-1]) >= WRAP_CHARS
            and not re.search(r"[.:;!?]$", out[-1])
        ):
            out[-1] = f"{out[-1]} {row}"
        else:
            out.append(row)
    return out


# -- answering -----------------------------------------------------------------------------------


class Record:
    """The lines of a case's documents, indexed for retrieval."""

    def __init__(self, lines: list[Line], titles: dict[str, str]) -> None:
        self.lines = lines
        self.titles = titles  # document -> the first lines of its first page, lower-cased
        self.terms = [terms(line.text) for line in lines]
        self.page_of = [(line.document, line.page) for line in lines]
        pages: dict[tuple[str, int], list[int]] = {}
        for i, key in enumerate(self.page_of):
            pages.setdefault(key, []).append(i)
        self.pages = pages
        self.page_keys = list(pages)
        self.page_anchors = {
            key: set().union(*(self.terms[i][0] for i in rows)) for key, rows in pages.items()
        }
        self.all_anchors = set().union(*self.page_anchors.values()) if pages else set()
        self.text = "\n".join(line.text for line in lines)
        corpus = [[*sorted(a), *w] or ["-"] for a, w in self.terms]
        self.bm25 = BM25Okapi(corpus) if corpus else None
        page_corpus = [
            [t for i in pages[key] for t in (*sorted(self.terms[i][0]), *self.terms[i][1])] or ["-"]
            for key in self.page_keys
        ]
        self.page_bm25 = BM25Okapi(page_corpus) if page_corpus else None

    def rarest(self, words: list[str], among: list[int]) -> str | None:
        """The question word fewest lines hold (at least one of `among` holding it)."""
        held = {w for i in among for w in self.terms[i][1]}
        counts = {
            w: sum(w in set(t[1]) for t in self.terms)
            for w in set(words)
            if w in held and len(w) > 3
        }
        # ties go to the later word: a question names what it asks about last ("cover metals?")
        return min(counts, key=lambda w: (counts[w], -words.index(w))) if counts else None

    def candidates(self, question: str, *, loose: bool = False) -> list[int]:
        """Lines on pages holding every anchor of the question, best first; each sharing an
        anchor or a word with the question unless `loose`."""
        anchors, words = terms(question)
        query = [*sorted(anchors), *dict.fromkeys(words)]
        if not self.lines or not query:
            return []
        line_scores = self.bm25.get_scores(query)
        page_scores = dict(zip(self.page_keys, self.page_bm25.get_scores(query), strict=True))
        wanted = set(words)
        out = []
        for i, key in enumerate(self.page_of):
            if not anchors <= self.page_anchors[key]:
                continue
            line_anchors, line_words = self.terms[i]
            if not (loose or line_anchors & anchors or wanted & set(line_words)):
                continue
            out.append((line_scores[i] + 0.5 * page_scores[key], i))
        out.sort(key=lambda item: (-item[0], item[1]))
        return [i for _, i in out]


def subject_of(question: str) -> str | None:
    """The kind of document a question names (SUBJECTS), if any."""
    lower = question.lower().replace("-", " ")
    return next((kind for kind in SUBJECTS if re.search(rf"\b{kind}\b", lower)), None)


def sampling_days(record: Record, well: str, year: str) -> set[str]:
    """The days of `year` on which the record reports a sample of `well` (an anchor): on the
    pages that name the well, the day a table row starts with, or a day on a line that says a
    sample was taken ("Date Sampled", "collected")."""
    pages = {key for key, anchors in record.page_anchors.items() if well in anchors}
    days = set()
    for i, line in enumerate(record.lines):
        if record.page_of[i] not in pages:
            continue
        found, rest = dates_in(line.text.strip())
        # a day found is blanked to " ": a blank first character is a day the line starts with
        if found and (rest.startswith(" ") or SAMPLE_DAY.search(line.text)):
            days |= {day for day in found if day.startswith(year)}
    return days


def by_day(question: Any, record: Record) -> Any:
    """A result asked for a year, asked again for the one day of that year the record reports a
    sample of the well on; None where it reports none or several (the year does not say which)."""
    match = IN_YEAR.search(question.text)
    anchors, _ = terms(question.text)
    wells = [a for a in anchors if ENTITIES["well"].fullmatch(a.removeprefix("id:"))]
    if not match or not wells:
        return None
    days = sampling_days(record, wells[0], match[1])
    if len(days) != 1:
        return None
    (day,) = days
    text = question.text[: match.start()] + f"on {day}" + question.text[match.end() :]
    return SimpleNamespace(text=text, answer_type=question.answer_type, unit=question.unit)


def underspecified(question: str, record: Record) -> bool:
    lower = question.lower()
    anchors, _ = terms(question)
    for noun, pattern in ENTITIES.items():
        if re.search(rf"\bthe (?:[a-z]+ )?{noun}\b", lower):
            named = {identifier_key(m) for m in pattern.findall(record.text)}
            if len(named) > 1 and not any(a.startswith("id:") for a in anchors):
                return True
    return bool(
        re.search(r"\b(result|concentration)\b", lower)
        and not any(a.startswith("date:") for a in anchors)
    )


def extract(
    answer_type: str, unit: str, text: str, q_anchors: set[str], question: str
) -> str | None:
    """A value of the declared type from one line, or None."""
    if answer_type == "date":
        dates, _ = dates_in(text)
        dates = [d for d in dates if f"date:{d}" not in q_anchors]
        return dates[0] if dates else None
    if answer_type == "quantity":
        _, rest = dates_in(text)
        for token in IDENTIFIER.findall(question):
            rest = rest.replace(token, " ")
        if unit == "USD":
            match = re.search(rf"\$\s*({NUMBER})", rest)
            return f"{match.group(1).replace(',', '')} USD" if match else None
        _, q_words = terms(question)
        for word in re.finditer(r"[A-Za-z][A-Za-z,' ]*?[A-Za-z]\b", rest):
            # a results row: "benzene 125.7 1 ug/L" gives the number after the analyte's name
            if word.group(0).lower()[:STEM] in q_words and len(word.group(0)) > 3:
                after = re.match(rf"\s+({NUMBER})\b", rest[word.end() :])
                if after and unit == "ug/L":
                    return f"{after.group(1).replace(',', '')} {unit}"
        pattern = UNIT_WORDS.get(unit)
        if pattern:
            match = re.search(rf"({NUMBER})\s*{pattern}", rest, re.I)
            if match:
                return f"{match.group(1).replace(',', '')} {unit}"
        return None
    if answer_type == "instrument":
        _, q_words = terms(question)
        found = [
            (match.group(1).lower()[:STEM] not in q_words, k, match.group(2))
            for k, match in enumerate(LABELLED_ID.finditer(text))
            if f"id:{identifier_key(match.group(2))}" not in q_anchors
        ]
        return min(found)[2] if found else None  # the label the question names first
    if answer_type == "name":
        lower = text.lower()
        if re.search(r"\b(substance|product|stored|contain)", question.lower()):
            found = [p for p in PRODUCTS if p in lower]
            return found[0] if found else None
        for pattern in (GRANTEE, BY_NAME):
            match = pattern.search(text)
            if match:
                return match.group(1).strip(" ,")
        return None
    if answer_type == "yes-no":
        if "detect" in question.lower():
            _, q_words = terms(question)
            for word in re.finditer(r"[A-Za-z][A-Za-z,' -]*[A-Za-z]", text):
                if word.group(0).lower()[:STEM] in q_words:
                    after = text[word.end() :].lstrip()
                    if re.match(r"(?:nd\b|<|not detected)", after, re.I):
                        return "no"
                    if re.match(rf"(?:{NUMBER})\b", after):
                        return "yes"
        if NEGATION.search(text):
            return "no"
        if re.search(
            r"\b(detected|removed|pulled|no further action|covers?|addressed)\b", text, re.I
        ):
            return "yes"
        return None
    if answer_type == "list":
        match = re.search(r"with respect to (.+?)(?:\.|$)", text, re.I)
        if not match:
            return None
        return "; ".join(p.strip() for p in re.split(r",| and ", match.group(1)) if p.strip())
    return None


def answer(question: Any, record: Record, variant: str) -> str:
    return find_answer(question, record, variant)[0]


def find_answer(question: Any, record: Record, variant: str) -> tuple[str, int | None]:
    """The answer, and the index of the line it was read from (None for "not in the record" or
    a guess)."""
    lower = question.text.lower()
    if re.search(r"\b(result|concentration)\b", lower) and IN_YEAR.search(question.text):
        asked = by_day(question, record)
        if asked is not None:
            question = asked
    anchors, q_words = terms(question.text)
    strict = variant == "v1"
    if strict and not anchors <= record.all_anchors:
        return NOT_IN_RECORD, None
    subject = subject_of(question.text)
    documents = None
    if subject:
        documents = {d for d, title in record.titles.items() if subject in title}
        if strict and not documents:
            return NOT_IN_RECORD, None
    if strict and underspecified(question.text, record):
        return NOT_IN_RECORD, None
    # a number is labelled in the document it belongs to, whatever the question calls it
    candidates = record.candidates(
        question.text, loose=bool(documents) and question.answer_type == "instrument"
    )
    if documents:
        candidates = [i for i in candidates if record.lines[i].document in documents]
    lower = question.text.lower()
    if strict and re.search(r"\b(current|currently|now)\b", lower):
        ids = {a for a in anchors if a.startswith("id:")}
        for i in candidates:
            line_anchors, _ = record.terms[i]
            if CHANGED.search(record.lines[i].text) and (not ids or ids & line_anchors):
                value = extract(
                    question.answer_type,
                    question.unit,
                    record.lines[i].text,
                    anchors,
                    question.text,
                )
                return (value, i) if value else (NOT_IN_RECORD, None)
    if (
        documents
        and question.answer_type == "date"
        and re.search(r"\bdate of the\b|\bissue", lower)
    ):
        # a document's own date: the first date on its first page
        for i, line in enumerate(record.lines):
            if line.document in documents and line.page == 1:
                found, _ = dates_in(line.text)
                if found:
                    return found[0], i
    if question.answer_type == "yes-no" and "detect" not in lower:
        # coverage and removal are said in words: the line must hold the question's rarest word
        rare = record.rarest(q_words, candidates)
        candidates = [i for i in candidates if rare is None or rare in record.terms[i][1]]
    elif question.answer_type == "date":
        # a date is read only from a line that says what it is the date of
        wanted = set(q_words)
        candidates = [i for i in candidates if wanted & set(record.terms[i][1])]
    for i in candidates[:TOP]:
        value = extract(
            question.answer_type, question.unit, record.lines[i].text, anchors, question.text
        )
        if value is None and question.answer_type == "quantity":
            value = table_value(record, i, question, anchors)
        if value:
            return value, i
    if strict:
        return NOT_IN_RECORD, None
    return guess(question), None


def table_value(record: Record, i: int, question: Any, anchors: set[str]) -> str | None:
    """A table row's one bare number, when its page's header gives the question's unit in
    parentheses ("Capacity (gal)", "Total Depth (ft)")."""
    line = record.lines[i]
    unit = question.unit
    ids = {a for a in anchors if a.startswith("id:")}
    if unit == "USD" or not ids & record.terms[i][0]:
        return None  # only the row of the tank or well the question names
    spelled = {"ft": "ft", "gal": "gal", "ug/L": "ug/l"}[unit]
    page = [record.lines[k].text.lower() for k in record.pages[record.page_of[i]]]
    if not any(f"({spelled})" in text for text in page):
        return None
    _, rest = dates_in(line.text)
    rest = IDENTIFIER.sub(lambda m: m.group(0) if re.fullmatch(NUMBER, m.group(0)) else " ", rest)
    numbers = re.findall(rf"(?<![\w.-])({NUMBER})(?![\w-])", rest)
    return f"{numbers[0].replace(',', '')} {unit}" if len(numbers) == 1 else None


def guess(question: Any) -> str:
    """The always-answer variant's last resort: a plausible value of the declared type."""
    return {
        "date": "2010-01-01",
        "quantity": {"ft": "30 ft", "gal": "4000 gal", "ug/L": "10 ug/L", "USD": "5000 USD"}.get(
            question.unit, "1"
        ),
        "name": "unknown",
        "instrument": "0",
        "yes-no": "yes",
        "list": "petroleum hydrocarbons",
    }[question.answer_type]


def read_record(
    case_input: Any, sources: Mapping[str, Path], jitter: np.random.Generator | None = None
) -> Record:
    lines: list[Line] = []
    titles: dict[str, str] = {}
    for name in case_input.documents:
        read = read_lines(sources[name], name, jitter)
        first_page = [line.text.lower() for line in read if line.page == 1]
        titles[name] = " ".join(first_page[:TITLE_LINES])
        lines += read
    return Record(lines, titles)
