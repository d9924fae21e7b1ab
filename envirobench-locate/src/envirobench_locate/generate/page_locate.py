"""The seeded generator of the `page-locate` datasets (dev and test), and their fixtures.

Each split holds long site files (envirobench_synth.locate.pagefacts: 30 to 150 pages, a report
with its appendices, the recorded instruments scanned and in about a quarter of the files the
boring logs too) and QUESTIONS_PER_FILE questions about each: one each of a well's total depth, an invoice's amount due, the permit's expiration date and
the covenant's recording number, the rest laboratory results by well, analyte and day. The dev
split's office styles and question wordings never occur in the test split. The case category is
the question's kind.

Each file draws from its own stream, make_random(SEED, split, file ID), its questions from
make_random(SEED, split, file ID, "questions"); regenerating reproduces every file byte for byte.

Beside each file's PDF (assets/<split>-<file ID>.pdf) go its page thumbnails
(assets/<split>-<file ID>/p0001.png, ...: envirobench_synth.locate.thumbnails), which every
question about the file names in its input for the report.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from envirobench import FixturePlan, GeneratedCase, Manifest, dataset_writer, split_of
from envirobench_synth.locate.pagefacts import SCAN_DPI, render_file, sample_file, sample_questions
from envirobench_synth.locate.sitepages import STYLES_BY_SPLIT
from envirobench_synth.locate.thumbnails import write_thumbnails
from envirobench_synth.rng import make_random

from ..page_locate import Answer, Input, PageLocate
from .mistake import Mistake

SEED = 20261202
VERSION = 1
FILES = {"dev": 14, "test": 96}
QUESTIONS_PER_FILE = 10


def generate(output_dir: Path, dataset: str = "synthetic-dev-v1") -> Manifest:
    """Write dataset `dataset` (a key of DATASETS) into `output_dir` and return its manifest."""
    write = dataset_writer(PageLocate, dataset, seed=SEED, version=VERSION)
    split = split_of(dataset)

    def rendered(root: Path) -> Iterator[GeneratedCase]:
        number = 0
        for index in range(FILES[split]):
            file_id = f"file-{index + 1:03d}"
            site_file = sample_file(make_random(SEED, split, file_id), split)
            rendered_file = render_file(site_file, SEED, split, file_id)
            stem = f"assets/{split}-{file_id}"
            path = f"{stem}.pdf"
            (root / path).write_bytes(rendered_file.pdf)
            # One set per file, named by every question about it (no image is stored twice).
            thumbnails = write_thumbnails(root, stem, rendered_file.pdf)
            scanned = set(rendered_file.scanned_pages)
            questions = sample_questions(
                make_random(SEED, split, file_id, "questions"), site_file, QUESTIONS_PER_FILE
            )
            for question in questions:
                number += 1
                answer = Answer(
                    pages=question.pages,
                    kind=question.kind,
                    near_misses=question.near_misses,
                    scanned=bool(scanned & set(question.pages)),
                    document_pages=rendered_file.pages,
                )
                yield (
                    f"pl-{split}-{number:04d}",
                    question.kind,
                    Input(document=path, question=question.text, thumbnails=thumbnails),
                    answer,
                )

    # The description's counts need the files drawn; drawing them twice costs a second, not a render.
    files = [
        sample_file(make_random(SEED, split, f"file-{i + 1:03d}"), split)
        for i in range(FILES[split])
    ]
    pages = sum(len(f.sheets) for f in files)
    scanned = sum(len(f.scanned_pages) for f in files)
    description = (
        f"{FILES[split] * QUESTIONS_PER_FILE} questions about {FILES[split]} synthetic site files of "
        f"{min(len(f.sheets) for f in files)}-{max(len(f.sheets) for f in files)} pages ({pages} pages, {scanned} of "
        f"them black-and-white scans at {SCAN_DPI} dpi), the {split} split (office styles "
        f"{', '.join(STYLES_BY_SPLIT[split])}). Questions: laboratory results by well, analyte and day; a well's "
        "total depth; an invoice's amount due; a permit's expiration date; the environmental covenant's recording "
        "number. The answer is every page (1-based) that states the fact. Every page also comes as a small grey "
        "thumbnail (PNG) for reports."
    )
    return write(
        output_dir,
        rendered,
        title=f"Page locate, synthetic {split} v1",
        description=description,
    )


# -- fixtures -----------------------------------------------------------------------------------


MISTAKES: tuple[Mistake, ...] = (
    Mistake("result", "first-only", "only the first page stating a result (the others missed)"),
    Mistake("result", "add-near-miss", "a near miss added (the same well on another day)"),
    Mistake("invoice", "empty", "no page given"),
    Mistake("depth", "next-page", "the page after the right one"),
)


def fits(mistake: Mistake, answer: Answer) -> bool:
    """Whether a question of the mistake's kind can take it."""
    if mistake.change == "first-only":
        return len(answer.pages) > 1
    if mistake.change == "add-near-miss":
        return bool(answer.near_misses)
    return True


# Case ID -> the mistake wrong.json makes there: each on the first question of its kind it fits.
planted = FixturePlan.first_fitting(
    MISTAKES, fits, category=lambda mistake: mistake.takes, answer=Answer, unit="question"
)


def wrong_prediction(answer: Answer, mistake: Mistake) -> list[int]:
    if mistake.change == "first-only":
        return [answer.pages[0]]
    if mistake.change == "add-near-miss":
        return sorted({*answer.pages, answer.near_misses[0]})
    if mistake.change == "empty":
        return []
    return [answer.pages[0] + 1]


FIXTURES = FixturePlan(
    Answer,
    correct=lambda answer: {"pages": list(answer.pages)},
    planted=planted,
    wrong=lambda mistake, answer, prediction: {"pages": wrong_prediction(answer, mistake)},
)
