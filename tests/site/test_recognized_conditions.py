"""recognized-conditions: condition F1 on (kind, class), evidence pages pooled."""

from __future__ import annotations

import json

import pytest
from site_kit import conditions_answer, headline, score

from envirobench_site.package import PACKAGE
from envirobench_site.recognized_conditions import RecognizedConditions
from envirobench_synth.site import SITES, SPECS


def correct() -> dict:
    return {
        "conditions": [
            {"kind": c["kind"], "classification": c["class"], "evidence": c["evidence"]}
            for c in conditions_answer()["conditions"]
        ]
    }


def test_the_answer_predicted_back_is_perfect():
    assert score(RecognizedConditions, conditions_answer(), correct()).errors == ()
    h = headline(RecognizedConditions, conditions_answer(), correct())
    assert h == {
        "condition_f1": 1.0, "condition_precision": 1.0, "condition_recall": 1.0,
        "evidence_precision": 1.0, "evidence_recall": 1.0, "conditions": 2.0,
    }  # fmt: skip


def test_the_wrong_class_is_one_false_positive_and_one_false_negative_evidence_still_counts():
    prediction = correct()
    prediction["conditions"][0]["classification"] = "REC"
    s = score(RecognizedConditions, conditions_answer(), prediction)
    assert s.errors == (("wrong-class", "ust-release"),)
    assert s.metrics["condition_fp"] == 1 and s.metrics["condition_fn"] == 1
    assert s.metrics["evidence_tp"] == 3


def test_every_kind_a_rec_citing_page_1():
    prediction = {
        "conditions": [
            {"kind": k, "classification": "REC", "evidence": [{"file": "volume-1.pdf", "page": 1}]}
            for k in ("ust-release", "fill-material", "heating-oil-tank")
        ]
    }
    s = score(RecognizedConditions, conditions_answer(), prediction)
    assert set(s.errors) == {
        ("wrong-class", "ust-release"),
        ("wrong-class", "heating-oil-tank"),
        ("extra-condition", "fill-material"),
    }
    h = headline(RecognizedConditions, conditions_answer(), prediction)
    assert h["condition_f1"] == 0.0
    assert h["evidence_precision"] == pytest.approx(1 / 3) and h[
        "evidence_recall"
    ] == pytest.approx(1 / 3)


def test_a_second_condition_of_a_kind_is_a_duplicate_and_unknown_kinds_are_extra():
    prediction = correct()
    prediction["conditions"] += [
        {**prediction["conditions"][0], "classification": "HREC"},
        {"kind": "<script>alert(1)</script>", "classification": "REC"},
    ]
    s = score(RecognizedConditions, conditions_answer(), prediction)
    assert set(s.errors) == {
        ("duplicate-condition", "ust-release"),
        ("extra-condition", "<script>alert(1)</script>"),
    }


def test_no_test_site_shares_its_archetype_or_any_condition_with_dev():
    # Issue 33: the test sites reused dev's templates, so a site's name alone gave its conditions
    # (0.700-0.842). Dev's archetypes are now others, and no (kind, class) of a test site's key
    # occurs in any dev site's: a prior fitted on dev copies nothing right.
    # The many small test sites (test-sites20) hold the same rule, and their kinds of site are
    # neither dev's nor the public test sites'.
    archetypes = {split: {SPECS[s].archetype for s in SITES[split]} for split in SITES}
    assert not archetypes["dev"] & archetypes["test"]
    assert not archetypes["test-sites20"] & (archetypes["dev"] | archetypes["test"])
    pairs = {}
    for split, folder_name in (
        ("dev", "synthetic-dev-v1"),
        ("test", "synthetic-test-v1"),
        ("test-sites20", "synthetic-test-sites20-v1"),
    ):
        folder = PACKAGE.layout("recognized-conditions").dataset_dir(folder_name)
        lines = (folder / "answers.jsonl").read_text(encoding="utf-8").splitlines()
        pairs[split] = {
            (c["kind"], c["classification"])
            for a in map(json.loads, lines)
            for c in a["answer"]["conditions"]
        }
    assert pairs["test"] and pairs["dev"] and pairs["test-sites20"]
    assert not pairs["dev"] & pairs["test"]
    assert not pairs["dev"] & pairs["test-sites20"]
    # dev still shows every class a reader must tell apart
    assert {cls for _, cls in pairs["dev"]} == {"REC", "CREC", "HREC", "de-minimis"}
