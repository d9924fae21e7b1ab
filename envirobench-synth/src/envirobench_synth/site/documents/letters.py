"""The agency's and the laboratory's letters of a site file: review letters, revised laboratory
reports, correction letters, the data validation memo, the remedy papers, the ceased-operations
letter and the no-further-action letter.
"""

from __future__ import annotations

import datetime as dt

from ...locate.sitepages import (
    STYLES_BY_SPLIT,
    finish,
    person,
    style,
)
from ..model import Campaign, key_of, result_fact
from ..papers import (
    Doc,
    Key,
    Part,
    Pen,
    letter_doc,
    loc_name,
    number,
    site_plan,
    text_pages,
    title_page,
    unit_text,
)
from .results import lab_part
from .small import _cond, agency_letter, governing_rule
from .traps import Traps


def review_letter(pen: Pen, report: Doc) -> Doc:
    """The agency's comments on a monitoring report."""
    m = pen.m
    ast = pen.agency_style()
    day = report.issued + dt.timedelta(days=pen.rng.randint(30, 75))
    comments = pen.rng.sample(REVIEW_COMMENTS, 2)
    sheets = agency_letter(
        pen,
        ast,
        date=day,
        subject=f"Review of {report.title}, Case No. {m.case_number}",
        paragraphs=[
            f"The {m.agency} has reviewed the report dated {ast.date(report.issued)} and has the following "
            "comments.",
            *[f"{k}. {c}" for k, c in enumerate(comments, 1)],
            "Please address these comments in the next scheduled report.",
        ],
    )
    return Doc("agency-letter", "Agency Review Letter", day, [Part(sheets)], scannable=True)


REVIEW_COMMENTS = (
    "Include the laboratory's case narrative with every data package.",
    "Show the inferred groundwater flow direction on a figure for each event.",
    "Report non-detects at the reporting limit, not at the method detection limit.",
    "Compare the results with the screening levels in force on the date each sample was collected.",
    "Continue to gauge all wells for free product before purging.",
    "Provide the purge water disposal documentation.",
    "Evaluate whether the perimeter wells delineate the plume downgradient.",
)


def revised_lab(pen: Pen, campaign: Campaign, traps: Traps) -> Doc:
    day = traps.revised_on[campaign.id]
    part = lab_part(pen, campaign, traps, revision=1)
    part.role = "lab-revised"
    return Doc("lab-report", "Revised Laboratory Report", day, [part], campaign=campaign.id)


def correction_letter(
    pen: Pen, campaign: Campaign, day: dt.date, keys: tuple[Key, ...], traps: Traps
) -> Doc:
    """The laboratory's letter correcting `keys` of one job (each misreported without its
    dilution factor); every other result of the report stands."""
    m = pen.m
    lab = campaign.lab
    st = style(STYLES_BY_SPLIT[pen.split][(pen.rng.randrange(3))])
    lines, facts, values = [], [], {}
    for key in keys:
        truth, wrong = m.truth[key], traps.corrected[key]
        sample = next(
            s
            for s in campaign.samples
            if not s.is_duplicate and any(key_of(s, r) == key for r in s.results)
        )
        fact = result_fact(key)
        lines.append(
            f"Sample {sample.sample_id} ({loc_name(st, key[0])}), collected "
            f"{st.date(dt.date.fromisoformat(key[2]))}: {key[3]} was reported as "
            f"{number(wrong.value)} {unit_text(st, truth.unit)}; the correct result is "
            f"{number(truth.value)} {unit_text(st, truth.unit)} (reporting limit {truth.rl:g})."
        )
        facts.append({fact})
        values[fact] = truth.value
    sheets = letter_doc(
        pen,
        st,
        kind="correction-letter",
        date=day,
        subject=f"Correction to Laboratory Report, {m.name}, samples received {st.date(campaign.start)}",
        firm=(lab, "1200 Analytical Drive, Suite 4", "(555) 010-7700"),
        sender=(person(pen.rng), "Quality Assurance Manager"),
        paragraphs=[
            f"During a routine review of our report for the samples collected on {st.date(campaign.start)}, "
            f"we found that a dilution factor was not applied to {len(keys)} results. The corrected results "
            "are given below; every other result of the report is unchanged.",
            *lines,
            "Please replace these results in your records. We regret any inconvenience this may have caused.",
        ],
        facts=[set(), *facts, set()],
    )
    return Doc(
        "correction-letter",
        "Laboratory Correction Letter",
        day,
        [Part(sheets, role="correction", values=values)],
    )


