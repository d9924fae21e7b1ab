"""The seeded generator of the `missing-information` datasets (dev and test), and their fixtures.

Each split holds RECORDS[split] long property records (envirobench_synth.research.records: 50 to
150 pages in a dozen PDFs, the recorded instruments scanned) and QUESTIONS_PER_RECORD questions
about each (envirobench_synth.research.questions), about 40 % of them not answerable from the
record (never stated, underspecified, stale). The dev split's office styles, document titles and
question wordings never occur in the test split. The case category is the consultant's office
style (the record's family).

Each record draws from make_random(SEED, split, record ID), its questions from
make_random(SEED, split, record ID, "questions"); regenerating reproduces every file byte for
byte. `case_parts` is shared with the cited-answers generator.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from envirobench import FixturePlan, GeneratedCase, Manifest, dataset_writer, split_of
from envirobench_synth.research.questions import Question, sample_questions
from envirobench_synth.research.records import Record, render_record, sample_record
from envirobench_synth.rng import make_random

from ..answers import NOT_IN_RECORD, Evidence, GoldAnswer, QuestionInput, question_id
from ..missing_information import Answer, Input, MissingInformation
from .mistake import Mistake

SEED = 20261218
VERSION = 1
RECORDS = {"dev": 10, "test": 90}
QUESTIONS_PER_RECORD = 20


def write_record(root: Path, record: Record, seed: int, split: str, record_id: str) -> list[str]:
    """Render the record's PDFs under root/assets; their dataset-relative paths in the record's
    document order (evidence indexes them). The names are neutral (`record-010-doc-03.pdf`, the
    numbers a seeded shuffle): no file name or position says which kind of document it holds."""
    paths = []
    for name, pdf in render_record(record, seed, split, record_id):
        path = f"assets/{record_id}-{name}.pdf"
        (root / path).write_bytes(pdf)
        paths.append(path)
    return paths


def case_parts(
    questions: list[Question], paths: list[str]
) -> tuple[tuple[QuestionInput, ...], tuple[GoldAnswer, ...]]:
    inputs, golds = [], []
    for number, q in enumerate(questions, 1):
        qid = question_id(number)
        inputs.append(QuestionInput(id=qid, text=q.text, answer_type=q.answer_type, unit=q.unit))
        items = tuple(q.value) if isinstance(q.value, tuple) else ()
        golds.append(
            GoldAnswer(
                kind=q.kind,
                status=q.status,
                value="" if items or q.value is None else q.value,
                items=items,
                evidence=tuple(Evidence(paths[e.document], e.page, e.passage) for e in q.evidence),
                trap=q.trap,
            )
        )
    return tuple(inputs), tuple(golds)


def generate(output_dir: Path, dataset: str = "synthetic-dev-v1") -> Manifest:
    """Write dataset `dataset` (a key of DATASETS) into `output_dir` and return its manifest."""
    write = dataset_writer(MissingInformation, dataset, seed=SEED, version=VERSION)
    split = split_of(dataset)
    pages: list[int] = []
    statuses: list[str] = []

    def rendered(root: Path) -> Iterator[GeneratedCase]:
        for index in range(RECORDS[split]):
            record_id = f"record-{index + 1:03d}"
            record = sample_record(make_random(SEED, split, record_id), split, long=True)
            paths = write_record(root, record, SEED, split, record_id)
            questions = sample_questions(
                make_random(SEED, split, record_id, "questions"), record, QUESTIONS_PER_RECORD
            )
            pages.append(record.pages)
            statuses.extend(q.status for q in questions)
            inputs, golds = case_parts(questions, paths)
            yield (
                f"mi-{split}-{index + 1:03d}",
                record.consultant.name,
                Input(documents=tuple(sorted(paths)), questions=inputs),
                Answer(questions=golds),
            )

    # the description's counts need the records drawn; drawing them costs little beside rendering
    for index in range(RECORDS[split]):
        record_id = f"record-{index + 1:03d}"
        record = sample_record(make_random(SEED, split, record_id), split, long=True)
        qs = sample_questions(
            make_random(SEED, split, record_id, "questions"), record, QUESTIONS_PER_RECORD
        )
        pages.append(record.pages)
        statuses.extend(q.status for q in qs)
    total = len(statuses)
    unanswerable = sum(s in ("never-stated", "underspecified", "stale") for s in statuses)
    description = (
        f"{total} questions about {RECORDS[split]} synthetic property records of {min(pages)}-"
        f"{max(pages)} pages each ({sum(pages)} pages in all, the recorded instruments scanned), the "
        f"{split} split. {unanswerable} questions ({100 * unanswerable / total:.0f} %) are not "
        f"answerable from the record ({statuses.count('never-stated')} never stated, "
        f"{statuses.count('underspecified')} underspecified, {statuses.count('stale')} stale); "
        f"{statuses.count('superseded')} have a superseded value beside the current one. Answers "
        "are typed (date, quantity, name, instrument, yes-no, list) or 'not in the record'."
    )
    pages.clear()
    statuses.clear()
    return write(
        output_dir,
        rendered,
        title=f"Missing information, synthetic {split} v1",
        description=description,
    )


# -- fixtures -----------------------------------------------------------------------------------


def canonical(gold: GoldAnswer) -> str:
    """The truth as an answer text: the value, a list's items joined by "; ", or NOT_IN_RECORD."""
    if not gold.answerable:
        return NOT_IN_RECORD
    return "; ".join(gold.items) if gold.items else gold.value


MISTAKES: tuple[Mistake, ...] = (
    Mistake("stale", "trap", "the superseded value given for a stale question (invented)"),
    Mistake("answerable", "abstain", "'not in the record' where the record answers"),
    Mistake("underspecified", "invent", "a value given to an underspecified question"),
    Mistake("answerable", "off-by-one", "a quantity one unit off (wrong)"),
)


def _fits(mistake: Mistake, gold: GoldAnswer) -> bool:
    if gold.status != mistake.takes:
        return False
    if mistake.change == "trap":
        return bool(gold.trap)
    if mistake.change == "off-by-one":
        return _is_number(gold.value)
    return True


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


# Case ID -> the mistake wrong.json makes there: each on the first record with a question it fits.
planted = FixturePlan.first_fitting(
    MISTAKES, lambda m, answer: any(_fits(m, g) for g in answer.questions), answer=Answer, unit="record"
)


def _wrong(gold: GoldAnswer, mistake: Mistake) -> str:
    if mistake.change == "trap":
        return gold.trap
    if mistake.change == "abstain":
        return NOT_IN_RECORD
    if mistake.change == "invent":
        return "2001-01-01"  # a value of no question's truth (dates, quantities, names alike)
    return f"{float(gold.value) + 1:g}"  # a bare number, read in the question's unit


def wrong_prediction(mistake: Mistake, answer: Answer, prediction: dict) -> dict:
    """The first question the mistake fits, answered wrongly."""
    k, gold = next((k, g) for k, g in enumerate(answer.questions, 1) if _fits(mistake, g))
    return {"answers": {**prediction["answers"], question_id(k): _wrong(gold, mistake)}}


FIXTURES = FixturePlan(
    Answer,
    correct=lambda answer: {"answers": {question_id(k): canonical(g) for k, g in enumerate(answer.questions, 1)}},
    planted=planted,
    wrong=wrong_prediction,
)
