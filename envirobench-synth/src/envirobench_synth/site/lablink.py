"""Laboratory reports of a sampling campaign, as a `Part` of the record with its page facts.

Until `labpapers` (the laboratory-report families of Extract v2, by helper S2) is in the
package, the report is drawn here in a plain laboratory layout: a cover page, a sample
summary, one results page per sample (or two short ones a page) and a method-blank page.
"""

from __future__ import annotations

import datetime as dt

from ..locate.sitepages import MARGIN, STYLES_BY_SPLIT, Sheet, finish, letterhead, person, style
from .model import ANALYTE_BY_NAME, Campaign, Sample, key_of, result_fact
from .papers import MATRIX_TEXT, Part, Pen, number

METHOD = {
    "voc": "8260D",
    "tph": "8015D",
    "metal": "6010D",
    "mercury": "7470A",
    "pah": "8270E",
    "pcb": "8082A",
}


def lab_report(
    pen: Pen,
    campaign: Campaign,
    samples: list[Sample],
    issued: dt.date,
    *,
    revision: int,
    note: str | None,
) -> Part:
    rng = pen.rng
    names = STYLES_BY_SPLIT[pen.split]
    st = style(names[(sum(map(ord, campaign.lab)) + 1) % len(names)])
    job = f"{issued:%y}{'ABCDEFGH'[len(campaign.samples) % 8]}{sum(map(ord, campaign.id)) % 9000 + 1000}"
    title = rng.choice(
        ("ANALYTICAL REPORT", "CERTIFICATE OF ANALYSIS")
        if pen.split == "dev"
        else ("LABORATORY REPORT", "REPORT OF ANALYSIS")
    )
    values: dict[str, float | None] = {}
    cover = Sheet(st, "lab-report")
    letterhead(
        cover, firm=campaign.lab, address="1200 Analytical Drive, Suite 4", phone="(555) 010-7700"
    )
    cover.text(
        title + (f" - REVISION {revision}" if revision else ""),
        size=st.size + 5,
        bold=True,
        align="center",
    )
    cover.gap(10)
    received = min(s.date for s in samples) + dt.timedelta(days=1)
    for label, value in (
        ("Client", pen.m.client),
        ("Project", f"{pen.m.name} ({pen.m.case_number})"),
        ("Work Order", job),
        ("Date Received", st.date(received)),
        ("Date Reported", st.date(issued)),
        ("Samples", str(len(samples))),
    ):
        cover.text(f"{label}:", bold=True, advance=False)
        cover.text(value, x=MARGIN + 110)
    cover.gap(10)
    if note:
        cover.para("Case narrative: " + note, bold=True)
    cover.para(
        "The results in this report apply only to the samples as received. Soil results are reported on a "
        "dry-weight basis. This report shall not be reproduced except in full without the written approval "
        "of the laboratory."
    )
    cover.gap(24)
    cover.text(person(rng), bold=True)
    cover.text("Laboratory Director")
    summary = Sheet(st, "lab-report")
    summary.text(f"{campaign.lab}    Work Order {job}", bold=True)
    summary.rule()
    summary.gap(6)
    summary.text("SAMPLE SUMMARY", bold=True)
    rows = [
        [
            s.sample_id,
            f"{job}-{k:02d}",
            MATRIX_TEXT.get(s.matrix, s.matrix),
            st.date(s.date),
            st.date(received),
        ]
        for k, s in enumerate(samples, 1)
    ]
    summary.table(
        ["Client Sample ID", "Lab ID", "Matrix", "Sampled", "Received"],
        rows[:30],
        [130, 90, 90, 90, 90],
        size=st.size - 1,
    )
    sheets = [cover, summary]
    page = None
    for k, s in enumerate(samples, 1):
        need = 80 + 15 * len(s.results)
        if page is None or not page.room(need):
            page = Sheet(st, "lab-report")
            page.text(f"{campaign.lab}    Work Order {job}", bold=True)
            page.rule()
            page.gap(6)
            sheets.append(page)
        page.text(f"Client Sample ID: {s.sample_id}    Lab ID: {job}-{k:02d}", bold=True)
        depth = f"    Depth: {s.depth} ft" if s.depth else ""
        page.text(
            f"Matrix: {MATRIX_TEXT.get(s.matrix, s.matrix)}    Collected: {st.date(s.date)}{depth}"
        )
        table = []
        for r in s.results:
            group = ANALYTE_BY_NAME[r.analyte].group
            method = (
                "TO-15"
                if s.matrix in ("soil-vapor", "sub-slab-vapor", "indoor-air")
                else METHOD[group]
            )
            result = "ND" if r.value is None else number(r.value)
            table.append(
                [
                    r.analyte,
                    result,
                    r.qualifier if r.qualifier != "U" else "U",
                    f"{r.rl:g}",
                    r.unit.replace("µ", "u"),
                    method,
                ]
            )
            if not s.is_duplicate:
                fact = result_fact(key_of(s, r))
                page.facts.add(fact)
                values[fact] = r.value
        page.table(
            ["Analyte", "Result", "Qual", "RL", "Units", "Method"],
            table,
            [170, 70, 40, 60, 60, 70],
            size=st.size - 1,
        )
    qc = Sheet(st, "lab-report")
    qc.text(f"{campaign.lab}    Work Order {job}", bold=True)
    qc.rule()
    qc.gap(6)
    qc.text("QUALITY CONTROL - METHOD BLANK AND LABORATORY CONTROL SAMPLE", bold=True)
    analytes = sorted({r.analyte for s in samples for r in s.results})
    qc.table(
        ["Analyte", "Blank", "LCS %Rec", "Limits"],
        [[a, "ND", f"{rng.uniform(82, 116):.0f}", "70-130"] for a in analytes],
        [200, 80, 80, 80],
        size=st.size - 1,
    )
    qc.text(
        "Qualifiers: U = not detected; J = estimated, below the RL; R = rejected, unusable.",
        size=st.size - 2,
    )
    sheets.append(qc)
    return Part(finish(sheets), role="lab-revised" if revision else "lab", values=values)
