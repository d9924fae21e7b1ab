"""The reference adapter's `indemnity-terms` solver: its rules on sentences, on rendered dev
contracts, its independence from the generator's wording, and a run through core on part of the
dev split."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from legal_kit import dev_sample, reference_run

from envirobench import Case, structure
from envirobench_legal.generate.indemnity_terms import answer_of
from envirobench_legal.indemnity_terms import Answer, IndemnityTerms, Input, Prediction
from envirobench_reference_adapter.solvers import indemnity_terms as solver
from envirobench_synth.legal import recorder, render_instrument
from envirobench_synth.legal.contracts import (
    CONTRACT_TEMPLATES,
    WORDING,
    contract_template,
    sample_contract,
)
from envirobench_synth.rng import make_random

TYPE = IndemnityTerms()

PREAMBLE = (
    'THIS AGREEMENT (this "Agreement") is made as of May 1, 2015 by and between Redfern Petroleum Company, a Delaware '
    'corporation ("Owner"), and Blue Heron Holdings, LLC, a Texas limited liability company ("Acquirer"). '
    'The purchase price for the Property is $4,000,000 (the "Purchase Price"). The closing shall take place on '
    'June 30, 2015 (the "Closing Date"). '
)


AS_OF = dt.date(2021, 9, 1)


def read(body: str, preamble: str = PREAMBLE) -> dict:
    """The terms as the rules read them (`read_all`), before the careful reading abstains."""
    return solver.read_all(preamble + body, AS_OF)[0]


def doubts(body: str, preamble: str = PREAMBLE) -> list[str]:
    return solver.read_all(preamble + body, AS_OF)[1]


def careful(body: str, preamble: str = PREAMBLE) -> dict:
    return solver.read_terms(preamble + body, AS_OF)


def test_parties_come_from_the_defined_terms_in_either_voice():
    active = read("7.1 Indemnity. Owner shall indemnify, defend and hold harmless Acquirer from all losses arising from "
                  "Hazardous Substances at the Property prior to the Closing Date.")
    assert (active["indemnitor"], active["indemnitee"]) == ("Redfern Petroleum Company", "Blue Heron Holdings, LLC")
    passive = read("7.1 Indemnity. Acquirer shall be indemnified and held harmless by Owner against all losses relating "
                   "to the environmental condition of the Property.")
    assert (passive["indemnitor"], passive["indemnitee"]) == ("Redfern Petroleum Company", "Blue Heron Holdings, LLC")


def test_a_party_the_contract_does_not_define_is_never_named():
    """The bare term of a party the reader cannot resolve ("Indemnitee" where OCR lost the
    parenthetical) is null, not a name: naming someone the contract does not protect overstates."""
    undefined = read("7.1 Indemnity. Owner shall indemnify and hold harmless Indemnitee from all losses arising from "
                     "Hazardous Substances at the Property prior to the Closing Date.")
    assert (undefined["indemnitor"], undefined["indemnitee"]) == ("Redfern Petroleum Company", None)
    lowered = read("7.1 Indemnity. Owner shall indemnify and hold harmless Acquirer from all losses arising from "
                   "Hazardous Substances at the Property prior to the Closing Date.",
                   PREAMBLE.replace('("Acquirer")', '("acquirer")'))
    assert lowered["indemnitee"] == "Blue Heron Holdings, LLC"  # OCR lowered the defined term's capital


def test_no_indemnity_found_gives_null_parties_and_terms_that_claim_no_protection():
    terms = careful("7.1 Brokers. Owner shall indemnify Acquirer against any claim for a broker's commission.")
    assert (terms["indemnitor"], terms["indemnitee"]) == (None, None)
    assert terms["scope"] == "scheduled-matters-only" and terms["cap"] == 0
    assert terms["survival_months"] == 1 and terms["survival_end"] == "2015-07-30"  # closing + 1 month
    assert terms["exclusions"] == ["buyer-initiated-testing", "change-to-residential-use", "late-notice", "risk-based-remedy"]
    no_closing = solver.read_terms("A contract with no indemnity at all.", AS_OF)
    assert no_closing["survival_end"] == "2021-08-31"  # the day before as_of: never read as live
    truth = structure({"indemnitor": "Redfern Petroleum Company", "indemnitee": "Blue Heron Holdings, LLC",
                       "scope": "all-environmental-liabilities", "cap": None, "basket": {"type": "tipping", "amount": 1},
                       "de_minimis": 1, "survival_months": None, "survival_end": None,
                       "exclusions": [], "executed": True, "form": "purchase-and-sale",
                       "closing_date": "2015-06-30", "scanned": False, "traps": []}, Answer)
    case = Case("c", "x", Input(document="c.pdf", as_of=AS_OF.isoformat()))
    score = TYPE.score_case(case, truth, structure({**terms, "executed": False}, Prediction))["terms"]
    assert score.metrics["contract_overstating"] == 0.0 and score.errors


CLAUSE = ("7.1 Indemnity. Owner shall indemnify and hold harmless Acquirer from all losses arising from Hazardous "
          "Substances at the Property prior to the Closing Date. ")


def test_the_careful_reader_names_the_terms_only_when_every_limiting_sentence_was_read():
    """Step 8: a sentence of the indemnity's article that limits (an amount, a period, a carve-out,
    an override) in words no rule read leaves the reader in doubt, and a reader in doubt claims no
    protection at all (null parties, the narrowest terms): a contract is exact only when every
    term is right, so a term it cannot read makes it inexact whatever it answers, and only the
    narrowest answer cannot overstate."""
    read_whole = CLAUSE + ("7.2 Limits. Owner shall have no liability under Section 7.1 for any single claim of less "
                           "than $5,000. Acquirer shall promptly notify Owner of any claim under Section 7.1; provided "
                           "that the failure to give such notice shall not relieve Owner of its obligations. ")
    assert doubts(read_whole) == []
    assert careful(read_whole) == read(read_whole) and careful(read_whole)["de_minimis"] == 5_000
    # a carve-out in words no rule knows: the rules alone would claim no exclusion (overstating)
    unread = read_whole + "7.3 Carve-out. Owner shall have no liability for any matter disclosed in the Title Commitment."
    assert read(unread)["exclusions"] == [] and len(doubts(unread)) == 1
    assert careful(unread)["indemnitee"] is None and careful(unread)["exclusions"] == sorted(solver.NARROWEST["exclusions"])
    # a sentence of the article that limits nothing is no doubt
    assert doubts(CLAUSE + "7.2 Defense. Owner shall defend any claim under Section 7.1 with counsel of its choosing.") == []


def test_the_careful_reader_abstains_without_a_scope_or_a_party_or_where_a_limit_is_unreadable():
    unscoped = ("7.1 Indemnity. Acquirer shall be indemnified and held harmless by Owner against all losses relating to "
                "the environmental condition of the Property.")
    assert read(unscoped)["indemnitee"] == "Blue Heron Holdings, LLC" and doubts(unscoped)
    assert careful(unscoped)["indemnitee"] is None and careful(unscoped)["scope"] == "scheduled-matters-only"
    undefined = CLAUSE.replace("hold harmless Acquirer", "hold harmless Indemnitee")
    assert doubts(undefined) == [] and careful(undefined)["indemnitor"] is None  # a party not found
    garbled = CLAUSE + "7.4 Survival. The obligations of Owner under Section 7.1 shall survive for a period of (3) yeans."
    assert read(garbled)["survival_months"] is None and doubts(garbled)  # not read as surviving forever
    assert careful(garbled)["survival_months"] == 1
    no_closing = PREAMBLE.replace("June 30, 2015", "a date to be agreed")
    timed = CLAUSE + "7.4 Survival. The obligations of Owner under Section 7.1 shall survive the Closing for 24 months."
    assert doubts(timed, no_closing) == ["a survival period with no closing date to run from"]


def test_an_access_indemnity_the_other_way_round_is_not_the_environmental_one():
    terms = read("4.2 Access. Acquirer shall indemnify and hold harmless Owner from any damage to persons or property "
                 "caused by its entry onto the Property. 7.1 Indemnity. Owner shall indemnify and hold harmless Acquirer "
                 "from all losses arising from Hazardous Substances at the Property prior to the Closing Date.")
    assert terms["indemnitee"] == "Blue Heron Holdings, LLC"


def test_a_notwithstanding_sentence_narrows_the_scope():
    wide = ("7.1 Indemnity. Owner shall indemnify and hold harmless Acquirer from all losses relating to Hazardous "
            "Substances at the Property, regardless of when such condition arose. ")
    assert read(wide)["scope"] == "all-environmental-liabilities"
    narrowed = wide + ("7.2 Limits. Notwithstanding Section 7.1, the obligations of Owner under Section 7.1 shall be "
                       "limited to the conditions listed in Schedule 7.1.")
    assert read(narrowed)["scope"] == "scheduled-matters-only"
    discovered = ("7.1 Indemnity. Owner shall indemnify and hold harmless Acquirer from all losses arising from any "
                  "environmental condition existing on or before the Closing, whether discovered before or after the Closing.")
    assert read(discovered)["scope"] == "pre-closing-conditions"


def test_amounts_a_percentage_cap_a_cap_that_does_not_apply_and_the_basket_types():
    clause = ("7.1 Indemnity. Owner shall indemnify and hold harmless Acquirer from all losses arising from Hazardous "
              "Substances at the Property prior to the Closing Date. ")
    terms = read(clause + "7.2 Limits. In no event shall the aggregate liability of Owner under Section 7.1 exceed "
                 "fifteen percent (15%) of the Purchase Price. Owner shall have no liability under Section 7.1 until the "
                 "aggregate losses exceed $50,000, whereupon Owner shall be liable for all such losses from the first "
                 "dollar. Owner shall not be liable for any single claim of less than $5,000. 9.1 Limits. The liability "
                 "of Owner for breaches of its representations shall not exceed $100,000; this limitation shall not "
                 "apply to the obligations of Owner under Article 7.")
    assert terms["cap"] == 600_000
    assert terms["basket"] == {"type": "tipping", "amount": 50_000} and terms["de_minimis"] == 5_000
    deductible = read(clause + "7.2 Limits. Owner shall be liable under Section 7.1 only to the extent the aggregate "
                      "losses exceed $75,000, and then only for such excess.")
    assert deductible["basket"] == {"type": "deductible", "amount": 75_000} and deductible["cap"] is None


def test_survival_of_another_article_is_not_the_indemnitys_and_the_end_counts_from_closing():
    clause = ("7.1 Indemnity. Owner shall indemnify and hold harmless Acquirer from all losses arising from Hazardous "
              "Substances at the Property prior to the Closing Date. ")
    other = "9.1 Survival. The provisions of Article 6 (Brokers) shall survive the Closing for a period of twelve (12) months."
    assert read(clause + other)["survival_months"] is None
    mine = read(clause + "7.4 Survival. The obligations of Owner under Section 7.1 shall survive the Closing for a period "
                "of three (3) years. " + other)
    assert (mine["survival_months"], mine["survival_end"]) == (36, "2018-06-30")


def test_exclusions_and_a_notice_clause_that_forfeits_nothing():
    clause = ("7.1 Indemnity. Owner shall indemnify and hold harmless Acquirer from all losses arising from Hazardous "
              "Substances at the Property prior to the Closing Date. ")
    terms = read(clause + "7.3 Exclusions. Owner has no obligation under Section 7.1 for any condition found by a Phase II "
                 "assessment initiated by Acquirer. Owner shall have no liability to the extent losses result from a "
                 "change in the use of the Property to residential use. Acquirer shall notify Owner of any claim under "
                 "Section 7.1 within 30 days, and Owner shall have no liability for any claim not so noticed. Owner may "
                 "select the remedy and use risk-based standards.")
    assert terms["exclusions"] == ["buyer-initiated-testing", "change-to-residential-use", "late-notice", "risk-based-remedy"]
    benign = read(clause + "7.3 Notice. Acquirer shall promptly notify Owner of any claim under Section 7.1 within 30 days; "
                  "provided that the failure to give such notice shall not relieve Owner of its obligations.")
    assert benign["exclusions"] == []


def test_ocr_slips_in_the_words_the_rules_read_are_mended():
    assert solver.mend("hold harméess Buyer, lumited to the aggrøgate, iniliated by") == (
        "hold harmless Buyer, limited to the aggregate, initiated by")
    assert solver.dollars("750.000") == 750_000 and solver.dollars("14, 500,000") == 14_500_000


@pytest.mark.parametrize(
    "execution, form",
    [("unrecorded", "purchase-and-sale"), ("draft-marker", "indemnity-agreement"),
     ("covenant-missing-signature", "purchase-and-sale"), ("conformed-unrecorded", "indemnity-agreement")],
)
def test_rendered_dev_contracts_are_read_exactly(tmp_path, execution, form):
    contract = sample_contract(make_random(17, execution), "dev", contract_template("ashcombe-vries"), execution, form,
                               recorder("marlow-or"))
    path = tmp_path / "c.pdf"
    path.write_bytes(render_instrument(contract.instrument, 17, execution).pdf)
    case = Case("c", "x", Input(document="c.pdf", as_of=contract.terms.as_of.isoformat()))
    prediction = solver.solve(case.input, {"c.pdf": path}, "v1")
    score = TYPE.score_case(case, answer_of(contract, False), structure(prediction, Prediction))["terms"]
    assert score.errors == ()


def test_an_unknown_variant_is_refused():
    with pytest.raises(ValueError, match="unknown variant"):
        solver.SERVES.resolve("v9")  # the protocol layer refuses it before any case runs


def test_the_solver_keys_on_no_string_of_the_generators_families():
    """The splits hold drafting styles apart; the solver must read by general means, so no style's
    own wording (any five words in a row between its blanks) and no template's testimonium or firm
    line may be in it. Shorter runs are legal idiom ("to the extent", "as of the Closing")."""
    source = Path(solver.__file__).read_text(encoding="utf-8").lower()
    phrases = set()
    for splits in WORDING.values():
        for styles in splits.values():
            for text in styles:
                for piece in text.split("{"):
                    words = piece.split("}")[-1].lower().split()
                    for start in range(0, max(0, len(words) - 4)):
                        phrases.add(" ".join(words[start : start + 5]).strip(" :,.;"))
    for family in CONTRACT_TEMPLATES:
        for text in (family.witness_clause, family.prepared_by):
            phrases.add(" ".join(text.split("{")[0].lower().split()[:4]).strip(" :,."))
    phrases = {p for p in phrases if len(p.split()) >= 4}  # a template line may be shorter than five words
    assert len(phrases) > 100
    assert sorted(p for p in phrases if p in source) == []


@pytest.mark.slow
def test_reference_adapter_runs_part_of_the_dev_split_through_core(tmp_path):
    # One born-digital contract of every scope: every rule, at a test's cost.
    ids = dev_sample("indemnity-terms", scanned=False)
    metrics = reference_run(tmp_path, "indemnity-terms", ids)
    headline = metrics["profiles"]["terms"]["headline"]
    assert headline["contracts"] == len(ids) == 4
    assert headline["contracts_overstating"] == 0
    assert headline["indemnity_score"] >= 75.0
    assert metrics["profiles"]["terms"]["intervals"]["indemnity_score"]
