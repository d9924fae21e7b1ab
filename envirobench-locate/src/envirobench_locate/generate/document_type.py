"""The seeded generator of the `document-type` datasets (dev and test), and their fixtures.

Each split holds documents of every kind of envirobench_synth.locate.documents in equal numbers
(the case category is the kind), in the document families of its split: the dev split uses the
dev families and title wordings, the test split only the others
(envirobench_synth.locate.documents.FAMILIES_BY_SPLIT, TITLES). Every fifth document is a
scanned copy (black and white, no text layer), every tenth a heavy scan (96 dpi, more skew, blur
and noise). The traps each document carries (a cover letter, a fax cover or a table of contents in
front of the document, an excerpt of a report's middle pages, a body that names another kind, a
misleading, generic or missing title, a laboratory report titled as a certificate, a scan) are in
its answer and counted in the dataset's description. The truth rules (what a document behind a
cover letter is, what an excerpt is, which kind each variant belongs to) are
envirobench_synth.locate.documents.sample_document's and envirobench_locate.document_type's.
Every kind and every variant occurs in both splits.

Each document draws from its own stream, make_random(SEED, split, case_id); regenerating
reproduces every file byte for byte.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from envirobench import FixturePlan, GeneratedCase, Manifest, dataset_writer, split_of
from envirobench_synth.locate.documents import (
    FAMILIES_BY_SPLIT,
    KINDS,
    Document,
    family,
    render_document,
    sample_document,
)
from envirobench_synth.rng import make_random

from ..document_type import TRAPS, Answer, DocumentType, Input

SEED = 20261202
VERSION = 1
SIZES = {"dev": 288, "test": 648}  # documents; equal numbers of each kind (16 and 36)
SCANNED_EVERY = 5  # every fifth document is a scanned copy
HEAVY_EVERY = 2  # every second scan is a heavy one (lower resolution, more skew and noise)


@dataclass(frozen=True)
class PlannedDocument:
    case_id: str
    kind: str
    family: str
    scanned: bool
    heavy: bool = False


def plan(folder: str) -> list[PlannedDocument]:
    """The documents of dataset `folder`, in order: kinds shuffled, families and scans in turn."""
    split = split_of(folder)
    kinds = [KINDS[i % len(KINDS)] for i in range(SIZES[split])]
    make_random(SEED, split, "order").shuffle(kinds)
    families = FAMILIES_BY_SPLIT[split]
    return [
        PlannedDocument(
            f"dt-{split}-{index + 1:04d}",
            kind,
            families[index % len(families)],
            index % SCANNED_EVERY == SCANNED_EVERY - 1,
            index % (SCANNED_EVERY * HEAVY_EVERY) == SCANNED_EVERY * HEAVY_EVERY - 1,
        )
        for index, kind in enumerate(kinds)
    ]


def draw(folder: str, planned: PlannedDocument) -> Document:
    split = split_of(folder)
    return sample_document(
        make_random(SEED, split, planned.case_id), planned.kind, split, family(planned.family)
    )


def answer_of(planned: PlannedDocument, document: Document, pages: int) -> Answer:
    traps = (
        document.traps
        + (("scanned",) if planned.scanned else ())
        + (("heavy-scan",) if planned.heavy else ())
    )
    return Answer(kind=planned.kind, pages=pages, scanned=planned.scanned, traps=traps)


def describe(folder: str, planned: list[PlannedDocument], documents: list[Document]) -> str:
    split = split_of(folder)
    kinds = Counter(p.kind for p in planned)
    traps = Counter(t for d in documents for t in d.traps) + Counter(
        {"scanned": sum(p.scanned for p in planned), "heavy-scan": sum(p.heavy for p in planned)}
    )
    return (
        f"{len(planned)} synthetic documents of a site file, the {split} split: document families "
        f"{', '.join(FAMILIES_BY_SPLIT[split])}, with the {split} split's title wordings. Kinds: "
        + ", ".join(f"{k} {kinds[k]}" for k in KINDS)
        + ". Traps: "
        + ", ".join(f"{t} {traps[t]}" for t in TRAPS)
        + ". The answer is the document's kind."
    )


def generate(output_dir: Path, dataset: str = "synthetic-dev-v1") -> Manifest:
    """Write dataset `dataset` (its folder, a key of DATASETS) into `output_dir` (absent or
    empty) and return its manifest."""
    write = dataset_writer(DocumentType, dataset, seed=SEED, version=VERSION)
    split = split_of(dataset)
    planned = plan(dataset)
    documents = [draw(dataset, p) for p in planned]  # cheap: drawing, not rendering

    def cases(root: Path) -> Iterator[GeneratedCase]:
        for p, document in zip(planned, documents, strict=True):
            pdf, pages = render_document(
                document, scanned=p.scanned, heavy=p.heavy, seed=SEED, labels=(split, p.case_id)
            )
            path = f"assets/{p.case_id}.pdf"
            (root / path).write_bytes(pdf)
            yield p.case_id, p.kind, Input(document=path), answer_of(p, document, pages)

    return write(
        output_dir,
        cases,
        title=f"Document type, synthetic {split} v1",
        description=describe(dataset, planned, documents),
    )


# -- fixtures -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class KindMistake:
    """A deliberate mistake in wrong.json: on the first document of `kind` (with `trap`, when
    named) no other mistake took, `called` is predicted."""

    kind: str
    trap: str | None
    called: str
    why: str


MISTAKES: tuple[KindMistake, ...] = (
    KindMistake(
        "laboratory-report", None, "certificate", "a laboratory report called a certificate"
    ),
    KindMistake(
        "letter", "cross-reference", "laboratory-report", "a letter called what it encloses"
    ),
    KindMistake("transmittal", None, "letter", "a transmittal form called a letter"),
    KindMistake(
        "monitoring-report", None, "phase-ii-report", "a monitoring report called a Phase II report"
    ),
    KindMistake("lease", None, "contract", "a lease called a contract"),
    KindMistake(
        "phase-i-report",
        "cover-letter",
        "letter",
        "a report behind its cover letter called a letter",
    ),
    KindMistake(
        "chain-of-custody",
        None,
        "laboratory-report",
        "a chain of custody called a laboratory report",
    ),
)


def fits(mistake: KindMistake, answer: Answer) -> bool:
    return answer.kind == mistake.kind and (mistake.trap is None or mistake.trap in answer.traps)


# Case ID -> the mistake wrong.json makes there: each on the first document of its kind it fits.
planted = FixturePlan.first_fitting(MISTAKES, fits, answer=Answer, unit="document")


FIXTURES = FixturePlan(
    Answer,
    correct=lambda answer: {"kind": answer.kind},
    planted=planted,
    wrong=lambda mistake, answer, prediction: {"kind": mistake.called},
)
