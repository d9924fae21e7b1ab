"""The seeded generator of the `document-split` datasets (dev and test), and their fixtures.

Each split holds scanned bundles of every scenario (envirobench_synth.locate.bundles: plain,
blank separators, faxed, continuation letterheads, runs of one kind, excerpts) in equal shares, in
office styles of its own: the dev split's letterheads, page numbering and title wordings never
occur in the test split (envirobench_synth.locate.sitepages.STYLES_BY_SPLIT and TITLES). Every
page of a bundle is a black-and-white scan (bundles.SCAN_DPI). The case category is the scenario.

Each bundle draws from its own stream, make_random(SEED, split, case_id); regenerating
reproduces every file byte for byte. Beside each bundle's PDF (assets/<case ID>.pdf) go its page
thumbnails (assets/<case ID>/p0001.png, ...: envirobench_synth.locate.thumbnails), named in the
case's input for the report.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from envirobench import FixturePlan, GeneratedCase, Manifest, copy_fields, dataset_writer, split_of
from envirobench_synth.locate.bundles import SCAN_DPI, SCENARIOS, render_bundle, sample_bundle
from envirobench_synth.locate.sitepages import STYLES_BY_SPLIT
from envirobench_synth.locate.thumbnails import write_thumbnails
from envirobench_synth.rng import make_random

from ..document_split import Answer, DocumentSplit, Input
from .mistake import Mistake

SEED = 20261201
VERSION = 1
SIZES = {"dev": 26, "test": 60}  # bundles; every scenario an equal share (dev: 43 %)


def plan(folder: str) -> list[tuple[str, str]]:
    """(case ID, scenario) of dataset `folder`, in order: scenarios in equal shares, shuffled."""
    split = split_of(folder)
    size = SIZES[split]
    scenarios = [SCENARIOS[i % len(SCENARIOS)] for i in range(size)]
    make_random(SEED, split, "order").shuffle(scenarios)
    return [(f"ds-{split}-{index + 1:04d}", scenario) for index, scenario in enumerate(scenarios)]


def render_case(folder: str, case_id: str, scenario: str):
    split = split_of(folder)
    bundle = sample_bundle(make_random(SEED, split, case_id), scenario, split)
    rendered = render_bundle(bundle, SEED, split, case_id)
    return rendered, copy_fields(Answer, rendered)


def generate(output_dir: Path, dataset: str = "synthetic-dev-v1") -> Manifest:
    """Write dataset `dataset` (a key of DATASETS) into `output_dir` and return its manifest."""
    write = dataset_writer(DocumentSplit, dataset, seed=SEED, version=VERSION)
    split = split_of(dataset)
    cases = plan(dataset)

    def rendered(root: Path) -> Iterator[GeneratedCase]:
        for case_id, scenario in cases:
            bundle, answer = render_case(dataset, case_id, scenario)
            path = f"assets/{case_id}.pdf"
            (root / path).write_bytes(bundle.pdf)
            thumbnails = write_thumbnails(root, f"assets/{case_id}", bundle.pdf)
            yield case_id, scenario, Input(bundle=path, thumbnails=thumbnails), answer

    counts = Counter(scenario for _, scenario in cases)
    description = (
        f"{len(cases)} synthetic scanned bundles of site-file documents, the {split} split (office styles "
        f"{', '.join(STYLES_BY_SPLIT[split])}); scenarios: {', '.join(f'{s} {counts[s]}' for s in SCENARIOS)}. "
        f"Every page scanned in black and white at {SCAN_DPI} dpi. The answer is the first page (1-based) of every "
        "document; page 1 is not scored. Every page also comes as a small grey thumbnail (PNG) for reports."
    )
    return write(
        output_dir,
        rendered,
        title=f"Document split, synthetic {split} v1",
        description=description,
    )


# -- fixtures -----------------------------------------------------------------------------------


MISTAKES: tuple[Mistake, ...] = (
    Mistake("faxed", "drop-second", "a boundary missed (two documents taken for one)"),
    Mistake("continuation-letterheads", "add-inside", "a false boundary inside a document"),
    Mistake(
        "plain", "late-second", "a boundary one page late (right within the ±1 tolerance)"
    ),
    Mistake("blank-separators", "none-but-page-1", "the bundle taken for one document"),
)


def fits(mistake: Mistake, answer: Answer) -> bool:
    """Whether a bundle of the mistake's scenario can take it."""
    if len(answer.first_pages) < 2:
        return False
    if mistake.change == "add-inside":
        return any(
            b - a > 1
            for a, b in zip(
                answer.first_pages, [*answer.first_pages[1:], answer.pages + 1], strict=True
            )
        )
    if mistake.change == "late-second":
        return (
            answer.first_pages[1] + 1 not in answer.first_pages
            and answer.first_pages[1] < answer.pages
        )
    return True


# Case ID -> the mistake wrong.json makes there: each on the first bundle of its scenario it fits.
planted = FixturePlan.first_fitting(
    MISTAKES, fits, category=lambda mistake: mistake.takes, answer=Answer, unit="bundle"
)


def wrong_prediction(answer: Answer, mistake: Mistake) -> list[int]:
    pages = list(answer.first_pages)
    if mistake.change == "drop-second":
        del pages[1]
    elif mistake.change == "late-second":
        pages[1] += 1
    elif mistake.change == "add-inside":
        ends = [*pages[1:], answer.pages + 1]
        start = next(a for a, b in zip(pages, ends, strict=True) if b - a > 1)
        pages = sorted([*pages, start + 1])
    else:
        pages = [1]
    return pages


FIXTURES = FixturePlan(
    Answer,
    correct=lambda answer: {"first_pages": list(answer.first_pages)},
    planted=planted,
    wrong=lambda mistake, answer, prediction: {"first_pages": wrong_prediction(answer, mistake)},
)
