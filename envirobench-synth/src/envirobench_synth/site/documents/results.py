"""Documents that print results: laboratory-report parts, standards rows, numbered results tables,
the tank closure report and the Phase II report.
"""

from __future__ import annotations

import datetime as dt

from ... import standards
from ...catalogue import ANALYTES
from ...locate import sitekinds
from ...locate.sitepages import (
    OfficeStyle,
    Sheet,
    finish,
)
from .. import lablink
from ..boringlog import boring_log_pages
from ..model import Campaign, Measurement, Sample, SiteModel, key_of, result_fact
from ..papers import (
    Doc,
    Part,
    Pen,
    custody_pages,
    loc_name,
    number,
    photo_pages,
    prose,
    results_table_pages,
    site_plan,
    text_pages,
    title_page,
    unit_text,
)
from .small import _cond, governing_rule, shim
from .traps import Traps


def lab_part(pen: Pen, campaign: Campaign, traps: Traps, *, revision: int = 0) -> Part:
    """The laboratory's report of `campaign` (the original, or a revision printing the truth)."""
    samples = []
    for s in campaign.samples:
        if revision:
            results = list(s.results)
        else:
            results = [traps.lab_printing(campaign, s, m) for m in s.results]
        samples.append(
            Sample(s.sample_id, s.location, s.depth, s.matrix, s.date, results, s.parent)
        )
    issued = traps.revised_on.get(campaign.id, campaign.issued) if revision else campaign.issued
    note = None
    if revision:
        changed = ", ".join(f"{k[3]} in {k[0]}" for k in traps.revised[campaign.id])
        note = (
            f"This report supersedes the report issued {campaign.issued:%m/%d/%Y}. The results for "
            f"{changed} were recalculated after a data-entry error was found in review."
        )
    return lablink.lab_report(
        pen,
        campaign,
        samples,
        issued,
        revision=revision,
        note=note,
        scanned=not revision and campaign.id in traps.scanned_labs,
    )


def samples_printed(
    campaign: Campaign, traps: Traps, *, after: dt.date | None = None
) -> list[Sample]:
    """The samples as a consultant's report copies them from the laboratory: the lab's original
    printing, or the corrected values when the report is issued after the fix."""
    out = []
    for s in campaign.samples:
        results = []
        for m in s.results:
            key = key_of(s, m)
            fixed = traps.fixed_by(key)
            if fixed is not None and after is not None and after >= fixed:
                results.append(m)
            else:
                results.append(traps.lab_printing(campaign, s, m))
        out.append(Sample(s.sample_id, s.location, s.depth, s.matrix, s.date, results, s.parent))
    return out


STANDARD_LABELS = {
    "franklin-groundwater": "FCS Table 1",
    "franklin-soil-residential": "FCS Table 2",
    "franklin-soil-industrial": "FCS Table 3",
    "epa-mcl": "MCL",
    "epa-rsl-tapwater-thq1.0": "RSL tapwater",
    "epa-rsl-soil-industrial-thq1.0": "RSL ind. soil",
    "epa-rsl-soil-residential-thq1.0": "RSL res. soil",
}


def standard_row(
    m: SiteModel, samples: list[Sample], analytes: list[str], day: dt.date
) -> tuple[str, list[str]] | None:
    """The row of screening levels a report prints above its results: the governing table's
    values in force on the report's date (not always those in force when a sample was taken)."""
    matrices = {s.matrix for s in samples}
    if len(matrices) != 1:
        return None
    table = m.standards.get(matrices.pop())
    if table is None:
        return None
    units = {r.analyte: r.unit for s in samples for r in s.results}
    cells = []
    for analyte in analytes:
        try:
            row = standards.value_in_force(table, analyte, day)
        except ValueError:
            row = standards.value_in_force(table, analyte, day, basis="total")
        if row is None:
            cells.append("NE")
            continue
        factor = {("mg/L", "µg/L"): 1000.0, ("µg/L", "mg/L"): 0.001}.get(
            (row.unit, units[analyte]), 1.0
        )
        cells.append(number(float(f"{row.value * factor:.3g}")))
    return STANDARD_LABELS.get(table, table), cells


