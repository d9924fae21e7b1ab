"""Reference solver for `indemnity-terms`: the environmental indemnity's terms, read by rules.

Every page is read with `pdftext` (its text layer, or OCR of a scanned page read level, `level=True`); the lines are
joined into one text and cut into sentences. The terms follow the reading a lawyer makes:

1. *Parties*: every defined-term parenthetical (`("Seller")`, `(the "Purchaser")`; its first
   letter in either case, as OCR may lower it) names the party written before it (its "a
   Delaware corporation" description dropped). The indemnity is the sentence that indemnifies
   ("indemnify", "hold ... harmless", or "shall be indemnified ... by") against something
   environmental (Hazardous, environmental, contamination, Release, Remediation, condition), not
   an indemnity for brokers' commissions or for entry onto the property. Its subject is the
   indemnitor, the party held harmless the indemnitee; a defined term is resolved to the party's
   name. *The reader never names a party it did not find*: a party is named only when its term
   resolves to a party the contract defines, or is itself the name of one; otherwise it is null
   (not found), never "unknown" or the bare term ("Indemnitee"), which would name someone the
   contract does not protect. A defined term defines a party only when the words before it read
   as a name (capitalised words, not "Sale Agreement dated ..."). On a scanned copy a name is
   found only when each of its words (an entity suffix apart, its one-letter slip mended) is
   spelled the same in two places of the text, as a contract writes each party's name in its
   caption and its signature block; a word read once is an OCR slip the reader cannot undo, and
   the party is null.
2. *Scope*, from the indemnity sentence, or from a "notwithstanding" sentence that limits it
   (the override decides): a schedule named -> scheduled matters; a breach, inaccuracy or untrue
   representation or warranty -> breach of representations; a condition arising whenever (before
   or after the closing, regardless of when; a discovery "before or after" does not count) ->
   all liabilities; otherwise pre-closing conditions.
3. *Amounts*, from sentences that refer to the indemnity (its section or article, "hereunder",
   "thereunder") or sit in its article: a cap (exceed, limited to, capped, maximum) that no
   "shall not apply" removes, a dollar figure, a percentage of the purchase price (converted
   with the stated price) or a defined term ("as defined in Section 1.1") looked up in the
   definitions; a basket (until, unless, once, if or to the extent aggregate losses exceed; the
   first amount borne), tipping when paid from the first dollar (the full or entire amount, all
   losses, not merely the excess), else a deductible; a de minimis (a single or individual claim
   or item below an amount).
4. *Survival*: a sentence of the indemnity's article or naming its section that survives,
   expires, must be asserted within, or ends on an anniversary (months, years, an ordinal
   anniversary; a period in words where OCR garbled its figure, "one (t) years"; indefinitely,
   perpetually or with no limit in time -> unlimited); a general
   survival clause or one of another article is not taken. The end date is the closing date (a
   date beside "Closing Date") plus the months.
5. *Exclusions*: testing (Phase II, invasive, intrusive, sampling, drilling) initiated by or at
   the request of the other party; a change or conversion of use to residential; a notice within
   so many days on pain of no liability or waiver (a notice whose failure "shall not relieve"
   is none); a remedy to risk-based, least stringent, commercial or industrial standards, or with
   institutional, engineering or deed controls.
6. *Executed* (the shared readers in `envirobench_reference_adapter.execution`): a draft marker,
   a bracketed or underscored blank, or a blank signature line -> not executed; recording data,
   or every signature line signed or conformed -> executed; no signature line found -> not
   executed (saying executed wrongly costs five contracts).
7. *No indemnity found* (no sentence indemnifies against anything environmental): both parties
   null and the narrowest terms, which claim no protection (NARROWEST: scheduled matters only, a
   cap of $0, a deductible and a de minimis no claim reaches, every carve-out, a survival of one
   month ending before the date the contract is read on), so that a contract the reader cannot
   read is never read as protecting anyone.
8. *The careful reading*: a contract is exact only when every term is right, and a term read
   wider than it is costs five contracts, so the reader names the terms only when it has no doubt
   about them and claims no protection otherwise (step 7's answer, and not executed: a reader in
   doubt cannot earn the contract, so it risks nothing on it). Its doubts: a party not found
   (step 1), a scope stated in none of the words of step 2 (not even "before the Closing"), a
   survival period it cannot read or that has no closing date to run from, and a sentence of the
   indemnity's article, or naming its section, that bears a sign of a limit (a dollar figure, a
   percentage, a period of months or years, "notwithstanding", "no liability", "not liable",
   "except", "excluding", "provided that", "only", "in no event", "shall not apply") that no rule
   of steps 2-5 read (a sentence continuing after a semicolon one a rule read counts as read; so
   do a notice clause that forfeits nothing and a statement that the indemnity has no limit of
   amount). The rules' defaults (pre-closing conditions, no cap, no basket, no carve-out, survival
   without limit) are the widest readings, so a limit written in words the rules do not know
   would otherwise be read as no limit at all. `read_all` gives the rules' reading and the
   doubts; `read_terms` the careful reading.

Variants: `v1` (the default). Weaknesses: OCR garbles figures and words on scans (a "$750.000"
is read as thousands, but a missing digit is not recovered); a section reference OCR misreads
ties a sentence to no article; scope words outside the vocabulary above fall to pre-closing
conditions; only the first indemnity sentence that looks environmental is read.

Length: one reader of one contract, its steps in the order above; the rules of each term read the
same sentences and defined parties, and OCR mending serves them all.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from .. import pdftext
from ..execution import CONFORMED, DRAFT_MARKER, fill_in_blank, recording_data, signature_lines
from ..layout import group_lines, normalize_space
from ..serves import Jitter, Prediction, Serves, Sources

SERVES = Serves("indemnity-terms")

PAGE_NUMBER = re.compile(r"(?:page\s*)?[-\[(]?\s*\d{1,3}\s*(?:(?:of|/)\s*\d{1,3})?\s*[-\])]?", re.I)
MONTHS = {name.lower(): index for index, name in enumerate(calendar.month_name) if name}
ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
            "ninth": 9, "tenth": 10}
# Abbreviations whose period ends no sentence.
ABBREVIATIONS = re.compile(r"\b(Inc|Corp|Co|Ltd|L\.L\.C|L\.P|N\.A|U\.S\.C|U\.S|seq|No|Nos|St|P\.C|etc|i\.e|e\.g|Mr|Ms|Dr)\.", re.I)
SENTENCE_END = re.compile(r"(?<=[.;:])\s+(?=[\"\u201c(\[]?[A-Z0-9])")
DEFINED = re.compile(r"\(\s*(?:the\s+|hereinafter\s+)?[\"\u201c\u201d*]([A-Za-z][A-Za-z ]{1,40}?)[\"\u201c\u201d*]\s*[)}]")
DESCRIPTION = re.compile(r",?\s+(?:a|an)\s+[A-Z][a-z]+\s+(?:[a-z]+\s+){0,3}(?:company|corporation|partnership|trust|association)\s*$")
PARTY_START = re.compile(r"(?:\bbetween\b|\bby\b|\band\b|\bin favor of\b|\bWHEREAS\b,?|\bof\b|^)\s*", re.I)
# OCR reads a dollar sign as "S" now and then.
AMOUNT = re.compile(r"(?:\$|\bS(?=\s?\d))\s?(\d{1,3}(?:[,.]\s?\d{3})+|\d+)(?!\d)(?![,.]\d)")
ENVIRONMENTAL = re.compile(r"hazardous|environmental|contaminat|release|remediat|pollut", re.I)
INDEMNIFIES = re.compile(r"indemnif|hold\w*\s+(?:\w+\s+){0,3}harmless|save\s+harmless", re.I)
NOT_ENVIRONMENTAL = re.compile(r"broker|commission|\bentry\b|\benter\b|damage to persons", re.I)
ACTIVE = re.compile(r"([A-Z][A-Za-z]+(?:\s[A-Z][A-Za-z]+)?)\s+(?:shall|hereby|agrees|will|covenants)\b[^.]{0,40}?"
                    r"(?:indemnif|protect|defend)")
PASSIVE = re.compile(r"([A-Z][A-Za-z]+(?:\s[A-Z][A-Za-z]+)?)\s+shall\s+be\s+indemnified[^.]*?\bby\s+([A-Z][A-Za-z]+(?:\s[A-Z][A-Za-z]+)?)")
HELD = re.compile(r"(?:harmless|indemnify(?:,\s*defend)?(?:\s+and)?)\s+([A-Z][A-Za-z]+(?:\s[A-Z][A-Za-z]+)?)|hold\s+([A-Z][A-Za-z]+(?:\s[A-Z][A-Za-z]+)?)\s+harmless")
NON_PARTY_WORDS = {"From", "Against", "And", "Any", "All", "The", "Its", "Such", "Losses", "Section", "Article"}
# A word of a name: capitalised (or a number, "&", an initial), or a connector a name may hold.
NAME_WORD = re.compile(r"[A-Z0-9&][\w&.,'\-]*|of|and|the|for|de|du|van|von|der|la|le")
# Entity suffixes, for mending OCR's one-letter slips in the last word of a name ("Ine." for "Inc.").
ENTITY_SUFFIXES = ("Inc", "Corp", "Ltd", "LLC", "LLP", "Co")

SCHEDULED = re.compile(r"\bSchedule\b|\bScheduled\b|\bExhibit [A-Z]\b", re.I)
BREACH = re.compile(r"\bbreach|inaccura|untrue|misrepresent", re.I)
WHENEVER = re.compile(r"regardless of when|whenever|(?:arising|existing|existed|arose)\b[^.;]{0,30}?\b(?:before|prior to)\b[^.;]{0,20}?\bafter\b", re.I)
DISCOVERY = re.compile(r"discovered\s+(?:before|prior to)\s+or\s+after", re.I)
NOTWITHSTANDING = re.compile(r"notwithstanding", re.I)
LIMITING = re.compile(r"limited to|solely|only for|only to", re.I)

CAP = re.compile(r"in no event|limited to|capped|maximum|ceiling|not\s+(?:in the aggregate\s+)?exceed", re.I)
NOT_APPLY = re.compile(r"not\s+(?:limit\s+or\s+)?apply|shall not limit", re.I)
PERCENT = re.compile(r"(\d{1,3})\s*(?:%|percent|per cent)\)?\s*of\s+the\s+Purchase\s+Price", re.I)
AS_DEFINED = re.compile(r"the\s+([A-Z][A-Za-z]+(?:\s[A-Z][A-Za-z]+){0,3})\s*\(as defined", re.I)
BASKET = re.compile(r"\buntil\b|\bunless\b|\bonce\b|\bif the aggregate|to the extent\b[^.]{0,20}\baggregate|bear the first", re.I)
TIPPING = re.compile(r"first dollar|full amount|entire amount|including the first|not merely the excess|all such|"
                     r"including the [A-Z]\w+ Amount|whereupon all", re.I)
DE_MINIMIS = re.compile(r"(?:less than|below)\b[^.;$]{0,60}\$", re.I)
SINGLE = re.compile(r"individual|single|de minimis|series of related|items? of", re.I)

SURVIVES = re.compile(r"surviv|expire|anniversary|asserted within|shall terminate", re.I)
UNLIMITED = re.compile(r"indefinite|perpetu|(?:without|no)\s+(?:any\s+)?limit\w*\s+(?:as to|in)\s+time", re.I)
GENERAL = re.compile(r"except as otherwise|save as otherwise|representations, warranties and indemnities", re.I)
NUMBER_MONTHS = re.compile(r"(\d{1,3})\)?\s*months", re.I)
NUMBER_YEARS = re.compile(r"(\d{1,2})\)?\s*years", re.I)
# A period in words with its figure in parentheses, the figure OCR garbled ("one (t) years"): the words decide.
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                "ten": 10, "eleven": 11, "twelve": 12, "eighteen": 18, "twenty-four": 24, "thirty": 30,
                "thirty-six": 36, "forty-eight": 48, "sixty": 60}
WORDS_PERIOD = re.compile(r"\b(" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")\s*\(\s*\S{1,3}\s*\)\s*(years?|months?)",
                          re.I)
ANNIVERSARY = re.compile(r"\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)\s+anniversary", re.I)
# A written date; its month is matched loosely (OCR: "Aprit 2. 2021") and resolved in parse_date.
DATE_TEXT = re.compile(r"\b([A-Z][a-z]{2,8})\s+(\d{1,2})[,.]?\s+((?:19|20)\d{2})\b")

# Step 8, the careful reading: the signs of a sentence that limits the protection. A sentence of the
# indemnity's article bearing one that no rule read leaves the reader in doubt.
LIMIT_SIGN = re.compile(r"\$\s?\d|\d\s*(?:%|percent\b|per cent\b)|\b\d+\)?\s*(?:months?|years?)\b|anniversary|notwithstanding|"
                        r"\bno\s+(?:liability|obligation|responsibility)|\bnot\s+(?:be\s+)?(?:liable|responsible|obligated|required)|"
                        r"\bexclud|\bexcept\b|\bother than\b|\bprovided,?\s+(?:however|that)\b|\bonly\b|\bsolely\b|"
                        r"\bin no event\b|\bshall not (?:apply|extend|include|cover)\b", re.I)
# An explicit statement that the indemnity has no limit of amount.
NO_LIMIT = re.compile(r"\bnot\s+(?:be\s+)?subject\s+to\s+any\s+(?:limit|cap)|\bwithout\s+(?:any\s+)?(?:limit|cap)\w*\s+as\s+to\s+amount|"
                      r"\buncapped\b|\bno\s+(?:limit|cap)\s+(?:on|as to)\s+(?:the\s+)?amount", re.I)
PRE_CLOSING = re.compile(r"\b(?:before|prior to|on or before|as of|existing at)\s+(?:the\s+)?Closing", re.I)
PERIOD = re.compile(r"\d+\)?\s*(?:months?|years?)|anniversary|\b(?:" + "|".join(NUMBER_WORDS) + r")\s*\(", re.I)

TESTING = re.compile(r"phase\s+i[il1]\b|invasive|intrusive|sampling|drilling", re.I)
INITIATED = re.compile(r"initiated|undertaken|at the request|conducted by|commissioned", re.I)
RESIDENTIAL = re.compile(r"(?<!non-)(?<!non)\bresidential", re.I)
CHANGE_OF_USE = re.compile(r"\bchange|\bconver", re.I)
NOTICE = re.compile(r"notice", re.I)
DEADLINE = re.compile(r"within\s+\S*\s*\(?\d+\)?\s+days|\b\d+\s*(?:st|nd|rd|th)?\s+day\b", re.I)
FORFEIT = re.compile(r"no liability|waived|not be liable|barred|forfeit|unless", re.I)
EXCUSED = re.compile(r"not relieve|not release|except to the extent", re.I)
RISK_BASED = re.compile(r"risk[- ]based|least stringent|institutional control|engineering control|commercial or industrial|"
                        r"deed restriction", re.I)


# The words the rules read, for mending OCR's one-letter slips ("harméess", "lumited", "iniliated").
VOCABULARY_WORDS = """
    indemnify indemnified indemnification indemnity indemnities agreement harmless defend protect limited limitation liability liabilities aggregate
    exceed exceeds exceeding initiated undertaken residential conversion change survive survives survival expire
    expires anniversary months years notice within waived relieve release schedule scheduled breach inaccuracy untrue
    misrepresentation representation representations warranty warranties regardless whenever invasive intrusive
    sampling drilling testing stringent institutional engineering commercial industrial restrictions percent purchase
    price closing notwithstanding excess dollar entire amount including capped maximum ceiling deductible threshold
    individual single claims losses hazardous environmental contamination remediation indefinitely obligations
    obligation hereunder thereunder seller buyer purchaser vendor indemnitor indemnitee whereupon liable payable
    responsible disregarded excluded discovered existing arising request conducted governmental
