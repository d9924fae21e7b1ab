"""Monitoring reports: their preliminary values (drafts), trend sentences, groundwater elevation
tables and the cumulative historical tables with their transcription slips.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass

from ...locate.sitepages import (
    BOTTOM,
    MARGIN,
    PAGE_W,
    OfficeStyle,
    Sheet,
    finish,
)
from ...rng import make_random
from ..model import Campaign, Measurement, Sample, key_of, result_fact, three_figures
from ..papers import (
    MATRIX_TEXT,
    SHORT,
    Doc,
    Key,
    Part,
    Pen,
    custody_pages,
    field_sheets,
    loc_name,
    number,
    prose,
    shown,
    site_plan,
    text_pages,
    title_page,
    unit_text,
)
from .results import (
    detected_sentence,
    lab_part,
    numbered_results_tables,
    samples_printed,
    standard_row,
)
from .traps import Traps, _misprint


@dataclass(frozen=True)
class Edition:
    """One edition of a campaign's report, draft or final: the pen and office that print it, the
    earlier campaigns, the traps, and the day it is issued (which corrections are known by then)."""

    pen: Pen
    st: OfficeStyle
    campaign: Campaign
    history: list[Campaign]
    traps: Traps
    day: dt.date
    draft: bool


def monitoring_report(
    pen: Pen, campaign: Campaign, history: list[Campaign], traps: Traps, *, draft: bool
) -> list[Doc]:
    m = pen.m
    final_day = campaign.issued + dt.timedelta(days=pen.rng.randint(20, 45))
    out = []
    for is_draft in (True, False) if draft else (False,):
        day = final_day - dt.timedelta(days=pen.rng.randint(10, 20)) if is_draft else final_day
        st = pen.office(day)
        kind = campaign.kind
        if kind == "vapor":
            title = pen.doc_title("vapor", label=campaign.label)
        elif kind == "characterization":
            title = pen.doc_title("characterization")
        else:
            word = (
                "Semiannual"
                if "Half" in campaign.label
                else "Annual"
                if campaign.label.isdigit()
                else "Quarterly"
            )
            title = pen.doc_title("monitoring", word=word, label=campaign.label)
        values: dict[str, float | None] = {}
        printed = samples_printed(campaign, traps, after=day)
        if is_draft:
            printed = preliminary(pen, campaign, printed, traps)
        water = [s for s in printed if s.matrix == "groundwater"]
        dup = next((s for s in printed if s.is_duplicate), None)
        paras = [
            (
                f"This report presents the results of the {campaign.label.lower()} sampling event at {m.name} "
                f"({m.agency} Case No. {m.case_number}), performed on {st.date(campaign.start)}.",
                set(),
            ),
            (
                f"A total of {len([s for s in printed if not s.is_duplicate])} samples were collected and "
                f"submitted to {campaign.lab} for analysis.",
                set(),
            ),
        ]
        if dup is not None:
            paras.append(
                (
                    f"A blind field duplicate ({dup.sample_id}) was collected at {loc_name(st, dup.parent)} "
                    "for quality control; its results are not used for decisions.",
                    set(),
                )
            )
        paras += [(t, set()) for t in pen.filler(2 if kind == "monitoring" else 4)]
        highlights = []
        for s in sorted(water, key=lambda s: s.location):
            if s.is_duplicate:
                continue
            lead = s.results[0]
            if lead.value is not None and len(highlights) < 4:
                highlights.append(detected_sentence(pen, st, s, lead, values))
        edition = Edition(pen, st, campaign, history, traps, day, is_draft)
        if kind == "monitoring":
            highlights += trend_sentences(edition, water, values)
        if kind == "vapor":
            for s in printed:
                if s.matrix != "indoor-air" or len(highlights) >= 6:
                    continue
                top = s.results[0]
                fact = result_fact(key_of(s, top))
                values[fact] = top.value
                level = (
                    "not detected"
                    if top.value is None
                    else (f"detected at {number(top.value)} {unit_text(st, top.unit)}")
                )
                highlights.append(
                    (
                        f"{_cap(prose(top.analyte))} was {level} in indoor air sample "
                        f"{loc_name(st, s.location)}.",
                        {fact},
                    )
                )
            running = campaign.start >= m.remedy_start
            highlights.append(
                (
                    "Indoor air and sub-slab concentrations were compared with the agency's vapor "
                    "intrusion screening levels. "
                    + (
                        "The sub-slab depressurization system operated throughout the event."
                        if running
                        else "Mitigation of the building is recommended."
                    ),
                    {"condition|vapor-intrusion"},
                )
            )
        sections = [
            ("Introduction", paras[:2]),
            ("Field Activities", paras[2:]),
            ("Analytical Results", highlights or [("No analytes were detected.", set())]),
            (
                "Conclusions and Recommendations",
                [
                    (t, set())
                    for t in (
                        "Monitoring will continue on the approved schedule.",
                        pen.rng.choice(VAPOR_CONC if kind == "vapor" else FILLER_CONC),
                    )
                ],
            ),
        ]
        body = text_pages(pen, st, title, pen.framed(sections))
        tables = []
        t_no = 1
        if water:
            tables.append(elevation_table(pen, st, water, t_no))
            t_no += 1
        event_tables, t_no = numbered_results_tables(
            pen,
            st,
            [
                (
                    f"{MATRIX_TEXT[matrix]} Analytical Results, {campaign.label}",
                    [s for s in printed if s.matrix == matrix],
                )
                for matrix in ("groundwater", "soil", "soil-vapor", "sub-slab-vapor", "indoor-air")
            ],
            values,
            day,
            t_no,
        )
        tables += event_tables
        cumulative_values: dict[str, float | None] = {}
        cumulative = cumulative_tables(edition, t_no, cumulative_values)
        report_sheets = [
            title_page(pen, st, title, day, draft=is_draft),
            *body,
            *tables,
            site_plan(pen, st, 1, day),
        ]
        parts = [Part(finish(report_sheets), values=values)]
        if cumulative:
            parts.append(Part(cumulative, role="cumulative", values=cumulative_values))
        if not is_draft:
            parts.append(
                Part(
                    finish(field_sheets(pen, st, printed), mark="Appendix A - {page}"),
                    scannable=True,
                )
            )
            parts.append(lab_part(pen, campaign, traps))
            parts.append(Part(custody_pages(pen, st, campaign), scannable=True))
        else:
            traps.drafts += 1
        out.append(
            Doc(
                kind + "-report",
                title,
                day,
                parts,
                draft=is_draft,
                campaign=None if is_draft else campaign.id,
            )
        )
    return out


def preliminary(pen: Pen, campaign: Campaign, printed: list[Sample], traps: Traps) -> list[Sample]:
    """A draft report's copy of the event: 2-4 detections (times `scale`) as the preliminary data
    gave them (10-40 % off, before its review), chosen once per event; the final prints the
    laboratory's report."""
    chosen = traps.preliminary.setdefault(campaign.id, {})
    if not chosen:
        rng = make_random(pen.m.spec.seed, "preliminary", campaign.id)
        touched = traps.contested()
        pool = [
            (key_of(s, r), r.value)
            for s in printed
            if not s.is_duplicate
            for r in s.results
            if r.value is not None and key_of(s, r) not in touched
        ]
        for key, value in rng.sample(pool, min(len(pool), round(rng.randint(2, 4) * traps.scale))):
            factor = rng.choice((0.6, 0.7, 0.8, 0.9, 1.1, 1.2, 1.3, 1.4))
            chosen[key] = three_figures(value * factor)
    out = []
    for s in printed:
        results = [
            Measurement(r.analyte, chosen[key_of(s, r)], r.unit, r.rl, r.qualifier)
            if key_of(s, r) in chosen
            else r
            for r in s.results
        ]
        out.append(Sample(s.sample_id, s.location, s.depth, s.matrix, s.date, results, s.parent))
    return out


