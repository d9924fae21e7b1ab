"""The Phase I environmental site assessment of a site file (its wording, by era and by use)."""

from __future__ import annotations

import datetime as dt

from ...locate.sitepages import (
    Sheet,
    finish,
    person,
)
from ...rng import make_random
from ..papers import (
    Doc,
    Part,
    Pen,
    photo_pages,
    text_pages,
    title_page,
)
from .small import _cond

# What a Phase I says of a condition before the release is found, and while the case is open.
EARLY = {
    "petroleum-ust-release": "the underground storage tank system in service since {year}, with no "
    "release detection records before 1990 and petroleum odors reported near the dispensers",
    "waste-oil-ust": "a waste-oil underground storage tank beside the service bays, of unknown age "
    "and integrity",
    "heating-oil-tank": "a heating-oil underground storage tank of unknown age and integrity",
    "ast-loading-rack-release": "stained soil and stressed vegetation at the loading rack and the "
    "aboveground tank farm, in use since {year}",
    "railroad-ties-herbicides": "creosote-treated ties and a history of herbicide application "
    "along the spur track",
    "pcb-equipment": "a pole-mounted transformer of unknown PCB content with stained gravel beneath",
    "chlorinated-solvent-release": "dry-cleaning operations using tetrachloroethene since {year}, "
    "with a floor drain beneath the dry-cleaning machine",
    "vapor-intrusion": "the potential for solvent vapors to migrate into the building",
    "floor-drains-dry-well": "service-bay floor drains that discharge to a dry well",
    "plating-solutions": "plating tanks and sumps in use since {year}, with corroded floor trenches",
    "fill-material": "a thin layer of fill of unknown origin under the parking area",
    "hydraulic-lifts": "in-ground hydraulic lifts of unknown age in the service bays",
    "drum-storage-staining": "drums of lubricants with minor staining beneath the drum rack",
    "offsite-source": "a leaking tank site on the adjoining property",
}
OPEN = {
    "petroleum-ust-release": "the release of petroleum from the former UST system, under "
    "investigation and corrective action by the agency",
    "waste-oil-ust": "the release from the former waste-oil UST, not yet closed by the agency",
    "heating-oil-tank": "the former heating-oil UST, removed but not yet closed by the agency",
    "pcb-equipment": "PCBs in soil at the former transformer pad, not yet addressed",
    "chlorinated-solvent-release": "the release of tetrachloroethene from the dry-cleaning "
    "operations, under investigation in the state drycleaner program",
}


USE = {
    "station": "a retail gasoline service station",
    "bulk-plant": "a petroleum bulk plant and distribution terminal",
    "dry-cleaner": "a dry-cleaning plant",
    "auto-repair": "an automotive repair shop",
    "plating-shop": "a metal plating and finishing shop",
    "fleet-garage": "a truck fleet fueling and maintenance yard",
    "printing-plant": "a commercial printing plant",
    "ag-chem-dealer": "an agricultural chemical and fertilizer dealer",
    "former-mgp": "a manufactured gas plant",
    "landfill-adjacent": "a salvage and recycling yard beside a closed municipal landfill",
    "rail-yard": "a railroad yard and locomotive servicing facility",
    "machine-shop": "a machine shop",
    "paint-manufacturer": "a paint and varnish manufacturing plant",
    "truck-stop": "a truck stop with diesel and gasoline fuel islands",
    "boatyard": "a boatyard and marina with a fuel dock",
}
# Where a kind's general wording does not fit a kind of site (the many-sites split's kinds).
EARLY_FOR = {
    ("machine-shop", "chlorinated-solvent-release"): "a vapor degreaser using trichloroethene "
    "since {year}, with stained concrete beneath it",
    ("machine-shop", "floor-drains-dry-well"): "machining-floor drains that discharge to a dry well",
    ("ag-chem-dealer", "drum-storage-staining"): "a pesticide mixing and loading pad and drum "
    "storage area in use since {year}",
    ("ag-chem-dealer", "ast-loading-rack-release"): "bulk fertilizer and fuel tanks with a loading "
    "area of stained soil",
    ("former-mgp", "fill-material"): "fill containing ash and tar-like material across the former "
    "gas works, in use from {year}",
    ("former-mgp", "drum-storage-staining"): "a tar separator and drip-oil drum area",
    ("rail-yard", "ast-loading-rack-release"): "the locomotive fueling rack and its aboveground "
    "diesel tanks, in use since {year}",
    ("rail-yard", "floor-drains-dry-well"): "engine-house inspection pits with drains of unknown "
    "discharge",
    ("paint-manufacturer", "ast-loading-rack-release"): "a solvent tank farm and tank-truck "
    "unloading rack in use since {year}",
    ("paint-manufacturer", "drum-storage-staining"): "a drum yard of pigment and solvent wastes",
    ("boatyard", "drum-storage-staining"): "hull scraping and bottom-paint sanding in the boat "
    "storage yard",
    ("boatyard", "petroleum-ust-release"): "the fuel dock's underground storage tanks in service "
    "since {year}",
    ("landfill-adjacent", "offsite-source"): "the closed municipal landfill adjoining to the east",
}
OPEN_FOR = {
    ("machine-shop", "chlorinated-solvent-release"): "trichloroethene from the former vapor "
    "degreaser in soil and groundwater, under corrective action",
    ("ag-chem-dealer", "drum-storage-staining"): "arsenic and lead in soil at the pesticide mixing "
    "pad, under investigation",
    ("paint-manufacturer", "ast-loading-rack-release"): "solvents released at the tank farm, with "
    "toluene and xylenes in groundwater under corrective action",
    ("boatyard", "petroleum-ust-release"): "the release from the fuel dock USTs, under corrective "
    "action",
}
PHASE_I_FILLER = (
    "Aerial photographs of 1952, 1965, 1974, 1988, 1996 and later years were reviewed.",
    "Fire insurance maps were not available for the subject property.",
    "City directories were reviewed at approximately five-year intervals from 1950.",
    "The local fire department and building department were asked for records of the property.",
    "The owner's representative was interviewed about current and past uses of the property.",
    "No pits, ponds or lagoons were observed on the subject property.",
    "No evidence of stressed vegetation was observed except as noted below.",
    "The property is served by the municipal water and sewer systems.",
    "Heating is provided by natural gas; no heating-oil fill pipes were observed.",
    "Hazardous substances observed on site were limited to small containers of consumer products.",
    "No environmental liens were identified in the title records provided by the User.",
    "The database report lists no federal NPL or CERCLIS sites within the search radius.",
)