def _label(st: OfficeStyle):
    def label(s: Sample) -> str:
        if s.is_duplicate:
            return s.sample_id
        text = loc_name(st, s.location)
        return f"{text} ({s.depth} ft)" if s.depth else text

    return label


def tank_closure_report(pen: Pen, campaign: Campaign, traps: Traps) -> Doc:
    m = pen.m
    day = campaign.issued + dt.timedelta(days=pen.rng.randint(15, 35))
    st = pen.office(day)
    removed = [t for t in m.tanks if t.removed and abs((t.removed - campaign.start).days) < 60]
    title = pen.doc_title("tank-closure")
    paras = [
        (
            f"This report documents the closure by removal of the underground storage tanks at {m.business}.",
            set(),
        )
    ]
    for t in removed:
        paras.append(
            (
                f"Tank {t.id} ({t.gallons:,} gallons, {t.contents}) was removed on {st.date(t.removed)} "
                f"and transported for cleaning and scrap.",
                {f"event|tank-removed|{t.id}|{t.removed.isoformat()}"},
            )
        )
    paras.append(
        (
            f"Petroleum-stained soil and odors were observed in the tank excavation. The release was reported "
            f"to the {m.agency} on {st.date(m.release_found)}.",
            {f"event|release-reported|-|{m.release_found.isoformat()}", *_cond(m, "release")},
        )
    )
    paras += [(t, set()) for t in pen.filler(3)]
    values: dict[str, float | None] = {}
    printed = samples_printed(campaign, traps, after=day)
    analytes = sorted({a.analyte for s in printed for a in s.results}, key=_order)
    body = text_pages(pen, st, title, pen.framed([("Closure Activities", paras)]))
    table = results_table_pages(
        pen,
        st,
        "Table 1. Tank Closure Soil Sample Results",
        printed,
        analytes,
        first_column="Sample (depth)",
        label=_label(st),
        values=values,
        standard=standard_row(m, printed, analytes, day),
    )
    report = Part(
        finish(
            [
                title_page(pen, st, title, day, draft=False),
                *body,
                *table,
                site_plan(pen, st, 1, day),
            ]
        ),
        values=values,
    )
    photos = Part(
        photo_pages(
            pen,
            st,
            1,
            (
                "Tank removal, looking north.",
                "Tank excavation after removal.",
                "Tanks staged for transport.",
            ),
        )
    )
    cert = Part(sitekinds.certificate(pen.rng, st, pen.split, shim(pen, day)))
    return Doc(
        "tank-closure",
        title,
        day,
        [
            report,
            photos,
            lab_part(pen, campaign, traps),
            Part(custody_pages(pen, st, campaign), scannable=True),
            cert,
        ],
        scannable=day.year < 2000,
        campaign=campaign.id,
    )


def _order(analyte: str) -> int:
    names = [a.name for a in ANALYTES]
    return names.index(analyte) if analyte in names else 999


def numbered_results_tables(
    pen: Pen,
    st: OfficeStyle,
    groups: list[tuple[str, list[Sample]]],
    values: dict[str, float | None],
    day: dt.date,
    t_no: int,
) -> tuple[list[Sheet], int]:
    """The results table pages of each non-empty (caption, samples) group, numbered from t_no
    ("Table 3. Soil Analytical Results"), and the next table number."""
    tables: list[Sheet] = []
    for caption, group in groups:
        if not group:
            continue
        analytes = sorted({r.analyte for s in group for r in s.results}, key=_order)
        tables += results_table_pages(
            pen,
            st,
            f"Table {t_no}. {caption}",
            group,
            analytes,
            first_column="Sample",
            label=_label(st),
            values=values,
            standard=standard_row(pen.m, group, analytes, day),
        )
        if tables[-1].room(70):  # the data review under the table, where the page has room
            tables[-1].gap(6)
            tables[-1].para("Data review. " + " ".join(pen.filler(2, "validation")), size=st.size - 2)
        t_no += 1
    return tables, t_no


