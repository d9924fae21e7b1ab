"""What fills the rest of a page in page-locate's site files: the analyte list of a laboratory's
full method, surrogate recoveries, batch lines and qualifier notes on a results page; footnotes,
field parameters and a short discussion under a report's results table; gauging data under the
well construction table; a cooler receipt block on a chain of custody; well construction notes on
a boring log; remittance text on an invoice.

A real site file's page is rarely a four-row table on blank paper: the row that answers a
question sits among twenty others, and the page around it names the same wells and days in
other contexts. Nothing added here states a fact (`sitekinds`' keys): no analyte result of a
site analyte, no total depth, no amount due, expiration date or recording number; the page's
facts are the ones its document gave it. Every block is added only where the page has room, so a
page count never changes.

    method = method_analytes(rng)                  # the lab's whole method list, for lab_report
    params = field_parameters(rng, site)           # depth to water, pH, ... per well and day
    fill_table_page(rng, site, sheet, params)      # under a report's results table
    fill_lab_page(rng, sheet)                      # under a laboratory's results table
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence

from .sitekinds import ANALYTES, Site
from .sitepages import FILLER, MARGIN, PAGE_W, Sheet, person, wrap

# Compounds of a volatile-organics method a petroleum or solvent site rarely reports detected
# (every one non-detect here); the analytes of ANALYTES the site does not report join them.
METHOD_EXTRAS = (
    ("acetone", 10.0),
    ("2-butanone (MEK)", 10.0),
    ("bromodichloromethane", 1.0),
    ("bromoform", 1.0),
    ("carbon tetrachloride", 1.0),
    ("chlorobenzene", 1.0),
    ("chloroform", 1.0),
    ("chloromethane", 2.0),
    ("1,1-dichloroethane", 1.0),
    ("1,1-dichloroethene", 1.0),
    ("cis-1,2-dichloroethene", 1.0),
    ("trans-1,2-dichloroethene", 1.0),
    ("methylene chloride", 5.0),
    ("styrene", 1.0),
    ("1,1,1-trichloroethane", 1.0),
    ("1,2,4-trimethylbenzene", 1.0),
    ("1,3,5-trimethylbenzene", 1.0),
    ("isopropylbenzene", 1.0),
    ("n-propylbenzene", 1.0),
    ("tert-butyl alcohol", 10.0),
)
SURROGATES = ("Dibromofluoromethane", "1,2-Dichloroethane-d4", "Toluene-d8", "4-Bromofluorobenzene")
LAB_NOTES = (
    "ND or <RL: not detected at or above the reporting limit (RL). J: estimated value between the method "
    "detection limit and the RL.",
    "Results are reported on an as-received basis. Samples were analyzed within the method holding time "
    "and preserved with HCl to pH below 2.",
    "Surrogate recoveries were within the laboratory's control limits unless flagged. The method blank "
    "associated with this batch was free of target analytes above the RL.",
    "The laboratory control sample and its duplicate met the acceptance criteria for precision and accuracy.",
)
TABLE_NOTES = (
    "Notes: ND or <RL = not detected at or above the laboratory reporting limit; {unit} = micrograms per liter.",
    "Samples analyzed for volatile organic compounds by EPA Method 8260B; only compounds detected at the "
    "site are tabulated. See Appendix B for the laboratory reports.",
    "Results above the {agency}'s groundwater screening levels are shown in the laboratory reports and "
    "discussed in the text.",
    "Duplicate and trip blank results are not tabulated; they are reported in the laboratory reports.",
)
DISCUSSION = (
    "Concentrations at the downgradient wells remain lower than at the source area wells, consistent with "
    "the inferred direction of groundwater flow.",
    "The distribution of dissolved hydrocarbons is generally consistent with previous events; no new "
    "detections were reported at the perimeter wells.",
    "Field parameters stabilized before sampling at every well; turbidity was below 10 NTU except where noted.",
    "Depth to water varied by less than two feet between events, within the seasonal range observed at the site.",
)


def method_analytes(rng: random.Random) -> list[tuple[str, float]]:
    """The laboratory method's analyte list for the site's results pages: the site's analytes,
    the rest of ANALYTES and a draw of METHOD_EXTRAS, in one alphabetical order."""
    extras = rng.sample(METHOD_EXTRAS, rng.randint(6, 11))
    listed = list(ANALYTES) + extras
    return sorted(listed, key=lambda item: item[0].lstrip("0123456789,-() ").lower())


def field_parameters(rng: random.Random, site: Site) -> dict[tuple[int, str], tuple[str, ...]]:
    """(well, ISO day) -> depth to water (ft), pH, conductivity (uS/cm), temperature (C), as printed."""
    out = {}
    for well in site.wells:
        water = site.borings[well][2]
        for day in site.events:
            out[(well, day.isoformat())] = (
                f"{water + rng.uniform(-1.5, 1.5):.2f}",
                f"{rng.uniform(6.2, 7.6):.2f}",
                f"{rng.randrange(240, 1900)}",
                f"{rng.uniform(11.0, 19.5):.1f}",
            )
    return out


def _notes(sheet: Sheet, lines: Sequence[str]) -> None:
    size = sheet.style.size - 1.5
    for line in lines:
        height = size * 1.4 * len(wrap(line, sheet.style.regular, size, PAGE_W - 2 * MARGIN)) + size
        if not sheet.room(height):
            return
        sheet.para(line, size=size)


def _table(
    sheet: Sheet, header: Sequence[str], rows: Sequence[Sequence[str]], widths: Sequence[float]
) -> bool:
    size = sheet.style.size - 1
    if not sheet.room((len(rows) + 1) * (size - 0.5) * 1.7 + 3 * size):
        return False
    sheet.gap(size * 0.6)
    sheet.table(header, rows, widths, size=size)
    return True


def _result_keys(sheet: Sheet) -> list[tuple[int, str]]:
    """The (well, ISO day) pairs of the results a sheet states, in order."""
    return sorted(
        {
            (int(key.split("|")[1]), key.split("|")[2])
            for key in sheet.facts
            if key.startswith("result|")
        }
    )


def fill_lab_page(rng: random.Random, sheet: Sheet) -> None:
    _table(
        sheet,
        ["Surrogate", "Recovery (%)", "Limits (%)"],
        [
            [
                name,
                f"{rng.uniform(82, 116):.0f}",
                f"{rng.choice((70, 75, 80))}-{rng.choice((120, 125, 130))}",
            ]
            for name in rng.sample(SURROGATES, 3)
        ],
        [200, 100, 100],
    )
    sheet.gap(2)
    _notes(
        sheet,
        [
            f"Batch {rng.choice('BCDEFGHK')}{rng.randrange(10000, 99999)}; dilution factor "
            f"{rng.choice((1, 1, 1, 2, 5))}; analyst {person(rng)}.",
            *rng.sample(LAB_NOTES, rng.randint(2, 3)),
        ],
    )


def fill_table_page(rng: random.Random, site: Site, sheet: Sheet, params: dict) -> None:
    st = sheet.style
    _notes(
        sheet,
        [
            note.format(unit=st.unit, agency=site.agency)
            for note in rng.sample(TABLE_NOTES, rng.randint(2, 4))
        ],
    )
    keys = _result_keys(sheet)
    by_day = {day for _, day in keys}
    rows = []
    for well, day in keys:
        dtw, ph, cond, temp = params[(well, day)]
        first = st.well(well) if len(by_day) == 1 else st.date(dt.date.fromisoformat(day))
        rows.append([first, dtw, ph, cond, temp])
    header = [
        "Well" if len(by_day) == 1 else "Date",
        "DTW (ft)",
        "pH",
        "Cond. (uS/cm)",
        "Temp. (C)",
    ]
    if rows and _table(sheet, header, rows, [90, 80, 60, 100, 80]):
        _notes(
            sheet,
            [
                "Field parameters were recorded at the end of purging. DTW = depth to water below top of casing."
            ],
        )
    discussion = rng.sample(DISCUSSION, rng.randint(2, 3))
    discussion += [rng.choice(FILLER).format(agency=site.agency) for _ in range(rng.randint(1, 3))]
    _notes(sheet, discussion)


def fill_well_table(rng: random.Random, site: Site, sheet: Sheet) -> None:
    st = sheet.style
    _notes(
        sheet,
        [
            "Depths in feet below ground surface; screens are 0.010-inch slotted Schedule 40 PVC with a #2/12 "
            "sand filter pack and a bentonite seal; wells finished flush with a traffic-rated vault.",
        ],
    )
    rows = [
        [
            st.well(w),
            f"{rng.uniform(95, 140):.2f}",
            f"{rng.uniform(0.1, 0.6):.2f}",
            rng.choice(("good", "good", "fair")),
        ]
        for w in site.wells
    ]
    if _table(
        sheet,
        ["Well", "TOC Elevation (ft)", "Stick-up / Vault (ft)", "Condition"],
        rows,
        [90, 120, 120, 100],
    ):
        _notes(sheet, ["Elevations surveyed to the site benchmark by a licensed surveyor."])
    paragraphs = [rng.choice(FILLER).format(agency=site.agency) for _ in range(rng.randint(2, 4))]
    _notes(sheet, paragraphs)


def fill_custody(rng: random.Random, sheet: Sheet) -> None:
    _notes(
        sheet,
        [
            f"Laboratory use only: cooler temperature on receipt {rng.uniform(1.2, 5.8):.1f} C; custody seals "
            f"{rng.choice(('intact', 'intact', 'not present'))}; containers received in good condition.",
            "Preservative: HCl, 40 mL VOA vials, no headspace. Turnaround: standard (10 business days).",
            "Sampler's signature certifies that the samples were collected as described and kept on ice.",
        ],
    )


def fill_boring_log(rng: random.Random, sheet: Sheet) -> None:
    _notes(
        sheet,
        [
            "Well construction: 2-inch Schedule 40 PVC casing and 0.010-inch slot screen; #2/12 sand filter pack "
            "to two feet above the screen; hydrated bentonite chips to the surface seal.",
            f"Logged by {person(rng)}. PID readings from headspace of soil in a sealed bag. Soil descriptions "
            "follow the Unified Soil Classification System.",
        ],
    )


def fill_invoice(rng: random.Random, sheet: Sheet) -> None:
    _notes(
        sheet,
        [
            "Remit to the address above. A finance charge of 1.5 percent per month applies to balances past due.",
            f"Questions about this invoice: accounts receivable, {person(rng)}. Work performed under the "
            "master services agreement; rates per the current schedule.",
        ],
    )


__all__ = [
    "METHOD_EXTRAS",
    "field_parameters",
    "fill_boring_log",
    "fill_custody",
    "fill_invoice",
    "fill_lab_page",
    "fill_table_page",
    "fill_well_table",
    "method_analytes",
]