def _cap(text: str) -> str:
    return text[0].upper() + text[1:]


def trend_sentences(
    edition: Edition, water: list[Sample], values: dict[str, float | None]
) -> list[tuple[str, set[str]]]:
    """How the lead analyte changed in the wells since the first groundwater event: each sentence
    restates two results (an earlier one as the report copies it, and this event's)."""
    pen, st, history = edition.pen, edition.st, edition.history
    traps, day = edition.traps, edition.day
    first = next((c for c in history if c.kind in ("phase-ii", "characterization")), None)
    if first is None:
        return []
    earlier = {
        s.location: s
        for s in samples_printed(first, traps, after=day)
        if s.matrix == "groundwater" and not s.is_duplicate
    }
    out = []
    for s in water:
        if s.is_duplicate or s.location not in earlier or len(out) >= 2:
            continue
        now, then = s.results[0], earlier[s.location].results[0]
        keys = (key_of(s, now), key_of(earlier[s.location], then))
        if now.value is None or then.value is None or any(k in traps.rejected for k in keys):
            continue
        trend = "decreased" if now.value < then.value else "increased"
        unit = unit_text(st, now.unit)
        where = loc_name(st, s.location)
        if pen.split == "dev":
            text = (
                f"{_cap(prose(now.analyte))} in {where} has {trend} from {number(then.value)} {unit} "
                f"({st.date(earlier[s.location].date)}) to {number(now.value)} {unit}."
            )
        else:
            text = (
                f"Since {st.date(earlier[s.location].date)}, {prose(now.analyte)} in {where} has {trend} "
                f"({number(then.value)} to {number(now.value)} {unit})."
            )
        facts = {result_fact(k) for k in keys}
        values[result_fact(keys[0])] = now.value
        values[result_fact(keys[1])] = then.value
        out.append((text, facts))
    return out


