"""Benchmark type `party-roles`: every party of an instrument, with all its roles.

A case is one instrument as a PDF copy (`Input.document`), born digital or scanned: a lease or
memorandum of lease, a mortgage or deed of trust, a purchase and sale agreement, an environmental
indemnity agreement, an access agreement, a deed or a UECA environmental covenant. A system
returns the parties, each with its name and its roles, every role one of the closed set ROLES:

    grantor, grantee     the parties of a conveyance or grant (a deed; an access agreement's grant
                         of entry). Security instruments use borrower and lender instead.
    seller, buyer        a purchase and sale agreement's parties
    lessor, lessee       a lease's parties (landlord, tenant)
    lender, borrower     the parties of a loan: mortgagee or deed-of-trust beneficiary, mortgagor
                         or trustor; also a lender joining a covenant to subordinate its mortgage
    indemnitee, indemnitor
                         the parties an indemnity protects and binds; they are separate values
                         from lender and borrower, so a lender that is indemnified has both
                         "lender" and "indemnitee"
    guarantor            a party guaranteeing another's obligations
    owner                a party the instrument calls or states to be the property's owner (a
                         covenant's "Owner", a landlord or borrower that "is the owner", a railroad
                         that "retains fee title"). A lender is never an owner, whatever indicia of
                         ownership it holds to protect its security interest (CERCLA's
                         secured-creditor exemption); nor is a deed of trust's trustee.
    operator             a party the instrument says operates the facility
    holder, agency       a UECA covenant's holder and agency

Who is a party: the entity bound or benefited, not who signs for it. When trustees sign for a
trust, the trust is the party (the trustees are named, not parties); a party "successor by merger
to" another is the party, the merged predecessor is named but not a party; a party "formerly
known as" (f/k/a) another name is one party, and the answer accepts either name. A consultant, an
escrow agent, a deed of trust's trustee, the notary, the drafting firm are named in the copy and
are not parties: the closed set has no role for them.

Prediction: `{"parties": [{"name": "...", "roles": ["lessor", "owner"]}, ...]}`.
An entry with no roles claims nothing and is ignored: listing a named non-party with no role is
harmless.

Matching. Names are compared after normalisation (`normalize_name`): case folded, "&" read as
"and", punctuation dropped (so "L.L.C." is "LLC" and "Inc." is "Inc"), corporate words
shortened ("Incorporated" -> "inc", "Corporation" -> "corp", "Company" -> "co", "Limited" ->
"ltd"), a leading "the" dropped, spaces collapsed. A predicted entry matches the true party whose
name or declared alias (a former name) normalises the same. Two entries of a prediction that
normalise to the same name are refused (a clear error on `$.parties`). Two entries that name one
party by different names (its name and its former name) are merged: the party's predicted roles
are the union of theirs.

Scoring (the one profile, `roles`, is the default gate). Per case:

    party_all_roles_right   true parties whose predicted roles are exactly their roles (a party
                            not predicted has none right)
    non_owner_called_owner  predicted parties called "owner" that are not owners: a true party
                            without the owner role, or an entry matching no true party (a lender,
                            a consultant, an invented name)
    party                   the parties either side lists: the true parties and the extra
                            parties (the case's weight in the counts; the formula's "parties")
    key_party               true parties
    extra_party             predicted entries with roles that match no true party (an escrow
                            trustee called grantee, a merged predecessor called grantor, an
                            invented name): each is a party the system got wrong, so it counts
                            among the parties and never among those with every role right
    role_true_positive      (party, role) pairs predicted and true
    role_false_positive     pairs predicted and not true (an extra party's roles included)
    role_false_negative     pairs true and not predicted

Errors (the gate uses them; each names the mistake the same way in every run):
("missed-party", name), ("missing-role", name, role), ("extra-role", name, role) (any role but
owner), ("non-owner-called-owner", name) and ("extra-party", normalised predicted name); names
are the answer's, except an extra party's.

Headline (sums over the run): `party_roles_score` (primary; the component score of the published
formula, 100 × max(0, (parties_all_roles_right − 5 × non_owners_called_owners) ÷ parties)),
`party_roles_score_unclipped` (the same without max(0, ·)), `parties_all_roles_right`,
`non_owners_called_owners`, `parties` (true parties + extra parties), `parties_in_key`,
`extra_parties`, `party_accuracy` (all roles right ÷ parties), `role_precision` and
`role_recall` over (party, role) pairs (each 0 when nothing is predicted or there is nothing to
find). An extra party so costs what a missed party costs (one party not right); one called owner
costs five more.

Scoring versions: v1 counted only the true parties as the formula's parties, so extra parties
with non-owner roles cost nothing in the headline (a predicted escrow trustee and merged
predecessor still scored 100); v2 counts them (`party` = true + extra).

Break-even: adding "owner" to a party a system is unsure of gains that party (1) when it is an
owner and costs 5 when it is not; it pays only when the system is right more than 5 in 6 times
(p − 5(1 − p) > 0 ⇔ p > 5/6). Calling every party an owner scores 0 on any dataset where more
than a sixth of the parties are not owners.

Predictions are data: the strict converter reads them into `Prediction` (names as strings, roles
from the closed literals) and the scorer only compares them with the answer.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Literal

import attrs

import envirobench
from envirobench import Case, CaseScore, pdf_path

from .copies import ScannedPage
from .scores import penalised_score

# Each dataset folder under benchmarks/<type ID>/datasets/ -> its dataset ID.
DATASETS = {
    "synthetic-dev-v1": "envirobench/party-roles-synthetic-dev-v1",
    "synthetic-test-v1": "envirobench/party-roles-synthetic-test-v1",
}

Role = Literal[
    "grantor", "grantee", "seller", "buyer", "lessor", "lessee", "lender", "borrower", "indemnitee", "indemnitor",
    "guarantor", "owner", "operator", "holder", "agency",
]
ROLES: tuple[str, ...] = (
    "grantor", "grantee", "seller", "buyer", "lessor", "lessee", "lender", "borrower", "indemnitee", "indemnitor",
    "guarantor", "owner", "operator", "holder", "agency",
)
Kind = Literal[
    "railroad-lease", "commercial-lease", "mortgage", "purchase-agreement", "environmental-indemnity",
    "access-agreement", "deed", "environmental-covenant",
]
Reason = Literal["consultant", "merged-predecessor", "signing-trustee", "deed-of-trust-trustee", "escrow-agent"]
PENALTY = 5  # categories.PARTY_ROLES: one non-owner called owner cancels five parties

WORDS = {"incorporated": "inc", "corporation": "corp", "company": "co", "limited": "ltd", "&": "and"}


def normalize_name(name: str) -> str:
    """A party name as compared: case, punctuation and corporate spelling set aside."""
    text = name.casefold().replace("&", " & ")
    text = re.sub(r"[.,'’\"()]", "", text)
    text = re.sub(r"[-/]", " ", text)
    words = [WORDS.get(word, word) for word in text.split()]
    if words and words[0] == "the":
        words = words[1:]
    return " ".join(words)


def _roles(instance: Any, attribute: attrs.Attribute, value: tuple[str, ...]) -> None:
    if len(set(value)) != len(value):
        raise ValueError(f"{attribute.name} repeats a role: {list(value)}")


def _name(instance: Any, attribute: attrs.Attribute, value: str) -> None:
    if not normalize_name(value):
        raise ValueError(f"{attribute.name} is empty once normalised: {value!r}")


@attrs.frozen
class Input:
    """One case: the copy of one instrument, a dataset-relative PDF path."""

    document: str = attrs.field(validator=pdf_path)


@attrs.frozen
class TrueParty:
    """A party of the instrument: its name, the other names it goes by (a former name), its roles."""

    name: str = attrs.field(validator=_name)
    roles: tuple[Role, ...] = attrs.field(validator=_roles)
    aliases: tuple[str, ...] = ()

    @roles.validator
    def _some_role(self, attribute: attrs.Attribute, value: tuple[str, ...]) -> None:
        if not value:
            raise ValueError("roles is empty: a party of the answer has at least one role")


@attrs.frozen
class NamedOther:
    """An entity the instrument names that is not a party with a role, and why."""

    name: str
    reason: Reason


def _distinct_parties(instance: Any, attribute: attrs.Attribute, value: tuple[Any, ...]) -> None:
    seen: dict[str, int] = {}
    for index, party in enumerate(value):
        for name in (party.name, *getattr(party, "aliases", ())):
            key = normalize_name(name)
            if key in seen and seen[key] != index:
                raise ValueError(
                    f"{attribute.name}[{index}] and {attribute.name}[{seen[key]}] name the same party once "
                    f"normalised ({key!r}); list each party once, with all its roles"
                )
            seen[key] = index


@attrs.frozen
class Answer:
    """The truth: the parties with their roles, and the named entities that are not parties;
    `kind`, `traps` and `scanned` describe the copy (for breakdowns) and are not scored."""

    parties: tuple[TrueParty, ...] = attrs.field(validator=_distinct_parties)
    others: tuple[NamedOther, ...]
    kind: Kind
    traps: tuple[str, ...]
    scanned: bool
    scan_pages: tuple[ScannedPage, ...] = ()  # what each scanned page went through (copies.py)


@attrs.frozen
class PredictedParty:
    name: str = attrs.field(validator=_name)
    roles: tuple[Role, ...] = attrs.field(validator=_roles)


@attrs.frozen
class Prediction:
    """A system's reading: each party once, with its roles."""

    parties: tuple[PredictedParty, ...] = attrs.field(validator=_distinct_parties)


