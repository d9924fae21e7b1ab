"""Drafting a contract (`sample_contract`): the purchase agreement or indemnity agreement with its
indemnity article, definitions and schedules.
"""

from __future__ import annotations

import datetime as dt
import random

from ..families import RecorderStyle, Template
from ..instruments import (
    CAPACITIES,
    DRAFT_MARKERS,
    LENDERS,
    Acknowledgment,
    Instrument,
    Signature,
    long_date,
    person,
    sample_recording,
)
from .templates import CONSULTANTS, EXECUTED, FORMS, NUMBERING, ROLE_TERMS, SCOPES, SELLERS, TITLES
from .terms import Contract, ContractTerms, Numbering, draw_terms, entity_description
from .wording import WORDING, money, ordinal_word, words


class Drafter:
    """Writes one contract's paragraphs in its split's drafting styles."""

    def __init__(self, rng: random.Random, split: str, terms: ContractTerms, numbering: Numbering, context: dict[str, str]):
        self.rng, self.split, self.terms, self.numbering, self.context = rng, split, terms, numbering, context

    def say(self, term: str, **extra: str) -> str:
        text = self.rng.choice(WORDING[term][self.split])
        return text.format(**{**self.context, **extra})

    def money(self, amount: int) -> str:
        return money(self.rng, amount, self.split)


