"""The pages of a lab report: cover, case narrative with the sample summary, results, quality control.

`draft_report(report)` lays out every page of a `LabReport` as `PageDraft`s. The results pages
follow the report's layout (see `model.LAYOUTS`); everything else is the same for every layout,
so the metadata a reader needs (laboratory, work order, client, project, dates, status) is always
where a real report puts it, with its distractors: received date, analysis dates, the date of the
report a revision replaces, the client's contact, the project number, QC results that are not
sample results.
"""

from __future__ import annotations

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
    wrap,
)
from .model import MATRIX_TITLES, QUALIFIER_MEANINGS, LabReport, printed_result

# Results-table columns: three orders (PrintStyle.columns picks one), each with its titles.
ORDERS: tuple[tuple[str, ...], ...] = (
    ("analyte", "cas", "result", "qual", "rl", "unit", "df", "method"),
    ("cas", "analyte", "result", "unit", "rl", "qual", "df", "method"),
    ("analyte", "cas", "method", "df", "rl", "result", "qual", "unit"),
)
TITLES: dict[str, tuple[str, str, str]] = {
    "analyte": ("Analyte", "Parameter", "Compound"),
    "cas": ("CAS No.", "CAS Number", "CASRN"),
    "result": ("Result", "Result", "Conc."),
    "qual": ("Qual", "Q", "Flag"),
    "rl": ("RL", "Reporting\nLimit", "PQL"),
    "unit": ("Units", "Units", "Unit"),
    "df": ("DF", "Dilution", "Dil.\nFactor"),
    "method": ("Method", "Method", "Analytical\nMethod"),
    "mdl": ("MDL", "MDL", "MDL"),
    "batch": ("Batch", "Prep Batch", "QC Batch"),
    "analysed": ("Analyzed", "Date\nAnalyzed", "Analysis\nDate"),
}
ALIGN = {
    "analyte": "left",
    "cas": "left",
    "result": "right",
    "qual": "center",
    "rl": "right",
    "unit": "left",
    "df": "center",
    "method": "left",
    "mdl": "right",
    "batch": "left",
    "analysed": "left",
}
MARKERS = "abcdefgh"


def draft_report(report: LabReport) -> list[PageDraft]:
    book = Book()
    _cover(book, report)
    narrative = Flow(book, "narrative")
    _narrative(narrative, report)
    _results(book, report)
    _quality_control(book, report)
    _finish(book, report)
    return book.pages


# -- cover --------------------------------------------------------------------------------------


def status_line(report: LabReport) -> str:
    info = report.info
    if info.status == "draft":
        return "DRAFT – Preliminary Results, Subject to Change"
    if info.status == "revised":
        return f"Revised Report – Revision {info.revision}"
    return "Final Report"


