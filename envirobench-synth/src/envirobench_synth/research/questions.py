"""Questions about a property record (`records.Record`), each with its typed answer or none.

    questions = sample_questions(make_random(SEED, split, "record-0007", "questions"), record, 20)
    questions = sample_questions(rng, record, 12, answerable_only=True)   # cited-answers

A question has an answer type and, for quantities, the unit its answer is given in:

    date        a calendar day, written ISO 8601 (2019-05-14)
    quantity    a number in `unit` (ft, gal, ug/L or USD)
    name        a name as the record prints it
    instrument  a recording, registration, permit or case number
    yes-no      "yes" or "no"
    list        the items of an enumeration, in any order

and a status:

    answerable      the record states the answer (evidence: every place it does)
    superseded      the record states an older value and a later document the current one: the
                    answer is the later value (the trap is the older one)
    never-stated    the record does not hold the fact at all: a document it does not contain (no
                    NFA letter, no easement, no closure report), a tank, well or invoice it does
                    not have, an analyte the laboratory did not test
    underspecified  the question does not say which of several things it means ("the tank" where
                    the record has two tanks of different capacities): the record cannot settle
                    it, so the right answer is "not in the record"
    stale           the record holds only a superseded value: a later document says the value
                    changed without stating the new one (the permit "renewed for a further term",
                    the easement "amended to change its width"); the current value is not in the
                    record, and the superseded one is an invented answer

Only `answerable` and `superseded` questions have an answer (`value`); the others' right answer is
"not in the record". Whether the NFA letter covers a contaminant group it neither lists nor
excludes is answerable, "no" (an NFA determination covers only what it names; evidence: its
determination sentence); where the record has no NFA letter the question is never-stated.
cited-answers (whose passages state their answer) never asks it.

No wording gives away whether the record answers: every wording that can be unanswerable is also
asked where the record answers it (each unanswerable question drawn brings an answerable one of
its wording where the record has one; "the tank" and "the invoice" are answerable where the
record has one; a result asked by year is answerable where the well was sampled once that year),
and a question about a tank, well, invoice or analyte the record lacks is worded as one it has.
The wordings of the two splits differ (the test split's never occur in dev).
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass

from ..locate.sitekinds import ANALYTES
from .records import CONTAMINANT_GROUPS, Evidence, Record

ANSWERABLE_STATUSES = ("answerable", "superseded")
# wordings that name no tank or invoice, or a year rather than a day: answerable or not by the record
EITHER_WAY = ("any-tank-capacity", "any-tank-removal", "any-invoice-amount", "year-result")
UNANSWERABLE_STATUSES = ("never-stated", "underspecified", "stale")
# (dev wording, test wording) per question kind.
WORDINGS: dict[str, tuple[str, str]] = {
    "tank-capacity": (
        "What is the capacity of tank {tank}?",
        "How many gallons does tank {tank} hold?",
    ),
    "tank-product": (
        "What substance was stored in tank {tank}?",
        "Which product did tank {tank} contain?",
    ),
    "tank-removal-date": (
        "On what date was tank {tank} removed?",
        "When was tank {tank} taken out of the ground?",
    ),
    "tank-removed": (
        "Was tank {tank} removed?",
        "Has tank {tank} been pulled from the ground?",
    ),
    "registration": (
        "What is the facility's tank registration number?",
        "Under which registration number are the facility's tanks registered?",
    ),
    "closure-contractor": (
        "Which contractor removed the tanks?",
        "Who performed the tank removal work?",
    ),
    "nfa-date": (
        "What is the date of the no further action letter?",
        "When did the agency issue its no-further-action determination?",
    ),
    "nfa-case": (
        "What case number does the no further action letter cite?",
        "Under which case number was no further action granted?",
    ),
    "nfa-covers": (
        "Does the no further action letter cover {group}?",
        "Is {group} contamination addressed by the no-further-action determination?",
    ),
    "nfa-groups": (
        "Which contaminants does the no further action letter cover?",
        "List the contaminant groups the no-further-action determination applies to.",
    ),
    "permit-number": (
        "What is the number of the discharge permit?",
        "Which permit number was issued for the facility's discharge?",
    ),
    "permit-expiry": (
        "What is the current expiration date of permit {permit}?",
        "Until what date is permit {permit} now in force?",
    ),
    "covenant-recording": (
        "What is the recording number of the environmental covenant?",
        "Under which instrument number was the environmental covenant recorded?",
    ),
    "covenant-date": (
        "On what date was the environmental covenant recorded?",
        "When was the environmental covenant recorded?",
    ),
    "deed-recording": (
        "What is the recording number of the deed?",
        "Under which instrument number was the deed recorded?",
    ),
    "easement-recording": (
        "What is the recording number of the utility easement?",
        "Under which instrument number was the utility easement recorded?",
    ),
    "easement-grantee": (
        "Who holds the utility easement?",
        "To whom was the utility easement granted?",
    ),
    "easement-width": (
        "What is the current width of the utility easement?",
        "How wide is the utility easement now?",
    ),
    "well-depth": (
        "What is the total depth of well {well}?",
        "How deep was the {well} boring drilled?",
    ),
    "result": (
        "What was the {analyte} concentration in {well} on {date}?",
        "What {analyte} result did the {well} sample collected {date} show?",
    ),
    "detected": (
        "Was {analyte} detected in {well} on {date}?",
        "Did the {well} sample of {date} contain detectable {analyte}?",
    ),
    "invoice-amount": (
        "What is the amount due on invoice {invoice}?",
        "How much was billed on invoice number {invoice}?",
    ),
    # no tank or invoice named: answerable where the record has one, underspecified where several
    "any-tank-capacity": (
        "What is the capacity of the tank?",
        "How many gallons does the tank hold?",
    ),
    "any-tank-removal": (
        "On what date was the tank removed?",
        "When was the tank taken out of the ground?",
    ),
    # a year, not a day: answerable where the well was sampled once that year, underspecified
    # where it was sampled on several days of it with different results
    "year-result": (
        "What was the {analyte} concentration in {well} in {year}?",
        "What {analyte} result did the {well} sample collected in {year} show?",
    ),
    "any-invoice-amount": (
        "What is the amount due on the invoice?",
        "How much was billed on the invoice?",
    ),
}
ANSWER_TYPES = {
    "tank-capacity": ("quantity", "gal"),
    "any-tank-capacity": ("quantity", "gal"),
    "tank-product": ("name", ""),
    "tank-removal-date": ("date", ""),
    "any-tank-removal": ("date", ""),
    "tank-removed": ("yes-no", ""),
    "registration": ("instrument", ""),
    "closure-contractor": ("name", ""),
    "nfa-date": ("date", ""),
    "nfa-case": ("instrument", ""),
    "nfa-covers": ("yes-no", ""),
    "nfa-groups": ("list", ""),
    "permit-number": ("instrument", ""),
    "permit-expiry": ("date", ""),
    "covenant-recording": ("instrument", ""),
    "covenant-date": ("date", ""),
    "deed-recording": ("instrument", ""),
    "easement-recording": ("instrument", ""),
    "easement-grantee": ("name", ""),
    "easement-width": ("quantity", "ft"),
    "well-depth": ("quantity", "ft"),
    "result": ("quantity", "ug/L"),
    "year-result": ("quantity", "ug/L"),
    "detected": ("yes-no", ""),
    "invoice-amount": ("quantity", "USD"),
    "any-invoice-amount": ("quantity", "USD"),
}


@dataclass(frozen=True)
class Question:
    kind: str
    text: str
    answer_type: str  # date | quantity | name | instrument | yes-no | list
    unit: str  # the quantity's unit ("" for other types)
    status: str  # answerable | superseded | never-stated | underspecified | stale
    value: str | tuple[str, ...] | None  # canonical text (ISO date, number, name...), list items
    evidence: tuple[Evidence, ...]
    trap: str = ""  # a superseded or stale value the record also prints ("" for none)

    @property
    def answerable(self) -> bool:
        return self.status in ANSWERABLE_STATUSES


def _number(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _candidates(record: Record) -> list[tuple[str, dict[str, str], str, object, str, str]]:
    """Every question the record supports: (kind, fields, status, value, fact key, trap)."""
    site, split = record.site, record.split
    out: list[tuple[str, dict[str, str], str, object, str, str]] = []
    ev = record.evidence
    tanks = record.tanks
    for t in tanks:
        tank = {"tank": f"T-{t.number}"}
        out.append(
            (
                "tank-capacity",
                tank,
                "answerable",
                _number(t.capacity),
                f"tank-capacity|{t.number}",
                "",
            )
        )
        out.append(("tank-product", tank, "answerable", t.product, f"tank-product|{t.number}", ""))
        if record.closure_in_record and t.removed:
            out.append(
                (
                    "tank-removal-date",
                    tank,
                    "answerable",
                    t.removed.isoformat(),
                    f"tank-removal|{t.number}",
                    "",
                )
            )
            out.append(("tank-removed", tank, "answerable", "yes", f"tank-removal|{t.number}", ""))
        elif record.closure_in_record:
            out.append(("tank-removed", tank, "answerable", "no", f"tank-kept|{t.number}", ""))
            out.append(("tank-removal-date", tank, "never-stated", None, "", ""))
        else:
            # without the closure report the record says only that the tank was in use when
            # registered: whether and when it came out is not in the record
            out.append(("tank-removal-date", tank, "never-stated", None, "", ""))
            out.append(("tank-removed", tank, "never-stated", None, "", ""))
    missing_tank = {"tank": f"T-{len(tanks) + 1}"}
    for kind in ("tank-capacity", "tank-product", "tank-removed"):
        out.append((kind, missing_tank, "never-stated", None, "", ""))
    # "the tank": answerable where the record has one tank, underspecified where it has several
    if len(tanks) > 1:
        out.append(("any-tank-capacity", {}, "underspecified", None, "", ""))
    else:
        only = tanks[0]
        out.append(
            (
                "any-tank-capacity",
                {},
                "answerable",
                _number(only.capacity),
                f"tank-capacity|{only.number}",
                "",
            )
        )
    removed = [t for t in tanks if t.removed]
    if not record.closure_in_record:
        out.append(("any-tank-removal", {}, "never-stated", None, "", ""))
    elif len(removed) > 1:
        out.append(("any-tank-removal", {}, "underspecified", None, "", ""))
    elif len(tanks) == 1:
        only = removed[0]
        out.append(
            (
                "any-tank-removal",
                {},
                "answerable",
                only.removed.isoformat(),
                f"tank-removal|{only.number}",
                "",
            )
        )
    out.append(("registration", {}, "answerable", record.registration, "tank-registration", ""))
    if record.closure_in_record:
        out.append(
            ("closure-contractor", {}, "answerable", record.contractor, "closure-contractor", "")
        )
    else:
        out.append(("closure-contractor", {}, "never-stated", None, "", ""))
    if record.nfa is not None:
        day, case, covers, excluded = record.nfa
        out.append(("nfa-date", {}, "answerable", day.isoformat(), "nfa-date", ""))
        out.append(("nfa-case", {}, "answerable", case, "nfa-case", ""))
        out.append(("nfa-groups", {}, "answerable", tuple(covers), "nfa-covers", ""))
        for group in CONTAMINANT_GROUPS:
            if group in covers:
                out.append(("nfa-covers", {"group": group}, "answerable", "yes", "nfa-covers", ""))
            elif group in excluded:
                out.append(("nfa-covers", {"group": group}, "answerable", "no", "nfa-excludes", ""))
            else:
                # the letter's scope is the groups it lists: one it is silent on is not covered
                out.append(("nfa-covers", {"group": group}, "answerable", "no", "nfa-covers", ""))
    else:
        out.append(("nfa-date", {}, "never-stated", None, "", ""))
        out.append(("nfa-case", {}, "never-stated", None, "", ""))
        out.append(("nfa-groups", {}, "never-stated", None, "", ""))
        group = CONTAMINANT_GROUPS[len(site.name) % len(CONTAMINANT_GROUPS)]
        out.append(("nfa-covers", {"group": group}, "never-stated", None, "", ""))
    number, _, expires = site.permit
    out.append(("permit-number", {}, "answerable", number, "permit-number", ""))
    permit = {"permit": number}
    if record.renewal is None:
        out.append(
            ("permit-expiry", permit, "answerable", expires.isoformat(), "permit-expiry", "")
        )
    elif record.renewal[1] is not None:
        out.append(
            (
                "permit-expiry",
                permit,
                "superseded",
                record.renewal[1].isoformat(),
                "permit-renewed-expiry",
                expires.isoformat(),
            )
        )
    else:
        out.append(("permit-expiry", permit, "stale", None, "", expires.isoformat()))
    cnumber, at = site.covenant
    out.append(("covenant-recording", {}, "answerable", cnumber, "covenant-recording", ""))
    out.append(("covenant-date", {}, "answerable", at.date().isoformat(), "covenant-date", ""))
    if "deed-recording" in ev:
        out.append(("deed-recording", {}, "answerable", site.deed[0], "deed-recording", ""))
    else:
        out.append(("deed-recording", {}, "never-stated", None, "", ""))
    if record.easement is not None:
        enumber, _, grantee, width = record.easement
        out.append(("easement-recording", {}, "answerable", enumber, "easement-recording", ""))
        out.append(("easement-grantee", {}, "answerable", grantee, "easement-grantee", ""))
        if record.easement_amended:
            out.append(("easement-width", {}, "stale", None, "", _number(width)))
        else:
            out.append(("easement-width", {}, "answerable", _number(width), "easement-width", ""))
    else:
        out.append(("easement-recording", {}, "never-stated", None, "", ""))
        out.append(("easement-grantee", {}, "never-stated", None, "", ""))
    st = record.consultant
    for well in site.wells:
        out.append(
            (
                "well-depth",
                {"well": st.well(well)},
                "answerable",
                _number(site.borings[well][1]),
                f"depth|{well}",
                "",
            )
        )
    for extra in range(1, 3):
        out.append(
            ("well-depth", {"well": st.well(max(site.wells) + extra)}, "never-stated", None, "", "")
        )
    tested = {name for name, _ in site.analytes}
    untested = [name for name, _ in ANALYTES if name not in tested]
    for key in sorted(k for k in ev if k.startswith("result|")):
        _, well, day, name = key.split("|")
        value = record.values[key]
        fields = {
            "analyte": name,
            "well": st.well(int(well)),
            "date": _spoken(dt.date.fromisoformat(day)),
        }
        if value is not None:
            out.append(("result", fields, "answerable", _number(value), key, ""))
        out.append(("detected", fields, "answerable", "no" if value is None else "yes", key, ""))
        if untested:
            other = dict(fields, analyte=untested[len(key) % len(untested)])
            out.append(("result", other, "never-stated", None, "", ""))
            out.append(("detected", other, "never-stated", None, "", ""))
    for well in site.wells:
        for name in sorted(tested):
            by_year: dict[str, list[str]] = {}
            for k in sorted(ev):
                if k.startswith(f"result|{well}|") and k.endswith(f"|{name}"):
                    by_year.setdefault(k.split("|")[2][:4], []).append(k)
            for year, keys in by_year.items():
                fields = {"analyte": name, "well": st.well(well), "year": year}
                stated = {record.values[k] for k in keys}
                if len(keys) == 1 and record.values[keys[0]] is not None:
                    value = _number(record.values[keys[0]])
                    out.append(("year-result", fields, "answerable", value, keys[0], ""))
                elif len(stated) > 1:
                    out.append(("year-result", fields, "underspecified", None, "", ""))
    for inv in site.invoices:
        out.append(
            (
                "invoice-amount",
                {"invoice": inv.number},
                "answerable",
                _number(inv.total / 100),
                f"invoice|{inv.number}",
                "",
            )
        )
    known = {inv.number for inv in site.invoices}
    missing = str(int(site.invoices[0].number) + 7)
    if missing not in known:
        out.append(("invoice-amount", {"invoice": missing}, "never-stated", None, "", ""))
    if len(site.invoices) > 1:
        out.append(("any-invoice-amount", {}, "underspecified", None, "", ""))
    else:
        only = site.invoices[0]
        value = _number(only.total / 100)
        out.append(("any-invoice-amount", {}, "answerable", value, f"invoice|{only.number}", ""))
    del split
    return out


def _spoken(day: dt.date) -> str:
    return f"{day:%B} {day.day}, {day.year}"


def sample_questions(
    rng: random.Random,
    record: Record,
    count: int,
    *,
    unanswerable_share: float = 0.4,
    answerable_only: bool = False,
) -> list[Question]:
    """`count` distinct questions about `record`. With `answerable_only`, only questions whose
    every evidence passage is laid out here (none from a results table cell); else about
    `unanswerable_share` of them unanswerable, at least one of each unanswerable status the record
    supports (a stale question where the record holds a superseded value)."""
    split = record.split
    pool = _candidates(record)
    rng.shuffle(pool)
    # a superseded question (the stale-record trap with an answer) goes first when there is one
    answerable = sorted(
        (c for c in pool if c[2] in ANSWERABLE_STATUSES),
        key=lambda c: c[2] != "superseded",
    )
    if answerable_only:
        # every passage laid out, and none that states the answer only by its silence
        answerable = [
            c
            for c in answerable
            if not _silent_scope(c) and all(e.passage for e in record.evidence[c[4]])
        ]
        # the kinds spread first: one of each kind before a second of any
        chosen = _spread(answerable, count)
    else:
        wanted = round(count * unanswerable_share)
        unanswerable = [c for c in pool if c[2] in UNANSWERABLE_STATUSES]
        first = []
        for status in UNANSWERABLE_STATUSES:
            of_status = [c for c in unanswerable if c[2] == status]
            if of_status:
                first.append(of_status[0])
        rest = [c for c in unanswerable if c not in first]
        picked = (first + _spread(rest, len(rest)))[:wanted]
        chosen = picked + _balanced(picked, answerable, count - len(picked))
        rng.shuffle(chosen)
    out = []
    for kind, fields, status, value, key, trap in chosen:
        text = WORDINGS[kind][0 if split == "dev" else 1].format(**fields)
        answer_type, unit = ANSWER_TYPES[kind]
        evidence = tuple(record.evidence[key]) if status in ANSWERABLE_STATUSES else ()
        out.append(Question(kind, text, answer_type, unit, status, value, evidence, trap))
    return out


def _silent_scope(candidate: tuple) -> bool:
    """An NFA letter asked about a group it neither covers nor excludes (answer "no")."""
    kind, _, status, value, key, _ = candidate
    return kind == "nfa-covers" and status == "answerable" and value == "no" and key == "nfa-covers"


def _balanced(unanswerable: list, answerable: list, count: int) -> list:
    """`count` answerable questions chosen so that a wording does not tell whether the record
    answers: each unanswerable question brings an answerable one of its wording where the record
    has one; the wordings that can go either way (no tank or invoice named, a year for a day)
    come next, then the rest round-robin over their kinds."""
    left = list(answerable)
    mates = []
    for question in unanswerable:
        mate = next((c for c in left if c[0] == question[0]), None)
        if mate is not None and len(mates) < count:
            mates.append(mate)
            left.remove(mate)
    left.sort(key=lambda c: c[0] not in EITHER_WAY)
    return mates + _spread(left, count - len(mates))


def _spread(items: list, count: int) -> list:
    """Up to `count` items, round-robin over their kinds (first element) in first-seen order."""
    by_kind: dict[str, list] = {}
    for item in items:
        by_kind.setdefault(item[0], []).append(item)
    out: list = []
    while len(out) < count and any(by_kind.values()):
        for kind in list(by_kind):
            if by_kind[kind] and len(out) < count:
                out.append(by_kind[kind].pop(0))
    return out


__all__ = [
    "ANSWERABLE_STATUSES",
    "ANSWER_TYPES",
    "UNANSWERABLE_STATUSES",
    "WORDINGS",
    "Question",
    "sample_questions",
]