def indemnity_article(d: Drafter, number: int, general_survival: str | None) -> tuple[list[str], list[str]]:
    """The environmental indemnity's paragraphs, and definitions it adds to Section 1.1."""
    t, rng, n = d.terms, d.rng, d.numbering
    definitions: list[str] = []
    sub = iter(range(1, 20))
    out = [n.heading(number, "Environmental Indemnity")]
    narrowed = t.scope != "all-environmental-liabilities" and rng.random() < 0.25
    wide = rng.choice([s for s in SCOPES if SCOPES.index(s) > SCOPES.index(t.scope)]) if narrowed else t.scope
    out.append(f"{n.sub(number, next(sub))} Indemnity. " + d.say("lead", scope=d.say(wide)))
    limits = []
    if narrowed:
        t.traps.append("notwithstanding-scope")
        limits.append(d.say("narrowing", narrow=d.say(f"narrow-{t.scope}")))
    if t.cap is not None:
        if "percent-cap" in t.traps:
            pct = t.cap * 100 // t.purchase_price
            limits.append(d.say("cap-percent", pct=str(pct), pct_words=words(pct)))
        elif rng.random() < 0.3:
            t.traps.append("cross-reference")
            limits.append(d.say("cap-defined"))
            definitions.append(d.say("cap-definition", amount=d.money(t.cap)))
        else:
            limits.append(d.say("cap", amount=d.money(t.cap)))
    elif rng.random() < 0.5:
        limits.append(d.say("uncapped"))
    if t.basket is not None:
        kind, amount = t.basket
        if rng.random() < 0.25:
            if "cross-reference" not in t.traps:
                t.traps.append("cross-reference")
            limits.append(d.say("basket-defined", tail=d.say(f"basket-tail-{kind}")))
            definitions.append(d.say("basket-definition", amount=d.money(amount)))
        else:
            limits.append(d.say(kind, amount=d.money(amount)))
    if t.de_minimis is not None:
        limits.append(d.say("de-minimis", amount=d.money(t.de_minimis)))
    if limits:
        out.append(f"{n.sub(number, next(sub))} Limitations. " + " ".join(limits))
    carve = []
    for name in t.exclusions:
        carve.append(d.say(name, days=str(rng.choice((30, 45, 60, 90, 180)))))
    if carve:
        out.append(f"{n.sub(number, next(sub))} Exclusions. " + " ".join(carve))
    if "late-notice" not in t.exclusions and rng.random() < 0.4:
        t.traps.append("benign-notice")
        out.append(f"{n.sub(number, next(sub))} Notice of Claims. " + d.say("benign-notice"))
    if t.survival_months is not None:
        months = t.survival_months
        if months % 12 == 0 and (d.split == "test" or rng.random() < 0.5):
            text = d.say("survival-years", y=str(months // 12), y_words=words(months // 12), nth=ordinal_word(months // 12))
        else:
            text = d.say("survival-months", n=str(months), n_words=words(months))
    else:
        text = d.say("survival-unlimited")
    if general_survival is not None:
        t.traps.append("general-survival")
        lead = d.say("override-survival", general=general_survival)
        text = lead + ("the " + text[4:] if text.startswith("The ") else text)
    if t.survival_months is not None or general_survival is not None or rng.random() < 0.7:
        out.append(f"{n.sub(number, next(sub))} Survival. " + text)
    return out, definitions


def definitions_paragraphs(d: Drafter, extra: list[str], price: bool) -> list[str]:
    n = d.numbering
    out = [n.heading(1, "Definitions"), f"{n.sub(1, 1)} Defined Terms. In this Agreement:"]
    out.append("\"Environmental Laws\" means all federal, state and local laws, regulations, ordinances and common law "
               "relating to pollution or the protection of human health or the environment, including the Comprehensive "
               "Environmental Response, Compensation, and Liability Act, 42 U.S.C. \u00a7 9601 et seq., and the Resource "
               "Conservation and Recovery Act, 42 U.S.C. \u00a7 6901 et seq., each as amended.")
    out.append("\"Hazardous Substances\" means any substance regulated under any Environmental Law, including petroleum and "
               "its fractions, asbestos, polychlorinated biphenyls and per- and polyfluoroalkyl substances.")
    out.append(f"\"{d.context['L']}\" means all claims, liabilities, damages, fines, penalties, costs of investigation and "
               "Remediation, and reasonable attorneys' and consultants' fees.")
    if price:
        out.append("\"Property\" means the land described in Exhibit A, with all improvements on it.")
    return out + extra


def purchase_agreement(rng: random.Random, split: str, template: Template, terms: ContractTerms,
                       seller_term: str, buyer_term: str, effective: dt.date) -> list[str]:
    n = Numbering(NUMBERING[template.name])
    losses = rng.choice(WORDING["losses"][split])
    reps, brokers, env = 5, 6, 7
    context = {"I": seller_term, "E": buyer_term, "S": seller_term, "L": losses, "sec": n.section(env, 1),
               "art": n.article(env), "sched": f"Schedule {n.sub(env, 1)}", "rep": n.section(reps, 2),
               "reps": n.article(reps)}
    d = Drafter(rng, split, terms, n, context)
    seller, buyer = terms.indemnitor, terms.indemnitee
    price, deposit = terms.purchase_price, rng.choice((50_000, 100_000, 150_000, 250_000))
    rep_cap = rng.random() < 0.4
    limits = env + 1
    survival = env + 2 if rep_cap else env + 1
    general = None
    if terms.survival_months is not None and rng.random() < 0.3:
        general = n.section(survival, 1)
    article, definitions = indemnity_article(d, env, general)
    terms.traps += ["deposit-amount", "signing-before-closing"]
    body = [
        f"THIS {template_title(rng, split, terms.form)} (this \"Agreement\") is made as of {long_date(effective)} by and "
        f"between {seller}, {entity_description(seller, rng)} (\"{seller_term}\"), and {buyer}, "
        f"{entity_description(buyer, rng)} (\"{buyer_term}\").",
    ]
    body += definitions_paragraphs(d, definitions, price=True)
    body += [
        n.heading(2, "Purchase Price"),
        f"{n.sub(2, 1)} Price. The purchase price for the Property is {d.money(price)} (the \"Purchase Price\"), payable in "
        "immediately available funds at the Closing.",
        f"{n.sub(2, 2)} Deposit. Within three business days after the date of this Agreement, {buyer_term} shall deposit "
        f"{d.money(deposit)} with the Title Company as earnest money, to be applied to the Purchase Price at the Closing.",
        n.heading(3, "Closing"),
        f"{n.sub(3, 1)} " + (f"Closing Date. The closing of the purchase and sale of the Property (the \"Closing\") shall "
                             f"take place on {long_date(terms.closing_date)} (the \"Closing Date\")." if split == "dev" else
                             f"Closing Date. The Closing Date is {long_date(terms.closing_date)}. The closing of the sale "
                             "(the \"Closing\") shall take place at the offices of the Title Company on the Closing Date."),
        f"{n.sub(3, 2)} Prorations. Real estate taxes and utilities shall be prorated as of the Closing Date.",
        n.heading(4, "Title and Inspections"),
        f"{n.sub(4, 1)} Title. {buyer_term} shall have twenty (20) days after receipt of the title commitment to object "
        f"to any exception to title; {seller_term} may elect to cure any objection within ten (10) days.",
    ]
    if rng.random() < 0.5:
        terms.traps.append("access-indemnity")
        body.append(
            f"{n.sub(4, 2)} Access. {buyer_term} and its consultants may enter the Property before the Closing to conduct "
            f"inspections. {buyer_term} shall indemnify, defend and hold harmless {seller_term} from any damage to persons "
            f"or property caused by such entry; provided that {buyer_term} shall have no liability for the mere discovery "
            "of conditions existing at the Property."
        )
    body += [
        n.heading(reps, "Representations and Warranties"),
        f"{n.sub(reps, 1)} Authority. Each party represents that it has full power to enter into this Agreement.",
        f"{n.sub(reps, 2)} Environmental Matters. {seller_term} represents and warrants to {buyer_term} that, to "
        f"{seller_term}'s knowledge and except as disclosed in the Environmental Reports, no Hazardous Substances have "
        "been released at the Property in violation of Environmental Laws and no underground storage tank is located at "
        "the Property.",
        n.heading(brokers, "Brokers"),
    ]
    if rng.random() < 0.5:
        terms.traps.append("brokers-indemnity")
        body.append(f"{n.sub(brokers, 1)} Each party represents that it has dealt with no broker in connection with this "
                    "transaction, and each party shall indemnify and hold the other harmless from any claim for a commission "
                    "arising through it.")
    else:
        body.append(f"{n.sub(brokers, 1)} Each party represents that it has dealt with no broker in connection with this "
                    "transaction.")
    body += article
    if rep_cap:
        terms.traps.append("rep-cap-elsewhere")
        other_cap = rng.choice((100_000, 200_000, 400_000, 600_000, 900_000))
        body += [n.heading(limits, "Limitations on Liability"), f"{n.sub(limits, 1)} " + d.say("rep-cap", amount=d.money(other_cap))]
    misc = [n.heading(survival, "Survival and Miscellaneous")]
    index = 1
    if general is not None:
        months = other_months(rng, terms)
        misc.append(f"{n.sub(survival, index)} Survival. " + d.say("general-survival", n=str(months), n_words=words(months)))
        index += 1
    if rng.random() < 0.5:
        terms.traps.append("other-survival")
        months = other_months(rng, terms)
        other = f"{n.article(brokers)} (Brokers)" if rng.random() < 0.5 else f"{n.section(reps, 1)} (Authority)"
        misc.append(f"{n.sub(survival, index)} " + d.say("other-survival", other=other, n=str(months), n_words=words(months)))
        index += 1
    misc.append(f"{n.sub(survival, index)} Governing Law. This Agreement is governed by the laws of the State in which the "
                "Property is located.")
    body += misc
    body += schedules(d, env, reps)
    return body


def other_months(rng: random.Random, terms: ContractTerms) -> int:
    """A survival period that is not the indemnity's (so a reader who takes it is wrong)."""
    return rng.choice([m for m in (6, 9, 12, 18, 24) if m != terms.survival_months])


def schedules(d: Drafter, env: int, reps: int) -> list[str]:
    t, rng, n = d.terms, d.rng, d.numbering
    consultant = rng.choice(CONSULTANTS)
    report = long_date(t.closing_date - dt.timedelta(days=rng.randint(60, 400)))
    if t.scope == "scheduled-matters-only":
        return [
            f"SCHEDULE {n.sub(env, 1)}",
            f"1. Petroleum hydrocarbons in soil and groundwater near the former underground storage tanks, as described in "
            f"the Phase II Environmental Site Assessment prepared by {consultant} dated {report}.",
            "2. Tetrachloroethylene (PCE) in groundwater beneath the eastern portion of the Property.",
        ]
    if rng.random() < 0.3:
        t.traps.append("disclosure-schedule")
        return [
            f"SCHEDULE {n.sub(reps, 2)} - ENVIRONMENTAL REPORTS",
            f"1. Phase I Environmental Site Assessment prepared by {consultant} dated {report}.",
            "2. Limited subsurface investigation letter report (soil borings B-1 through B-6).",
        ]
    return []


def template_title(rng: random.Random, split: str, form: str) -> str:
    return rng.choice(TITLES[split][form])


def indemnity_agreement(rng: random.Random, split: str, template: Template, terms: ContractTerms,
                        indemnitor_term: str, indemnitee_term: str, seller: str, lender: str | None) -> list[str]:
    n = Numbering(NUMBERING[template.name])
    losses = rng.choice(WORDING["losses"][split])
    env = 2
    context = {"I": indemnitor_term, "E": indemnitee_term, "S": "Seller", "L": losses, "sec": n.section(env, 1),
               "art": n.article(env), "sched": "Schedule 1", "rep": "Section 6.2 of the Purchase Agreement",
               "reps": "the Purchase Agreement"}
    d = Drafter(rng, split, terms, n, context)
    article, definitions = indemnity_article(d, env, None)
    buyer = terms.indemnitee
    purchase_date = terms.closing_date - dt.timedelta(days=rng.randint(30, 150))
    parent = "parent-indemnitor" in terms.traps
    recital_seller = (f"WHEREAS, {seller} (\"Seller\"), a wholly owned subsidiary of {indemnitor_term}, and {indemnitee_term} "
                      if parent else f"WHEREAS, {indemnitor_term} and {indemnitee_term} ")
    body = [
        f"THIS {template_title(rng, split, terms.form)} (this \"Agreement\") is made as of {long_date(terms.closing_date)} by "
        f"{terms.indemnitor}, {entity_description(terms.indemnitor, rng)} (\"{indemnitor_term}\"), in favor of {buyer}, "
        f"{entity_description(buyer, rng)} (\"{indemnitee_term}\").",
        recital_seller + f"are parties to that certain Purchase and Sale Agreement dated {long_date(purchase_date)} (the "
        f"\"Purchase Agreement\"), under which the real property described in Exhibit A (the \"Property\") is sold to "
        f"{indemnitee_term} for a purchase price of {d.money(terms.purchase_price)} (the \"Purchase Price\").",
        f"WHEREAS, the closing under the Purchase Agreement (the \"Closing\") is taking place on "
        f"{long_date(terms.closing_date)} (the \"Closing Date\"), and it is a condition of the Closing that "
        f"{indemnitor_term} deliver this Agreement.",
    ]
    if lender is not None:
        terms.traps.append("lender-named")
        body.append(f"WHEREAS, {indemnitee_term} is financing its acquisition of the Property with a loan from {lender} "
                    "(the \"Lender\"), which is not a party to this Agreement.")
    body.append(f"NOW, THEREFORE, {indemnitor_term} agrees as follows:")
    body += definitions_paragraphs(d, definitions, price=False)
    body += article
    index = 1
    closing = [n.heading(3, "General Provisions")]
    if lender is not None:
        closing.append(f"{n.sub(3, index)} Assignment. {indemnitee_term} may collaterally assign its rights under this "
                       "Agreement to the Lender; no such assignment makes the Lender an indemnified party.")
        index += 1
    closing.append(f"{n.sub(3, index)} Governing Law. This Agreement is governed by the laws of the State in which the "
                   "Property is located.")
    body += closing
    if terms.scope == "scheduled-matters-only":
        consultant = rng.choice(CONSULTANTS)
        body += ["SCHEDULE 1",
                 f"1. Chlorinated solvents in soil gas and groundwater at the former dry cleaning unit, as reported by "
                 f"{consultant}.",
                 "2. Lead in shallow soil along the western property line."]
    return body


def sample_contract(rng: random.Random, split: str, template: Template, execution: str, form: str,
                    recorder: RecorderStyle | None = None) -> Contract:
    """One contract of `form` in `template`, in the drafting styles of `split`, showing `execution`
    (a key of EXECUTED; "recorded" needs `recorder`)."""
    if execution not in EXECUTED:
        raise ValueError(f"unknown execution scenario {execution!r}")
    if form not in FORMS:
        raise ValueError(f"unknown contract form {form!r}")
    if execution == "recorded" and recorder is None:
        raise ValueError("a recorded contract needs a recorder style")
    terms = draw_terms(rng, form, execution)
    first, second = rng.choice(ROLE_TERMS[split][form])
    if form == "purchase-and-sale":
        effective = terms.closing_date - dt.timedelta(days=rng.randint(45, 200))
        body = purchase_agreement(rng, split, template, terms, first, second, effective)
        parties = [(first.upper(), terms.indemnitor), (second.upper(), terms.indemnitee)]
        date = effective
        title = body[0].split(" (this")[0].removeprefix("THIS ")
    else:
        seller = terms.indemnitor
        if "parent-indemnitor" in terms.traps:
            seller = rng.choice([s for s in SELLERS if s != terms.indemnitor])
        lender = rng.choice(LENDERS) if rng.random() < 0.4 else None
        body = indemnity_agreement(rng, split, template, terms, first, second, seller, lender)
        parties = [(first.upper(), terms.indemnitor), (second.upper(), terms.indemnitee)]
        date = terms.closing_date
        title = body[0].split(" (this")[0].removeprefix("THIS ")
    if execution == "bracketed-blanks":
        # A draft still being negotiated: its date and a drafting note left in brackets.
        body[0] = body[0].replace(long_date(date), "[__________], 20[__]", 1)
        body.insert(len(body) // 2, "[NTD: Parties to confirm the survival period and the Schedule before signing.]")
    mark = {"unrecorded": "ink", "recorded": "ink", "conformed-unrecorded": "conformed"}.get(execution, "blank")
    signatures = []
    for role, party in parties:
        individual = rng.random() < 0.15
        signer = person(rng)
        signatures.append(Signature(role, party, signer, rng.choice(CAPACITIES) if not individual else "Manager", mark))
    if execution == "covenant-missing-signature":
        # One party signed; the other's line is still blank.
        signatures[0].mark = "ink"
    acknowledgments, recording = [], None
    if execution == "recorded":
        assert recorder is not None
        notary = person(rng)
        expires = date + dt.timedelta(days=rng.randint(200, 1400))
        acknowledgments = [Acknowledgment(recorder.state, recorder.county, sig.signer, sig.capacity, notary, date, expires,
                                          f"{rng.randint(100000, 999999)}", "ink") for sig in signatures]
        recording = sample_recording(rng, recorder, date, max_days=20)
    blank_witness = execution in ("draft-marker", "bracketed-blanks")
    witness = template.blank_witness_clause if blank_witness else template.witness_clause.format(date=long_date(date), party="")
    instrument = Instrument(
        kind=form, title=title, scenario=execution, template=template, recorder=recorder or _NO_RECORDER, date=date,
        return_to=[], body=body[:], witness_clause=witness, signatures=signatures, acknowledgments=acknowledgments,
        recording=recording,
    )
    if execution == "draft-marker":
        instrument.draft_marker = rng.choice(DRAFT_MARKERS)
        instrument.marker_every_page = rng.random() < 0.6
    if execution == "execution-version-unsigned" or (execution == "unrecorded" and rng.random() < 0.2):
        instrument.execution_version = True
    return Contract(instrument, terms)


# Unrecorded contracts never reach a recorder; the Instrument model still names a style.
_NO_RECORDER = RecorderStyle("none", "", "", "", "box-first-page", "", "", "", "%m/%d/%Y", "%H:%M", "", "")