def _cover(book: Book, report: LabReport) -> None:
    info, style = report.info, report.style
    page = book.new_page("cover")
    width = page.width
    items = page.items
    items.append(Text(MARGIN, 72, info.laboratory, 17, bold=True))
    for k, line in enumerate((*info.lab_address, f"Tel. {info.lab_phone}")):
        items.append(Text(MARGIN, 90 + 12 * k, line, 9))
    items.append(Line(MARGIN, 128, width - MARGIN, 128, 1.2))
    items.append(
        Text(width / 2, 170, "LABORATORY ANALYTICAL REPORT", 15, bold=True, align="center")
    )
    items.append(Text(width / 2, 192, status_line(report), 11, align="center"))

    matrix = MATRIX_TITLES[report.samples[0].matrix]
    rows = [
        ("Client", info.client),
        ("Attention", info.client_contact),
        ("", info.client_address[0]),
        ("", info.client_address[1]),
        ("Project", info.project),
        ("Project No.", info.project_number),
        (style.work_order_label, info.work_order),
        ("Date Received", style.date(info.received_date)),
        (style.report_date_label, style.date(info.report_date)),
        ("Samples", f"{len(report.samples)} {matrix.lower()} sample(s)"),
    ]
    y = 240.0
    for label, value in rows:
        if label:
            items.append(Text(MARGIN + 10, y, f"{label}:", 10, bold=True))
        items.append(Text(MARGIN + 150, y, value, 10))
        y += 17
    y += 14
    paragraphs = []
    if info.status == "revised":
        assert info.superseded_date is not None and info.revision_reason is not None
        paragraphs.append(
            f"This report replaces the report issued {style.date(info.superseded_date)}. "
            f"Reason for revision: {info.revision_reason}"
        )
    if info.status == "draft":
        paragraphs.append(
            "These results have not completed the laboratory's final review and may change. "
            "Do not use them for regulatory decisions."
        )
    paragraphs.append(
        "The results in this report relate only to the samples as received. This report shall "
        "not be reproduced except in full without the written approval of the laboratory."
    )
    for text in paragraphs:
        for line in wrap(text, 9, width - 2 * MARGIN - 20):
            items.append(Text(MARGIN + 10, y, line, 9))
            y += 12.5
        y += 8
    y = max(y + 30, 620.0)
    items.append(Text(MARGIN + 10, y - 24, "Approved by:", 9, bold=True))
    items.append(Line(MARGIN + 10, y, MARGIN + 230, y, 0.6))
    items.append(Text(MARGIN + 10, y + 13, info.approver, 9))
    items.append(Text(MARGIN + 10, y + 25, info.approver_title, 9))


# -- narrative and sample summary ---------------------------------------------------------------


def _narrative(flow: Flow, report: LabReport) -> None:
    info, style = report.info, report.style
    samples = report.samples
    matrix = MATRIX_TITLES[samples[0].matrix].lower()
    flow.heading("Case Narrative")
    flow.paragraph(
        f"{len(samples)} {matrix} sample(s) were received on {style.date(info.received_date)} "
        f"under chain of custody, in good condition, at {info.cooler_temperature} °C."
    )
    methods = sorted({m.method for m in report.measurements})
    flow.paragraph(
        f"The samples were analysed by {', '.join(methods)}. All holding times were met and "
        "all quality control results were within the laboratory's acceptance limits unless noted."
    )
    for index, sample in enumerate(samples):
        groups = sorted(
            {
                m.group
                for m in report.measurements
                if m.sample == index and m.dilution > 1 and m.qualifier != "D"
            }
        )
        if groups:
            flow.paragraph(
                f"Sample {sample.sample_id} was analysed at a dilution for {', '.join(groups).upper()} "
                "analytes because of matrix interference; its reporting limits are raised accordingly."
            )
        switched = [
            m
            for m in report.measurements
            if m.sample == index and m.group == "voc" and m.unit == "mg/L"
        ]
        if switched:
            flow.paragraph(
                f"Volatile organic results for sample {sample.sample_id} are reported in "
                f"{style.unit('mg/L')} rather than {style.unit('µg/L')}."
            )
    for m in report.measurements:
        if m.qualifier == "D":
            flow.paragraph(
                f"{m.analyte} in sample {samples[m.sample].sample_id} exceeded the calibration range "
                "(E); the sample was re-analysed at a dilution and both results are reported (D)."
            )
    if info.status == "revised":
        flow.paragraph(f"Revision {info.revision}: {info.revision_reason}")

    flow.space(6)
    summary = TableSpec(
        columns=[
            Column("Client Sample ID"),
            Column("Lab Sample ID"),
            Column("Matrix"),
            Column("Date Collected"),
            Column("Time"),
            Column("Date Received"),
        ],
        rows=[
            [
                Cell(s.sample_id),
                Cell(s.lab_id),
                Cell(MATRIX_TITLES[s.matrix]),
                Cell(style.date(s.collected)),
                Cell(s.collected_time),
                Cell(style.date(info.received_date)),
            ]
            for s in samples
        ],
        title="Sample Summary",
    )
    flow.table(summary, fit(summary, style.font_size, flow.width), style.table_look)


# -- results ------------------------------------------------------------------------------------