def match(answer: Answer, prediction: Prediction) -> tuple[list[set[str] | None], list[PredictedParty]]:
    """The predicted roles of each true party (None: not predicted), and the entries matching none."""
    index: dict[str, int] = {}
    for position, party in enumerate(answer.parties):
        for name in (party.name, *party.aliases):
            index[normalize_name(name)] = position
    found: list[set[str] | None] = [None] * len(answer.parties)
    extra = []
    for entry in prediction.parties:
        if not entry.roles:
            continue  # a name without a role claims nothing
        position = index.get(normalize_name(entry.name))
        if position is None:
            extra.append(entry)
            continue
        found[position] = (found[position] or set()) | set(entry.roles)
    return found, extra


class PartyRoles(envirobench.BenchmarkType):
    ID = "party-roles"
    FORMAT = "envirobench.party-roles.v1"
    LABEL = "Party roles"
    SCORING_VERSION = "envirobench.party-roles.scores.v2"
    TIER = "document"
    PROFILES = ("roles",)
    HEADLINE = (
        "party_roles_score",
        "party_roles_score_unclipped",
        "parties_all_roles_right",
        "non_owners_called_owners",
        "parties",
        "parties_in_key",
        "extra_parties",
        "party_accuracy",
        "role_precision",
        "role_recall",
    )
    SOURCE_FIELDS = ("document",)

    def score_case(self, case: Case, answer: Answer, prediction: Prediction) -> dict[str, CaseScore]:
        found, extra = match(answer, prediction)
        errors: list[tuple[str, ...]] = []
        right = called_owner = tp = fp = fn = 0
        for party, predicted in zip(answer.parties, found, strict=True):
            truth = set(party.roles)
            if predicted is None:
                errors.append(("missed-party", party.name))
                fn += len(truth)
                continue
            right += predicted == truth
            tp += len(predicted & truth)
            fp += len(predicted - truth)
            fn += len(truth - predicted)
            errors += [("missing-role", party.name, role) for role in ROLES if role in truth - predicted]
            for role in ROLES:
                if role in predicted - truth:
                    if role == "owner":
                        called_owner += 1
                        errors.append(("non-owner-called-owner", party.name))
                    else:
                        errors.append(("extra-role", party.name, role))
        for entry in extra:
            key = normalize_name(entry.name)
            errors.append(("extra-party", key))
            fp += len(entry.roles)
            if "owner" in entry.roles:
                called_owner += 1
                errors.append(("non-owner-called-owner", key))
        metrics = {
            "party_all_roles_right": float(right),
            "non_owner_called_owner": float(called_owner),
            "party": float(len(answer.parties) + len(extra)),
            "key_party": float(len(answer.parties)),
            "extra_party": float(len(extra)),
            "role_true_positive": float(tp),
            "role_false_positive": float(fp),
            "role_false_negative": float(fn),
        }
        return {"roles": CaseScore(errors=tuple(errors), metrics=metrics)}

    def summarize_totals(self, profile: str, totals: Mapping[str, float], cases: int) -> dict[str, float]:
        right, called, parties = totals["party_all_roles_right"], totals["non_owner_called_owner"], totals["party"]
        tp, fp, fn = totals["role_true_positive"], totals["role_false_positive"], totals["role_false_negative"]
        return {
            **penalised_score("party_roles", right, called, parties, PENALTY),
            "parties_all_roles_right": right,
            "non_owners_called_owners": called,
            "parties": parties,
            "parties_in_key": totals["key_party"],
            "extra_parties": totals["extra_party"],
            "party_accuracy": right / parties if parties else 0.0,
            "role_precision": tp / (tp + fp) if tp + fp else 0.0,
            "role_recall": tp / (tp + fn) if tp + fn else 0.0,
        }
