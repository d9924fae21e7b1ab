"""Chain-of-custody forms paired with their laboratory reports, and the discrepancies between them
(Verify's custody-reconciliation).

`sample_pair(rng, family, split)` draws a laboratory report of an Extract v2 family
(`labreport.families.sample_family_report`: its field samples, their collection days and times,
the method sections each was analysed for, the results, the laboratory's date style) and the
chain-of-custody form the samplers filled in for it, then plants zero to three kinds of
discrepancy between the two (`plant`), and finally derives the answer from the two documents as
drawn, by the rules below (`discrepancies`), so the answer never depends on what was meant.

Rendering: `render_form` draws the form as a landscape page image, typed (clean grayscale PNG) or
hand-filled (entries in an oblique face, each slightly turned, resized and moved, in uneven ink,
then scanned and thresholded to a 1-bit PNG); `render_report` prints the report as a text-layer
PDF (reportlab, invariant): cover facts with the receipt date, time and temperature, the sample
summary (client sample ID, laboratory ID, matrix, collection date and time), the analysis
summary (sample, analysis, method, date and time analysed) and the results by analysis.

The rules (the truth):

- Sample IDs are compared folded: NFKC, upper case, whitespace removed. A form row and a report
  sample with equal folded IDs are one sample. An unmatched form row and an unmatched report
  sample whose IDs are equal once hyphens and the leading zeros of digit runs are dropped too
  (MW-03 / MW-3 / MW03) are one sample spelled two ways: `id-mismatch`, keyed by the form's ID.
  Any other unmatched form row is `sample-missing` (on the form, not in the report), any other
  unmatched report sample `sample-extra` (keyed by the report's ID). Nothing else is reported
  for a missing or extra sample.
- `collection-mismatch` (per paired sample): the collection date or time differs between form
  and report (compared as date and minute, whatever the print format).
- `temperature` (one per pair, sample ""): the receipt temperature is outside the acceptable
  range: above 0.0 °C (not frozen) and at most 6.0 °C; 6.0 is acceptable, 0.0 is not.
- `holding-time` (per paired sample and analysis the report gives): the time from the form's
  collection date and time to the report's analysis date and time exceeds HOLDING_HOURS of the
  analysis (exactly the limit is met).
- `analysis-not-reported` / `analysis-not-requested` (per paired sample and analysis): requested
  on the form but absent from the report, or reported but not requested.

An analysis is one of ANALYSES (its key); the form writes it as its method and a short name, the
report as its method and section title.
"""

from __future__ import annotations

import datetime as dt
import io
import random
import re
import unicodedata
from dataclasses import dataclass, replace
from decimal import Decimal

from PIL import Image, ImageDraw
from reportlab.lib import colors
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from ..damage import bitonal
from ..degrade import sample_scan_params, scan_page
from ..fonts import font
from ..labreport import names
from ..labreport.families import Family, FamilyReport, Section, sample_family_report
from ..png import png_bytes
from ..rng import derive_seed

# -- analyses and holding times ----------------------------------------------------------------

ANALYSES = (
    "voc", "svoc", "pah", "tph", "metals", "metals-dissolved", "tclp-metals", "splp-metals",
    "mercury", "pcb", "solids", "nitrate",
)  # fmt: skip
# Holding time from collection to analysis, in hours, as this benchmark applies it. Sources:
# 40 CFR 136.3 Table II (nitrate 48 h; metals 6 months; mercury 28 days) and SW-846 Chapter 4
# (VOCs 14 days preserved; extractable organics 14 days to extraction for soil, taken here as
# to analysis; PCBs 1 year); percent solids 7 days (SM 2540 G). One table for every matrix.
HOLDING_HOURS: dict[str, int] = {
    "voc": 14 * 24,
    "svoc": 14 * 24,
    "pah": 14 * 24,
    "tph": 14 * 24,
    "metals": 180 * 24,
    "metals-dissolved": 180 * 24,
    "tclp-metals": 180 * 24,
    "splp-metals": 180 * 24,
    "mercury": 28 * 24,
    "pcb": 365 * 24,
    "solids": 7 * 24,
    "nitrate": 48,
}
SHORT_NAMES = {
    "dev": {
        "voc": "VOCs", "svoc": "SVOCs", "pah": "PAHs", "tph": "TPH", "metals": "Metals",
        "metals-dissolved": "Diss. Metals", "tclp-metals": "TCLP Metals", "splp-metals": "SPLP Metals",
        "mercury": "Mercury", "pcb": "PCBs", "solids": "% Solids", "nitrate": "Nitrate",
    },
    "test": {
        "voc": "Volatiles", "svoc": "Semivolatiles", "pah": "PAH", "tph": "Petroleum HC", "metals": "Total Metals",
        "metals-dissolved": "Dissolved Metals", "tclp-metals": "TCLP", "splp-metals": "SPLP",
        "mercury": "Hg", "pcb": "PCB", "solids": "Moisture", "nitrate": "NO3-N",
    },
}  # fmt: skip
KINDS = (
    "sample-missing", "sample-extra", "id-mismatch", "collection-mismatch", "temperature",
    "holding-time", "analysis-not-reported", "analysis-not-requested",
)  # fmt: skip
TEMPERATURE_MAX = Decimal("6.0")
TEMPERATURE_MIN_EXCLUSIVE = Decimal("0.0")


