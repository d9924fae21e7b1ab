"""The pages of a v2 family report (the `families` package), drafted with draft.py's Book/Flow/TableSpec and
emitted, some pages scanned, through `envirobench_synth.scans`.

Three skeletons, each drawn in its family's conventions:

- `sample-pages`: a table per sample (and per re-analysis and, where the family prints QC
  inline, per QC run: "MW-01 MS" gets a table of its own), analytes as rows under method
  headings, surrogate %REC rows under each organic method; the sample block (ID, lab ID,
  collected, matrix) above the table;
- `long-table`: one long table with a sample column, rows grouped by method heading (or, where
  the unit goes in the heading, one table per method), QC runs listed after each method's samples
  when inline; no CAS column (so its records carry no CAS, see the `families` package);
- `sample-columns`: per method a table with analytes as rows and a column per sample, a
  multi-row header (sample, lab ID, date), an optional screening-level column with exceedances
  shaded.

Every report has a cover, a case narrative with the sample summary, the results, QC pages (when
QC is not inline) and, for a revision, the superseded original pages appended. Text is drawn in
the PDF standard faces (Helvetica), never embedded, to keep text pages to a kilobyte or two.

`render_family_reports(reports, seed, *labels, scan=...)` renders one PDF (several reports
stapled when given several) with its truth: every record in print order, the page it is printed
on, the results tables per page, and the count of each trap shown.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from ..damage import sample_damage
from ..rng import make_random
from ..scans import (
    Correction,
    ScannedImage,
    ScanSettings,
    emit_document,
    sample_scan_settings,
    scan_document,
)
from .draft import (
    CONTENT_TOP,
    MARGIN,
    Book,
    Cell,
    Column,
    Flow,
    Line,
    PageDraft,
    TableSpec,
    Text,
    draft_watermark,
    fit,
    text_width,
    typeface,
    wrap,
)
from .families import LAB_QC, SURROGATES, Block, FamilyReport, Section, read_number
from .families import Cell as FamilyCell
from .model import MATRIX_TITLES, TruthRecord
from .pdf import PDF_CREATOR, draw_draft, physical_size

FACES = ("Helvetica", "Helvetica-Bold")
REPORT_TITLES = {
    "dev-sample-pages": "ANALYTICAL REPORT",
    "dev-long-table": "Laboratory Report",
    "dev-summary-columns": "DATA SUMMARY REPORT",
    "test-form-one": "INORGANIC AND ORGANIC ANALYSIS DATA PACKAGE",
    "test-method-sections": "Test Report",
    "test-wide-summary": "Results Summary",
}
BLOCKS_PER_TABLE = 6  # sample columns per sample-columns table
ScanPlan = Literal["none", "all", "cover", "results"]


@dataclass(frozen=True)
class FamilyPage:
    number: int  # 1-based
    kind: str  # cover, narrative, results, qc, superseded
    report: int  # which stapled report (0-based)
    scanned: bool
    sheet: tuple[float, float]


@dataclass(frozen=True)
class FamilyTable:
    page: int
    records: tuple[int, ...]  # indices into RenderedFamilyReport.records
    traps: tuple[str, ...] = ()  # the traps its rows show (records and rows that are not)


@dataclass(frozen=True, eq=False)
class RenderedFamilyReport:
    pdf: bytes
    reports: tuple[FamilyReport, ...]
    records: tuple[TruthRecord, ...]
    record_pages: tuple[int, ...]
    pages: tuple[FamilyPage, ...]
    tables: tuple[FamilyTable, ...]
    traps: dict[str, int]
    drafts: tuple[PageDraft, ...] = field(repr=False)
    scans: dict[int, ScannedImage] = field(repr=False)

    def pages_pdf(self, numbers: Sequence[int]) -> bytes:
        """A PDF of pages `numbers` (1-based) exactly as printed here, scans reused, in order."""
        drafts = [self.drafts[n - 1] for n in numbers]
        scans = {i: self.scans[n - 1] for i, n in enumerate(numbers) if n - 1 in self.scans}
        with typeface(*FACES):
            return emit_document(
                lambda canvas, i: draw_draft(canvas, drafts[i]),
                [physical_size(d) for d in drafts],
                scans,
                title="Laboratory Analytical Report",
                creator=PDF_CREATOR,
            )


class _Ledger:
    """The truth as the pages are drafted: records in print order, traps counted.

    A row returns what its table part remembers: the index of its record, or, for a row that
    is not a record but shows a trap (a QC row, a rejected result), a negative index into
    `shadow`, so that each page knows the traps it shows. Negative indices never leave here.
    """

    def __init__(self) -> None:
        self.records: list[TruthRecord] = []
        self.record_traps: list[tuple[str, ...]] = []
        self.shadow: list[tuple[str, ...]] = []
        self.traps: Counter[str] = Counter()

    def row(self, truth: TruthRecord | None, traps: Sequence[str] = ()) -> tuple[int, ...]:
        self.traps.update(traps)
        if truth is None:
            if not traps:
                return ()
            self.shadow.append(tuple(traps))
            return (-len(self.shadow),)
        self.records.append(truth)
        self.record_traps.append(tuple(traps))
        return (len(self.records) - 1,)

    def traps_of(self, index: int) -> tuple[str, ...]:
        return self.record_traps[index] if index >= 0 else self.shadow[-index - 1]


def render_family_reports(
    reports: Sequence[FamilyReport],
    seed: int,
    *labels: str | int,
    scan: ScanPlan = "none",
    scan_settings: Callable[[random.Random], ScanSettings] | None = None,
) -> RenderedFamilyReport:
    """One PDF of `reports` (several: stapled) with its truth; `scan` says which pages are
    scanned (scan noise, skew, stamps and marks drawn from (seed, *labels)); `scan_settings`,
    if given, draws a scanned page's settings instead of Extract's office scans (the site
    records file lighter, smaller scans)."""
    if not reports:
        raise ValueError("reports: give at least one report")
    ledger = _Ledger()
    book = Book()
    owner: list[int] = []
    with typeface(*FACES):
        for index, report in enumerate(reports):
            start = len(book.pages)
            _draft(book, report, ledger)
            _finish(book.pages[start:], report)
            owner += [index] * (len(book.pages) - start)
            ledger.traps.update(report.report_traps)
        if len(reports) > 1:
            ledger.traps["stapled"] += 1
        drafts = book.pages
        scanned = [
            i
            for i, page in enumerate(drafts)
            if scan == "all"
            or (scan == "cover" and page.kind == "cover")
            or (scan == "results" and page.kind == "results")
        ]
        settings = {}
        corrections: dict[int, list[Correction]] = {}
        for i in scanned:
            page = drafts[i]
            rng = make_random(seed, *labels, "scan", i)
            # Mostly bitonal office scans; grayscale ones at 100 dpi and low JPEG quality, to
            # keep a scanned page near 25 kB.
            if scan_settings is not None:
                s = scan_settings(rng)
            else:
                mode = "gray" if rng.random() < 0.3 else "bitonal"
                s = sample_scan_settings(rng, mode=mode)
                if mode == "gray":
                    s = dataclasses.replace(s, dpi=100, quality=min(s.quality, 30))
            damages = []
            for damage in s.damages:
                if damage.kind == "stamp":  # in the header band, where offices stamp a page
                    region = (page.width * 0.5, 8.0, page.width - 16.0, CONTENT_TOP - 2.0)
                    damage = dataclasses.replace(damage, params={**damage.params, "region": region})
                elif damage.kind == "handwriting":  # in the bottom margin
                    region = (
                        page.width * 0.55,
                        page.height - 58.0,
                        page.width - 16.0,
                        page.height - 34.0,
                    )
                    damage = dataclasses.replace(damage, params={**damage.params, "region": region})
                damages.append(damage)
            settings[i] = dataclasses.replace(s, damages=tuple(damages))
            project = reports[owner[i]].facts.project_number
            fix = _cover_correction(page, project, make_random(seed, *labels, "strike", i))
            if fix is not None:
                corrections[i] = [fix]
        if scanned:
            result = scan_document(
                lambda canvas, i: draw_draft(canvas, drafts[i]),
                [physical_size(d) for d in drafts],
                settings,
                seed,
                *labels,
                corrections=corrections,
                title="Laboratory Analytical Report",
                creator=PDF_CREATOR,
            )
            pdf, scans = result.pdf, dict(result.pages)
        else:
            pdf = emit_document(
                lambda canvas, i: draw_draft(canvas, drafts[i]),
                [physical_size(d) for d in drafts],
                {},
                title="Laboratory Analytical Report",
                creator=PDF_CREATOR,
            )
            scans = {}
    record_pages = [0] * len(ledger.records)
    pages, tables = [], []
    for i, page in enumerate(drafts):
        sheet = scans[i].sheet if i in scans else physical_size(page)
        pages.append(FamilyPage(i + 1, page.kind, owner[i], i in scans, sheet))
        for part in page.parts:
            records = tuple(r for r in part.records if r >= 0)
            shown = tuple(sorted({t for r in part.records for t in ledger.traps_of(r)}))
            if records:
                tables.append(FamilyTable(i + 1, records, shown))
            for r in records:
                record_pages[r] = i + 1
    if 0 in record_pages:
        raise ValueError("a record was drafted on no page")
    for i in scans:
        ledger.traps["scanned-page"] += 1
        for damage in scans[i].settings.damages:
            ledger.traps[f"scan-{damage.kind}"] += 1
        if scans[i].settings.turn:
            ledger.traps["scan-turned"] += 1
        ledger.traps[f"scan-{scans[i].settings.mode}"] += 1
    ledger.traps["scan-strike"] += len(corrections)
    return RenderedFamilyReport(
        pdf,
        tuple(reports),
        tuple(ledger.records),
        tuple(record_pages),
        tuple(pages),
        tuple(tables),
        dict(sorted(ledger.traps.items())),
        tuple(drafts),
        scans,
    )


def _cover_correction(
    page: PageDraft, project_number: str, rng: random.Random
) -> Correction | None:
    """On a scanned cover, now and then the project number struck through by hand and written
    again (a correction of a report fact, never of a result)."""
    if page.kind != "cover" or rng.random() < 0.5:
        return None
    target = next(
        (it for it in page.items if isinstance(it, Text) and it.text == project_number), None
    )
    if target is None:
        return None
    width = text_width(target.text, target.size)
    box = (target.x - 1, target.y - target.size, target.x + width + 1, target.y + 3)
    written = target.text[:-1] + str((int(target.text[-1]) + 1) % 10)
    return Correction(box, target.text, written, sample_damage(rng, "strike"))


# -- drafting -----------------------------------------------------------------------------------


def _draft(book: Book, report: FamilyReport, ledger: _Ledger) -> None:
    _cover(book, report)
    _narrative(Flow(book, "narrative"), report)
    skeleton = report.family.skeleton
    if skeleton == "sample-pages":
        _sample_pages(book, report, ledger)
    elif skeleton == "long-table":
        _long_table(book, report, ledger)
    else:
        _sample_columns(book, report, ledger)
    if not report.conventions.qc_inline:
        _qc_pages(book, report, ledger)
    if report.superseded:
        _superseded_pages(book, report, ledger)


def status_text(report: FamilyReport) -> str:
    facts = report.facts
    if facts.status == "draft":
        return "DRAFT" if report.conventions.draft_watermark else "Preliminary results"
    if facts.status == "revised":
        return f"Revised Report - Revision {facts.revision}"
    return "Final Report"


def _cover(book: Book, report: FamilyReport) -> None:
    facts, c, labels = report.facts, report.conventions, report.labels
    page = book.new_page("cover")
    items = page.items
    items.append(Text(MARGIN, 70, facts.laboratory, 16, bold=True))
    for k, line in enumerate(facts.lab_address):
        items.append(Text(MARGIN, 86 + 11 * k, line, 8.5))
    items.append(Line(MARGIN, 116, page.width - MARGIN, 116, 1.0))
    title = REPORT_TITLES[report.family.name]
    items.append(Text(page.width / 2, 160, title, 14, bold=True, align="center"))
    if not c.status_footer_only:
        items.append(Text(page.width / 2, 180, status_text(report), 10.5, align="center"))
    rows = [
        (labels["client"], facts.client),
        ("Attn", facts.contact),
        (labels["project"], facts.project),
        (labels["project_number"], facts.project_number),
        (labels["work_order"], facts.work_order),
        (labels["received_date"], c.date(facts.received)),
        (labels["report_date"], c.date(facts.reported)),
        (labels["matrix"], MATRIX_TITLES[facts.matrix]),
    ]
    y = 230.0
    for label, value in rows:
        items.append(Text(MARGIN + 10, y, f"{label}:", 9.5, bold=True))
        items.append(Text(MARGIN + 170, y, value, 9.5))
        y += 16
    if facts.status == "draft" and not c.status_footer_only:
        for line in wrap(
            "These results are preliminary: they have not completed the laboratory's review "
            "and may change.",
            9,
            page.width - 2 * MARGIN,
        ):
            y += 13
            items.append(Text(MARGIN + 10, y, line, 9))
    y = max(y + 60, 600.0)
    items.append(Text(MARGIN + 10, y, f"{labels['approver']}:", 9, bold=True))
    items.append(Line(MARGIN + 10, y + 24, MARGIN + 220, y + 24, 0.6))
    items.append(Text(MARGIN + 10, y + 36, facts.approver, 9))


def _narrative(flow: Flow, report: FamilyReport) -> None:
    facts, c = report.facts, report.conventions
    flow.heading("Case Narrative")
    field_blocks = [
        b for b in report.blocks if b.kind in ("field", "field-duplicate", "field-blank")
    ]
    flow.paragraph(
        f"{len(field_blocks)} {MATRIX_TITLES[facts.matrix].lower()} sample(s) were received on "
        f"{c.date(facts.received)} in good condition under chain of custody."
    )
    if facts.matrix == "soil":
        flow.paragraph(
            "Soil results are reported on a dry-weight basis; percent moisture (or solids) is "
            "reported with the results. Leachate results (TCLP/SPLP), where reported, are in mg/L."
        )
    if any(s.fraction == "dissolved" for s in report.sections):
        flow.paragraph("Dissolved metals were filtered in the field (0.45 µm) and preserved.")
    for text in report.narrative:
        flow.paragraph(text)
    flow.space(4)
    t = c.titles
    summary = TableSpec(
        columns=[
            Column(t["sample_id"]),
            Column(t["lab_id"]),
            Column(report.labels["matrix"]),
            Column(report.labels["collected"]),
        ],
        rows=[
            [
                Cell(b.summary_id or b.label),
                Cell(b.lab_id),
                Cell(MATRIX_TITLES[facts.matrix]),
                Cell(f"{c.date(b.collected)} {b.time}" if b.collected else ""),
            ]
            for b in field_blocks
        ],
        title="Sample Summary",
    )
    flow.table(summary, fit(summary, c.font_size, flow.width), c.look)  # type: ignore[arg-type]


def print_order(report: FamilyReport, *, qc: bool) -> list[int]:
    """Block indices in print order: each field sample followed by its re-analyses, then the
    laboratory QC runs when `qc`."""
    blocks = report.blocks
    order: list[int] = []
    for b, block in enumerate(blocks):
        if block.kind in ("field", "field-duplicate", "field-blank"):
            order.append(b)
            order += [
                x
                for x, other in enumerate(blocks)
                if other.kind in ("dl", "re") and other.truth_id == block.truth_id
            ]
    if qc:
        order += [b for b, block in enumerate(blocks) if block.kind in LAB_QC]
    return order


def _heading(section: Section, report: FamilyReport, with_unit: bool) -> str:
    text = f"{section.title} ({section.method})"
    if with_unit:
        text += f" - {section.unit}"
    return text


def _surrogates(report: FamilyReport, b: int, s: int) -> list[tuple[str, str, str]]:
    """(name, %REC, limits) of the surrogates of an organic method run (deterministic)."""
    names = SURROGATES.get(report.sections[s].group, ())
    out = []
    for k, name in enumerate(names[:2]):
        recovery = 78 + (b * 7 + s * 13 + k * 11 + len(report.facts.work_order)) % 41
        out.append((name, str(recovery), "70-130" if k else "75-125"))
    return out


def _add_surrogates(
    rows: list[list[Cell]],
    records: list[tuple[int, ...]],
    ledger: _Ledger,
    report: FamilyReport,
    b: int,
    s: int,
    roles: Sequence[str],
    analyte: str,
    **printed: str,
) -> None:
    """A results row per surrogate of block `b`'s section `s`, in `roles` order: its name as
    `analyte` words it, its %REC and limits, and the `printed` roles (QC rows: no record, the
    qc-surrogate trap)."""
    for name, recovery, limits in _surrogates(report, b, s):
        values = {
            **printed,
            "analyte": analyte.format(name),
            "result": recovery,
            "reporting_limit": limits,
            "unit": "%REC",
        }
        rows.append([Cell(values.get(r, "")) for r in roles])
        records.append(ledger.row(None, ("qc-surrogate",)))


def _columns(titles: Mapping[str, str], roles: Sequence[str]) -> list[Column]:
    """The columns of a results table, in `roles` order, titled in the family's words."""
    align = {"result": "right", "reporting_limit": "right", "mdl": "right", "dilution": "center"}
    return [Column(titles[r], align.get(r, "left")) for r in roles]  # type: ignore[arg-type]