"""
VOCABULARY = frozenset(VOCABULARY_WORDS.split())


def solve(case_input: Any, sources: Sources, variant: str, jitter: Jitter = None) -> Prediction:
    path = sources[case_input.document]
    pages = pdftext.read_pdf(path, jitter=jitter, level=True)  # hand-fed archival scans tilt
    lines = [group_lines(page.words) for page in pages]
    text = " ".join(
        mend(normalize_space(line.text)) if page.source == "ocr" else normalize_space(line.text)
        for page, page_lines in zip(pages, lines, strict=True)
        for line in page_lines
        if not PAGE_NUMBER.fullmatch(normalize_space(line.text))  # a footer would split the sentence it interrupts
    )
    as_of = dt.date.fromisoformat(case_input.as_of)
    terms, doubts = read_all(text, as_of)
    if any(page.source == "ocr" for page in pages):
        for role in ("indemnitor", "indemnitee"):
            if terms[role] is not None:
                name = consensus(terms[role], text)
                # A name OCR may have garbled is not a party found: null (a wrong indemnitee overstates).
                terms[role] = name if confirmed(name, text) else None
    if terms["indemnitor"] is None or terms["indemnitee"] is None:
        doubts.append("a party not found")
    if doubts:
        # A contract the reader is in doubt about cannot be exact, so it claims nothing: not even that
        # the copy binds (a draft read as binding would overstate, and being right would earn nothing).
        return {**not_found(text, as_of), "executed": False}
    terms["executed"] = executed(lines, signature_lines(path, pages))
    return terms


# -- text -----------------------------------------------------------------------------------------


def one_slip(word: str, known: str) -> bool:
    """Is `word` one substitution, insertion or deletion away from `known`?"""
    if abs(len(word) - len(known)) > 1:
        return False
    if len(word) == len(known):
        return sum(a != b for a, b in zip(word, known, strict=True)) == 1
    short, long = sorted((word, known), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def mend(text: str) -> str:
    """OCR text with each long word one slip away from a word of VOCABULARY replaced by it,
    section numbers OCR spaced out ("2. 1") closed up, and a dotless i read as an i."""

    def fix(match: re.Match) -> str:
        word = match.group(0)
        lower = word.lower()
        if lower in VOCABULARY:
            return word
        for known in VOCABULARY:
            if one_slip(lower, known):
                return known.upper() if word.isupper() else known.capitalize() if word[0].isupper() else known
        return word

    text = text.replace("\u0131", "i")
    return re.sub(r"\b(\d{1,2})\. (\d{1,2})\b", r"\1.\2", re.sub(r"[^\W\d_]{6,}", fix, text))


def consensus(name: str, text: str) -> str:
    """A party's name with each word OCR misread replaced by the spelling the document uses more
    often ("Hokdings" by "Holdings", "Ine." by "Inc."): a name is written several times."""
    counts: dict[str, int] = {}
    for word in re.findall(r"[A-Za-z]{3,}", text):
        counts[word] = counts.get(word, 0) + 1

    def fix(match: re.Match) -> str:
        word = match.group(0)
        best = max((known for known in counts if known[0].isupper() == word[0].isupper() and one_slip(word, known)),
                   key=lambda known: counts[known], default=None)
        return best if best is not None and counts[best] > counts.get(word, 0) else word

    name = re.sub(r"[A-Za-z]{3,}", fix, name)
    last = re.search(r"([A-Za-z]{2,4})\.?$", name)
    if last and last.group(1) not in ENTITY_SUFFIXES:
        suffix = next((known for known in ENTITY_SUFFIXES if len(known) > 2 and one_slip(last.group(1), known)), None)
        if suffix is not None and name[: last.start()].rstrip().endswith(","):
            name = name[: last.start(1)] + suffix + name[last.end(1) :]
    return name


def confirmed(name: str, text: str) -> bool:
    """Is every word of a name read by OCR spelled the same in two places of the text at least?
    A contract writes each party's name more than once (its caption, its signature block), so a
    word read only once in that spelling is likely an OCR slip the reader cannot undo. A
    trailing entity suffix ("Inc.") is not checked: it says what the party is, not who."""
    counts = Counter(re.findall(r"[^\W\d_]{3,}", text))
    words = re.findall(r"[^\W\d_]{3,}", name)
    while len(words) > 1 and words[-1] in ENTITY_SUFFIXES:
        words.pop()
    return all(counts[word] >= 2 for word in words)


def looks_like_name(name: str) -> bool:
    """A party's name as a contract writes it: a few capitalised words (connectors allowed), not
    the run of a sentence a parenthetical happened to follow ("Sale Agreement dated ...")."""
    words = name.split()
    return 0 < len(words) <= 10 and all(NAME_WORD.fullmatch(word) for word in words)


def sentences(text: str) -> list[str]:
    protected = ABBREVIATIONS.sub(lambda m: m.group(0).replace(".", "\u2024"), text)
    return [s.replace("\u2024", ".").strip() for s in SENTENCE_END.split(protected) if s.strip()]


def dollars(figure: str) -> int:
    """A dollar figure as OCR may give it: "1,500,000", "750.000", "14, 500,000"."""
    return int(re.sub(r"[,.\s]", "", figure))


def first_amount(sentence: str) -> int | None:
    match = AMOUNT.search(sentence)
    return dollars(match.group(1)) if match else None


def defined_parties(text: str) -> dict[str, str]:
    """Defined term -> the name written before its parenthetical."""
    out: dict[str, str] = {}
    for match in DEFINED.finditer(text):
        term = match.group(1).strip()
        term = term[0].upper() + term[1:]  # OCR lowers a capital now and then: ("indemnitee")
        before = text[max(0, match.start() - 200) : match.start()]
        before = DESCRIPTION.sub("", before.rstrip(" ,"))
        pieces = PARTY_START.split(before)
        name = pieces[-1].strip(" ,;:\"") if pieces else ""
        if looks_like_name(name) and term not in out:
            out[term] = name
    return out


def indemnity_sentence(found: list[str]) -> int | None:
    for index, sentence in enumerate(found):
        if len(sentence.split()) < 8:
            continue  # a heading ("7.1 Indemnity.") promises an indemnity; the sentence after it gives it
        if INDEMNIFIES.search(sentence) and ENVIRONMENTAL.search(sentence) and not NOT_ENVIRONMENTAL.search(sentence):
            return index
    return None


def section_of(found: list[str], index: int) -> tuple[str | None, str | None]:
    """The indemnity's section ("7.1" or "7(a)") and article ("7"), from the number before it."""
    for sentence in reversed(found[: index + 1]):
        match = re.search(r"(?:^|\s)(\d{1,2})(\.\d{1,2}|\([a-j]\))\s*[A-Z]", sentence)
        if match:
            return match.group(1) + match.group(2), match.group(1)
    return None, None


