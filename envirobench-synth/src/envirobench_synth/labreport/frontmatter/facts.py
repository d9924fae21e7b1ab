"""The facts a front-matter report states about itself (`MetadataReport`) and their sampling:
`sample_metadata_report` draws the facts, the words and the traps of one report.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ...rng import make_random
from ...vocabulary import (
    COLUMN_TERMS,
    LABEL_ROLES,
    LABEL_TERMS,
    STATUS_TERMS,
    Split,
    choose,
)
from .. import names
from ..model import report_dates
from .families import (
    DAY_FIRST,
    DAY_FIRST_SHARES,
    EXTRA_CLIENTS,
    EXTRA_SITES,
    FAMILIES,
    LABORATORIES,
    MATRICES,
    SAMPLE_PREFIXES,
    STATUSES,
    TRAPS,
    Family,
    Status,
)


@dataclass(frozen=True)
class SampleEntry:
    sample_id: str
    lab_id: str
    matrix: str
    unit: str
    collected: dt.date
    time: str  # HH:MM
    analysed: dt.date


@dataclass(frozen=True)
class Facts:
    """What one report states about itself (the answer comes from the first report's)."""

    laboratory: str
    lab_address: tuple[str, str]
    lab_phone: str
    work_order: str
    client: str
    contact: str
    client_address: tuple[str, str]
    project: str
    project_number: str
    po_number: str
    received: dt.date
    report_date: dt.date
    printed: dt.date
    status: Status
    revision: int  # 0 for an original issue
    supersedes: str | None  # the number of the report a revision replaces
    superseded_date: dt.date | None
    samples: tuple[SampleEntry, ...]
    approver: str
    approver_title: str
    sampler: str

    def sampling_dates(self) -> tuple[dt.date, ...]:
        return tuple(sorted({s.collected for s in self.samples}))


@dataclass(frozen=True)
class MetadataReport:
    """One report as drawn: family, facts, traps, and the words and formats it prints with."""

    family: Family
    facts: Facts
    traps: frozenset[str]
    words: Mapping[str, str]  # role -> the label this report prints for it
    status_word: str
    date_format: str
    table_date_format: str
    stapled: tuple[MetadataReport, ...] = ()

    def date(self, value: dt.date) -> str:
        return value.strftime(self.date_format)

    def table_date(self, value: dt.date) -> str:
        return value.strftime(self.table_date_format)


def _work_order(rng: random.Random, style: int, received: dt.date) -> str:
    yy = received.year % 100
    return (
        f"{yy:02d}{'ABCDEFGHIJKL'[received.month - 1]}{rng.randint(1, 9999):04d}",
        f"J{rng.randint(10000, 99999)}-1",
        f"480-{rng.randint(10000, 99999)}-1",
        f"WO-{received.year}-{rng.randint(1, 9999):04d}",
        f"{received:%y%m%d}-{rng.randint(1, 99):02d}",
        f"L{received.year % 100:02d}{rng.randint(10000, 99999)}",
    )[style % 6]


def _lab_id(work_order: str, index: int, style: int) -> str:
    return (f"{work_order}-{index:02d}", f"{work_order}.{index:02d}", f"{work_order}-{index:03d}")[
        style % 3
    ]


def _pick(rng: random.Random, role: str, split: Split, avoid: Sequence[str] = ()) -> str:
    pool = LABEL_TERMS.get(role) or COLUMN_TERMS[role]
    for _ in range(20):
        word = choose(rng, pool, split)
        if word not in avoid:
            return word
    raise ValueError(f"role {role!r}: every {split} term is taken")


def sample_facts(
    rng: random.Random, split: Split, status: Status, *, spread: bool, samples: int
) -> Facts:
    """The facts of one report of `split` with `status`; `spread`: samples over 3-6 days."""
    labs = LABORATORIES[split]
    if split == "test" and rng.random() < 0.25:
        labs = LABORATORIES["dev"]
    lab_index = rng.randrange(len(labs))
    laboratory = labs[lab_index]
    lab_rng = make_random(0, "laboratory", laboratory)  # a laboratory keeps its address
    lab_address, lab_phone = (
        names.address(lab_rng),
        f"({lab_rng.randint(201, 989)}) 555-0{lab_rng.randint(100, 999)}",
    )
    wo_style = lab_rng.randrange(6)
    clients = names.CLIENTS + (EXTRA_CLIENTS if split == "test" else ())
    sites = names.SITES + (EXTRA_SITES if split == "test" else ())

    first = dt.date.fromordinal(
        rng.randint(dt.date(2019, 1, 7).toordinal(), dt.date(2025, 9, 30).toordinal())
    )
    if spread:
        days = sorted(rng.sample(range(1, 18), rng.randint(2, min(5, samples - 1))))
        offsets = [0, *days]
    else:
        offsets = [0] if rng.random() < 0.6 or samples == 1 else [0, 1]
    received = first + dt.timedelta(days=offsets[-1] + rng.randint(0, 2))
    work_order = _work_order(rng, wo_style, received)
    matrix, unit = rng.choice(MATRICES)
    prefix = rng.choice(SAMPLE_PREFIXES)
    numbers = sorted(rng.sample(range(1, 40), samples))
    entries = []
    for i, number in enumerate(numbers):
        # Every sampling day is some sample's; the rest fall on any of them.
        offset = offsets[i] if i < len(offsets) else rng.choice(offsets)
        entries.append(
            SampleEntry(
                sample_id=f"{prefix}{number:02d}" if rng.random() < 0.8 else f"{prefix}{number}",
                lab_id=_lab_id(work_order, i + 1, wo_style),
                matrix=matrix,
                unit=unit,
                collected=first + dt.timedelta(days=offset),
                time=f"{rng.randint(7, 17):02d}:{rng.choice((0, 5, 10, 15, 20, 30, 40, 45, 50)):02d}",
                analysed=received + dt.timedelta(days=rng.randint(1, 10)),
            )
        )
    entries.sort(key=lambda s: (s.collected, s.sample_id))
    last_analysis = max(s.analysed for s in entries)
    report_date, superseded, revision = report_dates(rng, last_analysis, status, (1, 6), (6, 60))
    supersedes = None
    if status == "revised":
        supersedes = rng.choice((work_order, f"{work_order} Rev. {revision - 1}"))
    return Facts(
        laboratory=laboratory,
        lab_address=lab_address,
        lab_phone=lab_phone,
        work_order=work_order,
        client=rng.choice(clients),
        contact=names.person(rng),
        client_address=names.address(rng),
        project=rng.choice(sites),
        project_number=rng.choice(
            (
                f"{received.year}-{rng.randint(10, 999):03d}",
                f"{rng.randint(1000, 9999)}.{rng.randint(1, 20):02d}",
                f"C-{rng.randint(1000, 9999)}-{rng.randint(1, 9):02d}",
            )
        ),
        po_number=rng.choice(
            (f"PO-{rng.randint(10000, 99999)}", f"45000{rng.randint(10000, 99999)}")
        ),
        received=received,
        report_date=report_date,
        printed=report_date + dt.timedelta(days=rng.randint(1, 40)),
        status=status,
        revision=revision,
        supersedes=supersedes,
        superseded_date=superseded,
        samples=tuple(entries),
        approver=names.person(rng),
        approver_title=rng.choice(names.TITLES),
        sampler=names.person(rng),
    )


# The labels the front matter draws terms for, in this order: every lab report's, then its own.
ROLES = (
    *LABEL_ROLES,
    "status",
    "printed",
    "supersedes",
    "po_number",
    "laboratory",
    "analysed",
    "sampler",
)
COLUMNS = ("sample_id", "lab_id", "analyte", "result", "reporting_limit", "unit", "qualifier")


def _words(rng: random.Random, split: Split) -> dict[str, str]:
    words: dict[str, str] = {}
    for role in ROLES:
        # "PO Number" titles the project number in some test reports: never beside a PO.
        avoid = ("PO Number",) if role == "project_number" else ()
        words[role] = _pick(rng, role, split, avoid)
    for role in COLUMNS:
        words["column:" + role] = choose(rng, COLUMN_TERMS[role], split)
    return words


def sample_traps(rng: random.Random, family: Family, status: Status) -> frozenset[str]:
    """Which traps one report carries: drawn with fixed draws, whatever the outcome."""
    draws = {name: rng.random() for name in TRAPS}
    traps = set()
    if draws["status-footer"] < (1.0 if family.name == "certificate" else 0.3):
        traps.add("status-footer")
    if status == "draft" and draws["draft-no-watermark"] < 0.5:
        traps.add("draft-no-watermark")
    if status == "final" and draws["unmarked-final"] < 0.35:
        traps.add("unmarked-final")
    if status == "revised" and draws["supersedes"] < 0.75:
        traps.add("supersedes")
    confusion = {"never": 0.0, "sometimes": 0.5, "always": 1.0}[family.address_confusion]
    if draws["address-confusion"] < confusion:
        traps.add("address-confusion")
    for name, share in (
        ("project-number", 0.45),
        ("ids", 0.6),
        ("other-dates", 0.6),
        ("stapled", 0.15),
        ("spread-sampling", 0.45),
        ("mixed-date-formats", 0.5),
    ):
        if draws[name] < share:
            traps.add(name)
    if draws["day-first"] < DAY_FIRST_SHARES.get(family.name, 0.0):
        traps.add("day-first")
    if "status-footer" in traps and "unmarked-final" in traps:
        traps.discard("status-footer")  # nothing to print in the footer
    if status == "draft" and "status-footer" in traps:
        traps.add("draft-no-watermark")  # a watermark would show the status off the footer
    return frozenset(traps)


def sample_metadata_report(
    rng: random.Random, family_name: str, status: Status, *, stapled: bool | None = None
) -> MetadataReport:
    """One report of family `family_name` with `status` (and, with the `stapled` trap, a second
    report behind it). `stapled` forces the trap on or off."""
    try:
        family = FAMILIES[family_name]
    except KeyError:
        raise ValueError(
            f"family: unknown {family_name!r}; choose from {', '.join(FAMILIES)}"
        ) from None
    if status not in STATUSES:
        raise ValueError(f"status: must be one of {STATUSES}, got {status!r}")
    traps = set(sample_traps(rng, family, status))
    if stapled is not None:
        traps.discard("stapled")
        if stapled:
            traps.add("stapled")
    report = _report(rng, family, status, frozenset(traps))
    if "stapled" in traps:
        other_status = rng.choice(STATUSES)
        other_traps = sample_traps(rng, family, other_status) - {"stapled"}
        behind = _report(rng, family, other_status, other_traps)
        report = MetadataReport(
            report.family,
            report.facts,
            report.traps,
            report.words,
            report.status_word,
            report.date_format,
            report.table_date_format,
            (behind,),
        )
    return report


def _report(
    rng: random.Random, family: Family, status: Status, traps: frozenset[str]
) -> MetadataReport:
    split = family.split
    count = rng.randint(4, 6) if "spread-sampling" in traps else rng.randint(1, 4)
    facts = sample_facts(rng, split, status, spread="spread-sampling" in traps, samples=count)
    words = _words(rng, split)
    date_format = DAY_FIRST if "day-first" in traps else rng.choice(family.date_formats)
    table_format = rng.choice(family.table_date_formats)
    # Day-first reports print their tables day first too, or with the month in letters: a
    # numeric month-first table under a "DD.MM.YYYY" cover would leave the dates ambiguous.
    if date_format == DAY_FIRST and "%m" in table_format:
        table_format = DAY_FIRST
    if "mixed-date-formats" not in traps or table_format == date_format:
        table_format = date_format
        traps = traps - {"mixed-date-formats"}
    status_word = choose(rng, STATUS_TERMS[status], split)
    return MetadataReport(family, facts, traps, words, status_word, date_format, table_format)
