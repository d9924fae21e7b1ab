"""A pinned catalogue of screening levels and regulatory standards, with their dates in force.

Each `Standard` row is one value of one screening table: who publishes it (jurisdiction,
program), for which medium and land use or exposure, which analyte (name and CAS Registry
Number) on which basis (total or dissolved metals, nitrate as N), its value and unit, whether it
is enforceable ("primary") or guidance only, the dates it is in force and the citation it comes
from. A benchmark case names one table (`table`) and a sampling date; `in_force` and
`value_in_force` give the rows and values that apply on that date.

Which values are real and which are not:
- EPA drinking-water MCLs (40 CFR 141.61 organics, 141.62 inorganics), the lead action level
  (40 CFR 141.80(c)) and the secondary MCLs (40 CFR 143.3) are the published federal values.
  The arsenic MCL is 0.05 mg/L (the interim standard of 40 CFR 141.11) for samples collected
  before 2006-01-23, the compliance date of the 2001 arsenic rule, and 0.010 mg/L from then on.
  Secondary MCLs are guidance only: they are not enforceable federally.
- EPA Regional Screening Levels (RSLs) are risk-based guidance whose published values change
  with each semiannual update. The RSL rows here are pinned for this benchmark, transcribed
  approximately from the 2023 tables (target cancer risk 1E-06; noncancer hazard quotient THQ 1.0
  or 0.1); they are fit for testing whether a system applies the table a case names, not for
  any real screening decision. An RSL table's value is the lower of the cancer-based level and
  the noncancer level at the table's THQ, so a THQ 0.1 table differs from its THQ 1.0 twin only
  for analytes whose noncancer level governs.
- The residential soil lead screening level follows EPA's soil lead guidance: 400 mg/kg (OSWER
  Directive 9355.4-12, 1994) until 2024-01-16 and 200 mg/kg from 2024-01-17 (OLEM's updated
  residential soil lead guidance); 800 mg/kg for industrial soil.
- The State of Franklin tables are fictitious, invented for this benchmark (their citations say
  so): two editions each, so a sampling date decides which values apply, some metals on a
  dissolved basis, soils for residential and industrial land use.

The catalogue is append-only: benchmark datasets pin rows by table and analyte, so a value once
committed is never changed; a correction is a new table or a new row with its own dates.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

Medium = Literal["drinking water", "tap water", "groundwater", "soil"]
Exposure = Literal["residential", "industrial"]
Basis = Literal["total", "dissolved", "as N", "as NO3"]


@dataclass(frozen=True)
class Standard:
    """One value of one screening table, as in force between two dates (both inclusive)."""

    table: str  # the screening table's ID, e.g. "epa-mcl", "epa-rsl-tapwater-thq0.1"
    jurisdiction: str
    program: str  # the program and citation short form, e.g. "EPA MCL (40 CFR 141.61)"
    medium: Medium
    exposure: Exposure | None  # land use or exposure scenario; None where the table has none
    analyte: str  # as envirobench_synth.catalogue names it where the catalogue has it
    cas: str | None
    value: float
    unit: str  # "mg/L", "µg/L" or "mg/kg"
    basis: Basis  # metals total or dissolved; nitrogen species as N or as NO3
    enforceable: bool  # True for a primary (enforceable) standard, False for guidance only
    in_force_from: dt.date | None  # None: in force since before any date a benchmark samples
    in_force_to: dt.date | None  # last day in force; None: still in force
    source: str  # the citation; a fictitious table says so here

    def in_force_on(self, day: dt.date) -> bool:
        """Whether this value applies to a sample collected on `day`."""
        if self.in_force_from is not None and day < self.in_force_from:
            return False
        return self.in_force_to is None or day <= self.in_force_to


# The arsenic rule (66 FR 6976, 2001-01-22) set 0.010 mg/L with compliance from 2006-01-23.
ARSENIC_MCL_CHANGE = dt.date(2006, 1, 23)
# OLEM's updated residential soil lead guidance, issued 2024-01-17.
SOIL_LEAD_GUIDANCE_CHANGE = dt.date(2024, 1, 17)
# The fictitious State of Franklin revised its tables once, effective this day.
FRANKLIN_REVISION = dt.date(2018, 7, 1)

_US = "United States (federal)"
_FRANKLIN = "State of Franklin (fictitious)"
_CFR_141_61 = "40 CFR 141.61(a), National Primary Drinking Water Regulations, organic MCLs"
_CFR_141_62 = "40 CFR 141.62(b), National Primary Drinking Water Regulations, inorganic MCLs"
_CFR_143_3 = "40 CFR 143.3, National Secondary Drinking Water Regulations (not enforceable)"
_RSL_SOURCE = (
    "EPA Regional Screening Levels, generic tables (TR 1E-06, THQ {thq}); values pinned for this "
    "benchmark, transcribed approximately from the 2023 tables: not for regulatory use"
)
_FRANKLIN_SOURCE = (
    "State of Franklin, fictitious, for this benchmark: Franklin Cleanup Standards, Table {n} "
    "({medium}), edition effective {start}"
)


def _mcl(analyte: str, cas: str | None, value: float, citation: str, program: str, **kw) -> Standard:
    """A row of EPA's drinking-water tables: the MCLs (enforceable) or, with `table="epa-smcl"`
    and `enforceable=False`, the secondary MCLs (guidance only)."""
    return Standard(
        table=kw.pop("table", "epa-mcl"),
        jurisdiction=_US,
        program=program,
        medium="drinking water",
        exposure=None,
        analyte=analyte,
        cas=cas,
        value=value,
        unit="mg/L",
        basis=kw.pop("basis", "total"),
        enforceable=kw.pop("enforceable", True),
        in_force_from=kw.pop("start", None),
        in_force_to=kw.pop("end", None),
        source=citation,
    )


_ORGANIC = "EPA MCL (40 CFR 141.61)"
_INORGANIC = "EPA MCL (40 CFR 141.62)"

_MCLS: tuple[Standard, ...] = (
    _mcl("Benzene", "71-43-2", 0.005, _CFR_141_61, _ORGANIC),
    _mcl("Toluene", "108-88-3", 1.0, _CFR_141_61, _ORGANIC),
    _mcl("Ethylbenzene", "100-41-4", 0.7, _CFR_141_61, _ORGANIC),
    _mcl("Xylenes, Total", "1330-20-7", 10.0, _CFR_141_61, _ORGANIC),
    _mcl("Tetrachloroethene", "127-18-4", 0.005, _CFR_141_61, _ORGANIC),
    _mcl("Trichloroethene", "79-01-6", 0.005, _CFR_141_61, _ORGANIC),
    _mcl("cis-1,2-Dichloroethene", "156-59-2", 0.07, _CFR_141_61, _ORGANIC),
    _mcl("trans-1,2-Dichloroethene", "156-60-5", 0.1, _CFR_141_61, _ORGANIC),
    _mcl("1,1-Dichloroethene", "75-35-4", 0.007, _CFR_141_61, _ORGANIC),
    _mcl("Vinyl chloride", "75-01-4", 0.002, _CFR_141_61, _ORGANIC),
    _mcl("Methylene chloride", "75-09-2", 0.005, _CFR_141_61, _ORGANIC),
    _mcl("1,2-Dichloroethane", "107-06-2", 0.005, _CFR_141_61, _ORGANIC),
    _mcl("Carbon tetrachloride", "56-23-5", 0.005, _CFR_141_61, _ORGANIC),
    _mcl("1,1,1-Trichloroethane", "71-55-6", 0.2, _CFR_141_61, _ORGANIC),
    _mcl(
        "Benzo(a)pyrene",
        "50-32-8",
        0.0002,
        _CFR_141_61 + " (synthetic organics, 141.61(c))",
        _ORGANIC,
    ),
    _mcl(
        "Arsenic",
        "7440-38-2",
        0.05,
        "40 CFR 141.11(b), interim MCL for arsenic, superseded by 40 CFR 141.62 (66 FR 6976) "
        "from the compliance date 2006-01-23",
        "EPA interim MCL (40 CFR 141.11)",
        end=ARSENIC_MCL_CHANGE - dt.timedelta(days=1),
    ),
    _mcl(
        "Arsenic",
        "7440-38-2",
        0.010,
        _CFR_141_62 + "; arsenic rule 66 FR 6976, compliance date 2006-01-23",
        _INORGANIC,
        start=ARSENIC_MCL_CHANGE,
    ),
    _mcl("Barium", "7440-39-3", 2.0, _CFR_141_62, _INORGANIC),
    _mcl("Cadmium", "7440-43-9", 0.005, _CFR_141_62, _INORGANIC),
    _mcl("Chromium", "7440-47-3", 0.1, _CFR_141_62 + " (total chromium)", _INORGANIC),
    _mcl("Mercury", "7439-97-6", 0.002, _CFR_141_62 + " (inorganic mercury)", _INORGANIC),
    _mcl("Selenium", "7782-49-2", 0.05, _CFR_141_62, _INORGANIC),
    _mcl("Antimony", "7440-36-0", 0.006, _CFR_141_62, _INORGANIC),
    _mcl("Beryllium", "7440-41-7", 0.004, _CFR_141_62, _INORGANIC),
    _mcl("Thallium", "7440-28-0", 0.002, _CFR_141_62, _INORGANIC),
    _mcl("Fluoride", "16984-48-8", 4.0, _CFR_141_62, _INORGANIC),
    _mcl("Nitrate", "14797-55-8", 10.0, _CFR_141_62 + " (nitrate, as N)", _INORGANIC, basis="as N"),
    _mcl("Nitrite", "14797-65-0", 1.0, _CFR_141_62 + " (nitrite, as N)", _INORGANIC, basis="as N"),
    _mcl(
        "Lead",
        "7439-92-1",
        0.015,
        "40 CFR 141.80(c), Lead and Copper Rule action level (a treatment-technique trigger "
        "measured at the tap, used as the screening value for lead)",
        "EPA lead action level (40 CFR 141.80(c))",
    ),
    _mcl(
        "Copper",
        "7440-50-8",
        1.3,
        "40 CFR 141.80(c), Lead and Copper Rule action level for copper",
        "EPA copper action level (40 CFR 141.80(c))",
    ),
)


def _smcl(analyte: str, cas: str | None, value: float) -> Standard:
    return _mcl(
        analyte,
        cas,
        value,
        _CFR_143_3,
        "EPA secondary MCL (40 CFR 143.3)",
        table="epa-smcl",
        enforceable=False,
    )


_SMCLS: tuple[Standard, ...] = (
    # Aluminum's secondary level is a range (0.05 to 0.2 mg/L); its upper end is the level here.
    _smcl("Aluminum", "7429-90-5", 0.2),
    _smcl("Chloride", "16887-00-6", 250.0),
    _smcl("Copper", "7440-50-8", 1.0),
    _smcl("Fluoride", "16984-48-8", 2.0),
    _smcl("Iron", "7439-89-6", 0.3),
    _smcl("Manganese", "7439-96-5", 0.05),
    _smcl("Silver", "7440-22-4", 0.1),
    _smcl("Sulfate", "14808-79-8", 250.0),
    _smcl("Total dissolved solids", None, 500.0),
    _smcl("Zinc", "7440-66-6", 5.0),
)

# RSL inputs, one row per analyte for the three RSL media (each analyte's name and CAS number
# written once): (name, CAS, tap water, residential soil, industrial soil), each medium a pair
# (cancer-based level or None, noncancer level at THQ 1.0 or None), tap water in µg/L, soils in
# mg/kg; None where that medium's table has no row for the analyte. Approximate 2023 values,
# pinned (see above).
_RslLevels = tuple[float | None, float | None]
_RslInputs = tuple[str, str, _RslLevels, _RslLevels | None, _RslLevels | None]
_RSL_INPUTS: tuple[_RslInputs, ...] = (
    ("Benzene", "71-43-2", (0.46, 33.0), (1.2, 82.0), (5.1, 420.0)),
    ("Toluene", "108-88-3", (None, 1100.0), (None, 4900.0), (None, 47000.0)),
    ("Ethylbenzene", "100-41-4", (1.5, 810.0), (5.8, 3900.0), (25.0, 20000.0)),
    ("Xylenes, Total", "1330-20-7", (None, 190.0), (None, 580.0), (None, 2500.0)),
    ("Tetrachloroethene", "127-18-4", (11.0, 41.0), (24.0, 81.0), (100.0, 390.0)),
    ("Trichloroethene", "79-01-6", (0.49, 2.8), (0.94, 4.1), (6.0, 19.0)),
    ("cis-1,2-Dichloroethene", "156-59-2", (None, 25.0), None, None),
    ("1,1-Dichloroethene", "75-35-4", (None, 280.0), None, None),
    ("Vinyl chloride", "75-01-4", (0.019, 44.0), (0.059, 70.0), (1.7, 330.0)),
    ("Naphthalene", "91-20-3", (0.12, 6.1), (2.0, 13.0), (8.6, 59.0)),
    ("Arsenic", "7440-38-2", (0.052, 6.0), (0.68, 35.0), (3.0, 480.0)),
    ("Barium", "7440-39-3", (None, 3800.0), (None, 15000.0), (None, 220000.0)),
    ("Cadmium", "7440-43-9", (None, 9.2), (None, 71.0), (None, 980.0)),
    ("Manganese", "7439-96-5", (None, 430.0), (None, 1800.0), (None, 26000.0)),
    ("Nickel", "7440-02-0", (None, 390.0), (None, 1500.0), (None, 22000.0)),
    ("Selenium", "7782-49-2", (None, 100.0), (None, 390.0), (None, 5800.0)),
    ("Zinc", "7440-66-6", (None, 6000.0), (None, 23000.0), (None, 350000.0)),
    ("Copper", "7440-50-8", (None, 800.0), (None, 3100.0), (None, 47000.0)),
    ("Nitrate", "14797-55-8", (None, 32000.0), None, None),
    (
        "Chromium",
        "7440-47-3",
        (None, 22000.0),
        (None, 120000.0),
        (None, 1800000.0),
    ),  # as chromium(III)
    ("Mercury", "7439-97-6", (None, 0.63), (None, 11.0), (None, 46.0)),  # as mercuric chloride
    ("Silver", "7440-22-4", (None, 94.0), (None, 390.0), (None, 5800.0)),
    ("Benzo(a)pyrene", "50-32-8", (0.025, 12.0), (0.11, 18.0), (2.1, 220.0)),
    ("Methyl tert-butyl ether", "1634-04-4", (14.0, 6300.0), (47.0, 3200.0), (210.0, 37000.0)),
    ("Chloroform", "67-66-3", (0.22, 97.0), None, None),
    ("1,2-Dichloroethane", "107-06-2", (0.17, 13.0), None, None),
)
# Which level pair of an `_RslInputs` row each RSL medium reads.
_RSL_TAPWATER, _RSL_RESIDENTIAL, _RSL_INDUSTRIAL = 2, 3, 4


def _rsl_value(cancer: float | None, noncancer: float | None, thq: float) -> float:
    candidates = [v for v in (cancer, None if noncancer is None else noncancer * thq) if v]
    # Rounded to two significant figures, as the published tables print them.
    return float(f"{min(candidates):.2g}")


def _rsl_table(
    column: int,
    medium: Medium,
    exposure: Exposure | None,
    unit: str,
    thq: float,
) -> tuple[Standard, ...]:
    where = "tapwater" if medium == "tap water" else f"soil-{exposure}"
    thq_text = "1.0" if thq == 1.0 else "0.1"
    table = f"epa-rsl-{where}-thq{thq_text}"
    label = "tapwater" if medium == "tap water" else f"{exposure} soil"
    rows = []
    for row in _RSL_INPUTS:
        name, cas, levels = row[0], row[1], row[column]
        if levels is None:
            continue
        cancer, noncancer = levels
        rows.append(
            Standard(
                table=table,
                jurisdiction=_US,
                program=f"EPA RSL {label} THQ {thq_text}",
                medium=medium,
                exposure=exposure,
                analyte=name,
                cas=cas,
                value=_rsl_value(cancer, noncancer, thq),
                unit=unit,
                basis="as N" if name == "Nitrate" else "total",
                enforceable=False,
                in_force_from=None,
                in_force_to=None,
                source=_RSL_SOURCE.format(thq=thq_text),
            )
        )
    return tuple(rows)


def _soil_lead(exposure: Exposure, thq_text: str) -> tuple[Standard, ...]:
    table = f"epa-rsl-soil-{exposure}-thq{thq_text}"
    common = dict(
        table=table,
        jurisdiction=_US,
        program=f"EPA RSL {exposure} soil THQ {thq_text}",
        medium="soil",
        exposure=exposure,
        analyte="Lead",
        cas="7439-92-1",
        unit="mg/kg",
        basis="total",
        enforceable=False,
    )
    if exposure == "industrial":
        return (
            Standard(
                **common,
                value=800.0,
                in_force_from=None,
                in_force_to=None,
                source="EPA adult lead methodology screening level for industrial soil, as "
                "listed with the RSLs (lead has no RfD or slope factor; THQ does not apply)",
            ),
        )
    return (
        Standard(
            **common,
            value=400.0,
            in_force_from=None,
            in_force_to=SOIL_LEAD_GUIDANCE_CHANGE - dt.timedelta(days=1),
            source="OSWER Directive 9355.4-12 (1994), residential soil lead screening level, "
            "superseded 2024-01-17 (lead has no RfD or slope factor; THQ does not apply)",
        ),
        Standard(
            **common,
            value=200.0,
            in_force_from=SOIL_LEAD_GUIDANCE_CHANGE,
            in_force_to=None,
            source="EPA OLEM, Updated Residential Soil Lead Guidance for CERCLA Sites and RCRA "
            "Corrective Action Facilities, 2024-01-17",
        ),
    )


_RSLS: tuple[Standard, ...] = (
    *_rsl_table(_RSL_TAPWATER, "tap water", None, "µg/L", 1.0),
    *_rsl_table(_RSL_TAPWATER, "tap water", None, "µg/L", 0.1),
    *_rsl_table(_RSL_RESIDENTIAL, "soil", "residential", "mg/kg", 1.0),
    *_soil_lead("residential", "1.0"),
    *_rsl_table(_RSL_RESIDENTIAL, "soil", "residential", "mg/kg", 0.1),
    *_soil_lead("residential", "0.1"),
    *_rsl_table(_RSL_INDUSTRIAL, "soil", "industrial", "mg/kg", 1.0),
    *_soil_lead("industrial", "1.0"),
    *_rsl_table(_RSL_INDUSTRIAL, "soil", "industrial", "mg/kg", 0.1),
    *_soil_lead("industrial", "0.1"),
)

# State of Franklin (fictitious): (analyte, CAS, basis, first edition value, revised value).
_FranklinRow = tuple[str, str | None, Basis, float, float]
_FRANKLIN_GROUNDWATER: tuple[_FranklinRow, ...] = (  # µg/L
    ("Benzene", "71-43-2", "total", 5.0, 1.0),
    ("Toluene", "108-88-3", "total", 1000.0, 600.0),
    ("Ethylbenzene", "100-41-4", "total", 700.0, 700.0),
    ("Xylenes, Total", "1330-20-7", "total", 10000.0, 1000.0),
    ("Tetrachloroethene", "127-18-4", "total", 5.0, 5.0),
    ("Trichloroethene", "79-01-6", "total", 5.0, 2.0),
    ("cis-1,2-Dichloroethene", "156-59-2", "total", 70.0, 70.0),
    ("Vinyl chloride", "75-01-4", "total", 2.0, 0.2),
    ("Methyl tert-butyl ether", "1634-04-4", "total", 40.0, 20.0),
    ("Naphthalene", "91-20-3", "total", 20.0, 6.0),
    ("1,4-Dioxane", "123-91-1", "total", 3.0, 0.4),
    ("Arsenic", "7440-38-2", "total", 50.0, 10.0),
    ("Barium", "7440-39-3", "total", 2000.0, 2000.0),
    ("Cadmium", "7440-43-9", "dissolved", 5.0, 4.0),
    ("Chromium", "7440-47-3", "total", 100.0, 50.0),
    ("Lead", "7439-92-1", "dissolved", 15.0, 5.0),
    ("Selenium", "7782-49-2", "dissolved", 50.0, 50.0),
    ("Manganese", "7439-96-5", "dissolved", 300.0, 300.0),
    ("Nitrate", "14797-55-8", "as N", 10000.0, 10000.0),
)
# Franklin's two soil tables list the same analytes: one row each, (analyte, CAS, basis,
# residential (first, revised), industrial (first, revised)), all mg/kg.
_FRANKLIN_SOIL: tuple[tuple[str, str, Basis, tuple[float, float], tuple[float, float]], ...] = (
    ("Benzene", "71-43-2", "total", (0.5, 0.2), (5.0, 2.0)),
    ("Toluene", "108-88-3", "total", (500.0, 500.0), (5000.0, 5000.0)),
    ("Tetrachloroethene", "127-18-4", "total", (5.0, 2.0), (50.0, 20.0)),
    ("Trichloroethene", "79-01-6", "total", (5.0, 1.0), (50.0, 10.0)),
    ("Naphthalene", "91-20-3", "total", (5.0, 5.0), (50.0, 40.0)),
    ("Benzo(a)pyrene", "50-32-8", "total", (0.2, 0.11), (2.0, 1.3)),
    ("Arsenic", "7440-38-2", "total", (20.0, 10.0), (40.0, 40.0)),
    ("Cadmium", "7440-43-9", "total", (40.0, 20.0), (400.0, 200.0)),
    ("Chromium", "7440-47-3", "total", (200.0, 120.0), (1000.0, 800.0)),
    ("Lead", "7439-92-1", "total", (400.0, 200.0), (1000.0, 800.0)),
    ("Mercury", "7439-97-6", "total", (20.0, 10.0), (100.0, 60.0)),
)
_FRANKLIN_SOIL_RESIDENTIAL = tuple(
    (n, cas, basis, *res) for n, cas, basis, res, _ in _FRANKLIN_SOIL
)
_FRANKLIN_SOIL_INDUSTRIAL = tuple((n, cas, basis, *ind) for n, cas, basis, _, ind in _FRANKLIN_SOIL)
_FRANKLIN_FIRST_EDITION = dt.date(2009, 7, 1)


def two_edition_table(
    rows: Iterable[_FranklinRow],
    *,
    table: str,
    jurisdiction: str,
    program: str,
    medium: Medium,
    exposure: Exposure | None,
    unit: str,
    first_edition: dt.date,
    revision: dt.date,
    source: Callable[[dt.date], str],
) -> tuple[Standard, ...]:
    """An enforceable state table in two editions: each row (analyte, CAS, basis, first edition's
    value, revised value) gives one Standard in force from `first_edition` to the day before
    `revision` and one from `revision` on; `source(start)` cites the edition that starts then.
    The fictitious Franklin tables here and research's Sequoyah tables are built so."""
    out = []
    for name, cas, basis, first, revised in rows:
        for value, start, end in (
            (first, first_edition, revision - dt.timedelta(days=1)),
            (revised, revision, None),
        ):
            out.append(
                Standard(
                    table=table,
                    jurisdiction=jurisdiction,
                    program=program,
                    medium=medium,
                    exposure=exposure,
                    analyte=name,
                    cas=cas,
                    value=value,
                    unit=unit,
                    basis=basis,
                    enforceable=True,
                    in_force_from=start,
                    in_force_to=end,
                    source=source(start),
                )
            )
    return tuple(out)