def refers_to(sentence: str, section: str | None, article: str | None) -> bool:
    if re.search(r"\b(?:here|there)under\b", sentence, re.I):
        return True
    if section and re.search(rf"(?<![\d.]){re.escape(section)}(?![\d(])", sentence):
        return True
    return bool(article and re.search(rf"\b(?:Article|Section)\s+{article}(?![\d.(])", sentence))


def article_span(found: list[str], index: int, article: str | None) -> range:
    """The sentences of the indemnity's article: from its sentence to the next article's number."""
    end = len(found)
    if article:
        for position in range(index + 1, len(found)):
            match = re.search(r"(?:^|\s)(\d{1,2})(?:\.\d{1,2}|\([a-j]\))\s+[A-Z]", found[position])
            if match and match.group(1) != article:
                end = position
                break
    return range(index, end)


def resolve(term: str | None, parties: Mapping[str, str]) -> str | None:
    """The party a term of the indemnity sentence names: a defined term's party, the party a
    defined term ending the phrase names ("the Buyer Parties" -> no; "Indemnified Buyer" ->
    Buyer's), or the term itself where it is the name of a defined party; None (not found)
    otherwise: the reader never names a party the contract does not define."""
    if term is None:
        return None
    if term in parties:
        return parties[term]
    words = term.split()
    for size in (2, 1):
        tail = " ".join(words[-size:])
        if tail in parties:
            return parties[tail]
    key = term.casefold()
    return next((name for name in parties.values() if name.casefold().startswith(key)), None)


