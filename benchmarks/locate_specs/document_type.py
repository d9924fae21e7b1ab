"""docs/reference-scores.md's Locate table for `document-type`: blind baselines and columns
(read by benchmarks/reference_scores.py --locate)."""

import random
import zlib
from bisect import bisect
from collections import Counter, defaultdict
from functools import cache

from _shortcuts import case_file, dev_split
from _spec_parts import always, count, share, trap_groups

BENCHMARK = "document-type"
UNIT = "documents"
KINDS = ("laboratory-report", "phase-i-report", "phase-ii-report", "monitoring-report", "letter", "invoice", "permit",
         "certificate", "deed", "lease", "contract", "boring-log", "photo-page", "chain-of-custody", "transmittal",
         "remedial-action-plan", "closure-report", "data-validation-report")
INTRO = (
    "The reference adapter (`solvers/document_type.py`: the text layer or OCR of a scan, cues of the trade per kind, "
    "a cue in the first six lines weighing six times one below them; chosen on the dev split only) on both splits; "
    "the test split's document families and title wordings never occur in dev. The documents carry the confusions of "
    "a real site file: six kinds of site report sharing one vocabulary (a later report retells the earlier ones), "
    "cover letters, fax covers and tables of contents in front, excerpts, misleading or generic titles, variants "
    "(no-further-action letters, notices of violation, easements, environmental covenants, lease amendments, tank "
    "registrations, tightness-test certificates, laboratory invoices) and heavy scans. Beside it, blind baselines "
    "that never read the document: every document called a letter (the majority-class answer of a real site file; "
    "the datasets are balanced, eighteen kinds in equal numbers, so it is right on one document in eighteen) and a "
    "uniformly random kind (seeded by the document's path), and a near-blind one reading only the PDF's metadata: the "
    "dev split's commonest kind for the document's page count and byte size (decile). Macro-F1 is the mean of the eighteen kinds' F1; the "
    "per-kind F1 and the confusion counts are in each run's headline."
)


def _metadata(document: str) -> tuple[int, int]:
    """A document's page count (its PDF page tree) and its size in bytes: metadata, no content."""
    import pypdfium2 as pdfium

    path = case_file("document-type", document)
    pdf = pdfium.PdfDocument(str(path))
    try:
        return len(pdf), path.stat().st_size
    finally:
        pdf.close()


@cache
def dev_metadata_model():
    """Fitted on dev: the byte-size deciles, and the commonest kind per (pages, decile), per
    page count and overall."""
    seen = [(_metadata(i.document), a.kind) for i, a in dev_split("document-type")]
    sizes = sorted(size for (_, size), _ in seen)
    cuts = [sizes[len(sizes) * k // 10] for k in range(1, 10)]
    by_cell, by_pages = defaultdict(Counter), defaultdict(Counter)
    for (pages, size), kind in seen:
        by_cell[pages, bisect(cuts, size)][kind] += 1
        by_pages[pages][kind] += 1
    overall = Counter(kind for _, kind in seen)
    return cuts, by_cell, by_pages, overall


def by_pages_and_size(case_input, answer):
    cuts, by_cell, by_pages, overall = dev_metadata_model()
    pages, size = _metadata(case_input.document)
    counts = by_cell.get((pages, bisect(cuts, size))) or by_pages.get(pages) or overall
    return {"kind": counts.most_common(1)[0][0]}


def _random_kind(case_input, answer):
    return {"kind": random.Random(zlib.crc32(case_input.document.encode("utf-8"))).choice(KINDS)}


BASELINES = {
    "every document a letter": always({"kind": "letter"}),
    "a random kind (seeded)": _random_kind,
    "the dev split's commonest kind for the page count and byte size": by_pages_and_size,
}
COLUMNS = (
    share("macro_f1", "macro-F1"),
    share("accuracy", "accuracy"),
    count("documents"),
)
GROUP_METRIC = ("correct", None)
GROUP_TITLE = "Documents the reference adapter types right, by trap (a document may have several) and kind"


def groups(case_id, category, answer):
    return trap_groups(answer.traps or ["none"]) + [f"kind: {answer.kind}"]
