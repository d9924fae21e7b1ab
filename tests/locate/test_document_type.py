"""`document-type`: scoring (macro-F1 pooled over kinds, the confusion matrix in the headline),
strict refusals, the document generator, the shipped datasets (splits by family, sizes, scans,
traps) and their fixtures, and the reference adapter on part of the dev split."""

from __future__ import annotations

from collections import Counter

import pytest
from category_kit import assert_is_the_categories_task
from locate_kit import reference_run, sized_splits, wrong_fixture_scores

from envirobench import Case, EnviroBenchError, structure
from envirobench_locate.document_type import (
    KINDS,
    TRAPS,
    Answer,
    DocumentType,
    Input,
    Prediction,
)
from envirobench_locate.generate.document_type import MISTAKES, SCANNED_EVERY, SIZES, planted
from envirobench_synth.locate import documents
from envirobench_synth.rng import make_random

TYPE = DocumentType()
CASE = Case("dt-1", "invoice", Input(document="assets/dt-1.pdf"))


def answer(kind="invoice"):
    return structure({"kind": kind, "pages": 1, "scanned": False, "traps": []}, Answer)


def score(truth, called):
    return TYPE.score_case(CASE, answer(truth), structure({"kind": called}, Prediction))["kind"]


def test_the_type_is_well_formed_and_is_the_categories_task():
    assert_is_the_categories_task(TYPE)
    assert TYPE.source_files(CASE.input) == ("assets/dt-1.pdf",)
    assert KINDS == documents.KINDS  # the type and the generator know the same kinds


def test_a_right_kind_is_error_free_and_a_wrong_one_names_both_kinds():
    right = score("invoice", "invoice")
    assert right.errors == ()
    assert right.metrics == {
        "document": 1.0,
        "correct": 1.0,
        "truth invoice": 1.0,
        "predicted invoice": 1.0,
        "right invoice": 1.0,
    }
    wrong = score("letter", "transmittal")
    assert wrong.errors == (("wrong-kind", "letter", "transmittal"),)
    assert (
        wrong.metrics["confused letter as transmittal"] == 1.0
        and "right letter" not in wrong.metrics
    )


def test_macro_f1_is_the_mean_of_per_kind_f1_over_the_kinds_present_or_predicted():
    scores = [
        score("invoice", "invoice"),
        score("invoice", "letter"),
        score("letter", "letter"),
        score("deed", "deed"),
    ]
    headline = TYPE.summarize("kind", scores)
    # invoice: TP 1, FN 1 -> 2/3; letter: TP 1, FP 1 -> 2/3; deed: 1. Other kinds are absent.
    assert headline["f1 invoice"] == pytest.approx(2 / 3) and headline[
        "f1 letter"
    ] == pytest.approx(2 / 3)
    assert headline["f1 deed"] == 1.0 and "f1 lease" not in headline
    assert headline["macro_f1"] == pytest.approx((2 / 3 + 2 / 3 + 1) / 3)
    assert headline["accuracy"] == 0.75 and headline["documents"] == 4
    assert headline["confused invoice as letter"] == 1.0
    assert not [
        name
        for name in headline
        if name.startswith("confused ") and name != "confused invoice as letter"
    ]


def test_a_majority_class_answer_scores_a_low_macro_f1_however_high_its_accuracy():
    truths = ["letter"] * 8 + ["deed", "invoice"]
    headline = TYPE.summarize("kind", [score(t, "letter") for t in truths])
    assert headline["accuracy"] == 0.8
    assert headline["macro_f1"] == pytest.approx(
        (2 * 8 / (8 + 10)) / 3
    )  # letter's F1; deed and invoice 0


def test_summaries_of_no_cases_are_empty():
    assert TYPE.summarize("kind", []) == {}


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"kind": "memo"}, "kind"),
        ({"kind": "Invoice"}, "kind"),
        ({}, "kind"),
        ({"kind": "invoice", "confidence": 1}, "confidence"),
    ],
)
def test_bad_predictions_are_refused_naming_the_field(raw, message):
    with pytest.raises(EnviroBenchError, match=message):
        structure(raw, Prediction)


def test_bad_answers_and_inputs_are_refused():
    with pytest.raises(EnviroBenchError, match="unknown trap"):
        structure({"kind": "deed", "pages": 1, "scanned": False, "traps": ["smudged"]}, Answer)
    with pytest.raises(EnviroBenchError, match="pages"):
        structure({"kind": "deed", "pages": 0, "scanned": False, "traps": []}, Answer)
    with pytest.raises(EnviroBenchError, match="PDF"):
        structure({"document": "assets/dt-1.png"}, Input)


# -- the generator --------------------------------------------------------------------------------


@pytest.mark.parametrize("split", ["dev", "test"])
def test_every_kind_renders_in_its_splits_titles(split):
    for index, kind in enumerate(documents.KINDS):
        fam = documents.family(documents.FAMILIES_BY_SPLIT[split][index % 3])
        document = documents.sample_document(make_random(3, split, kind), kind, split, fam)
        other = "test" if split == "dev" else "dev"
        assert document.title not in titles_of(other) or kind == "letter"
        pdf, pages = documents.render_document(
            document, scanned=False, seed=3, labels=(split, kind)
        )
        assert pdf.startswith(b"%PDF") and pages >= 1
        assert (
            b"Site file document" in pdf and kind.encode() not in pdf
        )  # the metadata never tells the kind