def party_terms(sentence: str) -> tuple[str | None, str | None]:
    passive = PASSIVE.search(sentence)
    if passive:
        return passive.group(2), passive.group(1)
    active = ACTIVE.search(sentence)
    indemnitor = active.group(1) if active else None
    indemnitee = None
    for match in HELD.finditer(sentence):
        name = match.group(1) or match.group(2)
        if name and name.split()[0] not in NON_PARTY_WORDS:
            indemnitee = name
            break
    return indemnitor, indemnitee


def scope_of(sentence: str) -> str | None:
    if SCHEDULED.search(sentence):
        return "scheduled-matters-only"
    if BREACH.search(sentence) or re.search(r"representation|warrant", sentence, re.I):
        return "breach-of-representations"
    if WHENEVER.search(DISCOVERY.sub(" ", sentence)):
        return "all-environmental-liabilities"
    return None


def add_months(day: dt.date, months: int) -> dt.date:
    index = day.month - 1 + months
    year, month = day.year + index // 12, index % 12 + 1
    return dt.date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def month_of(word: str) -> int | None:
    word = word.lower()
    if word in MONTHS:
        return MONTHS[word]
    near = [number for name, number in MONTHS.items() if one_slip(word, name)]
    return near[0] if len(near) == 1 else None


def parse_date(match: re.Match) -> dt.date | None:
    month = month_of(match.group(1))
    if month is None:
        return None
    try:
        return dt.date(int(match.group(3)), month, int(match.group(2)))
    except ValueError:
        return None