def elevation_table(pen: Pen, st: OfficeStyle, water: list[Sample], number_: int) -> Sheet:
    """Gauging data of the event: top of casing, depth to water, groundwater elevation."""
    sheet = Sheet(st, "report")
    sheet.text(f"Table {number_}. Groundwater Elevation Data", bold=True)
    sheet.gap(4)
    rows = []
    rng = make_random(pen.m.spec.seed, "gauging", water[0].date.isoformat())
    for s in water:
        if s.is_duplicate:
            continue
        p = pen.m.points[s.location]
        toc = 100.0 - p.distance * 0.02 + (0.8 if p.upgradient else 0.0)
        dtw = (p.water or 10.0) + rng.uniform(-1.2, 1.2)
        rows.append(
            [
                loc_name(st, s.location),
                st.date(s.date),
                f"{toc:.2f}",
                f"{dtw:.2f}",
                f"{toc - dtw:.2f}",
            ]
        )
    sheet.table(
        ["Well", "Date", "TOC elev. (ft)", "Depth to water (ft)", "GW elev. (ft)"],
        rows,
        [80, 110, 100, 110, 100],
        size=st.size - 1,
    )
    sheet.text("Elevations relative to an arbitrary site datum of 100.00 ft.", size=st.size - 2)
    # the field parameters logged as each well was purged, on the same page as gauging data often
    # is: no analyte of the site, no fact (pH, conductance, temperature, oxygen, ORP, turbidity)
    sheet.gap(14)
    sheet.text(f"Table {number_}a. Field Parameters at Completion of Purging", bold=True)
    sheet.gap(4)
    params = []
    for s in water:
        if s.is_duplicate:
            continue
        params.append([
            loc_name(st, s.location),
            st.date(s.date),
            f"{rng.uniform(6.1, 7.6):.2f}",
            f"{rng.randint(280, 1900)}",
            f"{rng.uniform(9.5, 21.0):.1f}",
            f"{rng.uniform(0.2, 6.5):.2f}",
            f"{rng.randint(-180, 220)}",
            f"{rng.uniform(0.4, 48.0):.1f}",
            f"{rng.uniform(0.8, 4.5):.1f}",
        ])
    sheet.table(
        ["Well", "Date", "pH", "Sp. cond.", "Temp.", "D.O.", "ORP", "Turbidity", "Purged"],
        params,
        [62, 90, 40, 54, 44, 44, 44, 58, 50],
        size=st.size - 1,
    )
    sheet.para(
        "Units: specific conductance uS/cm; temperature degrees C; dissolved oxygen mg/L; oxidation-reduction "
        "potential mV; turbidity NTU; volume purged gallons. Parameters were recorded with a flow-through cell "
        "after three consecutive readings stabilized within the low-flow purging criteria.",
        size=st.size - 2,
    )
    return sheet