def validation_memo(pen: Pen, campaign: Campaign, day: dt.date, analyte: str, traps: Traps) -> Doc:
    """The consultant's data validation memo rejecting one analyte of one event."""
    m = pen.m
    keys = sorted(
        key_of(s, r)
        for s in campaign.samples
        if not s.is_duplicate
        for r in s.results
        if r.analyte == analyte and key_of(s, r) in traps.rejected - traps.lab_rejected
    )
    st = pen.office(day)
    wells = ", ".join(loc_name(st, k[0]) + (f" ({k[1]} ft)" if k[1] != "-" else "") for k in keys)
    sheets = letter_doc(
        pen,
        st,
        kind="memo",
        date=day,
        subject=f"Data Validation Summary, {campaign.label} Sampling Event, {m.name}",
        to=(person(pen.rng), m.agency),
        paragraphs=[
            f"The analytical data of the {campaign.label} event (samples collected {st.date(campaign.start)}) were "
            "validated in general accordance with the EPA National Functional Guidelines.",
            f"The {analyte} results for samples {wells} are rejected (R): the samples were analyzed "
            f"{pen.rng.randint(3, 9)} days past the method holding time. These results are not usable and are "
            "excluded from the site data set.",
            "All other results are usable as reported, with the qualifiers assigned by the laboratory.",
            *pen.filler(1, "validation"),
        ],
    )
    return Doc("memo", "Data Validation Memorandum", day, [Part(sheets)])


def remedy_papers(pen: Pen, traps: Traps) -> list[Doc]:
    m = pen.m
    docs = []
    # corrective action plan, draft then final, and the agency's approval
    for draft in (False,) if m.spec.compact else (True, False):
        day = m.cap - dt.timedelta(days=pen.rng.randint(20, 40)) if draft else m.cap
        st = pen.office(day)
        title = pen.doc_title("cap")
        facts = set() if draft else {f"event|corrective-action-plan|-|{day.isoformat()}"}
        sections = [
            (
                "Introduction",
                [
                    (
                        f"This Corrective Action Plan proposes {m.remedy} to address the release at {m.name} "
                        f"({m.agency} Case No. {m.case_number}).",
                        _cond(m, "release"),
                    )
                ],
            ),
            (
                "Remedial Objectives",
                [(governing_rule(m), set()), *[(t, set()) for t in pen.filler(2, "plan")]],
            ),
            (
                "Evaluation of Alternatives",
                [
                    (t, set())
                    for t in (
                        "Alternatives evaluated included monitored natural attenuation, excavation, soil vapor extraction "
                        "and in-situ treatment.",
                        *pen.filler(3, "plan"),
                    )
                ],
            ),
            (
                "Proposed Remedy and Schedule",
                [
                    (
                        f"The recommended remedy is {m.remedy}, to begin within 90 days of "
                        "the agency's approval.",
                        set(),
                    ),
                    *[(t, set()) for t in pen.filler(2, "plan")],
                ],
            ),
        ]
        body = text_pages(pen, st, title, sections)
        sheets = finish(
            [
                title_page(pen, st, title, day, draft=draft, facts=facts),
                *body,
                site_plan(pen, st, 1, day),
            ]
        )
        docs.append(Doc("cap", title, day, [Part(sheets)], draft=draft))
        if draft:
            traps.drafts += 1
    ast = pen.agency_style()
    approve = m.cap + dt.timedelta(days=pen.rng.randint(30, 60))
    docs.append(
        Doc(
            "agency-letter",
            "CAP Approval",
            approve,
            [
                Part(
                    agency_letter(
                        pen,
                        ast,
                        date=approve,
                        subject=f"Approval of Corrective Action Plan, Case No. {m.case_number}",
                        paragraphs=[
                            f"The {m.agency} has reviewed the Corrective Action Plan dated {ast.date(m.cap)} and approves it "
                            "with the following conditions.",
                            governing_rule(m),
                            "Progress reports shall be submitted with each monitoring report.",
                        ],
                    )
                )
            ],
        )
    )
    # start-up and completion
    st = pen.office(m.remedy_start)
    day = m.remedy_start + dt.timedelta(days=pen.rng.randint(20, 40))
    fact = f"event|remediation-began|-|{m.remedy_start.isoformat()}"
    docs.append(
        Doc(
            "letter",
            "Remediation Start-up",
            day,
            [
                Part(
                    letter_doc(
                        pen,
                        st,
                        kind="letter",
                        date=day,
                        subject=f"Remedial System Start-up, {m.name}",
                        to=(person(pen.rng), m.agency),
                        paragraphs=[
                            pen.say("remedy-began", remedy=m.remedy, date=st.date(m.remedy_start)),
                            *pen.filler(3, "letter"),
                        ],
                        facts=[{fact}, set(), set(), set()],
                    )
                )
            ],
        )
    )
    if m.remedy_end is not None:
        st = pen.office(m.remedy_end)
        day = m.remedy_end + dt.timedelta(days=pen.rng.randint(30, 60))
        fact = f"event|remediation-ended|-|{m.remedy_end.isoformat()}"
        title = pen.doc_title("completion")
        sections = [
            (
                "Summary",
                [
                    (pen.say("remedy-ended", remedy=m.remedy, date=st.date(m.remedy_end)), {fact}),
                    *[(t, set()) for t in pen.filler(4, "completion")],
                ],
            )
        ]
        sheets = finish(
            [title_page(pen, st, title, day, draft=False), *text_pages(pen, st, title, sections)]
        )
        docs.append(Doc("report", title, day, [Part(sheets)]))
    return docs