def _results(book: Book, report: LabReport) -> None:
    style, layout = report.style, report.layout
    if layout == "samples-as-columns":
        specs = [transposed_spec(report)]
    else:
        wide = layout in ("landscape", "rotated")
        markers = layout == "qualifier-footnotes"
        specs = [
            sample_spec(report, index, wide=wide, markers=markers)
            for index in range(len(report.samples))
        ]
    flow = Flow(
        book,
        "results",
        landscape=layout == "landscape",
        rotated=layout == "rotated",
        scanned=layout == "scanned",
        continue_page=layout == "continued",
    )
    per_page = None if layout == "continued" else 2 if layout == "two-per-page" else 1
    repeat = style.repeat_header if layout == "continued" else True
    for index, spec in enumerate(specs):
        metrics = fit(spec, style.font_size, flow.width)
        flow.table(
            spec,
            metrics,
            style.table_look,
            table_index=index,
            repeat_header=repeat,
            per_page=per_page,
            gap=22.0,
        )


def sample_spec(report: LabReport, index: int, *, wide: bool, markers: bool) -> TableSpec:
    """One sample's results, analytes as rows."""
    style, info = report.style, report.info
    sample = report.samples[index]
    order = list(ORDERS[style.columns])
    if wide:
        order.insert(order.index("rl") + 1, "mdl")
        order += ["batch", "analysed"]
    if markers:
        order.remove("qual")
    batches = {qc.method: qc.batch for qc in report.qc}
    letters: dict[str, str] = {}
    rows, records = [], []
    for i, m in enumerate(report.measurements):
        if m.sample != index:
            continue
        result, qualifier = printed_result(style, m)
        marker = ""
        if markers and qualifier:
            marker = letters.setdefault(qualifier, MARKERS[len(letters)])
        cells = {
            "analyte": Cell(m.analyte),
            "cas": Cell(m.cas or "--"),
            "result": Cell(result, marker),
            "qual": Cell(qualifier),
            "rl": Cell(style.number(m.reporting_limit)),
            "unit": Cell(style.unit(m.unit)),
            "df": Cell(str(m.dilution)),
            "method": Cell(m.method),
            "mdl": Cell(style.number(m.mdl)),
            "batch": Cell(batches.get(m.method, "")),
            "analysed": Cell(style.date(m.analysed)),
        }
        rows.append([cells[key] for key in order])
        records.append((i,))
    footnotes = [
        f"{letter}   {code} – {QUALIFIER_MEANINGS[code]}" for code, letter in letters.items()
    ]
    caption = [
        ("Client Sample ID", sample.sample_id),
        ("Lab Sample ID", sample.lab_id),
        ("Matrix", MATRIX_TITLES[sample.matrix]),
        ("Date Collected", f"{style.date(sample.collected)} {sample.collected_time}"),
        ("Date Received", style.date(info.received_date)),
    ]
    return TableSpec(
        columns=[Column(TITLES[key][style.columns], ALIGN[key]) for key in order],  # type: ignore[arg-type]
        rows=rows,
        caption=caption,
        title="Analytical Results",
        footnotes=footnotes,
        row_records=records,
    )


def transposed_spec(report: LabReport) -> TableSpec:
    """Every sample's results in one table: analytes as rows, one column per sample."""
    style, info = report.style, report.info
    per_sample: list[list[int]] = [[] for _ in report.samples]
    for i, m in enumerate(report.measurements):
        per_sample[m.sample].append(i)
    analytes = [report.measurements[i] for i in per_sample[0]]
    for indices in per_sample:
        shared = [
            (report.measurements[i].analyte, report.measurements[i].reporting_limit)
            for i in indices
        ]
        if shared != [(m.analyte, m.reporting_limit) for m in analytes]:
            raise ValueError(
                "samples as columns need the same analytes and reporting limits in every sample"
            )
    columns = [Column("Analyte"), Column("CAS No."), Column("Units"), Column("RL", "right")]
    columns += [
        Column(f"{s.sample_id}\n{style.date(s.collected)}", "right") for s in report.samples
    ]
    rows, records = [], []
    for row, m in enumerate(analytes):
        cells = [
            Cell(m.analyte),
            Cell(m.cas or "--"),
            Cell(style.unit(m.unit)),
            Cell(style.number(m.reporting_limit)),
        ]
        indices = tuple(per_sample[s][row] for s in range(len(report.samples)))
        for i in indices:
            result, qualifier = printed_result(style, report.measurements[i])
            cells.append(Cell(f"{result} {qualifier}" if qualifier else result))
        rows.append(cells)
        records.append(indices)
    return TableSpec(
        columns=columns,
        rows=rows,
        caption=[
            ("Matrix", MATRIX_TITLES[report.samples[0].matrix]),
            ("Date Received", style.date(info.received_date)),
        ],
        title="Analytical Results Summary",
        row_records=records,
    )