TRANSCRIPTION_SHARE = 0.8  # of monitoring reports whose cumulative tables misprint 1-3 cells
VAPOR_CONC = (
    "Sub-slab vapor concentrations remain above the screening levels beneath the former machine area.",
    "Indoor air results will be reviewed with the occupants of the adjoining tenant space.",
    "The next round will be collected during the heating season.",
)

FILLER_CONC = (
    "Concentrations in the source-area wells continue to decline since the remedy began.",
    "The dissolved plume appears stable and is not migrating off site.",
    "We recommend reducing the sampling frequency in the perimeter wells.",
)


def cumulative_tables(edition: Edition, t_no: int, values: dict[str, float | None]) -> list[Sheet]:
    """Historical results by well for every earlier groundwater event and this one, as the report
    prints them: corrected values once the fix is known, rejected results flagged R, and now and
    then a transcription error (the laboratory report settles it)."""
    pen, st, campaign, history = edition.pen, edition.st, edition.campaign, edition.history
    traps, day, draft = edition.traps, edition.day, edition.draft
    events = [
        c for c in history + [campaign] if c.kind in ("phase-ii", "characterization", "monitoring")
    ]
    if len(events) < 2 or campaign.kind not in ("monitoring",):
        return []
    wells = sorted(
        {
            s.location
            for c in events
            for s in c.samples
            if s.matrix == "groundwater" and not s.is_duplicate
        },
        key=lambda p: int(p.split("-")[1]),
    )
    rng = make_random(pen.m.spec.seed, "cumulative", campaign.id)
    last = campaign is [c for c in pen.m.campaigns if c.kind == "monitoring"][-1]
    slips = _slips(rng, events, campaign, traps, last=last)
    # one table of every well and event, as long as it needs: continued over pages, each page
    # with its caption "(continued)", its units, the header row and the screening level again
    rows_of: list[tuple[str, Sample, list[Sample]]] = []
    for well in wells:
        history_samples = []
        for c in events:
            rows = samples_printed(c, traps, after=day)
            if draft and c is campaign:
                rows = preliminary(pen, c, rows, traps)
            for s in rows:
                if s.location == well and s.matrix == "groundwater" and not s.is_duplicate:
                    history_samples.append(s)
        rows_of += [(well, s, history_samples) for s in history_samples]
    if not rows_of:
        return []
    analytes = [r.analyte for r in rows_of[0][1].results]
    units = ", ".join(f"{SHORT.get(r.analyte, r.analyte)} {unit_text(st, r.unit)}" for r in rows_of[0][1].results)
    level = standard_row(pen.m, [s for _w, s, _h in rows_of], analytes, day)  # every page prints it
    row_height = (st.size - 1.5) * 1.7
    sheets: list[Sheet] = []
    start = 0
    while start < len(rows_of):
        sheet = Sheet(st, "report")
        sheet.text(
            f"Table {t_no}. Historical Groundwater Analytical Results" + (" (continued)" if start else ""), bold=True
        )
        sheet.text(f"Units: {units}", size=st.size - 2)
        sheet.gap(4)
        fits = max(1, int((BOTTOM - sheet.y - 40) / row_height) - 1 - (level is not None))
        chunk = rows_of[start : start + fits]
        table_rows = [[level[0], "", *level[1]]] if level is not None else []
        for well, s, history_samples in chunk:
            row = [loc_name(st, well), st.date(s.date)]
            for r in s.results:
                key = key_of(s, r)
                fact = result_fact(key)
                value = r
                if key in traps.rejected and day > traps.rejected_on[key]:
                    row.append(f"{number(r.value) if r.value is not None else 'ND'} R")
                    sheet.facts.add(fact)
                    values[fact] = r.value
                    continue
                if key in slips:
                    wrong = _slip(rng, slips[key], r, history_samples, s)
                    value = Measurement(r.analyte, wrong, r.unit, r.rl, r.qualifier)
                    traps.transcription[(campaign.id, key)] = wrong
                row.append(_cell(st, value))
                sheet.facts.add(fact)
                values[fact] = value.value
            table_rows.append(row)
        width = (PAGE_W - 2 * MARGIN - 150) / max(1, len(analytes))
        sheet.table(
            ["Well", "Date", *(SHORT.get(a, a) for a in analytes)],
            table_rows,
            [62, 88, *([width] * len(analytes))],
            size=st.size - 1,
        )
        sheet.text(
            "R = rejected during data validation; not usable. "
            + (f"{level[0]}: screening level in force at the date of this report." if level else ""),
            size=st.size - 2,
        )
        sheets.append(sheet)
        start += len(chunk)
    return sheets