def _printed(name: str, cell: FamilyCell, section: Section) -> dict[str, str]:
    """What a results row prints of a cell, by column role (the analyte with its fraction)."""
    return {
        "analyte": f"{name} ({section.fraction})" if section.fraction else name,
        "result": cell.result,
        "qualifier": cell.qualifier,
        "mdl": cell.mdl,
        "reporting_limit": cell.rl,
        "unit": section.unit,
        "dilution": cell.dilution,
    }


def _sample_pages(book: Book, report: FamilyReport, ledger: _Ledger) -> None:
    c, family = report.conventions, report.family
    t = c.titles
    roles = ["analyte", "cas", "result", "qualifier"]
    roles += ["mdl", "reporting_limit"] if family.mdl_column else ["reporting_limit"]
    roles += ["unit", "dilution"]
    columns = _columns(t, roles)
    flow = Flow(book, "results")
    per_page = 1 if family.name == "test-form-one" else None
    for index, b in enumerate(print_order(report, qc=c.qc_inline)):
        block = report.blocks[b]
        rows: list[list[Cell]] = []
        records: list[tuple[int, ...]] = []
        for s in block.sections:
            section = report.sections[s]
            rows.append([Cell(_heading(section, report, False))] + [Cell("")] * (len(roles) - 1))
            records.append(())
            for a, (name, cas) in enumerate(section.analytes):
                cell = report.cells[(b, s, a)]
                values = {**_printed(name, cell, section), "cas": cas or "--"}
                rows.append([Cell(values[r]) for r in roles])
                records.append(ledger.row(cell.truth, cell.traps))
            _add_surrogates(rows, records, ledger, report, b, s, roles, "Surrogate: {}")
        caption = [
            (t["sample_id"], block.label),
            (t["lab_id"], block.lab_id),
            (report.labels["collected"], c.date(block.collected) if block.collected else "--"),
            (report.labels["matrix"], MATRIX_TITLES[report.facts.matrix]),
        ]
        spec = TableSpec(columns, rows, caption, "Client Sample Results", row_records=records)
        flow.table(
            spec,
            fit(spec, c.font_size, flow.width),
            c.look,
            table_index=index,
            per_page=per_page,  # type: ignore[arg-type]
        )


