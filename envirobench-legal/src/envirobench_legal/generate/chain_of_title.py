"""The seeded generator of the `chain-of-title` datasets (dev and test), and their fixtures.

Each packet is one parcel's history (envirobench_synth.legal.title): four to seven ownership
periods over decades, with one *focus* trap (FOCI, in turn, so every trap is in many packets) and
others drawn at random: corrective deeds, wild deeds, the adjoining lot's deeds, a tax lot
numbered as the subject's plat lot, a caption listing two parcels over a body conveying the
neighbour's, name changes and mergers, sheriff's and trustee's deeds after foreclosures,
quitclaims from the owner, mortgages, deeds of trust and easements. The packet PDF is the
abstractor's cover page and the instruments in recording order (envirobench_synth.legal.packet).

Families by split: the dev split uses the dev law-firm templates (and so their deed wording), the
dev county recorder styles and the dev abstractor cover styles; the test split only the others.
Every SCAN_EVERY-th instrument (counted across the split, so the scanned ones fall on every kind)
is a scanned copy. The case category is the packet's focus trap.

Each packet draws from its own streams, make_random(SEED, split, case_id, ...); regenerating
reproduces every file byte for byte.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from envirobench import (
    EnviroBenchError,
    FixturePlan,
    Manifest,
    dataset_writer,
    document_cases,
    plant_mistakes,
    read_manifest,
    split_of,
)
from envirobench_synth.legal import SPLITS, recorder
from envirobench_synth.legal.packet import COVER_SPLITS, cover_style
from envirobench_synth.legal.title import (
    FOCI,
    TitleHistory,
    references_of,
    render_packet,
    sample_history,
)
from envirobench_synth.rng import make_random

from ..chain_of_title import DATASETS, Answer, ChainOfTitle, Input, TruePeriod
from ..copies import ScannedPage, scanned_pages
from .schedule import is_scanned

SEED = 20261201
VERSION = 1
SIZES = {"dev": 33, "test": 114}  # packets: three, and ten or eleven, of every focus trap (test: over 600 ownership periods)
PERIODS = (4, 7)  # ownership periods per packet, drawn in this range
SCAN_EVERY = 8  # every eighth instrument: a scanned page (1-bit Group 4) costs several born-digital ones


@dataclass(frozen=True)
class PlannedPacket:
    case_id: str
    focus: str
    periods: int
    recorder: str
    cover: str
    first_instrument: int  # the packet's first instrument's number in the split (for scans)


def plan_packets(folder: str) -> list[PlannedPacket]:
    """The packets of dataset `folder`, in order, without their instruments' count."""
    split = split_of(folder)
    _, recorders = SPLITS[split]
    covers = COVER_SPLITS[split]
    rng = make_random(SEED, split, "plan")
    foci = [FOCI[i % len(FOCI)] for i in range(SIZES[split])]
    rng.shuffle(foci)
    out = []
    for index, focus in enumerate(foci):
        out.append(
            PlannedPacket(
                f"ct-{split}-{index + 1:03d}",
                focus,
                rng.randint(*PERIODS),
                recorders[index % len(recorders)],
                covers[(index // len(recorders)) % len(covers)],
                0,
            )
        )
    return out


def history_of(folder: str, planned: PlannedPacket) -> TitleHistory:
    split = split_of(folder)
    return sample_history(
        make_random(SEED, split, planned.case_id, "history"), recorder(planned.recorder), planned.periods, planned.focus
    )


def plan(folder: str) -> list[tuple[PlannedPacket, TitleHistory]]:
    """Every packet of `folder` with its history; `first_instrument` counts instruments across the split."""
    out = []
    count = 0
    for planned in plan_packets(folder):
        history = history_of(folder, planned)
        out.append(
            (
                PlannedPacket(planned.case_id, planned.focus, planned.periods, planned.recorder, planned.cover, count),
                history,
            )
        )
        count += len(history.instruments)
    return out


def answer_of(history: TitleHistory, scanned: int, scan_pages: tuple[ScannedPage, ...] = ()) -> Answer:
    periods = tuple(
        TruePeriod(
            p.grantee, p.start.isoformat(), p.end.isoformat() if p.end else None, p.reference, p.other_references
        )
        for p in history.periods()
    )
    return Answer(
        periods=periods, traps=history.traps, instruments=len(history.instruments), scanned_instruments=scanned,
        scan_pages=scan_pages,
    )


def render_case(folder: str, planned: PlannedPacket, history: TitleHistory, path: str) -> tuple[bytes, str, Input, Answer]:
    """The packet's PDF (to be written at `path`), its category (the focus trap), input and answer."""
    split = split_of(folder)
    templates, _ = SPLITS[split]
    first = planned.first_instrument
    rendered = render_packet(
        history,
        SEED,
        split,
        planned.case_id,
        templates=templates,
        cover=cover_style(planned.cover),
        scan=lambda index: is_scanned(first + index, SCAN_EVERY),
        archival=True,
    )
    answer = answer_of(history, sum(rendered.scanned), scanned_pages(1, rendered.scan_pages))
    case_input = Input(packet=path, apn=history.subject.apn, parcel=history.subject.short)
    return rendered.pdf, planned.focus, case_input, answer


def describe(folder: str, cases: list[tuple[PlannedPacket, TitleHistory]]) -> str:
    split = split_of(folder)
    templates, recorders = SPLITS[split]
    traps = Counter(trap for _, history in cases for trap in history.traps)
    periods = sum(len(history.periods()) for _, history in cases)
    instruments = sum(len(history.instruments) for _, history in cases)
    scanned = sum(1 for i in range(instruments) if is_scanned(i, SCAN_EVERY))
    return (
        f"{len(cases)} synthetic title packets ({periods} ownership periods, {instruments} recorded instruments, "
        f"{scanned} of them scanned), the {split} split: law-firm templates {', '.join(templates)}; recorder styles "
        f"{', '.join(recorders)}; abstractor cover styles {', '.join(COVER_SPLITS[split])}. Packets with each trap: "
        + ", ".join(f"{name} {traps[name]}" for name in FOCI)
        + ". The answer is the subject parcel's ownership periods (grantee, recording date from and to, vesting "
        "instrument's recording reference)."
    )


def generate(output_dir: Path, dataset: str = "synthetic-dev-v1") -> Manifest:
    """Write dataset `dataset` (its folder, a key of DATASETS) into `output_dir` (absent or
    empty) and return its manifest."""
    write = dataset_writer(ChainOfTitle, dataset, seed=SEED, version=VERSION)
    cases = plan(dataset)
    histories = {planned.case_id: history for planned, history in cases}

    def render(planned: PlannedPacket, path: str) -> tuple[bytes, str, Input, Answer]:
        return render_case(dataset, planned, histories[planned.case_id], path)

    return write(
        output_dir,
        document_cases([planned for planned, _ in cases], render),
        title=f"Chain of title, synthetic {split_of(dataset)} v1",
        description=describe(dataset, cases),
    )


# -- fixtures -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChainMistake:
    """A deliberate mistake in wrong.json, on the first packet with `focus` no other mistake took."""

    focus: str
    kind: str
    why: str


MISTAKES: tuple[ChainMistake, ...] = (
    ChainMistake("corrective", "add-corrective", "a corrective deed taken for a new period (an invented period)"),
    ChainMistake("adjoining", "add-adjoining", "the adjoining lot's deed taken for a period (a foreign period)"),
    ChainMistake("wild", "add-wild", "a wild deed taken for a period"),
    ChainMistake("name-change", "new-name", "the owner's later name given instead of the vesting deed's"),
    ChainMistake("sheriffs-deed", "drop-last", "the owner of record left out"),
    ChainMistake("quitclaim-from-owner", "deed-dates", "signing dates given instead of recording dates"),
    ChainMistake("merger", "duplicate", "one period listed twice (a duplicate)"),
)


def planted(folder: str) -> dict[str, tuple[ChainMistake, TitleHistory]]:
    """Case ID -> the mistake wrong.json makes there, with the packet's history."""
    cases = {planned.case_id: planned for planned in plan_packets(folder)}
    taken = plant_mistakes(MISTAKES, cases, lambda mistake, case_id: cases[case_id].focus == mistake.focus, unit="packet")
    return {case_id: (mistake, history_of(folder, cases[case_id])) for case_id, mistake in taken.items()}


def period_json(period: TruePeriod) -> dict:
    return {
        "grantee": period.grantee,
        "from_date": period.from_date,
        "to_date": period.to_date,
        "instrument": period.instrument,
    }


def wrong_periods(mistake: ChainMistake, history: TitleHistory, periods: list[dict]) -> list[dict]:
    periods = [dict(p) for p in periods]
    role = {"add-corrective": "corrective", "add-adjoining": "adjoining", "add-wild": "wild"}.get(mistake.kind)
    if role is not None:
        item = next(i for i in history.instruments if i.role == role)
        periods.append(
            {
                "grantee": item.grantee,
                "from_date": item.recorded.date().isoformat(),
                "to_date": None,
                "instrument": references_of(history.recorder, item)[0],
            }
        )
    elif mistake.kind == "new-name":
        renamed = next(i for i in history.instruments if i.role == "vesting" and ", formerly known as " in i.grantor)
        new, old = renamed.grantor.split(", formerly known as ")
        for period in periods:
            if period["grantee"] == old:
                period["grantee"] = new
    elif mistake.kind == "drop-last":
        periods = periods[:-1]
    elif mistake.kind == "deed-dates":
        vesting = [i for i in history.instruments if i.starts_period]
        for index, period in enumerate(periods):
            period["from_date"] = vesting[index].date.isoformat()
            period["to_date"] = vesting[index + 1].date.isoformat() if index + 1 < len(vesting) else None
    elif mistake.kind == "duplicate":
        periods.append(dict(periods[0]))
    return periods


def planted_in(dataset_dir: Path, answers: dict[str, Answer]) -> dict[str, tuple[ChainMistake, TitleHistory]]:
    """The mistakes planted in the chain-of-title dataset at `dataset_dir` (found by its ID)."""
    dataset_id = read_manifest(dataset_dir).id
    folder = next((name for name, known in DATASETS.items() if known == dataset_id), None)
    if folder is None:
        raise EnviroBenchError(f"{dataset_dir} holds {dataset_id}, not a chain-of-title dataset this generator writes")
    return planted(folder)


FIXTURES = FixturePlan(
    Answer,
    correct=lambda answer: {"periods": [period_json(p) for p in answer.periods]},
    planted=planted_in,
    wrong=lambda found, answer, prediction: {"periods": wrong_periods(*found, prediction["periods"])},
)