def closing_date(text: str) -> dt.date | None:
    """The date that defines the closing date: beside a quoted "Closing Date", or after "Closing Date is"."""
    # OCR reads a closing quote as "*" or drops it.
    for match in re.finditer(r"\(the\s+\W{0,2}Closing\s+Date\W{0,3}\)", text):
        dates = [d for d in DATE_TEXT.finditer(text[max(0, match.start() - 120) : match.start()]) if parse_date(d)]
        if dates:
            return parse_date(dates[-1])
    match = re.search(r"Closing\s+Date\s+(?:is|shall be|will be)\s+", text)
    if match:
        after = DATE_TEXT.match(text, match.end())
        if after:
            return parse_date(after)
    return None


def purchase_price(text: str) -> int | None:
    for pattern in (r"\$\s?([\d,.\s]+?\d)\)?\s*\(the\s+[\"\u201c]Purchase\s+Price",
                    r"purchase\s+price\s+(?:for the Property\s+)?(?:is|of)\s+[^$]{0,120}\$\s?([\d,.\s]+?\d)(?![\d])"):
        match = re.search(pattern, text, re.I)
        if match:
            return dollars(match.group(1))
    return None


def definition_amount(text: str, term: str) -> int | None:
    match = re.search(rf"[\"\u201c]{re.escape(term)}[\"\u201d]\s+means[^.]{{0,80}}?\$\s?(\d{{1,3}}(?:[,.]\s?\d{{3}})+|\d+)", text)
    return dollars(match.group(1)) if match else None