def _long_table(book: Book, report: FamilyReport, ledger: _Ledger) -> None:
    c, family = report.conventions, report.family
    t = c.titles
    per_section = family.units_in_header
    roles = ["sample_id", "analyte", "result", "qualifier"]
    roles += ["mdl", "reporting_limit"] if family.mdl_column else ["reporting_limit"]
    roles += ([] if per_section else ["unit"]) + ["dilution"]
    columns = _columns(t, roles)
    order = print_order(report, qc=c.qc_inline)
    flow = Flow(book, "results")
    specs: list[TableSpec] = []
    rows: list[list[Cell]] = []
    records: list[tuple[int, ...]] = []
    for s, section in enumerate(report.sections):
        if per_section:
            rows, records = [], []
        else:
            rows.append([Cell(_heading(section, report, False))] + [Cell("")] * (len(roles) - 1))
            records.append(())
        for b in order:
            block = report.blocks[b]
            if s not in block.sections:
                continue
            for a, (name, _cas) in enumerate(section.analytes):
                cell = report.cells[(b, s, a)]
                values = {**_printed(name, cell, section), "sample_id": block.label}
                rows.append([Cell(values[r]) for r in roles])
                records.append(ledger.row(cell.truth, cell.traps))
            if c.qc_inline:
                _add_surrogates(
                    rows, records, ledger, report, b, s, roles, "{} (surr)", sample_id=block.label
                )
        if per_section:
            specs.append(
                TableSpec(columns, rows, [], _heading(section, report, True), row_records=records)
            )
    if not per_section:
        specs.append(TableSpec(columns, rows, [], "Analytical Results", row_records=records))
    for index, spec in enumerate(specs):
        flow.table(spec, fit(spec, c.font_size, flow.width), c.look, table_index=index)  # type: ignore[arg-type]


