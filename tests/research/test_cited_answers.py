"""`cited-answers`: the citation rule (document, page, quote overlapping the gold passage, the
length cap, OCR slips tolerated), claims counted only when value and citation are both right,
strict refusals, the shipped datasets (sizes, page ranges, every gold passage printed on its
text-layer page, budget) and their fixtures, and (slow) a partial reference run."""

from __future__ import annotations

import json

import pypdfium2 as pdfium
import pytest
from pdf_pages import page_count
from research_kit import assert_fixtures_score_as_planted, reference_run, shipped_datasets

from envirobench import Case, EnviroBenchError, structure
from envirobench.benchmark import check_type_class
from envirobench.categories import disagreements
from envirobench_research.cited_answers import (
    MAX_CITATIONS,
    Answer,
    Citation,
    CitedAnswers,
    Input,
    Prediction,
    supports,
)
from envirobench_research.generate.cited_answers import (
    MISTAKES,
    QUESTIONS_PER_RECORD,
    RECORDS,
    planted,
)
from envirobench_research.package import PACKAGE

TYPE = CitedAnswers()
LAYOUT = PACKAGE.layout(TYPE.ID)
PASSAGE = "Tank T-1, a 1,000-gallon tank that stored heating oil, was removed on 03/05/1998."
QUESTIONS = [
    {"id": "q01", "text": "When was tank T-1 removed?", "answer_type": "date"},
    {
        "id": "q02",
        "text": "How many gallons does T-1 hold?",
        "answer_type": "quantity",
        "unit": "gal",
    },
]
CASE = Case(
    "ca-1",
    "x",
    structure({"documents": ["assets/a.pdf", "assets/b.pdf"], "questions": QUESTIONS}, Input),
)
EVIDENCE = [{"document": "assets/b.pdf", "page": 2, "passage": PASSAGE}]
ANSWER = structure(
    {
        "questions": [
            {
                "kind": "tank-removal-date",
                "status": "answerable",
                "value": "1998-03-05",
                "evidence": EVIDENCE,
            },
            {
                "kind": "tank-capacity",
                "status": "answerable",
                "value": "1000",
                "evidence": [
                    *EVIDENCE,
                    {"document": "assets/a.pdf", "page": 1, "passage": "T-1 1,000 heating oil"},
                ],
            },
        ]
    },
    Answer,
)


def cite(quote=PASSAGE, document="assets/b.pdf", page=2):
    return {"document": document, "page": page, "quote": quote}


def score(answers):
    return TYPE.score_case(CASE, ANSWER, structure({"answers": answers}, Prediction))["claims"]


def test_the_type_is_well_formed_and_is_the_categories_task():
    assert check_type_class(CitedAnswers) == []
    assert disagreements(TYPE.ID, TYPE.LABEL, TYPE.TIER) == []
    assert TYPE.TIER == "document" and TYPE.HEADLINE[0] == "cited_accuracy"
    assert TYPE.source_files(CASE.input) == ("assets/a.pdf", "assets/b.pdf")


@pytest.mark.parametrize(
    ("citation", "ok"),
    [
        (cite(), True),
        (cite(PASSAGE.upper().replace(" ", "  ")), True),  # case and spacing folded
        (cite("T-1, a 1,000-gallon tank that stored heating oil, was removed"), True),  # most of it
        (
            cite(
                "Tank T-1, a 1,OOO-gallon tank that st0red heating oil, was rem0ved on 03/05/1998"
            ),
            True,
        ),
        (cite("was removed on 03/05/1998"), False),  # under half the passage
        (cite(page=3), False),
        (cite(document="assets/a.pdf", page=2), False),
        (cite("Access to the property was coordinated with the owner's representative."), False),
        (cite(PASSAGE + " " + "filler text " * 20), False),  # longer than twice plus 40
    ],
)
def test_the_citation_rule(citation, ok):
    assert supports(structure(citation, Citation), ANSWER.questions[0]) is ok


def test_a_claim_counts_when_value_and_citation_are_both_right():
    result = score(
        {
            "q01": {"answer": "March 5, 1998", "citations": [cite()]},
            "q02": {
                "answer": "1,000 gallons",
                "citations": [cite("T-1 1,000 heating oil", "assets/a.pdf", 1)],
            },
        }
    )
    assert result.errors == () and result.metrics["claims_supported"] == 2.0
    wrong_value = score({"q01": {"answer": "1998-03-06", "citations": [cite()]}})
    assert wrong_value.errors[0] == ("wrong-answer", "q01")
    uncited = score({"q01": {"answer": "1998-03-05", "citations": []}})
    assert uncited.errors[0] == ("unsupported-citation", "q01")
    second = score({"q01": {"answer": "1998-03-05", "citations": [cite(page=9), cite()]}})
    assert (
        second.metrics["claims_supported"] == 1.0 and second.metrics["citations_supporting"] == 1.0
    )