def analysis_of(section: Section) -> str:
    if section.percent:
        return "solids"
    if section.group == "metal":
        return {"dissolved": "metals-dissolved", "TCLP": "tclp-metals", "SPLP": "splp-metals"}.get(
            section.fraction, "metals"
        )
    return section.group


# -- the model ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class FormRow:
    sample_id: str
    collected: dt.datetime
    matrix: str
    containers: int
    analyses: tuple[str, ...]  # keys of ANALYSES, in print order


@dataclass(frozen=True)
class LabSample:
    sample_id: str
    lab_id: str
    collected: dt.datetime
    analysed: tuple[tuple[str, dt.datetime], ...]  # (analysis, when analysed)


@dataclass(frozen=True)
class Discrepancy:
    kind: str
    sample: str
    analysis: str = ""


@dataclass(frozen=True)
class CustodyPair:
    family: str
    split: str
    hand: bool
    laboratory: str
    client: str
    project: str
    project_number: str
    work_order: str
    sampler: str
    receiver: str
    matrix: str
    rows: tuple[FormRow, ...]
    samples: tuple[LabSample, ...]
    methods: dict[str, str]  # analysis -> method as printed
    received: dt.datetime
    temperature: Decimal
    report_date_format: str
    form_date_format: str
    form_time_format: str
    results: dict[
        str, tuple[tuple[str, tuple[tuple[str, str], ...]], ...]
    ]  # analysis -> (analyte, ((lab ID, value), ...))
    planted: tuple[str, ...] = ()

    def discrepancies(self) -> tuple[Discrepancy, ...]:
        return discrepancies(self)


def fold_id(sample_id: str) -> str:
    return "".join(unicodedata.normalize("NFKC", sample_id).upper().split())


def loose_id(sample_id: str) -> str:
    """The ID with hyphens and leading zeros of digit runs dropped as well (MW-03 -> MW3)."""
    folded = fold_id(sample_id).replace("-", "").replace("_", "")
    return re.sub(r"0+(?=\d)", "", folded)


def pair_samples(
    pair: CustodyPair,
) -> tuple[list[tuple[FormRow, LabSample]], list[FormRow], list[LabSample], set[str]]:
    """(paired rows and samples, unmatched rows, unmatched samples, form IDs spelled otherwise)."""
    by_id = {fold_id(s.sample_id): s for s in pair.samples}
    paired: list[tuple[FormRow, LabSample]] = []
    rows_left: list[FormRow] = []
    for row in pair.rows:
        sample = by_id.pop(fold_id(row.sample_id), None)
        if sample is None:
            rows_left.append(row)
        else:
            paired.append((row, sample))
    samples_left = [s for s in pair.samples if fold_id(s.sample_id) in by_id]
    misspelled: set[str] = set()
    for row in list(rows_left):
        alike = [s for s in samples_left if loose_id(s.sample_id) == loose_id(row.sample_id)]
        if len(alike) == 1:
            paired.append((row, alike[0]))
            rows_left.remove(row)
            samples_left.remove(alike[0])
            misspelled.add(row.sample_id)
    return paired, rows_left, samples_left, misspelled


