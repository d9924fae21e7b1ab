"""The builders of the three dev grid families (the package docstring describes each): one function
a family, which draws its table's header rows, columns and the rows that are not results into a grid
from the family's context, using what `kit` shares."""

from __future__ import annotations

from envirobench_synth import catalogue, vocabulary

from ..grid_tables import GROUP_TITLES, _Grid
from . import kit


def _lab_sample_page(ctx: kit.Context, flat: bool) -> tuple[_Grid, list[str]]:
    rng = ctx.rng
    matrix = rng.choice(("soil", "groundwater", "groundwater", "soil-gas"))
    limit = 16 if matrix == "soil-gas" else 30
    results = ctx.results(matrix, kit.skewed(rng, 2, limit))
    units = {r.unit for _, r in results}
    kinds = ["analyte"]
    if rng.random() < 0.6:
        kinds.append("cas")
    kinds.append("result")
    qualifier_column = rng.random() < 0.7
    if qualifier_column:
        kinds.append("qualifier")
    unit_column = len(units) > 1 or rng.random() < 0.6
    if unit_column:
        kinds.append("unit")
    kinds.append("reporting_limit")
    for optional, chance in (("mdl", 0.5), ("dilution", 0.5), ("prepared", 0.3), ("analysed", 0.5)):
        if rng.random() < chance:
            kinds.append(optional)
    if flat:
        kinds = kinds[: rng.randint(3, len(kinds))] if len(kinds) > 3 else kinds
        if "result" not in kinds:
            kinds.append("result")
    grid = _Grid(len(kinds), header_rows=1)
    for c, kind in enumerate(kinds):
        title = ctx.title(kind)
        if kind == "result" and not unit_column:
            title += f" ({ctx.notation.unit(results[0][1].unit)})"
        grid.add(0, c, title, "header")
    sections = rng.random() < 0.7
    section_style = rng.randrange(4)
    surrogates = rng.random() < 0.6
    fmt = kit.date_format(rng)
    prepared = kit.date(rng, fmt)
    analysed = kit.date(rng, fmt, with_time=rng.random() < 0.5)
    dilution = rng.choice(("1", "1", "1", "2", "5", "10"))
    row = 1
    group = None

    def close_group() -> None:
        nonlocal row
        if not surrogates or group not in kit.SURROGATES or row >= 38:
            return
        for name in rng.sample(kit.SURROGATES[group], rng.randint(1, min(2, len(kit.SURROGATES[group])))):
            low = rng.choice((50, 60, 70, 75))
            cells = {
                "analyte": name,
                "result": str(rng.randint(low - 10, 135)),
                "unit": "%REC",
                "reporting_limit": f"{low}-{rng.choice((120, 130, 140))}",
            }
            for c, kind in enumerate(kinds):
                grid.add(row, c, cells.get(kind, ""), "qc" if kind in cells else "blank")
            row += 1

    for analyte, result in results:
        if row >= 40:
            break
        if analyte.group != group:
            close_group()
            group = analyte.group
            if sections:
                text = kit.section(analyte.group, result.method, section_style)
                kit.label_row(grid, row, text, "section", len(kinds), flat, align="left")
                row += 1
        cells = {
            "analyte": ctx.name(analyte, result),
            "cas": result.cas or ctx.not_result,
            "result": kit.result_text(ctx, result, not qualifier_column),
            "qualifier": result.qualifier,
            "unit": ctx.notation.unit(result.unit),
            "reporting_limit": result.reporting_limit,
            "mdl": kit.mdl(rng, result.reporting_limit),
            "dilution": dilution,
            "prepared": prepared,
            "analysed": analysed,
        }
        for c, kind in enumerate(kinds):
            grid.add(row, c, cells[kind], kind)
        row += 1
    if row < 38:
        close_group()
    kit.footnotes(rng, grid, row, len(kinds), flat)
    return grid, kinds


