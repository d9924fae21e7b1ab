"""Reference solver for `site-timeline`: the dated events of a site's record, in date order,
each with the first page that states it.

Every page is read (`site_record.read_site`) and cut into sentences; rules of general domain
vocabulary find the events of the kinds the input lists, each with the date it gives at the
precision printed (a day, `April 2004`, `since 1962`):
- ownership transfers: a deed's page (grantor and grantee, conveys, warranty or quitclaim
  deed) dated by its recording stamp (the first date on a line about recording), the subject
  the parcel number the page gives (parcel, APN, tax lot);
- lease executed and amended: a lease's or an amendment's first page, dated where it says it is
  made, dated or effective; subject the parcel;
- covenant recorded: an environmental covenant's recording stamp;
- tanks installed and removed: a sentence naming a tank (`T-2`, `UST-1`, `AST-3`, `Tank 2`)
  and the verb, the first date after it;
- operations began (`used as ... since 1962`, opened, began operating) and ceased (ceased,
  closed, discontinued) with the date or year in the sentence;
- a release reported (a release discovered or reported, and the date after those words);
- Phase I and Phase II assessments and corrective action plans: a report's title page (the
  title and `Prepared for/by`, not a draft), dated by its last date;
- remediation began and ended: a sentence where a remedy (excavation, extraction, treatment,
  a system) began, started, ended or stopped (the words before the verb name the remedy);
- no further action: a sentence of an agency's determination.
A subject is kept only when it is an identifier (a parcel or a tank number, with digits): a
phrase naming a remedy or a scope is no subject.
Events are kept once per (kind, subject, date), citing the first page in filing order that
states them, and listed in date order.

Variants: `v1` (default) as above; `cover-dates` keeps only the report title pages' events (the
blind reader of covers).

Weaknesses: events stated in words these rules do not use are missed; a sentence giving two
dates may give its event the wrong one; subjects of remedies are the words the sentence uses,
which may differ from the record's own name for the remedy.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from .. import site_record
from ..serves import Jitter, Prediction, Serves, Sources

SERVES = Serves("site-timeline", variants=("cover-dates", "v1"))

SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")
TANK = re.compile(r"\b(?:tank\s+)?((?:UST|AST|T)\s?-\s?\d{1,3}|tank\s+(?:no\.\s*)?\d{1,3})\b", re.I)
INSTALLED = re.compile(
    r"\binstall\w*|\bplaced\s+(in|into)\s+service\b|\bput\s+(in|into)\s+service\b|\bset\s+in\s+place\b",
    re.I,
)
REMOVED = re.compile(
    r"\b(remov\w*|pulled|excavated|closed\s+in\s+place|closed\s+by\s+removal|taken\s+out\s+of\s+service|decommissioned|abandoned\s+in\s+place)\b",
    re.I,
)
DEED = re.compile(
    r"\b(warranty|grant|quitclaim|special\s+warranty|bargain\s+and\s+sale)\s+deed\b|\bgrantors?\b.*\bgrantees?\b|\bconveys?\b",
    re.I | re.S,
)
RECORDING = re.compile(r"\brecord(ed|ing)\b|\bAFN\b|\binstrument\s+no", re.I)
# a parcel number after its label, read through OCR's spaces and dots between its groups
PARCEL = re.compile(
    r"\b(?:tax\s+)?(?:par[a-z]{2,4}|APN|PIN|tax\s+lot)\b[^0-9\n]{0,20}(\d{1,5}(?:\s?[-.]\s?\d{1,5}|\s\d{2,5}){1,5})",
    re.I,
)
COVENANT = re.compile(
    r"\benvironmental\s+covenant\b|\bactivity\s+and\s+use\s+limitation\b|\bdeed\s+restriction\b",
    re.I,
)
LEASE = re.compile(r"\blease\b", re.I)
AMENDMENT = re.compile(r"\bam\s?endment\b|\bamended\b", re.I)
MADE = re.compile(r"\b(made|dated|entered\s+into|effective|executed)\b", re.I)
BEGAN_OPS = re.compile(
    r"\b(used|operated)\s+as\b.{0,80}?\bsince\s+((?:[A-Z][a-z]+\s+)?\d{4})|\b(opened|began\s+operat\w+|commenced\s+operat\w+)\b.{0,40}?\b(?:in|on|since)\s+",
    re.I,
)
CEASED = re.compile(
    r"\b(ceased|closed\s+(?:its|the)\s+(?:business|station|facility|operations|doors)|discontinued|shut\s+down|went\s+out\s+of\s+business|stopped\s+operat\w+)\b",
    re.I,
)
OPERATIONS = re.compile(
    r"\boperat\w+|\bbusiness\b|\bstation\b|\bfacility\b|\bplant\b|\bshop\b|\bcleaners?\b", re.I
)
RELEASE = re.compile(
    r"\b(release|leak|spill|discharge)\b.{0,80}\b(discovered|reported|confirmed|notified|detected)\b|\b(discovered|reported|confirmed|notified|detected)\b.{0,40}\b(release|leak|spill|discharge)\b",
    re.I,
)
REMEDY = re.compile(
    r"\b(excavation|extraction|treatment|remed\w+|system|pump[\s-]and[\s-]treat|sparging|injections?|SVE|SSD|"
    r"depressuri\w+|in[\s-]situ|oxidation|reduction|bioremediation|biovent\w*|barrier|capping|dewatering)\b",
    re.I,
)
BEGAN = re.compile(
    r"\b(began|begun|started|commenced|initiated|started\s+up|activated|brought\s+on[\s-]?line|placed\s+in\s+operation)\b",
    re.I,
)
ENDED = re.compile(
    r"\b(ended|stopped|shut\s+down|terminated|discontinued|was\s+completed|were\s+completed|was\s+finished|decommissioned|turned\s+off|ceased\s+operat\w+)\b",
    re.I,
)
NFA = re.compile(r"\bno\s+further\s+(action|remedial\s+action)\b|\bNFA\b", re.I)
TITLES = (
    ("phase-ii-esa", re.compile(r"\bphase\s+(ii|2)\b", re.I)),
    (
        "phase-i-esa",
        re.compile(r"\bphase\s+(i|1)\s+(environmental\s+site\s+assessment|esa)\b", re.I),
    ),
    ("corrective-action-plan", re.compile(r"\bcorrective\s+action\s+plan\b", re.I)),
)
MEDIA = re.compile(
    r"\b(soil|groundwater|ground\s+water|soil\s+vapou?r|indoor\s+air|sediment)\b", re.I
)
MONTH_YEAR = re.compile(
    r"\b(January|February|March|April|May|June|July|August|September|October|November|December)\s+(\d{4})\b"
)
YEAR = re.compile(r"\b(1[89]\d{2}|20\d{2})\b")


def dated(text: str, day_first: bool = False) -> str | None:
    """The first date in `text` at the precision printed: a day, a month and year, a year."""
    days = site_record.find_dates(text, day_first=day_first)
    month = MONTH_YEAR.search(text)
    year = YEAR.search(text)
    candidates = []
    if days:
        candidates.append((days[0][1], days[0][0]))
    if month and not any(s <= month.start() < e for _, s, e in days):
        number = dt.datetime.strptime(month.group(1), "%B").month
        candidates.append((month.start(), f"{month.group(2)}-{number:02d}"))
    if (
        year
        and not any(s <= year.start() < e for _, s, e in days)
        and not (month and month.start() <= year.start() < month.end())
    ):
        candidates.append((year.start(), year.group(1)))
    return min(candidates)[1] if candidates else None


def after(pattern: re.Pattern[str], sentence: str) -> str:
    match = pattern.search(sentence)
    return sentence[match.end() :] if match else ""


def tank_id(text: str) -> str:
    number = re.search(r"\d+", text)
    prefix = re.match(r"\s*(UST|AST|T)\b", text, re.I)
    return (
        f"{(prefix.group(1).upper() if prefix else 'T')}-{int(number.group())}" if number else text
    )


def remedy_subject(prefix: str) -> str:
    """The remedy a sentence names before its verb: the last clause, from its article on."""
    clause = re.split(r"[:;]", prefix)[-1]
    # the subject starts at the clause's first article after any heading ("1.0 SUMMARY The ...")
    article = re.search(r"\b(?:The|A|An)\s+(?=[a-z])", clause) or re.search(
        r"\b(?:the|a|an)\s+", clause, re.I
    )
    if article:
        clause = clause[article.end() :]
    return re.sub(r"\s+(was|were|has|have|had|has\s+been|have\s+been)$", "", clause.strip())


def parcel_id(text: str) -> str:
    return "-".join(re.findall(r"\d+", text))


# A date in a stamp as OCR reads a scanned or faxed copy: the box's border read as a leading
# digit ("107/19/1970"), separators mixed ("12.06-1971"). US recorders print month first.
NOISY_DATE = re.compile(r"(\d{1,3})\s?[/.\-]\s?(\d{1,2})\s?[/.\-]\s?((?:19|20)\d{2})\b")


def noisy_date(text: str) -> str | None:
    for match in NOISY_DATE.finditer(text):
        month, day, year = int(match.group(1)[-2:]), int(match.group(2)), int(match.group(3))
        try:
            return dt.date(year, month, day).isoformat()
        except ValueError:
            continue
    return None


def recording_stamp(lines: list[str]) -> str | None:
    for k, line in enumerate(lines):
        if RECORDING.search(line) and not re.search(r"\b(in|of)\s+(book|the\s+deed)", line, re.I):
            block = lines[k : k + 5]
            for later in block:
                when = dated(later)
                if when and len(when) == 10:
                    return when
            for later in block:  # no clean date in the stamp block: one OCR garbled
                when = noisy_date(later)
                if when:
                    return when
    return None


def page_events(
    page: site_record.SitePage, kinds: set[str], doc_head: str = "", doc_parcel: str | None = None
) -> list[tuple[str, str, str | None]]:
    events: list[tuple[str, str, str | None]] = []
    text = " ".join(page.lines)
    head = " ".join(page.lines[:14])
    parcel = PARCEL.search(text)
    subject_parcel = parcel_id(parcel.group(1)) if parcel else doc_parcel
    # recorded instruments: the recording stamp's date (a stamp block: a line about recording
    # and a full date within the next lines), the instrument named on its first page
    stamp = recording_stamp(page.lines)
    document_head = doc_head or head
    leased = LEASE.search(head) and MADE.search(head)
    if stamp:
        if COVENANT.search(document_head) and "covenant-recorded" in kinds:
            events.append(("covenant-recorded", stamp, subject_parcel))
        elif LEASE.search(document_head) and not DEED.search(document_head):
            pass  # a recorded lease or amendment: dated where it says it is made, below
        elif DEED.search(text + " " + document_head) and "ownership-transfer" in kinds:
            events.append(("ownership-transfer", stamp, subject_parcel))
    if leased and not DEED.search(head):
        kind = "lease-amended" if AMENDMENT.search(head) else "lease-executed"
        made = MADE.search(head)
        when = dated(head[made.end() :]) if made else None
        if kind in kinds and when:
            events.append((kind, when, subject_parcel))
    # report title pages
    title_page = any(re.match(r"^prepared\s+(for|by)\b", line, re.I) for line in page.lines)
    if title_page and not re.search(r"\bdraft\b", head, re.I):
        for kind, pattern in TITLES:
            if kind in kinds and pattern.search(head):
                dates = site_record.find_dates(text)
                if dates:
                    events.append((kind, dates[-1][0], None))
                break
    day_first = False
    for sentence in SENTENCE.split(text):
        tank = TANK.search(sentence)
        if tank:
            for kind, verb in (("tank-installed", INSTALLED), ("tank-removed", REMOVED)):
                rest = after(verb, sentence)
                when = dated(rest, day_first) if rest else None
                if kind in kinds and when:
                    events.append((kind, when, tank_id(tank.group(1))))
        began = BEGAN_OPS.search(sentence)
        if began and "operations-began" in kinds:
            when = dated(sentence[began.start() :])
            if when:
                events.append(("operations-began", when, None))
        if CEASED.search(sentence) and OPERATIONS.search(sentence) and "operations-ceased" in kinds:
            when = dated(after(CEASED, sentence))
            if when:
                events.append(("operations-ceased", when, None))
        if RELEASE.search(sentence) and "release-reported" in kinds:
            rest = after(
                re.compile(r"\b(discovered|reported|confirmed|notified|detected)\b", re.I), sentence
            )
            when = dated(rest)
            if when and len(when) == 10:
                events.append(("release-reported", when, None))
        if REMEDY.search(sentence):
            for kind, verb in (("remediation-began", BEGAN), ("remediation-ended", ENDED)):
                match = verb.search(sentence)
                if kind in kinds and match:
                    when = dated(sentence[match.end() :])
                    subject = remedy_subject(sentence[: match.start()])
                    if when and 0 < len(subject.split()) <= 8 and REMEDY.search(subject):
                        events.append((kind, when, subject))
        if (
            NFA.search(sentence)
            and "no-further-action" in kinds
            and re.search(r"\b(determin\w+|issued|required)\b", sentence, re.I)
        ):
            scope = re.search(
                r"\bfor\s+(.{2,80}?)(?:\s+at\s+the\s+(?:site|property|facility)\b|[.;,]|$)",
                after(NFA, sentence),
            )
            medium = MEDIA.search(after(NFA, sentence))
            subject = (
                scope.group(1).strip() if scope else (medium.group(1).lower() if medium else None)
            )
            when = dated(after(re.compile(r"\beffective\b", re.I), text)) or next(
                (dated(line) for line in page.lines[:6] if dated(line)), None
            )
            if when:
                events.append(("no-further-action", when, subject))
    return events


def solve(
    case_input: site_record.SiteCase, sources: Sources, variant: str, jitter: Jitter = None
) -> Prediction:
    pages = site_record.read_site(case_input, sources, jitter)
    kinds = set(case_input.event_kinds)
    if variant == "cover-dates":
        kinds &= {kind for kind, _ in TITLES}
    seen: dict[tuple[str, str | None, str], dict[str, Any]] = {}
    heads: dict[int, str] = {}
    parcels: dict[int, str] = {}
    for page in pages:
        heads.setdefault(page.document, " ".join(page.lines[:14]))
        found = PARCEL.search(" ".join(page.lines))
        if found:
            parcels.setdefault(page.document, parcel_id(found.group(1)))
    for page in pages:
        found = page_events(page, kinds, heads[page.document], parcels.get(page.document))
        # one determination per page: the statement that names its scope over a bare medium
        nfa = [e for e in found if e[0] == "no-further-action"]
        if len(nfa) > 1:
            found = [e for e in found if e[0] != "no-further-action"] + [
                max(nfa, key=lambda e: len(e[2] or ""))
            ]
        for kind, when, subject in found:
            # a subject is an identifier (a parcel or tank number); a phrase is no subject
            subject = subject if subject and re.search(r"\d", subject) else None
            key = (kind, site_record.fold(subject) if subject else None, when)
            if key not in seen:
                seen[key] = {
                    "kind": kind,
                    "date": when,
                    "subject": subject,
                    "source": page.citation(),
                }
    events = sorted(seen.values(), key=lambda e: e["date"])
    return {"events": events}