def discrepancies(pair: CustodyPair) -> tuple[Discrepancy, ...]:
    """Every discrepancy between the form and the report, by the module's rules."""
    paired, rows_left, samples_left, misspelled = pair_samples(pair)
    out = [Discrepancy("sample-missing", row.sample_id) for row in rows_left]
    out += [Discrepancy("sample-extra", sample.sample_id) for sample in samples_left]
    out += [Discrepancy("id-mismatch", sample_id) for sample_id in sorted(misspelled)]
    if not TEMPERATURE_MIN_EXCLUSIVE < pair.temperature <= TEMPERATURE_MAX:
        out.append(Discrepancy("temperature", ""))
    for row, sample in paired:
        if row.collected != sample.collected:
            out.append(Discrepancy("collection-mismatch", row.sample_id))
        reported = {analysis for analysis, _ in sample.analysed}
        for analysis, when in sample.analysed:
            if when - row.collected > dt.timedelta(hours=HOLDING_HOURS[analysis]):
                out.append(Discrepancy("holding-time", row.sample_id, analysis))
        out += [
            Discrepancy("analysis-not-reported", row.sample_id, a)
            for a in row.analyses
            if a not in reported
        ]
        out += [
            Discrepancy("analysis-not-requested", row.sample_id, a)
            for a, _ in sample.analysed
            if a not in row.analyses
        ]
    return tuple(
        sorted(set(out), key=lambda d: (KINDS.index(d.kind), fold_id(d.sample), d.analysis))
    )


# -- sampling ----------------------------------------------------------------------------------

FORM_DATES = {"dev": ("%m/%d/%Y", "%m/%d/%y"), "test": ("%m/%d/%y", "%d-%b-%y")}
FORM_TIMES = {"dev": ("%H:%M",), "test": ("%H%M", "%H:%M")}


def _clock(time: str) -> tuple[int, int]:
    hours, minutes = time.split(":")
    return int(hours), int(minutes)


