"""`instrument-execution`: scoring (traps, the penalty, the unclipped value), strict refusals,
the shipped datasets (splits by family, sizes, scans) and their fixtures."""

from __future__ import annotations

import pytest
from category_kit import refusal
from legal_kit import assert_is_the_categories_task, fixture_scores, sized_splits

from envirobench import Case, EnviroBenchError, build_registry, structure
from envirobench.categories import INSTRUMENT_EXECUTION
from envirobench_legal.generate.instrument_execution import (
    MISTAKES,
    SCENARIO_SHARES,
    SIZES,
    planted,
)
from envirobench_legal.instrument_execution import (
    STATUSES,
    Answer,
    Input,
    InstrumentExecution,
    Prediction,
)
from envirobench_legal.package import PACKAGE
from envirobench_synth.legal import SPLITS

TYPE = InstrumentExecution()
LAYOUT = PACKAGE.layout(TYPE.ID)
CASE = Case("ie-1", "draft-marker", Input(document="assets/ie-1.pdf"))


def answer(status="not-executed", pages=(1, 2), kind="warranty-deed", scanned=False):
    return structure({"status": status, "evidence_pages": list(pages), "kind": kind, "scanned": scanned}, Answer)


def predict(status, page=1):
    return structure({"status": status, "evidence_page": page}, Prediction)


def score(truth, prediction):
    return TYPE.score_case(CASE, truth, prediction)["execution"]


def test_the_type_is_well_formed_and_is_the_categories_task():
    assert_is_the_categories_task(TYPE)
    assert TYPE.source_files(CASE.input) == ("assets/ie-1.pdf",)


def test_a_right_status_on_an_evidence_page_is_error_free():
    result = score(answer(), predict("not-executed", 2))
    assert result.errors == ()
    assert result.metrics == {"correct_status": 1.0, "false_executed": 0.0, "instrument": 1.0, "evidence_right": 1.0}


@pytest.mark.parametrize("truth", ["not-executed", "cannot-tell"])
@pytest.mark.parametrize("called", ["executed-recorded", "executed-unrecorded"])
def test_calling_an_unexecuted_or_unshown_instrument_executed_is_a_false_executed(truth, called):
    result = score(answer(truth), predict(called))
    assert result.errors == (("wrong-status", truth, called),)
    assert result.metrics["false_executed"] == 1.0 and result.metrics["correct_status"] == 0.0


@pytest.mark.parametrize(
    "truth, called",
    [
        ("executed-recorded", "executed-unrecorded"),  # the stamp missed: wrong, but executed it is
        ("executed-unrecorded", "not-executed"),  # an abstention costs only its own status
        ("executed-recorded", "cannot-tell"),
        ("not-executed", "cannot-tell"),
    ],
)
def test_other_wrong_statuses_are_not_false_executed(truth, called):
    result = score(answer(truth), predict(called))
    assert result.errors == (("wrong-status", truth, called),)
    assert result.metrics["false_executed"] == 0.0


def test_the_evidence_page_must_be_one_of_the_answers_pages():
    assert score(answer(pages=(2,)), predict("not-executed", 1)).errors == (("wrong-evidence-page",),)
    assert score(answer(pages=(2,)), predict("not-executed", None)).errors == (("wrong-evidence-page",),)
    both = score(answer(pages=(2,)), predict("executed-recorded", 3))
    assert both.errors == (("wrong-status", "not-executed", "executed-recorded"), ("wrong-evidence-page",))
    assert both.metrics["evidence_right"] == 0.0


def test_the_headline_is_the_published_formula_with_its_unclipped_value():
    truths = ["executed-recorded"] * 6 + ["not-executed"] * 4
    calls = ["executed-recorded"] * 6 + ["executed-unrecorded"] + ["not-executed"] * 3
    scores = [score(answer(t), predict(c)) for t, c in zip(truths, calls, strict=True)]
    headline = TYPE.summarize("execution", scores)
    assert headline["correct_statuses"] == 9 and headline["false_executed"] == 1 and headline["instruments"] == 10
    assert headline["execution_score"] == pytest.approx(100 * (9 - 5) / 10)
    assert headline["execution_score_unclipped"] == pytest.approx(40.0)
    assert headline["status_accuracy"] == pytest.approx(0.9)
    # The leaderboard's component score reads the same counts and agrees.
    assert INSTRUMENT_EXECUTION.evaluate(headline, "execution_score") == pytest.approx(headline["execution_score"])
    assert set(headline) == set(TYPE.HEADLINE)


def test_everything_executed_scores_zero_and_the_unclipped_value_still_ranks_it():
    truths = ["executed-recorded"] * 3 + ["not-executed"] * 2 + ["cannot-tell"]
    all_recorded = [score(answer(t), predict("executed-recorded")) for t in truths]
    all_unrecorded = [score(answer(t), predict("executed-unrecorded")) for t in truths]
    a, b = TYPE.summarize("execution", all_recorded), TYPE.summarize("execution", all_unrecorded)
    assert a["execution_score"] == b["execution_score"] == 0.0
    assert a["execution_score_unclipped"] == pytest.approx(100 * (3 - 15) / 6)
    assert b["execution_score_unclipped"] == pytest.approx(-250.0)
    assert a["execution_score_unclipped"] > b["execution_score_unclipped"]