def _sample_columns(book: Book, report: FamilyReport, ledger: _Ledger) -> None:
    c, family = report.conventions, report.family
    t = c.titles
    order = print_order(report, qc=c.qc_inline)
    flow = Flow(book, "results", landscape=True)
    index = 0
    for s, section in enumerate(report.sections):
        blocks = [b for b in order if s in report.blocks[b].sections]
        for start in range(0, len(blocks), BLOCKS_PER_TABLE):
            chunk = blocks[start : start + BLOCKS_PER_TABLE]
            columns = [Column(t["analyte"]), Column(t["cas"])]
            if not family.units_in_header:
                columns.append(Column(t["unit"]))
            if c.screening:
                columns.append(Column(t["screening"], "right"))
            for b in chunk:
                block = report.blocks[b]
                date = c.date(block.collected) if block.collected else ""
                columns.append(Column(f"{block.label}\n{block.lab_id}\n{date}", "right"))
            rows: list[list[Cell]] = []
            records: list[tuple[int, ...]] = []
            shaded: set[tuple[int, int]] = set()
            for a, (name, cas) in enumerate(section.analytes):
                level = report.screening.get((s, a), "")
                row = [
                    Cell(f"{name} ({section.fraction})" if section.fraction else name),
                    Cell(cas or "--"),
                ]
                if not family.units_in_header:
                    row.append(Cell(section.unit))
                if c.screening:
                    row.append(Cell(level))
                indices: tuple[int, ...] = ()
                for b in chunk:
                    cell = report.cells[(b, s, a)]
                    text = f"{cell.result} {cell.qualifier}" if cell.qualifier else cell.result
                    over = (
                        level
                        and cell.truth is not None
                        and cell.truth.result is not None
                        and cell.truth.result > read_number(level, c.decimal_comma)
                    )
                    if over:
                        shaded.add((len(rows), len(row)))
                    row.append(Cell(text))
                    indices += ledger.row(cell.truth, cell.traps)
                rows.append(row)
                records.append(indices)
            notes = ["Shaded results exceed the screening level."] if c.screening else []
            title = _heading(section, report, family.units_in_header)
            spec = TableSpec(
                columns, rows, [], title, notes, row_records=records, shaded=frozenset(shaded)
            )
            flow.table(spec, fit(spec, c.font_size, flow.width), c.look, table_index=index)  # type: ignore[arg-type]
            index += 1