def _franklin_table(
    rows: Iterable[_FranklinRow],
    table: str,
    number: int,
    medium: Medium,
    exposure: Exposure | None,
    unit: str,
) -> tuple[Standard, ...]:
    where = "groundwater" if exposure is None else f"{exposure} soil"
    return two_edition_table(
        rows,
        table=table,
        jurisdiction=_FRANKLIN,
        program=f"Franklin Cleanup Standards Table {number} ({where})",
        medium=medium,
        exposure=exposure,
        unit=unit,
        first_edition=_FRANKLIN_FIRST_EDITION,
        revision=FRANKLIN_REVISION,
        source=lambda start: _FRANKLIN_SOURCE.format(n=number, medium=where, start=start.isoformat()),
    )


_FRANKLIN: tuple[Standard, ...] = (
    *_franklin_table(_FRANKLIN_GROUNDWATER, "franklin-groundwater", 1, "groundwater", None, "µg/L"),
    *_franklin_table(
        _FRANKLIN_SOIL_RESIDENTIAL, "franklin-soil-residential", 2, "soil", "residential", "mg/kg"
    ),
    *_franklin_table(
        _FRANKLIN_SOIL_INDUSTRIAL, "franklin-soil-industrial", 3, "soil", "industrial", "mg/kg"
    ),
)

