"""The reference adapter's `party-roles` solver: its reading rules on instrument text, on rendered
dev-family instruments, its independence from the generator's wordings, and a run through core
on part of the dev split."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from legal_kit import dev_sample, reference_run

from envirobench import Case, structure
from envirobench_legal.party_roles import Answer, Input, PartyRoles, Prediction
from envirobench_reference_adapter.solvers import party_roles as solver
from envirobench_synth.legal import recorder, render_instrument, template
from envirobench_synth.legal.parties import WORDINGS, sample_party_instrument, wording
from envirobench_synth.rng import make_random

TYPE = PartyRoles()


def roles(lines):
    return {party.name: sorted(party.roles) for party in solver.read_parties(lines)}


def test_defined_terms_name_the_parties_and_their_roles():
    found = roles([
        'This Lease is made by and between Great Plains Railway Company, a Kansas railroad corporation ("Lessor"),',
        'and Kestrel Oil Company, Inc., a Texas corporation (hereinafter called "Lessee").',
        "Lessor retains fee title to the Premises. Lessee shall operate a bulk plant on the Premises.",
    ])
    assert found == {"Great Plains Railway Company": ["lessor", "owner"], "Kestrel Oil Company, Inc.": ["lessee", "operator"]}


def test_a_lender_is_not_an_owner_whatever_it_holds():
    found = roles([
        "THIS MORTGAGE is entered into by Blue Heron Holdings, LLC, a Delaware limited liability company, as Mortgagor,",
        "and First Prairie Bank, N.A., a national banking association, as Mortgagee. Mortgagor owns the Property.",
        "Mortgagee holds indicia of ownership solely to protect its security interest and is not an owner of the Property.",
    ])
    assert found == {"Blue Heron Holdings, LLC": ["borrower", "owner"], "First Prairie Bank, N.A.": ["lender"]}


def test_mergers_former_names_and_trusts_leave_the_party_that_is_bound():
    found = roles([
        'This Deed is made between Sable River Realty Corp., successor by merger to Old Mill Land Company,',
        'a Nevada corporation ("Grantor"), and Greta H. Quist and Silas B. Ellery, as Trustees of The Quist Family',
        'Trust, a trust ("Grantee"). Grantor conveys to Grantee the land described below.',
    ])
    assert found == {"Sable River Realty Corp.": ["grantor"], "The Quist Family Trust": ["grantee"]}
    renamed = solver.read_parties(['This Agreement is made between Tamarack Energy, LLC f/k/a Redfern Oil Company, '
                                   'a Texas limited liability company ("Seller"), and Jonah P. Iverson, an individual ("Buyer").'])
    assert [(p.name, sorted(p.aliases)) for p in renamed] == [("Tamarack Energy, LLC", ["Redfern Oil Company"]),
                                                            ("Jonah P. Iverson", [])]


def test_terms_defined_together_and_signature_captions_give_roles_and_a_consultant_gets_none():
    found = roles([
        'This Agreement is made by Kestrel Holdings, Inc., an Ohio corporation ("Borrower"), Priya T. Norquist,',
        'an individual ("Guarantor"), and Summit Savings Bank, a Texas banking institution ("Lender").',
        'Borrower and Guarantor (collectively, "Indemnitor") shall indemnify Lender (together with its successors,',
        'the "Indemnitee"). Apex Geosciences LLC ("Consultant") shall perform the sampling.',
        "HOLDER:",
        "Lakeshore Land Conservancy",
        "By: Hector Quist, Executive Director",
    ])
    assert found == {
        "Kestrel Holdings, Inc.": ["borrower", "indemnitor"],
        "Priya T. Norquist": ["guarantor", "indemnitor"],
        "Summit Savings Bank": ["indemnitee", "lender"],
        "Lakeshore Land Conservancy": ["holder"],
    }


@pytest.mark.parametrize("kind", ["railroad-lease", "mortgage", "deed", "environmental-covenant"])
def test_a_born_digital_dev_instrument_is_read_whole(tmp_path, kind):
    drawn = sample_party_instrument(make_random(5, kind), kind, template("hollis-drummond"), recorder("marlow-or"),
                                    wording("quoted-parenthetical"))
    path = tmp_path / "i.pdf"
    path.write_bytes(render_instrument(drawn.instrument, 5, kind).pdf)
    case_input = Input(document="i.pdf")
    prediction = structure(solver.solve(case_input, {"i.pdf": path}, "v1"), Prediction)
    answer = structure({"parties": [{"name": p.name, "roles": list(p.roles), "aliases": list(p.aliases)}
                                    for p in drawn.parties],
                        "others": [{"name": o.name, "reason": o.reason} for o in drawn.others],
                        "kind": kind, "traps": list(drawn.traps), "scanned": False}, Answer)
    result = TYPE.score_case(Case("c", kind, Input(document="i.pdf")), answer, prediction)["roles"]
    assert result.errors == ()


def test_an_unknown_variant_is_refused():
    with pytest.raises(ValueError, match="unknown variant"):
        solver.SERVES.resolve("v9")  # the protocol layer refuses it before any case runs


def test_the_solver_copies_no_sentence_of_the_generators_wordings():
    """Its rules are legal vocabulary, not the generator's sentences: no run of five words of any
    wording's fixed text (dev or test) occurs in the solver's source."""
    source = " ".join(re.sub(r"[^a-z ]", " ", Path(solver.__file__).read_text(encoding="utf-8").lower()).split())
    runs = set()
    for item in WORDINGS:
        for value in vars(item).values():
            if not isinstance(value, str):
                continue
            for piece in re.split(r"\{[^}]*\}", value):
                words = re.sub(r"[^a-z ]", " ", piece.lower()).split()
                runs.update(" ".join(words[i : i + 5]) for i in range(len(words) - 4))
    assert len(runs) > 40
    assert sorted(run for run in runs if run in source) == []


@pytest.mark.slow
def test_reference_adapter_runs_part_of_the_dev_split_through_core(tmp_path):
    # One born-digital instrument of every kind and one scanned copy.
    metrics = reference_run(tmp_path, "party-roles", dev_sample("party-roles", scanned=True))
    headline = metrics["profiles"]["roles"]["headline"]
    assert headline["non_owners_called_owners"] == 0
    assert headline["party_roles_score"] >= 70.0
    assert metrics["profiles"]["roles"]["intervals"]["party_roles_score"]