# The terms of an indemnity the reader could not find: narrowest everywhere, claiming no protection.
NARROWEST_AMOUNT = 10**12
NARROWEST: dict[str, Any] = {
    "indemnitor": None, "indemnitee": None, "scope": "scheduled-matters-only", "cap": 0,
    "basket": {"type": "deductible", "amount": NARROWEST_AMOUNT}, "de_minimis": NARROWEST_AMOUNT,
    "survival_months": 1, "exclusions": ["buyer-initiated-testing", "change-to-residential-use", "late-notice",
                                         "risk-based-remedy"],
}


def not_found(text: str, as_of: dt.date) -> dict[str, Any]:
    """NARROWEST, its one-month survival running from the closing date (or, where none is found
    or it would run to `as_of` or past it, ending the day before `as_of`: never read as live)."""
    closing = closing_date(text)
    end = add_months(closing, 1) if closing else None
    if end is None or end >= as_of:
        end = as_of - dt.timedelta(days=1)
    return {**NARROWEST, "survival_end": end.isoformat()}


def read_terms(text: str, as_of: dt.date) -> dict[str, Any]:
    """The careful reading (step 8): the terms `read_all` reads when it has no doubt and both
    parties are named, else the narrowest terms with both parties null (`not_found`)."""
    terms, doubts = read_all(text, as_of)
    if doubts or terms["indemnitor"] is None or terms["indemnitee"] is None:
        return not_found(text, as_of)
    return terms


