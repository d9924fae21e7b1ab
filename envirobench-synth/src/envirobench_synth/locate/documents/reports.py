"""The content of the long kinds: site reports (Phase I and II, remediation, closure and the rest,
with their sections, history and front matter) and data validation reports.
"""

from __future__ import annotations

import datetime as dt
import random

from .kinds import ANALYTES, CITIES, FIRMS, LABS, MENTIONS, SITE_REPORTS, STREETS, Block
from .short_kinds import Writer, _para


def _wells(r: random.Random) -> list[str]:
    return [f"MW-{i}" for i in range(1, r.randint(4, 8))]


def _common(w: Writer, wells: list[str]) -> list[str]:
    """Sentences every site report may carry: the vocabulary the reports share."""
    r = w.rng
    return [
        f"Monitoring wells {wells[0]} through {wells[-1]} are screened across the water table.",
        f"Benzene has been the constituent of concern since the release from the former "
        f"{r.choice(('underground storage tanks', 'dispenser islands', 'fuel oil tank'))} was reported.",
        f"Depth to groundwater ranges from {r.randint(4, 9)} to {r.randint(10, 24)} feet below grade.",
        "Soil borings advanced during earlier work encountered silty sand over clay.",
    ]


def _sections(w: Writer, sections: list[tuple[str, list[Block]]]) -> list[Block]:
    out: list[Block] = []
    for number, (name, blocks) in enumerate(sections, 1):
        out.append(Block("heading", text=f"{number}.0 {name}", bold=True))
        out += blocks
    return out


def _front(w: Writer, firm: str, label: str) -> Block:
    return Block(
        "fields",
        rows=[
            [label, w.site],
            ["Prepared for", w.client],
            ["Prepared by", firm],
            ["Date", w.date()],
            ["Project no.", w.number("")],
        ],
    )


STAGES = SITE_REPORTS  # the order a cleanup goes through


def history(w: Writer, kind: str, wells: list[str]) -> list[Block]:
    """The site's earlier reports, as every later report (and many a Phase I) retells them: the
    vocabulary of every stage, in the body of any."""
    r = w.rng
    stage = STAGES.index(kind)
    if kind == "phase-i-report":
        upto = r.randint(0, 5)  # a former owner's case, retold from the agency's files
    elif kind == "monitoring-report":
        upto = stage + (1 if r.random() < 0.5 else 0)  # monitoring under an approved plan
    else:
        upto = stage
    year = w.day.year - r.randint(6, 14)
    told = [
        f"A Phase I environmental site assessment by {r.choice(FIRMS)} in {year} identified the former "
        "underground storage tanks as a recognized environmental condition.",
        f"A subsurface investigation in {year + 1} advanced {r.randint(3, 9)} soil borings; benzene in "
        "soil and groundwater exceeded the screening levels and the release was reported.",
        f"Quarterly groundwater monitoring of wells {wells[0]} through {wells[-1]} began in {year + 2}; "
        "the monitoring reports are on file with the agency.",
        f"The corrective action plan approved in {year + 3} selected "
        f"{r.choice(('excavation', 'air sparging', 'monitored natural attenuation'))} as the remedy.",
        f"The agency closed the release case with a no further action letter in {year + 5}.",
    ][:upto]
    if not told:
        return []
    return [
        Block("heading", text=r.choice(("BACKGROUND", "PREVIOUS INVESTIGATIONS", "SITE HISTORY"))),
        _para(*told),
    ]


