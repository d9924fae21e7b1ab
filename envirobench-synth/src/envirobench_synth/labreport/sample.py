"""Seeded sampling of a `LabReport`: report facts, samples and results with the traps real reports have.

`sample_report(rng, layout)` draws everything from one `random.Random` stream. What a layout
changes is only how many samples and analytes fit it (and, for samples as columns, that every
sample shares the analyte list, reporting limits and dilution). The traps are drawn for every
layout:

- non-detects in the laboratory's notation (`0.50 U`, `ND`, `<0.50`);
- `J`-flagged estimates below the reporting limit, `B` (method blank) flags;
- dilution factors, with the reporting limit multiplied accordingly;
- a re-analysis at a dilution: one sample reports the same analyte twice, `E` (over range)
  then `D` (the diluted run);
- unit switches in one groundwater report: volatile organics in µg/L, metals in mg/L, and
  sometimes one sample's volatile organics re-reported in mg/L;
- a source-area sample with concentrations in the thousands (thousands separators).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
from decimal import Decimal

from .. import catalogue
from ..catalogue import MATRICES, Analyte, MatrixName
from . import names
from .model import (
    DATE_FORMATS,
    LAYOUTS,
    LabReport,
    Measurement,
    PrintStyle,
    QCResult,
    ReportInfo,
    Sample,
    Status,
    report_dates,
)

# (fewest, most) samples and analytes per sample for each layout: what fits its pages.
SIZES: dict[str, tuple[tuple[int, int], tuple[int, int]]] = {
    "sample-per-table": ((2, 4), (6, 14)),
    "samples-as-columns": ((3, 4), (8, 16)),
    "continued": ((2, 3), (16, 24)),
    "two-per-page": ((2, 4), (4, 8)),
    "landscape": ((2, 3), (6, 14)),
    "rotated": ((2, 3), (6, 14)),
    "scanned": ((2, 3), (6, 12)),
    "qualifier-footnotes": ((2, 4), (6, 14)),
}

WORK_ORDER_LABELS: tuple[str, ...] = (
    "Work Order",
    "Work Order No.",
    "Lab Job No.",
    "Laboratory Project No.",
    "SDG",
    "Report No.",
)

MONTH_LETTERS = "ABCDEFGHIJKL"


def sample_report(
    rng: random.Random, layout: str, *, status: Status | None = None, sizes: tuple | None = None
) -> LabReport:
    """A whole report for `layout` (one of LAYOUTS); `status` forces the report status."""
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}; choose from {', '.join(LAYOUTS)}")
    (min_samples, max_samples), (min_analytes, max_analytes) = sizes or SIZES[layout]
    matrix: MatrixName = rng.choice(("groundwater",) * 9 + ("soil",) * 8 + ("soil-gas",) * 3)
    if layout == "continued" and matrix == "soil-gas":
        matrix = "groundwater"  # soil gas has too few analytes to run a table over a page
    style = _style(rng, layout)
    lab_index = rng.randrange(len(catalogue.LABORATORIES))

    collected = catalogue.sample_date(rng)
    days = sorted(rng.sample(range(3), rng.randint(1, 3)))
    received = collected + dt.timedelta(days=days[-1] + rng.randint(0, 2))
    count = rng.randint(min_samples, max_samples)
    work_order = _work_order(rng, lab_index, received)
    samples = _samples(rng, matrix, count, collected, days, work_order)

    measurements = _measurements(
        rng, layout, style, samples, matrix, received, min_analytes, max_analytes
    )
    last_analysis = max(m.analysed for m in measurements)
    info = _info(rng, lab_index, work_order, received, last_analysis, status)
    qc = _qc(rng, style, measurements, received)
    return LabReport(info, style, tuple(samples), tuple(measurements), tuple(qc), layout)


def _style(rng: random.Random, layout: str) -> PrintStyle:
    nondetect = rng.choice(("U", "ND", "<RL"))
    return PrintStyle(
        nondetect=nondetect,
        micro=rng.choice(("µ", "µ", "u")),
        date_format=rng.choice(DATE_FORMATS),
        work_order_label=rng.choice(WORK_ORDER_LABELS),
        thousands=rng.random() < 0.8,
        method_style=rng.choice(catalogue.METHOD_STYLES),
        abbreviate=rng.random() < 0.25,
        table_look=rng.choice(("grid", "rows", "header-rule", "zebra")),
        font_size=rng.choice((8.0, 8.5, 9.0)),
        columns=rng.randrange(3),
        report_date_label=rng.choice(("Report Date", "Date Reported", "Date Issued")),
        repeat_header=rng.random() < 0.5,
    )


def _work_order(rng: random.Random, lab_index: int, received: dt.date) -> str:
    yy = received.year % 100
    if lab_index == 0:
        return f"{yy:02d}{MONTH_LETTERS[received.month - 1]}{rng.randint(1, 9999):04d}"
    if lab_index == 1:
        return f"J{rng.randint(10000, 99999)}-1"
    if lab_index == 2:
        return f"480-{rng.randint(10000, 99999)}-1"
    if lab_index == 3:
        return f"WO-{received.year}-{rng.randint(1, 9999):04d}"
    if lab_index == 4:
        return f"{received:%y%m%d}-{rng.randint(1, 99):02d}"
    return f"V{yy:02d}-{rng.randint(100, 9999):04d}"


def _samples(
    rng: random.Random,
    matrix: MatrixName,
    count: int,
    first_day: dt.date,
    days: list[int],
    work_order: str,
) -> list[Sample]:
    ids: list[str] = []
    while len(ids) < count:
        candidate = catalogue.sample_id(rng, matrix)
        if candidate not in ids:
            ids.append(candidate)
    samples = []
    for index, sample_id in enumerate(ids):
        day = first_day + dt.timedelta(days=rng.choice(days))
        time = f"{rng.randint(8, 16):02d}:{rng.choice((0, 5, 10, 15, 20, 30, 40, 45, 50)):02d}"
        samples.append(Sample(sample_id, f"{work_order}-{index + 1:02d}", matrix, day, time))
    # Field order: by collection date and time, as chains of custody list them.
    samples.sort(key=lambda s: (s.collected, s.collected_time))
    return [
        Sample(s.sample_id, f"{work_order}-{i + 1:02d}", s.matrix, s.collected, s.collected_time)
        for i, s in enumerate(samples)
    ]


def _significant(value: Decimal) -> Decimal:
    return Decimal(catalogue.significant(value, 3 if value >= 1 else 2))


def _measurements(
    rng: random.Random,
    layout: str,
    style: PrintStyle,
    samples: list[Sample],
    matrix: MatrixName,
    received: dt.date,
    min_analytes: int,
    max_analytes: int,
) -> list[Measurement]:
    m = MATRICES[matrix]
    available = len(catalogue.analytes_for(matrix))
    base_rl = {g: Decimal(rng.choice(m.reporting_limits[g])) for g in m.groups}
    methods = {
        g: catalogue.format_method(rng.choice(m.methods[g]), style.method_style) for g in m.groups
    }
    shared = layout == "samples-as-columns"
    shared_analytes = catalogue.sample_analytes(
        rng, matrix, min(available, rng.randint(min_analytes, max_analytes))
    )
    hot = rng.randrange(len(samples)) if rng.random() < 0.6 else None
    # One groundwater sample's volatile organics re-reported in mg/L: a unit switch.
    switched = (
        rng.randrange(len(samples))
        if matrix == "groundwater" and not shared and rng.random() < 0.5
        else None
    )

    out: list[Measurement] = []
    for index, _sample in enumerate(samples):
        analytes = (
            shared_analytes
            if shared
            else catalogue.sample_analytes(
                rng, matrix, min(available, rng.randint(min_analytes, max_analytes))
            )
        )
        dilutions = {g: 1 if shared else rng.choice((1, 1, 1, 1, 2, 5, 10)) for g in m.groups}
        analysed = {g: received + dt.timedelta(days=rng.randint(1, 6)) for g in m.groups}
        for analyte in analytes:
            g = analyte.group
            unit = m.units[g]
            rl = Decimal(catalogue.significant(base_rl[g] * dilutions[g], 2))
            value, qualifier = _value(rng, rl, style, hot == index)
            mdl = Decimal(catalogue.significant(rl * Decimal(rng.randint(20, 50)) / 100, 2))
            if switched == index and unit == "µg/L":
                unit = "mg/L"
                rl, mdl = rl.scaleb(-3), mdl.scaleb(-3)
                value = None if value is None else value.scaleb(-3)
            out.append(
                Measurement(
                    sample=index,
                    analyte=_name(analyte, style),
                    cas=analyte.cas,
                    group=g,
                    method=methods[g],
                    unit=unit,
                    value=value,
                    reporting_limit=rl,
                    mdl=mdl,
                    qualifier=qualifier,
                    dilution=dilutions[g],
                    analysed=analysed[g],
                )
            )
    if not shared and rng.random() < 0.45:
        out = _add_reanalysis(rng, out)
    return out


def _name(analyte: Analyte, style: PrintStyle) -> str:
    return analyte.abbreviation if style.abbreviate and analyte.abbreviation else analyte.name


def _value(
    rng: random.Random, rl: Decimal, style: PrintStyle, hot: bool
) -> tuple[Decimal | None, str]:
    roll = rng.random()
    if roll < 0.4:
        return None, "U" if style.nondetect == "U" else ""
    if roll < 0.55:
        return _significant(rl * Decimal(rng.randint(25, 95)) / 100), "J"
    value = (
        rl * Decimal(rng.randint(101, 999)) / 100 * Decimal(10) ** rng.choice((0, 0, 0, 1, 1, 2))
    )
    if hot:
        value *= 10
    return _significant(value), "B" if rng.random() < 0.08 else ""


def _add_reanalysis(rng: random.Random, measurements: list[Measurement]) -> list[Measurement]:
    """Report one organic result twice: over the calibration range (E), then diluted (D)."""
    candidates = [
        i
        for i, m in enumerate(measurements)
        if m.group in ("voc", "tph", "pah") and m.dilution == 1
    ]
    if not candidates:
        return measurements
    i = rng.choice(candidates)
    original = measurements[i]
    over = _significant(original.reporting_limit * Decimal(rng.randint(150, 600)))
    factor = rng.choice((10, 20, 50))
    diluted = _significant(over * Decimal(rng.randint(100, 140)) / 100)
    first = dataclasses.replace(original, value=over, qualifier="E")
    second = dataclasses.replace(
        original,
        value=diluted,
        qualifier="D",
        dilution=factor,
        reporting_limit=Decimal(catalogue.significant(original.reporting_limit * factor, 2)),
        mdl=Decimal(catalogue.significant(original.mdl * factor, 2)),
        analysed=original.analysed + dt.timedelta(days=rng.randint(1, 3)),
    )
    return measurements[:i] + [first, second] + measurements[i + 1 :]


def _info(
    rng: random.Random,
    lab_index: int,
    work_order: str,
    received: dt.date,
    last_analysis: dt.date,
    status: Status | None,
) -> ReportInfo:
    if status is None:
        status = rng.choice(("final",) * 3 + ("draft", "revised"))
    report_date, superseded, revision = report_dates(rng, last_analysis, status, (2, 10), (5, 40))
    reason = rng.choice(names.REVISION_REASONS) if status == "revised" else None
    site = rng.choice(names.SITES)
    return ReportInfo(
        laboratory=catalogue.LABORATORIES[lab_index],
        lab_address=names.address(rng),
        lab_phone=f"({rng.randint(201, 989)}) 555-{rng.randint(100, 9999):04d}",
        work_order=work_order,
        client=rng.choice(names.CLIENTS),
        client_contact=names.person(rng),
        client_address=names.address(rng),
        project=site,
        project_number=f"{received.year}-{rng.randint(10, 999):03d}",
        report_date=report_date,
        received_date=received,
        status=status,
        revision=revision,
        superseded_date=superseded,
        revision_reason=reason,
        approver=names.person(rng),
        approver_title=rng.choice(names.TITLES),
        cooler_temperature=f"{rng.randint(10, 58) / 10:.1f}",
    )


def _qc(
    rng: random.Random, style: PrintStyle, measurements: list[Measurement], received: dt.date
) -> list[QCResult]:
    """Method blanks and laboratory control samples for each method: distractors, not records."""
    out: list[QCResult] = []
    seen: dict[str, list[Measurement]] = {}
    for m in measurements:
        seen.setdefault(m.method, []).append(m)
    for members in seen.values():
        batch = f"B{received:%y}{rng.randint(1000, 9999)}"
        unique = list({m.analyte: m for m in members if m.dilution == 1}.values()) or members[:1]
        for m in unique[:3]:
            rl = (
                m.reporting_limit
                if m.dilution == 1
                else Decimal(catalogue.significant(m.reporting_limit / m.dilution, 2))
            )
            limit = style.number(rl)
            result = {"U": f"{limit} U", "ND": "ND", "<RL": f"<{limit}"}[style.nondetect]
            out.append(
                QCResult("blank", batch, m.method, m.analyte, style.unit(m.unit), result, limit)
            )
        for m in unique[:3]:
            spike = Decimal(rng.choice(("10.0", "20.0", "50.0", "100")))
            recovery = rng.randint(72, 124)
            found = Decimal(catalogue.significant(spike * recovery / 100, 3))
            out.append(
                QCResult(
                    "lcs",
                    batch,
                    m.method,
                    m.analyte,
                    style.unit(m.unit),
                    style.number(found),
                    style.number(m.reporting_limit),
                    spike=style.number(spike),
                    recovery=str(recovery),
                    limits=rng.choice(("70-130", "75-125", "80-120")),
                )
            )
    return out
