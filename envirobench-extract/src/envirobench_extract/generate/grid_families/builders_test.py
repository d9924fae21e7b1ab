"""The builders of the four test grid families (the package docstring describes each), drawn like
the dev families' (`builders_dev`) from what `kit` shares."""

from __future__ import annotations

from envirobench_synth import catalogue, vocabulary

from ..grid_tables import GROUP_TITLES, _Grid
from . import kit


def _result_cells(
    ctx: kit.Context,
    analyte: catalogue.Analyte,
    result: catalogue.ResultRow,
    dilutions: tuple[str, ...],
) -> dict[str, str]:
    """One result's cells by column kind, as an EDD or a QC-grouped page prints them (drawing the
    analyte's name, then its MDL, then its dilution from `dilutions`)."""
    rng = ctx.rng
    return {
        "analyte": ctx.name(analyte, result),
        "cas": result.cas or ctx.not_result,
        "result": ctx.notation.result(result),
        "qualifier": result.qualifier,
        "unit": ctx.notation.unit(result.unit),
        "mdl": kit.mdl(rng, result.reporting_limit),
        "reporting_limit": result.reporting_limit,
        "dilution": rng.choice(dilutions),
    }


def _edd_long_form(ctx: kit.Context, flat: bool) -> tuple[_Grid, list[str]]:
    rng = ctx.rng
    matrix = rng.choice(("soil", "groundwater", "groundwater", "soil-gas"))
    samples = kit.samples(rng, matrix, rng.randint(1, 4))
    per_sample = kit.skewed(rng, 2, max(2, 36 // len(samples)))
    analytes = catalogue.sample_analytes(rng, matrix, min(per_sample, 16))
    sample_rows = not flat and rng.random() < 0.4  # the sample named in a row across the table
    kinds = [] if sample_rows else ["sample_id"]
    if rng.random() < 0.5:
        kinds.append("lab_id")
    kinds.append("analyte")
    if rng.random() < 0.4:
        kinds.append("cas")
    kinds += ["result", "qualifier", "unit"]
    for optional, chance in (
        ("mdl", 0.6),
        ("reporting_limit", 0.9),
        ("dilution", 0.5),
        ("analysed", 0.4),
        ("method", 0.3),
    ):  # noqa: E501
        if rng.random() < chance:
            kinds.append(optional)
    grid = _Grid(len(kinds), 1)
    for c, kind in enumerate(kinds):
        grid.add(0, c, ctx.title(kind), "header")
    fmt = kit.date_format(rng)
    row = 1
    label = ctx.title("sample_id")
    for sample in samples:
        if row >= 39:
            break
        lab_id = kit.lab_id(rng)
        if sample_rows:
            grid.add_section(row, f"{label}: {sample}")
            row += 1
        analysed = kit.date(rng, fmt, with_time=rng.random() < 0.5)
        for analyte in analytes:
            if row >= 40:
                break
            result = catalogue.sample_result_row(rng, analyte, matrix, ctx.notation.report)
            cells = _result_cells(ctx, analyte, result, ("1", "1", "1", "2", "5", "10", "20"))
            cells.update(sample_id=sample, lab_id=lab_id, analysed=analysed, method=result.method)
            for c, kind in enumerate(kinds):
                grid.add(row, c, cells[kind], kind)
            row += 1
    return grid, kinds


def _wide_matrix(ctx: kit.Context, flat: bool) -> tuple[_Grid, list[str]]:
    rng = ctx.rng
    matrix = rng.choice(("soil", "groundwater", "soil-gas"))
    limit = 16 if matrix == "soil-gas" else 28
    analytes = catalogue.sample_analytes(rng, matrix, kit.skewed(rng, 2, limit))
    samples = kit.samples(rng, matrix, kit.skewed(rng, 2, 5))
    sub = rng.choice(
        (
            ("result", "qualifier"),
            ("result", "qualifier", "reporting_limit"),
            ("result", "reporting_limit"),
            ("result", "qualifier", "mdl", "reporting_limit"),
        )
    )
    if len(samples) > 3 and len(sub) > 3:
        sub = sub[:3]
    lead = ["analyte"]
    if rng.random() < 0.5:
        lead.append("cas")
    if rng.random() < 0.7:
        lead.append("unit")
    if rng.random() < 0.4:
        lead.append("screening")
    second = rng.choice((None, "lab_id", "date"))
    header_rows = 1 if flat else 2 + int(second is not None)
    kinds = lead + [k for _ in samples for k in sub]
    grid = _Grid(len(kinds), header_rows)
    kit.lead_header(grid, lead, ctx, header_rows, flat)
    fmt = kit.date_format(rng)
    sub_titles = {k: ctx.title(k) for k in sub}
    for s, sample in enumerate(samples):
        first = len(lead) + s * len(sub)
        if flat:  # the sample only in its result column's title
            for k, kind in enumerate(sub):
                grid.add(
                    0,
                    first + k,
                    f"{sample} {sub_titles[kind]}" if k == 0 else sub_titles[kind],
                    "header",
                )
            continue
        grid.add(0, first, sample, "header", column_span=len(sub))
        if second is not None:
            text = kit.lab_id(rng) if second == "lab_id" else kit.date(rng, fmt)
            grid.add(1, first, text, "header", column_span=len(sub))
        for k, kind in enumerate(sub):
            grid.add(header_rows - 1, first + k, sub_titles[kind], "header")
    results = [
        [catalogue.sample_result_row(rng, a, matrix, ctx.notation.report) for a in analytes]
        for _ in samples
    ]
    sections = not flat and rng.random() < 0.6
    section_style = rng.randrange(4)
    row = header_rows
    group = None
    for a, analyte in enumerate(analytes):
        if row >= 40:
            break
        first = results[0][a]
        if sections and analyte.group != group:
            text = kit.section(analyte.group, first.method, section_style)
            kit.label_row(grid, row, text, "section", len(kinds), flat=False, align="left")
            row += 1
        group = analyte.group
        cells = {
            "analyte": ctx.name(analyte, first),
            "cas": first.cas or ctx.not_result,
            "unit": ctx.notation.unit(first.unit),
            "screening": kit.screening(rng, first.reporting_limit),
        }
        for c, kind in enumerate(lead):
            grid.add(row, c, cells[kind], kind)
        for s in range(len(samples)):
            result = results[s][a]
            values = {
                "result": kit.result_text(ctx, result, "qualifier" not in sub),
                "qualifier": result.qualifier,
                "reporting_limit": result.reporting_limit,
                "mdl": kit.mdl(rng, result.reporting_limit),
            }
            # An exceedance of the screening level is printed bold, as consultants print it.
            exceeds = "screening" in lead and kit.exceeds(result, cells["screening"])
            for k, kind in enumerate(sub):
                bold = True if exceeds and kind == "result" else None
                grid.add(row, len(lead) + s * len(sub) + k, values[kind], kind, bold=bold)
        row += 1
    kit.footnotes(rng, grid, row, len(kinds), flat)
    return grid, kinds


def _qc_grouped_header(ctx: kit.Context, flat: bool) -> tuple[_Grid, list[str]]:
    rng = ctx.rng
    matrix = rng.choice(("soil", "groundwater"))
    results = ctx.results(matrix, kit.skewed(rng, 2, 26))
    sample = catalogue.sample_id(rng, matrix)
    lead = ["analyte"] + (["cas"] if rng.random() < 0.5 else [])
    group_a = ["result", "qualifier"] + (["unit"] if rng.random() < 0.6 else [])
    group_b = ["mdl", "reporting_limit"]
    tail = [k for k, p in (("dilution", 0.6), ("analysed", 0.5)) if rng.random() < p]
    kinds = lead + group_a + group_b + tail
    header_rows = 1 if flat else 2
    grid = _Grid(len(kinds), header_rows)
    if flat:
        for c, kind in enumerate(kinds):
            grid.add(0, c, ctx.title(kind), "header")
    else:
        for c, kind in enumerate(lead):
            grid.add(0, c, ctx.title(kind), "header", row_span=2)
        start = len(lead)
        grid.add(0, start, sample, "header", column_span=len(group_a))
        grid.add(0, start + len(group_a), ctx.title("limits"), "header", column_span=len(group_b))
        for k, kind in enumerate(group_a + group_b):
            grid.add(1, start + k, ctx.title(kind), "header")
        for k, kind in enumerate(tail):
            grid.add(
                0, start + len(group_a) + len(group_b) + k, ctx.title(kind), "header", row_span=2
            )
    unit_in_header = "unit" not in kinds
    fmt = kit.date_format(rng)
    analysed = kit.date(rng, fmt, with_time=True)
    section_style = rng.randrange(4)
    row = header_rows
    group = None
    limits_at = kinds.index("mdl")

    def qc_rows(of_group: str | None) -> None:
        nonlocal row
        if of_group not in kit.SURROGATES or row >= 37:
            return
        for name in rng.sample(kit.SURROGATES[of_group], rng.randint(1, 2)):
            low = rng.choice((50, 60, 70))
            recovery = rng.randint(low - 15, 140)
            flagged = recovery < low or recovery > 130
            for c, kind in enumerate(kinds):
                if c == limits_at and not flat:
                    grid.add(row, c, f"{low}-130", "qc", column_span=2)
                elif kind == "reporting_limit" and not flat:
                    continue
                elif kind == "mdl" and flat:
                    grid.add(row, c, f"{low}-130", "qc")
                else:
                    text = {
                        "analyte": name,
                        "result": f"{recovery}" + (" *" if flagged else ""),
                        "unit": "%REC",
                    }.get(kind, "")
                    grid.add(row, c, text, "qc" if text else "blank")
            row += 1

    for analyte, result in results:
        if row >= 40:
            break
        if analyte.group != group:
            qc_rows(group)
            group = analyte.group
            text = kit.section(analyte.group, result.method, section_style)
            kit.label_row(grid, row, text, "section", len(kinds), flat, align="left")
            row += 1
        cells = _result_cells(ctx, analyte, result, ("1", "1", "2", "5"))
        if unit_in_header:
            cells["analyte"] += f" ({cells['unit']})"
        cells["analysed"] = analysed
        for c, kind in enumerate(kinds):
            grid.add(row, c, cells[kind], kind)
        row += 1
    if row < 40:
        qc_rows(group)
    kit.footnotes(rng, grid, row, len(kinds), flat)
    return grid, kinds


def _group_time_series(ctx: kit.Context, flat: bool) -> tuple[_Grid, list[str]]:
    rng = ctx.rng
    matrix = rng.choice(("groundwater", "soil"))
    analytes = catalogue.sample_analytes(rng, matrix, kit.skewed(rng, 2, 14))
    lead = ["sample_id"] + (["date"] if rng.random() < 0.8 else [])
    unit_row = rng.random() < 0.6
    header_rows = 1 if flat else 2 + int(unit_row)
    kinds = lead + ["result"] * len(analytes)
    grid = _Grid(len(kinds), header_rows)
    for c, kind in enumerate(lead):
        title = (
            ctx.title("sample_id")
            if kind == "sample_id"
            else vocabulary.choose(rng, vocabulary.LABEL_TERMS["collected"], ctx.split)
        )
        grid.add(0, c, title, "header", **({} if flat else {"row_span": header_rows}))
    templates = [catalogue.sample_result_row(rng, a, matrix, ctx.notation.report) for a in analytes]
    names = [ctx.name(a, t) for a, t in zip(analytes, templates, strict=True)]
    column = len(lead)
    k = 0
    while k < len(analytes):
        span = 1
        while k + span < len(analytes) and analytes[k + span].group == analytes[k].group:
            span += 1
        if not flat:
            grid.add(0, column, GROUP_TITLES[analytes[k].group], "header", column_span=span)
        for j in range(k, k + span):
            unit = ctx.notation.unit(templates[j].unit)
            if flat:
                grid.add(0, column + j - k, f"{names[j]} ({unit})", "header")
            else:
                title = names[j] if unit_row else f"{names[j]} ({unit})"
                grid.add(1, column + j - k, title, "header")
                if unit_row:
                    grid.add(2, column + j - k, unit, "header")
        column += span
        k += span
    row = header_rows
    levels: dict[int, str] = {}
    if rng.random() < 0.6:
        for _ in range(rng.randint(1, 2)):
            label = ctx.title("screening")
            kit.label_row(grid, row, label, "screening-label", len(lead), flat or len(lead) == 1)
            for j, template in enumerate(templates):
                level = kit.screening(rng, template.reporting_limit)
                levels.setdefault(j, level)  # the first screening row is the one flagged
                grid.add(row, len(lead) + j, level, "screening")
            row += 1
    fmt = kit.date_format(rng)
    for sample in kit.samples(rng, matrix, kit.skewed(rng, 1, 20)):
        if row >= 40:
            break
        cells = {"sample_id": sample, "date": kit.date(rng, fmt)}
        for c, kind in enumerate(lead):
            grid.add(row, c, cells[kind], kind)
        for j, analyte in enumerate(analytes):
            result = catalogue.sample_result_row(rng, analyte, matrix, ctx.notation.report)
            missing = rng.random() < 0.05
            text = ctx.not_result if missing else kit.result_text(ctx, result, True)
            bold = not missing and j in levels and kit.exceeds(result, levels[j])
            grid.add(row, len(lead) + j, text, "result", bold=True if bold else None)
        row += 1
    kit.footnotes(rng, grid, row, len(kinds), flat)
    return grid, kinds