def titles_of(split):
    """Every title a split's documents carry (kinds' titles, variants', misleading and generic)."""
    fam = documents.family(documents.FAMILIES_BY_SPLIT[split][0])
    return {
        documents.sample_document(make_random(5, split, kind, i), kind, split, fam).title
        for kind in documents.KINDS
        for i in range(40)
    } - {""}


def test_the_splits_share_no_family_and_no_title():
    assert not set(documents.FAMILIES_BY_SPLIT["dev"]) & set(documents.FAMILIES_BY_SPLIT["test"])
    for kind, titles in documents.TITLES.items():
        assert kind == "letter" or not set(titles["dev"]) & set(titles["test"]), kind
    dev, test = titles_of("dev"), titles_of("test")
    assert not dev & test, dev & test
    # the variants' own titles are there too: an easement, a registration, a tightness test
    assert {
        "GRANT OF EASEMENT",
        "CERTIFICATE OF REGISTRATION",
        "TANK TIGHTNESS TEST CERTIFICATE",
    } <= dev


def first_with(kind, trap, split="dev"):
    fam = documents.family(documents.FAMILIES_BY_SPLIT[split][0])
    for i in range(400):
        document = documents.sample_document(make_random(7, split, kind, i), kind, split, fam)
        if trap in document.traps:
            return document
    raise AssertionError(f"no {kind} with {trap}")


def test_truth_rules_a_first_page_that_is_not_the_document_and_an_excerpt():
    covered = first_with("certificate", "cover-letter")
    assert covered.kind == "certificate" and covered.cover  # page 1 is the letter
    faxed = first_with("closure-report", "fax-cover")
    assert faxed.kind == "closure-report" and faxed.cover[0].text.startswith("FA")
    cut = first_with("monitoring-report", "excerpt")
    assert cut.title == "" and cut.header == [] and not cut.cover
    assert all(b.kind != "signature" for b in cut.blocks)
    assert cut.blocks[0].kind == "heading" and not cut.blocks[0].text.startswith("1.0")
    toc = first_with("remedial-action-plan", "contents")
    assert toc.blocks[0].text == "TABLE OF CONTENTS" and toc.blocks[2].kind == "page"
    misleading = first_with("monitoring-report", "misleading-title")
    assert misleading.title not in documents.TITLES["monitoring-report"]["dev"]


def test_later_site_reports_retell_the_earlier_ones():
    fam = documents.family("harlan-voss")
    text = " ".join(
        b.text
        for i in range(5)
        for b in documents.sample_document(
            make_random(9, "dev", i), "closure-report", "dev", fam
        ).blocks
    )
    for phrase in ("Phase I environmental site assessment", "subsurface investigation",
                   "groundwater monitoring", "corrective action plan"):  # fmt: skip
        assert phrase in text, phrase


# -- the shipped datasets -------------------------------------------------------------------------


def test_the_splits_are_registered_sized_balanced_and_scanned_in_part(datasets):
    assert set(datasets) == {"synthetic-dev-v1", "synthetic-test-v1"}
    for split, _, _, answers in sized_splits(TYPE, datasets, SIZES):
        assert Counter(a.kind for a in answers.values()) == {
            k: SIZES[split] // len(KINDS) for k in KINDS
        }
        assert sum(a.scanned for a in answers.values()) == SIZES[split] // SCANNED_EVERY
        traps = Counter(t for a in answers.values() for t in a.traps)
        assert all(traps[t] > 0 for t in TRAPS), traps
    assert SIZES["test"] >= 600 and 0.4 <= SIZES["dev"] / SIZES["test"] <= 0.5


def test_correct_fixture_has_no_error_and_wrong_has_exactly_the_planted_ones(datasets):
    for _, answer, bad, mistake in wrong_fixture_scores(TYPE, datasets, "kind", planted, len(MISTAKES)):
        assert bad.errors == ((("wrong-kind", answer.kind, mistake.called),) if mistake is not None else ())


# -- the reference adapter ------------------------------------------------------------------------


def test_the_reference_reads_a_born_digital_document_of_every_kind_and_a_scan(tmp_path, datasets):
    _, _, cases, answers = datasets["synthetic-dev-v1"]
    ids, seen = [], set()
    for cid, a in answers.items():
        if a.kind not in seen and not a.scanned and "untitled" not in a.traps:
            seen.add(a.kind)
            ids.append(cid)
    ids.append(next(cid for cid, a in answers.items() if a.scanned and a.kind == "invoice"))
    metrics = reference_run(tmp_path, TYPE.ID, ids)
    headline = metrics["profiles"]["kind"]["headline"]
    assert headline["documents"] == len(KINDS) + 1
    # a keyword reader confuses the site reports even without a trap (14 of 19 right on dev):
    # far above a blind answer (1 in 18), far from perfect
    assert headline["accuracy"] >= 0.5