def read_all(text: str, as_of: dt.date) -> tuple[dict[str, Any], list[str]]:
    """The indemnity's terms as read, and the reader's doubts about them (empty when every
    sentence of the indemnity's article was read by a rule). Where no sentence indemnifies against
    anything environmental, the narrowest terms with both parties null and that doubt."""
    found = sentences(text)
    parties = defined_parties(text)
    index = indemnity_sentence(found)
    terms: dict[str, Any] = {"indemnitor": None, "indemnitee": None, "scope": "pre-closing-conditions",
                             "cap": None, "basket": None, "de_minimis": None, "survival_months": None,
                             "survival_end": None, "exclusions": []}
    if index is None:
        return not_found(text, as_of), ["no environmental indemnity found"]
    doubts: list[str] = []
    read: set[int] = set()  # the sentences (by id) a rule has read
    clause = found[index]
    indemnitor_term, indemnitee_term = party_terms(clause)
    terms["indemnitor"] = resolve(indemnitor_term, parties)
    terms["indemnitee"] = resolve(indemnitee_term, parties)
    section, article = section_of(found, index)
    span = article_span(found, index, article)
    # Headings ("7(d) Survival.") are cut off as sentences of their own; they state no term.
    related = [found[i] for i in range(len(found))
               if (i in span or refers_to(found[i], section, article)) and len(found[i].split()) > 4]

    scope = scope_of(clause) or ("pre-closing-conditions" if PRE_CLOSING.search(clause) else None)
    for sentence in related:
        if sentence is not clause and NOTWITHSTANDING.search(sentence) and LIMITING.search(sentence):
            narrowed = scope_of(sentence)
            if narrowed is None and PRE_CLOSING.search(sentence):
                narrowed = "pre-closing-conditions"
            if narrowed:
                scope = narrowed
                read.add(id(sentence))
    if scope is None:
        doubts.append("no scope stated in words the reader knows")
    terms["scope"] = scope or "pre-closing-conditions"

    price = purchase_price(text)
    for sentence in related:
        if sentence is clause:
            continue
        if NOT_APPLY.search(sentence) or NO_LIMIT.search(sentence):
            read.add(id(sentence))  # a limit that does not reach the indemnity, or none at all
            continue
        amount = first_amount(sentence)
        defined = AS_DEFINED.search(sentence)
        if defined and amount is None:
            amount = definition_amount(text, defined.group(1))
        percent = PERCENT.search(sentence)
        if BASKET.search(sentence) and not re.search(r"in no event", sentence, re.I) and terms["basket"] is None:
            if amount is not None:
                terms["basket"] = {"type": "tipping" if TIPPING.search(sentence) else "deductible", "amount": amount}
                read.add(id(sentence))
        elif DE_MINIMIS.search(sentence) and SINGLE.search(sentence) and terms["de_minimis"] is None:
            if amount is not None:
                terms["de_minimis"] = amount
                read.add(id(sentence))
        elif CAP.search(sentence) and terms["cap"] is None:
            if percent and price:
                terms["cap"] = price * int(percent.group(1)) // 100
                read.add(id(sentence))
            elif amount is not None and re.search(r"liabilit|payable|obligations|amounts", sentence, re.I):
                terms["cap"] = amount
                read.add(id(sentence))

    months: int | None = None
    survival = [s for s in related if SURVIVES.search(s) and not GENERAL.search(s) and s is not clause]
    specific = [s for s in survival if NOTWITHSTANDING.search(s)] or survival
    for sentence in specific[:1]:
        read.add(id(sentence))
        if UNLIMITED.search(sentence):
            months = None
        elif (match := NUMBER_MONTHS.search(sentence)):
            months = int(match.group(1))
        elif (match := NUMBER_YEARS.search(sentence)):
            months = 12 * int(match.group(1))
        elif (match := ANNIVERSARY.search(sentence)):
            months = 12 * ORDINALS[match.group(1).lower()]
        elif (match := WORDS_PERIOD.search(sentence)):
            months = NUMBER_WORDS[match.group(1).lower()] * (12 if match.group(2).lower().startswith("year") else 1)
        else:
            doubts.append("a survival period the reader cannot read")
    read.update(id(sentence) for sentence in survival[1:] if not PERIOD.search(sentence))  # restating, no period
    closing = closing_date(text)
    if months is not None and closing is not None:
        terms["survival_months"] = months
        terms["survival_end"] = add_months(closing, months).isoformat()
    elif months is not None:
        doubts.append("a survival period with no closing date to run from")

    exclusions = set()
    for sentence in related:
        before = len(exclusions)
        if TESTING.search(sentence) and INITIATED.search(sentence):
            exclusions.add("buyer-initiated-testing")
        if RESIDENTIAL.search(sentence) and CHANGE_OF_USE.search(sentence):
            exclusions.add("change-to-residential-use")
        if NOTICE.search(sentence) and DEADLINE.search(sentence) and FORFEIT.search(sentence) and not EXCUSED.search(sentence):
            exclusions.add("late-notice")
        elif NOTICE.search(sentence) and EXCUSED.search(sentence):
            read.add(id(sentence))  # a notice clause that forfeits nothing
        if RISK_BASED.search(sentence):
            exclusions.add("risk-based-remedy")
        if len(exclusions) > before:
            read.add(id(sentence))
    terms["exclusions"] = sorted(exclusions)

    # A sentence of the article that limits in words no rule read (an amount, a period, a carve-out,
    # an override) may narrow the protection in a way the terms above do not show.
    # A provision runs to its full stop: the part after a semicolon continues the part a rule read.
    for before, after in zip(found, found[1:], strict=False):
        if id(before) in read and before.endswith(";"):
            read.add(id(after))
    for sentence in related:
        if sentence is not clause and id(sentence) not in read and (sign := LIMIT_SIGN.search(sentence)):
            doubts.append(f"a sentence of the indemnity's article limits in words no rule read ({sign.group(0)!r}: {sentence[:160]!r})")
    return terms, doubts


# -- execution ---------------------------------------------------------------------------------------


def executed(lines: list, signatures: list) -> bool:
    """Executed unless a draft sign or a blank signature line shows otherwise (recording data proves it)."""
    if any(recording_data(page_lines) for page_lines in lines):
        return True
    if any(DRAFT_MARKER.search(line.text) for page_lines in lines for line in page_lines):
        return False
    if any(s.state == "blank" for s in signatures):
        return False
    if any(fill_in_blank(line) for page_lines in lines for line in page_lines):
        return False
    conformed = any(CONFORMED.search(line.text) for page_lines in lines for line in page_lines)
    return conformed or any(s.state in ("signed", "conformed") for s in signatures)
