"""`party-roles`: matching names, scoring (the owner penalty, extras, merges), strict refusals,
the shipped datasets (splits by family, sizes, scans, traps) and their fixtures."""

from __future__ import annotations

import pytest
from legal_kit import assert_is_the_categories_task

from envirobench import Case, EnviroBenchError, read_json, structure
from envirobench.categories import PARTY_ROLES
from envirobench_legal.generate import party_roles as generator
from envirobench_legal.generate.party_roles import (
    MIN_TEST_PARTIES,
    SIZES,
    drawn_counts,
    plan,
    planted,
)
from envirobench_legal.package import PACKAGE
from envirobench_legal.party_roles import (
    ROLES,
    Answer,
    Input,
    PartyRoles,
    Prediction,
    normalize_name,
)
from envirobench_synth.legal import SPLITS
from envirobench_synth.legal.parties import WORDING_SPLITS

TYPE = PartyRoles()
def layout():
    return PACKAGE.layout(TYPE.ID)
CASE = Case("pr-1", "mortgage", Input(document="assets/pr-1.pdf"))


def answer(*parties, others=()):
    return structure(
        {
            "parties": [{"name": n, "roles": list(r), "aliases": list(a)} for n, r, a in parties],
            "others": [{"name": n, "reason": why} for n, why in others],
            "kind": "mortgage",
            "traps": [],
            "scanned": False,
        },
        Answer,
    )


def predict(*parties):
    return structure({"parties": [{"name": n, "roles": list(r)} for n, r in parties]}, Prediction)


MORTGAGE = answer(
    ("Blue Heron Holdings, L.L.C.", ("borrower", "owner"), ("Kestrel Realty Corp.",)),
    ("First Prairie Bank, N.A.", ("lender",), ()),
    others=(("Tamarack Title Company", "deed-of-trust-trustee"),),
)


def score(truth, prediction):
    return TYPE.score_case(CASE, truth, prediction)["roles"]


def test_the_type_is_well_formed_and_is_the_categories_task():
    assert_is_the_categories_task(TYPE)
    assert TYPE.source_files(CASE.input) == ("assets/pr-1.pdf",)


@pytest.mark.parametrize(
    "variant, canonical",
    [
        ("BLUE HERON HOLDINGS, LLC", "Blue Heron Holdings, L.L.C."),
        ("The Corcoran Trust", "Corcoran Trust"),
        ("Acme Incorporated", "ACME, INC."),
        ("Smith & Jones Company", "Smith and Jones Co."),
        ("First Prairie Bank N.A.", "First Prairie Bank, N.A."),
    ],
)
def test_names_match_whatever_their_case_punctuation_and_corporate_spelling(variant, canonical):
    assert normalize_name(variant) == normalize_name(canonical)


def test_different_names_stay_different():
    assert normalize_name("Blue Heron Holdings LLC") != normalize_name("Blue Heron Holdings")
    assert normalize_name("Trust Company") != normalize_name("The Trust")


def test_every_party_with_exactly_its_roles_is_error_free():
    result = score(MORTGAGE, predict(("BLUE HERON HOLDINGS, LLC", ("owner", "borrower")),
                                     ("First Prairie Bank N.A.", ("lender",))))
    assert result.errors == ()
    assert result.metrics["party_all_roles_right"] == 2.0 and result.metrics["party"] == 2.0
    assert result.metrics["role_true_positive"] == 3.0


def test_a_lender_called_owner_is_a_non_owner_called_owner():
    result = score(MORTGAGE, predict(("Blue Heron Holdings, LLC", ("borrower", "owner")),
                                     ("First Prairie Bank, N.A.", ("lender", "owner"))))
    assert result.errors == (("non-owner-called-owner", "First Prairie Bank, N.A."),)
    assert result.metrics["non_owner_called_owner"] == 1.0 and result.metrics["party_all_roles_right"] == 1.0


def test_a_non_party_with_a_role_is_an_extra_party_and_as_owner_also_a_non_owner_owner():
    base = [("Blue Heron Holdings, LLC", ("borrower", "owner")), ("First Prairie Bank, N.A.", ("lender",))]
    trustee_owner = score(MORTGAGE, predict(*base, ("Tamarack Title Company", ("owner",))))
    assert trustee_owner.errors == (("extra-party", "tamarack title co"), ("non-owner-called-owner", "tamarack title co"))
    assert trustee_owner.metrics["extra_party"] == 1.0 and trustee_owner.metrics["non_owner_called_owner"] == 1.0
    invented = score(MORTGAGE, predict(*base, ("Nobody Ltd", ("grantee",))))
    assert invented.errors == (("extra-party", "nobody ltd"),)
    assert invented.metrics["non_owner_called_owner"] == 0.0 and invented.metrics["role_false_positive"] == 1.0


