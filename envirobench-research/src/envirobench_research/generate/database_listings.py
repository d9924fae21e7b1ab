"""The seeded generator of the `database-listings` datasets (dev and test), and their fixtures.

Each split holds REPORTS[split] database reports (envirobench_synth.research.listings: a subject,
three to five neighbours, 12 to 28 listings; about one report in eight scanned). The dev split's
layouts (block, table) and database titles never occur in the test split (ledger, compact). The
case category is the report's layout.

Each report draws from its own stream, make_random(SEED, split, case ID); regenerating reproduces
every file byte for byte.
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
from envirobench_synth.research.listings import (
    LAYOUTS_BY_SPLIT,
    SCAN_DPI,
    Report,
    render_report,
    sample_report,
)
from envirobench_synth.rng import make_random

from ..database_listings import Answer, DatabaseListings, Input, SiteRef

SEED = 20261218
VERSION = 1
REPORTS = {"dev": 48, "test": 110}


def case_input(report: Report, path: str) -> Input:
    s = report.subject
    return Input(
        document=path,
        subject=SiteRef("subject", s.client_name(), s.address.canonical()),
        neighbours=tuple(
            SiteRef(n.id, n.client_name(), n.address.canonical()) for n in report.neighbours
        ),
        listings=tuple(item.record for item in report.listings),
    )


def generate(output_dir: Path, dataset: str = "synthetic-dev-v1") -> Manifest:
    """Write dataset `dataset` (a key of DATASETS) into `output_dir` and return its manifest."""
    write = dataset_writer(DatabaseListings, dataset, seed=SEED, version=VERSION)
    split = split_of(dataset)
    counts = {"listings": 0, "scanned": 0}

    def rendered(root: Path) -> Iterator[GeneratedCase]:
        for index in range(REPORTS[split]):
            case_id = f"dl-{split}-{index + 1:04d}"
            report = sample_report(make_random(SEED, split, case_id), split)
            pdf, scanned = render_report(report, SEED, split, case_id)
            path = f"assets/{case_id}.pdf"
            (root / path).write_bytes(pdf)
            counts["listings"] += len(report.listings)
            counts["scanned"] += bool(scanned)
            answer = Answer(
                sites={item.record: item.site for item in report.listings},
                traps={item.record: item.trap for item in report.listings},
                scanned=bool(scanned),
                pages=_page_count(pdf),
            )
            yield case_id, report.layout, case_input(report, path), answer

    reports = [
        sample_report(make_random(SEED, split, f"dl-{split}-{i + 1:04d}"), split)
        for i in range(REPORTS[split])
    ]
    listings = sum(len(r.listings) for r in reports)
    scanned = sum(r.scanned for r in reports)
    description = (
        f"{REPORTS[split]} synthetic regulatory database reports with {listings} listings, the {split} split "
        f"(layouts {', '.join(LAYOUTS_BY_SPLIT[split])}); {scanned} reports scanned after their first page "
        f"(bitonal, {SCAN_DPI} dpi). Each listing is mapped to the subject property, a neighbour the client "
        "names, another site or nothing (unmappable), by address and then name."
    )
    return write(
        output_dir,
        rendered,
        title=f"Database listings, synthetic {split} v1",
        description=description,
    )


def _page_count(pdf: bytes) -> int:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        return len(document)
    finally:
        document.close()


# -- fixtures -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ListingMistake:
    """A deliberate mistake in wrong.json, on the first report of `kind` (its layout) no other
    mistake took and whose listings hold `trap`."""

    kind: str
    trap: str
    change: str  # "other", "subject" or "drop"
    why: str


MISTAKES: tuple[ListingMistake, ...] = (
    ListingMistake(
        "block",
        "same-name-elsewhere",
        "subject",
        "a known site's name at another address put on the subject",
    ),
    ListingMistake(
        "table", "in-range", "other", "a number inside a neighbour's range called another site"
    ),
    ListingMistake("ledger", "unmappable-point", "subject", "a geocoded point put on the subject"),
    ListingMistake("compact", "address-variant", "drop", "a listing left out"),
)


def planted(dataset_dir: Path, answers: dict[str, Answer] | None = None) -> dict[str, ListingMistake]:
    """Each mistake of a layout the split has on the first report of that layout with its trap."""
    present = set(read_categories(dataset_dir).values())
    return FixturePlan.first_fitting(
        tuple(m for m in MISTAKES if m.kind in present),
        lambda mistake, answer: mistake.trap in answer.traps.values(),
        category=lambda mistake: mistake.kind,
        answer=Answer,
        unit="report",
    )(dataset_dir, answers)


def wrong_prediction(answer: Answer, mistake: ListingMistake) -> dict[str, str]:
    sites = dict(answer.sites)
    record = next(r for r, trap in answer.traps.items() if trap == mistake.trap)
    if mistake.change == "drop":
        del sites[record]
    else:
        sites[record] = mistake.change
    return sites


FIXTURES = FixturePlan(
    Answer,
    correct=lambda answer: {"sites": dict(answer.sites)},
    planted=planted,
    wrong=lambda mistake, answer, prediction: {"sites": wrong_prediction(answer, mistake)},
)
