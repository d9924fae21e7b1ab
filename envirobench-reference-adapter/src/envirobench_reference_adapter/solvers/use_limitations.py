"""Reference solver for `use-limitations`: the limitations, covenants and liens in force on a parcel.

Every instrument of the search is read with `pdftext` (its text layer, or OCR of a scanned copy read level, `level=True`)
and judged as a title examiner would, by general legal vocabulary:

1. *Kind*, from the capitalised lines of its first page (the title): an amendment,
   modification or supplement; a termination or rescission (or a release of a restriction, declaration,
   covenant or notice); a release, satisfaction or discharge of a lien; a lien; an
   environmental covenant; a notice of activity and use limitation; a restriction or
   restrictive covenant (deed restriction); a notice of contamination or of a hazardous
   substance; anything else (deeds, easements, mortgage releases) limits nothing.
2. *Parcel*: the parcel number on a line of its own after a parcel label (Parcel Number, APN,
   Assessor's Parcel No., Tax Parcel, Parcel identification, PIN); an instrument burdens the
   subject when that number is the subject's APN (letters and digits compared; where the
   subject has a digit, a letter OCR reads for it, B for 8 or O for 0, is forgiven). An APN mentioned mid-sentence (a neighbour) is not the
   instrument's own. Without a parcel line, any labelled APN; without any, the subject.
3. *Reference*, from the recorder's stamp: the lines within a few lines of a clock time (only
   a stamp carries one); a number of five digits or more there is the instrument number (its
   digits, without leading zeros), else a book and page there ("book/page").
4. *Restrictions*, sentence by sentence: a sentence restricts when it holds a prohibition
   ("shall not", "no", "prohibited", "may not", "unless", "except") or a duty ("shall",
   "must", "requires"), and the restriction's vocabulary (residential or dwelling; groundwater
   or a well with withdrawal, pumping or use; a cap, cover or barrier kept up; excavation or
   digging with a plan; vapor or indoor air; crops, farming, livestock; schools, day care,
   hospitals, playgrounds). Liens and notices restrict nothing.
5. *Holder*: a covenant's party "as Holder" (or "("Holder")"); the party a restriction or
   notice benefits ("for the benefit of", "in favor of", "enforceable by", "reported to");
   a lien's party in the block headed LIENHOLDER, or the agency the lien is held through.
6. *Validity*: an environmental covenant whose copy shows a notary block left blank (blanks
   after "before me", a commission date missing) lacks a signature and is not listed (UECA
   requires the agency's; the solver does not tell whose is missing).
7. Releases and terminations remove the instrument whose reference they cite (a reference of
   another instrument of the search found in their text); an amendment adds the restrictions
   of its sentences that add or insert and removes those of its sentences that delete, strike
   or say "no longer applies", on the instrument it cites; a restriction stated on its own
   after a sentence that introduces it ("The following restriction is added.") takes that
   sentence's verb.

Weaknesses: OCR of a 120 dpi scan misreads digits of an APN or stamp now and then (the
instrument is then taken for another parcel's, or its reference is wrong); the title of a scan
can run into the stamp box; restriction vocabulary it does not know (new synonyms) is missed,
and a sentence that names a restricted thing with a duty it does not impose can be misread;
a notary block left blank on a scan whose underscores OCR drops is found only by its
"before me ... by , as" remains.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

import numpy as np

from .. import pdftext
from ..layout import Line, group_lines, normalize_space
from ..serves import Jitter, Prediction, Serves, Sources

SERVES = Serves("use-limitations")

STAMP_ABOVE = 36.0  # points: a stamp's number and book/page lie this far above its clock time at most
STAMP_BELOW = 4.0  # and its own line (a header stamp: one line)
CLOCK = re.compile(r"\b([01]?\d|2[0-3]):[0-5]\d(:[0-5]\d)?\s*([AaPp]\.?[Mm]\.?)?")
DATE = re.compile(r"\d{1,2}/\d{1,2}/\d{2,4}|\d{4}-\d{2}-\d{2}")
# A number of five digits or more, not part of an amount or a decimal (a comma or period after it may end a clause).
LONG_NUMBER = re.compile(r"(?<![\d$,.])(\d{4}-?\d{4,}|\d{5,})(?!\d|[,.]\d)")
BOOK_PAGE = re.compile(
    r"\b(?:book|bk|volume|vol|liber)\.?\s*(\d+)\s*,?\s*(?:p[a-z]{0,4}|folio)\.?\s*(\d+)", re.I  # OCR: "Paga", "Pq"
)
PARCEL_LABEL = re.compile(
    r"^(?:tax\s+)?(?:assessor'?s\s+)?(?:parcel\s+(?:number|no\.?|identification|id)|apn|pin)\s*[:#.]?\s*"
    r"([A-Z0-9][A-Z0-9\- ]{4,}?)\.?$", re.I  # OCR may split a number with a space
)
ANY_APN = re.compile(r"\b(?:parcel\s+(?:number|no\.?|identification)|apn)\s*[:#.]?\s*([A-Z0-9][A-Z0-9\-]{4,})", re.I)
# A name: capitalised words (and "of", "and", "for"); a period ends it, as it ends a sentence.
NAME = r"((?:[A-Z][\w&'\-]*)(?:\s+(?:[A-Z][\w&'\-]*|of|and|for|&))*)"
HOLDER_PATTERNS = (
    re.compile(NAME + r",?\s+as\s+Holder\b"),
    re.compile(r"\bto\s+(?:the\s+)?" + NAME + r"\s*\(\W*Holder\W*\)"),
)
BENEFIT_PATTERNS = (
    re.compile(r"\b(?:for the benefit of|in favou?r of|enforceable by|reported to|filed with|given to)\s+(?:the\s+)?" + NAME),
)
LIEN_PATTERNS = (
    re.compile(r"\bacting\s+through\s+(?:the\s+)?" + NAME),
    re.compile(r"\b(?:The\s+)?" + NAME + r"\s+(?:claims|holds|asserts)\s+a\s+lien"),
)
# OCR of a scan reads "shall not" as "shalt nol": the cues allow the usual l/t/1/I slips.
PROHIBITION = re.compile(r"\b(sha[l1I][lt1I] no[tl1I]|no|no[tl1I]|prohibited|prohibits|may no[tl1I]|unless|except|without)\b", re.I)
DUTY = re.compile(r"\b(sha[l1I][lt1I]|must|requires?|required)\b", re.I)
ROLE_HEADING = re.compile(r"(LIEN\s*HOLDER|HOLDER|AGENCY|DECLARANT|OWNER|GRANTEE|BENEFICIARY)\s*:", re.I)
SNAP = 0.8  # an OCR'd name this similar to a name a text layer spells is that name
# restriction -> (vocabulary that names it, whether the sentence must prohibit (else a duty will do)).
VOCABULARY: dict[str, tuple[re.Pattern[str], ...]] = {
    "no-residential-use": (re.compile(r"\bresiden|\bdwelling|\bhousing", re.I),),
    "no-groundwater-extraction": (re.compile(r"groundwater|ground water|water supply well|\bwells?\b", re.I),
                                  re.compile(r"extract|withdraw|pump|drill|install|\bused?\b|drinking|potable", re.I)),
    "maintain-engineered-control": (re.compile(r"\bcap\b|cover|barrier|engineered control|pavement", re.I),
                                    re.compile(r"maintain|repair|inspect|not be disturbed", re.I)),
    "no-excavation-without-plan": (re.compile(r"excavat|disturb", re.I), re.compile(r"\bplan\b", re.I)),
    "vapor-mitigation-required": (re.compile(r"vapou?r|sub-slab|depressuri", re.I),
                                  re.compile(r"mitigat|depressuri|system", re.I)),
    "no-agricultural-use": (re.compile(r"agricultur|farm|crop|livestock", re.I),),
    "no-sensitive-use": (re.compile(r"school|day-?care|child care|playground|hospital", re.I),),
}
ADDS = re.compile(r"\b(added|adds|add|adding|inserted|insert|inserting|new limitation|supplement|additional)", re.I)
LIFTS = re.compile(r"\b(delet|struck|strike|remov|no longer|lifted|rescind)", re.I)
BLANK_NOTARY = (
    re.compile(r"before me\s+(on|this)\s*(_{2,}|by\b|,)", re.I),
    re.compile(r"\bby\s*_{2,}|\bby\s*,\s*(as|the|known|who)\b", re.I),
    re.compile(r"(expires|expiration)\s*:?\s*(_{2,}|$)", re.I),
    re.compile(r"appeared\s*(_{2,}|,)", re.I),
)
LIMITATION_TYPES = ("environmental-covenant", "activity-use-limitation", "deed-restriction", "environmental-lien",
                    "notice-of-contamination")
NO_RESTRICTIONS = ("environmental-lien", "notice-of-contamination")


@dataclass
class Reading:
    """What one instrument says, as read."""

    kind: str
    apns: list[str]
    reference: str | None
    text: str
    restrictions: set[str] = field(default_factory=set)
    holder: str = ""
    valid: bool = True
    cited: set[str] = field(default_factory=set)
    ocr: bool = False
    names: dict[str, str] = field(default_factory=dict)  # role heading -> the party named under it


def solve(case_input: Any, sources: Sources, variant: str, jitter: Jitter = None) -> Prediction:
    readings = [read_instrument(sources[path], jitter) for path in case_input.documents]
    snap_names(readings)
    return {"limitations": limitations(readings, case_input.parcel.apn)}


def snap_names(readings: list[Reading]) -> None:
    """A holder read by OCR takes the spelling of the same name in a text layer of the search."""
    spelled = {name for r in readings if not r.ocr for name in [r.holder, *r.names.values()] if name}
    for reading in readings:
        if reading.ocr and reading.holder and spelled:
            best = max(sorted(spelled), key=lambda name: SequenceMatcher(None, name.lower(), reading.holder.lower()).ratio())
            if SequenceMatcher(None, best.lower(), reading.holder.lower()).ratio() >= SNAP:
                reading.holder = best


def limitations(readings: list[Reading], subject_apn: str) -> list[dict[str, Any]]:
    """The current limitations on the subject parcel from the readings of its search."""
    references = {r.reference for r in readings if r.reference}
    for reading in readings:
        reading.cited = {ref for ref in cited_references(reading.text) if ref in references and ref != reading.reference}
    ours = [r for r in readings if not r.apns or any(same_apn(subject_apn, apn) for apn in r.apns)]
    by_reference = {r.reference: r for r in ours if r.kind in LIMITATION_TYPES and r.reference}
    removed: set[str] = set()
    for index, reading in enumerate(ours):
        if reading.kind not in ("termination", "lien-release", "amendment"):
            continue
        targets = reading.cited & set(by_reference) or earlier_target(reading, ours[:index], removed)
        if reading.kind == "amendment":
            added, lifted = amendment_changes(reading.text)
            for reference in targets:
                target = by_reference[reference]
                target.restrictions = (target.restrictions | added) - lifted
        else:
            removed |= targets
    out = []
    for reference, reading in by_reference.items():
        if reference in removed or not reading.valid:
            continue
        restrictions = [] if reading.kind in NO_RESTRICTIONS else sorted(reading.restrictions)
        out.append({"type": reading.kind, "restrictions": restrictions, "holder": reading.holder or "unknown",
                    "reference": reference})
    return out


def earlier_target(reading: Reading, earlier: list[Reading], removed: set[str]) -> set[str]:
    """The instrument a release, termination or amendment acts on when its citation cannot be
    read (OCR garbles numbers): the one earlier limitation of the kind it names, if only one."""
    if reading.kind == "lien-release":
        kinds = {"environmental-lien"}
    else:
        named = {kind for kind, word in (("environmental-covenant", "covenant"), ("deed-restriction", "restrict"),
                                         ("activity-use-limitation", "activity and use"))
                 if word in reading.text.lower()}
        kinds = named or {"environmental-covenant", "deed-restriction", "activity-use-limitation"}
    candidates = {r.reference for r in earlier if r.kind in kinds and r.reference and r.reference not in removed}
    return candidates if len(candidates) == 1 else set()


def read_instrument(path: Path, jitter: np.random.Generator | None = None) -> Reading:
    pages = pdftext.read_pdf(path, jitter=jitter, level=True)  # hand-fed archival scans tilt
    lines = [group_lines(page.words) for page in pages]
    texts = [normalize_space(line.text) for page_lines in lines for line in page_lines]
    stamp = stamp_lines(lines)
    body = " ".join(texts)
    kind = kind_of([normalize_space(line.text) for line in lines[0]] if lines else [])
    reading = Reading(kind=kind, apns=parcel_numbers(texts), reference=reference_of(stamp), text=body,
                      ocr=any(page.source == "ocr" for page in pages), names=role_names(texts))
    if kind in LIMITATION_TYPES:
        reading.restrictions = restrictions_in(body)
        reading.holder = holder_of(kind, body, texts) or reading.names.get("HOLDER", "")
        reading.valid = not (kind == "environmental-covenant" and any(p.search(t) for p in BLANK_NOTARY for t in texts))
    return reading


def kind_of(first_page: list[str]) -> str:
    """The instrument's kind from the capitalised lines (title, headings) of its first page."""
    caps = " ".join(t for t in first_page if sum(c.isupper() for c in t) >= 0.8 * max(1, sum(c.isalpha() for c in t)))
    caps = caps.upper()
    if re.search(r"\bAMEND|\bMODIFICATION\b|\bSUPPLEMENT", caps):
        return "amendment"
    if re.search(r"\bTERMINAT|\bRESCI|\bRELEASE OF (RESTRICT|DECLARATION|COVENANT|NOTICE|ENVIRONMENTAL COVENANT)", caps):
        return "termination"
    if re.search(r"\b(RELEASE|SATISFACTION|DISCHARGE)\b", caps) and re.search(r"\bLIEN\b", caps):
        return "lien-release"
    if re.search(r"\bRELEASE OF (MORTGAGE|DEED OF TRUST)", caps):
        return "other"
    if re.search(r"\bLIEN\b", caps):
        return "environmental-lien"
    if "ENVIRONMENTAL COVENANT" in caps:
        return "environmental-covenant"
    if re.search(r"ACTIVITY AND USE LIMITATION", caps):
        return "activity-use-limitation"
    if re.search(r"\bRESTRICT", caps):
        return "deed-restriction"
    if re.search(r"CONTAMINATION|HAZARDOUS", caps):
        return "notice-of-contamination"
    return "other"