def _slips(
    rng: random.Random, events: list[Campaign], campaign: Campaign, traps: Traps, *, last: bool
) -> dict[Key, str]:
    """The cells of earlier detections a cumulative table misprints, and how: most reports
    misprint 1-3 times `scale` (digits swapped, a decimal point moved, another digit, or the value of the
    well's row above or below), half of them, where there are any, results whose laboratory
    report is filed as a scan (a reader who trusts the typed table over the scan is caught).
    Keys another trap touches are left alone (their printings tell their own story)."""
    touched = traps.contested()
    eligible = [
        (c.id in traps.scanned_labs, key_of(s, r))
        for c in events
        if c.start < campaign.start
        for s in c.samples
        if s.matrix == "groundwater" and not s.is_duplicate
        for r in s.results
        if r.value is not None and key_of(s, r) not in touched
    ]
    count = (
        round(rng.randint(1, 3) * traps.scale) if rng.random() < TRANSCRIPTION_SHARE or last else 0
    )
    out: dict[Key, str] = {}
    for _ in range(min(count, len(eligible))):
        scanned = [k for flag, k in eligible if flag and k not in out]
        typed = [k for flag, k in eligible if not flag and k not in out]
        pool = scanned if scanned and (rng.random() < 0.5 or not typed) else typed
        out[rng.choice(pool)] = rng.choice(("digits", "digits", "digits", "row"))
    return out


def _slip(rng: random.Random, form: str, r: Measurement, rows: list[Sample], at: Sample) -> float:
    """The misprinted value: the digits garbled, or (`row`) the value of the same analyte in
    the row above or below (another date of the well), when that differs."""
    if form == "row":
        index = rows.index(at)
        for other in (rows[index - 1] if index else None, *rows[index + 1 : index + 2]):
            if other is None:
                continue
            theirs = next((x for x in other.results if x.analyte == r.analyte), None)
            if (
                theirs is not None
                and theirs.value is not None
                and abs(theirs.value - r.value) > 0.02 * r.value
            ):
                return theirs.value
    return _misprint(rng, r.value)


def _cell(st: OfficeStyle, m: Measurement) -> str:
    return shown(st, m)