def site_report(w: Writer, kind: str, other: str | None) -> tuple[list[str], list[Block]]:
    """A Phase I or II assessment, a monitoring report, a remedial action plan or a closure report
    from a pool of shared sentences: what tells them apart is purpose, scope and sections."""
    r = w.rng
    firm = r.choice(FIRMS)
    wells = _wells(r)
    common = _common(w, wells)
    r.shuffle(common)
    earlier = w.date(w.day - dt.timedelta(days=r.randint(60, 1500)))
    benzene = r.choice(ANALYTES[:3])
    if kind == "phase-i-report":
        use = r.choice(
            ("gasoline service station", "dry cleaner", "machine shop", "bulk fuel plant")
        )
        listing = [["Site", "Distance", "Database", "Status"]] + [
            [
                f"{r.randint(10, 9800)} {r.choice(STREETS)}",
                f"{r.choice(('0.1', '0.25', '0.4', 'adjoining'))} mi",
                r.choice(("LUST", "UST", "RCRA-SQG", "State spills")),
                r.choice(("Open", "Closed", "No further action")),
            ]
            for _ in range(r.randint(2, 4))
        ]
        sections = [
            (
                "INTRODUCTION",
                [
                    _para(
                        f"{firm} performed this assessment of the property at {w.site} for {w.client}"
                        + r.choice(
                            (
                                " in connection with its proposed purchase.",
                                " as part of a refinancing.",
                            )
                        ),
                        "The purpose was to identify recognized environmental conditions through a records review,",
                        "a site reconnaissance and interviews; no samples were collected.",
                    )
                ],
            ),
            (
                "SITE DESCRIPTION AND RECONNAISSANCE",
                [
                    _para(
                        f"The property was walked on {w.date()}. {len(wells)} groundwater monitoring wells installed",
                        "by others were observed in the parking area; their records were not available.",
                        common[0],
                    )
                ],
            ),
            (
                "RECORDS REVIEW",
                [
                    _para(
                        f"Aerial photographs from {w.day.year - r.randint(40, 60)} onward and city directories show the property",
                        f"used as a {use}. The regulatory database report lists the following sites:",
                    ),
                    Block("table", rows=listing, widths=[0.36, 0.16, 0.22, 0.26]),
                    _para(
                        f"{benzene.capitalize()} in groundwater was reported at the adjoining listing."
                    ),
                ],
            ),
            (
                "FINDINGS AND RECOMMENDATIONS",
                [
                    _para(
                        f"Recognized environmental conditions: the historical use as a {use} and the monitoring wells of unknown purpose.",
                        r.choice(
                            (
                                "We recommend soil borings and groundwater sampling to evaluate these conditions.",
                                "We recommend no further inquiry at this time.",
                            )
                        ),
                    )
                ],
            ),
        ]
    elif kind == "phase-ii-report":
        rows = [["Boring", "Depth (ft)", "Analyte", "Result (mg/kg)"]] + [
            [
                f"B-{i + 1}",
                str(r.choice((2, 5, 8, 10, 15))),
                r.choice(ANALYTES),
                f"{r.uniform(0.01, 400):.3g}",
            ]
            for i in range(r.randint(3, 6))
        ]
        sections = [
            (
                "INTRODUCTION",
                [
                    _para(
                        f"This report presents a limited investigation of soil and groundwater at {w.site}, performed to",
                        f"evaluate the recognized environmental conditions identified in the assessment dated {earlier}.",
                        "The scope was limited to the areas of concern named in that assessment.",
                    )
                ],
            ),
            (
                "FIELD ACTIVITIES",
                [
                    _para(
                        f"On {w.date()}, {r.randint(3, 8)} soil borings were advanced with a direct-push rig to a maximum of",
                        f"{r.randint(12, 30)} feet. Soil was screened with a PID and one sample per boring was submitted;",
                        "temporary wells were set in three borings for grab groundwater samples.",
                        common[3],
                    )
                ],
            ),
            (
                "RESULTS",
                [Block("table", rows=rows, widths=[0.2, 0.2, 0.35, 0.25]), _para(common[1])],
            ),
            (
                "CONCLUSIONS AND RECOMMENDATIONS",
                [
                    _para(
                        f"{benzene.capitalize()} exceeds the screening level near the former tank basin, so a release has occurred.",
                        r.choice(
                            (
                                "We recommend installing permanent monitoring wells to define the extent of the plume.",
                                "We recommend reporting the release to the agency and further delineation.",
                            )
                        ),
                    )
                ],
            ),
        ]
    elif kind == "monitoring-report":
        rows = [
            ["Well", "Depth to water (ft)", f"{benzene.capitalize()} (ug/L)", "Previous (ug/L)"]
        ] + [
            [
                well,
                f"{r.uniform(4, 30):.2f}",
                r.choice(("ND", f"{r.uniform(1, 900):.3g}")),
                f"{r.uniform(1, 900):.3g}",
            ]
            for well in wells
        ]
        event = r.choice(("first", "second", "third", "fourth"))
        sections = [
            (
                "INTRODUCTION",
                [
                    _para(
                        f"This report documents the {event}-quarter {w.day.year} event of the groundwater monitoring program",
                        f"required for {w.site}. {common[1]}",
                    )
                ],
            ),
            (
                "GAUGING AND SAMPLING",
                [
                    _para(
                        f"All {len(wells)} wells were gauged and purged before sampling on {w.date()}.",
                        f"Groundwater flow was toward the {r.choice(('north', 'east', 'south', 'west', 'southwest'))}.",
                        common[2],
                    )
                ],
            ),
            (
                "RESULTS AND TRENDS",
                [
                    Block("table", rows=rows, widths=[0.16, 0.28, 0.28, 0.28]),
                    _para(
                        f"Concentrations remain {r.choice(('stable', 'stable to decreasing', 'above the standard but decreasing'))} since {earlier}."
                    ),
                ],
            ),
            (
                "RECOMMENDATIONS",
                [
                    _para(
                        r.choice(
                            (
                                "We recommend continued quarterly sampling of all wells.",
                                "We recommend reducing the sampling to semiannual events.",
                                "If the trend continues for two more events we will recommend that the agency consider closure.",
                            )
                        ),
                        "The next event is scheduled for the following quarter.",
                    )
                ],
            ),
        ]
    elif kind == "remedial-action-plan":
        goals = [["Constituent", "Medium", "Cleanup goal"]] + [
            [a, m, g]
            for a, m, g in r.sample(
                [
                    ("Benzene", "Groundwater", "5 ug/L"),
                    ("MTBE", "Groundwater", "20 ug/L"),
                    ("Benzene", "Soil", "0.03 mg/kg"),
                    ("TPH-gasoline", "Soil", "100 mg/kg"),
                    ("Toluene", "Groundwater", "1,000 ug/L"),
                ],
                3,
            )
        ]
        options = [["Alternative", "Estimated cost", "Time to goals"]] + [
            [name, f"${r.randint(8, 90) * 10000:,}", f"{r.randint(1, 12)} years"]
            for name in r.sample(
                (
                    "Excavation and off-site disposal",
                    "Air sparging with soil vapor extraction",
                    "Monitored natural attenuation",
                    "In-situ chemical oxidation",
                ),
                3,
            )
        ]
        chosen = options[r.randint(1, 3)][0].lower()
        sections = [
            (
                "INTRODUCTION",
                [
                    _para(
                        f"This plan proposes the corrective action for {benzene.lower()} in soil and groundwater at {w.site},",
                        f"delineated by the investigation and monitoring through {earlier}. {common[1]}",
                    )
                ],
            ),
            ("CLEANUP GOALS", [Block("table", rows=goals, widths=[0.4, 0.3, 0.3])]),
            (
                "EVALUATION OF ALTERNATIVES",
                [Block("table", rows=options, widths=[0.5, 0.25, 0.25]), _para(common[0])],
            ),
            (
                "PROPOSED REMEDY AND SCHEDULE",
                [
                    _para(
                        f"We recommend {chosen}. Work will begin within 90 days of the agency's approval of this plan.",
                        "Performance will be measured by quarterly sampling of the existing wells until the goals are met.",
                    )
                ],
            ),
        ]
    elif kind == "closure-report":
        rows = [["Sample", "Depth (ft)", f"{benzene.capitalize()} (mg/kg)", "Cleanup goal"]] + [
            [
                f"CS-{i + 1}",
                str(r.choice((4, 6, 8, 10, 12))),
                r.choice(("ND", f"{r.uniform(0.001, 0.02):.2g}")),
                "0.03",
            ]
            for i in range(r.randint(3, 6))
        ]
        tons = r.randint(40, 900)
        sections = [
            (
                "INTRODUCTION",
                [
                    _para(
                        f"This report documents the remedial work completed at {w.site} under the plan approved on {earlier}",
                        "and requests a determination that no further action is required.",
                    )
                ],
            ),
            (
                "WORK PERFORMED",
                [
                    _para(
                        f"Between {w.date(w.day - dt.timedelta(days=r.randint(20, 200)))} and {w.date()}, {tons} tons of impacted soil",
                        "were excavated and disposed of; the disposal certificates are attached.",
                        common[3],
                    )
                ],
            ),
            (
                "CONFIRMATION SAMPLING",
                [Block("table", rows=rows, widths=[0.2, 0.2, 0.35, 0.25]), _para(common[1])],
            ),
            (
                "WELL DECOMMISSIONING AND CONCLUSIONS",
                [
                    _para(
                        f"Groundwater in {wells[0]} through {wells[-1]} has met the cleanup goals in "
                        f"{r.randint(4, 8)} consecutive events.",
                        "The wells will be decommissioned after the agency's determination.",
                        "We recommend that the site be granted closure with no further action.",
                    )
                ],
            ),
        ]
    else:
        raise ValueError(kind)
    background = history(w, kind, wells)
    if background:
        sections.insert(1, (background[0].text, background[1:]))
    blocks = [_front(w, firm, r.choice(("Property", "Site"))), *_sections(w, sections)]
    if other:
        blocks.append(
            _para(
                f"This report relies in part on {MENTIONS[other]} dated {w.date(w.day - dt.timedelta(days=r.randint(30, 900)))}."
            )
        )
    blocks.append(
        Block("signature", text=f"{w.person()}, {r.choice(('P.G.', 'P.E.', 'Project Manager'))}")
    )
    return [firm, f"{r.randint(10, 999)} {r.choice(STREETS)}, {r.choice(CITIES)}"], blocks