def test_extra_parties_count_among_the_parties_of_the_headline():
    """An escrow trustee called grantee and a merged predecessor called grantor cost what a
    missed party costs: each is one more party, none of them right."""
    right = [("Blue Heron Holdings, LLC", ("borrower", "owner")), ("First Prairie Bank, N.A.", ("lender",))]
    extras = score(MORTGAGE, predict(*right, ("Tamarack Title Company", ("grantee",)), ("Kestrel Holdings Inc", ("grantor",))))
    assert extras.metrics["party"] == 4.0 and extras.metrics["key_party"] == 2.0 and extras.metrics["extra_party"] == 2.0
    head = TYPE.summarize("roles", [extras])
    assert head["parties"] == 4 and head["parties_in_key"] == 2 and head["extra_parties"] == 2
    assert head["party_roles_score"] == pytest.approx(100 * max(0, (2 - 5 * 0) / 4))
    assert PARTY_ROLES.evaluate(head, "party_roles_score") == pytest.approx(50.0)
    exact = TYPE.summarize("roles", [score(MORTGAGE, predict(*right))])
    assert exact["party_roles_score"] == 100.0 > head["party_roles_score"]


def test_a_named_non_party_without_a_role_claims_nothing():
    result = score(MORTGAGE, predict(("Blue Heron Holdings, LLC", ("borrower", "owner")),
                                     ("First Prairie Bank, N.A.", ("lender",)), ("Tamarack Title Company", ())))
    assert result.errors == ()


def test_missing_and_extra_roles_and_missed_parties_are_named():
    result = score(MORTGAGE, predict(("Blue Heron Holdings, LLC", ("borrower", "grantor"))))
    assert result.errors == (
        ("missing-role", "Blue Heron Holdings, L.L.C.", "owner"),
        ("extra-role", "Blue Heron Holdings, L.L.C.", "grantor"),
        ("missed-party", "First Prairie Bank, N.A."),
    )
    assert result.metrics["role_false_negative"] == 2.0 and result.metrics["role_false_positive"] == 1.0


def test_a_former_name_is_accepted_and_two_names_of_one_party_are_merged():
    former = score(MORTGAGE, predict(("Kestrel Realty Corp", ("borrower", "owner")), ("First Prairie Bank, N.A.", ("lender",))))
    assert former.errors == ()
    merged = score(MORTGAGE, predict(("Kestrel Realty Corp", ("borrower",)), ("Blue Heron Holdings LLC", ("owner",)),
                                     ("First Prairie Bank, N.A.", ("lender",))))
    assert merged.errors == () and merged.metrics["party_all_roles_right"] == 2.0


def test_a_prediction_naming_one_party_twice_is_refused_naming_the_field():
    with pytest.raises(EnviroBenchError, match=r"parties"):
        predict(("Blue Heron Holdings, LLC", ("borrower",)), ("BLUE HERON HOLDINGS L.L.C.", ("owner",)))


@pytest.mark.parametrize(
    "raw, field",
    [
        ({"parties": [{"name": "A", "roles": ["landlord"]}]}, "roles"),
        ({"parties": [{"name": "A", "roles": ["owner", "owner"]}]}, "roles"),
        ({"parties": [{"name": " . ", "roles": ["owner"]}]}, "name"),
        ({"parties": [{"name": "A", "roles": ["owner"], "confidence": 1}]}, "confidence"),
        ({"parties": "A"}, "parties"),
    ],
)
def test_bad_predictions_are_refused_naming_the_field(raw, field):
    with pytest.raises(EnviroBenchError, match=field):
        structure(raw, Prediction)


def test_an_answer_party_needs_a_role():
    with pytest.raises(EnviroBenchError, match="roles"):
        answer(("A", (), ()))


def test_the_headline_is_the_published_formula_with_its_unclipped_value():
    truth = [score(MORTGAGE, predict(("Blue Heron Holdings, LLC", ("borrower", "owner")),
                                     ("First Prairie Bank, N.A.", ("lender",))))] * 4
    owner_lender = score(MORTGAGE, predict(("Blue Heron Holdings, LLC", ("borrower", "owner")),
                                           ("First Prairie Bank, N.A.", ("lender", "owner"))))
    headline = TYPE.summarize("roles", truth + [owner_lender])
    assert headline["parties"] == 10 and headline["parties_all_roles_right"] == 9
    assert headline["non_owners_called_owners"] == 1
    assert headline["party_roles_score"] == pytest.approx(100 * (9 - 5) / 10)
    assert headline["party_roles_score_unclipped"] == pytest.approx(40.0)
    assert PARTY_ROLES.evaluate(headline, "party_roles_score") == pytest.approx(headline["party_roles_score"])
    assert set(headline) == set(TYPE.HEADLINE)


def test_every_party_an_owner_scores_zero_and_the_unclipped_value_still_ranks():
    everyone_owner = score(MORTGAGE, predict(("Blue Heron Holdings, LLC", ("owner",)), ("First Prairie Bank, N.A.", ("owner",))))
    nothing = score(MORTGAGE, predict())
    a, b = TYPE.summarize("roles", [everyone_owner]), TYPE.summarize("roles", [nothing])
    assert a["party_roles_score"] == b["party_roles_score"] == 0.0
    assert a["party_roles_score_unclipped"] == pytest.approx(-250.0)
    assert b["party_roles_score_unclipped"] == 0.0 and b["role_precision"] == 0.0 and b["role_recall"] == 0.0


