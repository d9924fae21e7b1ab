"""The seeded generator of the `passage-rerank` datasets (dev and test), and their fixtures.

Each split holds questions of the five kinds of envirobench_synth.locate.passages (a result, a
result against its standard, a tank's removal, the owner in a year, the groundwater flow
direction) in equal numbers, each with CANDIDATES passages from its site's records, graded 0-3,
its essential passages marked. The dev split words questions, passages, dates, units and sources
with the dev templates; the test split only with the others. The case category is the question
kind. The candidates are shuffled: their order carries nothing.

Each question draws from its own stream, make_random(SEED, split, case_id); regenerating
reproduces every file byte for byte.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from envirobench import FixturePlan, GeneratedCase, Manifest, dataset_writer, split_of
from envirobench_synth.locate.passages import (
    CANDIDATES,
    QUESTION_KINDS,
    RerankQuestion,
    sample_question,
)
from envirobench_synth.rng import make_random

from ..passage_rerank import CUTOFF, Answer, Input, Judgment, Passage, PassageRerank
from .mistake import Mistake

SEED = 20261201
VERSION = 1
SIZES = {"dev": 150, "test": 325}  # questions; equal numbers of each kind


def plan(folder: str) -> list[tuple[str, str]]:
    """(case ID, question kind) of every question of dataset `folder`, kinds shuffled."""
    split = split_of(folder)
    kinds = [QUESTION_KINDS[i % len(QUESTION_KINDS)] for i in range(SIZES[split])]
    make_random(SEED, split, "order").shuffle(kinds)
    return [(f"pr-{split}-{index + 1:04d}", kind) for index, kind in enumerate(kinds)]


def sample_case(folder: str, case_id: str, kind: str) -> RerankQuestion:
    split = split_of(folder)
    return sample_question(make_random(SEED, split, case_id), kind, split)


def to_case(question: RerankQuestion) -> tuple[Input, Answer]:
    case_input = Input(
        question=question.text,
        passages=tuple(Passage(p.id, p.text, p.source) for p in question.passages),
    )
    answer = Answer(
        judgments=tuple(Judgment(p.id, p.grade) for p in question.passages),
        essential=tuple(p.id for p in question.passages if p.essential),
        kind=question.kind,
    )
    return case_input, answer


def describe(folder: str, questions: list[RerankQuestion]) -> str:
    split = split_of(folder)
    kinds = Counter(q.kind for q in questions)
    traps = Counter(role for q in questions for role in q.traps)
    return (
        f"{len(questions)} questions about synthetic sites, the {split} split, each with {CANDIDATES} candidate passages "
        f"from the site's records (monitoring and laboratory reports, Phase I and II reports, tank closure reports, deeds, "
        f"letters), graded 0-3 with the essential passages marked; wordings of the {split} family. Questions: "
        + ", ".join(f"{k} {kinds[k]}" for k in QUESTION_KINDS)
        + ". Hard negatives (graded 0, sharing the question's words): "
        + ", ".join(f"{role} {count}" for role, count in sorted(traps.items()))
        + ". The candidates are in no meaningful order."
    )


def generate(output_dir: Path, dataset: str = "synthetic-dev-v1") -> Manifest:
    """Write dataset `dataset` (its folder, a key of DATASETS) into `output_dir` (absent or
    empty) and return its manifest."""
    write = dataset_writer(PassageRerank, dataset, seed=SEED, version=VERSION)
    questions = [(case_id, sample_case(dataset, case_id, kind)) for case_id, kind in plan(dataset)]

    def cases(root: Path) -> Iterator[GeneratedCase]:
        for case_id, question in questions:
            case_input, answer = to_case(question)
            yield case_id, question.kind, case_input, answer

    return write(
        output_dir,
        cases,
        title=f"Passage rerank, synthetic {split_of(dataset)} v1",
        description=describe(dataset, [q for _, q in questions]),
    )


# -- fixtures -----------------------------------------------------------------------------------


def ideal_ranking(answer: Answer) -> list[str]:
    """Every judged passage, by grade (best first), essential before others of its grade, then by ID."""
    essential = set(answer.essential)
    return [
        j.passage
        for j in sorted(
            answer.judgments, key=lambda j: (-j.grade, j.passage not in essential, j.passage)
        )
    ]


MISTAKES: tuple[Mistake, ...] = (
    Mistake(
        "result", "reverse", "the ideal ranking reversed: every essential passage out of the top 10"
    ),
    Mistake(
        "exceedance", "essential-to-11", "an essential passage (the standard) just below the cutoff"
    ),
    Mistake(
        "tank-removal", "negative-first", "a graded-0 passage (another tank's removal) put first"
    ),
    Mistake(
        "ownership", "unknown-first", "a passage ID the question does not offer, put first"
    ),
    Mistake(
        "flow-direction",
        "top-only",
        "only the best passage returned: the graded 2 and 1 ones missing",
    ),
)


# Case ID -> the mistake wrong.json makes there: each on the first question of its kind.
planted = FixturePlan.first_fitting(MISTAKES, category=lambda mistake: mistake.takes, unit="question")


def mistaken(ranking: list[str], answer: Answer, change: str) -> list[str]:
    grades = {j.passage: j.grade for j in answer.judgments}
    if change == "reverse":
        return ranking[::-1]
    if change == "essential-to-11":
        moved = next(p for p in ranking if p in answer.essential and grades[p] == 2)
        rest = [p for p in ranking if p != moved]
        return rest[:CUTOFF] + [moved] + rest[CUTOFF:]
    if change == "negative-first":
        negative = next(p for p in ranking if grades[p] == 0)
        return [negative] + [p for p in ranking if p != negative]
    if change == "unknown-first":
        return ["not-offered"] + ranking
    if change == "top-only":
        return ranking[:1]
    raise ValueError(f"unknown change {change!r}")


FIXTURES = FixturePlan(
    Answer,
    correct=lambda answer: {"ranking": ideal_ranking(answer)},
    planted=planted,
    wrong=lambda mistake, answer, prediction: {"ranking": mistaken(prediction["ranking"], answer, mistake.change)},
)