STANDARDS: tuple[Standard, ...] = (*_MCLS, *_SMCLS, *_RSLS, *_FRANKLIN)


def table_ids() -> tuple[str, ...]:
    """Every screening table's ID, in catalogue order."""
    return tuple(dict.fromkeys(row.table for row in STANDARDS))


def standards_of(table: str) -> tuple[Standard, ...]:
    """Every row of one table, all dates; a clear error for an unknown table."""
    rows = tuple(row for row in STANDARDS if row.table == table)
    if not rows:
        raise KeyError(f"unknown screening table {table!r}; known: {', '.join(table_ids())}")
    return rows


def in_force(table: str, day: dt.date) -> tuple[Standard, ...]:
    """The rows of `table` that apply to a sample collected on `day`."""
    return tuple(row for row in standards_of(table) if row.in_force_on(day))


def value_in_force(
    table: str, analyte: str, day: dt.date, *, basis: Basis | None = None
) -> Standard | None:
    """The row of `table` for `analyte` (name or CAS number) in force on `day`, or None.

    `basis` narrows to total or dissolved metals (or nitrate as N); without it the one row in
    force must be unambiguous."""
    key = analyte.strip().casefold()
    rows = [
        row
        for row in in_force(table, day)
        if key in (row.analyte.casefold(), (row.cas or "").casefold())
        and (basis is None or row.basis == basis)
    ]
    if len(rows) > 1:
        raise ValueError(f"{analyte!r} has {len(rows)} rows in {table!r} on {day}; name a basis")
    return rows[0] if rows else None


def as_json(rows: Iterable[Standard]) -> list[dict[str, object]]:
    """Rows as JSON-ready objects (dates as ISO 8601 strings, null where open), field for field."""
    out = []
    for row in rows:
        item: dict[str, object] = {}
        for name in Standard.__dataclass_fields__:
            value = getattr(row, name)
            item[name] = value.isoformat() if isinstance(value, dt.date) else value
        out.append(item)
    return out
