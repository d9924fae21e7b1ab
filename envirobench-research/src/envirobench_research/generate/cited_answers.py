"""The seeded generator of the `cited-answers` datasets (dev and test), and their fixtures.

Each split holds RECORDS[split] short property records (envirobench_synth.research.records with
long=False: 10 to 40 pages in about ten PDFs, the covenant and easement scanned) and
QUESTIONS_PER_RECORD answerable questions about each whose every gold evidence passage is laid
out by the generator (a sentence, form line or table row), so that a quote can be checked
against it. The records are drawn from streams of their own ("cited", split, record ID): no
record, and so no PDF, of the missing-information datasets recurs here. The dev split's office
styles, titles and wordings never occur in test. The case category is the consultant's office
style.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from envirobench import FixturePlan, GeneratedCase, Manifest, dataset_writer, split_of
from envirobench_synth.research.questions import sample_questions
from envirobench_synth.research.records import sample_record
from envirobench_synth.rng import make_random

from ..answers import GoldAnswer, question_id
from ..cited_answers import Answer, CitedAnswers, Input
from .missing_information import canonical, case_parts, write_record
from .mistake import Mistake

SEED = 20261219
VERSION = 1
RECORDS = {"dev": 12, "test": 50}
QUESTIONS_PER_RECORD = 12


def _record(split: str, record_id: str):  # noqa: ANN202 - a synth Record
    return sample_record(make_random(SEED, "cited", split, record_id), split, long=False)


def generate(output_dir: Path, dataset: str = "synthetic-dev-v1") -> Manifest:
    """Write dataset `dataset` (a key of DATASETS) into `output_dir` and return its manifest."""
    write = dataset_writer(CitedAnswers, dataset, seed=SEED, version=VERSION)
    split = split_of(dataset)

    def questions_of(record, record_id: str):  # noqa: ANN001, ANN202
        return sample_questions(
            make_random(SEED, "cited", split, record_id, "questions"),
            record,
            QUESTIONS_PER_RECORD,
            answerable_only=True,
        )

    def rendered(root: Path) -> Iterator[GeneratedCase]:
        for index in range(RECORDS[split]):
            record_id = f"record-{index + 1:03d}"
            record = _record(split, record_id)
            paths = write_record(root, record, SEED, split, record_id)
            inputs, golds = case_parts(questions_of(record, record_id), paths)
            yield (
                f"ca-{split}-{index + 1:03d}",
                record.consultant.name,
                Input(documents=tuple(sorted(paths)), questions=inputs),
                Answer(questions=golds),
            )

    records = [_record(split, f"record-{i + 1:03d}") for i in range(RECORDS[split])]
    pages = [r.pages for r in records]
    total = sum(len(questions_of(r, f"record-{i + 1:03d}")) for i, r in enumerate(records))
    description = (
        f"{total} questions about {RECORDS[split]} short synthetic property records of "
        f"{min(pages)}-{max(pages)} pages each ({sum(pages)} pages, the covenant and easement "
        f"scanned), the {split} split. Every question is answerable; an answer counts when its "
        "value is right and a citation (document, page, quote) overlaps the passage that states it."
    )
    return write(
        output_dir,
        rendered,
        title=f"Cited answers, synthetic {split} v1",
        description=description,
    )


# -- fixtures -----------------------------------------------------------------------------------


MISTAKES: tuple[Mistake, ...] = (
    Mistake("", "wrong-page", "the right passage cited on the next page"),
    Mistake("", "other-passage", "a quote that is not the passage (the document's title)"),
    Mistake("", "wrong-value", "a wrong value with the right citation"),
    Mistake("", "no-citation", "a right value without any citation"),
)


def cite(gold: GoldAnswer) -> dict:
    evidence = gold.evidence[0]
    return {"document": evidence.document, "page": evidence.page, "quote": evidence.passage}


def _wrong(gold: GoldAnswer, mistake: Mistake) -> dict:
    right = {"answer": canonical(gold), "citations": [cite(gold)]}
    if mistake.change == "wrong-page":
        return {**right, "citations": [{**cite(gold), "page": gold.evidence[0].page + 1}]}
    if mistake.change == "other-passage":
        return {**right, "citations": [{**cite(gold), "quote": "Re: file review"}]}
    if mistake.change == "wrong-value":
        return {**right, "answer": "not in the record"}
    return {**right, "citations": []}


# Case ID -> the mistake wrong.json makes there: the first records in turn.
planted = FixturePlan.first_fitting(MISTAKES, unit="record")


FIXTURES = FixturePlan(
    Answer,
    correct=lambda answer: {
        "answers": {question_id(k): {"answer": canonical(g), "citations": [cite(g)]} for k, g in enumerate(answer.questions, 1)}
    },
    planted=planted,
    # The first question answered wrongly.
    wrong=lambda mistake, answer, prediction: {
        "answers": {**prediction["answers"], question_id(1): _wrong(answer.questions[0], mistake)}
    },
)