def sample_pair(rng: random.Random, family: Family, split: str) -> CustodyPair:
    report: FamilyReport = sample_family_report(rng, family, split)  # type: ignore[arg-type]
    facts = report.facts
    blocks = [b for b in report.blocks if b.kind in ("field", "field-duplicate", "field-blank")]
    methods: dict[str, str] = {}
    results: dict[str, dict[str, dict[str, str]]] = {}  # analysis -> analyte -> lab ID -> value
    nitrate = facts.matrix == "groundwater" and rng.random() < 0.45
    rows: list[FormRow] = []
    samples: list[LabSample] = []
    for block in blocks:
        analyses: list[str] = []
        for s in block.sections:
            analysis = analysis_of(report.sections[s])
            methods.setdefault(analysis, report.sections[s].method)
            if analysis not in analyses:
                analyses.append(analysis)
        if nitrate and block.kind != "field-blank":
            methods.setdefault("nitrate", rng.choice(("EPA 300.0", "300.0", "SM 4500-NO3 F")))
            analyses.append("nitrate")
        hours, minutes = _clock(block.time)
        if block.kind == "field-duplicate":
            hours, minutes = rng.randint(8, 16), rng.choice((0, 10, 20, 30, 40, 50))
        day = block.collected or facts.received
        collected = dt.datetime(day.year, day.month, day.day, hours, minutes)
        rows.append(
            FormRow(block.label, collected, facts.matrix, rng.randint(1, 6), tuple(analyses))
        )
        samples.append(
            LabSample(block.label, block.lab_id, collected, tuple((a, collected) for a in analyses))
        )
    last = max(row.collected for row in rows)
    received = last + dt.timedelta(hours=rng.randint(2, 30), minutes=rng.choice((0, 15, 30, 45)))
    # Analysed within the holding time (a short one can still be missed: the truth is by rule).
    timed = []
    for sample in samples:
        analysed = []
        for analysis, _ in sample.analysed:
            limit = HOLDING_HOURS[analysis]
            earliest = received + dt.timedelta(hours=2)
            span = max(
                3,
                int(min(limit * 0.85, 24 * 20))
                - int((earliest - sample.collected).total_seconds() // 3600),
            )
            when = earliest + dt.timedelta(
                hours=rng.randint(0, span), minutes=rng.choice((0, 5, 20, 35, 50))
            )
            analysed.append((analysis, when))
        timed.append(replace(sample, analysed=tuple(analysed)))
    samples = timed
    for (b, s, a), cell in sorted(report.cells.items()):
        block = report.blocks[b]
        if block.kind not in ("field", "field-duplicate", "field-blank"):
            continue
        name = report.sections[s].analytes[a][0]
        table = results.setdefault(analysis_of(report.sections[s]), {})
        table.setdefault(name, {})[block.lab_id] = f"{cell.result} {cell.qualifier}".strip()
    if nitrate:
        results["nitrate"] = {
            "Nitrate as N": {
                blk.lab_id: f"{rng.randint(1, 140) / 10:.1f}"
                for blk in blocks
                if blk.kind != "field-blank"
            }
        }
    temperature = Decimal(
        rng.choice(
            ("1.2", "2.0", "2.8", "3.1", "3.6", "4.0", "4.4", "5.0", "5.5", "5.9", "6.0", "0.8")
        )
    )
    pair = CustodyPair(
        family=family.name,
        split=split,
        hand=rng.random() < 0.5,
        laboratory=facts.laboratory,
        client=facts.client,
        project=facts.project,
        project_number=facts.project_number,
        work_order=facts.work_order,
        sampler=names.person(rng),
        receiver=names.person(rng),
        matrix=facts.matrix,
        rows=tuple(rows),
        samples=tuple(samples),
        methods=methods,
        received=received,
        temperature=temperature,
        report_date_format=report.conventions.date_format,
        form_date_format=rng.choice(FORM_DATES[split]),
        form_time_format=rng.choice(FORM_TIMES[split]),
        results={
            k: tuple((name, tuple(sorted(values.items()))) for name, values in table.items())
            for k, table in results.items()
        },
    )
    return plant(rng, pair)


def _respelled(rng: random.Random, sample_id: str) -> str | None:
    """Another spelling of an ID that stays alike (loose_id equal): padding or a hyphen."""
    options = []
    match = re.search(r"-(\d+)", sample_id)
    if match:
        digits = match.group(1)
        if digits.startswith("0") and len(digits) > 1:
            options.append(
                sample_id[: match.start(1)] + digits.lstrip("0") + sample_id[match.end(1) :]
            )
        elif len(digits) == 1:
            options.append(sample_id[: match.start(1)] + "0" + digits + sample_id[match.end(1) :])
        options.append(sample_id[: match.start()] + sample_id[match.start() + 1 :])
    options = [o for o in options if fold_id(o) != fold_id(sample_id)]
    return rng.choice(options) if options else None


def _drop_one_analysis(
    rng: random.Random, items: list, free: list, field: str
) -> str | None:
    """Drop one analysis from one of `free` (the items of `items` no discrepancy touches yet) that
    lists more than one in `field`: the laboratory's sample (`analysed`: analysis-not-reported)
    or the form's row (`analyses`: analysis-not-requested). Its sample ID, or None when no free
    item lists two."""
    options = [item for item in free if len(getattr(item, field)) > 1]
    if not options:
        return None
    item = rng.choice(options)
    analyses = getattr(item, field)
    drop = rng.randrange(len(analyses))
    items[items.index(item)] = replace(item, **{field: analyses[:drop] + analyses[drop + 1 :]})
    return item.sample_id


def plant(rng: random.Random, pair: CustodyPair) -> CustodyPair:
    """Zero to three kinds of discrepancy, each where it fits (a kind that fits nowhere is skipped)."""
    count = rng.choices((0, 1, 2, 3), weights=(2, 4, 3, 1))[0]
    kinds = rng.sample(KINDS, len(KINDS))
    planted: list[str] = []
    rows, samples = list(pair.rows), list(pair.samples)
    temperature = pair.temperature
    touched: set[str] = (
        set()
    )  # samples (original IDs) a discrepancy concerns: one each keeps the truth plain
    origin = {sample.lab_id: sample.sample_id for sample in samples}

    def free(items: list) -> list:
        return [
            item for item in items
            if (origin[item.lab_id] if isinstance(item, LabSample) else item.sample_id) not in touched
        ]  # fmt: skip

    for kind in kinds:
        if len(planted) >= count:
            break
        if kind == "sample-missing" and len(free(samples)) > 1:
            gone = rng.choice(free(samples))
            samples.remove(gone)
            touched.add(gone.sample_id)
        elif kind == "sample-extra" and len(free(rows)) > 1:
            gone = rng.choice(free(rows))
            rows.remove(gone)
            touched.add(gone.sample_id)
        elif kind == "id-mismatch":
            options = [
                (i, s, _respelled(rng, s.sample_id))
                for i, s in enumerate(samples)
                if s.sample_id not in touched
            ]
            options = [o for o in options if o[2] is not None]
            if not options:
                continue
            i, sample, spelled = rng.choice(options)
            samples[i] = replace(sample, sample_id=spelled)
            touched.add(sample.sample_id)
        elif kind == "collection-mismatch" and free(samples):
            i = samples.index(rng.choice(free(samples)))
            shift = rng.choice(
                (
                    dt.timedelta(hours=1),
                    dt.timedelta(hours=-2),
                    dt.timedelta(days=1),
                    dt.timedelta(hours=12),
                    dt.timedelta(minutes=-30),
                )
            )
            samples[i] = replace(samples[i], collected=samples[i].collected + shift)
            touched.add(samples[i].sample_id)
        elif kind == "temperature":
            temperature = Decimal(
                rng.choice(("6.5", "7.2", "8.0", "9.4", "11.6", "0.0", "-0.6", "-1.8"))
            )
        elif kind == "holding-time" and free(samples):
            sample = rng.choice(free(samples))
            row = (
                next(r for r in rows if r.sample_id == sample.sample_id)
                if any(r.sample_id == sample.sample_id for r in rows)
                else None
            )
            if row is None:
                continue
            analysis, _ = min(sample.analysed, key=lambda item: HOLDING_HOURS[item[0]])
            late = row.collected + dt.timedelta(hours=HOLDING_HOURS[analysis] + rng.randint(2, 72))
            i = samples.index(sample)
            samples[i] = replace(
                sample,
                analysed=tuple((a, late if a == analysis else when) for a, when in sample.analysed),
            )
            touched.add(sample.sample_id)
        elif kind == "analysis-not-reported":
            dropped = _drop_one_analysis(rng, samples, free(samples), "analysed")
            if dropped is None:
                continue
            touched.add(dropped)
        elif kind == "analysis-not-requested":
            dropped = _drop_one_analysis(rng, rows, free(rows), "analyses")
            if dropped is None:
                continue
            touched.add(dropped)
        else:
            continue
        planted.append(kind)
    return replace(
        pair,
        rows=tuple(rows),
        samples=tuple(samples),
        temperature=temperature,
        planted=tuple(planted),
    )


# -- the form ----------------------------------------------------------------------------------

FORM_WIDTH, FORM_HEIGHT = 1100, 850  # a landscape letter page at 100 dpi
FORM_LABELS = {
    "dev": {
        "title": "CHAIN OF CUSTODY RECORD", "client": "Client", "project": "Project Name",
        "number": "Project No.", "sampler": "Sampler", "id": "Sample ID", "date": "Date",
        "time": "Time", "matrix": "Matrix", "containers": "# Cont.", "analyses": "Analyses Requested",
        "relinquished": "Relinquished by", "received": "Received by (lab)", "when": "Date/Time",
        "temperature": "Temp. upon receipt (°C)",
    },
    "test": {
        "title": "Chain-of-Custody / Analysis Request", "client": "Company", "project": "Site",
        "number": "Job #", "sampler": "Collected by", "id": "Field Sample No.", "date": "Coll. Date",
        "time": "Coll. Time", "matrix": "Media", "containers": "Bottles", "analyses": "Tests",
        "relinquished": "Released by", "received": "Accepted by", "when": "Date & Time",
        "temperature": "Cooler temp °C",
    },
}  # fmt: skip
MATRIX_CODES = {"groundwater": "GW", "soil": "SO"}
COLUMNS = (
    ("id", 220),
    ("date", 135),
    ("time", 80),
    ("matrix", 75),
    ("containers", 70),
    ("analyses", 440),
)
TABLE_LEFT, TABLE_TOP, ROW_HEIGHT, ROWS = 40, 210, 38, 10


@dataclass(frozen=True)
class RenderedForm:
    data: bytes
    extension: str


def form_entries(pair: CustodyPair) -> list[tuple[tuple[int, int], str]]:
    """(position, text) of every filled-in entry of the form."""
    entries: list[tuple[tuple[int, int], str]] = []
    entries += [((150, 110), pair.client), ((150, 145), pair.project), ((720, 110), pair.project_number),
                ((720, 145), pair.sampler)]  # fmt: skip
    date, time = pair.form_date_format, pair.form_time_format
    names_ = SHORT_NAMES[pair.split]
    for r, row in enumerate(pair.rows):
        y = TABLE_TOP + ROW_HEIGHT * (r + 1) + 8
        x = TABLE_LEFT
        values = {
            "id": row.sample_id,
            "date": row.collected.strftime(date),
            "time": row.collected.strftime(time),
            "matrix": MATRIX_CODES.get(row.matrix, row.matrix),
            "containers": str(row.containers),
            "analyses": ", ".join(
                f"{_method_code(pair.methods[a])} {names_[a]}" for a in row.analyses
            ),
        }
        for key, width in COLUMNS:
            entries.append(((x + 6, y), values[key]))
            x += width
    bottom = TABLE_TOP + ROW_HEIGHT * (ROWS + 1) + 30
    last = max(row.collected for row in pair.rows) if pair.rows else pair.received
    handed = last + (pair.received - last) / 2
    entries += [((200, bottom), pair.sampler), ((470, bottom), f"{handed.strftime(date)} {handed.strftime(time)}"),
                ((200, bottom + 45), pair.receiver),
                ((470, bottom + 45), f"{pair.received.strftime(date)} {pair.received.strftime(time)}"),
                ((920, bottom + 45), str(pair.temperature))]  # fmt: skip
    return entries


def _method_code(method: str) -> str:
    """The bare method number a sampler writes (SW-846 8260D -> 8260D; EPA 300.0 -> 300.0)."""
    return method.replace("SW-846 ", "").replace("SW", "").replace("EPA ", "").strip()


def _draw_blank(pair: CustodyPair) -> Image.Image:
    labels = FORM_LABELS[pair.split]
    page = Image.new("L", (FORM_WIDTH, FORM_HEIGHT), 255)
    draw = ImageDraw.Draw(page)
    draw.text((FORM_WIDTH // 2, 30), labels["title"], font=font(24, "bold"), fill=0, anchor="ma")
    draw.text((FORM_WIDTH // 2, 64), pair.laboratory, font=font(15), fill=0, anchor="ma")
    small = font(13)
    for (x, y), key in (
        ((40, 110), "client"),
        ((40, 145), "project"),
        ((590, 110), "number"),
        ((590, 145), "sampler"),
    ):
        draw.text((x, y), labels[key] + ":", font=small, fill=0)
        draw.line((x + 105 if x < 500 else x + 125, y + 20, x + 500, y + 20), fill=0, width=1)
    x = TABLE_LEFT
    right = TABLE_LEFT + sum(w for _, w in COLUMNS)
    bottom = TABLE_TOP + ROW_HEIGHT * (ROWS + 1)
    for key, width in COLUMNS:
        draw.text((x + 6, TABLE_TOP + 11), labels[key], font=font(13, "bold"), fill=0)
        draw.line((x, TABLE_TOP, x, bottom), fill=0, width=1)
        x += width
    draw.line((right, TABLE_TOP, right, bottom), fill=0, width=1)
    for r in range(ROWS + 2):
        draw.line(
            (TABLE_LEFT, TABLE_TOP + ROW_HEIGHT * r, right, TABLE_TOP + ROW_HEIGHT * r),
            fill=0,
            width=2 if r < 2 else 1,
        )
    y = bottom + 30
    for offset, (who, when) in enumerate((("relinquished", "when"), ("received", "when"))):
        draw.text((40, y + 45 * offset), labels[who] + ":", font=small, fill=0)
        draw.line((195, y + 45 * offset + 20, 420, y + 45 * offset + 20), fill=0)
        draw.text((430, y + 45 * offset - 16), labels[when], font=font(10), fill=0)
        draw.line((465, y + 45 * offset + 20, 700, y + 45 * offset + 20), fill=0)
    draw.text((730, y + 45), labels["temperature"] + ":", font=small, fill=0)
    draw.line((915, y + 65, 1000, y + 65), fill=0)
    return page


def _hand(page: Image.Image, at: tuple[int, int], text: str, rng: random.Random) -> None:
    """`text` in an oblique face, resized, turned and moved a little, in uneven ink."""
    size = rng.randint(14, 17)
    typeface = font(size, rng.choice(("italic", "bold-italic")))
    box = typeface.getbbox(text)
    layer = Image.new("L", (box[2] + 8, box[3] + 8), 0)
    ImageDraw.Draw(layer).text((4, 4), text, font=typeface, fill=255)
    layer = layer.rotate(rng.uniform(-2.5, 2.5), resample=Image.Resampling.BICUBIC, expand=True)
    ink = Image.new("L", layer.size, rng.randint(10, 80))
    x, y = at[0] + rng.randint(-3, 5), at[1] - 6 + rng.randint(-3, 3)
    page.paste(ink, (x, y), layer)


def render_form(pair: CustodyPair, seed: int, *labels: str | int) -> RenderedForm:
    page = _draw_blank(pair)
    rng = random.Random(derive_seed(seed, "form", *labels))
    draw = ImageDraw.Draw(page)
    for at, text in form_entries(pair):
        if pair.hand:
            _hand(page, at, text, rng)
        else:
            draw.text(at, text, font=font(14), fill=0)
    if pair.hand:
        params = sample_scan_params(rng, max_angle=0.8)
        scanned = scan_page(page, params, seed, "form-scan", *labels).image
        return RenderedForm(png_bytes(bitonal(scanned, rng.randint(150, 185))), "png")
    return RenderedForm(png_bytes(page), "png")


# -- the report --------------------------------------------------------------------------------

REPORT_LABELS = {
    "dev": {"title": "Analytical Report", "received": "Date/Time Received", "temperature": "Cooler temperature upon receipt",
            "summary": "Sample Summary", "analyses": "Analysis Summary", "collected": "Date/Time Collected",
            "analysed": "Date/Time Analyzed", "id": "Client Sample ID", "lab": "Lab Sample ID"},
    "test": {"title": "Certificate of Analysis", "received": "Samples received", "temperature": "Receipt temperature",
             "summary": "Samples in this work order", "analyses": "Preparation and analysis", "collected": "Sampled",
             "analysed": "Analysed", "id": "Client ID", "lab": "Laboratory No."},
}  # fmt: skip


def render_report(pair: CustodyPair) -> bytes:
    labels = REPORT_LABELS[pair.split]
    styles = getSampleStyleSheet()
    fmt = pair.report_date_format + " %H:%M"
    names_ = SHORT_NAMES[pair.split]
    grid = TableStyle([("FONTSIZE", (0, 0), (-1, -1), 8), ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
                       ("LINEBELOW", (0, 0), (-1, 0), 0.6, colors.black), ("VALIGN", (0, 0), (-1, -1), "TOP")])  # fmt: skip
    story = [
        Paragraph(pair.laboratory, styles["Title"]),
        Paragraph(labels["title"], styles["Heading2"]),
        Paragraph(f"Client: {pair.client} &nbsp; Project: {pair.project} ({pair.project_number}) &nbsp; "
                  f"Work order: {pair.work_order}", styles["Normal"]),
        Paragraph(f"{labels['received']}: {pair.received.strftime(fmt)}", styles["Normal"]),
        Paragraph(f"{labels['temperature']}: {pair.temperature} &deg;C", styles["Normal"]),
        Spacer(1, 10),
        Paragraph(labels["summary"], styles["Heading3"]),
    ]  # fmt: skip
    rows = [[labels["id"], labels["lab"], "Matrix", labels["collected"]]]
    rows += [
        [s.sample_id, s.lab_id, pair.matrix.title(), s.collected.strftime(fmt)]
        for s in pair.samples
    ]
    story += [
        Table(rows, style=grid, hAlign="LEFT"),
        Spacer(1, 10),
        Paragraph(labels["analyses"], styles["Heading3"]),
    ]
    rows = [[labels["id"], "Analysis", "Method", labels["analysed"]]]
    for sample in pair.samples:
        rows += [
            [sample.sample_id, names_[a], pair.methods[a], when.strftime(fmt)]
            for a, when in sample.analysed
        ]
    story += [Table(rows, style=grid, hAlign="LEFT"), Spacer(1, 10)]
    for analysis in ANALYSES:
        shown = [k for k, s in enumerate(pair.samples) if any(a == analysis for a, _ in s.analysed)]
        if not shown or analysis not in pair.results:
            continue
        story.append(
            Paragraph(f"{names_[analysis]} ({pair.methods[analysis]})", styles["Heading4"])
        )
        rows = [["Analyte"] + [pair.samples[k].sample_id for k in shown]]
        for name, values in pair.results[analysis]:
            by_lab = dict(values)
            rows.append([name] + [by_lab.get(pair.samples[k].lab_id, "") for k in shown])
        story.append(Table(rows, style=grid, hAlign="LEFT"))
    buffer = io.BytesIO()
    SimpleDocTemplate(buffer, pagesize=letter, invariant=1, title=labels["title"], author=pair.laboratory,
                      creator="EnviroBench synthetic custody report", leftMargin=40, rightMargin=40,
                      topMargin=40, bottomMargin=40).build(story)  # fmt: skip
    return buffer.getvalue()
