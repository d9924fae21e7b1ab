"""docs/reference-scores.md's Legal table for `party-roles`: blind baselines and columns
(read by benchmarks/reference_scores.py --legal)."""

import re

from _spec_parts import always, by_category_and, count, formula_score, share, trap_groups

BENCHMARK = "party-roles"
UNIT = "instruments"  # a case: the bootstrap resamples instruments, each with its parties
INTRO = (
    "The reference adapter (`solvers/party_roles.py`, rules developed on the dev split only) on both splits; "
    "the test split's law-firm templates, recorder styles and drafting wordings (how a party and its defined "
    "term are introduced, the role words, how ownership, operation, mergers and name changes are said) never "
    "occur in dev. Beside it, blind baselines that copy the parties' names (and, for the last, the instrument's "
    "kind) from the answer key, since a blind reader could not name a party otherwise. "
    "The score is the category's formula, 100 × max(0, (parties with every role right − 5 × non-owners called "
    "owners) ÷ parties); *unclipped* drops the max(0, ·)."
)

# The roles an instrument of each kind gives its first company and its others, when a name tells nothing.
PRIMARY = {
    "railroad-lease": ("lessor", "owner"), "commercial-lease": ("lessor", "owner"), "mortgage": ("borrower", "owner"),
    "purchase-agreement": ("seller", "owner"), "environmental-indemnity": ("borrower", "indemnitor", "owner"),
    "access-agreement": ("grantor", "owner"), "deed": ("grantor",), "environmental-covenant": ("owner",),
}
SECONDARY = {
    "railroad-lease": ("lessee", "operator"), "commercial-lease": ("lessee", "operator"), "mortgage": ("lender",),
    "purchase-agreement": ("buyer",), "environmental-indemnity": ("guarantor", "indemnitor"),
    "access-agreement": ("grantee",), "deed": ("grantee",), "environmental-covenant": ("holder",),
}
PERSON = re.compile(r"^[A-Z][a-z]+ [A-Z]\. [A-Z][a-z]+$")


def _guess(kind: str, name: str, first_company: bool) -> list[str]:
    lowered = name.lower()
    if re.search(r"\bbank\b|credit union|mortgage|funding|savings", lowered):
        return ["lender", "indemnitee"] if kind == "environmental-indemnity" else ["lender"]
    if "rail" in lowered:
        return ["lessor", "owner"]
    if re.search(r"department|division", lowered):
        return ["agency", "grantee"] if kind == "access-agreement" else ["agency"]
    if re.search(r"conservancy|council|authority|district", lowered):
        return ["holder"]
    if PERSON.match(name):
        return {"purchase-agreement": ["buyer"], "deed": ["grantee"],
                "environmental-indemnity": ["guarantor", "indemnitor"]}.get(kind, ["guarantor"])
    return list(PRIMARY[kind] if first_company else SECONDARY[kind])


def _names_tell(case_input, answer):
    out, first = [], True
    for party in answer.parties:
        roles = _guess(answer.kind, party.name, first)
        first = first and roles != list(PRIMARY[answer.kind])
        out.append({"name": party.name, "roles": roles})
    return {"parties": out}


def _every_owner(case_input, answer):
    return {"parties": [{"name": p.name, "roles": ["owner"]} for p in answer.parties]}


def _first_grantor(case_input, answer):
    roles = [["grantor", "owner"]] + [["grantee"]] * (len(answer.parties) - 1)
    return {"parties": [{"name": p.name, "roles": r} for p, r in zip(answer.parties, roles, strict=True)]}


BASELINES = {
    "no parties": always({"parties": []}),
    "every named party an owner (names from the key)": _every_owner,
    "first party grantor and owner, the others grantees (names from the key)": _first_grantor,
    "roles guessed from each name and the instrument's kind (names and kind from the key)": _names_tell,
}
COLUMNS = (
    *formula_score("party_roles"),
    count("parties_all_roles_right", "all roles right"),
    count("non_owners_called_owners", "non-owners called owners"),
    count("parties"),
    count("extra_parties", "extra parties"),
    share("role_precision", "role precision"),
    share("role_recall", "role recall"),
)
GROUP_METRIC = ("party_all_roles_right", "party")
GROUP_TITLE = "Parties with every role right (reference adapter), by instrument kind (the case category), copy and trap"
_BY_COPY = by_category_and("scanned", "scanned copies", "born-digital copies")


def groups(case_id, category, answer):
    return [*_BY_COPY(case_id, category, answer), *trap_groups(answer.traps)]