def data_validation(w: Writer) -> tuple[list[str], list[Block]]:
    r = w.rng
    firm = r.choice(FIRMS)
    lab = r.choice(LABS)
    rows = [["Sample ID", "Analyte", "Result", "Lab flag", "Final qualifier", "Reason"]]
    for _i in range(r.randint(4, 8)):
        rows.append(
            [
                f"MW-{r.randint(1, 8)}",
                r.choice(ANALYTES[:9]),
                f"{r.uniform(0.5, 900):.3g}",
                r.choice(("", "B", "E", "J")),
                r.choice(("J", "UJ", "R", "None")),
                r.choice(("Holding time", "Blank contamination", "LCS recovery", "MS/MSD RPD")),
            ]
        )
    return [firm, f"{r.randint(10, 999)} {r.choice(STREETS)}, {r.choice(CITIES)}"], [
        Block(
            "fields",
            rows=[
                ["Project", w.site],
                ["Laboratory", lab],
                ["Work order", w.number("WO-")],
                ["Reviewer", w.person()],
                ["Date", w.date()],
            ],
        ),
        *_sections(
            w,
            [
                (
                    "INTRODUCTION",
                    [
                        _para(
                            f"This review evaluates the analytical results reported by {lab} for groundwater samples from",
                            f"the monitoring wells at {w.site}, against the method requirements and the national functional guidelines.",
                        )
                    ],
                ),
                (
                    "HOLDING TIMES, BLANKS AND CONTROL SAMPLES",
                    [
                        _para(
                            "All samples were analyzed within holding times except as noted. Benzene was found in one method blank;",
                            "results less than five times the blank were qualified. Laboratory control sample recoveries were within limits.",
                        )
                    ],
                ),
                (
                    "QUALIFIED RESULTS",
                    [Block("table", rows=rows, widths=[0.13, 0.22, 0.12, 0.11, 0.16, 0.26])],
                ),
                (
                    "USABILITY",
                    [
                        _para(
                            r.choice(
                                (
                                    "The data are usable as qualified; results qualified R are rejected.",
                                    "Completeness is 97 percent. We recommend that rejected results not be used for decisions.",
                                )
                            )
                        )
                    ],
                ),
            ],
        ),
        Block("signature", text=f"{w.person()}, Data Validator"),
    ]