def phase_ii(pen: Pen, campaign: Campaign, traps: Traps) -> list[Doc]:
    m = pen.m
    out = []
    final_day = m.phase_ii
    for draft in (False,) if m.spec.compact else (True, False):
        day = final_day - dt.timedelta(days=pen.rng.randint(15, 30)) if draft else final_day
        st = pen.office(day)
        title = pen.doc_title("phase-ii")
        values: dict[str, float | None] = {}
        printed = samples_printed(campaign, traps, after=day)
        soil = [s for s in printed if s.matrix == "soil"]
        water = [s for s in printed if s.matrix == "groundwater"]
        vapor = [s for s in printed if s.matrix not in ("soil", "groundwater")]
        paras = [
            (
                f"{st.firm} advanced {len({s.location for s in soil})} soil borings and installed "
                f"{len({s.location for s in water if not s.is_duplicate})} monitoring wells at {m.name} between "
                f"{st.date(campaign.start)} and {st.date(max(s.date for s in printed))}.",
                set(),
            ),
            (
                f"The work was performed under the {m.program} to assess the release reported on "
                f"{st.date(m.release_found)}.",
                _cond(m, "release"),
            ),
            *[(t, set()) for t in pen.filler(3)],
        ]
        # one findings sentence per detected groundwater maximum (a printing in text)
        highlights = []
        for s in water:
            if s.is_duplicate:
                continue
            top = max(
                (r for r in s.results if r.value is not None),
                key=lambda r: r.value or 0,
                default=None,
            )
            if top is not None and len(highlights) < 3:
                highlights.append(detected_sentence(pen, st, s, top, values))
        sections = [
            ("Introduction", paras[:2]),
            ("Field Activities", paras[2:]),
            ("Results", highlights),
            (
                "Conclusions",
                [(f"{rule}", set()) for rule in (governing_rule(m),)]
                + [
                    (
                        "Further assessment of the extent of impacts in groundwater is recommended.",
                        _cond(m, "release"),
                    )
                ],
            ),
        ]
        body = text_pages(pen, st, title, pen.framed(sections))
        tables, t_no = numbered_results_tables(
            pen,
            st,
            [
                ("Soil Analytical Results", soil),
                ("Groundwater Analytical Results", water),
                ("Soil Vapor Analytical Results", vapor),
            ],
            values,
            day,
            1,
        )
        facts = set() if draft else {f"event|phase-ii-esa|-|{day.isoformat()}"}
        report = Part(
            finish(
                [
                    title_page(pen, st, title, day, draft=draft, facts=facts),
                    *body,
                    *tables,
                    site_plan(pen, st, 1, day),
                ]
            ),
            values=values,
        )
        parts = [report]
        if not draft:
            logs = []
            for pid in sorted(
                {s.location for s in printed if not s.is_duplicate},
                key=lambda p: (p.split("-")[0], int(p.split("-")[1])),
            ):
                if pid.startswith(("SB", "MW")):
                    logs += boring_log_pages(pen, st, pid, m.points[pid].installed)
            parts.append(Part(finish(logs, mark="Appendix A - {page}")))
            parts.append(lab_part(pen, campaign, traps))
            parts.append(Part(custody_pages(pen, st, campaign), scannable=True))
            parts.append(
                Part(
                    photo_pages(
                        pen,
                        st,
                        2,
                        (
                            "Drill rig at SB-1.",
                            "Soil cores from the source area.",
                            "Well installation.",
                            "Drum staging area.",
                        ),
                    )
                )
            )
        else:
            traps.drafts += 1
        out.append(
            Doc(
                "phase-ii",
                title,
                day,
                parts,
                draft=draft,
                campaign=campaign.id if not draft else None,
            )
        )
    return out


def detected_sentence(
    pen: Pen, st: OfficeStyle, sample: Sample, m: Measurement, values: dict[str, float | None]
) -> tuple[str, set[str]]:
    """The findings sentence that prints one detected result (a printing in text) with the fact
    it states; the value it prints is noted in `values`."""
    fact = result_fact(key_of(sample, m))
    values[fact] = m.value
    said = pen.say(
        "detected",
        analyte=prose(m.analyte),
        where=loc_name(st, sample.location),
        value=number(m.value),
        unit=unit_text(st, m.unit),
    )
    return said, {fact}