# Letters OCR reads for digits: a parcel number's character matches either.
OCR_DIGITS = {"O": "0", "D": "0", "Q": "0", "I": "1", "L": "1", "Z": "2", "S": "5", "G": "6", "B": "8"}


def apn_key(text: str) -> str:
    return re.sub(r"[^A-Z0-9]", "", text.upper())


def same_apn(subject: str, found: str) -> bool:
    """The same parcel number, letters for digits forgiven where the subject has a digit."""
    a, b = apn_key(subject), apn_key(found)
    return len(a) == len(b) and all(x == y or (x.isdigit() and OCR_DIGITS.get(y) == x) for x, y in zip(a, b, strict=True))


def parcel_numbers(texts: list[str]) -> list[str]:
    own = [m.group(1) for t in texts if (m := PARCEL_LABEL.match(t))]
    if own:
        return own
    return [m.group(1) for t in texts for m in ANY_APN.finditer(t)]


def stamp_lines(lines: list[list[Line]]) -> set[str]:
    """The text of every line within reach of a clock time: the recorder's stamp."""
    found: set[str] = set()
    for page_lines in lines:
        for line in page_lines:
            if CLOCK.search(line.text):
                found |= {normalize_space(other.text) for other in page_lines
                          if -STAMP_ABOVE <= other.top - line.top <= STAMP_BELOW}
    return found


