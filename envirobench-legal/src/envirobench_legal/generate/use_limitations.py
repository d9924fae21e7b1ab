"""The seeded generator of the `use-limitations` datasets (dev and test), and their fixtures.

A case is one parcel's title search (envirobench_synth.legal.limitations.sample_search): 3 to 5
recorded instruments (a choice that keeps both splits under 8 MB with every fifth copy scanned;
a real search often returns more, mostly deeds and mortgages, which add pages and no new trap)
built around one trap, the case's category, in the proportions of FOCUS_SHARES: a covenant on
the adjoining parcel, a released lien, a terminated covenant or restriction, an amendment that
adds or lifts a restriction, a UECA covenant without the agency's signature, a lien on another
APN, a search with nothing recorded, or none beyond the distractors (deeds "subject to
restrictions of record", a deed citing a municipal ordinance, easements, mortgage releases).

The dev split uses the dev law-firm templates, county recorder styles, restriction wording and
titles, the test split only the others (envirobench_synth.legal.families.SPLITS and
limitations.RESTRICTION_TEXT, TITLES). Every fifth PDF of a split, counted across its cases in
order, is a scanned copy.

Each case draws from its own stream, make_random(SEED, split, case_id); regenerating
reproduces every file byte for byte.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from envirobench import FixturePlan, GeneratedCase, Manifest, dataset_writer, split_of
from envirobench_synth.legal import NEUTRAL_TITLE, SPLITS, recorder, render_instrument
from envirobench_synth.legal.limitations import ParcelSearch, sample_search
from envirobench_synth.rng import make_random

from ..copies import ScannedPage, scanned_pages
from ..use_limitations import Answer, Excluded, Input, Limitation, Parcel, UseLimitations
from .schedule import by_shares, is_scanned, shuffled

SEED = 20261201
VERSION = 1
# Searches per trap in every 100.
FOCUS_SHARES = {
    "plain": 16,
    "adjoining-parcel": 12,
    "released-lien": 12,
    "terminated-covenant": 11,
    "amendment-adds": 10,
    "amendment-lifts": 10,
    "missing-agency-signature": 10,
    "lien-other-apn": 9,
    "nothing-recorded": 10,
}
SIZES = {"dev": 50, "test": 600}  # parcels (test: about 600 current limitations)
DOCUMENTS = (3, 3, 4, 5)  # instruments per search, drawn per case (3 twice: size)
SCANNED_EVERY = 5  # every fifth PDF of a split is a scanned copy


@dataclass(frozen=True)
class PlannedCase:
    case_id: str
    focus: str
    recorder: str
    documents: int
    first_document: int  # the split-wide index of its first PDF (for the scan schedule)


def plan(folder: str) -> list[PlannedCase]:
    """The cases of dataset `folder`, in order: traps shuffled, recorders in turn."""
    split = split_of(folder)
    size = SIZES[split]
    focuses = by_shares(FOCUS_SHARES, size)
    focuses = shuffled(focuses + ["plain"] * (size - len(focuses)), SEED, split)  # "plain": what rounding leaves
    _, recorders = SPLITS[split]
    out, first = [], 0
    for index, focus in enumerate(focuses):
        case_id = f"ul-{split}-{index + 1:04d}"
        documents = make_random(SEED, split, case_id, "documents").choice(DOCUMENTS)
        out.append(PlannedCase(case_id, focus, recorders[index % len(recorders)], documents, first))
        first += documents
    return out


def search_of(folder: str, planned: PlannedCase) -> ParcelSearch:
    split = split_of(folder)
    templates, _ = SPLITS[split]
    rng = make_random(SEED, split, planned.case_id)
    return sample_search(rng, split, templates, recorder(planned.recorder), planned.focus, planned.documents)


def scanned(planned: PlannedCase, position: int) -> bool:
    return is_scanned(planned.first_document + position, SCANNED_EVERY)


def answer_of(search: ParcelSearch, scans: int, scan_pages: tuple[ScannedPage, ...] = ()) -> Answer:
    return Answer(
        limitations=tuple(Limitation(item.type, item.restrictions, item.holder, item.reference)  # type: ignore[arg-type]
                          for item in search.limitations),
        excluded=tuple(Excluded(reference, reason) for reference, reason in search.excluded),  # type: ignore[arg-type]
        traps=tuple(search.traps),
        scanned_documents=scans,
        scan_pages=scan_pages,
    )


def describe(folder: str, cases: list[PlannedCase]) -> str:
    split = split_of(folder)
    templates, recorders = SPLITS[split]
    counts = Counter(case.focus for case in cases)
    documents = sum(case.documents for case in cases)
    scans = sum(scanned(case, i) for case in cases for i in range(case.documents))
    traps = ", ".join(f"{name} {counts[name]}" for name in FOCUS_SHARES)
    return (
        f"{len(cases)} synthetic parcel title searches ({documents} recorded instruments, 3 to 5 a parcel: UECA "
        f"covenants, deed restrictions, notices of activity and use limitation, environmental liens, notices of "
        f"contamination, releases, terminations, amendments, deeds, easements), the {split} split: law-firm "
        f"templates {', '.join(templates)}; recorder styles {', '.join(recorders)}; the {split} split's restriction "
        f"wording and titles. Traps (one a search, the case category): {traps}. Scanned copies: {scans}. The answer "
        "is every current limitation of the subject parcel (type, restrictions, holder, recording reference)."
    )


def generate(output_dir: Path, dataset: str = "synthetic-dev-v1") -> Manifest:
    """Write dataset `dataset` (its folder, a key of DATASETS) into `output_dir` (absent or
    empty) and return its manifest."""
    write = dataset_writer(UseLimitations, dataset, seed=SEED, version=VERSION)
    cases = plan(dataset)
    split = split_of(dataset)

    def rendered(root: Path) -> Iterator[GeneratedCase]:
        for planned in cases:
            search = search_of(dataset, planned)
            paths = []
            pages: list[ScannedPage] = []
            for position, document in enumerate(search.documents):
                copy = render_instrument(document.instrument, SEED, split, planned.case_id, position,
                                         scanned=scanned(planned, position), pdf_title=NEUTRAL_TITLE, archival=True)
                path = f"assets/{planned.case_id}-{position + 1}.pdf"
                (root / path).write_bytes(copy.pdf)
                paths.append(path)
                pages += scanned_pages(position + 1, copy.scan_pages)
            scans = sum(scanned(planned, i) for i in range(len(paths)))
            case_input = Input(parcel=Parcel(search.apn, search.legal_description), documents=tuple(paths))
            yield planned.case_id, planned.focus, case_input, answer_of(search, scans, tuple(pages))

    return write(
        output_dir,
        rendered,
        title=f"Use limitations, synthetic {split} v1",
        description=describe(dataset, cases),
    )


# -- fixtures -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class LimitationMistake:
    """A deliberate mistake in wrong.json, on the first case of `focus` no other mistake took."""

    focus: str
    mistake: str  # what is done to the right prediction (see `apply`)
    why: str


MISTAKES: tuple[LimitationMistake, ...] = (
    LimitationMistake("released-lien", "list-excluded:released", "a released lien listed as current (foreign)"),
    LimitationMistake("adjoining-parcel", "list-excluded:other-parcel", "the adjoining parcel's instrument listed"),
    LimitationMistake("missing-agency-signature", "list-excluded:not-signed-by-agency",
                      "a covenant without the agency's signature listed"),
    LimitationMistake("amendment-lifts", "extra-restriction", "a restriction the amendment lifted kept"),
    LimitationMistake("plain", "wrong-holder", "the owner named as the holder"),
    LimitationMistake("nothing-recorded", "list-excluded:deed", "a deed 'subject to restrictions' called a restriction"),
)


# Case ID -> the mistake wrong.json makes there: each on the first case of its focus.
planted = FixturePlan.first_fitting(MISTAKES, category=lambda mistake: mistake.focus)


def prediction_of(answer: Answer) -> dict:
    return {"limitations": [
        {"type": item.type, "restrictions": list(item.restrictions), "holder": item.holder, "reference": item.reference}
        for item in answer.limitations
    ]}


def apply(mistake: LimitationMistake, answer: Answer, prediction: dict) -> dict:
    items = [dict(item) for item in prediction["limitations"]]
    if mistake.mistake.startswith("list-excluded:"):
        reason = mistake.mistake.split(":", 1)[1]
        reference = next(item.reference for item in answer.excluded if item.reason == reason)
        items.append({"type": "deed-restriction" if reason == "deed" else "environmental-covenant",
                      "restrictions": ["no-residential-use"], "holder": "State Agency", "reference": reference})
    elif mistake.mistake == "extra-restriction":
        missing = sorted({"no-residential-use", "no-groundwater-extraction", "no-agricultural-use"}
                         - set(items[0]["restrictions"]))
        items[0]["restrictions"] = sorted(items[0]["restrictions"] + missing[:1])
    elif mistake.mistake == "wrong-holder":
        items[0]["holder"] = "Owner of record"
    return {"limitations": items}


FIXTURES = FixturePlan(
    Answer,
    correct=prediction_of,
    planted=planted,
    wrong=apply,
)