def _qc_pages(book: Book, report: FamilyReport, ledger: _Ledger) -> None:
    c = report.conventions
    flow = Flow(book, "qc")
    flow.heading("Quality Control Results")
    for b, block in enumerate(report.blocks):
        if block.kind not in LAB_QC:
            continue
        rows = []
        for s in block.sections:
            section = report.sections[s]
            for a, (name, _cas) in enumerate(section.analytes):
                cell = report.cells[(b, s, a)]
                ledger.row(None, cell.traps)
                rows.append(_plain_row(name, cell, section))
        spec = _plain_table(c.titles, rows, block)
        flow.table(spec, fit(spec, c.font_size, flow.width), c.look)  # type: ignore[arg-type]


def _superseded_pages(book: Book, report: FamilyReport, ledger: _Ledger) -> None:
    """The original results of the revised samples, as first issued: not records."""
    c = report.conventions
    flow = Flow(book, "superseded")
    flow.heading("ORIGINAL REPORT PAGES - SUPERSEDED, FOR REFERENCE ONLY")
    affected = sorted({(b, s) for b, s, _ in report.superseded})
    for b, s in affected:
        block, section = report.blocks[b], report.sections[s]
        rows = []
        for a, (name, _cas) in enumerate(section.analytes):
            cell = report.superseded.get((b, s, a), report.cells[(b, s, a)])
            ledger.row(
                None, report.superseded[(b, s, a)].traps if (b, s, a) in report.superseded else ()
            )
            rows.append(_plain_row(name, cell, section))
        spec = _plain_table(c.titles, rows, block, _heading(section, report, False))
        flow.table(spec, fit(spec, c.font_size, flow.width), c.look)  # type: ignore[arg-type]