# -- quality control and definitions ------------------------------------------------------------


def _quality_control(book: Book, report: LabReport) -> None:
    style = report.style
    flow = Flow(book, "qc")
    flow.heading("Quality Control Summary")
    blanks = [q for q in report.qc if q.kind == "blank"]
    lcs = [q for q in report.qc if q.kind == "lcs"]
    blank_spec = TableSpec(
        columns=[
            Column("Batch"),
            Column("Analyte"),
            Column("Result", "right"),
            Column("RL", "right"),
            Column("Units"),
        ],
        rows=[
            [Cell(q.batch), Cell(q.analyte), Cell(q.result), Cell(q.reporting_limit), Cell(q.unit)]
            for q in blanks
        ],
        title="Method Blank",
    )
    flow.table(blank_spec, fit(blank_spec, style.font_size, flow.width), style.table_look)
    lcs_spec = TableSpec(
        columns=[
            Column("Batch"),
            Column("Analyte"),
            Column("Spike", "right"),
            Column("Result", "right"),
            Column("%Rec", "right"),
            Column("Limits", "center"),
            Column("Units"),
        ],
        rows=[
            [
                Cell(q.batch),
                Cell(q.analyte),
                Cell(q.spike),
                Cell(q.result),
                Cell(q.recovery),
                Cell(q.limits),
                Cell(q.unit),
            ]
            for q in lcs
        ],
        title="Laboratory Control Sample",
    )
    flow.table(lcs_spec, fit(lcs_spec, style.font_size, flow.width), style.table_look)
    flow.space(18)
    flow.heading("Qualifiers and Abbreviations", 10.0)
    used = {m.qualifier for m in report.measurements if m.qualifier}
    for code, meaning in QUALIFIER_MEANINGS.items():
        if code in used or code in ("U", "J"):
            flow.paragraph(f"{code}   {meaning}", 8.5)
    flow.paragraph("ND   Not detected at or above the reporting limit.", 8.5)
    flow.paragraph("RL   Reporting limit, adjusted for the dilution factor (DF).", 8.5)
    flow.paragraph("MDL   Method detection limit.", 8.5)


# -- headers, footers, watermark ----------------------------------------------------------------


def _finish(book: Book, report: LabReport) -> None:
    info, style = report.info, report.style
    total = len(book.pages)
    for number, page in enumerate(book.pages, start=1):
        head: list = []
        if info.status == "draft":
            head.append(draft_watermark(page))
        if page.kind != "cover":
            head.append(Text(MARGIN, CONTENT_TOP - 38, info.laboratory, 8.5, bold=True))
            head.append(
                Text(
                    page.width - MARGIN,
                    CONTENT_TOP - 38,
                    f"{style.work_order_label}: {info.work_order}",
                    8.5,
                    align="right",
                )
            )
            head.append(Line(MARGIN, CONTENT_TOP - 30, page.width - MARGIN, CONTENT_TOP - 30, 0.6))
        page.items[:0] = head
        page.items.append(
            Text(page.width / 2, page.height - 30, f"Page {number} of {total}", 8, align="center")
        )
        if info.revision:
            page.items.append(
                Text(
                    page.width - MARGIN,
                    page.height - 30,
                    f"Revision {info.revision}",
                    8,
                    align="right",
                )
            )