def test_the_break_even_is_five_in_six():
    # Right 5 times in 6 on instruments answered "executed": exactly nothing gained.
    truths = ["executed-unrecorded"] * 5 + ["not-executed"]
    scores = [score(answer(t), predict("executed-unrecorded")) for t in truths]
    assert TYPE.summarize("execution", scores)["execution_score_unclipped"] == pytest.approx(0.0)
    more = ["executed-unrecorded"] * 6 + ["not-executed"]  # 6 in 7: above break-even, a gain
    gained = [score(answer(t), predict("executed-unrecorded")) for t in more]
    assert TYPE.summarize("execution", gained)["execution_score_unclipped"] > 0
    assert "right more than 5 in 6 times" in " ".join(module_doc().split())


def module_doc():
    import envirobench_legal.instrument_execution as module

    return module.__doc__ or ""


def test_summaries_of_no_cases_are_empty():
    assert TYPE.summarize("execution", []) == {}


@pytest.mark.parametrize(
    "raw, message",
    [
        ({"status": "executed", "evidence_page": 1}, "$.status"),
        ({"status": "not-executed", "evidence_page": 0}, "1-based"),
        ({"status": "not-executed", "evidence_page": "2"}, "$.evidence_page"),
        ({"status": "not-executed", "evidence_page": True}, "$.evidence_page"),
        ({"status": "not-executed", "evidence_page": 1.0}, "$.evidence_page"),
        ({"status": "not-executed"}, "evidence_page"),
        ({"status": "not-executed", "evidence_page": 1, "confidence": 0.9}, "confidence"),
        ({"status": "__import__('os').system('true')", "evidence_page": 1}, "$.status"),
    ],
)
def test_bad_predictions_are_refused_with_their_path(raw, message):
    assert "predictions.json" in refusal(raw, Prediction, message, file="predictions.json", path="$")


@pytest.mark.parametrize(
    "change, message",
    [
        ({"evidence_pages": []}, "evidence_pages is empty"),
        ({"evidence_pages": [2, 1]}, "sorted and distinct"),
        ({"evidence_pages": [0]}, "1-based"),
        ({"status": "executed"}, "$.answer.status"),
        ({"kind": "mortgage"}, "$.answer.kind"),
    ],
)
def test_bad_answers_are_refused_naming_file_line_and_field(change, message):
    raw = {"status": "not-executed", "evidence_pages": [1], "kind": "release", "scanned": False, **change}
    error = refusal(raw, Answer, message, file="answers.jsonl", line=7, path="$.answer")
    assert "answers.jsonl" in error and "7" in error


def test_an_input_must_name_a_pdf():
    with pytest.raises(EnviroBenchError, match="PDF"):
        structure({"document": "assets/x.png"}, Input, path="$.input")


# -- the shipped datasets ---------------------------------------------------------------------------


def test_the_splits_are_registered_sized_and_scanned_in_part(datasets):
    for _, dataset, cases, answers in sized_splits(TYPE, datasets, SIZES):
        assert {c.category for c in cases.values()} == set(SCENARIO_SHARES)
        assert {a.status for a in answers.values()} == set(STATUSES)
        scanned = sum(a.scanned for a in answers.values())
        assert 0.2 <= scanned / len(answers) <= 0.3
        assert sum(entry.size for entry in dataset.manifest.files) < 12_000_000  # the Legal wheel stays under 50 MB
        assert dataset.manifest.license == "CC-BY-4.0"
    assert len(datasets["synthetic-test-v1"][2]) >= 600  # the design's ≈ 600 scored units


def test_the_test_split_shares_no_family_with_dev():
    (dev_templates, dev_recorders), (test_templates, test_recorders) = SPLITS["dev"], SPLITS["test"]
    assert not set(dev_templates) & set(test_templates)
    assert not set(dev_recorders) & set(test_recorders)


def test_calling_everything_executed_and_recorded_scores_zero_on_every_split(datasets):
    for _, (_, _, cases, answers) in datasets.items():
        scores = [TYPE.score_case(case, answers[cid], predict("executed-recorded"))["execution"] for cid, case in cases.items()]
        headline = TYPE.summarize("execution", scores)
        assert headline["execution_score"] == 0.0 and headline["execution_score_unclipped"] < 0


def test_correct_fixture_has_no_error_and_wrong_has_exactly_the_planted_ones(datasets):
    for folder, (_, _, cases, answers) in datasets.items():
        scored = list(fixture_scores(TYPE, folder, cases, answers, "execution"))
        assert all(not good.errors for _, good, _ in scored)
        wrong = {cid: bad for cid, _, bad in scored if bad.errors}
        mistakes = planted(LAYOUT.dataset_dir(folder))
        assert sorted(wrong) == sorted(mistakes) and len(mistakes) == len(MISTAKES)
        false_executed = {cid for cid, s in wrong.items() if s.metrics["false_executed"]}
        assert {mistakes[cid].scenario for cid in false_executed} == {"draft-marker", "blank-notary", "conformed-unrecorded"}


def test_every_legal_dataset_is_registered_with_its_split():
    """A leaderboard pins a task's test split (leaderboard/pins.py); the folders name it."""
    registry = build_registry()
    legal = {i: s for i, s in registry.datasets.items() if s.plugin == "legal"}
    assert len(legal) == 2 * len(PACKAGE.types)
    for dataset_id, source in legal.items():
        assert source.split == ("dev" if dataset_id.endswith("-dev-v1") else "test"), dataset_id
