"""Reference solver for `chain-of-title`: the ownership periods of a parcel, from its title packet.

Every page is read with `pdftext` (its text layer, or OCR of a scanned page read level, `level=True`). The packet is cut
into instruments where a page opens one: a document title in capitals naming a deed, mortgage,
trust or easement in the page's upper half, or a "return to" block at its top. Pages before the
first instrument are the abstractor's cover, which is not read: an index may leave an instrument
out or mistype a reference, so the instruments themselves decide.

Each instrument is read as a title examiner reads it:

- *recording*: the stamp is the clock time (`10:42 AM`, `14:07`) with the lines near it; its
  date is the recording date and its reference the long number (the instrument number) or,
  failing one, the book and page. References cited in the body (a plat, the deed a corrective
  deed corrects) carry no clock time and are not taken.
- *kind*, from the title and body: a corrective (or correction) deed; a sheriff's or trustee's
  deed; a mortgage or deed of trust (security, no conveyance); an easement; else a deed.
- *parties*: the grantor and grantee as the body tags them: `X, Grantor`, `X ("Grantor")`,
  `between X, as grantor, and Y, as grantee`, `to Y, Grantee`, or labels (`Grantor: X`).
- *parcel*: the lot, block and plat of the body's legal description against the subject's
  ("Tax Lot 7" is an assessor's lot, not "Lot 7, Block 3"); with no platted lot in the body, the
  subject's APN anywhere in the instrument. A caption listing APNs does not decide what a body
  conveys.

The chain: the subject parcel's conveyances (deeds, not corrective, not security, not easements)
in recording order; the first starts the first period; a later one starts a period when its
grantor is the owner of record (names compared after normalisation, with "formerly known as"
and "successor by merger to" read as the same owner), or when it is a sheriff's or trustee's
deed that names the owner of record (a foreclosure sale of the owner's title). Any other deed of
the parcel is wild and starts nothing. Each period runs from its deed's recording date to the
next period's.

Variants: `v1` (the default; `default` is its alias) as above; `baseline` keeps every deed of the
subject parcel in recording order, corrective and wild ones included (it reads parcels but not
the chain).

Weaknesses: OCR misreads names and numbers on scans (a period with a misspelt grantee or a
garbled reference is not exact, and a grantor OCR garbles beyond recognition makes the next deed
look wild); a deed whose parties are not tagged with the words Grantor and Grantee is not
understood; a subject described only by metes and bounds is found by its APN alone.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from .. import pdftext
from ..layout import Line, group_lines, normalize_space
from ..serves import Jitter, Prediction, Serves, Sources

SERVES = Serves("chain-of-title", variants=("baseline", "v1"))

STAMP_REACH = 80.0  # points: the lines of one recording stamp lie this close to its clock time
NAME_SIMILARITY = 0.84  # normalised names this alike are one name (OCR drops or swaps a letter)
OCR_SIMILARITY = 0.6  # where OCR read a name, this alike is enough
NAME_WINDOW = 160  # characters before a party tag searched for the party's name

TITLE_WORDS = re.compile(r"\b(DE\wD|MORTGAGE|TRUST|EASEMENT|CONVEYANCE)\b")
RETURN_TO = re.compile(r"\bret\w{2,3}\s+to\b", re.I)  # OCR reads "return" as "retum", "returr"
# Page furniture numbering an instrument's first page: "Page 1 of 3", "- 1 -", "[1/3]".
FIRST_PAGE = re.compile(r"\bpage\s+1\s+\w{2}\s+\d+\b|^-\s*1\s*-$|^\[\s*1\s*/\s*\d+\s*\]$", re.I)
CLOCK = re.compile(r"\b([01]?\d|2[0-3]):[0-5]\d(:[0-5]\d)?\s*([AaPp]\.?[Mm]\.?)?")
MONTHS = "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec"
DATE = re.compile(
    rf"(?P<mdy>\d{{1,2}}/\d{{1,2}}/\d{{4}})|(?P<iso>\d{{4}}-\d{{2}}-\d{{2}})|"
    rf"(?P<long>(?:{MONTHS})[a-z]*\.?\s+\d{{1,2}},?\s+\d{{4}})|(?P<dmy>\d{{1,2}}\s+(?:{MONTHS})[a-z]*\.?\s+\d{{4}})",
    re.I,
)
BOOK_PAGE = re.compile(r"\b(?:book|bk|vol(?:ume)?|liber)\.?\s*(\d{1,5})\s*,?\s*(?:page|pg|p)\.?\s*(\d{1,5})\b", re.I)
LONG_NUMBER = re.compile(r"(?<![\d$,.])(\d{4}-\d{4,}|\d{5,})(?![\d,.])")
SPLIT_NUMBER = re.compile(r"(?<![\d-])(\d{1,4}) (\d{5,})\b")
FEE = re.compile(r"\$?\s*\d+\.\d{2}\b")
PAGES_NOTE = re.compile(r"\bpages\s*:?\s*\d+|\bpage\s+\d+\s+of\s+\d+", re.I)  # "Pages: 2", "Page 1 of 2"

TAG_OPEN = r"(?:[,.]\s*(?:as\s+)?|\s*\(\s*(?:the\s+)?\W{0,2})"
# The party words as OCR may leave them ("Grantot", "Graatee"): the letters that survive.
GRANTOR_TAG = re.compile(TAG_OPEN + r"gr\w{2}t[o0]\w\b", re.I)
GRANTEE_TAG = re.compile(TAG_OPEN + r"gr\w{2}te[e]\b", re.I)
GRANTOR_START = re.compile(r"\b(?:that|between)\s+|[;:]\s+|\b[A-Z][A-Z'’]+(?:\s+[A-Z][A-Z'’]+)+\s+(?=[A-Z][a-z])")
GRANTEE_START = re.compile(r"\b(?:to|unto|and)\s+", re.I)
LABEL = re.compile(r"^(grantor|grantee)\s*:\s*(\S.*)$", re.I)
NEXT_LABEL = re.compile(r"\.?\s+(?:grantee\s*:|[A-Z][a-z]+\s*:\s)", re.I)
SUCCESSION = re.compile(r",?\s*\b(?:formerly\s+known\s+as|f/k/a|fka|successor\s+by\s+merger\s+to)\s+", re.I)
PLAT_LOT = re.compile(
    r"(?<!tax\s)\blot\s+(\d{1,4})\s*[,.]?\s*block\s+(\d{1,4})\s*[,.]?\s*"
    r"([A-Z0-9][A-Za-z0-9 '&-]+?)(?=[,.;]|\s+according|\s+as\s+|$)",
    re.I,
)
CORRECTIVE = re.compile(r"\bcorrect(?:ive|ion|s|ing)?\b|\bnot\s+a\s+new\s+conveyance\b|\bre-?record", re.I)


@dataclass
class Read:
    """What one instrument of the packet says."""

    first_page: int
    title: str
    kind: str  # deed, corrective, foreclosure, security, easement
    recorded: dt.date | None
    reference: str
    grantor: str
    grantee: str
    text: str
    subject: bool
    scanned: bool  # read by OCR: its names may be misspelt


def solve(case_input: Any, sources: Sources, variant: str, jitter: Jitter = None) -> Prediction:
    pages = pdftext.read_pdf(sources[case_input.packet], jitter=jitter, level=True)  # hand-fed archival scans tilt
    lines = [group_lines(page.words) for page in pages]
    reads = [read_instrument(pages, lines, first, last, case_input) for first, last in split_instruments(pages, lines)]
    deeds = [r for r in reads if r.subject and r.kind in ("deed", "corrective", "foreclosure") and r.recorded]
    deeds.sort(key=lambda r: (r.recorded, r.first_page))
    chain = deeds if variant == "baseline" else build_chain(deeds)
    periods = []
    for index, deed in enumerate(chain):
        following = chain[index + 1].recorded if index + 1 < len(chain) else None
        periods.append(
            {
                "grantee": deed.grantee or "unknown",
                "from_date": deed.recorded.isoformat(),
                "to_date": following.isoformat() if following else None,
                "instrument": deed.reference or "unknown",
            }
        )
    return {"periods": periods}


# -- cutting the packet --------------------------------------------------------------------------


def split_instruments(pages: list[pdftext.PageText], lines: list[list[Line]]) -> list[tuple[int, int]]:
    """(first, last) 0-based pages of each instrument; pages before the first are the cover."""
    starts = [index for index, page in enumerate(pages) if opens_instrument(page, lines[index])]
    return [(start, (starts[i + 1] - 1) if i + 1 < len(starts) else len(pages) - 1) for i, start in enumerate(starts)]


def opens_instrument(page: pdftext.PageText, page_lines: list[Line]) -> bool:
    for line in page_lines:
        if line.top > page.height * 0.5:
            break
        text = normalize_space(line.text)
        if title_line(text):
            return True
        if line.top < page.height * 0.25 and RETURN_TO.search(text):
            return True
    return any(FIRST_PAGE.search(normalize_space(line.text)) for line in page_lines)


def title_line(text: str) -> bool:
    """A document title: a short line in capitals naming the kind of instrument."""
    letters = [c for c in text if c.isalpha()]
    return (
        3 <= len(text) <= 60
        and len(letters) >= 4
        and sum(c.isupper() for c in letters) >= 0.9 * len(letters)
        and bool(TITLE_WORDS.search(text))
        and not re.search(r"\d{3,}", text)
    )


# -- reading one instrument ----------------------------------------------------------------------


def read_instrument(
    pages: list[pdftext.PageText], lines: list[list[Line]], first: int, last: int, case_input: Any
) -> Read:
    page_lines = [normalize_space(line.text) for index in range(first, last + 1) for line in lines[index]]
    text = " ".join(page_lines)
    title = next((t for t in page_lines if title_line(t)), "")
    recorded, reference = recording(lines[first : last + 1])
    grantor, grantee = labelled_parties(page_lines) or parties(text)
    scanned = any(page.source == "ocr" for page in pages[first : last + 1])
    return Read(
        first,
        title,
        kind_of(title, text),
        recorded,
        reference,
        grantor,
        grantee,
        text,
        is_subject(text, case_input),
        scanned,
    )


def kind_of(title: str, text: str) -> str:
    upper = title.upper()
    if "MORTGAGE" in upper or "OF TRUST" in upper:
        return "security"
    if "EASEMENT" in upper:
        return "easement"
    if "CORRECT" in upper or CORRECTIVE.search(text):
        return "corrective"
    if re.search(r"SHERIFF|TRUSTEE", upper):
        return "foreclosure"
    return "deed"


def recording(pages: list[list[Line]]) -> tuple[dt.date | None, str]:
    """The recording date and reference from the first stamp: a clock time and the lines near it."""
    for page_lines in pages:
        for line in page_lines:
            if not CLOCK.search(line.text):
                continue
            near = [normalize_space(other.text) for other in page_lines if abs(other.top - line.top) <= STAMP_REACH]
            stamp_text = " ".join(near)
            date_match = DATE.search(normalize_space(line.text)) or DATE.search(stamp_text)
            if not date_match:
                continue
            when = parse_date(date_match)
            rest = PAGES_NOTE.sub(" ", CLOCK.sub(" ", DATE.sub(" ", stamp_text)))
            book_page = BOOK_PAGE.search(rest)
            # OCR splits a long number at a space ("AFN 201 10004821"): a short group is rejoined
            # to the long one it precedes.
            number = LONG_NUMBER.search(SPLIT_NUMBER.sub(r"\1\2", FEE.sub(" ", BOOK_PAGE.sub(" ", rest))))
            if number:
                return when, number.group(1)
            if book_page:
                return when, f"Book {book_page.group(1)} Page {book_page.group(2)}"
    return None, ""


def parse_date(match: re.Match[str]) -> dt.date | None:
    text = re.sub(r"\s+", " ", match.group(0).replace(",", " ").replace(".", " ")).strip()
    forms = {
        "mdy": ("%m/%d/%Y",),
        "iso": ("%Y-%m-%d",),
        "long": ("%B %d %Y", "%b %d %Y"),
        "dmy": ("%d %b %Y", "%d %B %Y"),
    }
    for kind, patterns in forms.items():
        if match.group(kind):
            for pattern in patterns:
                try:
                    return dt.datetime.strptime(text, pattern).date()
                except ValueError:
                    continue
    return None


def labelled_parties(page_lines: list[str]) -> tuple[str, str] | None:
    """Parties given as labels at the start of lines ("Grantor: X" and "Grantee: Y", on lines of
    their own or run together); None without both. A label alone on its line heads a signature
    block, not the parties."""
    found: dict[str, str] = {}
    for index, text in enumerate(page_lines):
        match = LABEL.match(text)
        if not match or match.group(1).lower() in found:
            continue
        value = match.group(2)
        if index + 1 < len(page_lines) and not LABEL.match(page_lines[index + 1]):
            value = f"{value} {page_lines[index + 1]}"  # a run-on label line may wrap
        cut = NEXT_LABEL.search(value)
        if (
            match.group(1).lower() == "grantor"
            and cut
            and value[cut.start() :].lstrip(". ").lower().startswith("grantee")
        ):
            found["grantor"] = clean_name(value[: cut.start()])
            rest = value[cut.start() :].lstrip(". ")
            inner = NEXT_LABEL.search(rest[len("grantee:") :])
            found["grantee"] = clean_name(
                rest[rest.index(":") + 1 : len("grantee:") + inner.start() if inner else None]
            )
        else:
            found[match.group(1).lower()] = clean_name(value[: cut.start()] if cut else match.group(2))
    if found.get("grantor") and found.get("grantee"):
        return found["grantor"], found["grantee"]
    return None


def parties(text: str) -> tuple[str, str]:
    """(grantor, grantee) as the body tags them; "" where not found."""
    return tagged(text, GRANTOR_TAG, GRANTOR_START), tagged(text, GRANTEE_TAG, GRANTEE_START)


def tagged(text: str, tag: re.Pattern[str], start: re.Pattern[str]) -> str:
    """The name just before the first `tag`, from the last `start` before it."""
    for match in tag.finditer(text):
        window = text[max(0, match.start() - NAME_WINDOW) : match.start()]
        starts = list(start.finditer(window))
        if not starts:
            continue
        name = clean_name(window[starts[-1].end() :])
        if name:
            return name
    return ""


def clean_name(text: str) -> str:
    return text.strip().strip(",;:.\"“”'( ").strip() if text else ""


def name_key(name: str) -> str:
    text = name.casefold().replace("&", " and ")
    words = re.sub(r"[^\w\s]", " ", text).split()
    return " ".join(words[1:] if words[:1] == ["the"] else words)


def similarity(a: str, b: str) -> float:
    a, b = name_key(a), name_key(b)
    if not (a and b):
        return 0.0
    return 1.0 if a == b else SequenceMatcher(None, a, b).ratio()


def same_name(a: str, b: str, threshold: float = NAME_SIMILARITY) -> bool:
    return similarity(a, b) >= threshold


def names_of(grantor: str) -> list[str]:
    """The grantor's names: itself and any former name or merged predecessor it recites."""
    return [part for part in SUCCESSION.split(grantor) if part.strip()]