def test_the_break_even_is_five_in_six():
    # Six single-role parties; "owner" added to each: right 5 times, wrong once: nothing gained.
    owners = answer(*[(f"Owner {i} LLC", ("owner",), ()) for i in range(5)], ("Lender LLC", ("lender",), ()))
    guesses = predict(*[(f"Owner {i} LLC", ("owner",)) for i in range(5)], ("Lender LLC", ("lender", "owner")))
    headline = TYPE.summarize("roles", [score(owners, guesses)])
    assert headline["party_roles_score_unclipped"] == pytest.approx(0.0)


def test_the_splits_keep_families_apart_and_scan_every_fifth():
    dev, test = plan("synthetic-dev-v1"), plan("synthetic-test-v1")
    assert len(dev) == SIZES["dev"] and len(test) == SIZES["test"]
    for field in ("template", "recorder", "wording"):
        assert not {getattr(c, field) for c in dev} & {getattr(c, field) for c in test}, field
    assert {c.template for c in test} == set(SPLITS["test"][0])
    assert {c.wording for c in test} == set(WORDING_SPLITS["test"])
    assert [c.scanned for c in dev[:10]] == [False, False, False, False, True] * 2


def test_every_seed_draws_a_test_split_above_the_generators_floor(monkeypatch):
    # The holdout's demo draws the test split from a secret seed; the generator refuses a split
    # under MIN_TEST_PARTIES, so no seed may come near it (one came to 599 against a floor of 600).
    cases = plan("synthetic-test-v1")
    counts = []
    for seed in range(12):
        monkeypatch.setattr(generator, "SEED", seed)
        counts.append(drawn_counts("synthetic-test-v1", cases)[0])
    assert min(counts) >= MIN_TEST_PARTIES + 20, counts


def test_the_shipped_datasets_are_registered_sized_and_hold_their_traps(datasets):
    for folder, (registry, dataset, cases, answers) in datasets.items():
        assert registry.datasets[layout().dataset_id(folder)].path == layout().dataset_dir(folder)
        parties = sum(len(a.parties) for a in answers.values())
        assert parties >= (600 if folder.endswith("test-v1") else 150)  # test: the design's ≈ 600 scored units
        assert {p_role for a in answers.values() for p in a.parties for p_role in p.roles} == set(ROLES)
        traps = {trap for a in answers.values() for trap in a.traps}
        assert {"lender-indicia", "consultant", "railroad-fee-owner", "successor-by-merger", "former-name",
                "trust-party", "deed-of-trust-trustee", "lessee-operates", "tenant-not-operator"} <= traps
        assert sum(a.scanned for a in answers.values()) == len(answers) // 5
        # No lender is ever an owner; every kind is there.
        assert not [p for a in answers.values() for p in a.parties if "lender" in p.roles and "owner" in p.roles]
        assert {c.category for c in cases.values()} == {a.kind for a in answers.values()}
        assert sum(entry.size for entry in dataset.manifest.files) < 5_000_000


def test_calling_every_party_an_owner_scores_zero_on_every_split(datasets):
    for _, (_, _, cases, answers) in datasets.items():
        scores = []
        for cid, case in cases.items():
            prediction = predict(*[(p.name, ("owner",)) for p in answers[cid].parties])
            scores.append(TYPE.score_case(case, answers[cid], prediction)["roles"])
        headline = TYPE.summarize("roles", scores)
        assert headline["party_roles_score"] == 0.0 and headline["party_roles_score_unclipped"] < -100


def test_the_fixtures_score_as_declared(datasets):
    for folder, (_, _, cases, answers) in datasets.items():
        fixtures = layout().fixtures_dir(folder)
        correct, wrong = read_json(fixtures / "correct.json"), read_json(fixtures / "wrong.json")
        assert set(correct) == set(wrong) == set(cases)
        errors = {}
        for cid, case in cases.items():
            assert TYPE.score_case(case, answers[cid], structure(correct[cid], Prediction))["roles"].errors == ()
            errors[cid] = TYPE.score_case(case, answers[cid], structure(wrong[cid], Prediction))["roles"].errors
        kinds = sorted(kind for found in errors.values() for kind, *_ in found)
        # The lender called owner, the consultant and the merged predecessor listed, the railroad's fee
        # missed, the trustee for the trust (a miss and an extra); the former name is accepted.
        assert kinds == sorted(["non-owner-called-owner", "extra-party", "extra-party", "missing-role",
                                "missed-party", "extra-party"])
        assert sorted(c for c, e in errors.items() if e) == sorted(
            c for c, m in planted(answers).items() if m.change != "former-name")