def ceased_letter(pen: Pen) -> Doc:
    m = pen.m
    day = m.closed + dt.timedelta(days=pen.rng.randint(20, 60))
    st = pen.office(day)
    fact = f"event|operations-ceased|-|{m.closed:%Y-%m}"
    sheets = letter_doc(
        pen,
        st,
        kind="letter",
        date=day,
        subject=f"Facility Status, {m.business}",
        to=(person(pen.rng), m.agency),
        paragraphs=[
            f"{m.operator} informs the {m.agency} that {m.business} ceased operations in "
            f"{m.closed:%B %Y}. Product was removed from the tanks and the dispensers were "
            "locked out.",
            "The monitoring program will continue as approved.",
        ],
        facts=[{fact}, set()],
    )
    return Doc("letter", "Notice of Closure of Operations", day, [Part(sheets)], scannable=True)


def nfa_letter(pen: Pen) -> Doc:
    m = pen.m
    ast = pen.agency_style()
    day = m.nfa
    fact = f"event|no-further-action|-|{day.isoformat()}"
    conds = {f"condition|{c.kind}" for c in m.conditions if c.cls in ("CREC", "HREC")}
    sheets = agency_letter(
        pen,
        ast,
        date=day,
        subject=f"No Further Action Determination ({m.nfa_scope}), Case No. {m.case_number}",
        signer="Program Manager",
        paragraphs=[
            f"Based on the information submitted, the {m.agency} has determined that no further action is required "
            f"for {m.nfa_scope} at the site. This determination is effective {ast.date(day)}.",
            "This determination is conditioned on the activity and use limitations of the environmental covenant to "
            "be recorded for the property and on the continued operation of the engineering controls described in "
            "the approved plans."
            if m.covenant
            else "Groundwater monitoring shall continue under the approved schedule; this letter does not close the case "
            "for groundwater.",
            "The agency may reopen the case if new information shows that the conditions at the site pose a risk "
            "to human health or the environment.",
        ],
        facts=[{fact, *conds}, conds, set()],
    )
    return Doc("agency-letter", "No Further Action Letter", day, [Part(sheets)], scannable=True)
