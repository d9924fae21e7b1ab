"""Laboratory reports of a sampling campaign, as a `Part` of the record with its page facts.

The report is drawn by `labpapers` (Extract v2's laboratory-report families, split dev/test):
the record gives the samples and values to print, the family of the laboratory of the
campaign's period (a site changes laboratory when it changes consultant) and the revision.
"""

from __future__ import annotations

import datetime as dt

from ..labreport.families import families_of
from . import labpapers
from .model import Campaign, Sample, key_of, result_fact
from .papers import Part, Pen
from .scanning import filed_scan


def lab_report(
    pen: Pen,
    campaign: Campaign,
    samples: list[Sample],
    issued: dt.date,
    *,
    revision: int,
    note: str | None,
    scanned: bool = False,
) -> Part:
    """The laboratory's report of `campaign` printing `samples` as given (values, limits,
    qualifiers), in the laboratory family of the campaign's period, by `labpapers`; `scanned`:
    filed as the consultant's scan of the paper copy (every page image-only, `scanning.filed_scan`)."""
    m = pen.m
    families = [f.name for f in families_of(m.split)]
    period = 0 if campaign.start < m.consultants[-1][0] else 1
    family = families[(m.spec.seed + period) % len(families)]
    lab_samples = []
    for s in samples:
        results = tuple(
            labpapers.LabResult(r.analyte, r.value, r.unit, r.rl, r.qualifier) for r in s.results
        )
        # a blind duplicate is printed under its own label: it is no record of its parent's key
        location = s.sample_id if s.is_duplicate else s.location
        lab_samples.append(
            labpapers.LabSample(s.sample_id, location, s.depth, s.matrix, s.date, results)
        )
    received = min(s.date for s in samples) + dt.timedelta(days=1)
    job = labpapers.LabJob(
        family=family,
        split=m.split,
        job_number=f"{received:%y}{sum(map(ord, campaign.id)) % 90000 + 10000}",
        client=m.client_on(campaign.start),
        project=f"{m.name} ({m.case_number})",
        site_address=m.address,
        received=received,
        issued=issued,
        samples=tuple(lab_samples),
        revision=revision,
        revision_note=note,
        laboratory=campaign.lab,
    )
    paper = labpapers.render_lab_report(
        job,
        m.spec.seed,
        m.spec.site_id,
        "lab",
        campaign.id,
        revision,
    )
    pdf, scan_pages = paper.pdf, ()
    if scanned:  # the consultant's scan of the paper copy the laboratory mailed
        pdf, scan_pages = filed_scan(pdf, len(paper.page_facts), m.spec.seed, m.spec.site_id, "lab", campaign.id, revision,
                                     sender=campaign.lab, sent=issued)
    values: dict[str, float | None] = {}
    for s in samples:
        if s.is_duplicate:
            continue
        for r in s.results:
            values[result_fact(key_of(s, r))] = r.value
    facts = [
        {f for f in page if not f.split("|")[1].startswith("DUP")} for page in paper.page_facts
    ]
    return Part(
        pdf=pdf,
        pdf_facts=facts,
        role="lab-revised" if revision else "lab",
        values=values,
        issued=issued,
        scan=scanned,
        scan_pages=scan_pages,
    )
