"""The seeded generator of the `ocr-auto-accept` datasets (dev and test), and their fixtures.

Each case is one results table of a laboratory report of an Extract v2 family
(envirobench_synth.verify.ocr_tables): drawn as the family prints results, at 10 to 16 pixels
to the em, kept clean, scanned (grayscale JPEG) or scanned and thresholded (1-bit PNG), then read
by RapidOCR; the readings of the readable cells (box and text) are pinned in the case's input, the
printed text and whether the reading is right in its answer. The engine's confidence is withheld
(version 1 shipped it in the input, and accepting at 0.999 alone came close to the reference), so
a system that wants to know how sure a reading is must look at the image itself; it is not kept
in the answer either (its fourth decimal differs between machines, the texts do not). The dev split holds the dev families and table
looks, the test split the test families and looks, which the dev split never shows. The case
category is the family.

Table t of family f draws from make_random(SEED, split, f, t); regenerating reproduces every
file byte for byte on a machine where RapidOCR reads the same (one thread; its model files are
pinned by the installed `rapidocr` wheel).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from envirobench import (
    FixturePlan,
    GeneratedCase,
    Manifest,
    dataset_writer,
    read_categories,
    split_of,
)
from envirobench_synth.labreport.families import families_of
from envirobench_synth.rng import make_random
from envirobench_synth.verify.ocr_tables import (
    LOOKS,
    read_cells,
    reads_right,
    render_table,
    sample_table,
)

from ..ocr_auto_accept import Answer, CellTruth, Input, OcrAutoAccept, OcrCell

SEED = 20261216
VERSION = 2
# Version 1 had 12 and 29 per family (36 and 87 tables), and the test interval was 0.31 wide: the
# test split now has three times its tables. The dev split keeps its 36 (what a system is
# developed and a shortcut fitted on; more would cost OCR time to generate, not width).
TABLES_PER_FAMILY = {"dev": 12, "test": 87}


def cases(
    split: str, limit: int | None = None
) -> Iterator[tuple[str, str, str, bytes, Input, Answer]]:
    """(case ID, family, image path, image bytes, input, answer) of the split's tables."""
    number = 0
    for family in families_of(split):  # type: ignore[arg-type]
        for t in range(TABLES_PER_FAMILY[split]):
            if limit is not None and number >= limit:
                return
            table = sample_table(make_random(SEED, split, family.name, t), family, split)
            rendered = render_table(table, SEED, split, family.name, t)
            readings = read_cells(rendered.data, rendered.cells)
            number += 1
            case_id = f"oa-{split}-{number:04d}"
            path = f"assets/{case_id}.{rendered.extension}"
            pairs = [
                (c, r) for c, r in zip(rendered.cells, readings, strict=True) if r.text is not None
            ]
            case_input = Input(
                image=path,
                width=rendered.width,
                height=rendered.height,
                cells=tuple(OcrCell(box=c.box, text=r.text) for c, r in pairs),  # type: ignore[arg-type]
            )
            answer = Answer(
                cells=tuple(
                    CellTruth(c.text, reads_right(r.text, c.text), c.role) for c, r in pairs
                ),  # type: ignore[arg-type]
                family=family.name,
                layout=table.layout,
                copy=table.copy,
                font_size=table.font_size,
                unreadable_cells=len(rendered.cells) - len(pairs),
            )
            yield case_id, family.name, path, rendered.data, case_input, answer


def generate(
    output_dir: Path, dataset: str = "synthetic-dev-v1", limit: int | None = None
) -> Manifest:
    """Write dataset `dataset` (a key of DATASETS) into `output_dir` and return its manifest."""
    write = dataset_writer(OcrAutoAccept, dataset, seed=SEED, version=VERSION)
    split = split_of(dataset)

    def rendered(root: Path) -> Iterator[GeneratedCase]:
        for case_id, family, path, data, case_input, answer in cases(split, limit):
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_bytes(data)
            yield case_id, family, case_input, answer

    families = ", ".join(f.name for f in families_of(split))  # type: ignore[arg-type]
    return write(
        output_dir,
        rendered,
        title=f"OCR auto-accept, synthetic {split} v1 (version 2)",
        description=(
            f"Page images of laboratory results tables of the {split} report families ({families}; table looks "
            f"{', '.join(LOOKS[split])}), clean, scanned (grayscale JPEG) or scanned and thresholded (1-bit PNG), "
            "10-16 px type, each with a real RapidOCR reading of every readable cell pinned in the input (box and "
            "text; the engine's confidence is withheld). The answer says per readable cell "
            "whether the reading equals the printed text after NFKC and removing whitespace. Score: max(0, (correct accepts - 10 x wrong accepts) / readable "
            "cells)."
        ),
    )


# -- fixtures -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class AcceptMistake:
    """A deliberate mistake in wrong.json, on the first case of `family` no other mistake took."""

    family: str
    change: str  # "accept-first-wrong" or "accept-all"
    why: str


def mistakes_of(dataset_dir: Path) -> tuple[AcceptMistake, ...]:
    families = sorted(set(read_categories(dataset_dir).values()))
    return tuple(
        AcceptMistake(family, change, why)
        for family in families
        for change, why in (
            ("accept-first-wrong", "the first misread cell accepted"),
            ("accept-all", "every cell accepted, misreadings too"),
        )
    )


def correct_prediction(answer: Answer) -> dict:
    return {
        "cells": [
            {
                "decision": "accept" if cell.right else "review",
                "confidence": 1.0 if cell.right else 0.0,
            }
            for cell in answer.cells
        ]
    }


def wrong_prediction(answer: Answer, mistake: AcceptMistake) -> dict:
    prediction = correct_prediction(answer)
    if mistake.change == "accept-all":
        return {"cells": [{"decision": "accept", "confidence": 0.95} for _ in answer.cells]}
    first = next(i for i, cell in enumerate(answer.cells) if not cell.right)
    prediction["cells"][first] = {"decision": "accept", "confidence": 0.99}
    return prediction


def planted(dataset_dir: Path, answers: dict[str, Answer]) -> dict[str, AcceptMistake]:
    """Each mistake on the first table (in the dataset's order) of its family that is not all right."""
    return FixturePlan.first_fitting(
        mistakes_of(dataset_dir),
        lambda mistake, answer: not all(c.right for c in answer.cells),
        category=lambda mistake: mistake.family,
        unit="table",
    )(dataset_dir, answers)


FIXTURES = FixturePlan(
    Answer,
    correct=correct_prediction,
    planted=planted,
    wrong=lambda mistake, answer, prediction: wrong_prediction(answer, mistake),
)
