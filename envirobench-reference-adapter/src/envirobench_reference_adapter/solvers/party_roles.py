"""Reference solver for `party-roles`: every party of an instrument, with all its roles.

Every page is read with `pdftext` (its text layer, or OCR of a scanned page read level, `level=True`) and its lines joined
into one text. The parties are found the way a title examiner reads an instrument:

1. *Defined terms*: a party is introduced with the term the instrument calls it by, quoted in
   parentheses (`X, a Delaware corporation ("Lessor")`, `(hereinafter called "Landlord")`,
   `(the "Seller")`), after "as" (`X, as Grantor`) or after "hereinafter referred to as"
   unquoted. The party's name is the text before the definition, back to the list's separator
   ("between", "among", "by", "), and", a semicolon, the previous definition), less its
   descriptor (", a Delaware corporation", ", an individual"). A term defining several terms
   at once (`Borrower and Guarantor (collectively, "Indemnitor")`) gives its role to each.
2. *Who the party is*: a name "successor by merger to" (or "surviving ... of its merger with")
   another is the survivor, the predecessor is not a party; a name "formerly known as" (f/k/a,
   "formerly") another is one party; trustees signing "as Trustees of the X Trust" leave the
   trust as the party.
3. *Roles*: the defined term's own legal meaning (Lessor and Landlord -> lessor; Mortgagee,
   Beneficiary, Lender -> lender; Mortgagor, Trustor, Borrower -> borrower; Indemnified Party ->
   indemnitee; Purchaser, Vendee -> buyer; Vendor -> seller; ...; an "Escrow Holder" is no
   covenant holder); signature-block captions ("LESSOR:" over the party's name); and statements
   about a term's party: ownership ("is the owner", "owns", "holds ... fee", "retains fee
   title", "is seized", "fee ... vested in"), operation ("operates", "is the operator"), "is the holder",
   "is the state agency". A statement in a sentence with a negation ("not", "no", "nothing") is
   not taken: a lender "is not an owner", "holds no title", whatever indicia of ownership it
   holds. A party named as a state department or division is an agency.

Only parties with at least one role are returned (a consultant or escrow agent introduced with
a defined term of its own gets none and is left out).

Weaknesses: a party introduced without any defined term and without a signature block is not
found; a name whose descriptor is not introduced by ", a"/", an" keeps it; OCR that garbles a
quote, a parenthesis or a name's letters loses or misspells the party (names are not corrected);
an ownership or operation statement about a party named in full rather than by its term is
missed; a negation anywhere in the sentence drops the statement; ownership said in words the
rules do not list (the fee said to remain in or stay with a party) is missed, and a trust
introduced other than as "Trustee(s) of the X Trust" or "the X Trust, acting by ..." before its
defined term may be missed (test-split figures in docs/reference-scores.md).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Any

from .. import pdftext
from ..layout import group_lines, normalize_space
from ..serves import Jitter, Prediction, Serves, Sources

SERVES = Serves("party-roles", variants=("terms-only", "v1"))

ROLE_ORDER = ("grantor", "grantee", "seller", "buyer", "lessor", "lessee", "lender", "borrower", "indemnitee",
              "indemnitor", "guarantor", "owner", "operator", "holder", "agency")
# A defined term's words -> the role it names (legal vocabulary, singular or plural).
TERM_WORDS = {
    "grantor": "grantor", "grantee": "grantee", "seller": "seller", "vendor": "seller", "buyer": "buyer",
    "purchaser": "buyer", "vendee": "buyer", "lessor": "lessor", "landlord": "lessor", "lessee": "lessee",
    "tenant": "lessee", "lender": "lender", "mortgagee": "lender", "beneficiary": "lender", "borrower": "borrower",
    "mortgagor": "borrower", "trustor": "borrower", "indemnitee": "indemnitee", "indemnitor": "indemnitor",
    "guarantor": "guarantor", "owner": "owner", "operator": "operator", "holder": "holder", "agency": "agency",
    "department": "agency",
}
TERM_PHRASES = {"indemnified party": "indemnitee", "indemnified parties": "indemnitee", "indemnifying party": "indemnitor"}
NOT_A_ROLE = ("escrow", "trustee", "consultant", "contractor", "agent")  # terms naming no party of interest
NEGATION = re.compile(r"\b(not|no|nothing|never|neither|nor)\b", re.I)
QUOTES = str.maketrans({"\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2033": '"', "\u00ab": '"', "\u00bb": '"',
                        "\u2018": "'", "\u2019": "'"})

TERM = r"[A-Z][A-Za-z'-]*(?:\s+[A-Z][A-Za-z'-]*){0,3}"
DEFINITIONS = re.compile(
    # (... "Term") — the quoted form, whatever words lead into the quote.
    r"\((?P<pre>[^()\"]{0,70})\"(?P<quoted>[^\"()]{2,40})\"\s*\)"
    # unquoted: hereinafter (some words) referred to as Term, or hereinafter called Term
    r"|,?\s*\bhereinafter\s+(?:\w+\s+){0,3}?(?:referred\s+to\s+as|called|designated\s+as)\s+(?:the\s+)?(?P<after>" + TERM + r")"
    # , [together|jointly|collectively] as Term
    r"|,\s*(?:(?:together|jointly|collectively|each)\s+)?as\s+(?:the\s+)?(?P<as>" + TERM + r")(?=\s*[,.;:)]|\s+(?:and|shall|will|hereby|agrees?|is|are)\b)"
)
SEPARATORS = re.compile(r"\b(?i:between|among)\b|;|:|\)\s*,?\s*(?:and\s+)?|,\s+and\s+")
BY = re.compile(r"(?<![-\w])by(?![-\w])(?!\s+merger)")  # lower case: "made by X"; a name in capitals may hold "ACTING BY"
ABBREVIATIONS = {"inc", "corp", "co", "ltd", "llc", "l", "p", "c", "a", "n", "no", "jr", "sr", "st", "mr", "ms", "mrs"}
DESCRIPTOR = re.compile(r",\s+(?:a|an)\s+(?=[a-zA-Z])|,\s+(?:whose|having|with its|organized|existing)\b|\s+\(", re.I)
MERGER = re.compile(
    r",?\s*\(?(?:which\s+is\s+)?(?:as\s+)?(?:the\s+)?(?:successor[-\s]+by[-\s]+merger\s+(?:to|with|of)|"
    r"surviving\s+\w+\s+(?:of|in|to)\s+(?:its\s+|the\s+)?merger\s+(?:with|of))\s+", re.I)
FORMER = re.compile(r",?\s*\(?(?:formerly\s+known\s+as|f/k/a|fka|formerly)\s+", re.I)
TRUSTEES = re.compile(r"\btrustees?\b", re.I)
OWNER_AFTER = re.compile(
    r"\b(?:is|are|remains?|shall\s+remain|continues?\s+to\s+be|will\s+remain)\b[^.;]{0,40}?\bowners?\b|"
    r"\bowns\b|\bholds?\s+(?:good\s+and\s+marketable\s+|the\s+)?fee\b|"
    r"\b(?:retains?|reserves?\s+and\s+retains?)\s+(?:the\s+)?fee\b|\bis\s+seized\b", re.I)
OWNER_BEFORE = re.compile(r"\bfee\b[^.;]{0,60}\b(?:is\s+)?vested\s+in\s+(?:the\s+)?$", re.I)
OPERATOR_AFTER = re.compile(r"\b(?:operate|operates|operating|operator)\b", re.I)
HOLDER_AFTER = re.compile(r"\b(?:is|are)\b[^.;]{0,20}?\bholders?\b", re.I)
AGENCY_AFTER = re.compile(r"\b(?:is|are)\b[^.;]{0,20}?\bagency\b", re.I)
GRANTS_AFTER = re.compile(r"\s*(?:hereby\s+)?(?:grants|conveys|quitclaims|releases\s+and\s+quitclaims|bargains)\b", re.I)
AGENCY_NAME = re.compile(r"\b(?:department|division|agency|commission)\s+of\b|\bprotection\s+agency\b", re.I)
SENTENCE_END = re.compile(r"\.\s+(?=[A-Z(\"])(?!(?:LLC|L\.L\.C|Inc|INC|Corp|CORP|LP|L\.P|N\.A)\b)")
CONNECTORS = {"of", "the", "and", "&", "de", "du", "von", "van", "for", "in"}
NAME_LIKENESS = 0.85  # two readings of one name on a scan are at least this alike (difflib ratio)
STATEMENT_REACH = 90  # characters between a term and the words of its statement


@dataclass
class FoundParty:
    name: str
    roles: set[str] = field(default_factory=set)
    terms: set[str] = field(default_factory=set)
    aliases: set[str] = field(default_factory=set)
    spellings: list[str] = field(default_factory=list)  # every spelling read (OCR varies one name's letters)
    defined: bool = False  # named where its term is defined (not only in a signature block)


def solve(case_input: Any, sources: Sources, variant: str, jitter: Jitter = None) -> Prediction:
    pages = pdftext.read_pdf(sources[case_input.document], jitter=jitter, level=True)  # hand-fed archival scans tilt
    lines = [normalize_space(line.text) for page in pages for line in group_lines(page.words)]
    parties = read_parties(lines, statements=variant != "terms-only")
    return {"parties": [{"name": p.name, "roles": [r for r in ROLE_ORDER if r in p.roles]} for p in parties]}


def name_key(name: str) -> str:
    text = re.sub(r"[.,'\"()]", "", name.casefold().replace("&", " and "))
    words = [{"incorporated": "inc", "corporation": "corp", "company": "co"}.get(w, w) for w in text.split()]
    return " ".join(words[1:] if words[:1] == ["the"] else words)


def term_role(term: str) -> str | None:
    """The role a defined term names, if it names one."""
    lowered = term.lower().strip()
    lowered = re.sub(r"^the\s+", "", lowered)
    if any(word in lowered for word in NOT_A_ROLE):
        return None
    for phrase, role in TERM_PHRASES.items():
        if phrase in lowered:
            return role
    words = lowered.replace("-", " ").split()
    for word in reversed(words):
        role = TERM_WORDS.get(word.rstrip("s")) or TERM_WORDS.get(word)
        if role:
            return role
    return None


def sentence_start(text: str, end: int) -> int:
    """Where the sentence holding position `end` begins: after the last full stop that ends a sentence."""
    for match in reversed(list(SENTENCE_END.finditer(text, 0, min(len(text), end + 2)))):
        if match.end() > end:
            continue
        word = re.findall(r"([A-Za-z]+)$", text[: match.start()])
        if word and (word[0].lower() in ABBREVIATIONS or len(word[0]) == 1):
            continue
        return match.end()
    return 0


def clean_name(chunk: str) -> tuple[str, list[str], list[str]]:
    """(the party's name, its other names, named non-parties) from the text before its definition."""
    chunk = chunk.strip(" ,;")
    chunk = re.sub(r"^(?:and|by|the parties|parties)\s+", "", chunk, flags=re.I).strip(" ,")
    others: list[str] = []
    if TRUSTEES.search(chunk):
        trust = trust_name(chunk)
        if trust:
            people = [p for p in re.split(r",|\band\b", TRUSTEES.split(chunk)[0], flags=re.I) if p.strip()]
            return trust, [], [p.strip(" ,") for p in people]
    aliases = []
    merger = MERGER.search(chunk)
    if merger:
        others.append(cut_descriptor(chunk[merger.end():]))
        chunk = chunk[: merger.start()]
    former = FORMER.search(chunk)
    if former:
        aliases.append(cut_descriptor(chunk[former.end():]))
        chunk = chunk[: former.start()]
    return cut_descriptor(chunk), aliases, others


def looks_like_name(name: str) -> bool:
    """A name's words are capitalised (connectors aside): descriptors and sentences are not."""
    words = [w for w in re.split(r"[\s,]+", name) if w]
    return bool(words) and words[0][:1].isupper() and all(
        w[:1].isupper() or w[:1].isdigit() or w.lower() in CONNECTORS or not w[:1].isalpha() for w in words)


def cut_descriptor(text: str) -> str:
    match = DESCRIPTOR.search(text)
    if match:
        text = text[: match.start()]
    return text.strip(" ,;:)(")


def trust_name(chunk: str) -> str | None:
    """'The X Family Trust' in a chunk naming trustees: the capitalised words before the word Trust."""
    words = chunk.replace(",", " , ").split()
    for index, word in enumerate(words):
        if word.lower() == "trust":
            start = index
            while start > 0 and words[start - 1][:1].isupper() and words[start - 1].lower() not in ("of", "as", "by"):
                start -= 1
            if start < index:
                return " ".join(words[start : index + 1])
    return None


def read_parties(lines: list[str], *, statements: bool = True) -> list[FoundParty]:
    text = " ".join(lines).translate(QUOTES)
    text = re.sub(r"\s+", " ", text)
    parties: list[FoundParty] = []
    by_term: dict[str, FoundParty] = {}

    def party_named(name: str) -> FoundParty:
        key = name_key(name)
        for party in parties:
            if key == name_key(party.name) or key in {name_key(a) for a in party.aliases}:
                return party
        for party in parties:
            if difflib.SequenceMatcher(None, key, name_key(party.name)).ratio() >= NAME_LIKENESS:
                party.spellings.append(name)
                return party
        party = FoundParty(name, spellings=[name])
        parties.append(party)
        return party

    # Captions first: a term the body's definition lost (OCR broke its quotes) is still known.
    for term, party in signature_captions(lines, party_named).items():
        by_term.setdefault(term, party)
    previous_end = 0
    non_parties: set[str] = set()
    for match in DEFINITIONS.finditer(text):
        term = (match.group("quoted") or match.group("after") or match.group("as") or "").strip()
        start = max(previous_end, sentence_start(text, match.start()))
        chunk = text[start : match.start()]
        separators = list(SEPARATORS.finditer(chunk))
        if separators:
            chunk = chunk[separators[-1].end():]
        by = list(BY.finditer(chunk))
        if by and not TRUSTEES.search(chunk):
            chunk = chunk[by[-1].end():]
        previous_end = match.end()
        if not term or TRUSTEES.fullmatch(term.split()[-1]):
            previous_end = start  # "as Trustee(s) of ...": part of the name that follows
            continue
        role = term_role(term)
        tail = re.search(r"(?:^|\s)(?:the\s+)?([A-Z][A-Za-z'-]*(?:\s+[A-Z][A-Za-z'-]*)?)\s*,?\s*$", chunk)
        if tail and tail.group(1) in by_term and not looks_like_name(chunk.strip(" ,")):
            chunk = tail.group(1)  # "shall indemnify Lender (..., the \"Indemnitee\")": a term given another
        named_terms = [t for t in re.split(r",\s*|\s+and\s+", chunk.strip(" ,")) if t]
        if named_terms and all(re.sub(r"^the\s+", "", t, flags=re.I) in by_term for t in named_terms):
            # Terms defined together: the new term (and its role) belongs to each of them.
            for t in named_terms:
                target = by_term[re.sub(r"^the\s+", "", t, flags=re.I)]
                by_term[term] = target if len(named_terms) == 1 else by_term.get(term, target)
                if role:
                    target.roles.add(role)
            continue
        name, aliases, others = clean_name(chunk)
        if not name or not re.search(r"[A-Z]", name) or len(name) > 120:
            continue
        if not looks_like_name(name):
            continue  # "Lessor leases to Lessee ...": a sentence, not a party's name
        non_parties.update(name_key(o) for o in others)
        party = party_named(name)
        if not party.defined:
            # The definition's spelling leads: a signature block's is printed smaller.
            party.name, party.defined = name, True
        party.aliases.update(aliases)
        party.terms.add(term)
        if role:
            party.roles.add(role)
        by_term[term] = party


    if statements:
        for term, party in by_term.items():
            read_statements(text, term, party)
    for party in parties:
        party.name = mended(party, text)
        if AGENCY_NAME.search(party.name):
            party.roles.add("agency")
    return [p for p in parties if p.roles and name_key(p.name) not in non_parties]


def mended(party: FoundParty, text: str) -> str:
    """The party's name, each word the spelling most often read where the name occurs.

    A scan's OCR misreads a letter here and there ("Commerciat", "Redferr"), rarely the same
    letter twice: the name's occurrences (its definition, its signature block, the testimonium,
    the return-to block) outvote a misreading, word by word."""
    words = party.name.split()
    if not words:
        return party.name
    spellings = [s.split() for s in party.spellings]
    tokens = text.split()
    key = name_key(party.name)
    for start in range(len(tokens) - len(words) + 1):
        window = tokens[start : start + len(words)]
        if window[0][:1].lower() == words[0][:1].lower() and difflib.SequenceMatcher(
                None, key, name_key(" ".join(window))).ratio() >= NAME_LIKENESS:
            spellings.append(window)
    spellings = [s for s in spellings if len(s) == len(words)]
    chosen = []
    for index, word in enumerate(words):
        votes: dict[str, int] = {}
        for spelling in spellings:
            votes[spelling[index].casefold()] = votes.get(spelling[index].casefold(), 0) + 1
        best = max(votes, key=lambda w: (votes[w], w == word.casefold()))
        chosen.append(word if best == word.casefold() else next(s[index] for s in spellings if s[index].casefold() == best))
    return " ".join(chosen)


def signature_captions(lines: list[str], party_named) -> dict[str, FoundParty]:
    """A caption naming a role ('LESSOR:') over the name of the party that signs: its term -> party."""
    found = {}
    for index, line in enumerate(lines[:-1]):
        caption = re.fullmatch(r"([A-Z][A-Z -]{2,40}):", line.strip())
        if not caption:
            continue
        role = term_role(caption.group(1))
        following = lines[index + 1].strip()
        if role is None or not following or following.lower().startswith(("by", "name", "signature", "its")):
            continue
        party = party_named(cut_descriptor(following))
        party.roles.add(role)
        found.setdefault(caption.group(1).strip().title(), party)
    return found


def read_statements(text: str, term: str, party: FoundParty) -> None:
    """Ownership, operation, holding and agency said of the party by its defined term."""
    for occurrence in re.finditer(r"(?<![A-Za-z])(?:the\s+)?" + re.escape(term) + r"(?:'s)?\b", text):
        start = sentence_start(text, occurrence.start())
        end = text.find(". ", occurrence.end())
        sentence = text[start : end if end >= 0 else len(text)]
        after = text[occurrence.end() : min(occurrence.end() + STATEMENT_REACH, end if end >= 0 else len(text))]
        before = text[max(start, occurrence.start() - STATEMENT_REACH) : occurrence.start()]
        if NEGATION.search(sentence):
            continue
        # The statement is this term's when no other party's term stands between them.
        if OWNER_AFTER.search(after) and not other_term_between(after, OWNER_AFTER, term):
            party.roles.add("owner")
        if OWNER_BEFORE.search(before):
            party.roles.add("owner")
        if OPERATOR_AFTER.search(after) and not other_term_between(after, OPERATOR_AFTER, term):
            party.roles.add("operator")
        if HOLDER_AFTER.match(after.strip()) or re.match(r"\s*(?:is|are)\s+(?:also\s+)?(?:the|a)\s+holder", after, re.I):
            party.roles.add("holder")
        if GRANTS_AFTER.match(after) and "borrower" not in party.roles:
            party.roles.add("grantor")  # a security instrument's conveyance makes a borrower, not a grantor
        if AGENCY_AFTER.match(after.strip()):
            party.roles.add("agency")


def other_term_between(after: str, pattern: re.Pattern[str], term: str) -> bool:
    """Does another defined party term (a capitalised role word) stand before the statement's words?"""
    found = pattern.search(after)
    assert found is not None
    between = after[: found.start()]
    for word in re.findall(r"\b[A-Z][a-z]+\b", between):
        if word != term and term_role(word) and word.lower() not in ("property", "premises"):
            return True
    return False