def reference_of(stamp: set[str]) -> str | None:
    numbers, pages = [], []
    for text in sorted(stamp):
        without = DATE.sub(" ", text)
        without = CLOCK.sub(" ", without)
        numbers += [m.group(1) for m in LONG_NUMBER.finditer(without)]
        pages += [f"{int(m.group(1))}/{int(m.group(2))}" for m in BOOK_PAGE.finditer(text)]
    if numbers:
        return str(int(re.sub(r"\D", "", max(numbers, key=len))))
    return pages[0] if pages else None


def cited_references(text: str) -> set[str]:
    out = {str(int(re.sub(r"\D", "", m.group(1)))) for m in LONG_NUMBER.finditer(text)}
    out |= {f"{int(m.group(1))}/{int(m.group(2))}" for m in BOOK_PAGE.finditer(text)}
    return out


def sentences(text: str) -> list[str]:
    # A period ends a sentence unless it ends an abbreviation or a number's part (No. 5, U.S.C.).
    return [s for s in re.split(r"(?<![A-Z]\.)(?<!\bNo)(?<=[.;])\s+(?=[A-Z(])", text) if s]


def restricts(sentence: str, name: str) -> bool:
    patterns = VOCABULARY[name]
    if not all(p.search(sentence) for p in patterns):
        return False
    return bool(PROHIBITION.search(sentence) or DUTY.search(sentence))