def compact(text: str) -> str:
    return re.sub(r"[^0-9A-Za-z]", "", text).upper()


def is_subject(text: str, case_input: Any) -> bool:
    """Does the body's legal description (or, without a platted lot, the APN) name the subject?"""
    wanted = PLAT_LOT.search(case_input.parcel)
    lots = list(PLAT_LOT.finditer(text))
    if wanted and lots:
        return any(
            lot.group(1) == wanted.group(1)
            and lot.group(2) == wanted.group(2)
            and SequenceMatcher(None, compact(lot.group(3)), compact(wanted.group(3))).ratio() >= 0.8
            for lot in lots
        )
    return compact(case_input.apn) in compact(text)


# -- the chain -----------------------------------------------------------------------------------


def build_chain(deeds: list[Read]) -> list[Read]:
    """The deeds that convey the owner of record's title, in recording order."""
    conveyances = [deed for deed in deeds if deed.kind != "corrective"]
    chain: list[Read] = []
    for index, deed in enumerate(conveyances):
        if not chain:
            chain.append(deed)
            continue
        owner = chain[-1]
        if conveys_from(deed, owner, conveyances[index + 1 :]):
            chain.append(deed)
    return chain


def conveys_from(deed: Read, owner_deed: Read, later: list[Read]) -> bool:
    """Is `deed` a conveyance by the owner of record (the grantee of `owner_deed`)?

    Yes when its grantor is the owner (or recites the owner as its former name or merged
    predecessor), or it is a sheriff's or trustee's deed naming the owner. Where OCR read
    either name, a looser likeness is enough, and so is a chain that goes on from this deed's
    grantee (a later deed's grantor or the owner a later foreclosure sold out): a wild deed's
    grantee conveys nothing on record, while a deed between owners the copy does not let us
    read (an illegible scan) leaves the chain going on from a later grantor."""
    owner = owner_deed.grantee
    grantors = names_of(deed.grantor)
    if any(same_name(name, owner) for name in grantors):
        return True
    if deed.kind == "foreclosure" and owner and foreclosed(owner, deed.text):
        return True
    if (deed.scanned or owner_deed.scanned) and any(same_name(name, owner, OCR_SIMILARITY) for name in grantors):
        return True
    return bool(deed.grantee) and any(
        any(same_name(name, deed.grantee) for name in names_of(other.grantor))
        or (other.kind == "foreclosure" and foreclosed(deed.grantee, other.text))
        for other in later
    )


def foreclosed(owner: str, text: str) -> bool:
    """Does the deed's text name `owner` (as the mortgagor or trustor whose title was sold)?"""
    key, body = name_key(owner), name_key(text)
    if key and key in body:
        return True
    words = body.split()
    size = len(key.split())
    return any(same_name(" ".join(words[i : i + size]), owner) for i in range(max(0, len(words) - size + 1)))