def _plain_row(name: str, cell: FamilyCell, section: Section) -> list[Cell]:
    return [
        Cell(name),
        Cell(cell.result),
        Cell(cell.qualifier),
        Cell(cell.rl),
        Cell(section.unit),
    ]


def _plain_table(
    t: Mapping[str, str], rows: list[list[Cell]], block: Block, title: str = ""
) -> TableSpec:
    """A block's rows in the plain layout of QC and superseded pages (not results records):
    analyte, result, qualifier, reporting limit and unit, under the block's sample and lab IDs."""
    return TableSpec(
        [
            Column(t["analyte"]),
            Column(t["result"], "right"),
            Column(t["qualifier"]),
            Column(t["reporting_limit"], "right"),
            Column(t["unit"]),
        ],
        rows,
        [(t["sample_id"], block.label), (t["lab_id"], block.lab_id)],
        title,
    )


def _finish(pages: Sequence[PageDraft], report: FamilyReport) -> None:
    facts, c, family = report.facts, report.conventions, report.family
    total = len(pages)
    for number, page in enumerate(pages, start=1):
        head: list = []
        if facts.status == "draft" and c.draft_watermark:
            head.append(draft_watermark(page))
        if page.kind != "cover" and family.header == "rule":
            head.append(Text(MARGIN, CONTENT_TOP - 38, facts.laboratory, 8.5, bold=True))
            head.append(
                Text(
                    page.width - MARGIN,
                    CONTENT_TOP - 38,
                    f"{report.labels['work_order']}: {facts.work_order}",
                    8.5,
                    align="right",
                )
            )
            head.append(Line(MARGIN, CONTENT_TOP - 30, page.width - MARGIN, CONTENT_TOP - 30, 0.6))
        elif page.kind != "cover" and family.header == "box":
            top, bottom = CONTENT_TOP - 60, CONTENT_TOP - 22
            for y in (top, bottom):
                head.append(Line(MARGIN, y, page.width - MARGIN, y, 0.6))
            for x in (MARGIN, page.width - MARGIN):
                head.append(Line(x, top, x, bottom, 0.6))
            head.append(Text(MARGIN + 6, top + 14, f"{report.labels['client']}: {facts.client}", 8))
            head.append(
                Text(MARGIN + 6, top + 28, f"{report.labels['project']}: {facts.project}", 8)
            )
            head.append(
                Text(
                    page.width - MARGIN - 6,
                    top + 14,
                    f"{report.labels['work_order']}: {facts.work_order}",
                    8,
                    align="right",
                )
            )
        page.items[:0] = head
        foot = f"Page {number} of {total}"
        y = page.height - 30
        if family.footer == "lab-pages":
            page.items.append(Text(MARGIN, y, f"{facts.laboratory} - {facts.work_order}", 7.5))
            page.items.append(Text(page.width - MARGIN, y, foot, 7.5, align="right"))
        elif family.footer == "status":
            page.items.append(
                Text(page.width / 2, y, f"{status_text(report)} - {foot}", 7.5, align="center")
            )
        else:
            page.items.append(Text(page.width / 2, y, foot, 8, align="center"))