def restrictions_in(text: str) -> set[str]:
    found: set[str] = set()
    for sentence in sentences(text):
        found |= {name for name in VOCABULARY if restricts(sentence, name)}
    return found


def amendment_changes(text: str) -> tuple[set[str], set[str]]:
    """The restrictions an amendment adds and lifts. A sentence that restricts is added or lifted
    by its own verb; without one, by the verb of the sentence that introduced it ("The following
    restriction is added." then the restriction on its own), which governs the restricting
    sentences after it until a sentence that neither restricts nor changes anything."""
    added: set[str] = set()
    lifted: set[str] = set()
    introduced: set[str] | None = None  # where an introducing sentence's verb puts what follows
    for sentence in sentences(text):
        names = {name for name in VOCABULARY if restricts(sentence, name)}
        verb = lifted if LIFTS.search(sentence) else added if ADDS.search(sentence) else None
        if names:
            target = verb if verb is not None else introduced
            if target is not None:
                target |= names
        else:
            introduced = verb
    return added, lifted


def clean_name(name: str) -> str:
    name = name.strip(" ,.")
    name = re.sub(r"^(the|The)\s+", "", name)
    return re.sub(r"\s+(Owner|Declarant)$", "", name)


def role_names(texts: list[str]) -> dict[str, str]:
    """The party named on the line under each role heading of the signature blocks (HOLDER:)."""
    names: dict[str, str] = {}
    for index, text in enumerate(texts[:-1]):
        match = ROLE_HEADING.fullmatch(text.strip())
        if match:
            names.setdefault(re.sub(r"\s+", "", match.group(1).upper()), clean_name(texts[index + 1]))
    return names


def holder_of(kind: str, body: str, texts: list[str]) -> str:
    if kind == "environmental-lien":
        for index, text in enumerate(texts[:-1]):
            if re.fullmatch(r"LIEN\s*HOLDER\s*:?", text, re.I):
                return clean_name(texts[index + 1])
        patterns = LIEN_PATTERNS + BENEFIT_PATTERNS
    elif kind == "environmental-covenant":
        patterns = HOLDER_PATTERNS + BENEFIT_PATTERNS
    else:
        patterns = BENEFIT_PATTERNS + HOLDER_PATTERNS
    for pattern in patterns:
        match = pattern.search(body)
        if match:
            return clean_name(match.group(1))
    return ""