def _p1(rng, n: int) -> list[str]:
    return rng.sample(PHASE_I_FILLER, n)


def phase_i(pen: Pen, day: dt.date, index: int, *, draft: bool) -> list[Doc]:
    out = []
    if draft:
        draft_day = day - dt.timedelta(days=pen.rng.randint(14, 30))
        out.append(_phase_i(pen, draft_day, index, draft=True))
    out.append(_phase_i(pen, day, index, draft=False))
    return out


def _phase_i(pen: Pen, day: dt.date, index: int, *, draft: bool) -> Doc:
    m = pen.m
    st = pen.office(day)
    rng = make_random(m.spec.seed, "phase-i", index)  # the draft and the final say the same things
    title = "Phase I Environmental Site Assessment"
    facts = set() if draft else {f"event|phase-i-esa|-|{day.isoformat()}"}
    sheets = [
        title_page(
            pen,
            st,
            title,
            day,
            draft=draft,
            subtitle="ASTM E1527-21"
            if day.year >= 2022
            else "ASTM E1527-13"
            if day.year >= 2014
            else "ASTM E1527-05",
            facts=facts,
        )
    ]
    [h for h in m.happenings if h.date < day]
    owners = [o for o in m.owners if o.recorded.date() < day]
    tanks_known = [t for t in m.tanks if t.installed < day]
    findings: list[tuple[str, set[str]]] = []
    for c in m.conditions:
        visible = c.kind not in ("vapor-intrusion",) or day > m.phase_ii + dt.timedelta(days=300)
        if not visible:
            continue
        closed = m.nfa is not None and day >= m.nfa
        if c.cls == "de-minimis":
            cls, summary = c.cls, c.summary
        elif day < m.release_found:
            early = EARLY_FOR.get((m.spec.archetype, c.kind)) or EARLY[c.kind]
            cls, summary = "REC", early.format(year=m.opened.year)
        elif not closed:
            cls, summary = "REC", OPEN_FOR.get((m.spec.archetype, c.kind)) or OPEN.get(
                c.kind, c.summary
            )
        else:
            cls, summary = c.cls, c.summary
        phrase = {
            "REC": "a recognized environmental condition (REC)",
            "CREC": "a controlled recognized environmental condition (CREC)",
            "HREC": "a historical recognized environmental condition (HREC)",
            "de-minimis": "a de minimis condition",
        }[cls]
        findings.append(
            (
                pen.say("finding", summary=summary, phrase=phrase),
                {f"condition|{c.kind}"},
            )
        )
    exec_summary = [
        (
            f"{st.firm} performed a Phase I Environmental Site Assessment of {m.name}, {m.address} (the "
            f"subject property, Tax Parcel {m.apn}), in conformance with the scope and limitations of ASTM "
            "Practice E1527 and the All Appropriate Inquiries rule (40 CFR Part 312).",
            set(),
        ),
        *findings,
    ]
    history = [
        (
            pen.say("used-since", use=USE[m.spec.archetype], year=m.opened.year),
            {f"event|operations-began|-|{m.opened.year:04d}"},
        ),
    ]
    if m.closed is not None and m.closed < day:
        history.append(
            (
                pen.say("ceased", month=f"{m.closed:%B %Y}"),
                {f"event|operations-ceased|-|{m.closed:%Y-%m}"},
            )
        )
    for t in tanks_known:
        removed = (
            pen.say("removed", date=st.date(t.removed)) if t.removed and t.removed < day else ""
        )
        facts_t = {f"event|tank-installed|{t.id}|{t.installed.isoformat()}"}
        if removed:
            facts_t.add(f"event|tank-removed|{t.id}|{t.removed.isoformat()}")
        history.append(
            (
                pen.say(
                    "tank",
                    id=t.id,
                    gallons=f"{t.gallons:,}",
                    material=t.material,
                    kind=t.kind,
                    contents=t.contents,
                    installed=st.date(t.installed),
                    removed=removed,
                ),
                facts_t,
            )
        )
    if m.release_found < day:
        history.append(
            (
                pen.say(
                    "release", date=st.date(m.release_found), agency=m.agency, case=m.case_number
                ),
                {f"event|release-reported|-|{m.release_found.isoformat()}", *_cond(m, "release")},
            )
        )
    sections = [
        ("Executive Summary", exec_summary),
        (
            "Introduction",
            [
                (t, set())
                for t in (
                    "The purpose of this assessment is to identify recognized environmental conditions in connection with "
                    "the subject property, as that term is defined in ASTM E1527.",
                    "This report was prepared for the sole use of the User and may be relied upon only as stated in the "
                    "terms and conditions of our agreement.",
                    *_p1(rng, 2),
                )
            ],
        ),
        (
            "Site Description",
            [
                (t, set())
                for t in (
                    f"The subject property is located at {m.address} in {m.county} County, on a parcel of approximately "
                    f"{rng.uniform(0.4, 3.5):.2f} acres developed with a {rng.choice(('one-story', 'two-story'))} "
                    f"{rng.choice(('masonry', 'steel-frame', 'wood-frame'))} building.",
                    "Adjoining properties include commercial buildings to the north and east, a public street to the "
                    "south and a residential neighborhood beyond a railroad right-of-way to the west.",
                    *_p1(rng, 2),
                )
            ],
        ),
        (
            "User Provided Information",
            [
                (t, set())
                for t in (
                    "The User completed the ASTM user questionnaire; no environmental liens or activity and use "
                    "limitations were reported by the User.",
                    *_p1(rng, 1),
                )
            ],
        ),
        (
            "Records Review",
            [
                (t, set())
                for t in (
                    f"A regulatory database report was obtained for the subject property and the ASTM minimum search "
                    f"distances. The subject property is listed on the UST and LUST databases (Case No. {m.case_number}).",
                    *_p1(rng, 2),
                )
            ],
        ),
        ("Historical Use Information", history),
        (
            "Site Reconnaissance",
            [
                (t, set())
                for t in (
                    f"The site reconnaissance was performed on {st.date(day - dt.timedelta(days=rng.randint(10, 30)))} by "
                    f"{person(rng)}. Weather was {rng.choice(('clear', 'overcast', 'light rain'))}.",
                    *_p1(rng, 3),
                )
            ],
        ),
        ("Findings, Opinions and Conclusions", findings),
        (
            "Deviations and Data Gaps",
            [
                (t, set())
                for t in (
                    "No significant data gaps were identified. Historical sources were reviewed at approximately "
                    "five-year intervals where available.",
                    *_p1(rng, 1),
                )
            ],
        ),
    ]
    body = text_pages(pen, st, f"Phase I ESA - {m.name}", sections)
    # chain of title table (reprints of the deeds' recording dates)
    table = Sheet(st, "report")
    table.text("Table 1. Chain of Title (from the title company's report)", bold=True)
    rows = []
    for o in owners:
        rows.append([o.name[:34], st.date(o.recorded.date()), "Deed"])
        table.facts.add(f"event|ownership-transfer|{m.apn}|{o.recorded.date().isoformat()}")
    table.table(["Grantee", "Recorded", "Instrument"], rows, [260, 120, 90])
    body.append(table)
    photos = photo_pages(
        pen,
        st,
        2 if not draft else 1,
        (
            "View of the subject property looking north.",
            "Former tank area, looking east.",
            "Interior of the service area.",
            "Monitoring well vault in the parking area.",
            "Adjoining property to the south.",
            "Drum storage area behind the building.",
        ),
    )
    db = []
    for _k in range(3 if index == 0 else 4):
        s = Sheet(st, "database")
        s.text("REGULATORY DATABASE REPORT - RADIUS MAP SUMMARY", bold=True, align="center")
        s.gap(6)
        rows = [
            [
                rng.choice(("LUST", "UST", "RCRA-SQG", "DRYCLEANERS", "SPILLS", "ERNS", "VCP")),
                f"{rng.randint(100, 9999)} {rng.choice(('Main', 'Depot', 'Mill', 'Oak'))} St",
                f"{rng.uniform(0.01, 0.99):.2f} mi",
                rng.choice(("N", "NE", "E", "SE", "S", "SW", "W", "NW")),
                rng.choice(("Closed", "Open", "Active", "NFA")),
            ]
            for _ in range(24)
        ]
        s.table(
            ["Database", "Address", "Distance", "Dir.", "Status"],
            rows,
            [90, 170, 70, 50, 80],
            size=st.size - 1,
        )
        db.append(s)
    pages = finish([*sheets, *body]) + photos + db
    return Doc("phase-i", title, day, [Part(pages)], draft=draft)