def _consultant_summary(ctx: kit.Context, flat: bool) -> tuple[_Grid, list[str]]:
    rng = ctx.rng
    matrix = rng.choice(("soil", "soil", "groundwater", "soil-gas"))
    limit = 16 if matrix == "soil-gas" else 32
    analytes = catalogue.sample_analytes(rng, matrix, kit.skewed(rng, 2, limit))
    samples = kit.samples(rng, matrix, kit.skewed(rng, 1, 8))
    results = [
        [catalogue.sample_result_row(rng, a, matrix, ctx.notation.report) for a in analytes]
        for _ in samples
    ]
    sub = ("result",) if flat or rng.random() < 0.6 or len(samples) > 5 else ("result", "qualifier")
    lead = ["analyte"]
    if rng.random() < 0.3:
        lead.append("cas")
    if rng.random() < 0.6:
        lead.append("unit")
    screening = rng.random() < 0.5
    if screening:
        lead.append("screening")
    dated = rng.random() < 0.5
    header_rows = 1 + int(dated) + int(len(sub) > 1)
    if flat:
        header_rows = 1 + int(dated)
    kinds = lead + [k for _ in samples for k in sub]
    grid = _Grid(len(kinds), header_rows)
    kit.lead_header(grid, lead, ctx, header_rows, flat)
    fmt = kit.date_format(rng)
    sub_titles = {k: ctx.title(k) for k in sub}
    for s, sample in enumerate(samples):
        first = len(lead) + s * len(sub)
        grid.add(0, first, sample, "header", column_span=len(sub))
        if dated:
            grid.add(
                1, first, kit.date(rng, fmt), "header" if not flat else "date", column_span=len(sub)
            )
        if len(sub) > 1:
            for k, kind in enumerate(sub):
                grid.add(header_rows - 1, first + k, sub_titles[kind], "header")
    sections = rng.random() < 0.5
    section_style = rng.randrange(4)
    row = header_rows
    group = None
    for a, analyte in enumerate(analytes):
        if row >= 40:
            break
        first = results[0][a]
        if sections and analyte.group != group:
            # A flat table's section row names the group alone: it has one narrow cell for it.
            text = GROUP_TITLES[analyte.group] if flat else kit.section(analyte.group, first.method, section_style)
            kit.label_row(grid, row, text, "section", len(kinds), flat, align="left")
            row += 1
        group = analyte.group
        level = kit.screening(rng, first.reporting_limit)
        cells = {
            "analyte": ctx.name(analyte, first),
            "cas": first.cas or ctx.not_result,
            "unit": ctx.notation.unit(first.unit),
            "screening": level if rng.random() < 0.85 else ctx.not_result,
        }
        for c, kind in enumerate(lead):
            grid.add(row, c, cells[kind], kind)
        for s in range(len(samples)):
            result = results[s][a]
            first_column = len(lead) + s * len(sub)
            missing = rng.random() < 0.06
            for k, kind in enumerate(sub):
                if missing:
                    text = ctx.not_result if k == 0 else ""
                elif kind == "result":
                    text = kit.result_text(ctx, result, len(sub) == 1)
                else:
                    text = result.qualifier
                bold = screening and kind == "result" and not missing and kit.exceeds(result, level)
                grid.add(row, first_column + k, text, kind, bold=True if bold else None)
        row += 1
    kit.footnotes(rng, grid, row, len(kinds), flat)
    return grid, kinds


def _well_time_series(ctx: kit.Context, flat: bool) -> tuple[_Grid, list[str]]:
    rng = ctx.rng
    matrix: catalogue.MatrixName = rng.choice(("groundwater", "groundwater", "soil-gas"))
    analytes = catalogue.sample_analytes(rng, matrix, kit.skewed(rng, 1, 11))
    lead = ["sample_id"]
    if rng.random() < 0.8:
        lead.append("date")
    if rng.random() < 0.25:
        lead.append("lab_id")
    unit_row = rng.random() < 0.4
    header_rows = 2 if unit_row else 1
    kinds = lead + ["result"] * len(analytes)
    grid = _Grid(len(kinds), header_rows)
    for c, kind in enumerate(lead):
        title = {
            "sample_id": ctx.title("sample_id"),
            "lab_id": ctx.title("lab_id"),
            "date": vocabulary.choose(rng, vocabulary.LABEL_TERMS["collected"], ctx.split),
        }[kind]
        if flat or header_rows == 1:
            grid.add(0, c, title, "header")
            if header_rows == 2:
                grid.add(1, c, "", "header")
        else:
            grid.add(0, c, title, "header", row_span=2)
    rows_template = [
        catalogue.sample_result_row(rng, a, matrix, ctx.notation.report) for a in analytes
    ]
    names = [ctx.name(a, r) for a, r in zip(analytes, rows_template, strict=True)]
    for k, (name, template) in enumerate(zip(names, rows_template, strict=True)):
        unit = ctx.notation.unit(template.unit)
        column = len(lead) + k
        if unit_row:
            grid.add(0, column, name, "header")
            grid.add(1, column, unit, "header" if not flat else "unit")
        else:
            grid.add(0, column, f"{name} ({unit})", "header")
    row = header_rows
    if rng.random() < 0.5:
        label = ctx.title("screening")
        levels = [kit.screening(rng, t.reporting_limit) for t in rows_template]
        kit.label_row(grid, row, label, "screening-label", len(lead), flat or len(lead) == 1)
        for k, level in enumerate(levels):
            grid.add(row, len(lead) + k, level, "screening")
        row += 1
    wells = kit.samples(rng, matrix, kit.skewed(rng, 1, 5))
    events = kit.skewed(rng, 1, 8)
    fmt = kit.date_format(rng)
    dates = sorted({catalogue.sample_date(rng) for _ in range(events)})
    for well in wells:
        for day in dates:
            if row >= 40:
                break
            cells = {"sample_id": well, "date": day.strftime(fmt), "lab_id": kit.lab_id(rng)}
            for c, kind in enumerate(lead):
                grid.add(row, c, cells[kind], kind)
            for k, analyte in enumerate(analytes):
                result = catalogue.sample_result_row(rng, analyte, matrix, ctx.notation.report)
                text = ctx.not_result if rng.random() < 0.05 else kit.result_text(ctx, result, True)
                grid.add(row, len(lead) + k, text, "result")
            row += 1
    kit.footnotes(rng, grid, row, len(kinds), flat)
    return grid, kinds
