"""The seeded generator of the `historical-use` datasets (dev and test), and their fixtures.

Each split holds HISTORIES[split] properties (envirobench_synth.research.history: a drawn history
of three to six uses from the 1920s to 2020, the city directory, fire-insurance map and aerial
photograph entries an assessor would find, rendered as one text-layer PDF). The dev split's
layouts (by-source, abstract) and source wordings never occur in the test split (chronology,
appendix). The case category is the layout.

Each history draws from its own stream, make_random(SEED, split, case ID); regenerating
reproduces every file byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from envirobench import (
    FixturePlan,
    GeneratedCase,
    Manifest,
    dataset_writer,
    read_categories,
    split_of,
)
from envirobench_synth.research.history import STYLES_BY_SPLIT, render_history, sample_history
from envirobench_synth.rng import make_random

from ..historical_use import USES, Answer, HistoricalUse, Input, Period
from .mistake import Mistake

SEED = 20261219
VERSION = 1
HISTORIES = {"dev": 64, "test": 150}


def generate(output_dir: Path, dataset: str = "synthetic-dev-v1") -> Manifest:
    """Write dataset `dataset` (a key of DATASETS) into `output_dir` and return its manifest."""
    write = dataset_writer(HistoricalUse, dataset, seed=SEED, version=VERSION)
    split = split_of(dataset)

    def case_id(index: int) -> str:
        return f"hu-{split}-{index + 1:04d}"

    def rendered(root: Path) -> Iterator[GeneratedCase]:
        for index in range(HISTORIES[split]):
            cid = case_id(index)
            history = sample_history(make_random(SEED, split, cid), split)
            path = f"assets/{cid}.pdf"
            (root / path).write_bytes(render_history(history, split, SEED, split, cid))
            answer = Answer(
                periods=tuple(Period(p.use, p.from_year, p.to_year) for p in history.periods),
                traps=history.traps,
                style=history.style,
            )
            address = f"{history.address}, {history.city}"
            yield cid, history.style, Input(document=path, address=address, uses=USES), answer

    histories = [
        sample_history(make_random(SEED, split, case_id(i)), split) for i in range(HISTORIES[split])
    ]
    periods = sum(len(h.periods) for h in histories)
    description = (
        f"{HISTORIES[split]} synthetic property histories with {periods} documented use periods, the {split} "
        f"split (layouts {', '.join(STYLES_BY_SPLIT[split])}): city directory listings by year (with the "
        "neighbouring addresses), fire-insurance map descriptions and aerial photograph descriptions in one "
        "text-layer PDF per property. The answer is every documented use with its first and last source year."
    )
    return write(
        output_dir,
        rendered,
        title=f"Historical use, synthetic {split} v1",
        description=description,
    )


# -- fixtures -----------------------------------------------------------------------------------


MISTAKES: tuple[Mistake, ...] = (
    Mistake("by-source", "drop-last", "the latest period left out"),
    Mistake("abstract", "shift", "the first period's end put 8 years late"),
    Mistake("chronology", "relabel", "the first commercial use called retail"),
    Mistake("appendix", "shift", "the first period's end put 8 years late"),
)


def fits(mistake: Mistake, answer: Answer) -> bool:
    if mistake.change == "relabel":
        return any(
            p.use not in ("retail", "residential", "vacant", "agricultural") for p in answer.periods
        )
    return len(answer.periods) > 1


def planted(dataset_dir: Path, answers: dict[str, Answer] | None = None) -> dict[str, Mistake]:
    """Each mistake of a layout the split has on the first history of that layout it fits."""
    present = set(read_categories(dataset_dir).values())
    return FixturePlan.first_fitting(
        tuple(m for m in MISTAKES if m.takes in present),
        fits,
        category=lambda mistake: mistake.takes,
        answer=Answer,
        unit="history",
    )(dataset_dir, answers)


def wrong_prediction(answer: Answer, mistake: Mistake) -> list[dict]:
    periods = [
        {"use": p.use, "from_year": p.from_year, "to_year": p.to_year} for p in answer.periods
    ]
    if mistake.change == "drop-last":
        periods.pop()
    elif mistake.change == "shift":
        periods[0]["to_year"] = min(2100, periods[0]["to_year"] + 8)
    else:
        first = next(
            p
            for p in periods
            if p["use"] not in ("retail", "residential", "vacant", "agricultural")
        )
        first["use"] = "retail"
    return periods


FIXTURES = FixturePlan(
    Answer,
    correct=lambda answer: {"periods": [{"use": p.use, "from_year": p.from_year, "to_year": p.to_year} for p in answer.periods]},
    planted=planted,
    wrong=lambda mistake, answer, prediction: {"periods": wrong_prediction(answer, mistake)},
)