def test_headline_shares():
    scores = [
        score(
            {
                "q01": {"answer": "1998-03-05", "citations": [cite(), cite(page=5)]},
                "q02": {"answer": "1000", "citations": []},
            }
        )
    ]
    head = TYPE.summarize("claims", scores)
    assert head["cited_accuracy"] == pytest.approx(1 / 2)
    assert head["answer_accuracy"] == pytest.approx(1.0)
    assert head["citation_precision"] == pytest.approx(1 / 2)
    assert head["questions"] == 2.0


@pytest.mark.parametrize(
    "answers",
    [
        {"q01": {"answer": "x", "citations": [cite()] * (MAX_CITATIONS + 1)}},
        {"q01": {"answer": "x", "citations": [cite(page=0)]}},
        {"q01": {"answer": "x", "citations": [cite("q" * 1001)]}},
        {"q01": {"answer": "", "citations": []}},
        {"q01": {"answer": "x"}},
        {"q01": {"answer": "x", "citations": [{**cite(), "span": [0, 5]}]}},
        {"q01": "1998-03-05"},
    ],
)
def test_strict_refusals(answers):
    with pytest.raises(EnviroBenchError, match=r"answers"):
        structure({"answers": answers}, Prediction)


def test_every_gold_answer_needs_evidence_passages():
    with pytest.raises(EnviroBenchError):
        structure({"questions": [{"kind": "k", "status": "answerable", "value": "1"}]}, Answer)
    with pytest.raises(EnviroBenchError):
        structure({"questions": [{"kind": "k", "status": "stale"}]}, Answer)


# -- the shipped datasets -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def shipped():
    return shipped_datasets(CitedAnswers)


def test_shipped_sizes_pages_and_budget(shipped):
    totals, sizes = {}, 0
    for folder, (_, dataset, cases, answers) in shipped.items():
        split = folder.split("-")[1]
        assert len(cases) == RECORDS[split]
        totals[split] = sum(len(a.questions) for a in answers.values())
        # a record with fewer facts laid out as passages has a question or two fewer
        assert all(8 <= len(a.questions) <= QUESTIONS_PER_RECORD for a in answers.values())
        sizes += sum(p.stat().st_size for p in dataset.root.rglob("*") if p.is_file())
        for case in list(cases.values())[:4]:
            assert 10 <= page_count(dataset.root, case.input.documents) <= 40, case.id
    # about 600 scoring units in test (design); dev is for development
    assert totals["test"] >= 580
    assert totals["dev"] <= 0.3 * totals["test"]
    assert sizes <= 12 * 2**20


def test_every_gold_passage_is_printed_on_its_text_layer_page(shipped):
    _, dataset, cases, answers = shipped["synthetic-dev-v1"]
    checked = 0
    for case_id in list(cases)[:4]:
        for gold in answers[case_id].questions:
            for evidence in gold.evidence:
                document = pdfium.PdfDocument(str(dataset.root / evidence.document))
                text = document[evidence.page - 1].get_textpage().get_text_range()
                document.close()
                if len(text.strip()) < 20:
                    continue  # a scanned page: no text layer
                assert " ".join(evidence.passage.split()) in " ".join(text.split()), evidence
                checked += 1
    assert checked > 20


@pytest.mark.parametrize("folder", ["synthetic-dev-v1", "synthetic-test-v1"])
def test_fixtures_score_as_meant(shipped, folder):
    _, dataset, cases, answers = shipped[folder]
    mistakes = planted(dataset.root)
    assert len(mistakes) == len(MISTAKES)
    assert_fixtures_score_as_planted(TYPE, folder, cases, answers, "claims", mistakes)


@pytest.mark.slow
def test_a_partial_reference_run_through_core(tmp_path):
    dev = LAYOUT.dataset_dir("synthetic-dev-v1")
    first = json.loads((dev / "cases.jsonl").read_text().splitlines()[0])
    metrics = reference_run(tmp_path, TYPE.ID, [first["id"]])
    head = metrics["profiles"]["claims"]["headline"]
    assert head["questions"] == len(first["input"]["questions"])
    assert head["cited_accuracy"] >= 0.5  # honest, not perfect: most of one dev record
